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
divergence 0), the uniform P on the simplex P_X.  A P^ with one secret of positive mass leaves the lower end open
(as the dense and unary audits do).

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
from rldp_verify.rldp.audit import FAIL, INCONCLUSIVE, PASS
from rldp_verify.structured.channels import LaplaceHistogram

__all__ = ["is_laplace_histogram", "audit_laplace_rldp"]

SIMPLEX = "F = P_X (Proposition 3)"


def is_laplace_histogram(st) -> bool:
    """The ideal Laplace histogram itself (not a subclass: those are other mechanisms)."""
    return type(st) is LaplaceHistogram


def _positive(rows) -> list[int]:
    return [s for s, r in enumerate(rows) if sum(Fraction(v) for v in r) > 0]


def _set_of(P, ball, a1: int, a2: int):
    """(the witness candidate in F: P, P^ or the uniform P; the uncertainty set's description)."""
    from rldp_verify.rldp.audit.core import _describe
    from rldp_verify.structured.audit import P_UNCERTAINTY

    if P is not None:
        return P, P_UNCERTAINTY
    if ball is not None:
        return ball.phat, ("any F (|S| = 1)" if a1 < 2 else _describe(ball) + (": F = {P^}" if ball.radius == 0
                                                                               else ""))
    return [[Fraction(1, a1 * a2)] * a2 for _ in range(a1)], SIMPLEX if a1 >= 2 else "any F (|S| = 1)"


def audit_laplace_rldp(model, target, shape, t0: float, *, P=None, ball=None, tol=None, tolerance=None):
    """The audit of the Laplace histogram ``model.structure`` on X = S x U (``shape`` = (|S|, |U|)) under {P}
    (``P``), a Rényi ball (``ball``) or the simplex (neither): upper end e^(2/b) (1 with fewer than two secrets that
    some P in F gives positive mass), lower end the same at a witness P in F with two secrets of positive mass (module
    docstring); the verdict exact when eps is rational (2/b against eps).  A :class:`StructuredAudit`."""
    from rldp_verify.structured.audit import StructuredAudit, _explain_fail, _ratio_bounds, _verdict

    st = model.structure
    a1, a2 = (int(v) for v in shape)
    if not is_laplace_histogram(st):
        raise InputError(f"{model.name} ({st.kind}): not the ideal Laplace histogram")
    if st.d != a1 * a2:
        raise InputError(f"the Laplace histogram on {st.d} values is not a channel on the {a1} x {a2} = {a1 * a2} "
                         "inputs of P (|S| x |U|)")
    wit_P, uncertainty = _set_of(P, ball, a1, a2)
    pos = _positive(wit_P)
    upper_two = len(pos) >= 2 if P is not None else a1 >= 2      # some P in F gives two secrets positive mass
    dps = SCREEN_DPS
    if not upper_two:
        lo = hi = Fraction(1)
        verdict = PASS if target.le(hi, dps) else FAIL
    else:
        lo, hi = _ratio_bounds(st, dps)
        verdict = _verdict(st, target, lo, hi, dps)
        if len(pos) < 2:
            lo = None
            verdict = INCONCLUSIVE if verdict == FAIL else verdict
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
    if not upper_two:
        notes.append("|S| = 1: Definition 1 has no pair s != s'; the ratio is taken as 1" if a1 < 2 else
                     "fewer than two secrets have positive mass under P: the ratio is 1")
    elif lo is None:
        notes.append("P^ gives one secret positive mass: the lower end is left open (as in the dense audit)")
    else:
        wit = {"s": pos[0], "s_prime": pos[1], "y": f"y_i >= 1 on the cells of s = {pos[0]}, y_i <= 0 on those of "
                                                     f"s' = {pos[1]} (density ratio e^(2/b))"}
        notes.append(f"witness: P in F ({'P' if P is not None else 'P^' if ball is not None else 'uniform'}), "
                     f"secrets s = {pos[0]}, s' = {pos[1]}, output {wit['y']}")
    witness = None if lo is None or a1 < 2 else [list(r) for r in wit_P]
    res = StructuredAudit(verdict, lo, hi, None, witness, dps, time.perf_counter() - t0, uncertainty, target.text,
                          notes, excess=excess, rounding_budget=budget, tolerance=tol, structure=st.kind,
                          sampler=model.sampler, adapter=model.name, structured_witness=wit,
                          distribution=P, ball=ball, simplex=(a1, a2) if P is None and ball is None else None)
    return res
