"""``rldp-verify mechanism``: build a privacy mechanism and write it as JSON.

000_aca93ed29ea857ee.txt: GRR (eq. (56)), SRR (Definition 4), IR (Definition 5, Theorem 5, eq. (82)),
PolyOpt (Definition 3, Theorems 2-3; ``--relaxed``: only the pairs s1 != s2), NR (Sec. 8).

    rldp-verify mechanism polyopt --eps "log(2)" --phat "0.07,0.10;0.26,0.57" --alpha 2 \\
        --confidence 0.95 --samples 100 -o mech.json
    rldp-verify mechanism ir --eps 1 --data adult.data --sensitive 9 --public 3 --alpha 2 --confidence 0.95
    rldp-verify mechanism srr --eps 0.5 --phat "7,10;26,57"

--eps is a number (then e^eps is rounded down to a rational, which only strengthens the guarantee)
or ``log(r)`` for a rational r >= 1 (exact). PolyOpt and IR need the uncertainty set F: --alpha and
either --radius B or --confidence C (= 1 - beta) with --samples N. GRR, SRR and NR do not use F.
The JSON holds "sensitive", "public", "outputs", "matrix" (rows y, columns x in S-major order,
entries "p/q"), "eps", "guarantee", "utility" (I_{P-hat}(X;Y) in nats and NMI), "parameters".
Without -o the JSON is printed.
"""

from __future__ import annotations

import json
import sys

from rldp_verify.errors import InputError
from rldp_verify.numbers import DEFAULT_DPS

KINDS = ("grr", "srr", "ir", "polyopt", "nr")


def register(sub):
    p = sub.add_parser("mechanism", help="build GRR, SRR, IR, PolyOpt or NR and write it as JSON")
    p.add_argument("kind", choices=KINDS, help="which mechanism")
    p.add_argument("--eps", required=True, help='privacy parameter: a number >= 0, or "log(r)" with rational r >= 1')
    src = p.add_argument_group("the estimate P-hat")
    src.add_argument("--phat", help='|S| x |U| table "p11,p12;p21,p22" (probabilities or counts)')
    src.add_argument("--data", help="CSV file of records")
    src.add_argument("--sensitive", help="column of S in --data (name or 0-based index)")
    src.add_argument("--public", help="column of U in --data (name or 0-based index)")
    p.add_argument("--alpha", help="Rényi order alpha of F (ir, polyopt)")
    p.add_argument("--radius", help="radius B of F (ir, polyopt)")
    p.add_argument("--confidence", help="confidence level 1 - beta of F, eq. (11) (with --samples)")
    p.add_argument("--samples", help="number of samples n behind P-hat (default with --data: the rows counted)")
    p.add_argument("--relaxed", action="store_true", help="polyopt: impose only the pairs s1 != s2 of Definition 3")
    p.add_argument("--eps2", help="ir: fix the split e^eps2 (default: optimise eq. (82))")
    p.add_argument("--digits", default="12", help="rounding grid 10^-digits for e^eps and the bounds (default 12)")
    p.add_argument("--dps", default=str(DEFAULT_DPS), help=f"working precision in digits (default {DEFAULT_DPS})")
    p.add_argument("-o", "--output", help="write the JSON here (default: print it)")
    p.set_defaults(func=run)


def _int(text, name, lo, hi) -> int:
    try:
        v = int(str(text))
    except ValueError:
        raise InputError(f"{name} must be an integer, got {text!r}") from None
    if not lo <= v <= hi:
        raise InputError(f"{name} must be between {lo} and {hi}, got {v}")
    return v


def _estimate(args):
    if args.phat is not None and args.data is not None:
        raise InputError("give either --phat or --data, not both")
    if args.data is not None:
        from rldp_verify.data import read_counts

        if args.sensitive is None or args.public is None:
            raise InputError("--data needs --sensitive COL and --public COL")
        ct = read_counts(args.data, args.sensitive, args.public)
        return ct.counts, ct.n, ct.sensitive, ct.public
    if args.sensitive is not None or args.public is not None:
        raise InputError("--sensitive/--public are only used with --data")
    if args.phat is None or not args.phat.strip():
        raise InputError("give the estimate with --phat TABLE or --data FILE --sensitive COL --public COL")
    return args.phat.strip(), None, None, None


def _ball(args, table, n_data, dps):
    from rldp_verify.uncertainty import RenyiBall

    if args.alpha is None:
        raise InputError(f"{args.kind} needs the uncertainty set F: give --alpha and --radius or --confidence/--samples")
    if args.radius is not None:
        if args.confidence is not None or args.samples is not None:
            raise InputError("give either --radius or --confidence/--samples, not both")
        return RenyiBall.from_radius(table, args.alpha, args.radius)
    if args.confidence is not None:
        samples = args.samples if args.samples is not None else n_data
        if samples is None:
            raise InputError("--confidence needs --samples N (the number of records behind --phat)")
        try:
            n = int(str(samples))
        except ValueError:
            raise InputError(f"--samples must be a positive integer, got {samples!r}") from None
        return RenyiBall.from_confidence(table, args.alpha, args.confidence, n, dps=dps)
    raise InputError(f"{args.kind} needs the radius: --radius B, or --confidence C with --samples N")


def build(args):
    from rldp_verify import mechanisms as M
    from rldp_verify.uncertainty import read_table

    dps = _int(args.dps, "--dps", 15, 500)
    digits = _int(args.digits, "--digits", 3, 200)
    table, n_data, S, U = _estimate(args)
    if args.relaxed and args.kind != "polyopt":
        raise InputError("--relaxed applies to polyopt only")
    if args.eps2 is not None and args.kind != "ir":
        raise InputError("--eps2 applies to ir only")
    if args.kind in ("ir", "polyopt"):
        ball = _ball(args, table, n_data, dps)
        if args.kind == "ir":
            return M.independent_reporting(ball, args.eps, eps2=args.eps2, sensitive=S, public=U, dps=dps, digits=digits)
        return M.polyopt(ball, args.eps, relaxed=args.relaxed, sensitive=S, public=U, dps=dps, digits=digits)
    if any(v is not None for v in (args.radius, args.confidence)):
        raise InputError(f"{args.kind} does not use the uncertainty set F (drop --radius/--confidence)")
    phat = read_table(table)
    fn = {"grr": M.grr, "srr": M.srr, "nr": M.nonrobust}[args.kind]
    return fn(phat, args.eps, sensitive=S, public=U, dps=dps, digits=digits)


def run(args) -> int:
    mech = build(args)
    text = json.dumps(mech.to_json(), indent=1) + "\n"
    if args.output:
        try:
            with open(args.output, "w") as fh:
                fh.write(text)
        except OSError as exc:
            raise InputError(f"cannot write {args.output!r}: {exc.strerror}") from None
        u = mech.utility or {}
        print(f"{mech.parameters.get('mechanism')}: {len(mech.outputs)} outputs, I = {u.get('I')} nats, "
              f"NMI = {u.get('NMI')} -> {args.output}")
    else:
        sys.stdout.write(text)
    return 0
