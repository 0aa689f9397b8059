"""Every public function, class and method of the engine has a docstring (issue 10: kept at zero missing).

Public: a top-level ``def`` / ``class`` of any module below ``rldp_verify/`` whose name does not start with an
underscore, and the public methods of such a class (dunder methods excepted). Read from the source with ``ast``,
so nothing is imported and the list of offenders names file and line.
"""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "rldp_verify"


def undocumented(root: Path = ENGINE) -> list[str]:
    """``path:line name`` of every public function / class / method under ``root`` without a docstring."""
    out = []
    for f in sorted(root.rglob("*.py")):
        tree = ast.parse(f.read_text(encoding="utf-8"), filename=str(f))
        for node in tree.body:
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) or node.name.startswith("_"):
                continue
            if ast.get_docstring(node) is None:
                out.append(f"{f.relative_to(root.parent)}:{node.lineno} {node.name}")
            if isinstance(node, ast.ClassDef):
                for m in node.body:
                    if (isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and not m.name.startswith("_")
                            and ast.get_docstring(m) is None):
                        out.append(f"{f.relative_to(root.parent)}:{m.lineno} {node.name}.{m.name}")
    return out


def test_every_public_engine_function_has_a_docstring():
    missing = undocumented()
    assert not missing, f"{len(missing)} public functions/classes of rldp_verify/ lack a docstring:\n" + "\n".join(missing)


def test_the_check_sees_a_missing_docstring(tmp_path):
    pkg = tmp_path / "rldp_verify"
    pkg.mkdir()
    (pkg / "m.py").write_text('def documented():\n    """Yes."""\n\n\ndef bare():\n    return 1\n\n\n'
                              'class K:\n    """K."""\n\n    def method(self):\n        return 2\n\n'
                              '    def _private(self):\n        return 3\n\n\ndef _hidden():\n    return 4\n')
    assert undocumented(pkg) == ["rldp_verify/m.py:5 bare", "rldp_verify/m.py:12 K.method"]
