"""``rldp-verify audit``: certified (eps, F)-RLDP / eps-LDP audit of a mechanism JSON file.

Exit codes: 0 PASS, 1 FAIL, 3 INCONCLUSIVE (also when --time-limit is reached first), 2 bad input,
4 internal error (an exception of the audit itself: one line on stderr, never a traceback).
"""

from __future__ import annotations

import json
import sys

from rldp_verify.cli._adapter import add_adapter_arguments, mechanism_from_args
from rldp_verify.cli._help import add_parser
from rldp_verify.cli._json import SCHEMA_VERSION, dumps
from rldp_verify.cli._uncertainty import (
    add_ball_arguments,
    add_estimate_arguments,
    build_ball,
    has_estimate,
    read_estimate,
    uses_ball,
)
from rldp_verify.core.errors import CertificationError, InputError
from rldp_verify.core.numbers import DEFAULT_DPS

EXIT = {"PASS": 0, "FAIL": 1, "INCONCLUSIVE": 3}
EXIT_INTERNAL_ERROR = 4
DEFAULT_TIME_LIMIT = 60


def register(sub):
    """Register ``rldp-verify audit`` (certified (eps, F)-RLDP / eps-LDP audit of a mechanism)."""
    p = add_parser(
        sub, "audit", help="certified audit of (eps, F)-RLDP (Definition 1) or eps-LDP for a mechanism",
        description="Certified audit of a mechanism: the worst ratio sup P(y|s)/P(y|s') over P in F as an "
                    "interval [lower, upper]\n(lower attained by a witness in F, upper certified in arb), and "
                    "PASS (upper <= e^eps), FAIL (lower > e^eps)\nor INCONCLUSIVE. F is a Rényi ball (--phat or "
                    "--data with --alpha and --radius or --confidence),\nthe whole simplex (--full-simplex), a "
                    "single distribution (--distribution), or --ldp for eps-LDP.",
        examples=['rldp-verify audit mech.json --eps "log(2)" --phat "0.07,0.10;0.26,0.57" --alpha 2 '
                  '--confidence 0.95 --samples 100',
                  "rldp-verify audit mech.json --eps 1 --full-simplex --json",
                  'rldp-verify audit mech.json --eps 1 --distribution "0.1,0.1;0.2,0.6"',
                  'rldp-verify mechanism grr --eps 0.5 --phat "7,10;26,57" | rldp-verify audit - --eps 0.5 --ldp'],
        exit_codes={0: "PASS", 1: "FAIL (with a witness)",
                    3: "INCONCLUSIVE (after raising the precision to --max-dps, or at --time-limit: the interval "
                       "reached so far)",
                    4: "internal error of the audit (one line 'rldp-verify: internal error: ...'; please report it)"})
    p.add_argument("mechanism", nargs="?",
                   help="mechanism JSON file (the format of `rldp-verify mechanism`; '-': stdin)")
    p.add_argument("--eps", required=True, help="target eps >= 0 (a number, or log(r) for e^eps = r exactly)")
    g = p.add_argument_group("uncertainty set (choose one)")
    add_estimate_arguments(g)
    g.add_argument("--full-simplex", action="store_true", help="F = P_X (Proposition 3)")
    g.add_argument("--distribution", help="F = {P}: a single distribution 'a,b;c,d' (e.g. P* for eq. (62)), or a "
                   "file: .json (nested list), .csv (one row of S per line), .npy (2-D array). With --adapter, "
                   "input x = s |U| + u of the library's domain; for a multi-attribute one (RS+FD: "
                   "RSpFD_GRR_Client, RSpFD_UE_zero_Client, RSpFD_UE_rnd_Client) tuples are indexed lexicographically, "
                   "S = the first attributes (their sizes multiply to |S|), U = the others")
    g.add_argument("--ldp", action="store_true", help="eps-LDP of the matrix (Definition 2)")
    add_ball_arguments(p.add_argument_group("Rényi ball (with --phat or --data)"))
    p.add_argument("--dps", type=int, default=DEFAULT_DPS, help=f"starting precision in digits (default {DEFAULT_DPS})")
    p.add_argument("--max-dps", type=int, default=None, help="precision limit for INCONCLUSIVE (default 4x --dps)")
    p.add_argument("--normalize", action="store_true", help="rescale columns that do not sum to 1 (reported)")
    p.add_argument("--time-limit", type=_seconds, default=DEFAULT_TIME_LIMIT, metavar="SECONDS",
                   help=f"wall-clock limit of the Rényi-ball audit (default {DEFAULT_TIME_LIMIT}); when it is "
                   "reached the verdict is taken from the interval certified so far (INCONCLUSIVE unless it "
                   "decides). It is checked between steps (each pair, precision round, root-search evaluation, "
                   "bisection step, witness rounding, grid round); one step is not interrupted: a single arb or "
                   "mpmath evaluation, the float screen's tables, the exact ratio at P-hat and Proposition 3's "
                   "bound over the pairs left run to completion, so the audit can end later than the limit "
                   "(about 0.5 s for 240 x 1 with 24 outputs); reading the input and starting Python are "
                   "not counted")
    p.add_argument("--no-screen", action="store_true", help="certify every (y, s, s') in arb (no float screen)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--certificate", metavar="FILE", help="also write a certificate of the verdict to FILE "
                   "(raw data: witness, dual parameters; re-check with `rldp-verify check-certificates FILE`)")
    p.add_argument("--quiet", action="store_true",
                   help="no progress on stderr (otherwise shown on a terminal after 3 s, or "
                   "$RLDP_VERIFY_PROGRESS_DELAY: the step, n/total and an ETA)")
    add_adapter_arguments(p)
    p.set_defaults(func=run)


def _seconds(text: str) -> float:
    """--time-limit: a positive number of seconds (argparse turns the InputError into exit code 2)."""
    import argparse
    import math

    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--time-limit = {text!r} is not a number of seconds") from None
    if not (v > 0 and math.isfinite(v)):
        raise argparse.ArgumentTypeError(f"--time-limit = {text!r} must be a positive finite number of seconds")
    return v


def _table(text: str, name: str):
    """An inline table 'a,b;c,d' as rows of cell strings, or a table file's path unchanged (read and checked by
    :func:`rldp_verify.rldp.uncertainty.read_table`, whose errors name the file)."""
    from rldp_verify.rldp.table_files import is_table_file

    if is_table_file(text):
        return text.strip()
    rows = [r for r in text.split(";") if r.strip()]
    if not rows:
        raise InputError(f"--{name} is empty")
    return [[c.strip() for c in r.split(",")] for r in rows]


RATIO_DIGITS = 20  # decimal places of ratio_lower / ratio_upper / eps_realised (AuditResult.to_json)


def json_document(res) -> dict:
    """The ``--json`` document (schema ``rldp_verify/schemas/audit.schema.json``): the result's
    :meth:`~rldp_verify.rldp.audit.AuditResult.to_json` with the schema version and its digits. The bounds are
    decimal strings rounded outward to ``digits`` decimal places ("inf" when unbounded); ``argmax`` always
    has the keys y, s, s_prime, u, u_prime (u, u_prime are null except for eps-LDP, where inputs
    x = (s, u) are compared)."""
    return {"schema_version": SCHEMA_VERSION, "digits": RATIO_DIGITS, **res.to_json()}


def run(args) -> int:
    """Run ``rldp-verify audit``: print the certified verdict with its interval and witness; the exit code
    says PASS / FAIL / INCONCLUSIVE (see ``--help``). Bad input propagates (exit code 2 in
    :func:`rldp_verify.cli.main`); any other exception of the audit is one line on stderr and exit code 4, so
    that a script never reads a crash as FAIL."""
    try:
        return _run(args)
    except InputError as exc:
        short = with_table_file(args, shorten_numbers(str(exc)))
        if short == str(exc):
            raise
        raise InputError(short) from None
    except (CertificationError, OSError):
        raise
    except MemoryError:
        sys.stderr.write("rldp-verify: internal error: out of memory (MemoryError)\n")
        return EXIT_INTERNAL_ERROR
    except Exception as exc:  # noqa: BLE001 - the documented exit code 4, never a traceback
        sys.stderr.write(f"rldp-verify: internal error: {one_line(exc)}\n")
        return EXIT_INTERNAL_ERROR


def with_table_file(args, message: str) -> str:
    """``message`` naming the table file(s) of --phat / --distribution it does not name yet (a table of the wrong
    size for the mechanism is reported by the audit, which sees the table, not where it came from)."""
    from rldp_verify.rldp.table_files import is_table_file

    files = [(o, str(getattr(args, o[2:].replace("-", "_"), None)).strip()) for o in ("--distribution", "--phat")]
    files = [(o, f) for o, f in files if is_table_file(f) and f not in message]
    if not files:
        return message
    return message + " (" + ", ".join(f"{o} read from {f}" for o, f in files) + ")"


def shorten_numbers(text: str, keep: int = 12) -> str:
    """Digit runs longer than 30 characters (a column sum of a 1e400 entry has 400 digits) cut to their first
    ``keep`` digits and a count: ``1000000000000...(401 digits)``."""
    import re

    return re.sub(r"\d{31,}", lambda m: f"{m.group()[:keep]}...({len(m.group())} digits)", text)


def one_line(exc: BaseException, limit: int = 300) -> str:
    """``Type: message`` on one line, at most ``limit`` characters (long numbers in messages are cut)."""
    text = shorten_numbers(" ".join(f"{type(exc).__name__}: {exc}".split()))
    return text if len(text) <= limit else text[:limit - 3] + "..."


def check_certificate_path(path: str) -> None:
    """``--certificate FILE`` must be writable, checked before the audit runs (one line naming it, exit code 2):
    not a directory, and its nearest existing folder (the writer creates missing folders) a writable directory."""
    import os

    full = os.path.abspath(path)
    if os.path.isdir(full):
        raise InputError(f"--certificate: cannot write {path!r}: it is a directory")
    if os.path.exists(full) and not os.access(full, os.W_OK):
        raise InputError(f"--certificate: cannot write {path!r}: permission denied")
    parent = os.path.dirname(full)
    while not os.path.exists(parent):
        parent = os.path.dirname(parent)
    if not os.path.isdir(parent):
        raise InputError(f"--certificate: cannot write {path!r}: {parent!r} is not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise InputError(f"--certificate: cannot write {path!r}: permission denied on {parent!r}")


def _run(args) -> int:
    from rldp_verify.rldp.audit import audit

    if args.dps < 15:
        raise InputError(f"--dps must be at least 15, got {args.dps}")
    kw = {}
    sources = [args.phat is not None, args.data is not None, args.full_simplex, args.distribution is not None,
               args.ldp]
    if sum(sources) != 1:
        raise InputError("choose exactly one of --phat, --data, --full-simplex, --distribution, --ldp")
    if has_estimate(args):
        kw["ball"] = build_ball(args, read_estimate(args), dps=args.dps, purpose="a Rényi ball")
    elif uses_ball(args) or args.alpha is not None:
        raise InputError("--alpha/--radius/--confidence/--samples describe a Rényi ball: give --phat or --data too")
    elif args.full_simplex:
        kw["full_simplex"] = True
    elif args.distribution is not None:
        kw["distribution"] = _table(args.distribution, "distribution")
    else:
        kw["ldp"] = True
    max_dps = args.max_dps if args.max_dps is not None else 4 * args.dps
    if args.certificate:
        check_certificate_path(args.certificate)
    from rldp_verify.cli.progress import Live

    mech = mechanism_from_args(args)
    if args.certificate:  # read the file once (it may be stdin): the certificate needs the same matrix
        from rldp_verify.rldp.audit import load_mechanism

        mech = load_mechanism(mech, normalize=args.normalize)
    with Live("audit", quiet=args.quiet):
        res = audit(mech, args.eps, dps=args.dps, max_dps=max_dps, screen=not args.no_screen,
                    normalize=args.normalize, time_limit=args.time_limit, **kw)
    if args.certificate:
        from rldp_verify.certificates.audit import write_audit_certificate

        chk = write_audit_certificate(args.certificate, res, mech, args.eps, **kw)
        sys.stderr.write(f"certificate: {args.certificate} ({'re-checked' if chk.ok else 'FAILED: ' + chk.message})\n")
    out = json_document(res)
    if args.json:
        sys.stdout.write(dumps(out, indent=None))
    else:
        lo, hi = out["ratio_lower"], out["ratio_upper"]
        print(f"verdict:      {res.verdict}  (target eps = {res.eps})")
        print(f"uncertainty:  {res.uncertainty}")
        ldp = str(res.uncertainty).startswith("eps-LDP")
        where = "attained at the pair of inputs in argmax" if ldp else "attained by a witness in F"
        print(f"worst ratio:  [{lo}, {hi}]  (lower: {where}; upper: certified)")
        print(f"eps_F:        [{out['eps_realised'][0]}, {out['eps_realised'][1]}]")
        print(f"argmax:       {out['argmax']}")
        if out["witness"] is not None:
            w = out["witness"]
            if isinstance(w, list) and w and all(isinstance(r, list) for r in w):  # one row of P per line
                print("witness:      " + ("\n              ".join(json.dumps(r) for r in w)))
            else:
                print(f"witness:      {json.dumps(w)}")
        print(f"precision:    {res.dps} digits; pairs certified in arb: {res.pairs_certified_in_arb}, "
              f"by the float screen: {res.pairs_screened}")
        print(f"time:         {res.seconds:.3f} s")
        for n in out["notes"]:
            print(f"note:         {n}")
    return EXIT[res.verdict]
