#!/usr/bin/env python3
"""Benchmark: the red team's audit inputs of issue 25 (../shared/data/redteam, its README), each through the
command line as a user runs it.

Each case runs ``rldp-verify audit ... --json --quiet`` in a fresh process (default --time-limit 60 s).
Columns: the case, exit code (0 PASS, 1 FAIL, 3 INCONCLUSIVE, 2 bad input, 4 internal error), verdict,
[ratio_lower, ratio_upper] (12 digits), wall-clock and CPU seconds of the process, peak RSS of the process (MB), whether stderr held a
traceback or a warning. What happened before the fix is in the README's brackets (e.g. OverflowError
tracebacks with exit 1, minutes).

Wall-clock seconds on the shared 2-core machine (other jobs running).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._certificates import COLUMN, Certifier, seconds, slug  # noqa: E402

D = ROOT.parent / "shared" / "data" / "redteam"
P = "0.1,0.2;0.3,0.4"

#: wall-clock limit of the second, certificate-writing process of a case (the audit alone has --time-limit 60 s)
CERT_SECONDS = int(os.environ.get("BENCH_CERT_SECONDS", "60"))

CHILD = ("import resource, sys; from rldp_verify.cli import main; code = main(sys.argv[1:]); "
         "ru = resource.getrusage(resource.RUSAGE_SELF); "
         "sys.stderr.write('\\nMAXRSS %d %.3f\\n' % (ru.ru_maxrss, ru.ru_utime + ru.ru_stime)); sys.exit(code)")


def cases():
    """(name, arguments after ``audit``, what the README says happened before)."""
    l7 = ";".join(",".join(r) for r in json.loads((D / "L7.phat.json").read_text()))
    big = (D / "big240x1.phat").read_text().strip()
    ok = str(D / "ok.json")
    out = [
        ("alpha 1e400", [ok, "--eps", "1", "--phat", P, "--alpha", "1e400", "--radius", "0.1"], "OverflowError, exit 1"),
        ("radius 1e400", [ok, "--eps", "1", "--phat", P, "--alpha", "2", "--radius", "1e400"], "OverflowError, exit 1"),
        ("alpha 1e-400", [ok, "--eps", "1", "--phat", P, "--alpha", "1e-400", "--radius", "0.1"], "OverflowError, exit 1"),
        ("alpha 1e-300", [ok, "--eps", "1", "--phat", P, "--alpha", "1e-300", "--radius", "0.1"], "RuntimeWarning"),
        ("alpha 1e308", [ok, "--eps", "1", "--phat", P, "--alpha", "1e308", "--radius", "0.1"], "> 120 s"),
        ("eps 1e400 (LDP)", [ok, "--eps", "1e400", "--ldp"], "INCONCLUSIVE though lo = hi"),
        ("X8 alpha 3/2 radius 2000", [str(D / "X8.json"), "--eps", "1.1391964703845507", "--phat",
                                      "257/1974,61/329,311/1316,23/564;757/3948,25/658,265/3948,109/987", "--alpha",
                                      "3/2", "--radius", "2000"], "OverflowError, exit 1"),
        ("1e-300 block, alpha 2", [str(D / "z2x2.json"), "--eps", "1", "--phat", "1,1;1e300,1e300", "--alpha", "2",
                                   "--radius", "1"], "OverflowError, exit 1"),
        ("1e-300 block, alpha 3/2", [str(D / "z2x2.json"), "--eps", "1", "--phat", "1e300,1e300;1,1", "--alpha",
                                     "3/2", "--radius", "1"], "OverflowError, exit 1"),
        ("alpha 3 radius 2000", [str(D / "a.json"), "--eps", "1", "--phat", P, "--alpha", "3", "--radius", "2000"],
         "82-111 s"),
        ("R25 alpha 100 radius 0.5", [str(D / "R25.json"), "--eps", "1.3596309589341335", "--phat",
                                      "529/2724,923/2724;247/908,177/908", "--alpha", "100", "--radius", "0.5"],
         "46 s; witness 9.2e-26 outside F"),
        ("R26 4x2 alpha 10 radius 10", [str(D / "R26.json"), "--eps", "1.6771618560859356", "--phat",
                                        "536/4701,527/4701;288/1567,929/4701;574/4701,263/4701;320/4701,688/4701",
                                        "--alpha", "10", "--radius", "10"], "23 s"),
        ("X1 alpha 10 radius 1e5 zeros", [str(D / "X1.json"), "--eps", "1.6943573748081344", "--phat",
                                          "973/3456,143/3456,271/1152,899/3456;263/3456,365/3456,0,0", "--alpha", "10",
                                          "--radius", "1e5"], "> 180 s"),
        ("Z2 zero block alpha 10 radius 3", [str(D / "Z2.json"), "--eps", "1.3812453574145074", "--phat",
                                             "1000/4063,42/239,907/4063;0,0,0;520/4063,836/4063,86/4063", "--alpha",
                                             "10", "--radius", "3"], "37 s"),
        ("L7 4x60 alpha 100 zeros", [str(D / "L7.json"), "--eps", "1.6916049842423235", "--phat", l7, "--alpha",
                                     "100", "--radius", "0.1"], "> 150 s"),
        ("240x1, 24 outputs", [str(D / "big240x1y24.json"), "--eps", "3", "--phat", big, "--alpha", "2", "--radius",
                               "0.5"], "16.7 s, 1.63 GB"),
    ]
    for B in ("50", "200", "2000", "1e5"):
        out.append((f"a.json eps 4 radius {B}", [str(D / "a.json"), "--eps", "4", "--phat", P, "--alpha", "2",
                                                "--radius", B], "3.07 from 200 on; ZeroDivisionError"))
    return out


def _short(x):
    """A decimal string of the JSON shortened to 12 significant digits (the ends can exceed float64's range)."""
    if x is None or len(x) <= 16 or x == "inf":
        return x
    return f"{Decimal(x):.11e}"


def run_case(args, extra=(), timeout=None):
    """One case's process (``extra``: more arguments; ``timeout``: seconds, then subprocess.TimeoutExpired)."""
    t0 = time.perf_counter()
    # the environment a user runs in: benchmarks/run.py runs this script in a Dask worker, whose
    # MALLOC_TRIM_THRESHOLD_=65536 (set by Dask for its workers) made the 240x1 case spend 7.5 s in the kernel
    # (11.1 s instead of 3.1 s)
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_TRIM_THRESHOLD_"}
    proc = subprocess.run([sys.executable, "-c", CHILD, "audit", *args, "--json", "--quiet", *extra], cwd=ROOT,
                          capture_output=True, text=True, env=env, timeout=timeout)
    dt = time.perf_counter() - t0
    err = proc.stderr
    rss = cpu = None
    for line in err.splitlines():
        if line.startswith("MAXRSS "):
            rss, cpu = int(line.split()[1]) / 1024, float(line.split()[2])
    err = "\n".join(line for line in err.splitlines() if line.strip() and not line.startswith("MAXRSS "))
    try:
        doc = json.loads(proc.stdout)
    except ValueError:
        doc = {}
    return {"exit": proc.returncode, "verdict": doc.get("verdict"),
            "interval": [_short(doc.get("ratio_lower")), _short(doc.get("ratio_upper"))],
            "seconds": round(dt, 2), "cpu_seconds": None if cpu is None else round(cpu, 2), "peak_rss_mb": None if rss is None else round(rss),
            "traceback": "Traceback" in err, "warning": "Warning" in err, "stderr": err[-300:]}


def certify_case(certs: Certifier, name: str, args, first: dict) -> tuple[str, str | None]:
    """The case's certificate: a second process of the same command with ``--certificate FILE`` (the timed run
    above has none, so its seconds keep their meaning), the file re-checked by rldp_verify_check from the table's
    directory (:mod:`benchmarks._certificates`). (cell, "seconds of that process / of the re-check")."""
    if first["exit"] not in (0, 1, 3):
        return certs.none(f"no audit verdict (exit {first['exit']})"), None
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{slug(name)}.json"               # the CLI names the certificate after its file
        try:
            r = run_case(args, ("--certificate", str(path)), timeout=CERT_SECONDS)
        except subprocess.TimeoutExpired:
            return certs.none(f"`--certificate` did not finish within {CERT_SECONDS} s (stopped; building and "
                              "re-checking it: the builder's candidate search, or the check of every pair)"), None
        if r["exit"] not in (0, 1, 3) or not path.is_file():
            why = r["stderr"].strip().splitlines()[-1] if r["stderr"].strip() else f"exit {r['exit']}"
            return certs.none(f"`--certificate` wrote none (exit {r['exit']}): {why}"), None
        cell, _, t_check = certs.adopt(name, path)
    if (r["verdict"], r["interval"]) != (first["verdict"], first["interval"]):   # a time limit can cut a run short
        cell += f"; of a second run that printed {r['verdict']} {r['interval']}"
    return cell, seconds(r["seconds"], t_check)


def main(argv=None) -> int:
    """Run every case (``--only TEXT``: only the cases whose name contains TEXT, printed and, with ``--out``,
    written there instead of reports/benchmarks/audit_redteam.json)."""
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="run only the cases whose name contains this text")
    ap.add_argument("--out", help="write the table here (default: reports/benchmarks/audit_redteam.json; with "
                                  "--only: not written)")
    args = ap.parse_args(argv)
    rows = []
    certs = Certifier("audit_redteam")
    if not D.is_dir():
        notes = [f"{D} not found: no rows"]
    else:
        for name, cargs, before in cases():
            if args.only and args.only not in name:
                continue
            r = run_case(cargs)
            cert, cert_s = certify_case(certs, name, cargs, r)
            rows.append([name, r["exit"], r["verdict"], r["interval"], r["seconds"], r["cpu_seconds"], r["peak_rss_mb"],
                         r["traceback"], r["warning"], before, r["stderr"], cert, cert_s])
            print(f"{name}: exit {r['exit']} {r['verdict']} {r['interval']} {r['seconds']} s "
                  f"({r['cpu_seconds']} s CPU) {r['peak_rss_mb']} MB; certificate: {cert} ({cert_s})", file=sys.stderr)
        notes = [f"max wall seconds {max(r[4] for r in rows):.1f}, max CPU seconds {max(r[5] or 0 for r in rows):.1f}, "
                 f"max peak RSS {max(r[6] or 0 for r in rows)} MB, tracebacks {sum(r[7] for r in rows)}, "
                 f"warnings {sum(r[8] for r in rows)}",
                 "Each case is one `rldp-verify audit ... --json --quiet` process with the default --time-limit 60 s.",
                 "Wall-clock seconds on the shared 2-core machine with other jobs running (noisy); each process "
                 "runs without the MALLOC_TRIM_THRESHOLD_ that Dask sets in benchmarks/run.py's worker (it had "
                 "tripled the 240x1 case's time in the kernel).",
                 "certificate: a second `rldp-verify audit ... --json --quiet --certificate FILE` process per case "
                 "(the timed run has no --certificate); 'certificate s': that process's wall-clock (the audit again, "
                 "building, writing and the CLI's own re-check) / the re-check of the file. " + certs.note()]
    out = {"title": "Red-team audit inputs of issue 25 (../shared/data/redteam)",
           "columns": ["case", "exit code", "verdict", "[lower, upper]", "seconds", "CPU seconds", "peak RSS MB",
                       "traceback",
                       "warning", "before (README)", "stderr", COLUMN, "certificate s (CLI run / re-check)"],
           "rows": rows, "notes": notes}
    dest = Path(args.out) if args.out else None if args.only else ROOT / "reports" / "benchmarks" / "audit_redteam.json"
    if dest is None:
        return 0
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(json.dumps(out, indent=1) + "\n")
    return 0   # a FAILED certificate shows in its row; a non-zero exit would replace the table (run.py)


if __name__ == "__main__":
    raise SystemExit(main())
