"""Redraw Figure 2 of the RLDP paper (reports/figures/rldp_sec8_fig2_adult.png) alone, without the whole
report: runs the Sec. 8.1 adult claims that share the cached runs (proofs/rldp/sec8_adult.py), with the
experiments fanned out over a Dask LocalCluster, writes the figure and prints each claim's verdict.

    python scripts/fig2_adult.py                           # 2 workers, figure into reports/figures/
    python scripts/fig2_adult.py --cache /tmp/runs.pkl     # keep the runs (reused by a second call)
    python scripts/fig2_adult.py --compute-only --cache F  # only the runs (no claims, no figure)

The large pairs' PolyOpt and NR brackets stop on iteration caps (sec8_adult.CG_CAPS), never on time:
the figure is the same on every machine. The cache is a pickle of this script's own runs (trusted input).
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2, help="Dask worker processes (default 2)")
    ap.add_argument("--out", default=str(ROOT / "reports"), help="report directory (figure in OUT/figures/)")
    ap.add_argument("--cache", default=None, help="pickle of the runs: read when it exists, else written")
    ap.add_argument("--compute-only", action="store_true", help="compute (and cache) the runs, draw nothing")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from proofs.rldp import sec8_adult
    from rldp_verify.claims import Context, discover, run_claims
    from rldp_verify.core.distributed import DaskCluster

    cache = Path(args.cache) if args.cache else None
    t0 = time.perf_counter()
    if cache is not None and cache.exists():
        sec8_adult._CACHE.update(pickle.loads(cache.read_bytes()))
    ctx = Context(include_slow=True, out_dir=args.out)
    with DaskCluster(n_workers=args.workers) as cluster:
        ctx.scheduler = cluster.address
        sec8_adult.small_runs(ctx)
        sec8_adult.large_runs(ctx)
    if cache is not None and not cache.exists():
        cache.write_bytes(pickle.dumps({k: sec8_adult._CACHE[k] for k in ("small", "large")}))
    print(f"runs ready in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    if args.compute_only:
        return 0
    claims = [c for c in discover("proofs") if c.module == sec8_adult.__name__ and c.slow]
    for r in run_claims(claims, ctx):
        print(f"{r.verdict.value:<12} {r.claim.id}: {r.summary}", file=sys.stderr)
        print(json.dumps(r.to_json()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
