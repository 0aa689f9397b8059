"""Black-box audit of a randomiser: a lower bound on eps that holds with a stated confidence.

``audit_sampler(fn, inputs, trials, confidence=0.95, seed=0)`` draws ``trials`` outputs of ``fn(x)`` for every
input x (in parallel over processes, seeded), and splits them into two halves:

1. **Selection** (first half): for every candidate pair of input mixtures (w1, w2) -- the ordered pairs of
   inputs for eps-LDP (Definition 2); for (eps, F)-RLDP the conditionals P*_{U|s}, P*_{U|s'} of the witness
   P* in F that the certified auditor (:func:`rldp_verify.rldp.audit.audit`) finds for the estimated channel --
   outputs are ranked by their estimated likelihood ratio and every prefix is a candidate event E. The
   (pair, event) with the largest Clopper-Pearson bound on this half is chosen.
2. **Certification** (second half, independent of the choice): exact one-sided Clopper-Pearson bounds
   (scipy.stats.beta) lo_x <= Pr[fn(x) in E] for x in supp(w1) and hi_x >= Pr[fn(x) in E] for x in supp(w2),
   each at level 1 - (1 - confidence)/m with m the number of bounds (Bonferroni), so that all hold together
   with probability >= confidence. Then

       eps >= log( sum_x w1(x) lo_x / sum_x w2(x) hi_x )

   holds with probability >= ``confidence`` over the sampling: for eps-LDP because Pr[Y in E | x] <=
   e^eps Pr[Y in E | x']; for (eps, F)-RLDP because P* in F gives P*(Y in E | s) = sum_u P*(u|s) Pr[Y in E|(s,u)]
   (Definition 1; F = {P} is eq. (62), F = P_X Proposition 3; the "confidence box" of the estimated channel
   is these simultaneous intervals).

The result carries the evidence: the event, the inputs and their weights, the counts on the certification
half and the bounds. ``fn`` must return hashable outputs of one type; a callable that raises, returns an
unhashable or a differently typed value, is refused with one line naming the value. Seeding: before each
chunk of draws the worker seeds Python's ``random`` and NumPy's global generator from (seed, input,
chunk); ``reproducible`` says whether two runs of a chunk gave the same outputs (a sampler with its own
entropy source, e.g. OpenDP, is not reproducible; the bound still holds).

Outputs with public randomness (local hashing: every report carries a fresh seed) are almost all distinct;
counted as they are, no event separates the inputs and the bound is near 0. ``feature`` maps each output to an
event key before counting (any function of the output is post-processing, so the bound stays valid);
:func:`lh_feature` is the protocol-aware default for local hashing: the key of (bucket, seed) is the tuple of
"bucket == h_seed(x)" over the audited inputs x, with the libraries' hash h_seed(x) = xxh32(str(x), seed) % g.
The result always says how many distinct outputs (keys) it saw in how many draws, and ``warning`` is set when
they are so many that the selection half cannot estimate likelihood ratios (more than half of the draws of an
input gave an output seen once).
"""

from __future__ import annotations

import math
import os
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import SEARCH_DPS
from rldp_verify.core.progress import stderr_bar

__all__ = ["audit_sampler", "SamplerAudit", "clopper_pearson_lower", "clopper_pearson_upper", "lh_feature"]

_FN = None  # the sampler, inherited by forked workers
_FEATURE = None  # the feature map (output -> event key), or None


def clopper_pearson_lower(k: int, n: int, level: float) -> float:
    """One-sided exact lower bound: Pr[p >= result] >= level (0 when k = 0); rounded down."""
    from scipy.stats import beta

    if k == 0:
        return 0.0
    v = float(beta.ppf(1 - level, k, n - k + 1))
    return max(0.0, float(np.nextafter(v, 0.0))) if v > 0 else 0.0


def clopper_pearson_upper(k: int, n: int, level: float) -> float:
    """One-sided exact upper bound: Pr[p <= result] >= level (1 when k = n); rounded up."""
    from scipy.stats import beta

    if k == n:
        return 1.0
    v = float(beta.ppf(level, k + 1, n - k))
    return min(1.0, float(np.nextafter(v, 2.0)))


@dataclass
class SamplerAudit:
    """Result of :func:`audit_sampler`: a statistical lower bound ``eps_lower`` on the eps of a black-box
    randomiser (holds with probability >= ``confidence``; 0.0 when no event separates two inputs), the event E and
    input weights chosen on the selection half, the counts and Clopper-Pearson bounds of the certification half.
    Errs low: never above the true eps except with probability <= 1 - confidence."""

    eps_lower: float                  # holds with probability >= confidence; 0.0 when nothing is found
    confidence: float
    event: list                       # the outputs forming E
    weights: dict                     # {"w1": {input: weight}, "w2": {...}}
    counts: dict                      # certification half: {input: count of E}
    bounds: dict                      # {input: [lo or hi, side]}
    trials: int
    certification_trials: int         # per input
    seed: int
    seconds: float
    mode: str
    reproducible: bool | None
    outputs_seen: int
    notes: list = field(default_factory=list)
    draws: int = 0                    # all draws over all inputs (both halves)
    feature: str | None = None        # the feature map applied to outputs, if any
    warning: str | None = None        # set when the outputs are too many distinct values for the estimate

    def to_json(self) -> dict:
        """The audit as a JSON-ready dict: real numbers as decimal strings with :data:`DIGITS` significant
        digits (eps_lower and lower bounds rounded down, upper bounds rounded up), inputs and outputs by
        ``repr``, weights as exact fractions; counts, trials and seconds as JSON numbers."""
        return {
            "eps_lower": _dstr(self.eps_lower, True), "confidence": repr(float(self.confidence)), "mode": self.mode,
            "event": [repr(y) for y in self.event],
            "weights": {k: {repr(x): str(w) for x, w in v.items()} for k, v in self.weights.items()},
            "counts": {repr(x): c for x, c in self.counts.items()},
            "bounds": {repr(x): [_dstr(b[0], b[1] == "lower"), b[1]] for x, b in self.bounds.items()},
            "trials": self.trials, "certification_trials": self.certification_trials, "seed": self.seed,
            "seconds": round(self.seconds, 3), "reproducible": self.reproducible, "outputs_seen": self.outputs_seen,
            "draws": self.draws, "feature": self.feature, "warning": self.warning, "notes": list(self.notes),
        }


DIGITS = 17


def _dstr(v: float, down: bool) -> str:
    """A float as a plain decimal string of :data:`DIGITS` significant digits, rounded down or up."""
    from decimal import ROUND_CEILING, ROUND_FLOOR, Context, Decimal

    d = Context(prec=DIGITS, rounding=ROUND_FLOOR if down else ROUND_CEILING).plus(Decimal(float(v)))
    return format(d, "f")


def lh_feature(inputs, g: int, hash_fn=None):
    """Protocol-aware feature map for local hashing: (bucket, seed) -> (bucket == h_seed(x) for x in inputs).

    ``hash_fn(x, seed, g)`` defaults to the hash of pure-ldp's ``LHClient`` and multi-freq-ldpy's ``LH_Client``:
    ``xxhash.xxh32(str(x), seed) % g`` (str hashed as its UTF-8 bytes, as xxhash < 4 does, seed mod 2^32)."""
    import xxhash

    if hash_fn is None:
        def hash_fn(x, seed, g):
            return xxhash.xxh32(str(x).encode("utf-8"), seed=int(seed) & 0xFFFFFFFF).intdigest() % g
    inputs = list(inputs)
    g = int(g)
    if g < 2:
        raise InputError(f"g = {g} must be at least 2 (hash buckets)")

    def feature(y):
        bucket, seed = y[0], y[1]
        return tuple(int(int(bucket) == hash_fn(x, int(seed), g)) for x in inputs)
    feature.__name__ = f"lh_feature(g={g})"
    return feature


# ------------------------------------------------------------------------------------------ sampling


def _seed_for(seed: int, i: int, chunk: int) -> int:
    import hashlib

    h = hashlib.sha256(f"{seed}:{i}:{chunk}".encode()).digest()
    return int.from_bytes(h[:4], "little")


def _draw(task):
    """Run one chunk: (input index, input, chunk index, size, seed) -> (i, chunk, Counter) or an error line."""
    i, x, chunk, size, seed = task
    s = _seed_for(seed, i, chunk)
    random.seed(s)
    np.random.seed(s)
    c = Counter()
    first_type = None
    for _ in range(size):
        try:
            y = _FN(x)
        except Exception as exc:  # reported to the caller as bad input, one line
            hint = ""
            if isinstance(exc, TypeError) and "encoded before hashing" in str(exc):
                hint = (" (xxhash 4 refuses the str that pure-ldp / multi-freq-ldpy hash: install xxhash<4, "
                        "which hashes its UTF-8 bytes)")
            return i, chunk, f"the sampler raised {type(exc).__name__} on input {x!r}: {exc}{hint}"
        if _FEATURE is not None:
            try:
                y = _FEATURE(y)
            except Exception as exc:  # noqa: BLE001 - one line, bad input
                name = getattr(_FEATURE, "__name__", "the feature map")
                return i, chunk, (f"the feature map {name} raised {type(exc).__name__} on the output {y!r:.60} "
                                  f"of input {x!r}: {exc}")
        try:
            hash(y)
        except TypeError:
            return i, chunk, (f"the sampler returned an unhashable {type(y).__name__} on input {x!r}: {y!r:.80} "
                              "(return a tuple or a string)")
        if first_type is None:
            first_type = type(y)
        elif type(y) is not first_type:
            return i, chunk, (f"the sampler returned outputs of different types on input {x!r}: "
                              f"{first_type.__name__} and {type(y).__name__} ({y!r:.40})")
        c[y] += 1
    return i, chunk, c


def _sample(fn, inputs, trials, seed, workers, progress, feature=None):
    global _FN, _FEATURE
    _FN, _FEATURE = fn, feature
    n_chunks = max(2, min(64, trials // 2000))
    n_chunks += n_chunks % 2
    sizes = [trials // n_chunks + (1 if k < trials % n_chunks else 0) for k in range(n_chunks)]
    tasks = [(i, x, k, sizes[k], seed) for i, x in enumerate(inputs) for k in range(n_chunks)]
    halves = [[Counter(), Counter()] for _ in inputs]
    bar = stderr_bar(len(tasks), "sampling", progress)

    def take(res):
        i, k, c = res
        if isinstance(c, str):
            raise InputError(c)
        halves[i][k % 2].update(c)
        if bar:
            bar.update(1)

    try:
        if workers <= 1:
            for t in tasks:
                take(_draw(t))
        else:
            import multiprocessing as mp
            from concurrent.futures import ProcessPoolExecutor

            ctx = mp.get_context("fork")
            with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as ex:
                for res in ex.map(_draw, tasks):
                    take(res)
    finally:
        if bar:
            bar.close()
    # reproducibility: the first chunk of input 0 again, in this process
    again = _draw((0, inputs[0], 0, min(sizes[0], 200), seed))
    first = _draw((0, inputs[0], 0, min(sizes[0], 200), seed))
    reproducible = not isinstance(again[2], str) and again[2] == first[2]
    n_half = [sum(sizes[k] for k in range(n_chunks) if k % 2 == h) for h in (0, 1)]
    return halves, n_half, reproducible


# ------------------------------------------------------------------------------------------ events


def _best_event(cA, nA, w1, w2, level_each):
    """The prefix event (outputs sorted by the estimated ratio) with the largest Clopper-Pearson bound on the
    selection half; returns (bound, event)."""
    outs = set()
    for x in list(w1) + list(w2):
        outs |= set(cA[x])

    def est(w, y):
        return sum(float(wx) * (cA[x][y] + 0.5) / (nA + 1) for x, wx in w.items())

    order = sorted(outs, key=lambda y: est(w1, y) / est(w2, y), reverse=True)
    best, best_event = -math.inf, []
    k1 = {x: 0 for x in w1}
    k2 = {x: 0 for x in w2}
    n_pref = len(order) - 1 if len(order) > 1 else len(order)
    # at most ~400 prefixes are scored (all of the first 200, then a geometric grid): the choice only needs
    # to be good, and scoring 40,000 singleton outputs took a minute
    scored = set(range(min(n_pref, 200)))
    j = 200
    while j < n_pref:
        scored.add(j)
        j = max(j + 1, int(j * 1.02))
    for j, y in enumerate(order[:n_pref]):
        for x in w1:
            k1[x] += cA[x][y]
        for x in w2:
            k2[x] += cA[x][y]
        if j not in scored:
            continue
        lo = sum(float(wx) * clopper_pearson_lower(k1[x], nA, level_each) for x, wx in w1.items())
        hi = sum(float(wx) * clopper_pearson_upper(k2[x], nA, level_each) for x, wx in w2.items())
        if lo > 0 and hi > 0 and math.log(lo / hi) > best:
            best, best_event = math.log(lo / hi), order[:j + 1]
    return best, best_event


def _candidates_ldp(inputs):
    return [({x: Fraction(1)}, {xp: Fraction(1)}) for x in inputs for xp in inputs if x != xp]


def _candidates_rldp(inputs, cA, nA, sizes, rldp, dps):
    """(w1, w2) from the certified auditor's witness for the channel estimated on the selection half."""
    from rldp_verify.rldp.audit import audit
    from rldp_verify.rldp.mechio import Mechanism

    a1, a2 = sizes
    outs = sorted({y for x in inputs for y in cA[x]}, key=repr)
    Q = [[Fraction(cA[x][y], nA) for x in inputs] for y in outs]
    mech = Mechanism.from_matrix(Q, a1, a2, [repr(y)[:40] for y in outs])
    res = audit(mech, 0, dps=dps, max_dps=dps, **rldp)
    P = res.witness
    cands = []
    pairs = [(res.argmax["s"], res.argmax["s_prime"])] if res.argmax and "s" in res.argmax else []
    pairs += [(s, sp) for s in range(a1) for sp in range(a1) if s != sp and (s, sp) not in pairs]
    for s, sp in pairs:
        if P is None:
            continue
        rows = [[Fraction(v) for v in r] for r in P]
        m1, m2 = sum(rows[s]), sum(rows[sp])
        if m1 == 0 or m2 == 0:
            continue
        w1 = {inputs[s * a2 + u]: rows[s][u] / m1 for u in range(a2) if rows[s][u] > 0}   # exact P*(u|s)
        w2 = {inputs[sp * a2 + u]: rows[sp][u] / m2 for u in range(a2) if rows[sp][u] > 0}
        cands.append((w1, w2))
    return cands, res


def audit_sampler(fn, inputs, trials: int, confidence: float = 0.95, seed: int = 0, *, workers: int | None = None,
                  progress: bool = True, sizes=None, phat=None, alpha=None, radius=None, distribution=None,
                  full_simplex: bool = False, dps: int = SEARCH_DPS, feature=None) -> SamplerAudit:
    """A lower bound on eps for the randomiser ``fn`` holding with probability >= ``confidence``.

    eps-LDP (default): over every ordered pair of ``inputs``. (eps, F)-RLDP: ``sizes=(|S|, |U|)`` with
    ``inputs`` the values of X = S x U in S-major order, and F given by ``phat``/``alpha``/``radius`` (a Rényi
    ball), ``distribution`` (F = {P}, eq. (62)) or ``full_simplex=True`` (F = P_X). ``feature``: a map from
    outputs to event keys (e.g. :func:`lh_feature`), applied before counting. See the module docstring.
    """
    t0 = time.perf_counter()
    inputs, workers = _check_sampling(fn, inputs, trials, confidence, seed, workers)
    rldp, sizes = _uncertainty_set(sizes, len(inputs), phat, alpha, radius, distribution, full_simplex)
    if feature is not None and not callable(feature):
        raise InputError(f"the feature map must be callable, got {type(feature).__name__}")
    halves, (nA, nB), reproducible = _sample(fn, inputs, int(trials), int(seed), workers, progress, feature)
    cA = {x: halves[i][0] for i, x in enumerate(inputs)}
    cB = {x: halves[i][1] for i, x in enumerate(inputs)}
    notes = []
    if sizes is None:
        cands, mode = _candidates_ldp(inputs), "eps-LDP (Definition 2)"
    else:
        cands, res = _candidates_rldp(inputs, cA, nA, sizes, rldp, dps)
        mode = f"(eps, F)-RLDP, F: {res.uncertainty}"
        notes.append(f"selection: certified audit of the channel estimated on the first half gives eps_F in "
                     f"{res.eps_realised(8)}; its witness P* supplies the mixtures")
    best = _select(cands, cA, nA, confidence)
    outputs_seen = len({y for x in inputs for y in list(cA[x]) + list(cB[x])})
    draws = len(inputs) * (nA + nB)
    fname = None if feature is None else getattr(feature, "__name__", repr(feature))
    warning = _sparsity_warning(cA, nA, inputs, outputs_seen, draws, feature is not None)
    extra = {"draws": draws, "feature": fname, "warning": warning}
    if best[1] is None:
        notes.append("no event separates the inputs on the selection half")
        return SamplerAudit(0.0, confidence, [], {}, {}, {}, int(trials), nB, int(seed),
                            time.perf_counter() - t0, mode, reproducible, outputs_seen, notes, **extra)
    _, event, (w1, w2) = best
    eps_lower, counts, bounds = _held_out_bound(set(event), w1, w2, cB, nB, confidence)
    return SamplerAudit(eps_lower, confidence, sorted(event, key=repr), {"w1": w1, "w2": w2}, counts, bounds,
                        int(trials), nB, int(seed), time.perf_counter() - t0, mode, reproducible, outputs_seen, notes,
                        **extra)


def _check_sampling(fn, inputs, trials, confidence, seed, workers):
    """(inputs as a list, workers) after checking the sampler, the inputs and the sampling parameters."""
    if not callable(fn):
        raise InputError(f"the sampler must be callable, got {type(fn).__name__}")
    try:
        inputs = list(inputs)
    except TypeError:
        raise InputError(f"inputs must be a sequence, got {type(inputs).__name__}") from None
    if len(inputs) < 2:
        raise InputError(f"inputs must hold at least 2 values, got {len(inputs)}")
    if len(set(map(repr, inputs))) != len(inputs):
        raise InputError(f"inputs repeat a value: {inputs!r:.80}")
    if isinstance(trials, bool) or not isinstance(trials, (int, np.integer)) or trials < 4:
        raise InputError(f"trials must be an integer >= 4, got {trials!r}")
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0 < confidence < 1:
        raise InputError(f"confidence must be in (0, 1), got {confidence!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise InputError(f"seed must be an integer, got {seed!r}")
    workers = workers or os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InputError(f"workers must be a positive integer, got {workers!r}")
    return inputs, workers


def _uncertainty_set(sizes, n_inputs: int, phat, alpha, radius, distribution, full_simplex):
    """(the certified audit's keyword arguments for F, sizes as (|S|, |U|)): ({}, None) for eps-LDP."""
    if sizes is None:
        if any(v is not None for v in (phat, alpha, radius, distribution)) or full_simplex:
            raise InputError("an uncertainty set needs sizes=(|S|, |U|) (inputs in S-major order)")
        return {}, None
    try:
        a1, a2 = (int(v) for v in sizes)
    except (TypeError, ValueError):
        raise InputError(f"sizes = {sizes!r} must be (|S|, |U|)") from None
    if a1 * a2 != n_inputs or a1 < 2:
        raise InputError(f"sizes = {sizes!r} must multiply to the number of inputs {n_inputs} with |S| >= 2")
    chosen = [phat is not None, distribution is not None, bool(full_simplex)]
    if sum(chosen) != 1:
        raise InputError("with sizes, choose exactly one uncertainty set: phat (with alpha, radius), "
                         "distribution, or full_simplex")
    if phat is not None:
        if alpha is None or radius is None:
            raise InputError("a Rényi ball needs phat, alpha and radius")
        return {"phat": phat, "alpha": alpha, "radius": radius}, (a1, a2)
    if distribution is not None:
        return {"distribution": distribution}, (a1, a2)
    return {"full_simplex": True}, (a1, a2)


def _select(cands, cA, nA, confidence):
    """(bound, event, (w1, w2)) of the candidate mixtures' best event on the selection half ((-inf, None,
    None) when no event separates them)."""
    best: tuple = (-math.inf, None, None)
    for w1, w2 in cands:
        m = len(w1) + len(w2)
        level_each = 1 - (1 - confidence) / m
        b, ev = _best_event(cA, nA, w1, w2, level_each)
        if b > best[0]:
            best = (b, ev, (w1, w2))
    return best


def _held_out_bound(ev: set, w1: dict, w2: dict, cB, nB: int, confidence):
    """(eps_lower, counts, bounds) on the held-out half: Clopper-Pearson bounds of Pr[event | x] (lower for
    the w1 inputs, upper for the w2 inputs) at the Bonferroni level, mixed exactly; the log of the ratio
    nudged down past float log error."""
    m = len(w1) + len(w2)
    level_each = 1 - (1 - confidence) / m
    counts: dict = {}
    bounds: dict = {}
    lo = hi = Fraction(0)
    for x, wx in w1.items():
        k = sum(cB[x][y] for y in ev)
        b = clopper_pearson_lower(k, nB, level_each)
        counts[x], bounds[x] = k, [b, "lower"]
        lo += wx * Fraction(b)                  # exact sums of the (outward-rounded) bounds
    for x, wx in w2.items():
        k = sum(cB[x][y] for y in ev)
        b = clopper_pearson_upper(k, nB, level_each)
        counts[x], bounds[x] = k, [b, "upper"]
        hi += wx * Fraction(b)
    eps_lower = 0.0
    if lo > 0:
        v = math.log(lo / hi)                    # a few ulps of float log error: nudge down
        eps_lower = max(0.0, float(np.nextafter(np.nextafter(v, -math.inf), -math.inf)) - 4e-16 * abs(v))
    return eps_lower, counts, bounds


def _sparsity_warning(cA, nA, inputs, outputs_seen, draws, has_feature):
    """A warning when most draws of some input gave an output seen only once on the selection half."""
    worst = max(sum(1 for c in cA[x].values() if c == 1) / nA for x in inputs)
    if worst <= 0.5:
        return None
    hint = ("coarsen the feature map" if has_feature else
            "pass a feature map (output -> event key; for local hashing: feature=lh_feature(inputs, g), "
            "--feature lh:G)")
    return (f"{outputs_seen} distinct outputs in {draws} draws: for some input {worst:.0%} of the selection draws "
            f"were outputs seen once, so no likelihood ratio can be estimated and the bound (valid) is "
            f"meaningless as an estimate of eps; {hint}")
