"""The engine's shape (issue 27): no engine function over cyclomatic complexity 25 (radon's measure, which counts
boolean operators, unlike ruff's C90) and no engine module over 600 lines.

The allow-lists below hold what was over the limits when the limits were set; each entry goes when its function or
module is split. A test fails when a new function or module crosses a limit, and when a listed one no longer does
(so the list cannot go stale).
"""

from __future__ import annotations

from pathlib import Path

import pytest

radon_complexity = pytest.importorskip("radon.complexity", reason="radon is a dev dependency")

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "rldp_verify"
# the engine and the independent certificate checker beside it
PACKAGES = (ENGINE, ROOT / "rldp_verify_check")
MAX_COMPLEXITY = 25
MAX_LINES = 600

# (module, function) -> complexity when the limit was set (2026-11-26)
KNOWN_COMPLEX: dict[tuple[str, str], int] = {
}
# module -> lines when the limit was set
KNOWN_LONG: dict[str, int] = {
}


def _blocks(blocks):
    for b in blocks:
        yield b
        yield from _blocks(getattr(b, "closures", []))
        yield from _blocks(getattr(b, "methods", []))


def complexity_over_limit() -> dict[tuple[str, str], int]:
    out = {}
    for f in sorted(f for pkg in PACKAGES for f in pkg.rglob("*.py")):
        rel = f.relative_to(ROOT).as_posix()
        for b in _blocks(radon_complexity.cc_visit(f.read_text())):
            if b.complexity > MAX_COMPLEXITY and not hasattr(b, "methods"):
                name = f"{b.classname}.{b.name}" if getattr(b, "classname", None) else b.name
                out[(rel, name)] = b.complexity
    return out


def modules_over_limit() -> dict[str, int]:
    out = {}
    for f in sorted(f for pkg in PACKAGES for f in pkg.rglob("*.py")):
        n = len(f.read_text().splitlines())
        if n > MAX_LINES:
            out[f.relative_to(ROOT).as_posix()] = n
    return out


def test_no_new_engine_function_over_complexity_25():
    found = complexity_over_limit()
    new = {k: v for k, v in found.items() if k not in KNOWN_COMPLEX}
    assert not new, f"engine functions over complexity {MAX_COMPLEXITY} (split them): {new}"


def test_the_complexity_allow_list_is_not_stale():
    found = complexity_over_limit()
    fixed = sorted(k for k in KNOWN_COMPLEX if k not in found)
    assert not fixed, f"now at most {MAX_COMPLEXITY}: remove from KNOWN_COMPLEX: {fixed}"


def test_no_new_engine_module_over_600_lines():
    found = modules_over_limit()
    new = {k: v for k, v in found.items() if k not in KNOWN_LONG}
    assert not new, f"engine modules over {MAX_LINES} lines (split them): {new}"
    fixed = sorted(k for k in KNOWN_LONG if k not in found)
    assert not fixed, f"now at most {MAX_LINES} lines: remove from KNOWN_LONG: {fixed}"


def test_a_wrong_limit_is_caught():
    # the measure itself: a function with 26 decision points is reported, one with 25 is not
    src = "def f(x):\n" + "".join(f"    if x == {i}:\n        return {i}\n" for i in range(25)) + "    return -1\n"
    assert radon_complexity.cc_visit(src)[0].complexity == 26


def test_lint_has_no_relaxation_for_the_engine():
    """ruff's per-file relaxations cover proofs/, tests/ and the scripts' long strings only, and mypy ignores no
    engine module: the engine and the checker are clean under the whole rule set (issue 27)."""
    import tomllib

    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())
    ignores = cfg["tool"]["ruff"]["lint"].get("per-file-ignores", {})
    assert not [k for k in ignores if k.startswith(("rldp_verify", "rldp_verify_check"))], ignores
    for o in cfg["tool"]["mypy"].get("overrides", []):
        mods = [o["module"]] if isinstance(o["module"], str) else o["module"]
        assert not (o.get("ignore_errors") and any(m.startswith("rldp_verify") for m in mods)), o
    assert set(cfg["tool"]["mypy"]["files"]) == {"rldp_verify", "rldp_verify_check"}
