"""``rldp-verify reference``: certified reference values of a quantity over a grid, as CSV or JSON.

    rldp-verify reference B_s --grid default --format csv --dps 30 -o B_s.csv
    rldp-verify reference L --grid my_points.csv --format json

Each row holds the inputs (exact, as written), ``value`` (``--dps`` significant digits) and ``error`` (a
certified upper bound on |value - true value|). Provenance: package version, dps, seconds, the formula,
and the claims that check it (resolved in the claim registry and run now unless ``--no-check-claims``).
CSV puts the provenance in leading ``#`` comment lines; matrices are written as 'a,b;c,d'.
"""

from __future__ import annotations

import csv
import io
import json
import sys

from rldp_verify.cli._help import int_option
from rldp_verify.core.errors import InputError


def register(sub):
    """Register ``rldp-verify reference QUANTITY`` (certified reference values over a grid)."""
    from rldp_verify.reference import QUANTITIES

    p = sub.add_parser("reference", help="certified reference values of a quantity over a grid (CSV/JSON)")
    p.add_argument("quantity", help="one of: " + ", ".join(QUANTITIES))
    p.add_argument("--grid", default="default", help="'default' or a CSV/JSON file of points (header = input names)")
    p.add_argument("--format", default="csv", help="csv or json (default csv)")
    p.add_argument("--dps", default="30", help="significant digits of the values (default 30)")
    p.add_argument("-o", "--output", default="-", help="output file (default: stdout)")
    p.add_argument("--workers", default=None, help="processes (default: the number of cores)")
    p.add_argument("--proofs", default="proofs", help="package holding the claims (default: proofs)")
    p.add_argument("--no-check-claims", action="store_true", help="list the claims without running their checks")
    p.add_argument("--quiet", action="store_true",
                   help="no progress on stderr (otherwise shown when stderr is a terminal: grid points, "
                   "n/total, ETA)")
    p.add_argument("--list", action="store_true", help="print the quantity's formula and inputs and exit")
    p.set_defaults(func=run)


def run(args) -> int:
    """Run ``rldp-verify reference``: evaluate the quantity over the grid and write CSV or JSON with provenance."""
    from rldp_verify import reference
    from rldp_verify.reference import provenance

    qty = reference.quantity(args.quantity)
    if args.list:
        print(f"{qty.name}: {qty.formula}")
        for i in qty.inputs:
            print(f"  {i.name}: {i.help}")
        return 0
    fmt = str(args.format).lower()
    if fmt not in ("csv", "json"):
        raise InputError(f"--format must be csv or json, got {args.format!r}")
    dps = int_option(args.dps, "--dps", 5, 1000)
    workers = None if args.workers is None else int_option(args.workers, "--workers", 1, 256)
    points = reference.default_grid(qty.name) if args.grid == "default" else reference.read_grid(qty.name, args.grid)
    claims = provenance.resolve(qty.name, package=args.proofs, run=not args.no_check_claims)
    doc = reference.table(qty.name, points, dps=dps, workers=workers, progress=not args.quiet, claims=claims)
    text = json.dumps(doc, indent=1) + "\n" if fmt == "json" else _csv(doc)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as fh:
            fh.write(text)
    return 0


def _csv(doc) -> str:
    buf = io.StringIO()
    prov = doc["provenance"]
    buf.write(f"# rldp-verify {prov['version']} reference table: {doc['quantity']}\n")
    buf.write(f"# formula: {doc['formula']}\n")
    buf.write(f"# dps: {prov['dps']}; points: {prov['points']}; seconds: {prov['seconds']}\n")
    buf.write(f"# error: {prov['error']}\n")
    for c in prov["claims"]:
        v = c.get("verdict") or f"not run; pinned {c.get('pinned_verdict')}"
        buf.write(f"# claim {c['id']} [{v}] ({c['paper']}, {c['source']})\n")
    rows = doc["rows"]
    w = csv.writer(buf, lineterminator="\n")
    cols = list(rows[0]) if rows else []
    w.writerow(cols)
    for r in rows:
        w.writerow([_cell(r[c]) for c in cols])
    return buf.getvalue()


def _cell(v):
    if isinstance(v, list):
        return ";".join(",".join(row) for row in v)
    return v
