"""``rldp-verify mechanism``: build a privacy mechanism and write it as JSON.

[lopuhaa-2024]: GRR (eq. (56)), SRR (Definition 4), IR (Definition 5, Theorem 5, eq. (82)),
PolyOpt (Definition 3, Theorems 2-3; ``--relaxed``: only the pairs s1 != s2), NR (Sec. 8). Examples::

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

import sys

from rldp_verify.cli._help import add_parser, int_option
from rldp_verify.cli._json import SCHEMA_VERSION, dumps, floats_to_decimal
from rldp_verify.cli._uncertainty import add_ball_arguments, add_estimate_arguments, build_ball, read_estimate
from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import DEFAULT_DPS

KINDS = ("grr", "srr", "ir", "polyopt", "nr")
UTILITY_DIGITS = 12  # significant digits of utility.I and utility.NMI (mechanisms.utility.utility_record)


def register(sub):
    """Register ``rldp-verify mechanism {grr,srr,ir,polyopt,nr}``."""
    p = add_parser(
        sub, "mechanism", help="build GRR, SRR, IR, PolyOpt or NR and write it as JSON",
        description=__doc__.split("\n\n")[0].split(": ", 1)[1] + "\n(RLDP paper 000: GRR eq. (56), SRR "
                    "Definition 4, IR Definition 5, PolyOpt Definition 3, NR Sec. 8).\nPolyOpt and IR need the "
                    "uncertainty set F (--alpha with --radius, or --confidence with --samples).\nThe JSON is "
                    "printed on stdout (or written to -o FILE); it validates against the schema "
                    "rldp_verify/schemas/mechanism.schema.json.",
        examples=['rldp-verify mechanism polyopt --eps "log(2)" --phat "0.07,0.10;0.26,0.57" --alpha 2 '
                  '--confidence 0.95 --samples 100 -o mech.json',
                  'rldp-verify mechanism nr --eps 1 --phat "7,10;26,57" | python -m json.tool',
                  "rldp-verify mechanism ir --eps 1 --data adult.data --sensitive 9 --public 3 --alpha 2 "
                  "--confidence 0.95",
                  'rldp-verify mechanism grr --eps 0.5 --phat "7,10;26,57" | rldp-verify audit - --eps 0.5 --ldp'],
        exit_codes={0: "success"})
    p.add_argument("kind", choices=KINDS, help="which mechanism")
    p.add_argument("--eps", required=True, help='privacy parameter: a number >= 0, or "log(r)" with rational r >= 1')
    add_estimate_arguments(p.add_argument_group("the estimate P-hat"))
    add_ball_arguments(p.add_argument_group("the uncertainty set F (ir, polyopt)"))
    p.add_argument("--relaxed", action="store_true", help="polyopt: impose only the pairs s1 != s2 of Definition 3")
    p.add_argument("--route", choices=("auto", "enumerate", "colgen"), default="auto",
                   help="polyopt/nr: 'enumerate' the vertices of Gamma-hat (exact, |X| <= ~16), 'colgen' = column "
                        "generation with a certified bracket (large |X|); auto: colgen from |X| = 12 on")
    p.add_argument("--time-limit", default="600",
                   help="colgen: seconds for the whole run, set-up included: the iterations stop early enough to "
                        "leave time for certifying the bracket as it is (estimated from the set-up's pricing "
                        "pass; the certification is not interrupted, so a run may end a few seconds late); a "
                        "set-up that alone takes longer stops with one line naming the step")
    p.add_argument("--gap", default="1e-4", help="colgen: target relative width of the optimum bracket")
    p.add_argument("--stabilisation", choices=("lagrangian", "bundle", "wentges", "boxstep"), default=None,
                   help="colgen: the master: 'lagrangian' (the default: the per-block LP with the coupling in t "
                        "relaxed, its marginals coupled into columns, then the bundle), a proximal 'bundle' method, "
                        "Wentges smoothing of the restricted LP's duals or a box-step trust region")
    p.add_argument("--eps2", help="ir: fix the split e^eps2 (default: optimise eq. (82))")
    p.add_argument("--digits", default="12", help="rounding grid 10^-digits for e^eps and the bounds (default 12)")
    p.add_argument("--dps", default=str(DEFAULT_DPS), help=f"working precision in digits (default {DEFAULT_DPS})")
    p.add_argument("--quiet", action="store_true",
                   help="no progress on stderr (otherwise shown on a terminal after 3 s, or "
                   "$RLDP_VERIFY_PROGRESS_DELAY: the step, n/total and an ETA)")
    p.add_argument("-o", "--output", help="write the JSON to this file (default or '-': print it on stdout)")
    p.set_defaults(func=run)


COLGEN_FROM = 12     # auto route: column generation from this |X| on (faster there, bench_polyopt_large)


def _positive(text, name) -> float:
    try:
        v = float(str(text))
    except ValueError:
        raise InputError(f"{name} must be a positive number, got {text!r}") from None
    if not v > 0 or v != v or v == float("inf"):
        raise InputError(f"{name} must be a positive number, got {text!r}")
    return v


def _cg_options(args) -> dict:
    opts = {"time_limit": _positive(args.time_limit, "--time-limit"), "rel_gap": _positive(args.gap, "--gap")}
    if args.stabilisation:
        opts["stabilisation"] = args.stabilisation
    return opts


def _route(args, table) -> bool:
    """True for the column-generation route."""
    if args.kind not in ("polyopt", "nr"):
        if args.route != "auto":
            raise InputError("--route applies to polyopt and nr only")
        return False
    _cg_options(args)
    if args.route != "auto":
        return args.route == "colgen"
    if args.relaxed:
        return False
    if isinstance(table, str):
        rows = [r for r in table.split(";") if r.strip()]
        size = len(rows) * len(rows[0].split(",")) if rows else 0
    else:
        size = len(table) * len(table[0])
    return size >= COLGEN_FROM


#: the largest eps the builders accept: e^eps then has at most 435 digits (beyond, the exact entries and the
#: certified bounds grow past what can be written or checked in reasonable time)
MAX_EPS = 1000


def _check_eps(text) -> None:
    """``--eps`` is finite, >= 0 and at most :data:`MAX_EPS` (one line naming eps and the limit otherwise)."""
    import math
    from fractions import Fraction

    from rldp_verify.core.numbers import read_eps

    level = read_eps(text, float_reading="decimal")
    if ((level.eps_exact is not None and level.eps_exact > MAX_EPS)
            or (level.exp_exact is not None and level.exp_exact > Fraction(math.exp(MAX_EPS / 2)) ** 2)):
        raise InputError(f"--eps {text} is too large: the mechanisms are built for eps <= {MAX_EPS} "
                         f"(e^eps = e^{MAX_EPS} has 435 digits already; every output is then nearly deterministic)")


def build(args):
    """The :class:`~rldp_verify.rldp.mechio.Mechanism` the options ask for (PolyOpt by enumeration or column
    generation, see ``--route``), with its certified guarantee."""
    dps = int_option(args.dps, "--dps", 15, 500)
    digits = int_option(args.digits, "--digits", 3, 200)
    _check_eps(args.eps)
    est = read_estimate(args)
    table = est.table
    if args.relaxed and args.kind != "polyopt":
        raise InputError("--relaxed applies to polyopt only")
    if args.eps2 is not None and args.kind != "ir":
        raise InputError("--eps2 applies to ir only")
    colgen = _route(args, table)
    if colgen:  # --time-limit covers the set-up too (certified lower bounds, the cone's blocks), not only the loop
        from rldp_verify.core import progress

        limit = _positive(args.time_limit, "--time-limit")
        with progress.deadline(limit, f"--time-limit {args.time_limit} s"):
            return _build(args, est, colgen, dps, digits)
    return _build(args, est, colgen, dps, digits)


def _build(args, est, colgen: bool, dps: int, digits: int):
    from rldp_verify.rldp import mechanisms as M
    from rldp_verify.rldp.uncertainty import read_table

    table, S, U = est.table, est.sensitive, est.public
    if args.kind in ("ir", "polyopt"):
        ball = build_ball(args, est, dps=dps, purpose=args.kind)
        if args.kind == "ir":
            return M.independent_reporting(ball, args.eps, eps2=args.eps2, sensitive=S, public=U, dps=dps,
                                           digits=digits)
        if colgen:
            from rldp_verify.rldp.mechanisms.polyopt_large import polyopt_cg

            if args.relaxed:
                raise InputError("--relaxed has no column-generation route (use --route enumerate)")
            return polyopt_cg(ball, args.eps, sensitive=S, public=U, dps=dps, digits=digits, **_cg_options(args))
        return M.polyopt(ball, args.eps, relaxed=args.relaxed, sensitive=S, public=U, dps=dps, digits=digits)
    if any(v is not None for v in (args.radius, args.confidence)):
        raise InputError(f"{args.kind} does not use the uncertainty set F (drop --radius/--confidence)")
    phat = read_table(table)
    if colgen and args.kind == "nr":
        from rldp_verify.rldp.mechanisms.polyopt_large import nonrobust_cg

        return nonrobust_cg(phat, args.eps, sensitive=S, public=U, dps=dps, digits=digits, **_cg_options(args))[0]
    fn = {"grr": M.grr, "srr": M.srr, "nr": M.nonrobust}[args.kind]
    return fn(phat, args.eps, sensitive=S, public=U, dps=dps, digits=digits)


def document(mech) -> dict:
    """The mechanism's JSON (:meth:`Mechanism.to_json`) with the schema version and the digits of its
    decimal strings (the utility I and NMI); schema ``rldp_verify/schemas/mechanism.schema.json``."""
    return floats_to_decimal({"schema_version": SCHEMA_VERSION, "digits": UTILITY_DIGITS, **mech.to_json()})


def run(args) -> int:
    """Run ``rldp-verify mechanism``: build it and write its JSON (``mechanism.schema.json``) to stdout or ``-o``."""
    from rldp_verify.cli.progress import Live

    with Live(f"mechanism {args.kind}", quiet=args.quiet):
        mech = build(args)
    text = dumps(document(mech))
    if args.output and args.output != "-":
        try:
            with open(args.output, "w") as fh:
                fh.write(text)
        except OSError as exc:
            raise InputError(f"cannot write {args.output!r}: {exc.strerror}") from None
        u = mech.utility or {}
        br = mech.parameters.get("optimum_bracket")
        extra = ""
        if br is not None and "optimum_relative_width" in mech.parameters:
            from fractions import Fraction

            extra = (f", optimum of LP (46) in [{float(Fraction(br[0])):.10g}, {float(Fraction(br[1])):.10g}] "
                     f"(relative width {mech.parameters['optimum_relative_width']:.2e})")
        print(f"{mech.parameters.get('mechanism')}: {len(mech.outputs)} outputs, I = {u.get('I')} nats, "
              f"NMI = {u.get('NMI')}{extra} -> {args.output}")
    else:
        sys.stdout.write(text)
    return 0
