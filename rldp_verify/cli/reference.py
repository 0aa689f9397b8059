"""``rldp-verify reference``: certified reference values of a quantity over a grid, as CSV or JSON.

    rldp-verify reference B_s --grid default --format csv --dps 30 -o B_s.csv
    rldp-verify reference L --grid my_points.csv --format json
    cat points.csv | rldp-verify reference B --grid - --format json

Each row holds the inputs (exact, as written), ``value`` (``--dps`` significant digits) and ``error`` (a
certified upper bound on |value - true value|). Provenance: package version, dps, seconds, the formula,
and the claims that check it (resolved in the claim registry and run now unless ``--no-check-claims``).
CSV puts the provenance in leading ``#`` comment lines; matrices are written as 'a,b;c,d'. JSON carries
``"schema_version"`` and ``"digits"`` like every other output (schema ``reference``); ``--grid -`` reads
the points from standard input. The time spent checking the claims is ``provenance.claims_seconds``
(``provenance.seconds`` is the grid's own evaluation).
"""

from __future__ import annotations

import csv
import io
import json
import sys
import time

from rldp_verify.cli._help import add_parser, int_option
from rldp_verify.core.errors import InputError

SCHEMA_VERSION = 1


def register(sub):
    """Register ``rldp-verify reference QUANTITY`` (certified reference values over a grid)."""
    from rldp_verify.reference import QUANTITIES

    p = add_parser(
        sub, "reference", help="certified reference values of a quantity over a grid (CSV/JSON)",
        description="Certified reference values of a quantity over a grid of points, as CSV or JSON with their "
                    "provenance\n(version, precision, the formula, the claims of the papers that check it, run now "
                    "unless --no-check-claims).\nEach row: the inputs as written, 'value' (--dps significant digits) "
                    "and 'error' (a certified bound on |value - true|).",
        examples=["rldp-verify reference B_s --grid default -o B_s.csv          # the default grid, CSV",
                  "rldp-verify reference B --list                               # formula and inputs",
                  "printf 'alpha,confidence,n,a\\n2,0.95,100,4\\n' | rldp-verify reference B --grid - --format json",
                  "rldp-verify reference L --grid points.json --format json --dps 40 --no-check-claims"],
        exit_codes={0: "the table was written (the claims' verdicts are in its provenance)"})
    p.add_argument("quantity", help="one of: " + ", ".join(QUANTITIES))
    p.add_argument("--grid", default="default",
                   help="'default', a CSV/JSON file of points (header = input names), or '-' for standard input")
    p.add_argument("--format", default="csv", help="csv or json (default csv)")
    p.add_argument("--dps", default="30", help="significant digits of the values (default 30)")
    p.add_argument("-o", "--output", default="-", help="output file (default: stdout)")
    p.add_argument("--workers", default=None, help="processes (default: the number of cores)")
    from rldp_verify.claims.catalogue import DEFAULT_SOURCE

    p.add_argument("--proofs", default=DEFAULT_SOURCE, help=f"package holding the claims (default: {DEFAULT_SOURCE})")
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
    _check_writable(args.output)  # before the grid and the claims run (they can take a while)
    if args.grid == "default":
        points = reference.default_grid(qty.name)
    elif args.grid == "-":
        points = _grid_from_stdin(reference, qty.name)
    else:
        points = reference.read_grid(qty.name, args.grid)
    t0 = time.perf_counter()
    if not args.no_check_claims and not args.quiet and sys.stderr.isatty():
        sys.stderr.write(f"checking the claims behind {qty.name} (--no-check-claims skips this)...\r")
        sys.stderr.flush()
    claims = provenance.resolve(qty.name, package=args.proofs, run=not args.no_check_claims)
    claims_seconds = time.perf_counter() - t0
    doc = reference.table(qty.name, points, dps=dps, workers=workers, progress=not args.quiet, claims=claims)
    doc["provenance"]["claims_seconds"] = round(claims_seconds, 3)
    doc = {"schema_version": SCHEMA_VERSION, "digits": dps, **doc}
    text = json.dumps(doc, indent=1) + "\n" if fmt == "json" else _csv(doc)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        try:
            with open(args.output, "w") as fh:
                fh.write(text)
        except OSError as exc:
            raise InputError(f"cannot write {args.output!r}: {exc.strerror}") from None
    return 0


def _check_writable(output: str) -> None:
    """``-o FILE`` must be writable: one line naming it, before any work (not 'cannot read' at the end)."""
    import os

    if output == "-":
        return
    parent = os.path.dirname(os.path.abspath(output))
    if os.path.isdir(output):
        raise InputError(f"cannot write {output!r}: it is a directory")
    if not os.path.isdir(parent):
        raise InputError(f"cannot write {output!r}: no such directory {parent!r}")
    if not os.access(parent, os.W_OK) or (os.path.exists(output) and not os.access(output, os.W_OK)):
        raise InputError(f"cannot write {output!r}: permission denied")


def _csv(doc) -> str:
    buf = io.StringIO()
    prov = doc["provenance"]
    buf.write(f"# rldp-verify {prov['version']} reference table: {doc['quantity']}\n")
    buf.write(f"# formula: {doc['formula']}\n")
    buf.write(f"# dps: {prov['dps']}; points: {prov['points']}; seconds: {prov['seconds']} "
              f"({'checking' if any(c.get('verdict') for c in prov['claims']) else 'finding'} the claims: "
              f"{prov.get('claims_seconds', 0)} s more)\n")
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


def _grid_from_stdin(reference, name: str) -> list[dict]:
    """Grid points read from standard input (CSV or JSON, as a file), errors naming <stdin>."""
    import os
    import tempfile

    text = sys.stdin.read()
    suffix = ".json" if text.lstrip().startswith(("[", "{")) else ".csv"
    fd, path = tempfile.mkstemp(prefix="rldp-grid-", suffix=suffix)
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        return reference.read_grid(name, path)
    except InputError as exc:
        raise InputError(str(exc).replace(repr(path), "<stdin>").replace(path, "<stdin>")) from None
    finally:
        os.unlink(path)


def _cell(v):
    if isinstance(v, list):
        return ";".join(",".join(row) for row in v)
    return v
