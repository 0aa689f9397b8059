"""rldp_verify.rldp.gamma: Definition 3 row by row, the dispatch of ``method="auto"``, hand-computed vertices
(issue 9, generic mutants).

Expected values come from Definition 3 of 000_aca93ed29ea857ee.txt evaluated literally here, or by hand
(the block polytope and Gamma-hat for L = 0 are boxes; see each comment).
"""

import itertools
from fractions import Fraction

import pytest

import rldp_verify.core.polytope as polytope
import rldp_verify.rldp.gamma as gamma
from rldp_verify.core import progress
from rldp_verify.core.errors import InputError
from rldp_verify.rldp.gamma import block_vertices, gamma_hat_vertices, gamma_inequalities

F = Fraction
L23 = [[F(1, 10), F(1, 5), F(1, 20)], [F(3, 10), F(0), F(1, 7)]]
L32 = [[F(1, 10), F(1, 5)], [F(1, 3), F(1, 9)], [F(0), F(2, 5)]]


def definition3(v, L, e, s1, u1, s2, u2):
    """The left-hand side of Definition 3 for (s1, u1, s2, u2), evaluated at the point v (S-major)."""
    a2 = len(L[0])
    x = lambda s, u: v[s * a2 + u]  # noqa: E731
    return (x(s1, u1) - e * x(s2, u2) + sum(L[s1][u] * (x(s1, u) - x(s1, u1)) for u in range(a2))
            - e * sum(L[s2][u] * (x(s2, u) - x(s2, u2)) for u in range(a2)))


@pytest.mark.parametrize("L", [L23, L32])
@pytest.mark.parametrize("same", [True, False])
@pytest.mark.parametrize("which", ["all", "last", "ends"])
def test_rows_are_definition3(L, same, which):
    e = F(3, 2)
    a1, a2 = len(L), len(L[0])
    active = {"all": None, "last": [a1 - 1], "ends": [a1 - 1, 0, a1 - 1]}[which]
    a = a1 * a2
    A, b = gamma_inequalities(L, e, include_same_s=same, active=active)
    act = [s for s in range(a1) if active is None or s in active]
    pairs = [(s1, u1, s2, u2) for s1 in act for u1 in range(a2) for s2 in act for u2 in range(a2)
             if same or s1 != s2]
    assert len(A) == len(b) == a + len(pairs) and all(x == 0 for x in b)
    for x in range(a):
        assert A[x] == [F(-1) if y == x else 0 for y in range(a)]
    # a row equals the linear form of Definition 3: compare on the unit vectors (the coefficients) and a point
    for row, p in zip(A[a:], pairs, strict=True):
        for y in range(a):
            unit = [F(int(z == y)) for z in range(a)]
            assert row[y] == definition3(unit, L, e, *p)
    v = [F(k + 1, 7) for k in range(a)]
    assert [sum(r * x for r, x in zip(row, v, strict=True)) for row in A[a:]] == [definition3(v, L, e, *p) for p in pairs]


@pytest.mark.parametrize("active", [[-1], [2], [0, 5], [0.0]])
def test_active_out_of_range(active):
    with pytest.raises(InputError) as exc:
        gamma_inequalities(L23, 2, active=active)
    assert str(exc.value) == f"active = {active!r} must hold indices of lower_table rows (0 to 1)"


def test_exp_eps_one_and_row_sum_one():
    A, _ = gamma_inequalities([[F(1, 2), F(1, 2)], [F(0), F(1)]], 1)      # e^eps = 1 and rows summing to 1: allowed
    assert len(A) == 4 + 16
    with pytest.raises(InputError) as exc:
        gamma_hat_vertices(L23, 1)
    assert str(exc.value) == "exp_eps = 1 must be > 1"
    with pytest.raises(InputError) as exc:
        gamma_inequalities(L23, F(1, 2))
    assert str(exc.value) == "exp_eps = 1/2 must be >= 1"
    with pytest.raises(InputError) as exc:
        gamma_inequalities([[F(1, 10)], [F(3, 5), F(3, 5)]], 2)
    assert str(exc.value) == "lower_table row 1 has 2 entries, row 0 has 1"
    with pytest.raises(InputError) as exc:
        gamma_inequalities([[F(1, 10), F(1, 10)], [F(3, 5), F(3, 5)]], 2)
    assert str(exc.value) == "lower_table row 1 sums to 6/5 > 1 (D_s would be empty)"
    with pytest.raises(InputError) as exc:
        gamma_inequalities([[0.1, 0.2]], 2)
    assert str(exc.value).startswith("lower_table must hold exact numbers: ")


def test_bad_method_messages():
    with pytest.raises(InputError) as exc:
        gamma_hat_vertices(L23, 2, method="magic")
    assert str(exc.value) == ("method 'magic' is not one of "
                              "('auto', 'cdd', 'cdd-reduced', 'lrs', 'normaliz', 'product')")
    for L, same in (([[F(0), F(0)]], True), (L23, False), ([[F(1, 2), F(1, 2)], [F(0), F(0)]], True)):
        with pytest.raises(InputError) as exc:
            gamma_hat_vertices(L, 2, include_same_s=same, method="product")
        assert str(exc.value) == ("method 'product' needs include_same_s=True, |S| >= 2 and "
                                  "sum_u L_{u|s} < 1 for every s")


def test_reduced_rows_by_hand():
    A = [[0, 0], [0, 0], [1, 2], [2, 4], [-1, -2], [1, 2], [2, 4], [3, 0]]
    b = [0, -1, 1, 2, -1, 1, 3, 0]
    A = [[F(x) for x in r] for r in A]
    b = [F(x) for x in b]
    # 0 <= 0 dropped; 0 <= -1 kept (infeasible); 2x + 4y <= 2 is a positive multiple of x + 2y <= 1: dropped;
    # -x - 2y <= -1 is not a positive multiple: kept; the duplicate dropped; 2x + 4y <= 3 differs: kept
    A2, b2 = gamma._reduced_rows(A, b)
    assert A2 == [[0, 0], [1, 2], [-1, -2], [2, 4], [3, 0]] and b2 == [-1, 1, -1, 3, 0]


def test_rays_are_refused():
    assert gamma._check_vertices_only([(F(1),)], []) == [(F(1),)]
    with pytest.raises(InputError) as exc:
        gamma._check_vertices_only([(F(1),)], [(F(1),)])
    assert str(exc.value) == "Gamma-hat is unbounded for this input (cdd returned rays)"


def _spy(monkeypatch):
    calls = []
    for mod, name in ((gamma, "_product_vertices"), (gamma, "_cdd_vertices"), (polytope, "vertices_normaliz"),
                      (polytope, "vertices_lrs")):
        orig = getattr(mod, name)

        def spy(*args, _orig=orig, _name=name, **kw):
            calls.append((_name, len(args[0])))
            return _orig(*args, **kw)
        monkeypatch.setattr(mod, name, spy)
    return calls


def test_auto_dispatch(monkeypatch):
    """``auto``: "product" when |S| >= 2, include_same_s and every row sum < 1; else "normaliz" for |X| >= 8
    (PyNormaliz installed), else "cdd-reduced" (the reduced system: fewer rows than a + a^2)."""
    pytest.importorskip("PyNormaliz")
    calls = _spy(monkeypatch)

    def first(*args, **kw):
        calls.clear()
        gamma_hat_vertices(*args, **kw)
        return calls[0]

    assert first(L23, 2)[0] == "_product_vertices"
    assert first([[F(1, 10), F(1, 5)], [F(0), F(0)]], 2)[0] == "_product_vertices"      # |S| = 2 exactly
    name, rows = first([[F(1, 10), F(1, 5)], [F(0), F(1)]], 2)        # a row sum = 1: not product; |X| = 4
    assert name == "_cdd_vertices" and rows < 4 + 16
    assert first([[F(0)] * 4, [F(1, 10)] * 4], 2, include_same_s=False)[0] == "vertices_normaliz"   # |X| = 8
    assert first([[F(0)] * 7], 2)[0] == "_cdd_vertices"                                  # |S| = 1, |X| = 7
    assert first([[F(0)] * 8], 2)[0] == "vertices_normaliz"                              # |S| = 1, |X| = 8
    assert first(L23, 2, method="cdd") == ("_cdd_vertices", 6 + 36)                     # unreduced: a + a^2 rows
    assert first([[F(1, 10)], [F(1, 5)]], 2, method="lrs")[0] == "vertices_lrs"


class _Recorder:
    def __init__(self):
        self.events = []

    def step(self, name, total, unit):
        self.events.append(("step", name, total, unit))

    def update(self, done, info):
        self.events.append(("update", done, info))


def test_product_for_zero_lower_table_by_hand():
    """L = 0: Gamma = {v >= 0 : max v <= e min v}; normalised, its vertices are the points of {1, e}^X that
    are not constant, divided by their sum (2^4 - 2 = 14 for |X| = 4). The blocks are boxes with 4 vertices."""
    e = F(2)
    want = sorted({tuple(x / sum(p) for x in p) for p in itertools.product((F(1), e), repeat=4) if len(set(p)) == 2})
    rec = _Recorder()
    with progress.reporting(rec):
        got = gamma_hat_vertices([[F(0), F(0)], [F(0), F(0)]], e, method="product")
    assert len(want) == 14 and got == want
    assert rec.events == [
        ("step", "vertices of the blocks P_s", 2, "blocks"), ("update", 1, None), ("update", 2, None),
        ("step", "vertices of Gamma-hat: products of block vertices", 16, "combinations"), ("update", 0, "0 vertices"),
        ("step", "vertices of Gamma-hat: sorting 14 vertices", None, ""),
        ("step", "vertices of Gamma-hat: exact fractions", 14, "vertices"), ("update", 0, None),
    ]
    rec = _Recorder()
    with progress.reporting(rec):
        assert gamma_hat_vertices([[F(0), F(0)], [F(0), F(0)]], e, method="cdd-reduced") == want
    assert rec.events == [("step", "vertices of Gamma-hat (cdd-reduced, |X| = 4; no count)", None, "")]


def test_product_sorted_like_fractions_with_large_denominators():
    L = [[F(1, 7), F(2, 9)], [F(3, 11), F(1, 13)]]
    e = F(5, 3)
    assert gamma_hat_vertices(L, e, method="product") == gamma_hat_vertices(L, e, method="cdd")


def test_block_vertices_by_hand():
    # P = {h in [1, 2]^2 : h1 >= h1/2 + h2/4, h2 >= h1/2 + h2/4}: the first always holds on the box (2 h1 >= h2),
    # the second is 3 h2 >= 2 h1, cutting the corner (2, 1) at (3/2, 1) and (2, 4/3)
    assert block_vertices([F(1, 2), F(1, 4)], 2) == sorted([(F(1), F(1)), (F(3, 2), F(1)), (F(2), F(4, 3)),
                                                            (F(2), F(2)), (F(1), F(2))])
    assert block_vertices(["1/2", "1/4"], "2") == block_vertices([F(1, 2), F(1, 4)], 2)   # exact inputs read
