"""Issue 29: ``report`` refuses bad input at once, in one line with exit code 2: a ``--from-json`` file that is
not a verification report (no "claims", a wrong verdict) and an ``--out`` that cannot be written (checked
before any claim runs)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests import _cli_runner

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args):
    """``rldp-verify ARGS`` in this process (tests/_cli_runner.py), as ``python -m rldp_verify`` would run it."""
    return _cli_runner.run(*args, cwd=ROOT)


@pytest.mark.parametrize("doc, says", [
    ({"summary": {}}, "no 'environment', 'papers', 'claims'"),
    ([1, 2], "a JSON object is expected, got list"),
    ({"schema_version": 1, "summary": {"VERIFIED": 1, "REFUTED": 0, "INCONCLUSIVE": 0, "ERROR": 0},
      "environment": {"python": "3", "platform": "x", "packages": {}, "dps": 50, "seed": 1, "include_slow": False},
      "papers": {}, "claims": [{"id": "a", "verdict": "MAYBE"}]}, "at claims/0"),
])
def test_from_json_that_is_not_a_report(tmp_path, doc, says):
    (tmp_path / "verification.json").write_text(json.dumps(doc))
    r = _cli("report", "--from-json", "--out", str(tmp_path))
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rldp-verify: error: ") and says in lines[0], r.stderr
    assert "is not a verification report" in lines[0]
    assert not (tmp_path / "verification.html").exists()


@pytest.mark.parametrize("text, says", [
    ("garbage", "is not JSON: Expecting value: line 1 column 1"),
    (None, "cannot read"),
])
def test_from_json_unreadable_or_not_json(tmp_path, text, says):
    """Newcomer pass: not JSON is said so (it read 'cannot read ...: Expecting value'); a missing file names the
    file once (the path was printed twice, in the message and in Python's error text)."""
    if text is not None:
        (tmp_path / "verification.json").write_text(text)
    r = _cli("report", "--from-json", "--out", str(tmp_path))
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rldp-verify: error: ") and says in lines[0], r.stderr
    assert lines[0].count("verification.json") == 1, lines[0]


def test_out_not_writable_is_refused_before_the_claims_run():
    t0 = time.monotonic()
    r = _cli("report", "--out", "/proc/rldp-verify-forbidden", "--quiet")
    assert r.returncode == 2, r.stderr
    assert r.stderr.strip() == ("rldp-verify: error: --out '/proc/rldp-verify-forbidden' is not a writable "
                                "directory: No such file or directory")
    assert time.monotonic() - t0 < 60   # every fast claim would take minutes
    assert r.stdout == ""


def test_unwritable_certificates_folder_is_named_as_such(tmp_path):
    """--certificates that cannot be written names --certificates (it said --out), before any claim runs."""
    blocked = tmp_path / "file"
    blocked.write_text("")
    r = _cli("report", "--out", str(tmp_path / "out"), "--certificates", str(blocked / "c"), "--quiet")
    assert r.returncode == 2, r.stderr
    assert r.stderr.strip().startswith(f"rldp-verify: error: --certificates {str(blocked / 'c')!r} is not a writable"), r.stderr
