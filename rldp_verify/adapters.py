"""Exact channels of mechanism objects from widely used LDP libraries, down to the float sampler.

``adapt(obj, **params)`` returns an :class:`~rldp_verify.structured.Adapted`: a structured exact channel
(:mod:`rldp_verify.structured.channels`) of what the object's code samples from, the sampler model and the
float parameters; :func:`audit_adapted` audits it for eps-LDP at any domain size without enumerating
outputs. ``channel(obj, **params)`` returns the dense :class:`~rldp_verify.rldp.mechio.Mechanism` (column-
stochastic Q[y|x]) for small domains, for the (eps, F)-RLDP audit.

=================  ===============================================  ================================
library            object (parameters)                              structure
=================  ===============================================  ================================
pure-ldp           ``UEClient`` (SUE; OUE with ``use_oue``)           per-bit product (unary encoding)
                   ``DEClient``                                     GRR on d values
                   ``LHClient`` (BLH: g = 2; OLH: ``use_olh``)        public seed mixture of GRR on g
                   ``HEClient`` (SHE / THE: the server thresholds)  ideal Laplace histogram
multi-freq-ldpy    ``GRR_Client`` (``k``, ``epsilon``)                GRR on k values
                   ``UE_Client`` (``k``, ``epsilon``, ``optimal``)    per-bit product
                   ``LH_Client`` (``k``, ``epsilon``, ``optimal``)    public seed mixture of GRR on g
                   ``SS_Client`` (``k``, ``epsilon``)                 subset selection (ordered array)
                   ``HE_Client`` (``k``, ``epsilon``)                 ideal Laplace histogram
                   ``L_GRR_Client`` (``k``, ``eps_perm``, ``eps_1``)  GRR then GRR (one report)
                   ``L_SUE/L_OUE/L_OSUE/L_SOUE_Client`` (same)      per-bit product of two rounds
                   ``SMP_GRR/UE/LH/SS_Client`` (``lst_k``,           mixture over the released sampled
                   ``epsilon``, ``optimal``)                         attribute
                   ``RSpFD_GRR_Client`` (``lst_k``, ``epsilon``)     secret attribute + uniform fake data
opendp             ``make_randomized_response`` (``categories``,     GRR on the categories
                   ``prob``), ``make_randomized_response_bool``
=================  ===============================================  ================================

Sampler model (``model="code"``, the default): every probability is that of the event the code draws,
read off the code by running it once with recording stand-ins for its random calls
(:mod:`rldp_verify.structured.trace`), so the thresholds are the library's own float64 values:
``random.random() < p`` and NumPy's / numba's ``random() <= p`` are events of probability ceil(p 2^53) / 2^53
and (floor(p 2^53) + 1) / 2^53; ``np.random.choice([1, 0], p=[q, 1 - q])`` is the event U < cdf[0];
``binomial(1, p)`` is NumPy's or numba's rejection loop (:mod:`rldp_verify.structured.samplers`); integer
draws are exactly uniform. ``model="ideal"`` reads every float probability as an exact Bernoulli(p) (the
channel the code approximates). multi-freq-ldpy's clients are numba-compiled: they draw from numba's own
generator, whose ``random()`` is the same k / 2^53 and whose ``binomial`` differs from NumPy's (qn = 1 - p
instead of exp(log(1 - p))). Laplace noise (HE) is audited as the ideal continuous mechanism with the
library's float scale b: eps = 2 / b exactly; the float Laplace sampler is not modelled (its weaknesses,
Mironov CCS 2012, are for the black-box audit).

Known library behaviour, reproduced: pure-ldp before 1.2.0 does not clear the true bit before setting it in
``UEClient._perturb`` (OUE at a claimed eps has eps = ln(e^eps + 2)); the version 1.2.0 channel is modelled as
"bit cleared, then set when random() < p" (checked against the 1.2.0 wheel's ``ue_client.py``; the adapter
reads which of the two the installed code does from the trace and refuses a code that disagrees with its
version number). multi-freq-ldpy's ``SS_Client`` returns an array whose first entry is the true value when it is included
and the rest in random order: as released, an output (x, x', ...) is impossible under x', so its eps is
infinite for subsets of size >= 2; ``as_set=True`` audits the set (what the aggregator uses). Both libraries'
local hashing call ``xxhash.xxh32(str(v), seed=...)``, which xxhash 4 refuses (TypeError "Strings must be
encoded before hashing"); xxhash < 4 hashes the UTF-8 bytes with the seed taken mod 2^32 (checked against
xxhash 3.5.0 for str and bytes inputs and seeds up to sys.maxsize, Python and NumPy ints), which the adapter
reproduces, and says so.

Inputs are the library's value indices 0..d-1. An object of any other type raises
:class:`~rldp_verify.core.errors.InputError` naming it.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction

from rldp_verify.core.errors import InputError
from rldp_verify.rldp.mechio import Mechanism
from rldp_verify.structured import (
    Adapted,
    AttributeMixture,
    BitChannel,
    FakeDataMixture,
    LaplaceHistogram,
    PublicMixture,
    SubsetSelection,
    Symmetric,
    UnaryProduct,
    audit_structured,
)
from rldp_verify.structured import samplers as sm
from rldp_verify.structured.trace import tracing

__all__ = ["adapt", "audit_adapted", "channel", "from_spec", "adapt_spec", "SPECS", "pure_ldp_has_ue_bug",
           "xxhash_problem", "MODELS", "sampler_spec"]

MODELS = ("code", "ideal")
SEED_SEARCH = 256


# ------------------------------------------------------------------------------------------ helpers


def _prob(x, what: str) -> float:
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise InputError(f"{what} = {x!r} is not a number") from None
    if not math.isfinite(v) or not 0 <= v <= 1:
        raise InputError(f"{what} = {x!r} is not a probability")
    return v



def _lst_k(params: dict, label: str) -> list[int]:
    """The ``lst_k`` parameter of the multidimensional protocols (SMP, RS+FD): the attributes' domain sizes."""
    lst_k = params.pop("lst_k", None)
    try:
        return [_size(int(v) if isinstance(v, str) and v.strip().isdigit() else v, "lst_k entry") for v in lst_k]
    except TypeError:
        raise InputError(f"{label} needs lst_k = the list of the attributes' domain sizes") from None

def _size(d, what: str) -> int:
    if isinstance(d, bool) or not (isinstance(d, int) or hasattr(d, "__index__")):
        raise InputError(f"{what} = {d!r} is not an integer")
    d = int(d)
    if d < 2:
        raise InputError(f"{what} = {d} must be at least 2")
    return d


def _eps(eps, name="epsilon") -> float:
    try:
        v = float(eps)
    except (TypeError, ValueError):
        raise InputError(f"{name} = {eps!r} is not a number") from None
    if not math.isfinite(v) or not v > 0:
        raise InputError(f"{name} = {eps!r} must be a number > 0")
    return eps


class _Events:
    """Event probabilities under the chosen sampler model."""

    def __init__(self, model: str):
        if model not in MODELS:
            raise InputError(f"model = {model!r} must be one of {', '.join(MODELS)}")
        self.model = model

    def __call__(self, kind: str, c):
        if self.model == "ideal":
            v = Fraction(c) if not isinstance(c, Fraction) else c
            return 1 - v if kind == "gt" else v
        if kind == "lt":
            return sm.prob_lt(c)
        if kind == "le":
            return sm.prob_le(c)
        if kind == "gt":
            return 1 - sm.prob_le(c)
        if kind in ("binomial-numpy", "binomial-numba"):
            return sm.prob_binomial1(c, kind.split("-")[1]) if not isinstance(c, Fraction) else c
        raise ValueError(kind)


def pure_ldp_has_ue_bug(version: str | None = None) -> bool:
    """True for pure-ldp < 1.2.0, whose UEClient does not clear the true bit before setting it."""
    if version is None:
        version = _version("pure-ldp") or "1.2.0"
    parts = []
    for tok in version.split(".")[:3]:
        digits = "".join(ch for ch in tok if ch.isdigit())
        parts.append(int(digits) if digits else 0)
    return tuple(parts + [0] * (3 - len(parts))) < (1, 2, 0)


def _version(dist: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return None


def xxhash_problem() -> str | None:
    """None when ``xxhash.xxh32(str, seed)`` works as the libraries call it; else the explanation."""
    import xxhash

    try:
        xxhash.xxh32("0", seed=0)
        return None
    except TypeError as exc:
        return (f"with xxhash {_version('xxhash')} the library's own call xxhash.xxh32(str(v), seed=...) raises "
                f"TypeError ({exc}): the code as written cannot run; it works with xxhash<4 (pip install "
                f"'xxhash<4'), which hashes the UTF-8 bytes of str(v) with the seed mod 2^32; the channel "
                "audited is that of the working combination")


def _lh_hash(x: int, seed: int, g: int) -> int:
    import xxhash

    return xxhash.xxh32(str(x).encode("utf-8"), seed=int(seed) & 0xFFFFFFFF).intdigest() % g


def _separating(g, seeds):
    def sep(x, xp):
        for s in seeds:
            if _lh_hash(x, s, g) != _lh_hash(xp, s, g):
                return s
        return None
    return sep


def _trace(fn, *args, decide=lambda i, op, c: False, unjit=()):
    from rldp_verify.structured.trace import as_compiled

    target = as_compiled(fn)
    with tracing(decide, unjit) as log:
        out = target(*args)
    return log, out


def _cmp(log, i):
    """The (op, threshold) of probe i in the log."""
    for e in log:
        if len(e) == 3 and e[2] == i and e[0] in ("<", "<=", ">", ">="):
            return e[0], e[1]
    raise InputError(f"the traced code made no comparison with its draw number {i}; unsupported library version")


_OPS = {"<": "lt", "<=": "le", ">": "gt"}


def _ev_of(ev, op, c):
    if op not in _OPS:
        raise InputError(f"the traced code compares its uniform with {op!r}; no model for it")
    return ev(_OPS[op], c)


# ------------------------------------------------------------------------------------------ pure-ldp


def _pure_ldp(obj, ev: _Events, params) -> Adapted:
    cls = type(obj).__name__
    if cls not in ("UEClient", "DEClient", "LHClient", "HEClient"):
        raise InputError(f"unsupported pure-ldp object of type {type(obj).__module__}.{cls} (supported: "
                         "UEClient, DEClient, LHClient, HEClient)")
    d = _size(getattr(obj, "d", None), "d")
    if params:
        raise InputError(f"pure-ldp {cls} carries its own parameters; unexpected {', '.join(sorted(params))}")
    ver = _version("pure-ldp")
    if cls == "UEClient":
        log, _ = _trace(obj._perturb, 0)
        choice = [e for e in log if e[0] == "choice"]
        if len(choice) != 1 or choice[0][4] is None:
            raise InputError(f"pure-ldp {ver} UEClient does not draw as 1.1.x/1.2.x do; unsupported version")
        w = choice[0][4]
        op, c_p = _cmp(log, 0)
        # the bug, read from the code: is the true bit cleared (oh_vec[index] = 0) before the comparison?
        probe_at = next(i for i, e in enumerate(log) if len(e) == 3 and e[0] in ("<", "<=", ">", ">="))
        cleared = any(e[0] == "setitem" and e[1] == 0 and e[2] == 0 for e in log[:probe_at])
        buggy = not cleared
        if buggy != pure_ldp_has_ue_bug(ver):
            raise InputError(f"pure-ldp {ver} UEClient: the code {'does not clear' if buggy else 'clears'} the "
                             "true bit, which the version number does not say; unsupported version")
        fp = {"q": w[0], "p": c_p}

        def rebuild(f):
            q_ev = ev("lt", sm.numpy_choice_first([f["q"], 1 - f["q"]]) if not isinstance(f["q"], Fraction)
                      else f["q"])
            p_ev = _ev_of(ev, op, f["p"])
            hot = p_ev + (1 - p_ev) * q_ev if buggy else p_ev
            return UnaryProduct(d, BitChannel(hot, q_ev))
        kind = "OUE" if getattr(obj, "use_oue", False) else "SUE"
        name = f"pure-ldp {ver} UEClient ({kind}{', bit not cleared: pre-1.2.0 bug' if buggy else ''})"
        samp = ("numpy legacy choice([1, 0], p=[q, 1-q]): bit 1 iff U < cdf[0] (Pr = ceil(cdf[0] 2^53)/2^53); "
                f"random.random() {op} p (Pr = {'ceil' if op == '<' else 'floor + 1'}(p 2^53)/2^53)"
                if ev.model == "code" else "exact Bernoulli(p), Bernoulli(q) (ideal)")
        notes = [] if not buggy else ["the true bit is set with probability p on top of its Bernoulli(q) draw "
                                      "(pure-ldp < 1.2.0): Pr[bit x = 1 | x] = p + (1 - p) q"]
        if not buggy:
            notes.append("the true bit is cleared, then set when random() < p (pure-ldp >= 1.2.0)")
        return Adapted(rebuild(fp), name, samp, fp, rebuild, notes)
    if cls == "DEClient":
        log, _ = _trace(obj._perturb, 0)
        op, c_p = _cmp(log, 0)

        def rebuild(f):
            a = _ev_of(ev, op, f["p"])
            return Symmetric(d, a, (1 - a) / (d - 1))
        samp = (f"random.random() {op} p, else random.randint(0, d-2) shifted past x (exactly uniform)"
                if ev.model == "code" else "exact Bernoulli(p) (ideal)")
        return Adapted(rebuild({"p": c_p}), f"pure-ldp {ver} DEClient (GRR)", samp, {"p": c_p}, rebuild)
    if cls == "LHClient":
        g = _size(getattr(obj, "g", None), "g")
        problem = xxhash_problem()
        import pure_ldp.frequency_oracles.local_hashing.lh_client as lhmod

        # trace _perturb with the hash made to work, to read the comparison and the integer draw
        import xxhash as _xx
        orig = _xx.xxh32
        lhmod.xxhash.xxh32 = lambda s, seed=0: orig(s.encode() if isinstance(s, str) else s, seed=seed)
        try:
            log, _ = _trace(obj._perturb, 0, 0, decide=lambda i, op, c: True)
        finally:
            lhmod.xxhash.xxh32 = orig
        op, c = _cmp(log, 0)
        if op != ">" or not any(e[0] == "randint" and e[1:] == (0, g) for e in log):
            raise InputError(f"pure-ldp {ver} LHClient does not draw as 1.1.x does (random_sample() > p - q, "
                             "randint(0, g)); unsupported version")
        fp = {"p - q": c}

        def rebuild(f):
            keep = 1 - _ev_of(ev, ">", f["p - q"])          # keep the hash when U <= p - q
            a, b = keep + (1 - keep) / g, (1 - keep) / g      # randint(0, g) may return the hash itself
            return PublicMixture(d, g, a, b, _separating(g, range(SEED_SEARCH)), range(8),
                                 lambda x, s: _lh_hash(x, s, g))
        kind = "OLH" if getattr(obj, "use_olh", False) else ("BLH" if g == 2 else f"LH, g = {g}")
        samp = ("seed = random.randint(0, sys.maxsize) (public, released); bucket = xxh32(str(x), seed) % g; "
                "kept when numpy random_sample() <= fl(p - q) (Pr = (floor(c 2^53) + 1)/2^53), else "
                "np.random.randint(0, g) (uniform over all g buckets)" if ev.model == "code" else
                "exact Bernoulli(p - q) keep, else uniform over g (ideal)")
        notes = [problem] if problem else []
        return Adapted(rebuild(fp), f"pure-ldp {ver} LHClient ({kind}, g = {g})", samp, fp, rebuild, notes)
    if cls == "HEClient":
        log, _ = _trace(obj._perturb, [0.0] * d)
        lap = [e for e in log if e[0] == "laplace"]
        if len(lap) != 1:
            raise InputError(f"pure-ldp {ver} HEClient does not draw one Laplace vector; unsupported version")
        b = lap[0][2]
        return Adapted(LaplaceHistogram(d, b), f"pure-ldp {ver} HEClient (SHE / THE: thresholding is "
                       "post-processing on the server)", f"ideal continuous Laplace(0, b = {b!r}) noise on each "
                       "coordinate (the float sampler is not modelled: a black-box matter)", {}, None)
    raise InputError(f"unsupported pure-ldp object of type {type(obj).__module__}.{cls} (supported: UEClient, "
                     "DEClient, LHClient, HEClient)")


# ------------------------------------------------------------------------------------------ multi-freq-ldpy


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
    cmps = [e for e in log if len(e) == 3 and e[0] in ("<", "<=", ">", ">=")]
    if len(cmps) not in (k, 2 * k):
        raise InputError(f"{getattr(fn, '__name__', fn)} draws {len(cmps)} uniforms for k = {k}; unsupported")
    rounds = [cmps[:k]] + ([cmps[k:]] if len(cmps) == 2 * k else [])
    out = []
    for r in rounds:
        if r[x][0] != "<=" or any(e[0] != "<=" for e in r):
            raise InputError("multi-freq-ldpy unary encoding compares with an operator other than <=; unsupported")
        out.append((r[x][1], r[0][1]))
    return out


NUMBA_NOTE = "multi-freq-ldpy's clients are numba-compiled: draws come from numba's generator"


def _mfl(fn, ev: _Events, params) -> Adapted:
    from multi_freq_ldpy import __name__ as _  # noqa: F401  (the library is importable)

    name = getattr(getattr(fn, "py_func", fn), "__name__", type(fn).__name__)
    ver = _version("multi-freq-ldpy")
    params = dict(params)

    def pop(key, conv, default=None):
        if key not in params:
            if default is not None:
                return default
            raise InputError(f"multi-freq-ldpy {name} needs {key}=...")
        return conv(params.pop(key))
    label = f"multi-freq-ldpy {ver} {name}"
    k = pop("k", lambda v: _size(v, "k")) if not name.startswith(("SMP_", "RSpFD_")) else None
    binom = "binomial-numba"
    grr_samp = ("numba np.random.binomial(1, p) (rejection loop on k/2^53 uniforms, exact count), else "
                "np.random.choice of the other values (uniform)")
    if name in ("GRR_Client", "UE_Client", "LH_Client", "SS_Client", "HE_Client"):
        epsilon = pop("epsilon", _eps)
        optimal = bool(params.pop("optimal", True)) if name in ("UE_Client", "LH_Client") else None
        as_set = bool(params.pop("as_set", False)) if name == "SS_Client" else None
        _left(params, label)
        if name == "GRR_Client":
            p = _mfl_grr_p(k, epsilon)

            def rebuild(f):
                a = ev(binom, f["p"])
                return Symmetric(k, a, (1 - a) / (k - 1))
            return Adapted(rebuild({"p": p}), label, grr_samp if ev.model == "code" else "exact Bernoulli(p)",
                           {"p": p}, rebuild, [NUMBA_NOTE])
        if name == "UE_Client":
            from multi_freq_ldpy.pure_frequency_oracles.UE import UE_Client

            (ph, qc), = _unary_trace(UE_Client, k, epsilon, optimal)

            def rebuild(f):
                return UnaryProduct(k, BitChannel(ev("le", f["p"]), ev("le", f["q"])))
            return Adapted(rebuild({"p": ph, "q": qc}), f"{label} ({'OUE' if optimal else 'SUE'})",
                           "numba np.random.random() <= p per bit (Pr = (floor(p 2^53) + 1)/2^53)"
                           if ev.model == "code" else "exact Bernoulli(p), Bernoulli(q)",
                           {"p": ph, "q": qc}, rebuild, [NUMBA_NOTE])
        if name == "LH_Client":
            import numpy as np

            g = int(round(np.exp(epsilon))) + 1 if optimal else 2
            p = _mfl_grr_p(g, epsilon)
            problem = xxhash_problem()

            def rebuild(f):
                a = ev(binom, f["p"])
                return PublicMixture(k, g, a, (1 - a) / (g - 1), _separating(g, range(SEED_SEARCH)), range(8),
                                     lambda x, s: _lh_hash(x, s, g))
            samp = ("seed = np.random.randint(0, sys.maxsize) (public, released); bucket = xxh32(str(x), seed) % g; "
                    "then GRR_Client on g buckets: " + grr_samp) if ev.model == "code" else "exact GRR (ideal)"
            return Adapted(rebuild({"p": p}), f"{label} ({'OLH' if optimal else 'BLH'}, g = {g})", samp, {"p": p},
                           rebuild, [NUMBA_NOTE] + ([problem] if problem else []))
        if name == "SS_Client":
            from multi_freq_ldpy.pure_frequency_oracles.SS import SS_Client

            log, out = _trace(SS_Client, 0, k, epsilon, decide=lambda i, op, c: True)
            op, pv = _cmp(log, 0)
            m = len(out)

            def rebuild(f):
                return SubsetSelection(k, m, _ev_of(ev, op, f["p_v"]), ordered=not as_set)
            note = ("output audited as the set (as_set=True): the order of the returned array is discarded"
                    if as_set else "output audited as the ordered array SS_Client returns: the true value, when "
                    "included, is its first entry (pass as_set=True to audit the set only)")
            return Adapted(rebuild({"p_v": pv}), f"{label} (subset size {m})",
                           f"numba np.random.random() {op} p_v, subsets by np.random.choice(replace=False) "
                           "(uniform permutation)" if ev.model == "code" else "exact Bernoulli(p_v)",
                           {"p_v": pv}, rebuild, [NUMBA_NOTE, note])
        from multi_freq_ldpy.pure_frequency_oracles.HE import HE_Client

        log, _ = _trace(HE_Client, 0, k, epsilon)
        lap = [e for e in log if e[0] == "laplace"]
        return Adapted(LaplaceHistogram(k, lap[0][2]), f"{label} (SHE / THE: thresholding is server-side)",
                       f"ideal continuous Laplace(0, b = {lap[0][2]!r}) (the float sampler is not modelled)", {},
                       None)
    if name in ("L_GRR_Client", "L_SUE_Client", "L_OUE_Client", "L_OSUE_Client", "L_SOUE_Client"):
        eps_perm = pop("eps_perm", lambda v: _eps(v, "eps_perm"))
        eps_1 = pop("eps_1", lambda v: _eps(v, "eps_1"))
        _left(params, label)
        if not float(eps_1) < float(eps_perm):
            raise InputError(f"eps_1 = {eps_1} must be < eps_perm = {eps_perm} (multi-freq-ldpy refuses it too)")
        if name == "L_GRR_Client":
            import multi_freq_ldpy.long_freq_est.L_GRR as mod

            log, _ = _trace(mod.L_GRR_Client, 0, k, eps_perm, eps_1, unjit=(mod,))
            b = [e[2] for e in log if e[0] == "binomial"]
            if len(b) != 2:
                raise InputError("multi-freq-ldpy L_GRR_Client does not draw two binomials; unsupported version")

            def rebuild(f):
                a1, a2 = ev(binom, f["p1"]), ev(binom, f["p2"])
                return Symmetric(k, a1, (1 - a1) / (k - 1)).then(Symmetric(k, a2, (1 - a2) / (k - 1)))
            fp = {"p1": b[0], "p2": b[1]}
            return Adapted(rebuild(fp), f"{label} (one report: memoised GRR then GRR)",
                           "two rounds of " + grr_samp if ev.model == "code" else "exact GRR rounds", fp, rebuild,
                           [NUMBA_NOTE, "eps_1 is the claim for one report; the first round alone is eps_perm"])
        import importlib

        mod = importlib.import_module(f"multi_freq_ldpy.long_freq_est.{name[:-7]}")
        (p1, q1), (p2, q2) = _unary_trace(getattr(mod, name), k, eps_perm, eps_1)

        def rebuild(f):
            first = BitChannel(ev("le", f["p1"]), ev("le", f["q1"]))
            return UnaryProduct(k, first.then(BitChannel(ev("le", f["p2"]), ev("le", f["q2"]))))
        fp = {"p1": p1, "q1": q1, "p2": p2, "q2": q2}
        return Adapted(rebuild(fp), f"{label} (one report: memoised round then second round, per bit)",
                       "numba np.random.random() <= threshold per bit and round" if ev.model == "code"
                       else "exact Bernoulli rounds", fp, rebuild,
                       [NUMBA_NOTE, "eps_1 is the claim for one report; the first round alone is eps_perm"])
    if name in ("SMP_GRR_Client", "SMP_UE_Client", "SMP_LH_Client", "SMP_SS_Client"):
        lst_k = _lst_k(params, label)
        d = pop("d", lambda v: int(v), len(lst_k))
        if d != len(lst_k) or d < 1:
            raise InputError(f"d = {d} must be the number of attributes, len(lst_k) = {len(lst_k)}")
        epsilon = pop("epsilon", _eps)
        inner_params = {}
        if name in ("SMP_UE_Client", "SMP_LH_Client"):
            inner_params["optimal"] = bool(params.pop("optimal", True))
        _left(params, label)
        import importlib

        base = name[4:]
        inner = getattr(importlib.import_module(f"multi_freq_ldpy.pure_frequency_oracles.{base.split('_')[0]}"), base)
        comps = [_mfl(inner, ev, {"k": kj, "epsilon": epsilon, **inner_params}) for kj in lst_k]
        fp = {f"{j}:{n}": v for j, c in enumerate(comps) for n, v in c.float_params.items()}

        def rebuild(f):
            return AttributeMixture([c.rebuild({n: f[f"{j}:{n}"] for n in c.float_params}) if c.rebuild else
                                     c.structure for j, c in enumerate(comps)])
        return Adapted(AttributeMixture([c.structure for c in comps]), f"{label} (d = {d}, lst_k = {lst_k})",
                       f"attribute = np.random.randint(d) (uniform, released); then {comps[0].sampler}", fp, rebuild,
                       list(dict.fromkeys(n for c in comps for n in c.notes)))
    if name == "RSpFD_GRR_Client":
        lst_k = _lst_k(params, label)
        d = pop("d", lambda v: int(v), len(lst_k))
        if d != len(lst_k):
            raise InputError(f"d = {d} must be the number of attributes, len(lst_k) = {len(lst_k)}")
        epsilon = pop("epsilon", _eps)
        _left(params, label)
        import multi_freq_ldpy.mdim_freq_est.RSpFD_solution as mod
        from multi_freq_ldpy.pure_frequency_oracles.GRR import GRR_Client

        calls = []
        saved = mod.GRR_Client
        mod.GRR_Client = lambda v, k, e: calls.append((int(k), e)) or 0
        try:
            log, _ = _trace(mod.RSpFD_GRR_Client, [0] * d, lst_k, d, epsilon)
        finally:
            mod.GRR_Client = saved
        draws = [e[1] for e in log if e[0] == "randint" and e[2] is None]   # randint(d), then randint(k_i)
        if len(calls) != 1 or draws != [d] + lst_k[1:]:
            raise InputError(f"{label} does not draw one GRR report and uniform fake values; unsupported version")
        amp = calls[0][1]
        comps = [_mfl(GRR_Client, ev, {"k": kj, "epsilon": amp}) for kj in lst_k]
        fp = {f"{j}:p": c.float_params["p"] for j, c in enumerate(comps)}

        def rebuild(f):
            return FakeDataMixture([c.rebuild({"p": f[f"{j}:p"]}) for j, c in enumerate(comps)])
        return Adapted(FakeDataMixture([c.structure for c in comps]), f"{label} (d = {d}, lst_k = {lst_k})",
                       f"secret attribute = np.random.randint(d); GRR_Client with the amplified eps {amp!r}: "
                       f"{comps[0].sampler}; fake values np.random.randint(k_i) (uniform)", fp, rebuild,
                       [NUMBA_NOTE, "the sampled attribute is not released: the channel is a ratio of sums over "
                        "the attributes, maximised exactly"])
    raise InputError(f"unsupported multi-freq-ldpy object {name!r} (supported: GRR_Client, UE_Client, LH_Client, "
                     "SS_Client, HE_Client, L_GRR_Client, L_SUE_Client, L_OUE_Client, L_OSUE_Client, L_SOUE_Client, "
                     "SMP_GRR_Client, SMP_UE_Client, SMP_LH_Client, SMP_SS_Client, RSpFD_GRR_Client)")


def _left(params, label):
    if params:
        raise InputError(f"unexpected parameter(s) {', '.join(sorted(params))} for {label}")


# ------------------------------------------------------------------------------------------ opendp


def _opendp(obj, name, ev: _Events, params) -> Adapted:
    params = dict(params)
    if name == "make_randomized_response":
        cats = params.pop("categories", None)
        prob = params.pop("prob", None)
        _left(params, "opendp make_randomized_response")
        if cats is None or len(list(cats)) < 2 or len(set(cats)) != len(list(cats)):
            raise InputError(f"categories = {cats!r} must list at least 2 distinct values")
        k = len(list(cats))
        labels = tuple(str(c) for c in cats)
        p = _prob(prob, "prob")
        if Fraction(p) < Fraction(1, k):
            raise InputError(f"prob = {prob!r} must be at least 1/len(categories) (OpenDP refuses it too)")
    elif name == "make_randomized_response_bool":
        prob = params.pop("prob", None)
        _left(params, "opendp make_randomized_response_bool")
        k, p, labels = 2, _prob(prob, "prob"), ("False", "True")
        if Fraction(p) < Fraction(1, 2):
            raise InputError(f"prob = {prob!r} must be at least 1/2")
    elif type(obj).__name__ == "Measurement":
        raise InputError("an opendp Measurement does not expose its parameters through the Python API; pass "
                         "the constructor instead: channel(dp.m.make_randomized_response, categories=..., prob=...)")
    else:
        raise InputError(f"unsupported opendp object {name!r} (supported: make_randomized_response, "
                         "make_randomized_response_bool)")

    def rebuild(f):
        a = Fraction(f["prob"])
        return Symmetric(k, a, (1 - a) / (k - 1), labels=labels)
    return Adapted(rebuild({"prob": p}), f"opendp {_version('opendp')} {name}",
                   "exact Bernoulli(prob) and uniform draws (OpenDP samples exactly from the rational value of "
                   "the float prob)", {"prob": p}, rebuild)


# ------------------------------------------------------------------------------------------ dispatch


def _module(obj) -> str:
    fn = getattr(obj, "py_func", None)   # numba dispatchers wrap the Python function
    target = fn if fn is not None else obj
    return getattr(target, "__module__", None) or type(obj).__module__ or ""


def _name(obj) -> str:
    fn = getattr(obj, "py_func", None)
    target = fn if fn is not None else obj
    return getattr(target, "__name__", type(obj).__name__)


def adapt(obj, *, model: str = "code", **params) -> Adapted:
    """The structured exact channel of ``obj`` with its sampler model (see the module docstring); with
    ``model="code"`` the result's ``ideal`` is the exact-Bernoulli channel of the same float parameters."""
    a = _adapt(obj, model, params)
    if model == "code":
        a.ideal = _adapt(obj, "ideal", params).structure
    return a


def _adapt(obj, model, params) -> Adapted:
    ev = _Events(model)
    tname = f"{type(obj).__module__}.{type(obj).__qualname__}"
    if type(obj).__module__.startswith("pure_ldp"):
        return _pure_ldp(obj, ev, params)
    mod = _module(obj)
    if mod.startswith("multi_freq_ldpy"):
        return _mfl(obj, ev, params)
    if mod.startswith("opendp") or type(obj).__module__.startswith("opendp"):
        return _opendp(obj, _name(obj), ev, params)
    raise InputError(f"unsupported object of type {tname}: no adapter (supported: pure-ldp UEClient/DEClient/"
                     "LHClient/HEClient, multi-freq-ldpy GRR/UE/LH/SS/HE_Client and L_GRR/L_SUE/L_OUE/L_OSUE/"
                     "L_SOUE_Client, opendp make_randomized_response[_bool])")


def audit_adapted(obj_or_adapted, eps, *, tolerance=None, model: str = "code", **params):
    """eps-LDP audit of a library object (or an :class:`Adapted`) through its structured exact channel:
    :func:`rldp_verify.structured.audit_structured`."""
    a = obj_or_adapted if isinstance(obj_or_adapted, Adapted) else adapt(obj_or_adapted, model=model, **params)
    return audit_structured(a, eps, tolerance=tolerance)


def dense_mechanism(a: Adapted, sizes=None) -> Mechanism:
    """The dense Mechanism of an adapted channel (small domains; a finite seed set for local hashing)."""
    st = a.structure
    if isinstance(st, LaplaceHistogram):
        raise InputError(f"{a.name}: continuous outputs have no dense channel; audit it with --ldp (exact)")
    rows, outs = st.dense()
    d = len(rows[0])
    keep = [i for i, r in enumerate(rows) if any(r)]          # outputs impossible under every input
    rows, outs = [rows[i] for i in keep], [outs[i] for i in keep]
    if sizes is None:
        sens, pub = [str(i) for i in range(d)], ["*"]
    else:
        try:
            a1, a2 = (int(v) for v in sizes)
        except (TypeError, ValueError):
            raise InputError(f"sizes = {sizes!r} must be (|S|, |U|)") from None
        if a1 * a2 != d or a1 < 1 or a2 < 1:
            raise InputError(f"sizes = {sizes!r} do not multiply to the domain size {d}")
        sens, pub = a1, a2
    notes = (f"exact channel of {a.name}; sampler model: {a.sampler}",)
    if isinstance(st, PublicMixture):
        notes += (f"dense form restricted to the seeds {list(st.seeds)} (uniform); the full seed range gives "
                  "the same eps-LDP ratio when a seed separates the inputs",)
    return Mechanism.from_matrix(rows, sens, pub, outs, eps=None, guarantee=None,
                                 parameters={"adapter": a.name, **{k: repr(v) for k, v in a.float_params.items()}},
                                 notes=notes)


def channel(obj, *, sizes=None, model: str = "code", **params) -> Mechanism:
    """The dense exact channel of ``obj`` (small domains): :func:`adapt` then :func:`dense_mechanism`."""
    return dense_mechanism(adapt(obj, model=model, **params), sizes)


# ------------------------------------------------------------------------------------------ LIBRARY:NAME


def _pure_ldp_build(name):
    def build(**kw):
        import pure_ldp.frequency_oracles as fo

        eps, d = float(kw.pop("epsilon")), int(kw.pop("d"))
        im = {"index_mapper": lambda x: x}
        if name == "UEClient":
            obj = fo.UEClient(eps, d, use_oue=bool(kw.pop("use_oue", False)), **im)
        elif name == "LHClient":
            obj = fo.LHClient(eps, d, g=int(kw.pop("g", 2)), use_olh=bool(kw.pop("use_olh", False)), **im)
        else:
            obj = getattr(fo, name)(eps, d, **im)
        return obj, kw
    return build


def _mfl_build(module, name):
    def build(**kw):
        import importlib

        return getattr(importlib.import_module(module), name), kw
    return build


def _odp_build(name):
    def build(**kw):
        import opendp.prelude as dp

        return getattr(dp.m, name), kw
    return build


_PF, _LF = "multi_freq_ldpy.pure_frequency_oracles", "multi_freq_ldpy.long_freq_est"
_KE = {"k": int, "epsilon": float}
_KL = {"k": int, "eps_perm": float, "eps_1": float}
SPECS = {
    ("pure-ldp", "UEClient"): (_pure_ldp_build("UEClient"), {"epsilon": float, "d": int, "use_oue": bool}),
    ("pure-ldp", "DEClient"): (_pure_ldp_build("DEClient"), {"epsilon": float, "d": int}),
    ("pure-ldp", "LHClient"): (_pure_ldp_build("LHClient"), {"epsilon": float, "d": int, "g": int, "use_olh": bool}),
    ("pure-ldp", "HEClient"): (_pure_ldp_build("HEClient"), {"epsilon": float, "d": int}),
    ("multi-freq-ldpy", "GRR_Client"): (_mfl_build(f"{_PF}.GRR", "GRR_Client"), _KE),
    ("multi-freq-ldpy", "UE_Client"): (_mfl_build(f"{_PF}.UE", "UE_Client"), {**_KE, "optimal": bool}),
    ("multi-freq-ldpy", "LH_Client"): (_mfl_build(f"{_PF}.LH", "LH_Client"), {**_KE, "optimal": bool}),
    ("multi-freq-ldpy", "SS_Client"): (_mfl_build(f"{_PF}.SS", "SS_Client"), {**_KE, "as_set": bool}),
    ("multi-freq-ldpy", "HE_Client"): (_mfl_build(f"{_PF}.HE", "HE_Client"), _KE),
    **{("multi-freq-ldpy", f"L_{n}_Client"): (_mfl_build(f"{_LF}.L_{n}", f"L_{n}_Client"), _KL)
       for n in ("GRR", "SUE", "OUE", "OSUE", "SOUE")},
    **{("multi-freq-ldpy", f"SMP_{n}_Client"): (_mfl_build("multi_freq_ldpy.mdim_freq_est.SMP_solution",
                                                          f"SMP_{n}_Client"),
                                               {"lst_k": list, "epsilon": float, "d": int,
                                                **({"optimal": bool} if n in ("UE", "LH") else {})})
       for n in ("GRR", "UE", "LH", "SS")},
    ("multi-freq-ldpy", "RSpFD_GRR_Client"): (_mfl_build("multi_freq_ldpy.mdim_freq_est.RSpFD_solution",
                                                        "RSpFD_GRR_Client"), {"lst_k": list, "epsilon": float, "d": int}),
    ("opendp", "make_randomized_response"): (_odp_build("make_randomized_response"),
                                             {"categories": list, "prob": float}),
    ("opendp", "make_randomized_response_bool"): (_odp_build("make_randomized_response_bool"), {"prob": float}),
}
_OPTIONAL = ("use_oue", "optimal", "g", "use_olh", "as_set")


def _convert(key: str, text: str, typ):
    t = text.strip()
    try:
        if typ is bool:
            if t.lower() in ("1", "true", "yes"):
                return True
            if t.lower() in ("0", "false", "no"):
                return False
            raise ValueError
        if typ is list:
            return [c.strip() for c in t.split(",") if c.strip()]
        v = typ(t)
        if typ is float and not math.isfinite(v):
            raise ValueError
        return v
    except ValueError:
        raise InputError(f"--param {key}={text!r}: not a valid {typ.__name__}") from None


def adapt_spec(spec: str, params: dict | list | None = None, *, model: str = "code") -> Adapted:
    """The :class:`Adapted` channel of ``LIBRARY:NAME`` built with ``params`` ({name: text} or ["k=v", ...]),
    e.g. ``adapt_spec("pure-ldp:UEClient", ["epsilon=0.25", "d=65536", "use_oue=true"])``."""
    if ":" not in str(spec):
        raise InputError(f"adapter {spec!r} must be LIBRARY:NAME, e.g. pure-ldp:UEClient")
    lib, name = (s.strip() for s in str(spec).split(":", 1))
    if (lib, name) not in SPECS:
        known = ", ".join(f"{a}:{b}" for a, b in SPECS)
        raise InputError(f"unknown adapter {spec!r} (known: {known})")
    build, types = SPECS[(lib, name)]
    kv = {}
    for item in (params or []) if not isinstance(params, dict) else [f"{k}={v}" for k, v in params.items()]:
        if "=" not in item:
            raise InputError(f"--param {item!r} must be NAME=VALUE")
        k, v = item.split("=", 1)
        k = k.strip()
        if k not in types:
            raise InputError(f"--param {k!r} is not a parameter of {lib}:{name} (parameters: {', '.join(types)})")
        kv[k] = _convert(k, v, types[k])
    missing = [k for k in types if k not in kv and k not in _OPTIONAL and not (k == "d" and name.startswith(("SMP_", "RSpFD_")))]
    if missing:
        raise InputError(f"{lib}:{name} needs --param {missing[0]}=...")
    try:
        obj, rest = build(**kv)
    except ImportError:
        raise InputError(f"the library {lib!r} is not installed (pip install 'rldp-verify[{lib}]')") from None
    return adapt(obj, model=model, **rest)


def _hashable(out):
    import numpy as np

    if isinstance(out, np.ndarray):
        return tuple(v.item() for v in out)
    if isinstance(out, tuple):
        return tuple(_hashable(v) for v in out)
    if isinstance(out, np.generic):
        return out.item()
    return out


def sampler_spec(spec: str, params: dict | list | None = None):
    """The library's own randomiser for ``LIBRARY:NAME`` as ``(fn, g)``: ``fn(x)`` draws one report for the value
    index x (NumPy arrays as tuples), ``g`` the number of hash buckets for local hashing (else None), for the
    black-box audit (:func:`rldp_verify.blackbox.audit_sampler`)."""
    a = adapt_spec(spec, params)                 # validates the parameters and names what is audited
    lib, name = (t.strip() for t in str(spec).split(":", 1))
    build, types = SPECS[(lib, name)]
    kv = {}
    for item in (params or []) if not isinstance(params, dict) else [f"{k}={v}" for k, v in params.items()]:
        k, v = item.split("=", 1)
        kv[k.strip()] = _convert(k.strip(), v, types[k.strip()])
    obj, rest = build(**kv)
    g = a.structure.g if isinstance(a.structure, PublicMixture) else None
    if lib == "pure-ldp":
        def fn(x):
            return _hashable(obj.privatise(x))
        return fn, g
    if lib == "opendp":
        raise InputError("the black-box audit of OpenDP constructors is not wired; build the measurement and pass it "
                         "as MODULE:CALLABLE")
    if name.startswith("SMP_"):
        raise InputError(f"{spec}: inputs are tuples; pass your own MODULE:CALLABLE for the black-box audit")
    order = {"GRR_Client": ("k", "epsilon"), "SS_Client": ("k", "epsilon"), "HE_Client": ("k", "epsilon"),
             "UE_Client": ("k", "epsilon", "optimal"), "LH_Client": ("k", "epsilon", "optimal")}
    names = order.get(name, ("k", "eps_perm", "eps_1"))
    defaults = {"optimal": True}
    args = [kv[n] if n in kv else defaults[n] for n in names]

    def fn(x):
        return _hashable(obj(x, *args))
    return fn, g


def from_spec(spec: str, params: dict | list | None = None, *, sizes=None, model: str = "code") -> Mechanism:
    """The dense channel of ``LIBRARY:NAME`` (small domains), e.g.
    ``from_spec("pure-ldp:UEClient", ["epsilon=0.25", "d=2", "use_oue=true"])``."""
    return dense_mechanism(adapt_spec(spec, params, model=model), sizes)


del sys
