"""The engine's floors (docs/architecture.md): a module of ``rldp_verify`` imports only its own unit and the
units on lower floors, statically or inside a function. Read from the source (AST), so a lazy import that
climbs a floor is caught as well as a top-level one."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "rldp_verify"

# floor of each unit (the first component under rldp_verify/); a unit imports only itself and lower floors
FLOORS: dict[str, int] = {
    "core": 0,                                            # numbers, intervals, divergences, LPs, polytopes
    "rldp": 1,                                            # the RLDP paper's objects: sets, mechanisms, audit
    "topics": 2, "structured": 2, "blackbox": 2,          # companion papers' numerics; structured protocols
    "adapters": 3, "certificates": 3,                     # LDP libraries; certificate builders
    "claims": 4,                                          # the claim engine (the papers come in as a catalogue)
    "reference": 5,                                       # reference values (registry of formulas + claims)
    "report": 6, "testing": 6,                            # report writers; the regression helper
    "cli": 7, "pytest_plugin": 7,
    "__main__": 8,                                        # python -m rldp_verify: the CLI
    "__init__": -1,                                       # the package root: its docstring and __version__ only
}


def _unit(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _module_name(f: Path) -> tuple[str, str]:
    rel = f.relative_to(ROOT).with_suffix("")
    mod = ".".join(rel.parts)
    if f.name == "__init__.py":
        mod = mod[: -len(".__init__")]
        return mod, mod
    return mod, mod.rsplit(".", 1)[0]


def imports() -> list[tuple[str, str, int]]:
    """(importing module, imported rldp_verify module, line) for every import in the engine."""
    out = []
    for f in sorted(PKG.rglob("*.py")):
        mod, pkg = _module_name(f)
        for node in ast.walk(ast.parse(f.read_text())):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = pkg.split(".")[: len(pkg.split(".")) - (node.level - 1)]
                    names = [".".join(base + ([node.module] if node.module else []))]
                elif node.module == "rldp_verify":   # from rldp_verify import reference / __version__
                    names = [f"rldp_verify.{a.name}" if (PKG / a.name).exists() or (PKG / f"{a.name}.py").exists()
                             else "rldp_verify" for a in node.names]
                elif node.module:
                    names = [node.module]
            out += [(mod, n, node.lineno) for n in names if n == "rldp_verify" or n.startswith("rldp_verify.")]
    return out


def violations() -> list[str]:
    bad = []
    for mod, target, line in imports():
        u, v = _unit(mod), _unit(target)
        if u == v:
            continue
        if v not in FLOORS or u not in FLOORS:
            bad.append(f"{mod}:{line} imports {target}: unit {u if u not in FLOORS else v} has no floor")
        elif FLOORS[v] >= FLOORS[u]:
            bad.append(f"{mod}:{line} (floor {FLOORS[u]}) imports {target} (floor {FLOORS[v]})")
    return bad


def test_the_package_root_imports_nothing():
    assert not [t for m, t, _ in imports() if m == "rldp_verify"]


def test_every_unit_has_a_floor():
    units = {_unit(_module_name(f)[0]) for f in PKG.rglob("*.py")}
    assert units <= set(FLOORS), sorted(units - set(FLOORS))


def test_nothing_imports_upwards_or_sideways():
    assert not violations(), "\n".join(violations())


def test_the_check_sees_a_lazy_upward_import(tmp_path, monkeypatch):
    # a core module that imports the CLI inside a function is a violation
    fake = tmp_path / "rldp_verify" / "core"
    fake.mkdir(parents=True)
    (fake / "bad.py").write_text("def f():\n    from rldp_verify.cli import main\n    return main\n")
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path, raising=False)
    globals()["ROOT"], globals()["PKG"] = tmp_path, tmp_path / "rldp_verify"
    try:
        assert any("rldp_verify.core.bad:2" in v for v in violations())
    finally:
        globals()["ROOT"], globals()["PKG"] = Path(__file__).resolve().parents[1], Path(__file__).resolve().parents[1] / "rldp_verify"
