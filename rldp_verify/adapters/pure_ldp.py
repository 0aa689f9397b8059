"""pure-ldp's clients (``UEClient``, ``DEClient``, ``LHClient``, ``HEClient``) as structured exact channels,
read off their ``_perturb`` by tracing it (see :mod:`rldp_verify.adapters`)."""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.adapters._common import (
    COMPARISONS,
    SEED_SEARCH,
    _always,
    _cmp,
    _ev_of,
    _Events,
    _laplace_scales,
    _lh_hash,
    _separating,
    _size,
    _trace,
    _version,
    xxhash_problem,
)
from rldp_verify.adapters.pure_ldp_more import MORE, _pure_ldp_more
from rldp_verify.adapters.pure_ldp_sketch import SKETCH, _pure_ldp_sketch
from rldp_verify.core.errors import InputError
from rldp_verify.structured import Adapted, BitChannel, LaplaceHistogram, PublicMixture, Symmetric, UnaryProduct
from rldp_verify.structured import samplers as sm

SUPPORTED = ("UEClient", "DEClient", "LHClient", "HEClient", "RAPPORClient", "CMSClient", "HadamardMechClient",
             "HadamardResponseClient", "FastLHClient", "SketchResponseClient", "PCSClient", "PEMClient")


def pure_ldp_has_ue_bug(version: str | None = None) -> bool:
    """True for pure-ldp < 1.2.0, whose UEClient does not clear the true bit before setting it."""
    if version is None:
        version = _version("pure-ldp") or "1.2.0"
    parts = []
    for tok in version.split(".")[:3]:
        digits = "".join(ch for ch in tok if ch.isdigit())
        parts.append(int(digits) if digits else 0)
    return tuple(parts + [0] * (3 - len(parts))) < (1, 2, 0)


def _pure_ldp(obj, ev: _Events, params) -> Adapted:
    cls = type(obj).__name__
    if cls in SKETCH:
        return _pure_ldp_sketch(obj, cls, _version("pure-ldp"), ev, params)
    if cls not in SUPPORTED:
        raise InputError(f"unsupported pure-ldp object of type {type(obj).__module__}.{cls} (supported: "
                         "UEClient, DEClient, LHClient, HEClient, RAPPORClient, CMSClient, HadamardMechClient, "
                         "HadamardResponseClient, FastLHClient, SketchResponseClient, PCSClient, PEMClient)")
    ver = _version("pure-ldp")
    if cls in MORE:
        return _pure_ldp_more(obj, cls, ver, ev, params)
    d = _size(getattr(obj, "d", None), "d")
    if params:
        raise InputError(f"pure-ldp {cls} carries its own parameters; unexpected {', '.join(sorted(params))}")
    return _CLIENTS[cls](obj, d, ver, ev)


# ------------------------------------------------------------------------------------------ UEClient


def _ue_trace(obj, ver):
    """(w, op, c_p, buggy) of one traced ``UEClient._perturb``: the choice weights [q, 1 - q], the comparison
    of the true bit's uniform with p, and whether the true bit is left set (the pre-1.2.0 bug)."""
    log, _ = _trace(obj._perturb, 0)
    choice = [e for e in log if e[0] == "choice"]
    if len(choice) != 1 or choice[0][4] is None:
        raise InputError(f"pure-ldp {ver} UEClient does not draw as 1.1.x/1.2.x do; unsupported version")
    w = choice[0][4]
    op, c_p = _cmp(log, 0)
    # the bug, read from the code: is the true bit cleared (oh_vec[index] = 0) before the comparison?
    probe_at = next(i for i, e in enumerate(log) if len(e) == 3 and e[0] in COMPARISONS)
    cleared = any(e[0] == "setitem" and e[1] == 0 and e[2] == 0 for e in log[:probe_at])
    buggy = not cleared
    if buggy != pure_ldp_has_ue_bug(ver):
        raise InputError(f"pure-ldp {ver} UEClient: the code {'does not clear' if buggy else 'clears'} the "
                         "true bit, which the version number does not say; unsupported version")
    return w, op, c_p, buggy


def _ue(obj, d, ver, ev: _Events) -> Adapted:
    w, op, c_p, buggy = _ue_trace(obj, ver)
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


# ------------------------------------------------------------------------------------------ DEClient


def _de(obj, d, ver, ev: _Events) -> Adapted:
    log, _ = _trace(obj._perturb, 0)
    op, c_p = _cmp(log, 0)

    def rebuild(f):
        a = _ev_of(ev, op, f["p"])
        return Symmetric(d, a, (1 - a) / (d - 1))
    samp = (f"random.random() {op} p, else random.randint(0, d-2) shifted past x (exactly uniform)"
            if ev.model == "code" else "exact Bernoulli(p) (ideal)")
    return Adapted(rebuild({"p": c_p}), f"pure-ldp {ver} DEClient (GRR)", samp, {"p": c_p}, rebuild)


# ------------------------------------------------------------------------------------------ LHClient


def _lh_trace(obj, g, ver):
    """The threshold c of ``random_sample() > c`` in one traced ``LHClient._perturb``, with xxhash made to
    accept the library's str argument while it runs."""
    # trace _perturb with the hash made to work, to read the comparison and the integer draw
    import pure_ldp.frequency_oracles.local_hashing.lh_client as lhmod
    import xxhash as _xx

    orig = _xx.xxh32
    lhmod.xxhash.xxh32 = lambda s, seed=0: orig(s.encode() if isinstance(s, str) else s, seed=seed)
    try:
        log, _ = _trace(obj._perturb, 0, 0, decide=_always)
    finally:
        lhmod.xxhash.xxh32 = orig
    op, c = _cmp(log, 0)
    if op != ">" or not any(e[0] == "randint" and e[1:] == (0, g) for e in log):
        raise InputError(f"pure-ldp {ver} LHClient does not draw as 1.1.x does (random_sample() > p - q, "
                         "randint(0, g)); unsupported version")
    return c


def _lh(obj, d, ver, ev: _Events) -> Adapted:
    g = _size(getattr(obj, "g", None), "g")
    problem = xxhash_problem()
    fp = {"p - q": _lh_trace(obj, g, ver)}
    fast = type(obj).__name__ == "FastLHClient"       # seeds random.randint(0, k - 1): a finite public mixture
    k = _size(getattr(obj, "k", None), "k") if fast else None
    seeds = range(k) if k is not None else range(SEED_SEARCH)
    dense_seeds = range(k) if k is not None and k <= 64 else range(8)

    def bucket(x, s):
        return _lh_hash(x, s, g)

    def rebuild(f):
        keep = 1 - _ev_of(ev, ">", f["p - q"])          # keep the hash when U <= p - q
        a, b = keep + (1 - keep) / g, (1 - keep) / g      # randint(0, g) may return the hash itself
        return PublicMixture(d, g, a, b, _separating(g, seeds), dense_seeds, bucket,
                             complete=k is not None and k <= 64)
    kind = "OLH" if getattr(obj, "use_olh", False) else ("BLH" if g == 2 else f"LH, g = {g}")
    seed_draw = (f"random.randint(0, k - 1), k = {k}; the data item is hashed as given (FastLHClient applies no "
                 "index_mapper)" if fast else "random.randint(0, sys.maxsize)")
    samp = (f"seed = {seed_draw} (public, released); bucket = xxh32(str(x), seed) % g; "
            "kept when numpy random_sample() <= fl(p - q) (Pr = (floor(c 2^53) + 1)/2^53), else "
            "np.random.randint(0, g) (uniform over all g buckets)" if ev.model == "code" else
            "exact Bernoulli(p - q) keep, else uniform over g (ideal)")
    notes = [problem] if problem else []
    if fast:
        notes.append(f"the seed ranges over {k} values: the dense channel is the whole mixture when k <= 64; eps-LDP "
                     "needs a seed among them that separates inputs 0 and 1 (else refused)")
    name = "FastLHClient" if fast else "LHClient"
    return Adapted(rebuild(fp), f"pure-ldp {ver} {name} ({kind}, g = {g})", samp, fp, rebuild, notes)


# ------------------------------------------------------------------------------------------ HEClient


def _he(obj, d, ver, ev: _Events) -> Adapted:
    log, _ = _trace(obj._perturb, [0.0] * d)
    lap = _laplace_scales(log)
    if len(lap) != 1:
        raise InputError(f"pure-ldp {ver} HEClient does not draw one Laplace vector; unsupported version")
    b = lap[0]
    return Adapted(LaplaceHistogram(d, b), f"pure-ldp {ver} HEClient (SHE / THE: thresholding is "
                   "post-processing on the server)", f"ideal continuous Laplace(0, b = {b!r}) noise on each "
                   "coordinate (the float sampler is not modelled: a black-box matter)", {}, None)


_CLIENTS = {"UEClient": _ue, "DEClient": _de, "LHClient": _lh, "HEClient": _he, "FastLHClient": _lh}
