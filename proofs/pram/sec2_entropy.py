"""Sec. 2.2 (issue 12): the entropy facts stated after the definitions of H(X) and H(Z|X)."""

from __future__ import annotations

from fractions import Fraction

import mpmath

from rldp_verify.certificates.instances_other import all_nonneg, covers, entropy_expr, near_zero
from rldp_verify.certificates.rest import log_ties_evidence
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.numbers import working_precision

from ._common import PAPER


def _H(p):
    return -sum(x * mpmath.log(x) for x in p if x > 0)


def check_entropy(ctx, maximiser="uniform") -> Outcome:
    """H >= 0; H = 0 at a point mass; H maximal (= log |X|) at the uniform distribution; H(Z|X) = H(Z) for
    independent X, Z. ``maximiser="point-mass"`` is a wrong variant (H maximal at a point mass)."""
    rng = ctx.rng("pram.sec2-2.entropy")
    sampled: list[list[Fraction]] = []
    pairs: list[tuple[list[Fraction], list[Fraction]]] = []
    with working_precision(ctx.dps):
        tol = mpmath.mpf(10) ** (-(ctx.dps - 10))
        for n in range(2, 9):
            top = mpmath.log(n) if maximiser == "uniform" else mpmath.mpf(0)
            if abs(_H([mpmath.mpf(1) / n] * n) - mpmath.log(n)) > tol:
                return Outcome.refuted("H(uniform) != log|X|", counterexample={"n": n}, kind="false")
            for i in range(n):
                if _H([mpmath.mpf(int(j == i)) for j in range(n)]) != 0:
                    return Outcome.refuted("H(point mass) != 0", counterexample={"n": n, "i": i}, kind="false")
            for _ in range(40):
                w = [rng.randint(0, 20) for _ in range(n)]
                if not sum(w):
                    continue
                p = [mpmath.mpf(x) / sum(w) for x in w]
                sampled.append([Fraction(x, sum(w)) for x in w])
                h = _H(p)
                if h < -tol or h > top + tol:
                    return Outcome.refuted(f"H = {mpmath.nstr(h, 10)} outside [0, {mpmath.nstr(top, 10)}]",
                                           counterexample={"p": [str(Fraction(x, sum(w))) for x in w]}, kind="false")
                q = [mpmath.mpf(rng.randint(1, 9)) for _ in range(3)]
                pairs.append((sampled[-1], [Fraction(int(x), int(sum(q))) for x in q]))
                q = [x / sum(q) for x in q]
                joint = [a * b for a in p for b in q]
                h_zx = _H(joint) - h  # H(Z|X) = H(X, Z) - H(X), eq. (3)
                if abs(h_zx - _H(q)) > tol:
                    return Outcome.refuted("H(Z|X) != H(Z) for independent X, Z", counterexample={"p": [mpmath.nstr(x, 8) for x in p]}, kind="false")
    return Outcome.verified("H >= 0, H(point mass) = 0, H(uniform) = log|X| >= H(p) (|X| = 2..8, 280 random p), and "
                            "H(Z|X) = H(Z) for independent X, Z, at high precision",
                            **_certificates(sampled[:N_CERT], pairs[:N_CERT], len(sampled)))


N_CERT = 40


def _certificates(ps, pairs, total: int) -> dict:
    """At the first sampled p: H(p) >= 0 and log|X| - H(p) >= 0 where p is not uniform (> 0 where p is no point
    mass either); H(uniform) - log n and, at the first (p, q), H(p x q) - H(p) - H(q) (eq. (3): H(Z|X) - H(Z) for
    independent X, Z) within 1e-30 (equalities of logarithms, which arb cannot decide), for n = 2..8."""
    def build():
        ineq = [t for p in ps if len(set(p)) > 1
                for t in (entropy_expr(p), ["-", ["log", len(p)], entropy_expr(p)])]
        ties = [["-", entropy_expr([Fraction(1, n)] * n), ["log", n]] for n in range(2, 9)]
        ties += [["-", entropy_expr([a * b for a in p for b in q]), ["+", entropy_expr(p), entropy_expr(q)]]
                 for p, q in pairs]
        return [all_nonneg(f"H(p) >= 0 and log|X| - H(p) >= 0 at {len(ineq) // 2} sampled non-uniform p", ineq,
                           exact=False),
                near_zero(f"H(uniform) = log n (n = 2..8) and H(Z|X) = H(Z) for independent X, Z at {len(pairs)} "
                          "sampled (p, q), within 1e-30", ties)]

    return log_ties_evidence(covers(len(ps), total, "H(p) >= 0 and H(p) <= log|X| (non-uniform p; a uniform p is "
                                    "the equality case, certified within 1e-30 with H(uniform) = log n for n = "
                                    "2..8), and H(Z|X) = H(Z) for independent X, Z within 1e-30, not the "
                                    "equalities; not H(point mass) = 0 beyond these (0 log 0 = 0 by convention)"),
                             build)


@claim(id="pram.sec2-2.entropy-facts", paper=PAPER, source="Sec. 2.2, after the definitions of H(X) and H(Z|X)",
       statement="H(X) >= 0, with H(X) = 0 for a point mass and H(X) maximal, = log|X|, for the uniform distribution; "
                 "H(Z|X) = H(Z) when Z and X are independent.",
       method=(Method.HIGH_PRECISION, Method.PROPERTY))
def _entropy(ctx):
    return check_entropy(ctx)
