#!/usr/bin/env python3
"""(eps, F)-RLDP over a Rényi ball at deployment size d = 65,536 (issue 26 item 1): the structured routes of GRR,
subset selection, L-GRR and local hashing through the CLI (``rldp-verify audit --adapter ... --phat FILE``), and
the structured ball certificate of subset selection (issue 23), written and re-checked.

P-hat is a .npy table of counts (all 1, eight cells of row 0 at 40), alpha = 2, radius 0.05, as the slow tests of
tests/adapters/test_structured_ball.py. Each row: the certified interval of the worst ratio, the verdict at the
protocol's eps, and the wall-clock time of the whole command in this process (library import excluded: one warm-up
audit runs first). Writes reports/benchmarks/structured_ball.json.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._certificates import COLUMN, Certifier, seconds, slug  # noqa: E402

CASES = [  # (protocol, adapter, params, P-hat shape, eps, with certificate)
    ("GRR", "multi-freq-ldpy:GRR_Client", ["k=65536", "epsilon=1"], (256, 256), "1", False),
    ("SS (m = 437)", "multi-freq-ldpy:SS_Client", ["k=65536", "epsilon=5", "as_set=true"], (16, 4096), "5", False),
    ("L-GRR", "multi-freq-ldpy:L_GRR_Client", ["k=65536", "eps_perm=2", "eps_1=1"], (256, 256), "2", False),
    ("OLH", "multi-freq-ldpy:LH_Client", ["k=65536", "epsilon=1"], (256, 256), "1.01", False),
    ("SS (m = 437), --certificate", "multi-freq-ldpy:SS_Client", ["k=65536", "epsilon=5", "as_set=true"], (16, 4096),
     "5", True),
]


def _run(argv: list[str]) -> tuple[int, dict, float]:
    from rldp_verify.cli import main as cli

    out, err = io.StringIO(), io.StringIO()
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = cli(argv)
    seconds = time.perf_counter() - t0
    try:
        doc = json.loads(out.getvalue())
    except ValueError:
        doc = {"verdict": f"no JSON (exit {rc}): {err.getvalue().strip()[:400]}"}
    return rc, doc, seconds


def _certificate(certs: Certifier, name: str, argv: list[str], path: Path, doc: dict, timed: float | None):
    """The row's certificate (:mod:`benchmarks._certificates`): the file its own command wrote (``timed``: that
    command's seconds, which include it), else one written by a second run of the command with ``--certificate``
    (untimed in the row's seconds); re-checked by rldp_verify_check. (cell, "seconds to write / to re-check")."""
    if timed is None:
        rc, again, timed = _run([*argv, "--certificate", str(path)])
        if not path.is_file():
            why = str(again.get("verdict")).split(": ", 1)[-1]       # the command's one-line error
            return certs.none(f"`--certificate` refused (exit {rc}): {why}"), None
        if (again.get("verdict"), again.get("ratio_upper")) != (doc.get("verdict"), doc.get("ratio_upper")):
            return certs.none(f"the run with --certificate printed {again.get('verdict')}, upper "
                              f"{again.get('ratio_upper')}: not the row's"), None
    cell, _, t_check = certs.adopt(name, path, timed)
    return cell, seconds(timed, t_check)


def main() -> int:
    import numpy as np

    rows = []
    certs = Certifier("structured_ball")
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        tables = {}
        for shape in {c[3] for c in CASES}:
            P = np.full(shape, 1.0)
            P[0, :8] = 40.0
            tables[shape] = str(Path(tmp) / f"phat_{shape[0]}x{shape[1]}.npy")
            np.save(tables[shape], P)
        _run(["audit", "--adapter", "multi-freq-ldpy:GRR_Client", "--param", "k=4", "--param", "epsilon=1",
              "--phat", "1,1;1,1", "--alpha", "2", "--radius", "0.05", "--eps", "1", "--json"])   # warm-up
        for name, adapter, params, shape, eps, cert in CASES:
            argv = ["audit", "--adapter", adapter, *[x for p in params for x in ("--param", p)], "--phat",
                    tables[shape], "--alpha", "2", "--radius", "0.05", "--eps", eps, "--json"]
            cert_path = Path(tmp) / f"{slug(name)}.json"          # the CLI names the certificate after its file
            if cert:
                argv += ["--certificate", str(cert_path)]
            rc, doc, secs = _run(argv)
            lo, hi = doc.get("ratio_lower"), doc.get("ratio_upper")
            width = (f"{float(Fraction(hi) - Fraction(lo)):.1e}" if lo and hi and hi not in ("inf",) else None)
            cell, cert_s = _certificate(certs, name, argv, cert_path, doc, secs if cert else None)
            rows.append([name, f"{shape[0]} x {shape[1]}", eps, doc.get("verdict"), lo and f"{float(Fraction(lo)):.6f}",
                         hi and f"{float(Fraction(hi)):.6f}", width, f"{secs:.2f}", cell, cert_s])
            print(rows[-1], flush=True)
    out = {
        "title": "(eps, F)-RLDP over a Rényi ball at d = 65,536 (|S| x |U| = d): structured routes through the CLI",
        "columns": ["protocol", "|S| x |U|", "claimed eps", "verdict", "ratio lower", "ratio upper",
                    "interval width", "seconds", COLUMN, "certificate s (the CLI run writing it / re-check)"],
        "rows": rows,
        "notes": ["alpha = 2, radius 0.05 around a .npy P-hat of counts (1 everywhere, 40 in eight cells of row 0); "
                  "every ratio is certified (upper end rigorous, lower end the exact ratio of a witness in F); local "
                  "hashing is a certified interval (its upper end max(a/b, b/a) over the library's seed range).",
                  "Wall-clock in one process after a warm-up audit (library import excluded), on the shared 2-core "
                  "machine. The '--certificate' row's seconds include writing the certificate and the CLI's re-check "
                  "of it by rldp_verify_check; the other rows' certificates come from a second run of the same "
                  "command with --certificate, timed apart ('certificate s': that run / the re-check of the file).",
                  certs.note(),
                  "Load average (1, 5, 15 min) at the start: {:.2f} {:.2f} {:.2f}; at the end: {:.2f} {:.2f} "
                  "{:.2f}.".format(*load_before, *os.getloadavg())],
    }
    dest = ROOT / "reports" / "benchmarks" / "structured_ball.json"
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(json.dumps(out, indent=1) + "\n")
    return 0   # a FAILED certificate shows in its row; a non-zero exit would replace the table (run.py)


if __name__ == "__main__":
    raise SystemExit(main())
