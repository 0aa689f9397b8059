"""One implementation per exact linear-algebra / LP route (issue 27).

The routes and their one home:

- exact LP with cddlib (pycddlib's GMP backend): :func:`rldp_verify.core.lp.solve_rows` (and
  :func:`~rldp_verify.core.lp.solve_exact` on it); double description and canonicalisation in
  :mod:`rldp_verify.core.polytope`;
- exact square solve: :func:`rldp_verify.core.linalg.solve_square`; elimination on arb balls:
  :func:`rldp_verify.core.linalg.solve_square_balls`; exact rank: :func:`rldp_verify.core.linalg.exact_rank`
  (all three importable from :mod:`rldp_verify.core.lp`);
- float LP: :func:`rldp_verify.core.highs.highs_solve`.

This test reads the engine's source (AST) and fails when ``cdd`` is used, or a Gauss(-Jordan) elimination (a row
swap of a matrix held as a list of rows) is written, outside core/lp.py, core/linalg.py and core/polytope.py; and
when an exact python-flint square solve (``fmpq_mat(...).solve`` / ``.inv()``) appears outside them in a module not
on the (shrinking) list below.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "rldp_verify"
HOMES = {"rldp_verify/core/lp.py", "rldp_verify/core/linalg.py", "rldp_verify/core/polytope.py"}
# modules allowed an inline exact flint solve (none: keep it empty; an entry needs a reason)
KNOWN_INLINE_FMPQ_SOLVES: set[str] = set()


def _is_row_swap(node: ast.AST) -> bool:
    """``M[i], M[j] = M[j], M[i]`` (a pivot's row exchange) on one name."""
    if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
        return False
    lhs, rhs = node.targets[0], node.value
    if not (isinstance(lhs, ast.Tuple) and isinstance(rhs, ast.Tuple) and len(lhs.elts) == len(rhs.elts) == 2):
        return False
    if not all(isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name) for e in lhs.elts + rhs.elts):
        return False
    names = {e.value.id for e in lhs.elts + rhs.elts}
    idx = [ast.dump(e.slice) for e in lhs.elts + rhs.elts]
    return len(names) == 1 and idx[0] == idx[3] and idx[1] == idx[2] and idx[0] != idx[1]


def _is_cdd(node: ast.AST) -> bool:
    """An import of pycddlib or a call of its LP solver."""
    if isinstance(node, ast.Import):
        return any(a.name.split(".")[0] == "cdd" for a in node.names)
    if isinstance(node, ast.ImportFrom):
        return (node.module or "").split(".")[0] == "cdd"
    return isinstance(node, ast.Attribute) and node.attr in ("linprog_from_array", "linprog_solve")


def findings(source: str) -> dict[str, list[int]]:
    """Line numbers of cdd use, row swaps and flint exact solves in ``source``."""
    tree = ast.parse(source)
    out: dict[str, list[int]] = {"cdd": [], "row swap": [], "fmpq solve": []}
    uses_fmpq_mat = "fmpq_mat" in source
    for node in ast.walk(tree):
        if _is_cdd(node):
            out["cdd"].append(node.lineno)
        elif _is_row_swap(node):
            out["row swap"].append(node.lineno)
        elif (uses_fmpq_mat and isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("solve", "inv") and "arb" not in ast.unparse(node)):
            out["fmpq solve"].append(node.lineno)
    return {k: v for k, v in out.items() if v}


def _engine_findings() -> dict[str, dict[str, list[int]]]:
    found = {}
    for f in sorted(ENGINE.rglob("*.py")):
        rel = f.relative_to(ROOT).as_posix()
        if rel in HOMES:
            continue
        hits = findings(f.read_text())
        if rel in KNOWN_INLINE_FMPQ_SOLVES:
            hits.pop("fmpq solve", None)
        if hits:
            found[rel] = hits
    return found


def test_exact_lp_and_elimination_live_in_core_lp_and_polytope():
    found = _engine_findings()
    assert not found, ("cdd LPs, Gauss-Jordan eliminations or exact square solves outside core/lp.py, core/linalg.py "
                       f"and core/polytope.py (call rldp_verify.core.lp instead): {found}")


def test_the_homes_have_them():
    assert findings((ENGINE / "core" / "lp.py").read_text()).get("cdd")
    linalg = findings((ENGINE / "core" / "linalg.py").read_text())
    assert linalg.get("row swap") and linalg.get("fmpq solve"), linalg
    assert findings((ENGINE / "core" / "polytope.py").read_text()).get("cdd")


def test_a_planted_copy_is_caught():
    gauss = ("def solve(M, b):\n"
             "    for c in range(len(M)):\n"
             "        p = next(r for r in range(c, len(M)) if M[r][c] != 0)\n"
             "        M[c], M[p] = M[p], M[c]\n"
             "    return M\n")
    assert findings(gauss) == {"row swap": [4]}
    lp = "import cdd.gmp\nlp = cdd.gmp.linprog_from_array(rows, obj_type=1)\n"
    assert findings(lp)["cdd"] == [1, 2]
    solve = "import flint\nz = flint.fmpq_mat(2, 2, v).solve(r)\n"  # an arb_mat solve (balls) is another route
    assert findings(solve) == {"fmpq solve": [2]}
    arb = "import flint\nq = flint.fmpq_mat(1, 1, [1])\nz = flint.arb_mat(2, 2, v).solve(r)\n"
    assert findings(arb) == {}
