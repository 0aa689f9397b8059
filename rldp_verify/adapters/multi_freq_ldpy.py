"""multi-freq-ldpy's clients as structured exact channels (see :mod:`rldp_verify.adapters`): the pure frequency
oracles (GRR, UE, LH, SS, HE), the longitudinal ones (L_GRR, L_SUE, L_OUE, L_OSUE, L_SOUE), sampling over
attributes (SMP_*) and random sampling plus fake data (RSpFD_GRR, RSpFD_UE_zero); the others are in
:mod:`~rldp_verify.adapters.multi_freq_ldpy_more`. The clients are numba-compiled; their
Python functions are traced (:func:`rldp_verify.structured.trace.as_compiled`)."""

from __future__ import annotations

from rldp_verify.adapters._common import (
    COMPARISONS,
    SEED_SEARCH,
    _always,
    _cmp,
    _eps,
    _ev_of,
    _Events,
    _laplace_scales,
    _left,
    _lh_hash,
    _lst_k,
    _separating,
    _size,
    _trace,
    _version,
    xxhash_problem,
)
from rldp_verify.core.errors import InputError
from rldp_verify.structured import (
    Adapted,
    AttributeMixture,
    BitChannel,
    FakeDataMixture,
    FakeDataUnary,
    LaplaceHistogram,
    PublicMixture,
    SubsetSelection,
    Symmetric,
    UnaryProduct,
)

NUMBA_NOTE = "multi-freq-ldpy's clients are numba-compiled: draws come from numba's generator"
BINOM = "binomial-numba"
GRR_SAMPLER = ("numba np.random.binomial(1, p) (rejection loop on k/2^53 uniforms, exact count), else "
               "np.random.choice of the other values (uniform)")
LONG_NOTE = "eps_1 is the claim for one report; the first round alone is eps_perm"
PURE = ("GRR_Client", "UE_Client", "LH_Client", "SS_Client", "HE_Client")
LONGITUDINAL = ("L_GRR_Client", "L_SUE_Client", "L_OUE_Client", "L_OSUE_Client", "L_SOUE_Client")
SMP = ("SMP_GRR_Client", "SMP_UE_Client", "SMP_LH_Client", "SMP_SS_Client", "SMP_ADP_Client")


def _mfl_grr_p(k, epsilon):
    """The float p that multi-freq-ldpy's GRR_Client passes to binomial(1, p) (traced)."""
    from multi_freq_ldpy.pure_frequency_oracles.GRR import GRR_Client

    log, _ = _trace(GRR_Client, 0, k, epsilon)
    b = [e for e in log if e[0] == "binomial"]
    if len(b) != 1 or b[0][1] != 1:
        raise InputError("multi-freq-ldpy GRR_Client does not draw binomial(1, p); unsupported version")
    return b[0][2]


def _unary_trace(fn, k, *args):
    """(p_hot, q_cold) thresholds of one round, or of two rounds for the longitudinal clients."""
    x = 1
    log, _ = _trace(fn, x, k, *args, decide=lambda i, op, c: i == x)
    cmps = [e for e in log if len(e) == 3 and e[0] in COMPARISONS]
    if len(cmps) not in (k, 2 * k):
        raise InputError(f"{getattr(fn, '__name__', fn)} draws {len(cmps)} uniforms for k = {k}; unsupported")
    rounds = [cmps[:k]] + ([cmps[k:]] if len(cmps) == 2 * k else [])
    out = []
    for r in rounds:
        if r[x][0] != "<=" or any(e[0] != "<=" for e in r):
            raise InputError("multi-freq-ldpy unary encoding compares with an operator other than <=; unsupported")
        out.append((r[x][1], r[0][1]))
    return out


class _Call:
    """One adapter call: the client's name, its label, the parameters not read yet and the event model."""

    def __init__(self, name: str, label: str, params: dict, ev: _Events):
        self.name, self.label, self.params, self.ev = name, label, params, ev

    def pop(self, key, conv, default=None):
        """The parameter ``key`` converted by ``conv`` (``default`` when absent and not None)."""
        if key not in self.params:
            if default is not None:
                return default
            raise InputError(f"multi-freq-ldpy {self.name} needs {key}=...")
        return conv(self.params.pop(key))

    def done(self) -> None:
        """Refuse the parameters left unread."""
        _left(self.params, self.label)

    def sampler(self, code: str, ideal: str) -> str:
        """The sampler description under the event model."""
        return code if self.ev.model == "code" else ideal


def _attributes(c: _Call, *, need_one: bool = False) -> tuple[list[int], int]:
    """``lst_k`` and ``d`` of a multidimensional client: d must be len(lst_k) (and at least 1 with ``need_one``)."""
    lst_k = _lst_k(c.params, c.label)
    d = c.pop("d", lambda v: int(v), len(lst_k))
    if d != len(lst_k) or (need_one and d < 1):
        raise InputError(f"d = {d} must be the number of attributes, len(lst_k) = {len(lst_k)}")
    return lst_k, d


def _mfl(fn, ev: _Events, params) -> Adapted:
    from multi_freq_ldpy import __name__ as _  # noqa: F401  (the library is importable)

    name = getattr(getattr(fn, "py_func", fn), "__name__", type(fn).__name__)
    c = _Call(name, f"multi-freq-ldpy {_version('multi-freq-ldpy')} {name}", dict(params), ev)
    from rldp_verify.adapters.multi_freq_ldpy_more import MORE, _more

    if name in MORE:
        return _more(c)
    k = c.pop("k", lambda v: _size(v, "k")) if not name.startswith(("SMP_", "RSpFD_")) else None
    if name in PURE:
        return _pure(c, k)
    if name in LONGITUDINAL:
        return _longitudinal(c, k)
    if name in SMP:
        return _smp(c)
    if name == "RSpFD_GRR_Client":
        return _rspfd(c)
    if name == "RSpFD_UE_zero_Client":
        return _rspfd_ue_zero(c)
    raise InputError(f"unsupported multi-freq-ldpy object {name!r} (supported: GRR_Client, UE_Client, LH_Client, "
                     "SS_Client, HE_Client, L_GRR_Client, L_SUE_Client, L_OUE_Client, L_OSUE_Client, L_SOUE_Client, "
                     "SMP_GRR_Client, SMP_UE_Client, SMP_LH_Client, SMP_SS_Client, SMP_ADP_Client, RSpFD_GRR_Client, "
                     "RSpFD_UE_zero_Client, " + ", ".join(MORE) + ")")


# ------------------------------------------------------------------------------------------ pure oracles


def _pure(c: _Call, k) -> Adapted:
    epsilon = c.pop("epsilon", _eps)
    optimal = bool(c.params.pop("optimal", True)) if c.name in ("UE_Client", "LH_Client") else None
    as_set = bool(c.params.pop("as_set", False)) if c.name == "SS_Client" else None
    c.done()
    if c.name == "GRR_Client":
        return _grr(c, k, epsilon)
    if c.name == "UE_Client":
        return _ue(c, k, epsilon, optimal)
    if c.name == "LH_Client":
        return _lh(c, k, epsilon, optimal)
    if c.name == "SS_Client":
        return _ss(c, k, epsilon, as_set)
    return _he(c, k, epsilon)


def _grr(c: _Call, k, epsilon) -> Adapted:
    p = _mfl_grr_p(k, epsilon)

    def rebuild(f):
        a = c.ev(BINOM, f["p"])
        return Symmetric(k, a, (1 - a) / (k - 1))
    return Adapted(rebuild({"p": p}), c.label, c.sampler(GRR_SAMPLER, "exact Bernoulli(p)"), {"p": p}, rebuild,
                   [NUMBA_NOTE])


def _ue(c: _Call, k, epsilon, optimal) -> Adapted:
    from multi_freq_ldpy.pure_frequency_oracles.UE import UE_Client

    (ph, qc), = _unary_trace(UE_Client, k, epsilon, optimal)

    def rebuild(f):
        return UnaryProduct(k, BitChannel(c.ev("le", f["p"]), c.ev("le", f["q"])))
    return Adapted(rebuild({"p": ph, "q": qc}), f"{c.label} ({'OUE' if optimal else 'SUE'})",
                   c.sampler("numba np.random.random() <= p per bit (Pr = (floor(p 2^53) + 1)/2^53)",
                             "exact Bernoulli(p), Bernoulli(q)"),
                   {"p": ph, "q": qc}, rebuild, [NUMBA_NOTE])


def _lh(c: _Call, k, epsilon, optimal) -> Adapted:
    import numpy as np

    g = int(round(np.exp(epsilon))) + 1 if optimal else 2
    p = _mfl_grr_p(g, epsilon)
    problem = xxhash_problem()

    def bucket(x, s):
        return _lh_hash(x, s, g)

    def rebuild(f):
        a = c.ev(BINOM, f["p"])
        return PublicMixture(k, g, a, (1 - a) / (g - 1), _separating(g, range(SEED_SEARCH)), range(8), bucket)
    samp = c.sampler("seed = np.random.randint(0, sys.maxsize) (public, released); bucket = xxh32(str(x), seed) % g; "
                     "then GRR_Client on g buckets: " + GRR_SAMPLER, "exact GRR (ideal)")
    return Adapted(rebuild({"p": p}), f"{c.label} ({'OLH' if optimal else 'BLH'}, g = {g})", samp, {"p": p},
                   rebuild, [NUMBA_NOTE] + ([problem] if problem else []))


def _ss(c: _Call, k, epsilon, as_set) -> Adapted:
    from multi_freq_ldpy.pure_frequency_oracles.SS import SS_Client

    log, out = _trace(SS_Client, 0, k, epsilon, decide=_always)
    op, pv = _cmp(log, 0)
    m = len(out)

    def rebuild(f):
        return SubsetSelection(k, m, _ev_of(c.ev, op, f["p_v"]), ordered=not as_set)
    note = ("output audited as the set (as_set=True): the order of the returned array is discarded"
            if as_set else "output audited as the ordered array SS_Client returns: the true value, when "
            "included, is its first entry (pass as_set=True to audit the set only)")
    return Adapted(rebuild({"p_v": pv}), f"{c.label} (subset size {m})",
                   c.sampler(f"numba np.random.random() {op} p_v, subsets by np.random.choice(replace=False) "
                             "(uniform permutation)", "exact Bernoulli(p_v)"),
                   {"p_v": pv}, rebuild, [NUMBA_NOTE, note])


def _he(c: _Call, k, epsilon) -> Adapted:
    from multi_freq_ldpy.pure_frequency_oracles.HE import HE_Client

    log, _ = _trace(HE_Client, 0, k, epsilon)
    b = _laplace_scales(log)[0]
    return Adapted(LaplaceHistogram(k, b), f"{c.label} (SHE / THE: thresholding is server-side)",
                   f"ideal continuous Laplace(0, b = {b!r}) (the float sampler is not modelled)", {},
                   None)


# ------------------------------------------------------------------------------------------ longitudinal


def _longitudinal(c: _Call, k) -> Adapted:
    eps_perm = c.pop("eps_perm", lambda v: _eps(v, "eps_perm"))
    eps_1 = c.pop("eps_1", lambda v: _eps(v, "eps_1"))
    c.done()
    if not float(eps_1) < float(eps_perm):
        raise InputError(f"eps_1 = {eps_1} must be < eps_perm = {eps_perm} (multi-freq-ldpy refuses it too)")
    if c.name == "L_GRR_Client":
        return _l_grr(c, k, eps_perm, eps_1)
    return _l_unary(c, k, eps_perm, eps_1)


def _l_grr(c: _Call, k, eps_perm, eps_1) -> Adapted:
    import multi_freq_ldpy.long_freq_est.L_GRR as mod

    log, _ = _trace(mod.L_GRR_Client, 0, k, eps_perm, eps_1, unjit=(mod,))
    b = [e[2] for e in log if e[0] == "binomial"]
    if len(b) != 2:
        raise InputError("multi-freq-ldpy L_GRR_Client does not draw two binomials; unsupported version")

    def rebuild(f):
        a1, a2 = c.ev(BINOM, f["p1"]), c.ev(BINOM, f["p2"])
        return Symmetric(k, a1, (1 - a1) / (k - 1)).then(Symmetric(k, a2, (1 - a2) / (k - 1)))
    fp = {"p1": b[0], "p2": b[1]}
    return Adapted(rebuild(fp), f"{c.label} (one report: memoised GRR then GRR)",
                   c.sampler("two rounds of " + GRR_SAMPLER, "exact GRR rounds"), fp, rebuild,
                   [NUMBA_NOTE, LONG_NOTE])


def _l_unary(c: _Call, k, eps_perm, eps_1) -> Adapted:
    import importlib

    mod = importlib.import_module(f"multi_freq_ldpy.long_freq_est.{c.name[:-7]}")
    (p1, q1), (p2, q2) = _unary_trace(getattr(mod, c.name), k, eps_perm, eps_1)

    def rebuild(f):
        first = BitChannel(c.ev("le", f["p1"]), c.ev("le", f["q1"]))
        return UnaryProduct(k, first.then(BitChannel(c.ev("le", f["p2"]), c.ev("le", f["q2"]))))
    fp = {"p1": p1, "q1": q1, "p2": p2, "q2": q2}
    return Adapted(rebuild(fp), f"{c.label} (one report: memoised round then second round, per bit)",
                   c.sampler("numba np.random.random() <= threshold per bit and round", "exact Bernoulli rounds"),
                   fp, rebuild, [NUMBA_NOTE, LONG_NOTE])


# ------------------------------------------------------------------------------------------ multidimensional


def _smp(c: _Call) -> Adapted:
    lst_k, d = _attributes(c, need_one=True)
    epsilon = c.pop("epsilon", _eps)
    inner_params = {}
    if c.name in ("SMP_UE_Client", "SMP_LH_Client", "SMP_ADP_Client"):
        inner_params["optimal"] = bool(c.params.pop("optimal", True))
    c.done()
    import importlib

    base = c.name[4:]
    inner = getattr(importlib.import_module(f"multi_freq_ldpy.pure_frequency_oracles.{base.split('_')[0]}"), base)
    comps = [_mfl(inner, c.ev, {"k": kj, "epsilon": epsilon, **inner_params}) for kj in lst_k]
    fp = {f"{j}:{n}": v for j, a in enumerate(comps) for n, v in a.float_params.items()}

    def rebuild(f):
        return AttributeMixture([a.rebuild({n: f[f"{j}:{n}"] for n in a.float_params}) if a.rebuild else
                                 a.structure for j, a in enumerate(comps)])
    return Adapted(AttributeMixture([a.structure for a in comps]), f"{c.label} (d = {d}, lst_k = {lst_k})",
                   f"attribute = np.random.randint(d) (uniform, released); then {comps[0].sampler}", fp, rebuild,
                   list(dict.fromkeys(n for a in comps for n in a.notes)))


def _rspfd_amplified_eps(c: _Call, lst_k, d, epsilon):
    """The eps that ``RSpFD_GRR_Client`` hands its one GRR_Client call (traced, GRR_Client stubbed)."""
    import multi_freq_ldpy.mdim_freq_est.RSpFD_solution as mod

    calls = []

    def grr_stub(v, k, e):   # records the call, reports 0
        calls.append((int(k), e))
        return 0
    saved = mod.GRR_Client
    mod.GRR_Client = grr_stub
    try:
        log, _ = _trace(mod.RSpFD_GRR_Client, [0] * d, lst_k, d, epsilon)
    finally:
        mod.GRR_Client = saved
    draws = [e[1] for e in log if e[0] == "randint" and e[2] is None]   # randint(d), then randint(k_i)
    if len(calls) != 1 or draws != [d] + lst_k[1:]:
        raise InputError(f"{c.label} does not draw one GRR report and uniform fake values; unsupported version")
    return calls[0][1]


def _rspfd(c: _Call) -> Adapted:
    lst_k, d = _attributes(c)
    epsilon = c.pop("epsilon", _eps)
    c.done()
    from multi_freq_ldpy.pure_frequency_oracles.GRR import GRR_Client

    amp = _rspfd_amplified_eps(c, lst_k, d, epsilon)
    comps = [_mfl(GRR_Client, c.ev, {"k": kj, "epsilon": amp}) for kj in lst_k]
    fp = {f"{j}:p": a.float_params["p"] for j, a in enumerate(comps)}

    def rebuild(f):
        return FakeDataMixture([a.rebuild({"p": f[f"{j}:p"]}) for j, a in enumerate(comps)])
    return Adapted(FakeDataMixture([a.structure for a in comps]), f"{c.label} (d = {d}, lst_k = {lst_k})",
                   f"secret attribute = np.random.randint(d); GRR_Client with the amplified eps {amp!r}: "
                   f"{comps[0].sampler}; fake values np.random.randint(k_i) (uniform)", fp, rebuild,
                   [NUMBA_NOTE, "the sampled attribute is not released: the channel is a ratio of sums over "
                    "the attributes, maximised exactly"])


def _rspfd_ue_amplified_eps(c: _Call, lst_k, d, epsilon, optimal):
    """The eps that ``RSpFD_UE_zero_Client`` hands its UE_Client calls (traced, UE_Client stubbed): one call with
    the sampled attribute's value and d - 1 with None (the zero vector), all with the same eps and ``optimal``."""
    import multi_freq_ldpy.mdim_freq_est.RSpFD_solution as mod

    calls = []

    def ue_stub(v, k, e, opt=True):   # records the call, reports the zero vector
        calls.append((v, int(k), e, bool(opt)))
        return [0] * int(k)
    saved = mod.UE_Client
    mod.UE_Client = ue_stub
    try:
        log, _ = _trace(mod.RSpFD_UE_zero_Client, [0] * d, lst_k, d, epsilon, optimal)
    finally:
        mod.UE_Client = saved
    draws = [e[1] for e in log if e[0] == "randint" and e[2] is None]
    ok = (len(calls) == d and draws == [d] and [k for _, k, _, _ in calls] == list(lst_k)
          and sum(v is None for v, _, _, _ in calls) == d - 1 and len({(e, o) for _, _, e, o in calls}) == 1
          and calls[0][3] == bool(optimal))
    if not ok:
        raise InputError(f"{c.label} does not draw one sampled attribute and zero-vector UE fake data; unsupported "
                         "version")
    return calls[0][2]


def _rspfd_ue_zero(c: _Call) -> Adapted:
    lst_k, d = _attributes(c)
    if min(lst_k) < 2:
        raise InputError(f"lst_k = {lst_k}: every domain needs k >= 2 (multi-freq-ldpy's UE_Client refuses k < 2)")
    epsilon = c.pop("epsilon", _eps)
    optimal = bool(c.params.pop("optimal", True))
    c.done()
    from multi_freq_ldpy.pure_frequency_oracles.UE import UE_Client

    amp = _rspfd_ue_amplified_eps(c, lst_k, d, epsilon, optimal)
    comps = [_mfl(UE_Client, c.ev, {"k": kj, "epsilon": amp, "optimal": optimal}) for kj in lst_k]
    fp = {f"{j}:{n}": v for j, a in enumerate(comps) for n, v in a.float_params.items()}

    def rebuild(f):
        return FakeDataUnary([a.rebuild({n: f[f"{j}:{n}"] for n in a.float_params}) for j, a in enumerate(comps)])
    return Adapted(FakeDataUnary([a.structure for a in comps]),
                   f"{c.label} ({'OUE' if optimal else 'SUE'}-z, d = {d}, lst_k = {lst_k})",
                   f"secret attribute = np.random.randint(d); UE_Client with the amplified eps {float(amp)!r}: "
                   f"{comps[0].sampler}; fake data: UE_Client(None) (every bit drawn with q)", fp, rebuild,
                   [NUMBA_NOTE, "the sampled attribute is not released: the channel is a ratio of sums over "
                    "the attributes, maximised exactly"])
