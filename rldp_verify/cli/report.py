"""``rldp-verify report``: run every registered claim and write reports/verification.{md,json,html}."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from rldp_verify.core.numbers import DEFAULT_DPS


def register(sub):
    p = sub.add_parser("report", help="check every claim of the papers and write the verification report")
    p.add_argument("--out", default="reports", help="output directory (default: reports)")
    p.add_argument("--proofs", default="proofs", help="package holding the claims (default: proofs)")
    p.add_argument("--include-slow", action="store_true", help="also run the slow, exhaustive claims")
    p.add_argument("--only", default=None, help="run only claims whose id starts with this prefix")
    p.add_argument("--dps", type=int, default=DEFAULT_DPS, help=f"working precision in digits (default {DEFAULT_DPS})")
    p.add_argument("--seed", type=int, default=20240306)
    p.add_argument("--quiet", action="store_true")
    p.add_argument("--from-json", action="store_true",
                   help="re-render verification.md/.html from OUT/verification.json with fresh benchmark tables, "
                        "without re-running the claims")
    p.set_defaults(func=run)


def run(args) -> int:
    from rldp_verify import report
    from rldp_verify.claims import Context, discover, run_claims
    from rldp_verify.core.errors import InputError

    if args.from_json:
        import json

        out = Path(args.out)
        try:
            doc = json.loads((out / "verification.json").read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise InputError(f"cannot read {str(out / 'verification.json')!r}: {exc}") from None
        doc["benchmarks"] = report.load_benchmarks(out / "benchmarks")
        paths = report.write(doc, out)
        print("report re-rendered -> " + ", ".join(map(str, paths)))
        return 0
    if args.dps < 5:
        raise InputError(f"--dps must be at least 5, got {args.dps}")
    if str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    claims = discover(args.proofs)
    if args.only:
        claims = [c for c in claims if c.id.startswith(args.only)]
    ctx = Context(dps=args.dps, seed=args.seed, include_slow=args.include_slow)

    def progress(r):
        if not args.quiet:
            print(f"{r.verdict.value:<12} {r.seconds:7.2f}s  {r.claim.id}", flush=True)

    results = run_claims(claims, ctx, progress=progress)
    out = Path(args.out)
    try:
        titles = importlib.import_module(f"{args.proofs}.papers").titles()
    except ImportError:
        titles = {}
    doc = report.build(results, report.environment(args.dps, args.seed, args.include_slow),
                       report.load_benchmarks(out / "benchmarks"), titles)
    paths = report.write(doc, out)
    s = doc["summary"]
    print("report: " + ", ".join(f"{k} {v}" for k, v in s.items()) + " -> " + ", ".join(map(str, paths)))
    return 0
