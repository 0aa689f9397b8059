"""scripts/check_pins.py: the report job's comparison of a generated report with the pins."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PINS = json.loads((ROOT / "proofs" / "pinned_verdicts.json").read_text())["claims"]


def _run(tmp_path, claims):
    f = tmp_path / "verification.json"
    f.write_text(json.dumps({"claims": claims}))
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "check_pins.py"), str(f)],
                          capture_output=True, text=True)


def test_matching_report_passes(tmp_path):
    cid, pin = next(iter(PINS.items()))
    r = _run(tmp_path, [{"id": cid, "verdict": pin["verdict"], "kind": pin.get("kind"), "summary": "s"}])
    assert r.returncode == 0, r.stderr


def test_flipped_verdict_and_unknown_claim_fail(tmp_path):
    cid, pin = next(iter(PINS.items()))
    flipped = "REFUTED" if pin["verdict"] != "REFUTED" else "VERIFIED"
    r = _run(tmp_path, [{"id": cid, "verdict": flipped, "summary": "s"},
                        {"id": "no.such.claim", "verdict": "VERIFIED", "summary": "s"}])
    assert r.returncode == 1
    assert cid in r.stderr and "no.such.claim" in r.stderr


def test_unreadable_report_is_exit_2(tmp_path):
    (tmp_path / "verification.json").write_text("{not json")
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "check_pins.py"), str(tmp_path / "verification.json")],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "cannot read" in r.stderr
