"""(eps, P)-, (eps, F)- and (eps, P_X)-RLDP of the ideal Laplace histogram (histogram encoding: multi-freq-ldpy's
``HE_Client``, pure-ldp's ``HEClient``), without enumerating outputs (issue 23).

The mechanism (Wang et al. 2017, HE): Y = e_x + Z on X = S x U indexed S-major (x = s |U| + u, d = |S||U|), Z_i
i.i.d. Laplace(0, b), density f(y|x) = f_0(y) L(y_x), f_0(y) = prod_i e^(-|y_i|/b) / 2b, L(t) = e^((|t| - |t - 1|)/b),
non-decreasing from e^(-1/b) (t <= 0) to e^(1/b) (t >= 1).  Definition 3's conditional law of a secret s of
positive mass has the density P(y|s) = f_0(y) sum_u P(u|s) L(y_(s,u)), so for s != s' (both of positive mass)

    P(y|s) / P(y|s') = sum_u P(u|s) L(y_(s,u)) / sum_u P(u|s') L(y_(s',u)) <= e^(1/b) / e^(-1/b) = e^(2/b)

(the numerator is an average of values <= e^(1/b), the denominator of values >= e^(-1/b)), with equality at every y
with y_i >= 1 on the |U| cells of s and y_i <= 0 on the |U| cells of s': the two secrets' cells are disjoint
coordinates and L is constant beyond [0, 1], so the supremum is attained on a set of positive measure (not only in a
limit), whatever the weights P(u|s), P(u|s').  Hence rho(P) = e^(2/b) = the eps-LDP ratio for every P giving two
secrets positive mass, and 1 otherwise (Definition 1 has no pair).  So for any F: the upper end e^(2/b) (|S| >= 2),
attained by any P in F with two secrets of positive mass: P itself under {P}, P^ on a Rényi ball (in F at
divergence 0) or, when P^ gives one secret positive mass and the radius B > 0, P^ with mass B / (1 + B) moved to
another secret (:func:`_moved`: in F for every order alpha), the uniform P on the simplex P_X.  Radius 0 is F = {P^}.

THE (thresholded HE) is the same client: its threshold is applied by the aggregator to the released reals
(post-processing, which cannot raise the ratio); a client releasing thresholded bits would be a unary encoding with
p = Pr[1 + Z > theta], q = Pr[Z > theta], not this structure.  Subclasses of
:class:`~rldp_verify.structured.channels.LaplaceHistogram` (lattice or vector noise, sketches) are other mechanisms
and are refused here.
"""

from __future__ import annotations

import time
from fractions import Fraction

from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import SCREEN_DPS
from rldp_verify.rldp.audit import FAIL, PASS
from rldp_verify.structured.channels import INF, LaplaceHistogram

__all__ = ["is_laplace_histogram", "audit_laplace_rldp"]

SIMPLEX = "F = P_X (Proposition 3)"


def is_laplace_histogram(st) -> bool:
    """The ideal Laplace histogram itself (not a subclass: those are other mechanisms)."""
    return type(st) is LaplaceHistogram


def _positive(rows) -> list[int]:
    return [s for s, r in enumerate(rows) if sum(Fraction(v) for v in r) > 0]


def _moved(phat, a1: int, a2: int, radius):
    """A P in the Rényi ball around ``phat`` (one secret s0 of positive mass, |S| >= 2, radius B > 0) giving a
    second secret positive mass: P_delta = (1 - delta) P^ + delta on the first cell of another secret.  On P^'s
    support P_delta = (1 - delta) P^, so sum_x P^_x^a P_delta,x^(1-a) = (1 - delta)^(1-a) and D_a(P^||P_delta) =
    -log(1 - delta) for every order a > 0 (KL too); delta = B / (1 + B) gives log(1 + B) < B (delta = 1/2 for B =
    inf): P_delta is in F, strictly."""
    s0 = _positive(phat)[0]
    delta = Fraction(1, 2) if radius == INF else Fraction(radius) / (1 + Fraction(radius))
    P = [[(1 - delta) * Fraction(v) for v in r] for r in phat]
    P[1 if s0 == 0 else 0][0] += delta
    return P


def _set_of(P, ball, a1: int, a2: int):
    """(the witness candidate in F: P, P^ (radius 0: F = {P^}), a P moved from P^ (:func:`_moved`) or the uniform P;
    the uncertainty set's description; whether some P in F gives two secrets positive mass)."""
    from rldp_verify.rldp.audit.core import _describe
    from rldp_verify.structured.audit import P_UNCERTAINTY

    if P is not None:
        return P, P_UNCERTAINTY, len(_positive(P)) >= 2
    if a1 < 2:
        return ball.phat if ball is not None else [[Fraction(1, a2)] * a2], "any F (|S| = 1)", False
    if ball is not None and ball.radius == 0:
        return ball.phat, _describe(ball) + ": F = {P^}", len(_positive(ball.phat)) >= 2
    if ball is not None:
        one = len(_positive(ball.phat)) < 2
        return (_moved(ball.phat, a1, a2, ball.radius) if one else ball.phat), _describe(ball), True
    return [[Fraction(1, a1 * a2)] * a2 for _ in range(a1)], SIMPLEX, True


def audit_laplace_rldp(model, target, shape, t0: float, *, P=None, ball=None, tol=None, tolerance=None):
    """The audit of the Laplace histogram ``model.structure`` on X = S x U (``shape`` = (|S|, |U|)) under {P}
    (``P``), a Rényi ball (``ball``) or the simplex (neither): e^(2/b) (an enclosure) when some P in F gives two
    secrets positive mass, attained by the witness of :func:`_set_of`, else 1 (module docstring); the verdict exact
    when eps is rational (2/b against eps).  A :class:`StructuredAudit`."""
    from rldp_verify.structured.audit import StructuredAudit, _explain_fail, _ratio_bounds, _verdict

    st = model.structure
    a1, a2 = (int(v) for v in shape)
    if not is_laplace_histogram(st):
        raise InputError(f"{model.name} ({st.kind}): not the ideal Laplace histogram")
    if st.d != a1 * a2:
        raise InputError(f"the Laplace histogram on {st.d} values is not a channel on the {a1} x {a2} = {a1 * a2} "
                         "inputs of P (|S| x |U|)")
    wit_P, uncertainty, two = _set_of(P, ball, a1, a2)
    dps = SCREEN_DPS
    lo, hi = _ratio_bounds(st, dps) if two else (Fraction(1), Fraction(1))
    verdict = _verdict(st, target, lo, hi, dps) if two else PASS if target.le(hi, dps) else FAIL
    notes = [f"structure: {st.kind}; (eps, F)-RLDP without enumerating outputs: every P giving two secrets positive "
             "mass has the density ratio e^(2/b) (the cells of s and s' are disjoint coordinates; attained where "
             "y_i >= 1 on the cells of s and y_i <= 0 on those of s')", f"sampler model: {model.sampler}",
             "THE's threshold is applied by the aggregator to the released reals (post-processing): the same "
             "client"] + list(model.notes)
    excess = budget = None
    if verdict == FAIL:
        verdict, excess, budget, msg = _explain_fail(model, target, hi, dps, tol, tolerance)
        notes.insert(0, msg)
    wit = None
    if not two:
        notes.append("|S| = 1: Definition 1 has no pair s != s'; the ratio is taken as 1" if a1 < 2 else
                     "fewer than two secrets have positive mass under P: the ratio is 1")
    else:
        pos = _positive(wit_P)
        wit = {"s": pos[0], "s_prime": pos[1], "y": f"y_i >= 1 on the cells of s = {pos[0]}, y_i <= 0 on those of "
                                                     f"s' = {pos[1]} (density ratio e^(2/b))"}
        which = "P" if P is not None else "uniform" if ball is None else "P^" if wit_P is ball.phat else \
            "P^ with mass (B / (1 + B)) moved to a second secret: D_alpha(P^||P) = log(1 + B) < B"
        notes.append(f"witness: P in F ({which}), secrets s = {pos[0]}, s' = {pos[1]}, output {wit['y']}")
    witness = [list(r) for r in wit_P] if two else None
    whole = P is None and (ball is None or ball.radius == INF)     # radius inf: the simplex (its certificate's set)
    return StructuredAudit(verdict, lo, hi, None, witness, dps, time.perf_counter() - t0, uncertainty, target.text,
                           notes, excess=excess, rounding_budget=budget, tolerance=tol, structure=st.kind,
                           sampler=model.sampler, adapter=model.name, structured_witness=wit,
                           distribution=P, ball=None if whole else ball, simplex=(a1, a2) if whole else None)
