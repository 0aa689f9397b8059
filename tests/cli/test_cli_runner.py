"""tests/_cli_runner.py runs ``rldp-verify`` in the test process as ``python -m rldp_verify`` would in a new one:
the same exit codes and streams, Python's own warnings filters, and nothing of the call left behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import warnings
from pathlib import Path

import mpmath
import numpy as np
import pytest

from tests import _cli_runner
from tests._cli_runner import run

ROOT = Path(__file__).resolve().parents[2]


def _fake_main(monkeypatch, body):
    """Replace rldp_verify.cli.main for one test by ``body`` (what the command would do)."""
    import rldp_verify.cli

    monkeypatch.setattr(rldp_verify.cli, "main", body)


def test_same_as_a_subprocess_for_output_and_bad_input():
    """Plain output, JSON output and a one-line bad input are what the real process prints, byte for byte."""
    for args in (["mechanism", "grr", "--eps", "0.5", "--phat", "7,10;26,57"],
                 ["mechanism", "grr", "--eps", "nan", "--phat", "7,10;26,57"], ["ball", "--nope"]):
        real = subprocess.run([sys.executable, "-m", "rldp_verify", *args], cwd=ROOT, capture_output=True, text=True,
                              timeout=300)
        mine = run(*args)
        assert (mine.returncode, mine.stdout, mine.stderr) == (real.returncode, real.stdout, real.stderr), args


@pytest.mark.parametrize("exit_with, code, stderr", [
    (None, 0, ""), (0, 0, ""), (3, 3, ""), ("bye", 1, "bye\n"), (True, 1, ""),
])
def test_system_exit_as_python_ends(monkeypatch, exit_with, code, stderr):
    def main():
        raise SystemExit(exit_with)

    _fake_main(monkeypatch, main)
    out = run("x")
    assert (out.returncode, out.stderr) == (code, stderr)


def test_returned_code_and_uncaught_exception(monkeypatch):
    _fake_main(monkeypatch, lambda: 4)
    assert run().returncode == 4

    def boom():
        print("partial")
        raise ZeroDivisionError("x")

    _fake_main(monkeypatch, boom)
    out = run()
    assert out.returncode == 1 and out.stdout == "partial\n"
    assert out.stderr.startswith("Traceback (most recent call last):") and out.stderr.endswith("ZeroDivisionError: x\n")


def test_streams_env_cwd_argv_and_state_are_the_calls_own_and_restored(monkeypatch, tmp_path):
    seen = {}

    def main():
        seen.update(argv=list(sys.argv), cwd=os.getcwd(), env=os.environ.get("RLDP_RUNNER_X"), path0=sys.path[0],
                    stdin=sys.stdin.read(), tty=(sys.stdin.isatty(), sys.stdout.isatty(), sys.stderr.isatty()),
                    buffer=hasattr(sys.stdout, "buffer"), enc=sys.stdout.encoding)
        os.environ["RLDP_RUNNER_LEAK"] = "1"
        os.chdir("/")
        sys.path.insert(0, "/nowhere")
        mpmath.mp.dps = 7
        np.seterr(all="ignore")
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        sys.stdout.buffer.write("é\n".encode(sys.stdout.encoding))
        sys.stderr.write("a\r\nb\n")
        return 0

    _fake_main(monkeypatch, main)
    before = (dict(os.environ), os.getcwd(), list(sys.argv), list(sys.path), mpmath.mp.prec, np.geterr(),
              signal.getsignal(signal.SIGINT), sys.stdout, sys.stderr, sys.stdin)
    out = run("a", "b", stdin="line 1\nline 2\n", env={"RLDP_RUNNER_X": "y"}, cwd=tmp_path)
    assert out.returncode == 0 and out.stdout == "é\n" and out.stderr == "a\nb\n"
    assert seen["argv"][1:] == ["a", "b"] and seen["argv"][0].endswith(os.path.join("rldp_verify", "__main__.py"))
    assert seen["cwd"] == str(tmp_path) == seen["path0"] and seen["env"] == "y"
    assert seen["stdin"] == "line 1\nline 2\n" and seen["tty"] == (False, False, False) and seen["buffer"]
    assert (dict(os.environ), os.getcwd(), list(sys.argv), list(sys.path), mpmath.mp.prec, np.geterr(),
            signal.getsignal(signal.SIGINT), sys.stdout, sys.stderr, sys.stdin) == before


def test_warnings_are_pythons_defaults_inside_and_pytests_outside(monkeypatch):
    """pytest makes warnings errors (filterwarnings = error); a real run prints a UserWarning on stderr and
    ignores a DeprecationWarning raised outside __main__."""
    def main():
        warnings.warn("careful", UserWarning, stacklevel=1)
        warnings.warn("old", DeprecationWarning, stacklevel=1)
        return 0

    _fake_main(monkeypatch, main)
    out = run()
    assert out.returncode == 0 and "UserWarning: careful" in out.stderr and "DeprecationWarning" not in out.stderr
    with pytest.raises(UserWarning):
        warnings.warn("still an error here", UserWarning, stacklevel=1)


def test_a_temporary_proofs_package_is_imported_afresh(tmp_path):
    """Two calls with a package of the same name and other contents (two tests' tmp_path) see their own, as
    two processes would; its claims leave the registry with it."""
    from rldp_verify.claims.core import registry

    for cid in ("tmp.first", "tmp.second"):
        pkg = tmp_path / cid / "tmprunnerproofs"
        pkg.mkdir(parents=True)
        (pkg / "__init__.py").write_text("")
        (pkg / "mod.py").write_text(
            "from rldp_verify.claims import Method, Outcome, claim\n\n"
            f"@claim(id={cid!r}, paper='000_aca93ed29ea857ee.txt', source='Thm 1', statement='s', method=Method.EXACT)\n"
            "def ok(ctx):\n    return Outcome.verified('fine')\n")
        out = run("report", "--proofs", "tmprunnerproofs", "--out", str(tmp_path / cid / "r"), "--quiet",
                  env={"PYTHONPATH": f"{tmp_path / cid}{os.pathsep}{ROOT}"})
        assert out.returncode == 0, out.stderr
        ids = [c["id"] for c in json.loads((tmp_path / cid / "r" / "verification.json").read_text())["claims"]]
        assert ids == [cid]
        assert "tmprunnerproofs" not in sys.modules and cid not in registry()


def test_the_default_filters_are_cpythons():
    """The runner's copy of Python's default warnings filters is what a fresh interpreter has."""
    fresh = subprocess.run([sys.executable, "-c", "import warnings; print([(a, c.__name__, str(m)) for a, _, c, m, _ "
                            "in warnings.filters])"], capture_output=True, text=True, env={}, timeout=60).stdout
    assert fresh.strip() == str([(a, c.__name__, str(m)) for a, _, c, m, _ in _cli_runner._DEFAULT_FILTERS])
