"""Sec. 2.2 (issue 12): the entropy facts stated after the definitions of H(X) and H(Z|X)."""

from __future__ import annotations

from fractions import Fraction

import mpmath

from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.numbers import working_precision

from ._common import PAPER


def _H(p):
    return -sum(x * mpmath.log(x) for x in p if x > 0)


def check_entropy(ctx, maximiser="uniform") -> Outcome:
    """H >= 0; H = 0 at a point mass; H maximal (= log |X|) at the uniform distribution; H(Z|X) = H(Z) for
    independent X, Z. ``maximiser="point-mass"`` is a wrong variant (H maximal at a point mass)."""
    rng = ctx.rng("pram.sec2-2.entropy")
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
                h = _H(p)
                if h < -tol or h > top + tol:
                    return Outcome.refuted(f"H = {mpmath.nstr(h, 10)} outside [0, {mpmath.nstr(top, 10)}]",
                                           counterexample={"p": [str(Fraction(x, sum(w))) for x in w]}, kind="false")
                q = [mpmath.mpf(rng.randint(1, 9)) for _ in range(3)]
                q = [x / sum(q) for x in q]
                joint = [a * b for a in p for b in q]
                h_zx = _H(joint) - h  # H(Z|X) = H(X, Z) - H(X), eq. (3)
                if abs(h_zx - _H(q)) > tol:
                    return Outcome.refuted("H(Z|X) != H(Z) for independent X, Z", counterexample={"p": [mpmath.nstr(x, 8) for x in p]}, kind="false")
    return Outcome.verified("H >= 0, H(point mass) = 0, H(uniform) = log|X| >= H(p) (|X| = 2..8, 280 random p), and "
                            "H(Z|X) = H(Z) for independent X, Z, at high precision")


@claim(id="pram.sec2-2.entropy-facts", paper=PAPER, source="Sec. 2.2, after the definitions of H(X) and H(Z|X)",
       statement="H(X) >= 0, with H(X) = 0 for a point mass and H(X) maximal, = log|X|, for the uniform distribution; "
                 "H(Z|X) = H(Z) when Z and X are independent.",
       method=(Method.HIGH_PRECISION, Method.PROPERTY))
def _entropy(ctx):
    return check_entropy(ctx)
