"""Sec. 8.1 (adult data set, Figure 2): the ordering findings, on the paper's four attribute pairs.

Paper: 000_aca93ed29ea857ee.txt. Figure 2 itself is not in the text; we reproduce its setting as far
as the text defines it: F the chi^2 confidence set (alpha = 2, beta = 0.05, n = 32,561), utility the
NMI under P-hat. The paper does not name the four attribute pairs of Figure 2 except occupation vs.
education (one of the two large ones). Our choices:
- small pairs (PolyOpt and NR feasible): sex x income (2 x 2) and sex x race (2 x 5);
- large pairs: occupation x education (15 x 16 with '?' as a category, as the printed a = 240
  requires) and relationship x education (6 x 16); GRR, SRR and IR directly, PolyOpt and NR (which the
  paper could not compute there) as certified brackets by column generation, stopped on iteration caps.
eps grid: EPS_GRID of :mod:`proofs.rldp._sec8` (the text mentions 0.075 as its lowest eps and
uses 1.5 in Secs. 8.4-8.5). The (pair, eps) evaluations fan out over ctx's Dask cluster.

Curves the paper could not draw, and how ours are drawn instead: see MISSING_CURVES.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from rldp_verify.certificates.claims import no_certificate
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core import standard
from rldp_verify.core.information import nmi_float
from rldp_verify.rldp.experiments import ir_split_search
from rldp_verify.rldp.mechanisms import (
    grr,
    independent_reporting,
    ir_distance,
    mutual_information_bounds,
    nonrobust,
    polyopt,
    privacy_level,
    srr,
)
from rldp_verify.rldp.uncertainty import RenyiBall

from ._sec8 import ADULT_PAIRS, EPS_GRID, GROUP, PAPER, adult_table, beats, evaluate, figure_path, fmt
from .sec8_figures import fig2_adult

# (S, U, keep '?', certified d): occupation x education uses d = 2 (a valid upper bound of d; the
# certified d would take ~25 s there and is 2 as well), relationship x education the certified d' >= d.
LARGE_PAIRS = (("occupation", "education", True, False), ("relationship", "education", False, True))
MISSING_CURVES = ("PolyOpt and NR on occupation x education (|X| = 240) and relationship x education (|X| = 96): "
                  "the paper could not draw them (Sec. 8.1: Matlab's vertex enumeration of Gamma-hat ran out of "
                  "memory). rldp-verify draws certified brackets of their NMI, computed without enumeration by "
                  "column generation (rldp_verify.rldp.mechanisms.polyopt_large; lower end = the NMI of a mechanism "
                  "whose rows lie in Gamma_eps exactly, upper end = a certified dual bound on LP (46)), stopped "
                  "after a fixed number of iterations (sec8_adult.CG_CAPS) or at relative width 1e-4: a curve "
                  "where the bracket is narrow, a band [lower, upper] where it is not")
#: why the Figure 2 readings carry no certificate (issue 23): not a property test on sampled instances
FIGURE_REASON = ("a reading of Figure 2: orderings and trends of the mechanisms' NMI over the eps grid on one data set "
                 "per pair, compared in double precision (differences below 1e-9 are ties) from the mechanisms the "
                 "engine's optimisations returned, judged with the reading's own thresholds; no certificate is wired "
                 "for these readings (the NMI comparisons of sex x income at eps = 0.25 and 2 carry mutual-information "
                 "certificates in rldp.sec8.adult-tiny-orderings)")
LARGE_REASON = ("a reading of Figure 2 on the large pairs (|X| = 96 and 240): NMI of mechanisms of up to 240 x 240 "
                "entries compared in double precision, PolyOpt's and NR's optima as column-generation brackets of LP "
                "(46); no builder writes certificates for these (a dual certificate of LP (46) per (pair, eps) at "
                "these sizes); not a property test on sampled instances")
SMALL_HYP = ("adult data, n = 32,561; F: alpha = 2, beta = 0.05 (95 % chi^2 confidence set); NMI under P-hat",
             "pairs sex x income (2 x 2) and sex x race (2 x 5) — our choice, the paper does not name them",
             f"eps in {', '.join(EPS_GRID)}",
             "mechanisms built by the exact engine (PolyOpt with certified L' <= L_{u|s}(F), IR with certified "
             "d' >= d and eq. (82) solved with a certified bracket); NMI compared in double precision, "
             "differences below 1e-9 are ties")


def small_task(task) -> dict:
    """All five mechanisms on a small adult pair at one eps (exact engine, IR with a certified split)."""
    s, u, e = task
    ct = adult_table(s, u)
    return evaluate(ct.phat(), ct.n, e, exact_ir=True)


def small_runs(ctx=None):
    """pair -> eps -> evaluation; the (pair, eps) tasks fan out over ctx's Dask cluster (deterministic)."""
    if "small" not in _CACHE:
        tasks = [(s, u, e) for s, u in ADULT_PAIRS for e in EPS_GRID]
        res = (ctx.map if ctx is not None else lambda f, ts: [f(t) for t in ts])(small_task, tasks)
        out: dict = {}
        for (s, u, e), r in zip(tasks, res, strict=True):
            out.setdefault(f"{s} x {u}", {})[e] = r
        _CACHE["small"] = out
    return _CACHE["small"]


_CACHE: dict = {}


@cache
def _large_distance(s: str, u: str, keep: bool, cert: bool):
    if not cert:
        return 2
    ct = adult_table(s, u, keep_missing=keep)
    return ir_distance(RenyiBall.from_confidence([list(r) for r in ct.phat()], 2, "0.95", ct.n))


#: Column-generation iteration caps of the large-pair PolyOpt and NR runs (per (sensitive attribute,
#: mechanism)); each run also stops at certified relative width ~1e-4 (CG_REL_GAP).  The stop never
#: depends on wall time, so the brackets are the same on every machine (issue 9 item 4).  The masters are
#: polyopt_large's defaults, named in CG_MASTER: the Lagrangian one (the per-block relaxation of the coupling in t,
#: then the proximal bundle), which reaches 1e-4 on the Adult rows of reports/benchmarks/polyopt_large_adult.json
#: in 1-12 iterations for PolyOpt and 1-92 for NR.  (Until 2026-11-26 PolyOpt ran Wentges smoothing with caps
#: 6 / 60, which left its occupation brackets wide, relative width ~0.4, drawn as bands; NR ran Wentges smoothing
#: until later that day, which left its occupation brackets at relative widths 7.5e-4 to 0.44 after 50
#: iterations.)
CG_CAPS = {("occupation", "NR"): 50, ("occupation", "PolyOpt"): 30,
           ("relationship", "NR"): 100, ("relationship", "PolyOpt"): 60}
CG_MASTER = {"PolyOpt": "lagrangian", "NR": "lagrangian"}
CG_REL_GAP = 1e-4
#: a certified NMI bracket narrower than this (relative) is drawn as a curve, a wider one as a band
NARROW = 1e-3


def cg_bracket(table, eps: str, mech: str, cap: int, *, lower=None) -> dict:
    """PolyOpt (for the certified lower bounds ``lower`` = L' <= L_{u|s}(F)) or NR on the exact table ``table`` at eps by column
    generation (rldp_verify.rldp.mechanisms.polyopt_large), stopped after ``cap`` iterations or at relative
    width CG_REL_GAP, never on time.  Returns the certified bracket [lower, upper] of LP (46)'s optimum
    (mutual information, nats; lower = that of the exactly feasible mechanism built), the same divided by
    H(X) under P-hat (the NMI's normaliser, nmi_float), and the iteration count."""
    import math

    from rldp_verify.core.information import entropy_float
    from rldp_verify.rldp.mechanisms.polyopt_large import nonrobust_cg, polyopt_cg_from_bounds

    # the master is named, not left to polyopt_large's default, so that a change of default does not move verdicts
    kw = {"rel_gap": CG_REL_GAP, "time_limit": math.inf, "max_iterations": cap, "stabilisation": CG_MASTER.get(mech)}
    if mech == "PolyOpt":
        mechanism, res = polyopt_cg_from_bounds(table, lower, eps, **kw)
    elif mech == "NR":
        mechanism, res = nonrobust_cg(table, eps, **kw)
    else:
        raise ValueError(mech)
    p = [v for r in table for v in r]
    h = entropy_float(p)
    return {"I": (float(res.lower), float(res.upper)), "nmi": (float(res.lower) / h, float(res.upper) / h),
            "nmi_of_mechanism": nmi_float(mechanism.matrix, p), "relative_width": res.relative_width,
            "iterations": res.iterations, "cap": cap}


def large_task(task) -> dict:
    """One evaluation on a large pair at one eps: ("direct", ...) GRR, SRR and IR (float split search);
    ("PolyOpt" or "NR", ...) the certified bracket of :func:`cg_bracket`."""
    from rldp_verify.rldp.mechanisms import grr_matrix, srr_matrix

    kind, s, u, keep, cert, e = task
    ct = adult_table(s, u, keep_missing=keep)
    a1, a2 = len(ct.sensitive), len(ct.public)
    if kind != "direct":
        table = tuple(tuple(r) for r in ct.phat())
        lower = None
        if kind == "PolyOpt":
            from dataclasses import replace

            from rldp_verify.rldp.mechanisms.rounding import lower_bounds
            from rldp_verify.rldp.uncertainty import read_table

            from ._sec8 import _ball_template

            lower = lower_bounds(replace(_ball_template(a1, a2, ct.n, "0.05"), phat=read_table([list(r) for r in table])))
        return cg_bracket(table, e, kind, CG_CAPS[(s, kind)], lower=lower)
    p = [v for r in ct.phat() for v in r]
    d = _large_distance(s, u, keep, cert)
    r = privacy_level(e).exp_eps
    return {"nmi": {"GRR": nmi_float(grr_matrix(a1 * a2, r), p), "SRR": nmi_float(srr_matrix(a1, a2, r), p),
                    "IR": nmi_float(ir_split_search(p, a1, a2, r, d)[1], p)},
            "label": f"{s} x {u} ({a1} x {a2}{', ? kept' if keep else ''}, d = {float(d):.4f})"}


def large_runs(ctx=None):
    """The large pairs: GRR, SRR and IR (float split search), IR with d = 2 or a certified d' >= d.
    d = 2 >= Theorem 5's d always, so the IR mechanism is (eps, F)-RLDP; its utility is at most that of
    IR with the exact d, so a finding 'IR beats SRR' made with it is conservative.  PolyOpt and NR (which
    the paper could not compute): certified brackets by column generation (:func:`cg_bracket`, CG_CAPS).
    label -> eps -> {"nmi": {GRR, SRR, IR}, "bracket": {PolyOpt, NR: (lower, upper) NMI}, "cg": {...}};
    all (pair, mechanism, eps) tasks fan out over ctx's Dask cluster (deterministic)."""
    if "large" not in _CACHE:
        tasks = [(kind, s, u, keep, cert, e) for kind in ("direct", "PolyOpt", "NR")
                 for s, u, keep, cert in LARGE_PAIRS for e in EPS_GRID]
        # longest first (column generation for NR, then PolyOpt; the larger pair and the larger eps first: the
        # iteration counts of reports/benchmarks/polyopt_large_adult.json), so that the Dask workers do not end
        # on one long task while the other idles; every task is deterministic, so the order changes no result
        rank = {"NR": 0, "PolyOpt": 1, "direct": 2}
        order = sorted(range(len(tasks)), key=lambda i: (rank[tasks[i][0]], tasks[i][1] != "occupation",
                                                         -float(tasks[i][5])))
        done = (ctx.map if ctx is not None else lambda f, ts: [f(t) for t in ts])(large_task, [tasks[i] for i in order])
        res = [None] * len(tasks)
        for i, r in zip(order, done, strict=True):
            res[i] = r
        labels = {(t[1], t[5]): r["label"] for t, r in zip(tasks, res, strict=True) if t[0] == "direct"}
        out: dict = {}
        for (kind, s, _u, _keep, _cert, e), r in zip(tasks, res, strict=True):
            row = out.setdefault(labels[(s, e)], {}).setdefault(e, {"nmi": {}, "bracket": {}, "cg": {}})
            if kind == "direct":
                row["nmi"] = r["nmi"]
            else:
                row["bracket"][kind] = r["nmi"]
                row["cg"][kind] = {k: r[k] for k in ("I", "relative_width", "iterations", "cap", "nmi_of_mechanism")}
        _CACHE["large"] = out
    return _CACHE["large"]


def _large_note(pair: str) -> str:
    """The note of a large pair's panel: which curves the paper could not draw and what ours are."""
    s = pair.split(" x ")[0]
    return (f"PolyOpt, NR: the paper could not draw them (vertex enumeration ran out of memory).\n"
            f"Here: certified brackets of the NMI (column generation, no enumeration), stopped after\n"
            f"{CG_CAPS[(s, 'PolyOpt')]} (PolyOpt) / {CG_CAPS[(s, 'NR')]} (NR) iterations or at relative width "
            f"{CG_REL_GAP:.0e}; band where wider than {NARROW:.0e}")


def _table(runs, mechs=("GRR", "SRR", "IR", "PolyOpt", "NR")):
    return {pair: {e: {m: fmt(r["nmi"][m]) for m in mechs if m in r["nmi"]} for e, r in rows.items()}
            for pair, rows in runs.items()}


def _ordering_certificates(compared, p) -> dict:
    """Per comparison "A beats B" at eps: the ``rigorous-value`` certificate I_P^(A) - I_P^(B) > 0, both mutual
    informations evaluated by the checker from the exact matrices; where IR loses, the claim compares against the
    upper end of the certified bracket of eq. (82)'s optimum, which the certificate does not cover (it states the
    comparison with the IR mechanism returned)."""
    from rldp_verify.certificates.claims import built
    from rldp_verify.certificates.value import mutual_information_expr, value_certificate

    ev = built(lambda: [value_certificate(f"eps = {e}: I(X;Y) of {a} > I(X;Y) of {b} (adult sex x income, P-hat)",
                                          ["-", mutual_information_expr(mech[a].matrix, p),
                                           mutual_information_expr(mech[b].matrix, p)], lower=0, strict=True)
                        for e, a, b, mech in compared])
    if any(b == "IR" for _, _, b, _ in compared):
        ev["certificate_covers"] = ("every comparison with the mechanisms returned; not, where IR loses, the claim's "
                                    "stronger comparison with the upper end of eq. (82)'s certified optimum bracket")
    return ev


@claim(
    id="rldp.sec8.adult-tiny-orderings",
    paper=PAPER,
    source="Sec. 8.1, second paragraph (orderings in Figure 2), smallest instance",
    statement="On a small adult pair: PolyOpt beats IR and SRR; IR beats SRR at high privacy and is overtaken by "
              "SRR at low privacy; GRR is worst; NR beats PolyOpt.",
    hypotheses=("adult sex x income (2 x 2), n = 32,561, alpha = 2, beta = 0.05", "eps = 0.25 and eps = 2"),
    method=Method.EXACT,
    reading="Each comparison is certified: A beats B when a rigorous lower bound of I(A) exceeds a rigorous upper "
            "bound of I(B) (for IR, the upper end of the certified bracket of the optimum of eq. (82) when IR is "
            "the loser, the certified utility of the returned split when IR is the winner).",
)
def check_tiny(ctx):
    ct = adult_table("sex", "income")
    ball = RenyiBall.from_confidence([list(r) for r in ct.phat()], 2, "0.95", ct.n)
    d = ir_distance(ball)
    p = [v for r in ct.phat() for v in r]
    fails, rows, compared = [], {}, []   # compared: (eps, winner, loser, mechanisms) for certificates (issue 23)
    for e in ("0.25", "2"):
        mech = {"GRR": grr(ball, e), "SRR": srr(ball, e), "PolyOpt": polyopt(ball, e), "NR": nonrobust(ball, e),
                "IR": independent_reporting(ball, e, d=d)}
        lo = {m: mutual_information_bounds(q.matrix, p, dps=30)[0] for m, q in mech.items()}
        hi = {m: mutual_information_bounds(q.matrix, p, dps=30)[1] for m, q in mech.items()}
        hi["IR"] = max(hi["IR"], Fraction(mech["IR"].parameters["eq82_optimum_bracket"][1]))
        rows[e] = {m: f"{float(lo[m]):.6f}" for m in mech}

        def better(a, b):
            return lo[a] > hi[b]

        wants = [("PolyOpt", "IR"), ("PolyOpt", "SRR"), ("NR", "PolyOpt")] + [(m, "GRR") for m in ("SRR", "IR", "PolyOpt", "NR")]
        wants.append(("IR", "SRR") if e == "0.25" else ("SRR", "IR"))
        for a, b in wants:
            if not better(a, b):
                fails.append(f"eps={e}: {a} > {b} not certified")
            compared.append((e, a, b, mech))
    ev = {"I_Phat (nats, certified lower bounds)": rows}
    ev.update(_ordering_certificates(compared, p))
    if fails:
        return Outcome.refuted("; ".join(fails), counterexample=fails, **ev, kind="false")
    return Outcome.verified("all 16 orderings certified on sex x income at eps = 0.25 and 2 (IR > SRR at 0.25, "
                            "SRR > IR at 2)", **ev)


@claim(
    id="rldp.sec8.adult-polyopt-beats-ir-srr",
    paper=PAPER,
    source="Sec. 8.1, second paragraph (\"PolyOpt clearly outperformed IR and SRR in the first two experiments, "
           "especially in the high-privacy regime (low eps)\")",
    statement="On the small adult pairs PolyOpt's NMI exceeds IR's and SRR's at every eps, the more so at low eps.",
    hypotheses=SMALL_HYP,
    method=Method.PROPERTY,
    reading="'especially at low eps' read relatively: (PolyOpt - max(IR, SRR)) / PolyOpt is larger at the smallest "
            "eps than at the largest; the absolute advantage is reported too (it is not monotone). Note the text "
            "later says 'especially in the low-privacy regime, PolyOpt was the preferable RLDP mechanism'.",
    slow=True,
    group=GROUP,
)
def check_polyopt_beats(ctx):
    runs = small_runs(ctx)
    fails, adv, notes = [], {}, []
    for pair, rows in runs.items():
        adv[pair] = {}
        for e, r in rows.items():
            n = r["nmi"]
            best = max(n["IR"], n["SRR"])
            adv[pair][e] = {"abs": fmt(n["PolyOpt"] - best), "rel": fmt((n["PolyOpt"] - best) / n["PolyOpt"])}
            if not beats(n["PolyOpt"], best):
                fails.append(f"{pair}, eps={e}: PolyOpt {fmt(n['PolyOpt'])} <= max(IR, SRR) {fmt(best)}")
        lo, hi = rows[EPS_GRID[0]]["nmi"], rows[EPS_GRID[-1]]["nmi"]
        a_lo = lo["PolyOpt"] - max(lo["IR"], lo["SRR"])
        a_hi = hi["PolyOpt"] - max(hi["IR"], hi["SRR"])
        if not a_lo / lo["PolyOpt"] > a_hi / hi["PolyOpt"]:
            fails.append(f"{pair}: relative advantage at eps={EPS_GRID[0]} not above that at eps={EPS_GRID[-1]}")
        if not a_lo > a_hi:
            notes.append(f"{pair}: absolute advantage {fmt(a_lo)} at eps={EPS_GRID[0]} below {fmt(a_hi)} at "
                         f"eps={EPS_GRID[-1]}")
    ev = {**no_certificate(FIGURE_REASON),
          "NMI": _table(runs), "advantage PolyOpt - max(IR,SRR)": adv, "notes": notes}
    if fails:
        return Outcome.refuted("; ".join(fails), counterexample=fails, **ev, kind="false")
    return Outcome.verified("PolyOpt > max(IR, SRR) at all eps on both pairs; relative advantage largest at low eps"
                            + (f" (absolute advantage not: {'; '.join(notes)})" if notes else ""), **ev)


def _crossing(runs):
    info = {}
    for pair, rows in runs.items():
        info[pair] = {}
        for e, r in rows.items():
            n = r["nmi"]
            adv = n["PolyOpt"] - max(n["IR"], n["SRR"])
            info[pair][e] = {"SRR - IR": fmt(n["SRR"] - n["IR"]), "PolyOpt advantage": fmt(adv),
                             "|SRR-IR| / advantage": fmt(abs(n["SRR"] - n["IR"]) / adv, 3)}
    return info


@claim(
    id="rldp.sec8.adult-ir-srr-crossing",
    paper=PAPER,
    source="Sec. 8.1, second paragraph (\"IR outperformed SRR in the high-privacy regime, but was slightly overtaken "
           "for high eps\")",
    statement="On the small adult pairs IR beats SRR at low eps and SRR beats IR at high eps.",
    hypotheses=SMALL_HYP,
    method=Method.PROPERTY,
    slow=True,
    group=GROUP,
)
def check_ir_srr_crossing(ctx):
    runs = small_runs(ctx)
    fails, where = [], {}
    for pair, rows in runs.items():
        lo, hi = rows[EPS_GRID[0]]["nmi"], rows[EPS_GRID[-1]]["nmi"]
        where[pair] = [e for e in EPS_GRID if beats(rows[e]["nmi"]["SRR"], rows[e]["nmi"]["IR"])]
        if not beats(lo["IR"], lo["SRR"]):
            fails.append(f"{pair}: IR {fmt(lo['IR'])} does not beat SRR {fmt(lo['SRR'])} at eps={EPS_GRID[0]}")
        if not beats(hi["SRR"], hi["IR"]):
            fails.append(f"{pair}: SRR does not overtake IR at eps={EPS_GRID[-1]}")
    ev = {**no_certificate(FIGURE_REASON),
          "eps where SRR > IR": where, "comparison": _crossing(runs)}
    if fails:
        return Outcome.refuted("; ".join(fails), counterexample=fails, **ev, kind="false")
    return Outcome.verified("IR > SRR at low eps, SRR > IR from eps = "
                            + ", ".join(f"{w[0]} ({p})" for p, w in where.items()), **ev)


@claim(
    id="rldp.sec8.adult-ir-srr-marginal",
    paper=PAPER,
    source="Sec. 8.1, second paragraph (\"slightly overtaken ... the difference between IR and SRR in the low-privacy "
           "regime was only marginal compared to the advantage of PolyOpt over both\")",
    statement="Where SRR overtakes IR (high eps), SRR - IR is marginal compared with PolyOpt - max(IR, SRR).",
    hypotheses=SMALL_HYP,
    method=Method.PROPERTY,
    reading="'marginal compared to': SRR - IR < (PolyOpt - max(IR, SRR)) / 3 at every grid eps where SRR > IR (our "
            "threshold; the ratios are in the evidence). The paper's pairs and eps range are not given, so a "
            "split result (holds on one pair or eps range, fails on another) is INCONCLUSIVE.",
    slow=True,
    group=GROUP,
)
def check_ir_srr_marginal(ctx):
    runs = small_runs(ctx)
    good, bad = [], []
    for pair, rows in runs.items():
        for e, r in rows.items():
            n = r["nmi"]
            if not beats(n["SRR"], n["IR"]):
                continue
            adv = n["PolyOpt"] - max(n["IR"], n["SRR"])
            (good if n["SRR"] - n["IR"] < adv / 3 else bad).append(
                f"{pair}, eps={e}: SRR - IR = {fmt(n['SRR'] - n['IR'])}, PolyOpt advantage {fmt(adv)}")
    ev = {**no_certificate(FIGURE_REASON),
          "comparison": _crossing(runs), "marginal": good, "not marginal": bad}
    if not bad:
        return Outcome.verified(f"marginal at all {len(good)} points where SRR > IR", **ev)
    if not good:
        return Outcome.refuted("SRR - IR is not marginal at any point where SRR > IR: " + "; ".join(bad),
                               counterexample=bad, **ev, kind="false")
    return Outcome.inconclusive(f"marginal at {len(good)} points, not at {len(bad)}: " + "; ".join(bad),
                                would_decide="a number for 'marginal' from the paper (we use: SRR - IR below a third of "
                                             "PolyOpt's advantage) or the eps range the sentence covers", **ev)


@claim(
    id="rldp.sec8.adult-large-ir-beats-srr",
    paper=PAPER,
    source="Sec. 8.1, second paragraph (\"In the second two experiments, where PolyOpt was infeasible, ... IR clearly "
           "outperformed SRR\"); also \"GRR performed the worst\"",
    statement="On large adult pairs IR's NMI exceeds SRR's at every eps, and GRR is below both.",
    hypotheses=("adult occupation x education (15 x 16, '?' kept, as a = 240 requires) and relationship x education "
                "(6 x 16, our choice: the paper's fourth pair is not named); alpha = 2, beta = 0.05",
                f"eps in {', '.join(EPS_GRID)}",
                "IR: occupation x education with d = 2 (always >= Theorem 5's d, so IR is (eps, F)-RLDP; its utility "
                "is at most that of IR with the exact d: the comparison errs against IR), relationship x education "
                "with the certified d' >= d; eq. (82) solved by a float search (errs low, against IR)"),
    method=Method.PROPERTY,
    slow=True,
    group=GROUP,
)
def check_large(ctx):
    runs = large_runs(ctx)
    fails = []
    for pair, rows in runs.items():
        for e, r in rows.items():
            n = r["nmi"]
            if not beats(n["IR"], n["SRR"]):
                fails.append(f"{pair}, eps={e}: IR {n['IR']:.3e} <= SRR {n['SRR']:.3e}")
            if not (beats(n["SRR"], n["GRR"]) and beats(n["IR"], n["GRR"])):
                fails.append(f"{pair}, eps={e}: GRR {n['GRR']:.3e} not below SRR and IR")
    ratio = {pair: {e: fmt(r["nmi"]["IR"] / r["nmi"]["SRR"], 2) for e, r in rows.items()} for pair, rows in runs.items()}
    ev = {**no_certificate(LARGE_REASON),
          "NMI": {p: {e: {m: f"{v:.3e}" for m, v in r["nmi"].items()} for e, r in rows.items()}
                  for p, rows in runs.items()}, "IR / SRR": ratio, "missing curves": MISSING_CURVES}
    if fails:
        return Outcome.refuted("; ".join(fails[:6]), counterexample=fails, **ev, kind="false")
    return Outcome.verified("IR > SRR > GRR at every eps on both large pairs; IR / SRR up to "
                            f"{max(float(v) for d in ratio.values() for v in d.values()):.1f}", **ev)


@claim(
    id="rldp.sec8.adult-grr-worst",
    paper=PAPER,
    source="Sec. 8.1, second paragraph (\"in all experiments, GRR performed the worst, and the best RLDP mechanism "
           "significantly outperformed GRR\")",
    statement="GRR has the lowest NMI in every adult experiment, and the best RLDP mechanism's NMI is well above GRR's.",
    hypotheses=SMALL_HYP + ("plus the large pairs of rldp.sec8.adult-large-ir-beats-srr",),
    method=Method.PROPERTY,
    reading="'significantly' as in the statistical standard (README): best RLDP NMI >= 1.2 x GRR's (SIGNIFICANT; one "
            "data set per pair, so compared exactly; the ratios are in the evidence). The "
            "paper does not give Figure 2's eps range: a failure only at the top of our grid is INCONCLUSIVE.",
    slow=True,
    group=GROUP,
)
def check_grr_worst(ctx):
    fails, ratio = [], {}
    for runs in (small_runs(ctx), large_runs(ctx)):
        for pair, rows in runs.items():
            ratio[pair] = {}
            for e, r in rows.items():
                n = r["nmi"]
                others = [m for m in n if m != "GRR"]
                below = [m for m in others if not beats(n[m], n["GRR"])]
                if below:
                    fails.append((e, f"{pair}, eps={e}: {', '.join(below)} at or below GRR "
                                     f"({', '.join(fmt(n[m]) for m in below)} vs {fmt(n['GRR'])})"))
                best = max(n[m] for m in others if m != "NR")
                ratio[pair][e] = fmt(best / n["GRR"], 2)
                if not best >= standard.SIGNIFICANT * n["GRR"]:
                    fails.append((e, f"{pair}, eps={e}: best RLDP / GRR = {fmt(best / n['GRR'], 2)} < "
                                     f"{standard.SIGNIFICANT}"))
    path, rel = figure_path(ctx, "rldp_sec8_fig2_adult.png")

    def curves(rows):
        return {m: [rows[e]["nmi"][m] for e in EPS_GRID] for m in rows[EPS_GRID[0]]["nmi"]}

    panels = [(f"adult {pair}", list(EPS_GRID), curves(rows), None) for pair, rows in small_runs(ctx).items()]
    panels += [(f"adult {pair}", list(EPS_GRID), curves(rows), _large_note(pair),
                {m: [rows[e]["bracket"][m] for e in EPS_GRID] for m in ("PolyOpt", "NR")})
               for pair, rows in large_runs(ctx).items()]
    fig2_adult(path, panels, narrow_tol=NARROW)
    ev = {"best RLDP / GRR": ratio, "failures": [f for _, f in fails], "figure": rel, "missing curves": MISSING_CURVES}
    if not fails:
        return Outcome.verified(f"GRR lowest everywhere, best RLDP >= {standard.SIGNIFICANT} x GRR", **ev)
    bad_eps = sorted({float(e) for e, _ in fails})
    ok_eps = [e for e in EPS_GRID if float(e) < bad_eps[0]]
    msg = "; ".join(f for _, f in fails[:4])
    if ok_eps and bad_eps[0] == float(EPS_GRID[-1]):
        return Outcome.inconclusive(f"holds for eps <= {ok_eps[-1]}, fails at eps = {EPS_GRID[-1]}: {msg}",
                                    would_decide=f"whether the sentence covers eps = {EPS_GRID[-1]}, the end of the "
                                                 "paper's grid (then REFUTED) or the range below it (then VERIFIED)",
                                    **ev)
    return Outcome.refuted(msg, counterexample=[f for _, f in fails], **ev, kind="false")


@claim(
    id="rldp.sec8.adult-nr-best",
    paper=PAPER,
    source="Sec. 8.1, second paragraph (\"NR outperformed the RLDP methods, although the difference between NR and "
           "PolyOpt was marginal for higher eps\")",
    statement="On the small adult pairs NR's NMI is at least every RLDP mechanism's, and the NR - PolyOpt gap is "
              "small at high eps.",
    hypotheses=SMALL_HYP,
    method=Method.PROPERTY,
    reading="'marginal for higher eps': (NR - PolyOpt) / NR <= 2 % at the largest eps of the grid and below its "
            "value at the smallest eps (our threshold; all gaps in the evidence). NR >= PolyOpt is also a theorem "
            "(nested feasible sets, rldp.orderings.nested).",
    slow=True,
    group=GROUP,
)
def check_nr_best(ctx):
    runs = small_runs(ctx)
    fails, gaps = [], {}
    for pair, rows in runs.items():
        gaps[pair] = {}
        for e, r in rows.items():
            n = r["nmi"]
            if any(beats(n[m], n["NR"]) for m in n if m != "NR"):
                fails.append(f"{pair}, eps={e}: an RLDP mechanism beats NR")
            gaps[pair][e] = (n["NR"] - n["PolyOpt"]) / n["NR"]
        g_lo, g_hi = gaps[pair][EPS_GRID[0]], gaps[pair][EPS_GRID[-1]]
        if not (g_hi <= 0.02 and g_hi < g_lo):
            fails.append(f"{pair}: (NR - PolyOpt)/NR = {100 * g_hi:.2f} % at eps={EPS_GRID[-1]} "
                         f"({100 * g_lo:.2f} % at eps={EPS_GRID[0]})")
    pct = {p: {e: f"{100 * g:.2f} %" for e, g in d.items()} for p, d in gaps.items()}
    ev = {**no_certificate(FIGURE_REASON),
          "NMI": _table(runs), "(NR - PolyOpt) / NR": pct}
    if fails:
        return Outcome.refuted("; ".join(fails[:6]), counterexample=fails, **ev, kind="false")
    return Outcome.verified("NR >= all RLDP mechanisms; (NR - PolyOpt)/NR at eps = " + EPS_GRID[-1] + ": "
                            + ", ".join(f"{p} {pct[p][EPS_GRID[-1]]}" for p in pct) + "; at eps = 1.5: "
                            + ", ".join(f"{p} {pct[p]['1.5']}" for p in pct), **ev)


def judge_large_polyopt(runs, *, against: str = "lower") -> dict:
    """Per (pair, eps) of ``runs`` (large_runs' shape): 'holds' when PolyOpt's certified lower NMI beats
    max(IR, SRR, GRR), 'open' when only its certified upper end does, 'fails' when even the upper end
    does not (beats: more than TIE). ``against`` = "upper" is the wrong reading (the optimistic end of the
    bracket taken as PolyOpt's value), kept for the mutation check in the tests. Also the NR - PolyOpt
    gap: at least NR's lower minus PolyOpt's upper, at most NR's upper minus PolyOpt's lower (NMI)."""
    out: dict = {"holds": [], "open": [], "fails": [], "nr_gap": {}}
    for pair, rows in runs.items():
        out["nr_gap"][pair] = {}
        for e, r in rows.items():
            n, (p_lo, p_hi), (nr_lo, nr_hi) = r["nmi"], r["bracket"]["PolyOpt"], r["bracket"]["NR"]
            rival = max(("IR", "SRR", "GRR"), key=lambda m: n[m])
            mine = p_lo if against == "lower" else p_hi
            where = f"{pair}, eps={e}: PolyOpt in [{p_lo:.4e}, {p_hi:.4e}], best other {rival} {n[rival]:.4e}"
            if beats(mine, n[rival]):
                out["holds"].append(where)
            elif beats(p_hi, n[rival]):
                out["open"].append(where)
            else:
                out["fails"].append(where)
            out["nr_gap"][pair][e] = {"NR - PolyOpt at least": f"{max(nr_lo - p_hi, 0.0):.4e}",
                                      "at most": f"{nr_hi - p_lo:.4e}",
                                      "NR / PolyOpt at most": f"{nr_hi / p_lo:.4g}" if p_lo > 0 else "inf"}
    return out


@claim(
    id="rldp.sec8.adult-large-polyopt",
    paper=PAPER,
    source="Sec. 8.1, second paragraph (\"PolyOpt clearly outperformed IR and SRR in the first two experiments\"; "
           "\"In the second two experiments, where PolyOpt was infeasible\"): the question the paper could not "
           "answer on its large pairs",
    statement="On the large adult pairs, PolyOpt's NMI exceeds IR's, SRR's and GRR's at every eps (and NR's "
              "exceeds PolyOpt's: by how much?).",
    hypotheses=("adult occupation x education (15 x 16, '?' kept, |X| = 240) and relationship x education "
                "(6 x 16, |X| = 96); alpha = 2, beta = 0.05, PolyOpt with certified L' <= L_{u|s}(F)",
                f"eps in {', '.join(EPS_GRID)}",
                "PolyOpt and NR: certified brackets [lower, upper] of LP (46)'s optimum by column generation "
                "(no enumeration of Gamma-hat), divided by H(X) under P-hat (the NMI's normaliser); lower = "
                "the NMI of a mechanism whose rows lie in Gamma_eps exactly; iteration caps "
                + ", ".join(f"{s} x education {m}: {k}" for (s, m), k in CG_CAPS.items())
                + f", or relative width {CG_REL_GAP:.0e} (never a time limit: the same brackets on every machine)",
                "IR, SRR, GRR as in rldp.sec8.adult-large-ir-beats-srr (IR's utility errs low)"),
    method=Method.PROPERTY,
    reading="Judged with PolyOpt's certified lower end: VERIFIED when it beats max(IR, SRR, GRR) at every eps; "
            "INCONCLUSIVE where only the bracket's upper end would; REFUTED where even the upper end does not. "
            "Comparisons in double precision, differences below 1e-9 are ties. NR - PolyOpt is reported as a "
            "certified range (evidence), not judged.",
    slow=True,
    group=GROUP,
)
def check_large_polyopt(ctx):
    runs = large_runs(ctx)
    j = judge_large_polyopt(runs)
    ev = {**no_certificate(LARGE_REASON),
          "NMI (IR, SRR, GRR)": {p: {e: {m: f"{v:.4e}" for m, v in r["nmi"].items()} for e, r in rows.items()}
                                 for p, rows in runs.items()},
          "certified NMI brackets": {p: {e: {m: [f"{lo:.6e}", f"{hi:.6e}"] for m, (lo, hi) in r["bracket"].items()}
                                         for e, r in rows.items()} for p, rows in runs.items()},
          "column generation (iterations / cap, relative width)": {
              p: {e: {m: f"{c['iterations']} / {c['cap']}, {c['relative_width']:.1e}" for m, c in r["cg"].items()}
                  for e, r in rows.items()} for p, rows in runs.items()},
          "NR - PolyOpt (NMI)": j["nr_gap"], "PolyOpt certified above the others": j["holds"],
          "only the upper end above": j["open"], "not even the upper end above": j["fails"],
          "missing curves": MISSING_CURVES}
    gaps = [g for d in j["nr_gap"].values() for g in d.values()]
    above = sum(float(g["NR - PolyOpt at least"]) > 0 for g in gaps)
    nr = (f"; NR certified above PolyOpt at {above} of {len(gaps)} (pair, eps), NR - PolyOpt between "
          f"{min(float(g['NR - PolyOpt at least']) for g in gaps):.3g} and {max(float(g['at most']) for g in gaps):.3g} "
          "NMI")
    if j["fails"]:
        return Outcome.refuted("even PolyOpt's certified upper end is not above the best other mechanism: "
                               + "; ".join(j["fails"][:4]), counterexample=j["fails"], **ev, kind="false")
    if j["open"]:
        return Outcome.inconclusive(f"PolyOpt certified above IR, SRR, GRR at {len(j['holds'])} of "
                                    f"{len(j['holds']) + len(j['open'])} (pair, eps); only its bracket's upper end "
                                    "is above at: " + "; ".join(j["open"][:4]) + nr,
                                    would_decide="a tighter certified bracket of PolyOpt's optimum at those (pair, "
                                                 "eps) (its lower end above the best other mechanism)", **ev)
    return Outcome.verified(f"PolyOpt's certified lower end beats max(IR, SRR, GRR) at all {len(j['holds'])} "
                            "(pair, eps) of both large pairs" + nr, **ev)
