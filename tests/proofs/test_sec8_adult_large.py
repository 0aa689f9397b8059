"""Sec. 8.1 large pairs (issue 14 item 3): PolyOpt and NR brackets by column generation with an iteration
cap, the verdict of rldp.sec8.adult-large-polyopt, on tiny instances (never the large pairs).

Paper: seeds/000_aca93ed29ea857ee.txt, Sec. 5 (LP (46)), Sec. 8.1 (Figure 2)."""

import math
from fractions import Fraction

import pytest

from proofs.rldp import sec8_adult as A
from proofs.rldp.sec8_figures import narrow
from rldp_verify.core.errors import InputError
from rldp_verify.core.information import entropy_float, mutual_information_float
from rldp_verify.rldp.mechanisms import polyopt_from_bounds
from rldp_verify.rldp.mechanisms.cg_cone import nr_cone
from rldp_verify.rldp.mechanisms.nonrobust import nonrobust
from rldp_verify.rldp.mechanisms.polyopt_cg import solve_lp46_cg
from rldp_verify.rldp.mechanisms.rounding import privacy_level

# a 2 x 3 table and rational L' with sum_u L_{u|s} < 1 (a hard instance: lambda > 1 at e^eps = 2)
TABLE = ((Fraction(3, 20), Fraction(1, 10), Fraction(1, 4)), (Fraction(1, 5), Fraction(1, 20), Fraction(1, 4)))
LOWER = [[Fraction(3, 10), Fraction(1, 5), Fraction(2, 5)], [Fraction(2, 5), Fraction(1, 10), Fraction(9, 20)]]
P = [v for r in TABLE for v in r]
H = entropy_float(P)


@pytest.mark.parametrize("mech", ["PolyOpt", "NR"])
def test_bracket_contains_exact_optimum_and_cap_is_respected(mech):
    # the exact optimum (vertex enumeration, certified LP (46)) divided by H(X) lies in the NMI bracket,
    # whether the run is cut after one iteration or runs to the 1e-4 target
    if mech == "PolyOpt":
        _, sol = polyopt_from_bounds(TABLE, LOWER, "log(2)")
        exact = (float(sol.lower) / H, float(sol.upper) / H)
    else:
        i = mutual_information_float(nonrobust(TABLE, "log(2)").matrix, P)
        exact = (i / H, i / H)
    one = A.cg_bracket(TABLE, "log(2)", mech, 1, lower=LOWER)
    full = A.cg_bracket(TABLE, "log(2)", mech, 200, lower=LOWER)
    assert one["iterations"] == 1 and one["cap"] == 1
    assert full["iterations"] < 200 and full["relative_width"] <= 2 * A.CG_REL_GAP
    for r in (one, full):
        lo, hi = r["nmi"]
        assert lo <= exact[1] + 1e-12 and exact[0] <= hi + 1e-12
        assert r["nmi"][0] == pytest.approx(r["I"][0] / H, rel=1e-15)   # same normaliser as nmi_float
        assert r["nmi_of_mechanism"] == pytest.approx(lo, rel=1e-9)     # lower end = the built mechanism's NMI
    assert full["nmi"][0] >= one["nmi"][0] - 1e-12 and full["nmi"][1] - full["nmi"][0] < one["nmi"][1] - one["nmi"][0]


def test_iteration_capped_run_is_repeatable():
    # no wall-time stop: the same call gives the same bracket, bit for bit
    a = A.cg_bracket(TABLE, "1", "PolyOpt", 2, lower=LOWER)
    b = A.cg_bracket(TABLE, "1", "PolyOpt", 2, lower=LOWER)
    assert a == b


def test_max_iterations_must_be_positive():
    cone = nr_cone([list(r) for r in TABLE], privacy_level("1").exp_eps)
    with pytest.raises(InputError, match="max_iterations"):
        solve_lp46_cg(cone, P, max_iterations=0, time_limit=math.inf)


def _runs(polyopt, nr=(0.5, 0.6), ir=0.2, srr=0.1, grr=0.01):
    return {"pair": {"1": {"nmi": {"IR": ir, "SRR": srr, "GRR": grr},
                           "bracket": {"PolyOpt": polyopt, "NR": nr}}}}


def test_judge_lower_end_upper_end_and_refutation():
    assert A.judge_large_polyopt(_runs((0.3, 0.4)))["holds"]                # lower end above IR
    j = A.judge_large_polyopt(_runs((0.15, 0.4)))                           # only the upper end above IR
    assert not j["holds"] and j["open"] and not j["fails"]
    assert A.judge_large_polyopt(_runs((0.1, 0.19)))["fails"]               # even the upper end below IR
    assert A.judge_large_polyopt(_runs((0.1, 0.3), srr=0.35))["fails"]      # SRR is the rival here
    # the wrong reading (compare the bracket's upper end) turns the open case into a false 'holds'
    assert A.judge_large_polyopt(_runs((0.15, 0.4)), against="upper")["holds"]
    # mechanisms swapped (IR's value as PolyOpt's bracket, PolyOpt's lower end as IR): no longer holds
    assert A.judge_large_polyopt(_runs((0.2, 0.2), ir=0.3))["fails"]


def test_judge_nr_gap_is_the_certified_range():
    g = A.judge_large_polyopt(_runs((0.3, 0.4), nr=(0.5, 0.6)))["nr_gap"]["pair"]["1"]
    assert float(g["NR - PolyOpt at least"]) == pytest.approx(0.1)          # 0.5 - 0.4
    assert float(g["at most"]) == pytest.approx(0.3)                        # 0.6 - 0.3
    assert float(g["NR / PolyOpt at most"]) == pytest.approx(2.0)           # 0.6 / 0.3


def test_narrow_is_relative_to_the_upper_end():
    assert narrow(0.9995, 1.0, 1e-3) and not narrow(0.998, 1.0, 1e-3)
    assert narrow(1e-6 * 0.9995, 1e-6, 1e-3) and not narrow(0.0, 1e-6, 1e-3)
