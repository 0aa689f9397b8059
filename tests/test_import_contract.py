"""The import contract between the engine and the papers (issue 27): the engine reaches the papers' package
only through the catalogue, :mod:`rldp_verify.claims.catalogue`.

Scanned statically over every module of ``rldp_verify/`` except the catalogue module:

- ``import proofs...`` / ``from proofs... import`` (or the installed name ``rldp_verify_papers``);
- ``importlib.import_module``, ``__import__``, ``importlib.util.find_spec`` and ``pkgutil`` calls whose argument
  names the papers' package (a string literal, or an f-string that starts with it);
- any string literal that is the papers' package used as a module name (``"proofs"``, ``"proofs.papers"``, an
  f-string ``f"proofs.{x}"``): a default such as ``package="proofs"`` is a hidden load by name;
- imports by a computed name (``import_module(name)``) anywhere but the modules listed in
  :data:`DYNAMIC_IMPORTS` with the reason they need one (they import what their caller names, never the papers
  by themselves).

Also: the modules of ``proofs/`` import each other relatively, never as ``proofs.*`` (so the package works
when the wheel installs it as ``rldp_verify_papers``). ``test_scanner_finds_each_kind_of_violation`` feeds the
scanner one deliberate violation of each kind.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "rldp_verify"
CATALOGUE = "rldp_verify/claims/catalogue.py"
PAPER_PACKAGES = ("proofs", "rldp_verify_papers")
_NAME = re.compile(r"^(?:" + "|".join(PAPER_PACKAGES) + r")(?:\.[A-Za-z_]\w*)*$")
_LOADERS = {"import_module", "__import__", "find_spec", "walk_packages", "iter_modules", "resolve_name"}

#: engine modules (path prefixes) that import a module by a computed name, and why
DYNAMIC_IMPORTS = {
    "rldp_verify/adapters": "the adapters import the optional third-party library an adapter wraps",
    "rldp_verify/cli/audit_sampler.py": "the user's mechanism module, named on the command line",
    "rldp_verify/cli/__init__.py": "its own subcommand modules (rldp_verify.cli.*)",
    "rldp_verify/claims/mutants.py": "the patch targets of a mutant and the mutant catalogue its caller names",
    "rldp_verify/claims/cache.py": "find_spec of the modules in a claim's import graph (files read, not run)",
}


def _names_papers(node: ast.AST) -> bool:
    """True when ``node`` is a string literal naming the papers' package as a module, or an f-string that
    starts with one (``f"proofs.{x}"``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return bool(_NAME.match(node.value))
    if isinstance(node, ast.JoinedStr) and node.values:
        head = node.values[0]
        if isinstance(head, ast.Constant) and isinstance(head.value, str):
            return any(head.value == p or head.value.startswith(p + ".") for p in PAPER_PACKAGES)
    return False


def _is_paper_module(name: str | None) -> bool:
    return bool(name) and any(name == p or name.startswith(p + ".") for p in PAPER_PACKAGES)


def _callee(node: ast.Call) -> str | None:
    f = node.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None


def violations(source: str, where: str) -> list[str]:
    """Every way ``source`` (the text of the module at ``where``) imports or loads the papers' package."""
    tree = ast.parse(source, filename=where)
    out = []
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and n.body and isinstance(n.body[0], ast.Expr)}
    for node in ast.walk(tree):
        line = f"{where}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Import):
            out += [f"{line}: import {a.name}" for a in node.names if _is_paper_module(a.name)]
        elif isinstance(node, ast.ImportFrom) and not node.level and _is_paper_module(node.module):
            out.append(f"{line}: from {node.module} import ...")
        elif isinstance(node, ast.Call) and _callee(node) in _LOADERS:
            args = list(node.args) + [k.value for k in node.keywords]
            if any(_names_papers(a) for a in args):
                out.append(f"{line}: {_callee(node)}(...) names the papers' package")
            elif not any(where.startswith(p) for p in DYNAMIC_IMPORTS) and _callee(node) != "walk_packages" \
                    and args and not isinstance(args[0], ast.Constant):
                out.append(f"{line}: {_callee(node)}(...) by a computed name (not in DYNAMIC_IMPORTS)")
        elif (isinstance(node, (ast.Constant, ast.JoinedStr)) and id(node) not in docstrings
              and _names_papers(node)):
            out.append(f"{line}: the string {ast.unparse(node)} names the papers' package")
    return sorted(set(out))


def _engine_modules():
    for f in sorted(ENGINE.rglob("*.py")):
        rel = f.relative_to(ROOT).as_posix()
        if rel != CATALOGUE:
            yield rel, f.read_text(encoding="utf-8")


def test_only_the_catalogue_loads_the_papers():
    found = [v for rel, text in _engine_modules() for v in violations(text, rel)]
    assert not found, ("engine modules that import or load the papers' package outside "
                       f"{CATALOGUE} (hand them a Catalogue instead):\n  " + "\n  ".join(found))


def test_the_catalogue_module_is_where_they_are_loaded():
    text = (ROOT / CATALOGUE).read_text(encoding="utf-8")
    assert violations(text, "elsewhere.py"), "the scanner should see the catalogue's own loads"


def test_dynamic_import_allow_list_is_current():
    stale = [p for p in DYNAMIC_IMPORTS if not (ROOT / p).exists() and not list(ROOT.glob(p + "*"))]
    assert not stale, f"DYNAMIC_IMPORTS lists paths that no longer exist: {stale}"


def test_proof_modules_import_each_other_relatively():
    bad = []
    for f in sorted((ROOT / "proofs").rglob("*.py")):
        rel = f.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"), filename=rel)):
            if isinstance(node, ast.ImportFrom) and not node.level and _is_paper_module(node.module):
                bad.append(f"{rel}:{node.lineno}: from {node.module} import ...")
            elif isinstance(node, ast.Import):
                bad += [f"{rel}:{node.lineno}: import {a.name}" for a in node.names if _is_paper_module(a.name)]
    assert not bad, ("proof modules must import each other relatively (the wheel installs proofs/ as "
                     "rldp_verify_papers):\n  " + "\n  ".join(bad))


def test_scanner_finds_each_kind_of_violation():
    cases = {
        "import proofs.papers": "import proofs.papers",
        "from proofs.statements import coverage": "from proofs.statements import",
        "from rldp_verify_papers import papers": "from rldp_verify_papers import",
        "import importlib\nimportlib.import_module('proofs')": "import_module(...) names",
        "import importlib\nm = importlib.import_module(f'proofs.{x}')": "import_module(...) names",
        "__import__('proofs.papers')": "__import__(...) names",
        "import importlib.util\nimportlib.util.find_spec('proofs')": "find_spec(...) names",
        "def run(package='proofs'):\n    pass": "the string 'proofs' names",
        "NAME = 'rldp_verify_papers.reference_claims'": "names the papers' package",
        "import importlib\nimportlib.import_module(name)": "by a computed name",
    }
    for source, expected in cases.items():
        found = violations(source, "rldp_verify/x.py")
        assert any(expected in v for v in found), f"not caught: {source!r} -> {found}"
    clean = ('"""Docstring naming ``proofs`` and "proofs" is fine."""\n'
             'import importlib\nimportlib.import_module("numpy")\nHELP = "package holding the claims (proofs)"\n'
             'from .catalogue import Catalogue\n')
    assert violations(clean, "rldp_verify/x.py") == []


def test_engine_cites_papers_by_citation_key():
    """The engine cites a paper by its key in proofs/papers.py (``[kairouz-2016]``, then the section or
    theorem), not by its seed file name; every key it cites is registered."""
    from proofs.papers import PAPERS

    keys = {p.key for p in PAPERS}
    assert all(keys) and len(keys) == len(PAPERS)
    seed = re.compile(r"\d{3}_[0-9a-f]{16}")
    cited = re.compile(r"\[([a-z]+-\d{4}[a-z]?)[],]")
    by_seed, unknown = [], []
    for root in (ENGINE, ROOT / "rldp_verify_check"):
        for f in sorted(root.rglob("*.py")):
            rel = f.relative_to(ROOT).as_posix()
            for i, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
                if seed.search(line) and "paper=" not in line:   # paper="<seed file>" is the claim API's field
                    by_seed.append(f"{rel}:{i}")
                unknown += [f"{rel}:{i}: [{k}]" for k in cited.findall(line) if k not in keys]
    assert not by_seed, f"cite the paper by its key in proofs/papers.py, not its seed file: {by_seed}"
    assert not unknown, f"citation keys that proofs/papers.py does not register: {unknown}"
