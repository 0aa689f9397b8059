"""The set-up the README promises: the exact GMP backend, the console script, the two commands."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_pycddlib_exact_backend_is_importable():
    from fractions import Fraction

    import cdd.gmp

    m = cdd.gmp.matrix_from_array([[Fraction(1, 3), Fraction(-1)]])
    assert m.array[0][0] == Fraction(1, 3)  # exact, not a float


def test_console_script_help():
    exe = Path(sys.executable).with_name("rldp-verify")
    assert exe.exists() or shutil.which("rldp-verify")
    out = subprocess.run([str(exe) if exe.exists() else "rldp-verify", "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "report" in out.stdout


def test_makefile_has_the_two_commands():
    text = (ROOT / "Makefile").read_text()
    assert "\nreport:" in text and "\ntest:" in text
    readme = (ROOT / "README.md").read_text()
    assert "make report" in readme and "make test" in readme


def test_bootstrap_is_quiet_when_everything_is_installed():
    out = subprocess.run(["bash", "scripts/bootstrap.sh"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "" and out.stderr.strip() == ""
