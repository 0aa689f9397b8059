"""PolyOpt / NR by column generation (issue 14): closed-form block vertices, the pricing, the certified
bracket against exact enumeration, rows exactly in Gamma_eps, bad input, the CLI route and --keep-missing.

Paper: seeds/000_aca93ed29ea857ee.txt, Sec. 5 (Definition 3, Theorems 2-3, LP (46)), Sec. 8 (NR)."""

import itertools
import json
import math
import random
from fractions import Fraction

import numpy as np
import pytest

from rldp_verify.cli import main
from rldp_verify.core.errors import InputError
from rldp_verify.rldp.gamma import block_vertices
from rldp_verify.rldp.mechanisms import check_column_stochastic, check_gamma, exact_level, polyopt_from_bounds
from rldp_verify.rldp.mechanisms.cg_cone import nr_cone, polyopt_cone
from rldp_verify.rldp.mechanisms.cone_blocks import block_data, nr_blocks, polyopt_blocks
from rldp_verify.rldp.mechanisms.nonrobust import nonrobust
from rldp_verify.rldp.mechanisms.polyopt_cg import solve_lp46_cg
from rldp_verify.rldp.mechanisms.polyopt_large import nonrobust_cg, polyopt_cg_from_bounds
from rldp_verify.rldp.mechanisms.pricing import Pricer
from tests.rldp.mechanisms.instances import random_instance


def _instance(a1, a2, scale, seed):
    """The generator of benchmarks/bench_polyopt.py (same seeds: 1000 a1 + a2)."""
    return random_instance(a1, a2, seed, scale)


def test_block_vertices_closed_form_match_cdd():
    rng = random.Random(7)
    for _ in range(40):
        a2 = rng.randint(1, 5)
        e = Fraction(rng.randint(1001, 4000), 1000)
        tot = Fraction(rng.randint(0, 990), 1000)
        w = [rng.randint(0, 10) for _ in range(a2)]
        w[0] += 1
        L = [tot * x / sum(w) for x in w]
        c = 1 - sum(L)
        ref = set()
        for h in block_vertices(L, e):
            lh = sum(lv * x for lv, x in zip(L, h, strict=True))
            ref.add(tuple((x - lh) / c for x in h))
        b = polyopt_blocks([L], e)[0]
        got = [b.exact_point(j) for j in range(len(b))]
        assert len(set(got)) == len(got) and set(got) == ref
        for j in range(len(b)):     # floats are the correctly rounded exact values
            assert (b.a1[j], b.a2[j], b.a3[j]) == tuple(float(x) for x in b._exact(j))


def test_block_data_error_bounds_hold():
    import mpmath

    P, L = _instance(2, 4, 600, 7)
    for b in polyopt_blocks(L, Fraction(2)):
        bd = block_data(b, P)
        for j in range(len(b)):
            w = b.exact_point(j)
            p = [P[x] for x in b.coords]
            T = sum(x * q for x, q in zip(w, p, strict=True))
            A = sum(x * q * mpmath.log(x) for x, q in zip(w, p, strict=True) if x * q > 0)
            assert abs(bd.T[j] - float(T)) <= bd.T_err[j]
            assert abs(bd.A[j] - A) <= bd.A_err[j]


@pytest.mark.parametrize("enum_max", [0, None])
@pytest.mark.parametrize("shape", [(2, 3, 600), (3, 2, 600), (2, 4, 600)])
def test_pricing_equals_brute_force(shape, enum_max):
    """The search (enum_max = 0: bound and split only) and the default (these nodes are small enough to be
    enumerated) both find the maximum over all products of block vertices."""
    a1, a2, scale = shape
    P, L = _instance(a1, a2, scale, 1000 * a1 + a2)
    blocks = polyopt_blocks(L, Fraction(2))
    pr = Pricer([block_data(b, P) for b in blocks], a1 * a2, enum_max=enum_max)
    pf = np.array([float(x) for x in P])
    pts = [[np.array([float(x) for x in b.exact_point(j)]) for j in range(len(b))] for b in blocks]
    rng = np.random.default_rng(a1 + 10 * a2)
    for _ in range(5):
        y = pf * np.log(rng.random(a1 * a2) + 0.05) * 2 + rng.normal(size=a1 * a2) * 0.02
        pr.set_dual(y)
        best, _, ub, _ = pr.solve()
        ref = -np.inf
        for combo in itertools.product(*pts):
            w = np.concatenate(combo)
            t = w @ pf
            mu = sum(pf[i] * w[i] * np.log(w[i] / t) for i in range(len(w)) if w[i] * pf[i] > 0)
            ref = max(ref, mu - y @ w)
        assert best == pytest.approx(ref, abs=1e-10)
        assert ub >= ref - 1e-10


@pytest.mark.parametrize("shape", [(2, 2, 600), (3, 3, 600), (4, 3, 600), (2, 6, 400)])
def test_bracket_contains_enumeration_optimum(shape):
    a1, a2, scale = shape
    P, L = _instance(a1, a2, scale, 1000 * a1 + a2)
    table = [P[s * a2:(s + 1) * a2] for s in range(a1)]
    mech, res = polyopt_cg_from_bounds(table, L, "log(2)", rel_gap=1e-9, time_limit=math.inf, max_iterations=200)
    _, sol = polyopt_from_bounds(table, L, "log(2)")
    assert res.lower <= sol.upper and sol.lower <= res.upper       # one optimum in both brackets
    assert res.gap < Fraction(1, 10**5)
    assert check_gamma(mech, L, exact_level(2)).holds is True      # rows exactly in Gamma_eps
    assert check_column_stochastic(mech)
    # the float bracket history is plain numbers (numpy scalars leaked 'np.float64(...)' into the JSON)
    assert all(type(v) is float for _, lo, hi in res.history for v in (lo, hi))
    assert not any("np." in str(x) for row in mech.parameters["bracket_history"] for x in row)
    br = [Fraction(x) for x in mech.parameters["optimum_bracket"]]
    assert br == [res.lower, res.upper]


@pytest.mark.parametrize("options", [{"stabilisation": "boxstep"}, {"inout": True, "stabilisation": "wentges"},
                                     {"stabilisation": "wentges"},
                                     {"stabilisation": "bundle"}, {"stabilisation": "lagrangian"}])
def test_master_options_agree_with_enumeration(options):
    P, L = _instance(3, 3, 600, 3003)
    table = [P[s * 3:(s + 1) * 3] for s in range(3)]
    _, sol = polyopt_from_bounds(table, L, "log(2)")      # e^eps = 2, as the cone below
    res = solve_lp46_cg(polyopt_cone(L, 2), P, rel_gap=1e-9, time_limit=math.inf, max_iterations=200, **options)
    assert res.lower <= sol.upper and sol.lower <= res.upper
    assert res.gap < Fraction(1, 10**5)
    with pytest.raises(InputError, match="unknown stabilisation 'level'"):
        solve_lp46_cg(polyopt_cone(L, 2), P, stabilisation="level")
    with pytest.raises(InputError, match="^inout=True is an option of the Wentges master, not of 'lagrangian'$"):
        solve_lp46_cg(polyopt_cone(L, 2), P, inout=True)


def test_nr_bracket_contains_enumeration_optimum_with_zero_cells():
    table = [[Fraction(x, 47) for x in r] for r in ([3, 4, 0, 6], [7, 8, 9, 10], [0, 0, 0, 0])]
    mech, res = nonrobust_cg(table, 1, rel_gap=1e-9)
    ref = nonrobust(table, 1)
    opt = Fraction(ref.parameters["optimum_bracket"][0])
    assert res.lower <= Fraction(ref.parameters["optimum_bracket"][1]) and opt <= res.upper
    assert res.gap < Fraction(1, 10**6)
    assert check_column_stochastic(mech)
    # rows exactly in NR's cone: Definition 1 for P-hat over the active s
    cone = nr_cone(table, mech.parameters["exp_eps_used"])
    assert all(cone.member(r) for r in mech.matrix)


def test_upper_bound_is_a_valid_dual():
    """y' of the certificate dominates mu on every vertex of Gamma-hat (exact enumeration)."""
    from rldp_verify.core.information import mu_bounds

    P, L = _instance(3, 2, 600, 3002)
    res = solve_lp46_cg(polyopt_cone(L, 2), P, rel_gap=1e-9)
    from rldp_verify.rldp.mechanisms.polyopt import gamma_hat_vertices

    y = [Fraction(t) for t in res.dual]
    for v in gamma_hat_vertices(L, 2):
        assert mu_bounds(v, P)[1] <= sum(a * b for a, b in zip(v, y, strict=True))
    assert sum(y) == res.upper


def test_membership_screen_agrees_with_exact_arithmetic():
    """Cone.member decides from floats only with a clear margin: on points exactly on the boundary
    (products of block vertices: max h = e^eps min h) and nudged by 1e-30 either way, it agrees with
    the exact test of Definition 3 / Definition 1."""
    rng = random.Random(11)
    P, L = _instance(3, 3, 600, 3003)
    e = Fraction(2)
    cone = polyopt_cone(L, e)
    table = [P[s * 3:(s + 1) * 3] for s in range(3)]
    nr = nr_cone(table, e)

    def exact_polyopt(v):
        h = []
        for s in range(3):
            vs = v[s * 3:(s + 1) * 3]
            lv = sum(a * b for a, b in zip(L[s], vs, strict=True))
            h.extend((1 - sum(L[s])) * x + lv for x in vs)
        return min(v) >= 0 and max(h) <= e * min(h)

    def exact_nr(v):
        r = [sum(table[s][u] * v[s * 3 + u] for u in range(3)) / sum(table[s]) for s in range(3)]
        return min(v) >= 0 and max(r) <= e * min(r)

    seen = {True: 0, False: 0}
    for c, ref in ((cone, exact_polyopt), (nr, exact_nr)):
        for _ in range(150):
            v = [Fraction(0)] * 9
            for b in c.blocks:
                for x, val in zip(b.coords, b.exact_point(rng.randrange(len(b))), strict=True):
                    v[x] = val
            for nudge in (Fraction(0), Fraction(1, 10**30), -Fraction(1, 10**30)):
                w = list(v)
                w[rng.randrange(9)] += nudge
                got = c.member(w)
                assert got == ref(w)
                seen[got] += 1
    assert seen[True] > 50 and seen[False] > 50     # both outcomes exercised near the boundary


def test_infeasible_cone_is_bad_input():
    with pytest.raises(InputError, match=r"infeasible cone: sum_u L_\(u\|s\) = 1 >= 1 for s = 1"):
        polyopt_blocks([[Fraction(1, 4), Fraction(1, 4)], [Fraction(1, 2), Fraction(1, 2)]], 2)
    with pytest.raises(InputError, match="eps is negative"):
        polyopt_blocks([[Fraction(1, 4), Fraction(1, 4)]], Fraction(1, 2))
    with pytest.raises(InputError, match="no positive entry"):
        nr_blocks([[0, 0], [0, 0]], 2)


@pytest.mark.parametrize("master", [[], ["--stabilisation", "bundle"], ["--stabilisation", "wentges"]])
def test_cli_colgen_route_and_audit(tmp_path, capsys, master):
    """The proximal bundle master (the default before the Lagrangian one) once stalled here at relative width 1e-3: its trial point
    stopped yielding columns and the restricted LP was never priced again."""
    out = tmp_path / "m.json"
    args = ["--phat", "3,4,5,6;7,8,9,10;2,3,4,5", "--alpha", "2", "--confidence", "0.95", "--samples", "1000"]
    assert main(["mechanism", "polyopt", "--eps", "1", *args, "--route", "colgen", *master, "-o", str(out)]) == 0
    doc = json.loads(out.read_text())
    method = doc["parameters"]["method"]
    if not master:
        assert method.startswith("per-block LP with the coupling in t relaxed")
    else:
        assert method.startswith({"bundle": "column generation (proximal bundle", "wentges": "column generation (Wentges-smoothed)"}[
            master[1]])
    lo, hi = (Fraction(x) for x in doc["parameters"]["optimum_bracket"])
    assert lo <= hi and (hi - lo) / hi <= Fraction(1, 10**4)
    capsys.readouterr()
    assert main(["audit", str(out), "--eps", "1", *args]) == 0
    assert "PASS" in capsys.readouterr().out


@pytest.mark.parametrize("argv, msg", [
    (["--phat", "1,2;3,4", "--route", "colgen", "--time-limit", "-3"], "--time-limit must be a positive number"),
    (["--phat", "1,2;3,4", "--route", "colgen", "--gap", "x"], "--gap must be a positive number"),
    (["--phat", "1,2;3,4", "--keep-missing"], "only used with --data"),
])
def test_cli_bad_options(argv, msg, capsys):
    assert main(["mechanism", "nr", "--eps", "1", *argv]) == 2
    assert msg in capsys.readouterr().err


def test_api_infeasible_cone_and_cli_negative_eps(capsys):
    with pytest.raises(InputError, match="infeasible cone"):
        polyopt_cg_from_bounds([[1, 1], [1, 3]], [[Fraction(1, 2), Fraction(1, 2)], [0, 0]], 1)
    assert main(["mechanism", "polyopt", "--eps", "-1", "--phat", "1,2;3,4", "--alpha", "2", "--radius", "0.1",
                 "--route", "colgen"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("rldp-verify: error: eps") and "negative" in err and "\n" not in err


def test_keep_missing_counts_question_mark(tmp_path):
    from rldp_verify.rldp.data import read_counts

    f = tmp_path / "d.csv"
    f.write_text("a, x\nb, ?\n?, y\na, y\n")
    assert read_counts(f, 0, 1).counts == ((1, 1),) and read_counts(f, 0, 1).dropped == 2
    ct = read_counts(f, 0, 1, missing=())
    assert ct.sensitive == ("?", "a", "b") and ct.public == ("?", "x", "y") and ct.n == 4


def test_exact_rows_keep_the_lp_utility_with_tiny_weights():
    """NR on Adult relationship x education, eps = 0.5: the LP solution has columns with tiny weights;
    on a common 2^-64 grid their rows left Gamma_eps and the repair (mixing with the uniform row) cost
    0.5% of utility (certified width 5.0e-3 although the float bracket had closed).  Each row on its own
    grid keeps the certified bracket at the target."""
    from rldp_verify.rldp.data import adult_data_path, read_counts

    try:
        path = adult_data_path()
    except InputError:
        pytest.skip("Adult data not available")
    ct = read_counts(path, 7, 3)
    mech, res = nonrobust_cg([list(r) for r in ct.phat()], "0.5", rel_gap=1e-4, time_limit=math.inf, max_iterations=300)
    assert res.relative_width < 1e-4
    assert check_column_stochastic(mech)


@pytest.mark.parametrize("master", ["bundle", "lagrangian"])
def test_capped_run_does_not_depend_on_time(monkeypatch, master):
    """An iteration-capped run (time_limit = inf) is the same on a fast and a slow machine: the bundle master
    decides when to re-solve its restricted LP on a column count, never on elapsed seconds.  The two runs see
    clocks that advance by a microsecond per reading and by a random 0-100 s (a rule such as 'only in the
    first 300 s' fails here)."""
    import random
    import types

    from rldp_verify.rldp.mechanisms import polyopt_cg

    P, L = _instance(2, 8, 600, 2008)     # 12 iterations to width 1e-12: the schedule matters
    runs = []
    for step in (lambda: 1e-6, lambda rng=random.Random(7): rng.uniform(0, 100)):  # noqa: B008 (one seeded stream for the run)
        now = [0.0]

        def perf_counter(step=step, now=now):
            now[0] += step()
            return now[0]

        monkeypatch.setattr(polyopt_cg, "time", types.SimpleNamespace(perf_counter=perf_counter))
        runs.append(solve_lp46_cg(polyopt_cone(L, 2), P, rel_gap=1e-12, time_limit=math.inf, max_iterations=10,
                                  stabilisation=master))
    assert [(lo, hi) for _, lo, hi in runs[0].history] == [(lo, hi) for _, lo, hi in runs[1].history]
    assert (runs[0].lower, runs[0].upper) == (runs[1].lower, runs[1].upper)
    assert "bundle" in runs[0].method and (master == "bundle") != ("coupling in t relaxed" in runs[0].method)
    assert runs[0].iterations >= 2          # the bundle ran after the Lagrangian stage too
    from rldp_verify.rldp.mechanisms import lagrangian
    assert not hasattr(lagrangian, "time")  # the relaxation reads no clock (a rule there would escape the patch)


def test_cli_stabilisation_choices():
    """The CLI spells the masters itself (so that building the parser imports no solver); they must be
    exactly the masters that solve_lp46_cg accepts."""
    from rldp_verify.cli import build_parser
    from rldp_verify.rldp.mechanisms.polyopt_cg import STABILISATIONS

    sub = next(a for a in build_parser()._actions if a.dest == "command")
    mech = sub.choices["mechanism"]
    opt = next(a for a in mech._actions if a.dest == "stabilisation")
    assert tuple(opt.choices) == STABILISATIONS


@pytest.mark.parametrize("shape", [(4, 3, 600), (2, 6, 400), (3, 4, 300), (7, 1, 600)])
def test_lagrangian_stage_alone_nearly_closes_the_bracket(shape):
    """The relaxation of the coupling in t and the coupled columns, without a single bundle step
    (max_iterations=1): the certified bracket contains the enumeration's optimum and is already narrow.
    A wrong relaxation (its dual infeasible) or a poor coupling would leave it wide: the certificate
    corrects the bound, it cannot make it tight."""
    from rldp_verify.rldp.mechanisms.lagrangian import COUPLINGS, couple, solve_relaxation

    a1, a2, scale = shape
    P, L = _instance(a1, a2, scale, 7000 + 10 * a1 + a2)
    table = [P[s * a2:(s + 1) * a2] for s in range(a1)]
    _, sol = polyopt_from_bounds(table, L, "log(2)")
    cone = polyopt_cone(L, 2)
    res = solve_lp46_cg(cone, P, rel_gap=1e-9, time_limit=math.inf, max_iterations=1, stabilisation="lagrangian")
    assert res.iterations == 1 and res.lower <= sol.upper and sol.lower <= res.upper
    assert res.relative_width < 2e-3      # measured 2.2e-6, 2.8e-4, 1.3e-3; one bundle step: 4e-3, 0.48, 0.23
    # the relaxation alone: its upper end bounds the optimum, its relaxed primal lies below its upper end
    data = [block_data(b, P) for b in cone.blocks]
    rel = solve_relaxation(data, Pricer(data, cone.a), cone.lp_coords, cone.a)
    assert rel.value <= rel.upper + 1e-12 and float(sol.lower) <= rel.upper + 1e-9
    assert rel.upper - rel.value <= 1e-9 * rel.upper          # converged (at a kink of LP(kappa): by the mix)
    assert float(sol.upper) >= rel.value - 0.01 * rel.value      # the coupling gap is small here
    pts = couple(rel.marginals, data)
    support = sum(len(mg) for mg in rel.marginals)
    assert 1 <= len(couple(rel.marginals, data, orders=1)) <= support <= len(pts) <= COUPLINGS * support
    for s, mg in enumerate(rel.marginals):                        # every vertex with mass is used
        assert {j for j, _ in mg} == {dict(pt)[s] for pt in pts}


def test_set_up_checks_the_time_limit_within_a_block():
    """Issue 29: the column-generation set-up checked --time-limit once per row (a 2^20-vertex block is about
    a second of work), so a 20 x 20 P-hat overran the limit by seconds; now the deadline is checked inside a
    block's per-vertex work. A limit that passes during the first block stops there, naming the step."""
    import traceback

    from rldp_verify.core import progress

    row = [Fraction(1, 40)] * 18                      # one block of 2^18 subsets: far more work than the limit
    with progress.deadline(0.05, "--time-limit 0.05 s"), pytest.raises(progress.TimeLimitReached) as info:
        polyopt_blocks([row, row], Fraction(27, 10))
    assert str(info.value) == ("--time-limit 0.05 s reached during PolyOpt's cone: the vertices of each block "
                               "(2^18 subsets of U per value of S) (0 of 2 blocks): this set-up alone needs more "
                               "time; raise the time limit")
    frames = [f.name for f in traceback.extract_tb(info.value.__traceback__)]
    assert "_polyopt_block" in frames, frames     # raised inside the first block, not between blocks


def test_set_up_checks_the_deadline_at_a_fine_grain():
    """The block's per-vertex loops and the starting columns call progress.update often (what the deadline
    check rides on): at least once per 2^14 vertices of a block, and once per Dinkelbach step and column."""
    from rldp_verify.core import progress
    from rldp_verify.rldp.mechanisms.cone_blocks import _TICK

    calls = []

    class Count:
        def step(self, name, total, unit):
            calls.append(("step", name))

        def update(self, done, info):
            calls.append(("update", done))

    row = [Fraction(1, 40)] * 16
    with progress.reporting(Count()):
        polyopt_blocks([row], Fraction(27, 10))
    assert sum(1 for c in calls if c[0] == "update") >= 16 + 3 * (1 << 16) // _TICK
    calls.clear()
    P = [Fraction(1, 8)] * 8
    L = [[Fraction(1, 40)] * 4] * 2
    with progress.reporting(Count()):
        solve_lp46_cg(polyopt_cone(L, 2), P, rel_gap=1e-6, time_limit=math.inf, max_iterations=1)
    starting = calls[[c[1] for c in calls].index("column generation: the starting columns"):]
    assert sum(1 for c in starting if c == ("update", None)) >= 10, calls


def test_lagrangian_relaxation_stops_when_told():
    """Issue 29: the Lagrangian start ran to its end past --time-limit (77 s on a 20 x 18 P-hat with a 30 s
    limit); with ``stop`` it ends after the round in which stop() turned true, with a usable relaxation, and
    the run certifies a bracket as usual; without ``stop`` (time_limit = inf) nothing changes."""
    from rldp_verify.rldp.mechanisms.lagrangian import solve_relaxation

    P, L = _instance(3, 3, 600, 3003)
    table = [P[s * 3:(s + 1) * 3] for s in range(3)]
    _, sol = polyopt_from_bounds(table, L, "log(2)")      # e^eps = 2, as the cone below
    cone = polyopt_cone(L, 2)
    data = [block_data(b, P) for b in cone.blocks]
    full = solve_relaxation(data, Pricer(data, cone.a), cone.lp_coords, cone.a)
    once = solve_relaxation(data, Pricer(data, cone.a), cone.lp_coords, cone.a, stop=lambda: True)
    assert once.rounds == 1 <= full.rounds and once.upper >= full.upper - 1e-12 and once.marginals is not None
    res = solve_lp46_cg(cone, P, rel_gap=1e-9, time_limit=1e-9)          # the limit has passed at once
    assert res.lower <= sol.upper and sol.lower <= res.upper
