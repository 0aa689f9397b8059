"""The committed example certificates (tests/certificates/data, written by make_data.py): every good one is
accepted and every wrong one rejected -- by the checker alone, in a fresh interpreter as `make check-certificates`
runs it, and through `rldp-verify check-certificates`."""

import subprocess
import sys
from pathlib import Path

from rldp_verify.cli import main
from rldp_verify_check import check_path

DATA = Path(__file__).parent / "data"


def test_good_accepted_wrong_rejected():
    good, wrong = check_path(DATA / "good"), check_path(DATA / "wrong")
    assert len(good) >= 10 and all(r.ok for r in good), [r.line() for r in good if not r.ok]
    assert len(wrong) >= 8 and not any(r.ok for r in wrong), [r.line() for r in wrong if r.ok]


def test_checker_module_and_cli_exit_codes(capsys):
    run = [sys.executable, "-m", "rldp_verify_check"]
    root = Path(__file__).parents[2]
    assert subprocess.run(run + [str(DATA / "good")], cwd=root, capture_output=True).returncode == 0
    assert subprocess.run(run + [str(DATA / "wrong")], cwd=root, capture_output=True).returncode == 1
    assert main(["check-certificates", str(DATA / "good")]) == 0
    assert main(["check-certificates", str(DATA / "good"), str(DATA / "wrong")]) == 1
