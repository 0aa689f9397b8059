"""The same report everywhere (issue 9 item 4): run claims in two subprocesses whose BLAS configuration
differs and compare their ``verification.json`` documents up to the ``seconds`` fields.

    python scripts/determinism.py                      # every fast claim (make determinism)
    python scripts/determinism.py --only rldp.thm1 isit.thm4 --out /tmp/det

Configurations (set before numpy is imported, in fresh processes):
    A: OPENBLAS_NUM_THREADS=1, OPENBLAS_CORETYPE=Sandybridge (an older kernel set)
    B: OPENBLAS_NUM_THREADS=2, OPENBLAS_CORETYPE unset (the kernel OpenBLAS picks for this CPU)
Exit status 0 when the two documents agree, 1 otherwise (the differing claims are listed).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CONFIGS = {
    "A": {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "OPENBLAS_CORETYPE": "Sandybridge"},
    "B": {"OPENBLAS_NUM_THREADS": "2", "OMP_NUM_THREADS": "2", "OPENBLAS_CORETYPE": None},
}


def _child(out: str, only: list[str], include_slow: bool, cache_dir: str | None = None) -> None:
    sys.path.insert(0, str(ROOT))
    from rldp_verify import report
    from rldp_verify.claims import Context, discover, run_claims
    from rldp_verify.claims.cache import ResultCache

    claims = discover("proofs")
    if only:
        claims = [c for c in claims if any(c.id.startswith(p) for p in only)]
    ctx = Context(include_slow=include_slow)
    # with a cache, both configurations share it: the BLAS variables are part of every key, so B never reuses A's
    # results (and a second run reuses each configuration's own)
    results = run_claims(claims, ctx, cache=ResultCache(cache_dir) if cache_dir else None)
    env = {"dps": ctx.dps, "seed": ctx.seed, "include_slow": include_slow}
    doc = report.build(results, env)
    Path(out).write_text(json.dumps(doc, indent=1, sort_keys=True))


def strip_seconds(x):
    if isinstance(x, dict):
        # the cache key records the BLAS configuration by design: provenance, not a result
        return {k: strip_seconds(v) for k, v in x.items() if k not in ("seconds", "key")}
    if isinstance(x, list):
        return [strip_seconds(v) for v in x]
    return x


def differences(doc_a: dict, doc_b: dict) -> list[dict]:
    """Claims whose JSON (without ``seconds``) differs, with the first differing key."""
    a = {c["id"]: strip_seconds(c) for c in doc_a["claims"]}
    b = {c["id"]: strip_seconds(c) for c in doc_b["claims"]}
    out = []
    for cid in sorted(set(a) | set(b)):
        if a.get(cid) != b.get(cid):
            ca, cb = a.get(cid) or {}, b.get(cid) or {}
            keys = [k for k in sorted(set(ca) | set(cb)) if ca.get(k) != cb.get(k)]
            out.append({"id": cid, "keys": keys, "A": {k: ca.get(k) for k in keys[:2]},
                        "B": {k: cb.get(k) for k in keys[:2]}})
    if strip_seconds(doc_a.get("summary")) != strip_seconds(doc_b.get("summary")):
        out.append({"id": "(summary)", "keys": ["summary"], "A": doc_a.get("summary"), "B": doc_b.get("summary")})
    return out


def run(only: list[str], outdir: Path, include_slow: bool = False, parallel: bool = True,
        cache_dir: str | None = None) -> list[dict]:
    outdir.mkdir(parents=True, exist_ok=True)
    procs = {}
    for name, cfg in CONFIGS.items():
        env = dict(os.environ)
        for k, v in cfg.items():
            if v is None:
                env.pop(k, None)
            else:
                env[k] = v
        cmd = [sys.executable, str(Path(__file__).resolve()), "--child", str(outdir / f"verification-{name}.json")]
        if only:
            cmd += ["--only", *only]
        if include_slow:
            cmd.append("--include-slow")
        if cache_dir:
            cmd += ["--cache", cache_dir]
        p = subprocess.Popen(cmd, env=env, cwd=str(ROOT))
        if not parallel:
            p.wait()
        procs[name] = p
    for name, p in procs.items():
        if p.wait() != 0:
            raise SystemExit(f"determinism: configuration {name} failed (exit {p.returncode})")
    docs = {n: json.loads((outdir / f"verification-{n}.json").read_text()) for n in CONFIGS}
    return differences(docs["A"], docs["B"])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="*", default=[], help="claim id prefixes (default: every fast claim)")
    ap.add_argument("--out", default=None, help="directory for the two verification-*.json documents")
    ap.add_argument("--include-slow", action="store_true")
    ap.add_argument("--sequential", action="store_true", help="run the two configurations one after the other")
    ap.add_argument("--cache", default=None, metavar="DIR",
                    help="run the claims with the result cache in DIR, shared by both configurations")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        _child(args.child, args.only, args.include_slow, args.cache)
        return 0
    outdir = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="rldp-determinism-"))
    diffs = run(args.only, outdir, args.include_slow, parallel=not args.sequential, cache_dir=args.cache)
    n = len(json.loads((outdir / "verification-A.json").read_text())["claims"])
    if diffs:
        print(f"determinism: {len(diffs)} of {n} claims differ between BLAS configurations A and B "
              f"({outdir}):")
        for d in diffs:
            print(f"  {d['id']}: {', '.join(d['keys'])}\n    A: {json.dumps(d['A'])[:300]}\n    B: {json.dumps(d['B'])[:300]}")
        return 1
    print(f"determinism: {n} claims, identical verification.json (up to 'seconds') under configurations "
          f"A {CONFIGS['A']} and B {CONFIGS['B']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
