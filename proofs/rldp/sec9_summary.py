"""Sec. 9 (Conclusions): the summary claims that our Sec. 8 runs can check.

Paper: 000_aca93ed29ea857ee.txt. The evidence is that of the Sec. 8 claims (same cached runs:
adult sex x income and sex x race, synthetic 2 x 2 and 2 x 5; see proofs/rldp/sec8_adult.py and
proofs/rldp/sec8_synthetic.py), plus one exact instance for the SRR sentence.
"""

from __future__ import annotations

import time
from fractions import Fraction

import numpy as np

from rldp_verify.certificates.claims import no_certificate
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core import standard
from rldp_verify.rldp.experiments import quantile
from rldp_verify.rldp.mechanisms import (
    check_prop3,
    independent_reporting,
    ir_distance,
    mutual_information_bounds,
    nonrobust,
    polyopt,
    srr,
)
from rldp_verify.rldp.uncertainty import RenyiBall

from ._sec8 import (
    COL,
    EPS_GRID,
    GROUP,
    PAPER,
    STATISTICAL_REASON,
    adult_table,
    decided,
    exact_decision,
    fmt,
    nmi_rows,
)

SETTINGS_TXT = ("adult sex x income, sex x race (exact mechanisms, eps in " + ", ".join(EPS_GRID) + ")",
                "synthetic P* ~ Dirichlet(1/2), n = 32,561: 2 x 2 and 2 x 5, 100 runs each (as in the paper), same "
                "eps; alpha = 2, beta = 0.05")


@claim(
    id="rldp.sec9.polyopt-close-to-nr",
    paper=PAPER,
    source="Sec. 9, first paragraph (\"we showed that the utility of PolyOpt is close to the utility of the optimal "
           "non-robust privacy mechanism ... asking for robustness in privacy comes at only a small performance "
           "penalty in utility\")",
    statement="PolyOpt's NMI is close to NR's.",
    hypotheses=SETTINGS_TXT,
    method=Method.PROPERTY,
    reading="'close' as in the statistical standard (README): (NR - PolyOpt) / NR <= 5 %, at every eps (the "
            "sentence is unqualified; Sec. 8.1 itself says 'marginal for higher eps'); on the synthetic runs the ratio "
            "of the mean NMIs, decided on its 95 % bootstrap interval; on the adult pairs (one data set each) exactly.",
    slow=True,
    group=GROUP,
)
def check_close(ctx):
    from .sec8_adult import small_runs
    from .sec8_synthetic import SETTINGS, runs

    def gap(x):
        return float((np.mean(x[:, COL["NR"]]) - np.mean(x[:, COL["PolyOpt"]])) / np.mean(x[:, COL["NR"]]))
    decisions, gaps = [], {}
    for pair, rows in small_runs(ctx).items():
        g = {e: (r["nmi"]["NR"] - r["nmi"]["PolyOpt"]) / r["nmi"]["NR"] for e, r in rows.items()}
        gaps[f"adult {pair}"] = g
        decisions += [exact_decision(f"adult {pair}, eps={e}: (NR - PolyOpt) / NR", v, standard.CLOSE, "<=")
                      for e, v in g.items()]
    for sh, (_K, eps_list) in SETTINGS.items():
        lab = f"synthetic {sh[0]} x {sh[1]} (mean)"
        gaps[lab] = {}
        for e in eps_list:
            X = nmi_rows(runs(ctx, sh, e))
            gaps[lab][e] = gap(X)
            decisions.append(standard.decide(f"{lab}, eps={e}: (NR - PolyOpt) / NR", X, gap, standard.CLOSE, "<="))
    pct = {k: {e: f"{100 * g:.2f} %" for e, g in d.items()} for k, d in gaps.items()}
    close_from = {k: min((e for e in d if all(g <= 0.05 for e2, g in d.items() if float(e2) >= float(e))),
                         key=float, default=None) for k, d in gaps.items()}
    return decided("PolyOpt close to NR", decisions, {"(NR - PolyOpt) / NR": pct, "gap <= 5 % from eps": close_from,
                                                     **no_certificate(CLOSE_REASON)})


#: why rldp.sec9.polyopt-close-to-nr carries no certificate (issue 23)
CLOSE_REASON = ("readings on the synthetic runs are statistical (README's statistical standard: means over random runs, "
                "95 % bootstrap intervals); those on the Adult pairs compare single runs, where a certificate of "
                "'(NR - PolyOpt)/NR > 5 %' would need an upper bound on PolyOpt's optimum (a convex utility maximised "
                "over Gamma-hat: a vertex-enumeration or dual certificate per pair and eps) besides NR's utility; not "
                "wired into this check")


@claim(
    id="rldp.sec9.nonrobust-privacy-cost",
    paper=PAPER,
    source="Sec. 9, first paragraph (\"not asking for robustness comes at a substantial privacy cost\"), from Sec. 8.3",
    statement="NR's realised eps* under P* substantially exceeds the promised eps.",
    hypotheses=SETTINGS_TXT[1:],
    method=Method.PROPERTY,
    reading="'substantial' read as 'significantly larger' in the statistical standard (README): the median of "
            "eps*/eps over runs >= 1.2, decided on its 95 % bootstrap interval; the sentence holds when that reading "
            "holds at some tested eps (a cost paid somewhere), fails when it fails at every eps; the excess at every "
            "eps is in the evidence.",
    slow=True,
    group=GROUP,
)
def check_cost(ctx):
    from .sec8_synthetic import SETTINGS, runs

    ratios, decisions = {}, []
    for sh, (_K, eps_list) in SETTINGS.items():
        lab = f"{sh[0]} x {sh[1]}"
        ratios[lab] = {}
        for e in eps_list:
            r = [x["eps_star"]["NR"] / float(e) for x in runs(ctx, sh, e)]
            med = quantile(r, 0.5)
            ratios[lab][e] = {"median eps*/eps": fmt(med, 3), "q25": fmt(quantile(r, 0.25), 3),
                              "q75": fmt(quantile(r, 0.75), 3), "runs with eps* = inf": sum(x == np.inf for x in r)}
            decisions.append(standard.decide(f"{lab}, eps={e}: median eps*/eps of NR", np.array(r),
                                             lambda x: quantile(x, 0.5), standard.SIGNIFICANT, ">="))
    ev = {"NR eps*/eps": ratios, "readings": [d.record() for d in decisions], **no_certificate(STATISTICAL_REASON)}
    held = [d for d in decisions if d.outcome == standard.HOLDS]
    if held:
        return Outcome.verified("NR leaks significantly more than eps: " + "; ".join(d.text() for d in held[:4])
                                + f" ({len(held)} of {len(decisions)} settings; at higher eps the median excess is "
                                  "small, see evidence)", **ev)
    if all(d.outcome == standard.FAILS for d in decisions):
        return Outcome.refuted("median eps*/eps decided below 1.2 at every tested eps",
                               counterexample={k: {e: v["median eps*/eps"] for e, v in d.items()}
                                               for k, d in ratios.items()}, **ev, kind="false")
    open_ = [d for d in decisions if d.outcome == standard.UNDECIDED]
    return Outcome.inconclusive("no setting decided above 1.2: " + "; ".join(d.text() for d in open_[:4]),
                                would_decide="; ".join(f"{d.reading}: about {d.instances_to_decide} instances"
                                                       for d in open_), **ev)


@claim(
    id="rldp.sec9.rldp-beats-ldp",
    paper=PAPER,
    source="Sec. 9, first paragraph (\"taking RLDP rather than LDP as a privacy constraint ... significantly improves "
           "utility\")",
    statement="The best RLDP mechanism's NMI is well above GRR's (the LDP baseline).",
    hypotheses=SETTINGS_TXT,
    method=Method.PROPERTY,
    reading="'significantly improves' as in the statistical standard (README): best RLDP NMI >= 1.2 x GRR's; on the "
            "synthetic runs the ratio of the mean NMIs (the best RLDP mechanism by mean), decided on its 95 % "
            "bootstrap interval; on the adult pairs exactly. A failure only at the top of our eps grid is "
            "INCONCLUSIVE (the paper's eps range is not given).",
    slow=True,
    group=GROUP,
)
def check_rldp_ldp(ctx):
    from .sec8_adult import small_runs
    from .sec8_synthetic import SETTINGS, runs

    def gain(x):
        return float(max(np.mean(x[:, COL[m]]) for m in ("SRR", "IR", "PolyOpt")) / np.mean(x[:, COL["GRR"]]))
    ratio, decisions = {}, []
    for p, rows in small_runs(ctx).items():
        ratio[f"adult {p}"] = {}
        for e, r in rows.items():
            g = max(r["nmi"][m] for m in ("SRR", "IR", "PolyOpt")) / r["nmi"]["GRR"]
            ratio[f"adult {p}"][e] = fmt(g, 2)
            decisions.append(exact_decision(f"adult {p}, eps={e}: best RLDP / GRR", g, standard.SIGNIFICANT, ">="))
    for sh, (_K, eps_list) in SETTINGS.items():
        lab = f"synthetic {sh[0]} x {sh[1]} (mean)"
        ratio[lab] = {}
        for e in eps_list:
            X = nmi_rows(runs(ctx, sh, e))
            ratio[lab][e] = fmt(gain(X), 2)
            decisions.append(standard.decide(f"{lab}, eps={e}: best RLDP / GRR", X, gain, standard.SIGNIFICANT, ">="))
    top = f"eps={EPS_GRID[-1]}:"
    return decided("RLDP significantly better than LDP", decisions, {"best RLDP / GRR": ratio},
                   excused=lambda d: top in d.reading,
                   excuse_text=f"whether the sentence covers eps = {EPS_GRID[-1]}, the end of our grid (then REFUTED) "
                               "or the range below it")


@claim(
    id="rldp.sec9.srr-less-utility",
    paper=PAPER,
    source="Sec. 9, first paragraph (\"SRR satisfies a stronger privacy requirement ... but as a result has less "
           "utility than mechanisms that do not satisfy this stronger privacy requirement\")",
    statement="SRR has less utility than the mechanisms that are not (eps, P_X)-RLDP (PolyOpt, NR, IR).",
    hypotheses=("adult sex x income (2 x 2), n = 32,561, alpha = 2, beta = 0.05, eps = 2",),
    method=Method.EXACT,
    reading="Read against each mechanism of the paper that is not (eps, P_X)-RLDP; 'not (eps, P_X)-RLDP' certified "
            "by Proposition 3 (check_prop3); utilities certified (IR: upper end of the certified bracket of the "
            "optimum of eq. (82)).",
)
def check_srr_less(ctx):
    ct = adult_table("sex", "income")
    ball = RenyiBall.from_confidence([list(r) for r in ct.phat()], 2, "0.95", ct.n)
    p = [v for r in ct.phat() for v in r]
    e = "2"
    ms = {"SRR": srr(ball, e), "PolyOpt": polyopt(ball, e), "NR": nonrobust(ball, e),
          "IR": independent_reporting(ball, e, d=ir_distance(ball))}
    lo = {m: mutual_information_bounds(q.matrix, p, dps=30)[0] for m, q in ms.items()}
    hi = {m: mutual_information_bounds(q.matrix, p, dps=30)[1] for m, q in ms.items()}
    hi["IR"] = max(hi["IR"], Fraction(ms["IR"].parameters["eq82_optimum_bracket"][1]))
    prop3 = {m: check_prop3(q, e).holds for m, q in ms.items()}
    ev = {"I_Phat lower bounds (nats)": {m: f"{float(v):.6f}" for m, v in lo.items()},
          "(eps, P_X)-RLDP (Prop. 3)": prop3}
    if prop3["SRR"] is not True:
        return Outcome.inconclusive("SRR not certified (eps, P_X)-RLDP",
                                    would_decide="a certified Proposition 3 check of SRR at eps = 2", **ev)
    beaten_by = [m for m in ("PolyOpt", "NR", "IR") if prop3[m] is False and lo[m] > hi["SRR"]]
    beats = [m for m in ("PolyOpt", "NR", "IR") if prop3[m] is False and lo["SRR"] > hi[m]]
    if beats:
        from rldp_verify.certificates.audit import audit_certificate
        from rldp_verify.certificates.claims import built
        from rldp_verify.certificates.value import mutual_information_expr, value_certificate
        from rldp_verify.rldp.audit import audit

        def _certs():   # issue 23: the counterexample -- SRR is (eps, P_X)-RLDP, m is not, and I(SRR) > I(m)
            out = [audit_certificate(audit(ms[m], e, full_simplex=True, dps=ctx.dps), ms[m], e, name=f"{m} over P_X",
                                     full_simplex=True) for m in ["SRR", *beats]]
            out += [value_certificate(f"I_P-hat(SRR) - I_P-hat({m}) > 0", ["-", mutual_information_expr(ms["SRR"].matrix, p),
                                                                        mutual_information_expr(ms[m].matrix, p)],
                                      lower=0, strict=True) for m in beats]
            return out
        ev.update(built(_certs))
        if set(beats) == {"IR"} and {"PolyOpt", "NR"} <= set(beaten_by):
            # issue 24: 'as a result has less utility' is the price of the stronger requirement: against the best
            # mechanisms without it (PolyOpt, NR) it holds; against every such mechanism, IR included, it does not
            ev["readings"] = {
                "literal": f"less than every mechanism that is not (eps, P_X)-RLDP, IR included: at eps = 2 SRR "
                           f"(I >= {float(lo['SRR']):.4f}) beats IR (I <= {float(hi['IR']):.4f})",
                "charitable": "'as a result' of the stronger requirement: less than the best mechanisms without it, "
                              "PolyOpt and NR: SRR is below both (the paper's own Sec. 8.1 shows SRR overtaking the "
                              "low-complexity IR at high eps)"}
            return Outcome.refuted(
                f"reading-dependent: at eps = 2 SRR (I >= {float(lo['SRR']):.4f}) beats IR (I <= "
                f"{float(hi['IR']):.4f}), which is not (eps, P_X)-RLDP; it is below PolyOpt and NR, the best mechanisms "
                "without the stronger requirement (the reading 'as a result' points to)",
                counterexample={"eps": e, "SRR": f"{float(lo['SRR']):.6f}", "IR": f"<= {float(hi['IR']):.6f}"},
                **ev, kind="reading-dependent")
        return Outcome.refuted(
            f"at eps = 2, SRR (I >= {float(lo['SRR']):.4f}) beats {', '.join(beats)} (I <= "
            f"{', '.join(f'{float(hi[m]):.4f}' for m in beats)}), which is not (eps, P_X)-RLDP; SRR is below "
            f"{', '.join(beaten_by)} (the paper's own Sec. 8.1 reports SRR overtaking IR at high eps)",
            counterexample={"eps": e, "SRR": f"{float(lo['SRR']):.6f}", **{m: f"<= {float(hi[m]):.6f}" for m in beats}},
            **ev, kind="false")
    return Outcome.verified(f"SRR below {', '.join(beaten_by)}", **ev)


@claim(
    id="rldp.sec9.ir-quick",
    paper=PAPER,
    source="Sec. 9, first paragraph (\"the optimal division of the privacy budget between these can be found via "
           "1-dimensional optimization; thus, the optimal IR mechanism can be found quickly\"); Sec. 7, after eq. (82)",
    statement="Eq. (82) is solved within seconds even for occupation x education (|X| = 240), where PolyOpt is "
              "infeasible.",
    hypotheses=("adult occupation x education, '?' kept (15 x 16), eps = 1.5, d = 2 (>= Theorem 5's d)",),
    method=Method.PROPERTY,
    reading="'quickly': eq. (82) is a one-dimensional search; we count its evaluations of I_P(X;Y) (each one "
            "240 x 240 matrix) and require at most 200, and check that its value is at least every value on a "
            "17-point grid (a check of the search, not a certificate of the optimum). Wall-clock time is machine- "
            "dependent: it is recorded under 'seconds' only (benchmarks/ measure speed).",
)
def check_ir_quick(ctx):
    from rldp_verify.core.information import mutual_information_float
    from rldp_verify.rldp import experiments
    from rldp_verify.rldp.experiments import ir_float_matrix, ir_split_search
    from rldp_verify.rldp.mechanisms import privacy_level

    ct = adult_table("occupation", "education", keep_missing=True)
    p = [float(v) for r in ct.phat() for v in r]
    a1, a2 = len(ct.sensitive), len(ct.public)
    r = float(privacy_level("1.5").exp_eps)
    calls = [0]

    def counted(Q, pf):
        calls[0] += 1
        return mutual_information_float(Q, pf)
    t0 = time.perf_counter()
    experiments.mutual_information_float = counted   # count the search's evaluations of I (restored below)
    try:
        t, _, val = ir_split_search(p, a1, a2, r, 2)
    finally:
        experiments.mutual_information_float = mutual_information_float
    secs = time.perf_counter() - t0
    grid = [mutual_information_float(ir_float_matrix(a1, a2, r, r ** (k / 16), 2), p) for k in range(17)]
    ev = {"seconds": round(secs, 3), "evaluations_of_I": calls[0], "matrix": f"{a1 * a2} x {a1 * a2}",
          "I": round(val, 6), "max over a 17-point grid": round(max(grid), 6),
          **no_certificate("a count of a search's evaluations (the algorithm's cost, 'quickly') and a double-precision "
                           "comparison of its value with a 17-point grid, a check of the search: no mathematical fact "
                           "about an instance that a certificate could re-evaluate")}
    if val < max(grid) - 1e-12:
        return Outcome.refuted("the split search missed a better grid point", counterexample=ev, **ev, kind="false")
    if calls[0] > 200:
        return Outcome.refuted(f"the search needed {calls[0]} evaluations of I", counterexample=ev, **ev, kind="false")
    return Outcome.verified(f"eq. (82) for |X| = 240 is a one-dimensional search: {calls[0]} evaluations of I_P(X;Y) "
                            "(one 240 x 240 matrix each), at least every value of a 17-point grid", **ev)
