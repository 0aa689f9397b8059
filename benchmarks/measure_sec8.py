#!/usr/bin/env python3
"""Wall time and peak memory of the RLDP paper's Sec. 8-9 claims at the paper's scale (100 runs per
setting), their experiments fanned out over Dask. Writes reports/benchmarks/sec8_scale.json.

Usage: python benchmarks/measure_sec8.py [--workers N | --scheduler ADDRESS] [--out DIR]

Not run by benchmarks/run.py (``make report`` runs these claims itself, as slow claims): this script
is the measurement of that part of the report on its own. Peak memory is the largest sum of the
resident set sizes of this process and its children (the LocalCluster's workers), sampled every
0.5 s; with --scheduler the remote workers are not counted.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


class PeakRSS(threading.Thread):
    def __init__(self):
        super().__init__(daemon=True)
        self.peak = 0
        self.stop = threading.Event()

    def run(self):
        import psutil

        me = psutil.Process()
        while not self.stop.is_set():
            total = 0
            for p in [me, *me.children(recursive=True)]:
                with contextlib.suppress(psutil.Error):
                    total += p.memory_info().rss
            self.peak = max(self.peak, total)
            self.stop.wait(0.5)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--scheduler", default=None)
    ap.add_argument("--out", default=str(ROOT / "reports"))
    ap.add_argument("--prefixes", default="rldp.sec8,rldp.sec9")
    ap.add_argument("--results", default=None, help="also write the claims' full results (JSON) here")
    args = ap.parse_args()
    os.chdir(ROOT)
    from rldp_verify.claims import Context, discover, run_claims
    from rldp_verify.core.distributed import DaskCluster

    claims = [c for c in discover("proofs") if c.id.startswith(tuple(args.prefixes.split(",")))]
    ctx = Context(include_slow=True)
    if hasattr(ctx, "out_dir"):
        ctx.out_dir = args.out
    load0 = os.getloadavg()
    mon = PeakRSS()
    mon.start()
    t0 = time.perf_counter()
    rows, results = [], []
    with DaskCluster(args.scheduler, n_workers=args.workers) as cl:
        ctx.scheduler = cl.address
        for r in run_claims(claims, ctx, progress=lambda r: print(f"{r.verdict.value:<12} {r.seconds:8.1f}s "
                                                                   f"{r.claim.id}", flush=True)):
            results.append(r.to_json())
            rows.append([r.claim.id, r.verdict.value, round(r.seconds, 1), "yes" if r.claim.slow else "no"])
    wall = time.perf_counter() - t0
    mon.stop.set()
    mon.join()
    load1 = os.getloadavg()
    doc = {
        "title": "Sec. 8-9 claims at the paper's scale (100 runs per setting), experiments on Dask",
        "columns": ["claim", "verdict", "seconds", "slow"],
        "rows": rows,
        "notes": [
            f"total wall time {wall:.0f} s ({wall / 60:.1f} min) for {len(rows)} claims; peak memory {mon.peak / 2**30:.2f} GiB "
            f"(resident set of this process and its Dask worker processes, sampled every 0.5 s)",
            f"Dask: {'scheduler ' + args.scheduler if args.scheduler else f'LocalCluster of {args.workers} worker processes, one thread each'}; "
            f"claims run one after another, each claim's runs fan out over the workers",
            f"machine: {os.cpu_count()} cores shared with other jobs; load average (1 min) {load0[0]:.1f} at the start, "
            f"{load1[0]:.1f} at the end: the wall time is inflated by that load",
            "the first claim of the group pays for the shared runs (cached for the others)",
        ],
        "wall_seconds": round(wall, 1),
        "peak_rss_bytes": mon.peak,
    }
    out = ROOT / "reports" / "benchmarks"
    out.mkdir(parents=True, exist_ok=True)
    (out / "sec8_scale.json").write_text(json.dumps(doc, indent=1) + "\n")
    if args.results:
        Path(args.results).write_text(json.dumps(results, indent=1) + "\n")
    print(doc["notes"][0])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
