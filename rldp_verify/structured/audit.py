"""eps-LDP audit of a structured channel, with float-rounding excesses explained.

``audit_structured(model, eps, tolerance=None)`` takes an :class:`Adapted` (a structure of
:mod:`rldp_verify.structured.channels`, the name of the library object, the sampler model and the float
parameters the code computed) and returns a :class:`StructuredAudit`, an
:class:`~rldp_verify.rldp.audit.AuditResult` with more fields: the exact worst ratio rho of the structure
(``ratio_lower == ratio_upper`` for rational channels; an outward-rounded enclosure of e^{2/b} for the
ideal Laplace histogram), the verdict against e^eps as in :func:`rldp_verify.rldp.audit.audit`, and

- ``excess``: log rho - eps rounded up (decimal string) when the verdict is FAIL;
- ``rounding_budget``: how much float64 rounding can move log rho: the sum over the float parameters theta of
  max |log rho(theta +- delta) - log rho(theta)| with delta = 4 ulp(theta) + 2^-53 (four rounding errors in
  computing theta from eps, and the 2^-53 grid of the sampler), rounded up. An excess within the budget is
  reported as "from float64 rounding of <params>"; beyond it, as a real excess of the channel;
- ``tolerance``: an excess <= tolerance turns FAIL into PASS, with a note saying so (explicit acceptance).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import SCREEN_DPS
from rldp_verify.core.rigorous import arb_exact, arb_precision, lower, upper
from rldp_verify.rldp.audit import FAIL, INCONCLUSIVE, PASS, AuditResult, parse_eps
from rldp_verify.structured.channels import INF, LaplaceHistogram

__all__ = ["Adapted", "StructuredAudit", "audit_structured", "DIGITS"]

DIGITS = 20
ULPS = 4


@dataclass
class Adapted:
    """What an adapter knows: the structure, the object's name, the sampler model, the float parameters the
    library computed and ``rebuild(params) -> structure`` (for the rounding budget; None: no budget)."""

    structure: Any                # a structure of rldp_verify.structured.channels
    name: str
    sampler: str
    float_params: dict = field(default_factory=dict)
    rebuild: Callable[[dict], Any] | None = None
    notes: list = field(default_factory=list)
    ideal: Any = None             # the same channel with exact Bernoulli(p) draws (to attribute an excess)


@dataclass
class StructuredAudit(AuditResult):
    """:class:`AuditResult` of a structured channel, with the excess over eps, its rounding budget, the
    structure and the sampler model."""

    excess: Fraction | None = None            # upper bound on log rho - eps (FAIL only), or None
    rounding_budget: Fraction | None = None
    tolerance: Fraction | None = None
    structure: str = ""
    sampler: str = ""
    adapter: str = ""
    structured_witness: dict | None = None    # x, x_prime, y (descriptions: outputs are not enumerated)
    distribution: Any = None                  # the exact table P of an (eps, P) audit (for its certificate)
    ball: Any = None                          # the RenyiBall of an (eps, F) audit (for its certificate)
    simplex: tuple | None = None              # (|S|, |U|) of an audit on the whole simplex P_X (its certificate)

    def to_json(self) -> dict:
        """:meth:`AuditResult.to_json` plus excess, rounding_budget, tolerance (decimal strings), structure,
        sampler_model and structured_witness."""
        out = super().to_json()
        out.update({"adapter": self.adapter, "structure": self.structure, "sampler_model": self.sampler,
                    "structured_witness": self.structured_witness,
                    "excess": _dec_up(self.excess), "rounding_budget": _dec_up(self.rounding_budget),
                    "tolerance": None if self.tolerance is None else _dec_up(self.tolerance)})
        return out


def _dec_up(x) -> str | None:
    """x >= 0 as a plain decimal string with 3 significant digits, rounded up (None stays None, inf: 'inf')."""
    if x is None:
        return None
    if x == INF:
        return "inf"
    x = Fraction(x)
    if x <= 0:
        return "0"
    e = len(str(x.numerator)) - len(str(x.denominator))        # 10^(e-1) <= x < 10^(e+1)
    while Fraction(10) ** e > x:
        e -= 1
    while Fraction(10) ** (e + 1) <= x:
        e += 1
    k = e - 2                                                   # units of 10^k, 3 significant digits
    m = math.ceil(x / Fraction(10) ** k)
    if k >= 0:
        return str(m * 10**k)
    s = str(m).rjust(-k + 1, "0")
    return (s[:k] + "." + s[k:]).rstrip("0").rstrip(".")


def _fmt_sci(x) -> str:
    return "inf" if x == INF else f"{float(x):.2g}"


def _log_bounds(rho, dps=SCREEN_DPS):
    """[log rho] as rationals (lower, upper); inf -> (inf, inf)."""
    if rho == INF:
        return INF, INF
    with arb_precision(dps):
        v = arb_exact(Fraction(rho)).log()
        return lower(v), upper(v)


def _ratio_bounds(structure, dps=SCREEN_DPS):
    enclosure = getattr(structure, "ratio_bounds", None)      # irrational channels (noisy max): certified ends
    if enclosure is not None:
        return enclosure(dps)[:2]
    if isinstance(structure, LaplaceHistogram):
        with arb_precision(dps):
            v = arb_exact(structure.eps()).exp()
            return lower(v), upper(v)
    r = structure.ratio()
    return r, r


def _budget(model: Adapted, rho, ratio_of=None):
    """Sum over float parameters of the largest |log rho change| under a perturbation of 4 ulps + 2^-53
    (``ratio_of(structure)``: the upper end of its ratio; default the eps-LDP ratio)."""
    ratio_of = ratio_of or (lambda st: _ratio_bounds(st)[1])
    if model.rebuild is None or not model.float_params or rho == INF:
        return None
    total = Fraction(0)
    base_lo, base_hi = _log_bounds(rho)
    for name, val in model.float_params.items():
        v = float(val)
        delta = Fraction(ULPS) * Fraction(math.ulp(v)) + Fraction(1, 2**53)
        worst = Fraction(0)
        for sgn in (-1, 1):
            t = Fraction(v) + sgn * delta
            try:
                st = model.rebuild({**model.float_params, name: t})
                r2 = ratio_of(st)
            except (InputError, ValueError, ZeroDivisionError):
                continue
            if r2 == INF:
                return INF
            lo2, hi2 = _log_bounds(r2)
            worst = max(worst, hi2 - base_lo, base_hi - lo2)
        total += worst
    return total


def audit_structured(model: Adapted, eps, *, tolerance=None, distribution=None, sizes=None,
                     ball=None, simplex: bool = False) -> StructuredAudit:
    """The eps-LDP audit of ``model.structure`` against ``eps`` (see the module docstring); with
    ``distribution`` (an |S| x |U| table P, exact), the (eps, P)-RLDP audit of eq. (62) on X = S x U
    (:func:`rldp_verify.structured.rldp.p_audit`; ``sizes`` defaults to the table's shape and must agree); with
    ``ball`` (a :class:`~rldp_verify.rldp.uncertainty.RenyiBall`), (eps, F)-RLDP where the structure allows it
    exactly or with a certified interval (:func:`_audit_ball`: unary encodings, GRR / L-GRR, subset selection,
    local hashing, the Laplace histogram); with ``simplex``, (eps, P_X)-RLDP on ``sizes`` (the Laplace histogram:
    :mod:`rldp_verify.structured.laplace_rldp`), else an InputError naming the structure."""
    t0 = time.perf_counter()
    target = parse_eps(eps)
    tol = _tolerance(tolerance)
    st = model.structure
    if distribution is not None:
        return _audit_p(model, target, tol, tolerance, distribution, sizes, t0)
    if ball is not None:
        return _audit_ball(model, target, ball, sizes, t0)
    if simplex:
        return _audit_simplex(model, target, tol, tolerance, sizes, t0)
    lo, hi = _ratio_bounds(st)
    dps = SCREEN_DPS   # the precision of _ratio_bounds above
    verdict = _verdict(st, target, lo, hi, dps)
    how = "exact eps-LDP ratio" if lo == hi else "eps-LDP ratio enclosed in a certified interval"
    notes = [f"structure: {st.kind}; {how} without enumerating outputs",
             f"sampler model: {model.sampler}"] + list(model.notes)
    excess = budget = None
    if verdict == FAIL:
        verdict, excess, budget, msg = _explain_fail(model, target, hi, dps, tol, tolerance)
        notes.insert(0, msg)
    witness = {k: (v if isinstance(v, (int, str)) else str(v)) for k, v in st.witness().items()
               if k != "y_bits"}                     # the description in y says the same in one line
    notes.append(f"witness: inputs x = {witness['x']}, x' = {witness['x_prime']}, output y = {witness['y']}")
    # argmax is None: the audit schema's argmax indexes rows of a dense matrix, which a structure does not have
    res = StructuredAudit(verdict, lo, hi, None, None, dps, time.perf_counter() - t0,
                          "eps-LDP (Definition 2)", target.text, notes,
                          excess=excess, rounding_budget=budget, tolerance=tol, structure=st.kind,
                          sampler=model.sampler, adapter=model.name, structured_witness=witness)
    return res


def _tolerance(tolerance) -> Fraction | None:
    """``--tolerance`` as an exact non-negative rational (None: none given)."""
    if tolerance is None:
        return None
    try:
        tol = Fraction(str(tolerance))
    except (ValueError, TypeError):
        raise InputError(f"tolerance = {tolerance!r} is not a number") from None
    if tol < 0:
        raise InputError(f"tolerance = {tolerance!r} must be >= 0")
    return tol


def _verdict(st, target, lo, hi, dps: int):
    """PASS when the ratio's upper end is certainly <= e^eps, FAIL when its lower end is certainly above; the
    ideal Laplace histogram is decided exactly (eps = 2/b) when eps is rational."""
    if isinstance(st, LaplaceHistogram) and target.eps_exact is not None:
        return PASS if st.eps() <= target.eps_exact else FAIL      # eps = 2/b against eps, exactly
    if target.le(hi, dps):
        return PASS
    if target.lt_strict(lo, dps):
        return FAIL
    return INCONCLUSIVE  # an enclosure of e^(2/b) against an exact e^eps = r that it straddles


def _excess(st, target, hi, dps: int):
    """An upper bound on log rho - eps (exact for the Laplace histogram; inf when rho is)."""
    if hi == INF:
        return INF
    if isinstance(st, LaplaceHistogram) and target.eps_exact is not None:
        return st.eps() - target.eps_exact
    with arb_precision(dps):
        e = arb_exact(Fraction(hi)).log() - _eps_arb(target)
        return max(Fraction(0), upper(e))


def _explain_fail(model: Adapted, target, hi, dps: int, tol, tolerance, ratio_of=None):
    """(verdict, excess, rounding budget, the note opening the notes) of a FAIL with upper end ``hi``: the excess
    over the claimed eps and where it comes from, turned into PASS when ``--tolerance`` accepts it explicitly
    (``ratio_of``: the structure's ratio under perturbed parameters, default its eps-LDP ratio)."""
    excess = _excess(model.structure, target, hi, dps)
    budget = _budget(model, hi, ratio_of)
    why = _why_fail(model, target, excess, budget, dps, ratio_of)
    if tol is not None and excess != INF and excess <= tol:
        return PASS, excess, budget, (f"PASS within --tolerance {tolerance}: the certified eps exceeds the claimed "
                                      f"eps by {_fmt_sci(excess)} ({why}); accepted explicitly")
    return FAIL, excess, budget, f"FAIL: exceeds the claimed eps by {_fmt_sci(excess)}, {why}"


def _why_fail(model: Adapted, target, excess, budget, dps: int, ratio_of=None) -> str:
    """Where a FAIL comes from: the float sampler's 2^-53 grid (the ideal channel passes), float64 rounding of
    the parameters (the excess within the rounding budget), or the channel itself."""
    names = ", ".join(model.float_params) or "the parameters"
    ratio_of = ratio_of or (lambda st: _ratio_bounds(st)[1])
    ideal_ok = model.ideal is not None and target.le(ratio_of(model.ideal), dps)
    within = excess != INF and budget is not None and budget != INF and excess <= budget
    if within and ideal_ok:
        return (f"from the float sampler: its events have probabilities on the 2^-53 grid, and the exact "
                f"Bernoulli channel of the same float64 {names} is within eps (rounding can move eps by up to "
                f"{_fmt_sci(budget)})")
    if within:
        return (f"from float64 rounding of {names} (rounding can move eps by up to {_fmt_sci(budget)}: "
                f"{ULPS} ulps per parameter and the 2^-53 sampler grid)")
    return ("not float64 rounding: the channel the code samples from is not eps-private"
            + (f" (rounding accounts for at most {_fmt_sci(budget)})" if budget not in (None, INF) else ""))


def _eps_arb(target):
    if target.exp_exact is not None:
        return arb_exact(target.exp_exact).log()
    return arb_exact(target.eps_exact)


P_UNCERTAINTY = "F = {P} (single distribution, eq. (62))"


def _p_table(distribution, sizes):
    """The exact table P and (|S|, |U|) (the table's shape; ``sizes``, when given, must agree)."""
    from rldp_verify.rldp.uncertainty import read_table

    P = read_table(distribution, name="distribution", normalize_counts=False)
    shape = (len(P), len(P[0]))
    if sizes is not None and tuple(int(v) for v in sizes) != shape:
        raise InputError(f"sizes = {tuple(sizes)} but the distribution is {shape[0]} x {shape[1]}")
    return P, shape


def _audit_p(model: Adapted, target, tol, tolerance, distribution, sizes, t0) -> StructuredAudit:
    """(eps, P)-RLDP of ``model.structure`` for the one exact P (eq. (62)), verdict and excess as for eps-LDP."""
    from rldp_verify.structured.laplace_rldp import audit_laplace_rldp, is_laplace_histogram
    from rldp_verify.structured.rldp import p_interval

    P, shape = _p_table(distribution, sizes)
    st = model.structure
    if is_laplace_histogram(st):
        return audit_laplace_rldp(model, target, shape, t0, P=P, tol=tol, tolerance=tolerance)
    lo, hi, wit = p_interval(st, P, shape)
    dps = SCREEN_DPS
    verdict = PASS if target.le(hi, dps) else (FAIL if target.lt_strict(lo, dps) else INCONCLUSIVE)
    exact = "exact" if lo == hi else "certified interval of the"
    notes = [f"structure: {st.kind}; {exact} (eps, P)-RLDP ratio on S x U = {shape[0]} x {shape[1]} without "
             f"enumerating outputs", f"sampler model: {model.sampler}"] + list(model.notes)
    if lo != hi:
        notes.append(f"lower end: the best of the {len(list(st.seeds))} searched seeds (each has positive "
                     "probability); upper end: max(a/b, b/a), reached only by a seed hashing every cell of s into "
                     "one bucket and none of s' (the ratio depends on the library's hash at every seed)")
    excess = budget = None
    if verdict == FAIL:
        def ratio_of(s):
            return p_interval(s, P, shape)[1]
        verdict, excess, budget, msg = _explain_fail(model, target, hi, dps, tol, tolerance, ratio_of)
        notes.insert(0, msg)
    if wit is None:
        notes.append("fewer than two secrets have positive mass under P: the ratio is 1")
    else:
        notes.append(f"witness: secrets s = {wit['s']}, s' = {wit['s_prime']}, output y = {wit['y']}")
    return StructuredAudit(verdict, lo, hi, None, P, dps, time.perf_counter() - t0, P_UNCERTAINTY, target.text,
                           notes, excess=excess, rounding_budget=budget, tolerance=tol, structure=st.kind,
                           sampler=model.sampler, adapter=model.name, structured_witness=wit, distribution=P)


def _audit_ball(model: Adapted, target, ball, sizes, t0) -> StructuredAudit:
    """(eps, F)-RLDP for a Rényi ball F around P^: unary encodings (:func:`_audit_ball_unary`), GRR / L-GRR and
    subset selection (:mod:`rldp_verify.structured.ball`), local hashing (``structured.ball_hashing``): a
    certified interval with a witness P in F; other structures: InputError naming the structure."""
    from rldp_verify.structured.ball import SUPPORTED_BALL

    a1, a2 = ball.sensitive_size, ball.public_size
    if sizes is not None and tuple(int(v) for v in sizes) != (a1, a2):
        raise InputError(f"sizes = {tuple(sizes)} but P^ is {a1} x {a2}")
    from rldp_verify.structured.channels import PublicMixture
    from rldp_verify.structured.laplace_rldp import audit_laplace_rldp, is_laplace_histogram

    if isinstance(model.structure, (*SUPPORTED_BALL, PublicMixture)):
        return _audit_ball_sets(model, target, ball, t0)
    if is_laplace_histogram(model.structure):
        return audit_laplace_rldp(model, target, (a1, a2), t0, ball=ball)
    return _audit_ball_unary(model, target, ball, sizes, t0)


def _audit_simplex(model: Adapted, target, tol, tolerance, sizes, t0) -> StructuredAudit:
    """(eps, P_X)-RLDP on ``sizes`` = (|S|, |U|) (default d x 1): the Laplace histogram only (its ratio is e^(2/b)
    for every P with two secrets of positive mass); other structures: InputError naming the structure."""
    from rldp_verify.structured.laplace_rldp import audit_laplace_rldp, is_laplace_histogram

    st = model.structure
    if not is_laplace_histogram(st):
        raise InputError(f"{model.name} ({st.kind}): (eps, P_X)-RLDP on the whole simplex is audited without "
                         "enumerating outputs for the Laplace histogram only; use the dense channel (--sizes S,U)")
    shape = (st.d, 1) if sizes is None else tuple(int(v) for v in sizes)
    return audit_laplace_rldp(model, target, shape, t0, tol=tol, tolerance=tolerance)


def _audit_ball_sets(model: Adapted, target, ball, t0) -> StructuredAudit:
    """GRR (and L-GRR) or subset selection over a Rényi ball: the interval of
    :func:`rldp_verify.structured.ball.ball_interval` (upper end certified, lower end the exact ratio of a
    witness P certified in F), the verdict as for the dense audit."""
    from rldp_verify.rldp.audit.core import _describe
    from rldp_verify.structured.ball import ball_interval
    from rldp_verify.structured.ball_hashing import hashing_ball_interval
    from rldp_verify.structured.channels import PublicMixture

    st = model.structure
    res = (hashing_ball_interval if isinstance(st, PublicMixture) else ball_interval)(st, ball, dps=SCREEN_DPS)
    dps = SCREEN_DPS
    lo, hi = res.lower, res.upper
    verdict = PASS if target.le(hi, dps) else (FAIL if target.lt_strict(lo, dps) else INCONCLUSIVE)
    exact = "exact" if lo == hi else "certified interval of the"
    how = ("the joint projection of the two rows that move the ratio, decoupled for the upper end"
           if isinstance(st, PublicMixture) else "Theorem 1's conditional projection of the one row that moves the "
           "ratio")
    notes = [f"structure: {st.kind}; {exact} (eps, F)-RLDP ratio for the Rényi ball without enumerating outputs "
             f"({how})",
             f"sampler model: {model.sampler}"] + list(model.notes) + res.notes
    if res.pair is not None:
        notes.append(f"witness: P in F (certified in arb), secrets s = {res.pair['s']}, s' = {res.pair['s_prime']}, "
                     f"output y = {res.pair['y']}")
    a1 = ball.sensitive_size
    uncertainty = ("any F (|S| = 1)" if a1 < 2 else _describe(ball) + (": F = {P^}" if ball.radius == 0 else ""))
    return StructuredAudit(verdict, lo, hi, None, res.witness, dps, time.perf_counter() - t0, uncertainty,
                           target.text, notes, structure=st.kind, sampler=model.sampler, adapter=model.name,
                           structured_witness=res.pair, ball=ball)


def _audit_ball_unary(model: Adapted, target, ball, sizes, t0) -> StructuredAudit:
    """(eps, F)-RLDP for a Rényi ball F around P^ of a unary encoding: for every P and every pair s != s' the
    ratio is h_max / h_min (the bits of s at argmax h, of s' at argmin h, whatever P(u|s), P(u|s')), so it is the
    upper end for any F; it is attained when P^ (in F) gives two secrets positive mass, and the ratio is 1 when
    |S| = 1. A P^ with one secret of positive mass leaves the lower end open, as the dense audit does. Other
    structures: InputError (their ratio depends on sup over F of conditionals, not computed without outputs)."""
    from rldp_verify.structured.channels import UnaryProduct

    st = model.structure
    if not isinstance(st, UnaryProduct):
        raise InputError(f"{model.name} ({st.kind}): (eps, F)-RLDP for a Rényi ball is not audited without "
                         "enumerating outputs for this structure (its ratio needs the supremum over F of the "
                         "conditionals P(u|s)); use the dense channel at small sizes (--sizes S,U)")
    a1, a2 = ball.sensitive_size, ball.public_size
    if st.d != a1 * a2:
        raise InputError(f"unary encoding on {st.d} values is not a channel on the {a1} x {a2} = {a1 * a2} "
                         "inputs of P^ (|S| x |U|)")
    bit = st.bit
    if bit.prob(0, 0) == 0 or bit.prob(1, 0) == 0:
        raise InputError("(eps, F)-RLDP of a unary encoding needs 0 < q < 1 here (a cold bit that is never, or "
                         "always, 1)")
    h = [bit.prob(v, 1) / bit.prob(v, 0) for v in (0, 1)]
    top = max(h) / min(h)
    positive = sum(1 for r in ball.phat if sum(r) > 0)
    hi = top if a1 >= 2 else Fraction(1)
    lo = hi if (a1 < 2 or positive >= 2) else None
    dps = SCREEN_DPS
    verdict = PASS if target.le(hi, dps) else (FAIL if lo is not None and target.lt_strict(lo, dps) else INCONCLUSIVE)
    notes = [f"structure: {st.kind}; (eps, F)-RLDP for the Rényi ball without enumerating outputs: every P and "
             "pair s != s' have the ratio h_max/h_min", f"sampler model: {model.sampler}"] + list(model.notes)
    if a1 < 2:
        notes.append("|S| = 1: Definition 1 has no pair s != s'; the ratio is taken as 1")
    elif lo is None:
        notes.append("P^ gives one secret positive mass: the lower end is left open (as in the dense audit)")
    wit = None if lo is None or a1 < 2 else {"s": 0, "s_prime": 1, "y": "the bits of s at argmax h, of s' at "
                                                                   "argmin h (any P in F with P_s, P_s' > 0)"}
    from rldp_verify.rldp.audit.core import _describe

    uncertainty = _describe(ball) if a1 >= 2 else "any F (|S| = 1)"       # as the dense audit says
    return StructuredAudit(verdict, lo, hi, None, None, dps, time.perf_counter() - t0, uncertainty, target.text,
                           notes, structure=st.kind, sampler=model.sampler, adapter=model.name,
                           structured_witness=wit, ball=ball)
