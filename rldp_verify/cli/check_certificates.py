"""``rldp-verify check-certificates DIR|FILE ...``: re-check certificates with the independent checker.

The checker is :mod:`rldp_verify_check` (it imports nothing from rldp_verify); this command only finds the
files and prints its answers: one line per certificate, then a summary line.  Exit codes: 0 every
certificate re-checked, 1 a certificate failed (or none was found), 2 bad input.
"""

from __future__ import annotations

import sys
from pathlib import Path

from rldp_verify.cli._help import add_parser
from rldp_verify.core.errors import InputError


def register(sub):
    """Register ``rldp-verify check-certificates``."""
    p = add_parser(
        sub, "check-certificates", help="re-check certificates with the independent checker (rldp_verify_check)",
        description="Re-check certificates (JSON files written by `audit --certificate FILE`, or any file or\n"
                    "directory of them) with rldp_verify_check, a checker that imports nothing from the engine:\n"
                    "each conclusion is re-derived from the raw data (LP duality, vertices with facets and Farkas\n"
                    "multipliers, arb evaluation of expressions, the audit's dual bound and witness).  One line\n"
                    "per certificate ('OK' or 'FAIL', its kind, name and what was proved or why not), then a\n"
                    "summary.  The same check without rldp-verify: python -m rldp_verify_check DIR|FILE.",
        examples=["rldp-verify audit mech.json --eps 1 --ldp --certificate cert.json; "
                  "rldp-verify check-certificates cert.json",
                  "rldp-verify check-certificates reports/certificates",
                  "cat cert.json | rldp-verify check-certificates -             # '-': standard input"],
        exit_codes={0: "every certificate re-checked", 1: "a certificate failed, or no certificate was found"})
    p.add_argument("paths", nargs="+", help="certificate files (JSON: one certificate or a list) or directories; "
                   "'-': one such JSON document from standard input")
    p.set_defaults(func=run)


def run(args) -> int:
    """Check every certificate under ``args.paths``; print one line each and a summary."""
    from rldp_verify_check import check_path

    if args.paths.count("-") > 1:
        raise InputError("'-' (standard input) given more than once")
    for p in args.paths:
        if p != "-" and not Path(p).exists():
            raise InputError(f"no such file or directory: {p!r}")
    results = [r for p in args.paths for r in (_check_stdin() if p == "-" else check_path(p))]
    for r in results:
        print(r.line())
    bad = sum(not r.ok for r in results)
    print(f"{len(results)} certificates, {len(results) - bad} re-checked, {bad} failed")
    if not results:
        sys.stderr.write("rldp-verify: no certificate found\n")
    return 1 if bad or not results else 0


def _check_stdin() -> list:
    """The certificates of one JSON document on standard input (one certificate or a list), checked as
    ``check_path`` checks a file: a JSON float or unparsable text is one failed, unreadable entry."""
    import json

    from rldp_verify_check import Checked, check

    def no_float(s: str):
        raise ValueError(f"JSON float {s} in a certificate (numbers must be exact)")

    try:
        docs = json.loads(sys.stdin.read(), parse_float=no_float, parse_constant=no_float)
    except ValueError as exc:
        return [Checked("<stdin>", "?", False, f"unreadable: {exc}")]
    return [check(d) for d in (docs if isinstance(docs, list) else [docs])]
