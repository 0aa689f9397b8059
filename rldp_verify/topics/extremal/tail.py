"""Certify that randomized response stays optimal for *every* eps >= eps_hi (interval arithmetic).

Source: [kairouz-2016] (Kairouz, Oh & Viswanath), proofs of Theorem 8 (Sec. 8.4, eq. (82),
(86)-(88)) and Theorem 14 (Sec. 9.5, eq. (129), (133)-(135)).

RR is optimal at t = e^eps iff every reduced cost g_j(t) = S_j^T alpha*(t) - mu_j(t) >= 0 (the RR basis
is non-degenerate; alpha* is (82)/(129)). Substitute s = 1/t = e^-eps in (0, 1) and write
mu_i(t) = m_i(s)/s with m_i analytic (KL) or continuous (MI) on [0, 1). Then

    alpha_i(s) = [(1 + (k-2) s) m_i(s) - s sum_{l != i} m_l(s)] / [(1 - s)(1 + (k-1) s)],
    h_j(s)    := s g_j(1/s) = sum_{i in T_j} alpha_i(s) + s sum_{i not in T_j} alpha_i(s) - m_j(s),

and h_j(0) = sum_{i in T_j} m_i(0) - m_j(0) is the e^eps coefficient of (88)/(135). If h_j > 0 on the
whole interval [0, s_hi] for every pattern with 2 <= |T_j| < k then RR is optimal for all
eps >= -log s_hi. (T_j = {} and T_j = X have g_j = U(RR) and t U(RR) >= 0; singletons are basic;
T_j = X is included in the check anyway for |X| >= 2 patterns.) Positivity on an interval is proved
with arb balls over an adaptive subdivision of [0, s_hi]; failure to prove returns False (errs
towards "not certified").

m_i for KL: m(s) = (p + s(1-p)) log((p + s(1-p)) / (q + s(1-q))), p = P0(A), q = P1(A).
m_i for MI: m(s) = s (1-z) log s - (z + s(1-z)) log(z + s(1-z)), z = P(A); s log s is enclosed by
monotonicity on [0, 1/e].
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import flint

from rldp_verify.core.numbers import SCREEN_DPS
from rldp_verify.core.rigorous import arb_precision


def _q(x) -> flint.arb:
    x = Fraction(x)
    return flint.arb(flint.fmpq(x.numerator, x.denominator))


def _interval(lo: Fraction, hi: Fraction) -> flint.arb:
    a, b = _q(lo), _q(hi)
    return a.union(b)


def _xlogx(lo: Fraction, hi: Fraction) -> flint.arb:
    """Enclosure of {x log x : x in [lo, hi]}, 0 <= lo <= hi < 1 (0 log 0 = 0).

    lo > 0: ball arithmetic. lo = 0, hi <= 1/e: x log x is decreasing there, so [hi log hi, 0].
    lo = 0, hi > 1/e: [-1/e, 0] (the global minimum of x log x is -1/e at x = 1/e; x log x < 0 on (0, 1)).
    """
    if lo > 0:
        x = _interval(lo, hi)
        return x * x.log()
    if hi <= Fraction(367879, 1000000):  # < 1/e = 0.36787944...
        return (_q(hi) * _q(hi).log()).union(flint.arb(0))
    return (-flint.arb(1).exp().__rtruediv__(1)).union(flint.arb(0))


def m_kl(p: Fraction, q: Fraction) -> Callable:
    """An arb enclosure of the KL column functional on an interval of s = e^-eps (for the tail proof)."""
    P, Q = _q(p), _q(q)

    def m(lo: Fraction, hi: Fraction) -> flint.arb:
        s = _interval(lo, hi)
        a = P + s * (1 - P)
        b = Q + s * (1 - Q)
        return a * (a / b).log()
    return m


def m_mi(z: Fraction) -> Callable:
    """An arb enclosure of the mutual-information column functional on an interval of s = e^-eps."""
    Z = _q(z)

    def m(lo: Fraction, hi: Fraction) -> flint.arb:
        s = _interval(lo, hi)
        a = Z + s * (1 - Z)
        return (1 - Z) * _xlogx(lo, hi) - a * a.log()
    return m


def _h_all(m_single, m_pattern, patterns, k, lo, hi):
    s = _interval(lo, hi)
    ms = [m_single[i](lo, hi) for i in range(k)]
    tot = sum(ms[1:], ms[0])
    den = (1 - s) * (1 + (k - 1) * s)
    alpha = [((1 + (k - 2) * s) * ms[i] - s * (tot - ms[i])) / den for i in range(k)]
    out = []
    for A in patterns:
        inA = [alpha[i] for i in range(k) if i in A]
        outA = [alpha[i] for i in range(k) if i not in A]
        h = sum(inA[1:], inA[0]) - m_pattern[A](lo, hi)
        if outA:
            h = h + s * sum(outA[1:], outA[0])
        out.append(h)
    return out


def h_all(m_single, m_pattern, patterns, k, lo: Fraction, hi: Fraction) -> list:
    """Arb enclosures of h_j(s) = s g_j(1/s) over s in [lo, hi] for each pattern of ``patterns`` (module docstring);
    call inside ``arb_precision``. Public wrapper of the interval evaluation used by the tail proofs."""
    return _h_all(m_single, m_pattern, patterns, k, Fraction(lo), Fraction(hi))


def rr_not_optimal_on_tail(k: int, m_of_set: Callable, *, dps: int = SCREEN_DPS,
                           s0s=(Fraction(1, 10**3), Fraction(1, 10**6), Fraction(1, 10**12))) -> dict | None:
    """A pattern T_j (2 <= |T_j| <= k) whose h_j is certainly < 0 on all of [0, s0] (one arb enclosure over the
    interval), for the first s0 of ``s0s`` that has one: then the reduced cost g_j of RR's non-degenerate basis is < 0
    at every e^eps >= 1/s0, so RR is optimal for no eps >= log(1/s0) and 'RR optimal above a finite threshold' fails.
    ``{"pattern", "s0", "h_j on [0, s0]"}``, or None when nothing is proved (errs towards "not decided")."""
    from itertools import combinations

    patterns = [frozenset(c) for r in range(2, k + 1) for c in combinations(range(k), r)]
    with arb_precision(dps):
        m_single = [m_of_set(frozenset({i})) for i in range(k)]
        m_pattern = {A: m_of_set(A) for A in patterns}
        for s0 in s0s:
            s0 = Fraction(s0)
            if not 0 < s0 < 1:
                continue
            for A, h in zip(patterns, _h_all(m_single, m_pattern, patterns, k, Fraction(0), s0), strict=True):
                if h < 0:
                    return {"pattern": sorted(A), "s0": str(s0), "h_j on [0, s0]": h.str(10)}
    return None


def certify_rr_tail(k: int, m_of_set: Callable, s_hi: Fraction, *, dps: int = SCREEN_DPS,
                    max_boxes: int = 20000) -> bool:
    """True iff h_j > 0 is proved on [0, s_hi] for every pattern with |T_j| >= 2 (see module docstring).

    ``m_of_set(A)`` returns the interval function m_A(lo, hi) for a frozenset A of inputs.
    """
    return rr_tail_boxes(k, m_of_set, s_hi, dps=dps, max_boxes=max_boxes) is not None


def rr_tail_boxes(k: int, m_of_set: Callable, s_hi: Fraction, *, dps: int = SCREEN_DPS,
                  max_boxes: int = 20000) -> dict | None:
    """The proof of :func:`certify_rr_tail`: ``{pattern (a sorted tuple): [(lo, hi), ...]}``, for each pattern the
    boxes of s (sorted, covering [0, s_hi] exactly) on each of which the arb enclosure of h_j was > 0; or None when
    the branch-and-bound proves nothing (errs towards "not certified"). The boxes are the certificate's
    (:func:`rldp_verify.certificates.interval.rr_tail_certificates`)."""
    from itertools import combinations

    s_hi = Fraction(s_hi)
    if not (0 < s_hi < 1):
        return None
    patterns = [frozenset(c) for r in range(2, k + 1) for c in combinations(range(k), r)]
    proved: dict = {tuple(sorted(A)): [] for A in patterns}
    with arb_precision(dps):
        m_single = [m_of_set(frozenset({i})) for i in range(k)]
        m_pattern = {A: m_of_set(A) for A in patterns}
        todo = [(Fraction(0), s_hi, list(range(len(patterns))))]
        boxes = 0
        while todo:
            lo, hi, idx = todo.pop()
            boxes += 1
            if boxes > max_boxes:
                return None
            hs = _h_all(m_single, m_pattern, [patterns[i] for i in idx], k, lo, hi)
            left = [i for i, h in zip(idx, hs, strict=True) if not h > 0]
            for i in set(idx) - set(left):
                proved[tuple(sorted(patterns[i]))].append((lo, hi))
            if not left:
                continue
            if hi - lo < Fraction(1, 10**30):
                return None
            mid = (lo + hi) / 2
            todo.append((lo, mid, left))
            todo.append((mid, hi, left))
    return {A: sorted(b) for A, b in proved.items()}


def kl_tail(P0, P1) -> Callable:
    """m_of_set for D_kl(M0||M1)."""
    def m_of_set(A):
        return m_kl(sum((P0[i] for i in A), Fraction(0)), sum((P1[i] for i in A), Fraction(0)))
    return m_of_set


def mi_tail(P) -> Callable:
    """m_of_set for I(X;Y)."""
    def m_of_set(A):
        return m_mi(sum((P[i] for i in A), Fraction(0)))
    return m_of_set


def recording_tail(k: int, m_of_set: Callable, *, dps: int = SCREEN_DPS) -> tuple[Callable, dict]:
    """``(tail_fn, record)``: ``tail_fn(t)`` is :func:`certify_rr_tail` at s_hi = 1/t (for
    :func:`rldp_verify.topics.extremal.thresholds.bracket_threshold`), and ``record`` keeps the last call's proof,
    ``{"s_hi": Fraction, "boxes": rr_tail_boxes(...)}`` (boxes None when nothing was proved)."""
    record: dict = {}

    def tail_fn(t) -> bool:
        record.update(s_hi=1 / Fraction(t), boxes=None)
        record["boxes"] = rr_tail_boxes(k, m_of_set, record["s_hi"], dps=dps)
        return record["boxes"] is not None
    return tail_fn, record


def improving_pattern_below(br, status_fn: Callable) -> dict | None:
    """The lower end t_lo of an "rr" bracket (:func:`rldp_verify.topics.extremal.thresholds.bracket_threshold`), where
    RR was certified not optimal: ``{"s": 1/t_lo, "pattern": (i, ...)}`` with ``status_fn(t_lo)``'s improving pattern
    (a reduced cost of RR's basis < 0 there), or None (no lower end, or not certified suboptimal on re-evaluation)."""
    if br.t_lo is None:
        return None
    st = status_fn(br.t_lo)
    if st.status != "suboptimal" or "improving_pattern" not in st.detail:
        return None
    return {"s": 1 / Fraction(br.t_lo), "pattern": tuple(st.detail["improving_pattern"])}
