"""More of multi-freq-ldpy's clients as structured exact channels (see :mod:`rldp_verify.adapters`): the adaptive
choices (ADP_Client, L_ADP_Client, SMP_ADP_Client through :mod:`~rldp_verify.adapters.multi_freq_ldpy`,
RSpFD_ADP_Client), budget splitting (SPL_GRR/UE/LH/SS/ADP_Client), RS+FD with UE and random fake data
(RSpFD_UE_rnd_Client), longitudinal local hashing (L_LH_Client), dBitFlipPM (dBitFlipPM_Client) and the
longitudinal multidimensional clients (``long_mdim_freq_est``: SMP_L_* and SPL_L_* with L-GRR, L-OUE, L-OSUE, L-SUE,
L-SOUE, L-ADP, and SMP/SPL_dBitFlipPM_Client).

A composite client is read off its code by running it once with its inner clients replaced by recording stubs
(:func:`_stubbed`): which inner client it calls, with which float eps (the code's own ``epsilon / d`` or
amplified eps) and which fake data; each inner client is then adapted by the adapter of that client, so its
sampler model is the one stated there."""

from __future__ import annotations

import importlib

from rldp_verify.adapters._common import (
    SEED_SEARCH,
    _eps,
    _lh_hash,
    _separating,
    _size,
    xxhash_accepting_str,
    xxhash_problem,
)
from rldp_verify.core.errors import InputError
from rldp_verify.structured import Adapted, AttributeProduct, BitChannel, FakeData, PublicMixture, SampledBits
from rldp_verify.structured.trace import as_compiled, tracing

_PF, _LF, _MD = ("multi_freq_ldpy.pure_frequency_oracles", "multi_freq_ldpy.long_freq_est",
                 "multi_freq_ldpy.mdim_freq_est")
SPL = ("SPL_GRR_Client", "SPL_UE_Client", "SPL_LH_Client", "SPL_SS_Client", "SPL_ADP_Client")
_LONG = ("L_GRR_Client", "L_OUE_Client", "L_OSUE_Client", "L_SUE_Client", "L_SOUE_Client", "L_ADP_Client",
         "dBitFlipPM_Client")
LONG_MDIM = tuple(f"{a}_{n}" for a in ("SMP", "SPL") for n in _LONG)
MORE = ("ADP_Client", "L_ADP_Client", "L_LH_Client", "dBitFlipPM_Client", "RSpFD_UE_rnd_Client",
        "RSpFD_ADP_Client") + SPL + LONG_MDIM
_NONE: tuple = ("none", None, (None, None, None))   # no traced event left
INNER = {"GRR_Client": f"{_PF}.GRR", "UE_Client": f"{_PF}.UE", "LH_Client": f"{_PF}.LH", "SS_Client": f"{_PF}.SS",
         "ADP_Client": f"{_PF}.ADP", **{n: f"{_LF}.{n[:-7]}" for n in _LONG}}


def _xxhash_str():
    """xxhash.xxh32 accepting the libraries' str argument (as xxhash < 4 does) while a trace runs."""
    return xxhash_accepting_str("xxh32", 32)


def _stubbed(modname: str, stubs: tuple, fn, *args, decide=lambda i, op, c: False):
    """Run ``fn(*args)`` traced, with the inner clients ``stubs`` of module ``modname`` replaced by recorders that
    append ("call", name, args) to the trace log and return 0 (a stand-in report)."""
    mod = importlib.import_module(modname)
    saved = {n: getattr(mod, n) for n in stubs}
    with tracing(decide) as log, _xxhash_str():
        def stub(name):
            def rec(*a):
                log.append(("call", name, a))
                return 0
            return rec
        for n in stubs:
            setattr(mod, n, stub(n))
        try:
            out = as_compiled(fn)(*args)
        finally:
            for n, f in saved.items():
                setattr(mod, n, f)
    return log, out


def _calls(log) -> list:
    return [(e[1], e[2]) for e in log if e[0] == "call"]


def _inner(c, name: str, args: tuple, keys: tuple) -> Adapted:
    """The adapter of the inner client ``name`` called with ``args`` (after the value)."""
    from rldp_verify.adapters.multi_freq_ldpy import _mfl

    fn = getattr(importlib.import_module(INNER[name]), name)
    return _mfl(fn, c.ev, dict(zip(keys, args[1:], strict=False)))


def _more(c) -> Adapted:
    if c.name == "ADP_Client":
        return _adp(c)
    if c.name == "L_ADP_Client":
        return _l_adp(c)
    if c.name == "L_LH_Client":
        return _l_lh(c)
    if c.name == "dBitFlipPM_Client":
        return _dbitflip(c)
    if c.name in SPL:
        return _spl(c)
    if c.name in LONG_MDIM:
        return _long_mdim(c)
    return _rspfd_more(c)


def _wrap(c, inner: Adapted, what: str) -> Adapted:
    """``inner`` under the composite client's name."""
    return Adapted(inner.structure, f"{c.label} ({what}: {inner.name})", inner.sampler, inner.float_params,
                   inner.rebuild, list(inner.notes))


# ------------------------------------------------------------------------------------------ adaptive choices


def _adaptive(c, modname: str, inners: tuple, client: str, args: tuple, keys: tuple) -> Adapted:
    """An adaptive client (ADP, L_ADP): run the library's choice with recording stubs for ``inners`` and adapt
    the one inner client it constructs, with the arguments it passed (``keys``: their names)."""
    mod = importlib.import_module(modname)
    calls = _calls(_stubbed(modname, inners, getattr(mod, client), 0, *args)[0])
    if len(calls) != 1:
        raise InputError(f"{c.label} does not call one of {' / '.join(inners)}; unsupported version")
    name, call_args = calls[0]
    return _wrap(c, _inner(c, name, call_args, keys), f"adaptive choice by variance: {name[:-7]}")


def _adp(c) -> Adapted:
    k = c.pop("k", lambda v: _size(v, "k"))
    epsilon = c.pop("epsilon", _eps)
    optimal = bool(c.params.pop("optimal", True))
    c.done()
    return _adaptive(c, f"{_PF}.ADP", ("GRR_Client", "UE_Client"), "ADP_Client", (k, epsilon, optimal),
                     ("k", "epsilon", "optimal"))


def _l_adp(c) -> Adapted:
    k = c.pop("k", lambda v: _size(v, "k"))
    eps_perm = c.pop("eps_perm", lambda v: _eps(v, "eps_perm"))
    eps_1 = c.pop("eps_1", lambda v: _eps(v, "eps_1"))
    c.done()
    if not float(eps_1) < float(eps_perm):
        raise InputError(f"eps_1 = {eps_1} must be < eps_perm = {eps_perm} (multi-freq-ldpy refuses it too)")
    return _adaptive(c, f"{_LF}.L_ADP", ("L_GRR_Client", "L_OSUE_Client"), "L_ADP_Client", (k, eps_perm, eps_1),
                     ("k", "eps_perm", "eps_1"))


# ------------------------------------------------------------------------------------------ longitudinal LH


def _l_lh(c) -> Adapted:
    k = c.pop("k", lambda v: _size(v, "k"))
    eps_perm = c.pop("eps_perm", lambda v: _eps(v, "eps_perm"))
    eps_1 = c.pop("eps_1", lambda v: _eps(v, "eps_1"))
    optimal = bool(c.params.pop("optimal", True))
    c.done()
    if not float(eps_1) < float(eps_perm):
        raise InputError(f"eps_1 = {eps_1} must be < eps_perm = {eps_perm} (multi-freq-ldpy refuses it too)")
    mod = importlib.import_module(f"{_LF}.L_LH")
    log, _ = _stubbed(f"{_LF}.L_LH", ("L_GRR_Client",), mod.L_LH_Client, 0, k, eps_perm, eps_1, optimal)
    calls = _calls(log)
    seeds = [e for e in log if e[0] == "randint"]
    if len(calls) != 1 or len(seeds) != 1 or seeds[0][1] != 0:
        raise InputError(f"{c.label} does not draw one seed and call L_GRR_Client once; unsupported version")
    g = _size(calls[0][1][1], "g")
    inner = _inner(c, "L_GRR_Client", calls[0][1], ("k", "eps_perm", "eps_1"))
    problem = xxhash_problem()

    def bucket(x, s):
        return _lh_hash(x, s, g)

    def rebuild(f):
        st = inner.rebuild(f) if inner.rebuild else inner.structure
        return PublicMixture(k, g, st.a, st.b, _separating(g, range(SEED_SEARCH)), range(8), bucket)
    samp = c.sampler("seed = np.random.randint(0, sys.maxsize) (public, released); bucket = xxh32(str(x), seed) % g; "
                     f"then L_GRR_Client on g buckets: {inner.sampler}", "exact L-GRR on the buckets (ideal)")
    return Adapted(rebuild(inner.float_params), f"{c.label} ({'L-OLH' if optimal else 'L-BLH'}, g = {g})", samp,
                   dict(inner.float_params), rebuild, list(inner.notes) + ([problem] if problem else []))


# ------------------------------------------------------------------------------------------ dBitFlipPM


def _dbitflip(c) -> Adapted:
    k = c.pop("k", lambda v: _size(v, "k"))
    b = c.pop("b", lambda v: int(v))
    m = c.pop("d_bits", lambda v: int(v))
    eps_perm = c.pop("eps_perm", lambda v: _eps(v, "eps_perm"))
    c.done()
    if not 1 <= m <= b <= k:
        raise InputError(f"b = {b}, d_bits = {m} must satisfy 1 <= d_bits <= b <= k = {k}")
    mod = importlib.import_module(f"{_LF}.dBitFlipPM")

    def bucket(x):
        return int(x / (k / b))          # the library's float bucketing

    thresholds = []
    for x in (0, k - 1):                 # bucket 0 is sampled first: its comparison is p1, then q1
        log, _ = _stubbed(f"{_LF}.dBitFlipPM", (), mod.dBitFlipPM_Client, x, k, b, m, eps_perm)
        cmps = [e for e in log if len(e) == 3 and e[0] in ("<", "<=", ">", ">=")]
        choice = [e for e in log if e[0] == "choice"]
        if len(cmps) != m or any(e[0] != "<=" for e in cmps) or len(choice) != 1 or choice[0][1:4] != (b, m, False):
            raise InputError(f"{c.label} does not draw as 0.2.5 does (choice of d_bits positions without replacement, "
                             "random() <= p per sampled bit); unsupported version")
        thresholds.append(cmps[0][1])
    fp = {"p1": thresholds[0], "q1": thresholds[1] if bucket(k - 1) != 0 else thresholds[0]}

    def rebuild(f):
        return SampledBits(k, b, m, BitChannel(c.ev("le", f["p1"]), c.ev("le", f["q1"])), bucket)
    samp = c.sampler("numba np.random.choice(b, d_bits, replace=False) (uniform positions, released as the entries "
                     "that are not -1); np.random.random() <= p1 (bucket's bit) or q1 per sampled bit "
                     "(Pr = (floor(t 2^53) + 1)/2^53)", "exact Bernoulli(p1), Bernoulli(q1)")
    return Adapted(rebuild(fp), f"{c.label} (b = {b}, d_bits = {m}; one memoised report)", samp, fp, rebuild,
                   ["multi-freq-ldpy's clients are numba-compiled: draws come from numba's generator",
                    "bucket(x) = int(x / (k / b)) in float64, as the code computes it"])


# ------------------------------------------------------------------------------------------ SPL and RS+FD


def _tuple_params(c, optional: bool):
    from rldp_verify.adapters.multi_freq_ldpy import _attributes

    lst_k, d = _attributes(c, need_one=True)
    epsilon = c.pop("epsilon", _eps)
    optimal = bool(c.params.pop("optimal", True)) if optional else None
    c.done()
    return lst_k, d, epsilon, optimal


def _spl(c) -> Adapted:
    base = c.name[4:]
    with_opt = base in ("UE_Client", "LH_Client", "ADP_Client")
    lst_k, d, epsilon, optimal = _tuple_params(c, with_opt)
    mod = importlib.import_module(f"{_MD}.SPL_solution")
    args = ([0] * d, lst_k, d, epsilon) + ((optimal,) if with_opt else ())
    calls = _calls(_stubbed(f"{_MD}.SPL_solution", (base,), getattr(mod, c.name), *args)[0])
    if len(calls) != d or [int(a[1]) for _, a in calls] != list(lst_k):
        raise InputError(f"{c.label} does not call {base} once per attribute; unsupported version")
    comps = [_inner(c, base, a, ("k", "epsilon", "optimal")) for _, a in calls]
    fp = {f"{j}:{n}": v for j, a in enumerate(comps) for n, v in a.float_params.items()}

    def rebuild(f):
        return AttributeProduct([a.rebuild({n: f[f"{j}:{n}"] for n in a.float_params}) if a.rebuild else a.structure
                                 for j, a in enumerate(comps)])
    eps_spl = calls[0][1][2]
    return Adapted(rebuild(fp), f"{c.label} (d = {d}, lst_k = {lst_k})",
                   f"every attribute through {base} with eps / d = {float(eps_spl)!r}: {comps[0].sampler}", fp, rebuild,
                   list(dict.fromkeys(n for a in comps for n in a.notes)))


def _rspfd_more(c) -> Adapted:
    lst_k, d, epsilon, optimal = _tuple_params(c, True)
    mod = importlib.import_module(f"{_MD}.RSpFD_solution")
    log, _ = _stubbed(f"{_MD}.RSpFD_solution", ("GRR_Client", "UE_Client"), getattr(mod, c.name), [0] * d, lst_k, d,
                      epsilon, optimal)
    # attribute 0 is the sampled one (the traced randint returns 0); the others get fake data
    events = [e for e in log if e[0] == "call" or (e[0] == "randint" and e[2] is None)]
    if not events or events[0][:2] != ("randint", d):
        raise InputError(f"{c.label} does not sample an attribute first; unsupported version")
    rest = events[1:]
    first = rest[0] if rest else _NONE
    if first[0] != "call" or first[2][0] != 0 or int(first[2][1]) != lst_k[0]:
        raise InputError(f"{c.label} does not report the sampled attribute through an inner client; unsupported")
    amp = first[2][2]
    parts = [_rspfd_part(c, j, k, rest, amp) for j, k in enumerate(lst_k)]
    if rest:
        raise InputError(f"{c.label} draws more than one report per attribute; unsupported version")
    fp = {f"{j}:{n}": v for j, (a, _) in enumerate(parts) for n, v in a.float_params.items()}

    def rebuild(f):
        return FakeData([(a.rebuild({n: f[f"{j}:{n}"] for n in a.float_params}), fake)
                         for j, (a, fake) in enumerate(parts)])
    kinds = ", ".join(f"{'GRR' if fake == 'uniform' else 'UE'}/{fake}" for _, fake in parts)
    return Adapted(rebuild(fp), f"{c.label} (d = {d}, lst_k = {lst_k}; per attribute: {kinds})",
                   f"secret attribute = np.random.randint(d); inner clients with the amplified eps {float(amp)!r}: "
                   f"{parts[0][0].sampler}; fake values np.random.randint(k_i) (uniform), or UE_Client of None "
                   "(zero vector) or of np.random.randint(k_i) (random value)", fp, rebuild,
                   list(dict.fromkeys(n for a, _ in parts for n in a.notes)) +
                   ["the sampled attribute is not released: the channel is a ratio of sums over the attributes, "
                    "maximised exactly"])


def _rspfd_part(c, j: int, k: int, rest: list, amp):
    """(adapted inner client, fake-data law) of attribute j from the traced events ``rest`` (consumed): attribute 0
    is the sampled one (its inner client and eps ``amp``); attribute j > 0 shows its fake data: randint(k) alone
    (uniform fake value: the attribute is reported by GRR_Client with ``amp`` when sampled), randint(k) then
    UE_Client of that value (random fake data) or UE_Client of None (zero vector)."""
    ev = rest.pop(0) if rest else _NONE
    ue_keys, rnd = ("k", "epsilon", "optimal"), c.name == "RSpFD_UE_rnd_Client"
    if j == 0:
        name, args = ev[1], ev[2]
        if name == "GRR_Client" and not rnd:
            return _inner(c, name, args, ("k", "epsilon")), "uniform"
        return _inner(c, "UE_Client", args, ue_keys), ("random" if rnd else "zero")
    if ev[0] == "randint" and ev[1] == k:
        nxt = rest[0] if rest else _NONE
        if rnd and nxt[0] == "call" and nxt[1] == "UE_Client" and nxt[2][0] == 0 and nxt[2][1:3] == (k, amp):
            rest.pop(0)
            return _inner(c, "UE_Client", nxt[2], ue_keys), "random"
        if not rnd:
            return _inner(c, "GRR_Client", (0, k, amp), ("k", "epsilon")), "uniform"
    if not rnd and ev[0] == "call" and ev[1] == "UE_Client" and ev[2][0] is None and ev[2][1:3] == (k, amp):
        return _inner(c, "UE_Client", ev[2], ue_keys), "zero"
    raise InputError(f"{c.label}: attribute {j} is not reported as multi-freq-ldpy 0.2.5 does; unsupported version")


# ------------------------------------------------------------------------------------------ longitudinal multidim


def _long_mdim(c) -> Adapted:
    """SMP_* / SPL_* of ``long_mdim_freq_est``: the inner longitudinal client per attribute, read off a traced run
    with the inner client stubbed (SPL: one call per attribute with the code's eps / d; SMP: the sampled attribute's
    call, whose argument pattern gives every attribute's)."""
    from rldp_verify.adapters.multi_freq_ldpy import _attributes
    from rldp_verify.structured import AttributeMixture

    smp, inner = c.name.startswith("SMP_"), c.name[4:]
    bitflip = inner == "dBitFlipPM_Client"
    lst_k, d = _attributes(c, need_one=True)
    if bitflip:
        lst_b = [int(v) for v in c.pop("lst_b", lambda v: list(v))]
        d_bits = c.pop("d_bits", lambda v: int(v))
        eps_perm = c.pop("eps_perm", lambda v: _eps(v, "eps_perm"))
        if len(lst_b) != d:
            raise InputError(f"lst_b = {lst_b} must have one entry per attribute (d = {d})")
        args: tuple = ([0] * d, lst_k, lst_b, d_bits, d, eps_perm)
        keys: tuple = ("k", "b", "d_bits", "eps_perm")
    else:
        eps_perm = c.pop("eps_perm", lambda v: _eps(v, "eps_perm"))
        eps_1 = c.pop("eps_1", lambda v: _eps(v, "eps_1"))
        args, keys = ([0] * d, lst_k, d, eps_perm, eps_1), ("k", "eps_perm", "eps_1")
    c.done()
    modname = f"multi_freq_ldpy.long_mdim_freq_est.L_{'SMP' if smp else 'SPL'}_Solution"
    mod = importlib.import_module(modname)
    calls = _calls(_stubbed(modname, (inner,), getattr(mod, c.name), *args)[0])
    want = 1 if smp else d
    if len(calls) != want or any(a[0] != 0 or int(a[1]) != lst_k[j] or (bitflip and int(a[2]) != lst_b[j])
                                 for j, (_, a) in enumerate(calls)):
        raise InputError(f"{c.label} does not call {inner} as multi-freq-ldpy 0.2.5 does; unsupported version")
    if smp:        # attribute j is called as attribute 0 is, with its own k (and b)
        a0 = calls[0][1]
        calls = [(inner, (0, lst_k[j]) + ((lst_b[j],) + a0[3:] if bitflip else a0[2:])) for j in range(d)]
    comps = [_inner(c, inner, a, keys) for _, a in calls]
    fp = {f"{j}:{n}": v for j, a in enumerate(comps) for n, v in a.float_params.items()}
    cls = AttributeMixture if smp else AttributeProduct

    def rebuild(f):
        return cls([a.rebuild({n: f[f"{j}:{n}"] for n in a.float_params}) if a.rebuild else a.structure
                    for j, a in enumerate(comps)])
    how = ("attribute = np.random.randint(d) (uniform, released), then " if smp else
           f"every attribute, with the code's eps / d ({calls[0][1][-1 if bitflip else -2]!r}), through ")
    return Adapted(rebuild(fp), f"{c.label} (d = {d}, lst_k = {lst_k})", f"{how}{inner}: {comps[0].sampler}", fp,
                   rebuild, list(dict.fromkeys(n for a in comps for n in a.notes)))
