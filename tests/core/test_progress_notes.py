"""core.progress's log lines (issue 27: the engine's one channel for a solver's log, no ``log=`` callbacks)."""

import ast
from pathlib import Path

from rldp_verify.core import progress

ENGINE = Path(__file__).resolve().parents[2] / "rldp_verify"


def test_notes_reach_every_installed_sink_and_only_inside_the_block():
    outer, inner = [], []
    progress.note("nobody listens")
    assert not progress.noting()
    with progress.notes(outer.append):
        assert progress.noting()
        progress.note("a")
        with progress.notes(inner.append), progress.notes(None):
            progress.note("b")
        progress.note("c")
    progress.note("d")
    assert outer == ["a", "b", "c"] and inner == ["b"]
    assert not progress.noting()


def test_no_engine_code_writes_log_lines_through_a_callback_of_its_own():
    """A call ``log(<string>)`` / ``self.log(<string>)`` / ``cg.log(<string>)`` anywhere in the engine is a
    ``log=`` callback beside core.progress (the three solvers had them until issue 27). A callback takes one message:
    ``Atoms.log(name, base)`` of the identity certificates (a log atom, two arguments) is not one."""
    offenders = []
    for f in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(f.read_text())):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            fn = node.func
            name = fn.id if isinstance(fn, ast.Name) else fn.attr if isinstance(fn, ast.Attribute) else None
            if name == "log" and len(node.args) == 1 and isinstance(node.args[0], (ast.JoinedStr, ast.Constant)) and \
                    isinstance(getattr(node.args[0], "value", ""), str):
                offenders.append(f"{f.relative_to(ENGINE)}:{node.lineno}")
    assert not offenders, offenders
