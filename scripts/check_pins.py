#!/usr/bin/env python3
"""Compare a generated verification.json with the pinned verdicts (issue 9): proofs/pinned_verdicts.json and
the papers' own proofs/<name>/pins.json (:meth:`rldp_verify.claims.catalogue.Catalogue.pins`).

Usage: check_pins.py [REPORT_JSON]   (default reports/verification.json)

The report job (`make report`) runs this after the claims, so the slow claims' verdicts are checked
against their pins without running them twice. Exit 0 when every claim in the report has its pinned
verdict and kind, 1 otherwise (each difference listed), 2 on unreadable input.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _pins() -> dict:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from rldp_verify.claims.catalogue import Catalogue

    return Catalogue.load("proofs").pins()


def main(argv: list[str]) -> int:
    path = Path(argv[0]) if argv else ROOT / "reports" / "verification.json"
    try:
        report = json.loads(path.read_text())
        pins = _pins()
    except (OSError, ValueError, KeyError) as exc:
        print(f"check_pins: error: cannot read {path}: {exc}", file=sys.stderr)
        return 2
    bad = []
    for c in report["claims"]:
        pin = pins.get(c["id"])
        if pin is None:
            bad.append(f"{c['id']}: no pin (verdict {c['verdict']})")
        elif (c["verdict"], c.get("kind")) != (pin["verdict"], pin.get("kind")):
            bad.append(f"{c['id']}: {c['verdict']}/{c.get('kind')} but pinned {pin['verdict']}/{pin.get('kind')}"
                       f" — {c['summary'][:160]}")
    if bad:
        print(f"check_pins: {len(bad)} of {len(report['claims'])} claims differ from proofs/pinned_verdicts.json:",
              file=sys.stderr)
        for line in bad:
            print("  " + line, file=sys.stderr)
        return 1
    print(f"check_pins: all {len(report['claims'])} verdicts match their pins")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
