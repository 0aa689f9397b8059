"""``rldp-verify ball``: statistics of a Rényi uncertainty set and of its conditional projections.

000_aca93ed29ea857ee.txt, Sec. 3 eq. (8)-(11) (the ball F and its confidence radius), Sec. 4
(Theorem 1: B_s; Proposition 1: L_{u|s}(F), rad_s(F)).

    rldp-verify ball --phat "0.07,0.10;0.26,0.57" --alpha 2 --confidence 0.95 --samples 100 --json
    rldp-verify ball --phat "7,10;26,57" --alpha 2 --radius 0.0752
    rldp-verify ball --data adult.data --sensitive 9 --public 3 --alpha 2 --confidence 0.95

Rows of --phat are values of S, columns values of U (rows separated by ';', entries by ','); a table
of counts is normalised. With --data the counts of (S, U) pairs in a CSV file are used and
--samples defaults to the number of rows counted. JSON numbers carry --dps significant digits;
an infinite value (the whole simplex) is the string "inf".
"""

from __future__ import annotations

import json
import math
import re
import sys
from fractions import Fraction

import mpmath

from rldp_verify.cli._uncertainty import add_ball_arguments, add_estimate_arguments, read_estimate
from rldp_verify.cli._uncertainty import build_ball as shared_build_ball
from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import DEFAULT_DPS, fraction_str, to_mpf


def register(sub):
    p = sub.add_parser("ball", help="statistics of a Rényi uncertainty set F and its projections F_{U|s}")
    add_estimate_arguments(p.add_argument_group("the estimate P^"))
    add_ball_arguments(p.add_argument_group("the ball F"), alpha_required=True)
    p.add_argument("--dps", default=str(DEFAULT_DPS), help=f"working precision in digits (default {DEFAULT_DPS})")
    p.add_argument("--certified", action="store_true",
                   help="also print certified rational bounds (lower bounds rounded down, rad rounded up)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def _dps(text) -> int:
    try:
        d = int(str(text))
    except ValueError:
        raise InputError(f"--dps must be an integer, got {text!r}") from None
    if not 5 <= d <= 1000:
        raise InputError(f"--dps must be between 5 and 1000, got {d}")
    return d


def build_ball(args):
    est = read_estimate(args)
    dps = _dps(args.dps)
    ball = shared_build_ball(args, est, dps=dps)
    labels = (est.sensitive, est.public) if est.sensitive is not None else None
    return ball, dps, labels


def _num(x, dps):
    """A JSON number literal with ``dps`` significant digits ("inf" string for +inf)."""
    if x == math.inf or x == mpmath.inf:
        return "inf"
    with mpmath.workdps(dps + 5):
        v = to_mpf(x) if isinstance(x, (Fraction, int)) else mpmath.mpf(x)
        return _Raw(mpmath.nstr(v, dps, min_fixed=-5, max_fixed=dps + 5).replace("e", "E"))


class _Raw(str):
    pass


def _encode(doc) -> str:
    marks = {}

    def walk(o):
        if isinstance(o, _Raw):
            key = f"@@num{len(marks)}@@"
            marks[key] = str(o)
            return key
        if isinstance(o, dict):
            return {k: walk(v) for k, v in o.items()}
        if isinstance(o, (list, tuple)):
            return [walk(v) for v in o]
        return o

    text = json.dumps(walk(doc), indent=2)
    return re.sub(r'"(@@num\d+@@)"', lambda m: marks[m.group(1)], text)


def run(args) -> int:
    ball, dps, labels = build_ball(args)
    st = ball.statistics(dps=dps, certified=args.certified)
    doc = {
        "alpha": fraction_str(st["alpha"]),
        "radius": _num(st["radius"], dps),
        "radius_upper": "inf" if st["radius_upper"] == math.inf else fraction_str(st["radius_upper"]),
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
        sys.stdout.write(_encode(doc) + "\n")
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
