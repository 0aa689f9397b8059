"""``rldp-verify ball``: statistics of a Rényi uncertainty set and of its conditional projections.

[lopuhaa-2024], Sec. 3 eq. (8)-(11) (the ball F and its confidence radius), Sec. 4
(Theorem 1: B_s; Proposition 1: L_{u|s}(F), rad_s(F)).

    rldp-verify ball --phat "0.07,0.10;0.26,0.57" --alpha 2 --confidence 0.95 --samples 100 --json
    rldp-verify ball --phat "7,10;26,57" --alpha 2 --radius 0.0752
    rldp-verify ball --data adult.data --sensitive 9 --public 3 --alpha 2 --confidence 0.95

Rows of --phat are values of S, columns values of U (rows separated by ';', entries by ','); a table
of counts is normalised. With --data the counts of (S, U) pairs in a CSV file are used and
--samples defaults to the number of rows counted. The JSON (schema ``rldp_verify/schemas/ball.schema.json``)
gives real values as decimal strings with "digits" (= --dps) significant digits, exact rationals as
"p/q", and an infinite value (the whole simplex) as the string "inf".
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction

import mpmath

from rldp_verify.cli._help import BAD_INPUT, add_parser
from rldp_verify.cli._json import INF, SCHEMA_VERSION, dec, dumps
from rldp_verify.cli._uncertainty import add_ball_arguments, add_estimate_arguments, read_estimate
from rldp_verify.cli._uncertainty import build_ball as shared_build_ball
from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import DEFAULT_DPS, fraction_str, to_mpf


def register(sub):
    """Register ``rldp-verify ball`` (B, B_s, L_{u|s}, rad_s of a Rényi ball; 000 Secs. 3-4)."""
    p = add_parser(
        sub, "ball", help="statistics of a Rényi uncertainty set F and its projections F_{U|s}",
        description="Statistics of the Rényi ball F = {P : D_alpha(P-hat || P) <= B} around an estimate P-hat "
                    "and of its\nconditional projections (RLDP paper 000, Secs. 3-4: B_s of Theorem 1, L_{u|s} and "
                    "rad_s of Proposition 1).\nRows of --phat are values of S (';'), columns values of U (','); "
                    "counts are normalised.",
        examples=['rldp-verify ball --phat "0.07,0.10;0.26,0.57" --alpha 2 --confidence 0.95 --samples 100 --json',
                  'rldp-verify ball --phat "7,10;26,57" --alpha 1/2 --radius 0.05 --certified',
                  "rldp-verify ball --data adult.data --sensitive 9 --public 3 --alpha 2 --confidence 0.95",
                  "cut -d, -f4,10 adult.data | rldp-verify ball --data - --sensitive 1 --public 0 --alpha 2 "
                  "--radius 0.01"],
        exit_codes={0: "success", 2: BAD_INPUT + "; also when --time-limit is reached (one line naming the step "
                                          "and how far it got)"})
    add_estimate_arguments(p.add_argument_group("the estimate P^"))
    add_ball_arguments(p.add_argument_group("the ball F"), alpha_required=True)
    p.add_argument("--dps", default=str(DEFAULT_DPS), help=f"working precision in digits (default {DEFAULT_DPS})")
    p.add_argument("--certified", action="store_true",
                   help="also print certified rational bounds (lower bounds rounded down, rad rounded up)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--time-limit", default=None, metavar="SECONDS",
                   help="stop after this many seconds with one line naming the step and how far it got (exit 2; "
                        "default: no limit)")
    p.add_argument("--quiet", action="store_true",
                   help="no progress on stderr (otherwise shown on a terminal after 3 s, or "
                        "$RLDP_VERIFY_PROGRESS_DELAY: the cells of L_{u|s} done, n/total, ETA)")
    p.set_defaults(func=run)


def _dps(text) -> int:
    try:
        d = int(str(text))
    except ValueError:
        raise InputError(f"--dps must be an integer, got {text!r}") from None
    if not 5 <= d <= 1000:
        raise InputError(f"--dps must be between 5 and 1000, got {d}")
    return d


def _time_limit(text) -> float | None:
    """``--time-limit``: a positive finite number of seconds (None when not given)."""
    if text is None:
        return None
    try:
        v = float(str(text))
    except ValueError:
        raise InputError(f"--time-limit must be a positive number of seconds, got {text!r}") from None
    if not 0 < v < math.inf:
        raise InputError(f"--time-limit must be a positive number of seconds, got {text!r}")
    return v


def build_ball(args):
    """(ball, dps, labels) from the parsed options: the Rényi ball, the precision, the labels of S and U from
    ``--data``."""
    est = read_estimate(args)
    dps = _dps(args.dps)
    ball = shared_build_ball(args, est, dps=dps)
    labels = (est.sensitive, est.public) if est.sensitive is not None else None
    return ball, dps, labels


def _num(x, dps):
    """A decimal string with ``dps`` significant digits ("inf" for +inf): the JSON style of :mod:`._json`."""
    if x == math.inf or x == mpmath.inf:
        return INF
    with mpmath.workdps(dps + 5):
        v = to_mpf(x) if isinstance(x, (Fraction, int)) else mpmath.mpf(x)
        return dec(v, dps)


def run(args) -> int:
    """Run ``rldp-verify ball``: the statistics of the ball as text or JSON (``ball.schema.json``)."""
    from rldp_verify.cli.progress import Live
    from rldp_verify.core import progress

    limit = _time_limit(args.time_limit)
    # on a terminal, after 3 s: cells done, n/total, ETA; past --time-limit: one line naming the step (exit 2)
    with Live("ball", quiet=args.quiet), progress.deadline(limit, f"--time-limit {args.time_limit} s"):
        ball, dps, labels = build_ball(args)
        st = ball.statistics(dps=dps, certified=args.certified)
    doc = {
        "schema_version": SCHEMA_VERSION,
        "digits": dps,
        "alpha": fraction_str(st["alpha"]),
        "radius": _num(st["radius"], dps),
        "radius_upper": INF if st["radius_upper"] == math.inf else fraction_str(st["radius_upper"]),
        "provenance": st["provenance"],
        "dps": dps,
        "conditional": [],
    }
    if labels is not None:
        doc["sensitive_values"], doc["public_values"] = list(labels[0]), list(labels[1])
    for row in st["conditional"]:
        r = {"s": row["s"], "marginal": fraction_str(row["marginal"]), "radius": _num(row["radius"], dps),
             "lower": [_num(v, dps) for v in row["lower"]], "rad": _num(row["rad"], dps)}
        if args.certified:
            r["lower_certified"] = [fraction_str(v) for v in row["lower_certified"]]
            r["rad_certified"] = fraction_str(row["rad_certified"])
        doc["conditional"].append(r)
    if args.json:
        sys.stdout.write(dumps(doc, indent=2))
        return 0
    show = lambda v: str(v)  # noqa: E731
    print(f"F = {{P : D_alpha(P^ || P) <= B}}, alpha = {doc['alpha']}, B = {show(doc['radius'])}")
    print(f"  ({doc['provenance']})")
    for r in doc["conditional"]:
        name = labels[0][r["s"]] if labels else r["s"]
        print(f"s = {name}: P^_s = {r['marginal']}, B_s = {show(r['radius'])}, rad_s = {show(r['rad'])}")
        if args.certified:
            print(f"    rad_s <= {r['rad_certified']} (certified)")
        for u, v in enumerate(r["lower"]):
            uname = labels[1][u] if labels else u
            extra = f"  (certified >= {r['lower_certified'][u]})" if args.certified else ""
            print(f"    L_{{u|s}} u = {uname}: {show(v)}{extra}")
    return 0
