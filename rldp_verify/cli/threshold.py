"""``rldp-verify threshold``: optimality thresholds eps* of extremal mechanisms, with brackets.

The engine's threshold families are plug-ins in :data:`FAMILIES` (name -> (add_arguments, compute)); which
paper uses which family is read from the catalogue of papers
(:meth:`rldp_verify.claims.catalogue.Catalogue.thresholds`; ``--paper kairouz``: [kairouz-2016],
Kairouz, Oh & Viswanath, family ``extremal``, computed by
:func:`rldp_verify.topics.extremal.summary.optimality_thresholds`):

* ``--utility kl --p0 .. --p1 ..``  (Theorem 8): eps above which randomized response maximises
  D_kl(M0||M1); ``--mechanism binary`` instead gives the eps below which the binary mechanism (18)
  does (Theorem 5 for KL).
* ``--utility mi --p ..`` (Theorems 12 and 14): the same for mutual information I(X;Y).
* ``--utility f --p0 .. --p1 ..`` (Lemma 24, eq. (61)): the closed-form eps* below which the binary
  mechanism maximises *every* f-divergence (exact rational e^eps*).

Brackets [lo, hi] are certified points of opposite status (exact / arb-rigorous LP certificates);
the status between evaluated grid points is not certified (stated in ``method``).
Output is human-readable; ``--json`` prints {"threshold", "bracket", "method", ...}.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rldp_verify.cli._help import add_parser
from rldp_verify.cli._json import INF, SCHEMA_VERSION, dec, dumps
from rldp_verify.core.errors import InputError

if TYPE_CHECKING:
    from rldp_verify.claims.catalogue import Catalogue


def _extremal_args(p, title):
    g = p.add_argument_group(title)
    g.add_argument("--utility", choices=("kl", "mi", "f"), help="kl: KL divergence (Thm 8); "
                   "mi: mutual information (Thms 12/14); f: all f-divergences (Lemma 24)")
    g.add_argument("--mechanism", choices=("rr", "binary"), default=None,
                   help="rr: eps above which randomized response is optimal (default for kl/mi); "
                        "binary: eps below which the binary mechanism is optimal (only choice for f)")
    g.add_argument("--p0", help="P0 as comma-separated exact numbers, e.g. 0.5,0.3,0.2 or 1/2,3/10,1/5")
    g.add_argument("--p1", help="P1, same format")
    g.add_argument("--p", help="P (for --utility mi)")
    g.add_argument("--eps-min", type=float, default=0.001, help="smallest grid eps (default 0.001)")
    g.add_argument("--eps-max", type=float, default=30.0, help="largest grid eps (default 30)")
    g.add_argument("--tol", type=float, default=1e-6, help="bisection width in eps (default 1e-6)")


def _extremal(args) -> dict:
    from rldp_verify.core.numbers import parse_exact
    from rldp_verify.topics.extremal.summary import optimality_thresholds

    for opt in ("p0", "p1", "p"):  # a bad entry is named with its option (not only its value)
        for i, item in enumerate((getattr(args, opt) or "").split(",") if getattr(args, opt) else []):
            try:
                parse_exact(item.strip())
            except InputError as exc:
                raise InputError(f"--{opt} entry {i + 1}: {exc}") from None
    return optimality_thresholds(args.utility, args.mechanism, args.p0, args.p1, args.p, args.eps_min,
                                 args.eps_max, args.tol)


#: threshold families of the engine (by concept): name -> (add_arguments, compute).
FAMILIES = {"extremal": (_extremal_args, _extremal)}


def _papers(catalogue: str | Catalogue | None = None) -> dict:
    """Papers with thresholds in the catalogue (default: :meth:`Catalogue.load`'s): name -> (seed file, family);
    {} when there is no catalogue."""
    from rldp_verify.claims.catalogue import Catalogue

    try:
        return Catalogue.load(catalogue).thresholds(FAMILIES)
    except ImportError:
        return {}


def register(sub):
    """Register ``rldp-verify threshold`` (optimality thresholds eps* with certified brackets)."""
    p = add_parser(
        sub, "threshold", help="optimality thresholds eps* of extremal mechanisms, with certified brackets",
        description="Optimality thresholds eps* of extremal mechanisms with certified brackets (Kairouz, Oh & "
                    "Viswanath, 004):\n--utility kl (Theorem 8 / 5), mi (Theorems 14 / 12), f (Lemma 24, exact "
                    "closed form).",
        examples=["rldp-verify threshold --paper kairouz --utility kl --p0 .5,.3,.2 --p1 .1,.4,.5",
                  "rldp-verify threshold --paper kairouz --utility kl --p0 .5,.3,.2 --p1 .1,.4,.5 "
                  "--mechanism binary --json",
                  "rldp-verify threshold --paper kairouz --utility f --p0 .5,.3,.2 --p1 .1,.4,.5",
                  "rldp-verify threshold --paper kairouz --utility mi --p .4,.3,.2,.1 --json"],
        exit_codes={0: "success"})
    papers = _papers()
    p.add_argument("--paper", required=True, choices=sorted(papers), help="which paper's thresholds")
    for family, (add, _) in FAMILIES.items():
        add(p, ", ".join(f"{name} ({seed})" for name, (seed, fam) in papers.items() if fam == family) or family)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


THRESHOLD_DIGITS = 12  # significant digits of the eps values (_fmt)


def json_document(out: dict) -> dict:
    """The ``--json`` document (schema ``rldp_verify/schemas/threshold.schema.json``): eps values as
    decimal strings with ``digits`` significant digits, a bracket's missing upper end as "inf", the exact
    e^eps values ("t_bracket", "t_star") as "p/q"."""

    def d(x):
        return None if x is None else dec(x, THRESHOLD_DIGITS)

    doc = {"schema_version": SCHEMA_VERSION, "digits": THRESHOLD_DIGITS, **out}
    doc["threshold"] = d(out["threshold"])
    lo, hi = out["bracket"]
    doc["bracket"] = [d(lo), INF if hi is None else d(hi)] if lo is not None or hi is not None else [None, None]
    uni = out.get("universal_binary_threshold")
    if uni is not None:
        doc["universal_binary_threshold"] = {**uni, "eps_star": d(uni["eps_star"])}
    return doc


def _human(out: dict) -> str:
    lo, hi = out["bracket"]
    who = {"rr": "randomized response", "binary": "the binary mechanism"}[out["mechanism"]]
    util = {"kl": "D_kl(M0||M1)", "mi": "I(X;Y)", "f": "every f-divergence"}[out["utility"]]
    side = ">=" if out["mechanism"] == "rr" else "<="
    his = "inf" if hi is None else f"{hi}"
    lines = [f"{out['paper']} ({out['source']}): {who} maximises {util} for eps {side} eps*"]
    if out["threshold"] is not None:
        lines.append(f"  eps* = {out['threshold']}   bracket [{lo}, {his}]")
    else:
        lines.append(f"  eps* not bisected ({out.get('kind', 'closed form')}): bracket [{lo}, {his}]")
    if out.get("t_star"):
        lines.append(f"  e^eps* = {out['t_star']} (exact)")
    if out.get("t_bracket"):
        a, b = out["t_bracket"]
        lines.append(f"  t = e^eps bracket (exact): [{a or 1}, {b or 'inf'}]")
    if out.get("note"):
        lines.append(f"  note: {out['note']}")
    lines.append(f"  method: {out['method']}")
    return "\n".join(lines)


def run(args) -> int:
    """Run ``rldp-verify threshold``: compute the family's thresholds and print them as text or JSON."""
    _, compute = FAMILIES[_papers()[args.paper][1]]
    out = {"paper": args.paper, **compute(args)}
    print(dumps(json_document(out), indent=2).rstrip("\n") if args.json else _human(out))
    return 0
