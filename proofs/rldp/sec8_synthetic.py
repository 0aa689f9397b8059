"""Secs. 8.2-8.5 (synthetic data, Figures 3-5, Table 2), at the paper's scale: 100 runs per setting.

Paper: 000_aca93ed29ea857ee.txt. Setting as far as the text defines it: P* ~ Dirichlet(1/2) (Jeffreys
prior) on X, n = 32,561 samples from P*, P-hat the ML estimate, F the chi^2 confidence set (alpha = 2,
beta = 0.05 unless stated), NMI under P-hat. "X was the same as in the experiments on the adult data
set": we use the two adult shapes on which PolyOpt and NR are computed, 2 x 2 and 2 x 5 (the paper's
Figures 3-5 also cannot include PolyOpt or NR on its two large shapes). 100 runs per setting, as in the
paper: every eps of the grid at beta = 0.05, and eps = 1.5 at each beta of Table 2 (the same 100
instances for every eps and beta); the eps* quantile of Sec. 8.3 in batches of 100.
Instances that leave a sensitive value without samples are redrawn (P-hat_{U|s} undefined).
IR uses the float split search (errs low); PolyOpt and NR are exact; eps* (eq. (62), read with the
log: eps* = max log ratio) is exact (:func:`rldp_verify.rldp.mechanisms.realized_eps`).

The runs fan out over Dask (``ctx.map``; one task per instance, seeded by the context seed, the shape
and the instance number only), so the results do not depend on the number of workers.
"""

from __future__ import annotations

import math

import numpy as np

from rldp_verify.certificates.claims import no_certificate
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core import standard
from rldp_verify.rldp.experiments import quantile, quantile_summary
from rldp_verify.rldp.mechanisms import nonrobust, realized_eps

from ._sec8 import (
    EPS_GRID,
    GROUP,
    MECHS,
    N_ADULT,
    PAPER,
    TIE,
    decided,
    evaluate,
    figure_path,
    fmt,
    mean_diff,
    mean_nmi,
    nmi_rows,
    synthetic_instance,
)
from .sec8_figures import fig3_nmi_bands, fig4_eps_star_bands, fig5_difference_spread

RUNS = 100
COL_RLDP = {m: i for i, m in enumerate(MECHS)}
# (a1, a2) -> (runs, eps values)
SETTINGS = {(2, 2): (RUNS, EPS_GRID), (2, 5): (RUNS, EPS_GRID)}
ROBUST_EPS = "1.5"
BETAS = ("0.05", "0.005", "0.0005")
HYP = ("P* ~ Dirichlet(1/2) on X, n = 32,561 samples, alpha = 2, beta = 0.05, NMI under P-hat",
       "X of shape 2 x 2 and 2 x 5 (the adult shapes where PolyOpt and NR are computed), 100 runs each as in the "
       "paper, eps in " + ", ".join(EPS_GRID),
       "orderings of means; differences below 1e-9 are ties",
       "the statistical standard (README, rldp_verify.core.standard): each comparison of means decided on the 95 % "
       "bootstrap interval over the runs (rows resampled together, so the mechanisms stay paired)")


def synthetic_tasks(seed: int, shapes=None, eps_list=EPS_GRID, betas=BETAS) -> list[tuple]:
    """One task per instance: (seed, a1, a2, k, ((eps, beta), ...)): every eps at beta = 0.05 and
    eps = 1.5 at every other beta. A task's result depends on its own fields only."""
    shapes = {sh: K for sh, (K, _) in SETTINGS.items()} if shapes is None else shapes
    pairs = tuple((e, "0.05") for e in eps_list) + tuple((ROBUST_EPS, b) for b in betas if b != "0.05")
    return [(seed, a1, a2, k, pairs) for (a1, a2), K in shapes.items() for k in range(K)]


def run_task(task) -> dict:
    """Run the mechanisms on instance k (all of them at beta = 0.05; SRR, IR and PolyOpt at the other betas)."""
    seed, a1, a2, k, pairs = task
    pstar, table, _ = synthetic_instance(seed, a1, a2, k)
    evals = {}
    for e, b in pairs:
        mechs = MECHS if b == "0.05" else ("SRR", "IR", "PolyOpt")
        evals[(e, b)] = evaluate(table, N_ADULT, e, beta=b, pstar=pstar, mechs=mechs)
    return {"shape": (a1, a2), "k": k, "evals": evals}


_RUNS: dict[int, dict] = {}


def _experiment(ctx) -> dict:
    """shape -> [run_task result for k = 0 .. RUNS - 1], computed once per seed (on ctx's Dask cluster)."""
    if ctx.seed not in _RUNS:
        out = {sh: [] for sh in SETTINGS}
        for r in ctx.map(run_task, synthetic_tasks(ctx.seed)):
            out[r["shape"]].append(r)
        _RUNS[ctx.seed] = out
    return _RUNS[ctx.seed]


def runs(ctx, shape, eps: str, beta: str = "0.05"):
    return [r["evals"][(eps, beta)] for r in _experiment(ctx)[shape]]


def means(ctx):
    return {shape: {e: {m: mean_nmi(runs(ctx, shape, e), m) for m in MECHS} for e in eps_list}
            for shape, (K, eps_list) in SETTINGS.items()}


def nmi_quantiles(ctx, qs=(0.05, 0.25, 0.5, 0.75, 0.95)):
    """shape -> mech -> q -> [quantile of the NMI over the runs at each eps]."""
    return {sh: {m: {q: [quantile([r["nmi"][m] for r in runs(ctx, sh, e)], q) for e in eps_list] for q in qs}
                 for m in MECHS} for sh, (K, eps_list) in SETTINGS.items()}


def _label(shape):
    return f"{shape[0]} x {shape[1]}"


def _means_json(M):
    return {_label(sh): {e: {m: fmt(v) for m, v in d.items()} for e, d in rows.items()} for sh, rows in M.items()}


def _write_figure3(ctx, M):
    path, rel = figure_path(ctx, "rldp_sec8_fig3_nmi.png")
    Q = nmi_quantiles(ctx)
    fig3_nmi_bands(path, {_label(sh): (list(SETTINGS[sh][1]), M[sh], Q[sh]) for sh in SETTINGS}, runs=RUNS)
    return rel


@claim(
    id="rldp.sec8.synthetic-orderings",
    paper=PAPER,
    source="Sec. 8.2 (Figure 3): \"PolyOpt outperformed IR, which outperformed SRR, for small |X| SRR could overtake "
           "IR in the low-privacy regime\"",
    statement="On synthetic data (means over runs) PolyOpt beats IR at every eps, IR beats SRR except that SRR may "
              "overtake IR at high eps for small |X|.",
    hypotheses=HYP,
    method=Method.PROPERTY,
    reading="'outperformed' read as a mean NMI difference above the tie level 1e-9, decided on its 95 % bootstrap "
            "interval; 'SRR could overtake IR' is allowed only at eps from the smallest eps where SRR's lead holds, "
            "with IR > SRR at the smallest eps and no decided IR lead after the overtaking. Also writes the figure (NMI against eps, one adult pair and the 2 x 2 synthetic "
            "setting).",
    slow=True,
    group=GROUP,
)
def check_synthetic_orderings(ctx):
    M = means(ctx)
    fig = _write_figure3(ctx, M)
    decisions, over = [], {}
    for sh, (_K, eps_list) in SETTINGS.items():
        lab = _label(sh)
        rows = {e: nmi_rows(runs(ctx, sh, e)) for e in eps_list}
        for e, X in rows.items():
            decisions.append(standard.decide(f"{lab}, eps={e}: mean NMI PolyOpt - IR", X, mean_diff("PolyOpt", "IR"),
                                             TIE, ">="))
        e0 = min(eps_list, key=float)
        decisions.append(standard.decide(f"{lab}, eps={e0} (smallest): mean NMI IR - SRR", rows[e0],
                                         mean_diff("IR", "SRR"), TIE, ">="))
        leads = [e for e in eps_list if standard.decide(f"{lab}, eps={e}: SRR - IR", rows[e], mean_diff("SRR", "IR"),
                                                        TIE, ">=").outcome == standard.HOLDS]
        over[lab] = leads
        if leads:
            first = min(leads, key=float)
            decisions += [standard.decide(f"{lab}, eps={e}: mean NMI IR - SRR after SRR overtook at eps={first}",
                                          rows[e], mean_diff("IR", "SRR"), TIE, "<=")
                          for e in eps_list if float(e) > float(first)]
    ev = {"mean NMI": _means_json(M), "eps where SRR's lead over IR holds": over, "figure": fig}
    return decided("synthetic orderings", decisions, ev)


@claim(
    id="rldp.sec8.synthetic-grr-worst",
    paper=PAPER,
    source="Sec. 8.2: \"GRR was the worst overall\"",
    statement="On synthetic data GRR has the lowest mean NMI at every eps.",
    hypotheses=HYP,
    method=Method.PROPERTY,
    reading="'worst' = every other mechanism's mean NMI above GRR's by more than the tie level 1e-9, decided on its "
            "95 % bootstrap interval at each eps. The paper does not give Figure 3's eps range: a failure only at the "
            "top of our grid is INCONCLUSIVE.",
    slow=True,
    group=GROUP,
)
def check_synthetic_grr(ctx):
    M = means(ctx)
    decisions = []
    for sh, (_K, eps_list) in SETTINGS.items():
        for e in eps_list:
            X = nmi_rows(runs(ctx, sh, e))
            decisions += [standard.decide(f"{_label(sh)}, eps={e}: mean NMI {m} - GRR", X, mean_diff(m, "GRR"), TIE,
                                          ">=") for m in MECHS if m != "GRR"]
    top = f"eps={EPS_GRID[-1]}:"
    return decided("GRR worst", decisions, {"mean NMI": _means_json(M)}, excused=lambda d: top in d.reading,
                   excuse_text=f"whether the sentence covers eps = {EPS_GRID[-1]}, the end of our grid (then REFUTED) "
                               "or the range below it")


@claim(
    id="rldp.sec8.synthetic-nr-margin",
    paper=PAPER,
    source="Sec. 8.2: \"NR was the best overall, but only by a small margin\"",
    statement="On synthetic data NR has the highest mean NMI, ahead of the best RLDP mechanism by a small margin.",
    hypotheses=HYP,
    method=Method.PROPERTY,
    reading="margin = (NR - max RLDP) / NR of the mean NMI at each eps; 'a small margin' read as 'close' in the "
            "statistical standard: margin <= 5 %, and 'best' as mean NR - best mean RLDP >= -1e-9, each decided on "
            "its 95 % bootstrap interval (NR >= PolyOpt is a theorem: nested sets).",
    slow=True,
    group=GROUP,
)
def check_synthetic_nr(ctx):
    M = means(ctx)
    rl = [COL_RLDP[m] for m in ("SRR", "IR", "PolyOpt")]

    def ahead(x):
        return float(np.mean(x[:, COL_RLDP["NR"]]) - max(np.mean(x[:, i]) for i in rl))

    def margin(x):
        return ahead(x) / float(np.mean(x[:, COL_RLDP["NR"]]))
    decisions, pct = [], {}
    for sh, (_K, eps_list) in SETTINGS.items():
        pct[_label(sh)] = {}
        for e in eps_list:
            X = nmi_rows(runs(ctx, sh, e))
            decisions.append(standard.decide(f"{_label(sh)}, eps={e}: mean NR - best mean RLDP", X, ahead, -TIE, ">="))
            decisions.append(standard.decide(f"{_label(sh)}, eps={e}: (NR - best RLDP) / NR", X, margin,
                                             standard.CLOSE, "<="))
            pct[_label(sh)][e] = f"{100 * margin(X):.2f} %"
    return decided("NR ahead by a small margin", decisions, {"mean NMI": _means_json(M), "(NR - best RLDP) / NR": pct})


@claim(
    id="rldp.sec8.realized-eps-sides",
    paper=PAPER,
    source="Sec. 8.3 (Figure 4): \"NR's eps* was consistently greater than eps, while PolyOpt's eps* was "
           "consistently lesser\" (25 % and 75 % quantiles over runs)",
    statement="On synthetic data the 25 % quantile of NR's eps* exceeds eps and the 75 % quantile of PolyOpt's eps* "
              "is below eps, at every eps; PolyOpt's eps* <= eps whenever P* is in F.",
    hypotheses=HYP,
    method=(Method.PROPERTY, Method.EXACT),
    reading="eq. (62) read as eps* = max_{y,s1,s2} log(P(Y=y|S=s1) / P(Y=y|S=s2)) under P* (the log is lost in the "
            "text; without it eps* >= 1 could not be 0.3897). Membership P* in F certified. 'Consistently greater "
            "(lesser)' read on Figure 4's quantiles: NR's 25 % quantile >= eps and PolyOpt's 75 % quantile <= eps, each "
            "decided on its 95 % bootstrap interval (statistical standard); the fraction of runs on each side is shown "
            "beside it.",
    slow=True,
    group=GROUP,
)
def check_sides(ctx):
    fails, table, member, decisions, also = [], {}, {}, [], []
    for sh, (_K, eps_list) in SETTINGS.items():
        table[_label(sh)] = {}
        for e in eps_list:
            rs = runs(ctx, sh, e)
            nr = [r["eps_star"]["NR"] for r in rs]
            po = [r["eps_star"]["PolyOpt"] for r in rs]
            q_nr, q_po = quantile(nr, 0.25), quantile(po, 0.75)
            inF = [r["pstar_in_F"] for r in rs]
            table[_label(sh)][e] = {"NR q25": fmt(q_nr), "NR min": fmt(min(nr)), "PolyOpt q75": fmt(q_po),
                                    "PolyOpt max": fmt(max(po)),
                                    "runs with NR eps* > eps": sum(x > float(e) for x in nr),
                                    "runs with NR eps* = inf": sum(math.isinf(x) for x in nr),
                                    "runs with PolyOpt eps* < eps": sum(x < float(e) for x in po), "runs": len(rs)}
            member[f"{_label(sh)}"] = f"{sum(x is True for x in inF)} of {len(inF)} (undecided {inF.count(None)})"
            decisions.append(standard.decide(f"{_label(sh)}, eps={e}: 25 % quantile of NR's eps*", np.array(nr),
                                             lambda x: quantile(x, 0.25), float(e), ">="))
            decisions.append(standard.decide(f"{_label(sh)}, eps={e}: 75 % quantile of PolyOpt's eps*", np.array(po),
                                             lambda x: quantile(x, 0.75), float(e), "<="))
            also.append(standard.decide(f"{_label(sh)}, eps={e}: fraction of runs with NR's eps* > eps", np.array(nr),
                                        lambda x, e=e: float(np.mean(x > float(e))), standard.ALMOST_ALL, ">="))
            for r, x in zip(rs, po, strict=True):
                if r["pstar_in_F"] is True and x > float(e) + 1e-12:
                    fails.append(f"{_label(sh)}, eps={e}: P* in F but PolyOpt eps* = {fmt(x, 6)} > eps")
    path, rel = figure_path(ctx, "rldp_sec8_fig4_eps_star.png")
    fig4_eps_star_bands(path, {_label(sh): (list(eps_list), {m: [[r["eps_star"][m] for r in runs(ctx, sh, e)]
                                                                  for e in eps_list] for m in ("NR", "PolyOpt")})
                               for sh, (K, eps_list) in SETTINGS.items()}, runs=RUNS)
    ev = {"quantiles": table, "P* in F (certified)": member, "figure": rel}
    if fails:   # a theorem (PolyOpt is RLDP for every P in F), not a statistical reading
        return Outcome.refuted("; ".join(fails[:6]), counterexample=fails, **ev, kind="false")
    return decided("eps* on either side of eps", decisions, ev, also=also)


# --- Sec. 8.3: the printed quantile (constants also used by the coverage claim below) -------------------------------------------------------------------------
QUANTILE_BATCHES = {(2, 2): 5, (2, 5): 3}
BATCH = 100
PRINTED_Q75 = 0.3897


def nr_eps_star_task(task) -> list[float]:
    """eps* of NR (built for P-hat at eps) under P*, for the instances k0 .. k1 - 1 of a shape."""
    seed, a1, a2, k0, k1, eps = task
    out = []
    for k in range(k0, k1):
        pstar, table, _ = synthetic_instance(seed, a1, a2, k)
        out.append(float(realized_eps(nonrobust(table, eps).matrix, list(pstar), a1, a2, dps=20)))
    return out


def _nr_eps_star_batches(ctx, a1: int, a2: int, batches: int, eps: str = "0.075") -> list[list[float]]:
    """``batches`` batches of BATCH instances each (instances 0 .. batches * BATCH - 1), in tasks of 50."""
    step = 50
    tasks = [(ctx.seed, a1, a2, k, min(k + step, batches * BATCH), eps) for k in range(0, batches * BATCH, step)]
    flat = [x for part in ctx.map(nr_eps_star_task, tasks) for x in part]
    return [flat[b * BATCH:(b + 1) * BATCH] for b in range(batches)]


@claim(
    id="rldp.sec8.realized-eps-q75",
    paper=PAPER,
    source="Sec. 8.3: \"at eps = 0.075, the lowest value of eps we tested, the 75%-quantile of eps* of NR was "
           "0.3897, which is more than 5 times the desired privacy parameter\"",
    statement="At eps = 0.075 the 75 % quantile of NR's eps* over 100 synthetic distributions is 0.3897 (> 5 eps).",
    hypotheses=("P* ~ Dirichlet(1/2), n = 32,561, NR built for P-hat; eps* of eq. (62) under P*",
                "batches of 100 distributions as in the paper: 5 batches for X = 2 x 2, 3 for X = 2 x 5 (the text does "
                "not say which X Figure 4 uses)"),
    method=Method.PROPERTY,
    reading="Statistical: 0.3897 is 'far outside' our spread for a shape when it lies outside both the range of the "
            "batch quantiles and their mean +- 3 sd. REFUTED only if far outside for every shape tried; consistent "
            "with some shape but not others -> INCONCLUSIVE (Figure 4's X is not given).",
    slow=True,
    group=GROUP,
)
def check_q75(ctx):
    summ, far = {}, {}
    for (a1, a2), nb in QUANTILE_BATCHES.items():
        batches = _nr_eps_star_batches(ctx, a1, a2, nb)
        q = quantile_summary(batches, 0.75)
        lab = _label((a1, a2))
        summ[lab] = {k: (fmt(v) if isinstance(v, float) else v) for k, v in q.items() if k != "per_batch"}
        summ[lab]["per_batch"] = [fmt(v) for v in q["per_batch"]]
        summ[lab]["fraction of runs with eps* > eps"] = fmt(
            float(np.mean([x > 0.075 for b in batches for x in b])), 3)
        summ[lab]["runs with eps* = inf"] = sum(math.isinf(x) for b in batches for x in b)
        outside_range = not (q["min"] <= PRINTED_Q75 <= q["max"])
        outside_sd = abs(PRINTED_Q75 - q["mean"]) > 3 * q["sd"]
        far[lab] = outside_range and outside_sd
    ev = {**no_certificate("a statistical reading over random runs: the 75 % quantile of eps* over batches of 100 "
                           "random distributions, judged against the batches' range and mean +- 3 sd; a sample "
                           "statistic, not a fact about the instances that a certificate could re-evaluate"),
          "printed": PRINTED_Q75, "printed / eps": round(PRINTED_Q75 / 0.075, 3), "ours": summ,
          "far outside (per shape)": far}
    txt = "; ".join(f"{k}: q75 over batches {v['min']}-{v['max']} (mean {v['mean']}, sd {v['sd']})"
                    for k, v in summ.items())
    if all(far.values()):
        return Outcome.refuted(f"0.3897 far outside our spread for every shape: {txt}",
                               counterexample={"printed": PRINTED_Q75, "ours": summ}, **ev, kind="false")
    if not any(far.values()):
        return Outcome.verified(f"0.3897 within our spread for every shape: {txt}", **ev)
    return Outcome.inconclusive("0.3897 is consistent with "
                                + ", ".join(k for k, v in far.items() if not v) + " but far outside our spread for "
                                + ", ".join(k for k, v in far.items() if v) + f": {txt}",
                                would_decide="which X (2 x 2 or 2 x 5) the paper's 0.3897 was measured on", **ev)


# --- Sec. 8.4 ------------------------------------------------------------------------------------------------


def _sign_test_p(pos: int, neg: int) -> float:
    """Two-sided exact binomial sign test p-value (ties excluded)."""
    from scipy.stats import binomtest

    n = pos + neg
    return 1.0 if n == 0 else float(binomtest(pos, n, 0.5).pvalue)


@claim(
    id="rldp.sec8.utility-robustness",
    paper=PAPER,
    source="Sec. 8.4 (Figure 5, eps = 1.5): \"the difference in NMI, even at its most extreme, was less than 3% of "
           "the NMI value ... the differences were very symmetric\"",
    statement="(I_P-hat - I_P*) / I_P-hat lies within +-3 % for PolyOpt, SRR and IR, and is positive and negative "
              "about equally often.",
    hypotheses=HYP[:1] + ("eps = 1.5; 100 runs on 2 x 2 and 100 runs on 2 x 5",),
    method=Method.PROPERTY,
    reading="'symmetric' checked by a two-sided sign test per mechanism (pooled over shapes): no evidence of "
            "asymmetry at level 0.05 (with few runs this is weak evidence). The 3 % bound is about the extreme of the "
            "paper's 100 runs: VERIFIED if none of ours exceeds it, REFUTED if more than 10 % of ours do (or the "
            "signs are significantly unbalanced), INCONCLUSIVE in between.",
    slow=True,
    group=GROUP,
)
def check_robustness(ctx):
    diffs = {m: [] for m in ("PolyOpt", "SRR", "IR")}
    for sh in SETTINGS:
        for r in runs(ctx, sh, ROBUST_EPS):
            for m in diffs:
                diffs[m].append((r["I"][m] - r["I_star"][m]) / r["I"][m])
    stats, asym, over = {}, [], {}
    for m, d in diffs.items():
        pos, neg = sum(x > 0 for x in d), sum(x < 0 for x in d)
        p = _sign_test_p(pos, neg)
        over[m] = sum(abs(x) >= 0.03 for x in d)
        stats[m] = {"max |diff|": f"{100 * max(map(abs, d)):.3f} %", "mean": f"{100 * float(np.mean(d)):.3f} %",
                    "runs with |diff| >= 3 %": over[m], "second largest |diff|": f"{100 * sorted(map(abs, d))[-2]:.3f} %",
                    "positive": pos, "negative": neg, "sign test p": round(p, 3), "runs": len(d)}
        if p < 0.05:
            asym.append(f"{m}: signs {pos} positive / {neg} negative (sign test p = {p:.3f})")
    path, rel = figure_path(ctx, "rldp_sec8_fig5_difference.png")
    fig5_difference_spread(path, {_label(sh): {m: [(r["I"][m] - r["I_star"][m]) / r["I"][m]
                                                   for r in runs(ctx, sh, ROBUST_EPS)] for m in diffs}
                                  for sh in SETTINGS}, eps=ROBUST_EPS)
    ev = {"normalised difference": stats, "figure": rel}
    total = len(next(iter(diffs.values())))
    worst = max(over.values())
    if asym or worst > 0.1 * total:
        why = asym + [f"{m}: {c} of {total} runs with |diff| >= 3 %" for m, c in over.items() if c > 0.1 * total]
        return Outcome.refuted("; ".join(why), counterexample=why, **ev, kind="false")
    if worst == 0:
        return Outcome.verified("max |diff| " + ", ".join(f"{m} {v['max |diff|']}" for m, v in stats.items())
                                + "; signs balanced (sign-test p >= 0.05)", **ev)
    return Outcome.inconclusive(
        "signs balanced (sign-test p >= 0.05), but the 3 % bound is exceeded in "
        + ", ".join(f"{m} {c} of {total} runs (max {stats[m]['max |diff|']})" for m, c in over.items())
        + "; at that rate a 100-run experiment would likely show |diff| >= 3 % too, yet the paper's X and runs "
          "differ", would_decide="the paper's own runs (or its P* draws): whether its 100 runs stayed below 3 % "
                               "is a property of that sample, which ours matches only in distribution", **ev)


# --- Sec. 8.5 ------------------------------------------------------------------------------------------------
def beta_means(ctx):
    """Table 2: shape -> beta -> mech -> mean NMI over the runs at eps = 1.5."""
    return {sh: {b: {m: mean_nmi(runs(ctx, sh, ROBUST_EPS, b), m) for m in ("SRR", "IR", "PolyOpt")} for b in BETAS}
            for sh in SETTINGS}


def _impact(M, sh, m):
    v = [M[sh][b][m] for b in BETAS]
    return (max(v) - min(v)) / max(v)


_BMECHS = ("SRR", "IR", "PolyOpt")
_BCOL = {m: slice(i * len(BETAS), (i + 1) * len(BETAS)) for i, m in enumerate(_BMECHS)}


def _beta_rows(ctx, sh) -> np.ndarray:
    """runs x (mechanism, beta) array of the NMI at eps = 1.5 (columns: SRR at each beta, then IR, then PolyOpt)."""
    by_beta = [runs(ctx, sh, ROBUST_EPS, b) for b in BETAS]
    return np.array([[rs[k]["nmi"][m] for m in _BMECHS for rs in by_beta] for k in range(len(by_beta[0]))],
                    dtype=float)


def _impact_stat(m, offset: int = 0):
    """(max - min) / max over the betas of mechanism m's mean NMI, on rows of :func:`_beta_rows` (columns from
    ``offset``: two shapes side by side)."""
    cols = _BCOL[m]

    def stat(x):
        v = np.mean(x[:, offset + cols.start:offset + cols.stop], axis=0)
        return float((v.max() - v.min()) / v.max())
    return stat


BETA_HYP = (HYP[0], "eps = 1.5; beta in 0.05, 0.005, 0.0005 (a factor 100); 100 runs on 2 x 2 and 100 on 2 x 5 "
            "(the same instances for every beta), as in the paper")


@claim(
    id="rldp.sec8.beta-impact",
    paper=PAPER,
    source="Sec. 8.5 (Table 2, eps = 1.5): \"changing beta by a factor 100 had at most about 4 % impact on NMI\"; "
           "\"SRR does not depend on beta\"",
    statement="Over a factor 100 in beta the mean NMI of PolyOpt and IR changes by at most about 4 %, and SRR's "
              "not at all.",
    hypotheses=BETA_HYP,
    method=Method.PROPERTY,
    reading="impact = (max - min) / max of the mean NMI over the betas; 'at most about 4 %' read as <= 4.5 % "
            "(4 % at the printed precision), decided on its 95 % bootstrap interval over the runs (the same instances "
            "at every beta, resampled together); SRR's independence of beta checked exactly, run by run.",
    slow=True,
    group=GROUP,
)
def check_beta_impact(ctx):
    M = beta_means(ctx)
    imp = {_label(sh): {m: f"{100 * _impact(M, sh, m):.2f} %" for m in ("SRR", "IR", "PolyOpt")} for sh in M}
    fails, decisions = [], []
    for sh in M:
        X = _beta_rows(ctx, sh)
        if any(len(set(row[_BCOL["SRR"]])) != 1 for row in X):
            fails.append(f"{_label(sh)}: SRR changes with beta")
        for m in ("IR", "PolyOpt"):
            decisions.append(standard.decide(f"{_label(sh)}: impact of beta on {m}'s mean NMI", X,
                                             _impact_stat(m), 0.045, "<="))
    ev = {"impact": imp, "Table 2 (ours): mean NMI at eps = 1.5 by beta":
          {_label(sh): {b: {m: fmt(v) for m, v in d.items()} for b, d in r.items()} for sh, r in M.items()},
          "computed": {"runs": {_label(sh): len(runs(ctx, sh, ROBUST_EPS, BETAS[0])) for sh in SETTINGS},
                       "per run and beta": "the chi^2 ball's certified L'_{u|s} (PolyOpt) and d' >= d (IR), from "
                                           "t-intervals proposed by Lemma 1's closed form (alpha = 2) and checked in arb; "
                                           "PolyOpt exact (LP (46) over the exact vertices of Gamma-hat), IR by the "
                                           "float split search; the runs are shared with the other Sec. 8 synthetic claims"}}
    if fails:   # exact: SRR's matrix does not involve beta
        return Outcome.refuted("; ".join(fails), counterexample=fails, **ev, kind="false")
    return decided("impact of beta at most about 4 %", decisions, ev)


@claim(
    id="rldp.sec8.beta-impact-pattern",
    paper=PAPER,
    source="Sec. 8.5: \"This impact was less for PolyOpt than for IR, and less for larger X\"",
    statement="The impact of beta on mean NMI is smaller for PolyOpt than for IR, and smaller for the larger X.",
    hypotheses=BETA_HYP,
    method=Method.PROPERTY,
    reading="'less' read as a difference of impacts (of the mean NMI over the betas) above the tie level 1e-9, decided "
            "on its 95 % bootstrap interval (statistical standard). 'larger X': 2 x 5 against 2 x 2 -- literally for "
            "PolyOpt and for IR separately; charitably for 'this impact', the largest over the mechanisms (the 'at "
            "most about 4 %' of the sentence before). The two shapes' runs are independent; their k-th runs are "
            "resampled together (an arbitrary pairing, valid for a difference of two independent samples' "
            "statistics). The per-run Mann-Whitney test is shown beside it.",
    slow=True,
    group=GROUP,
)
def check_beta_pattern(ctx):
    from scipy.stats import mannwhitneyu

    M = beta_means(ctx)
    small, large = (2, 2), (2, 5)
    X = {sh: _beta_rows(ctx, sh) for sh in (small, large)}
    both = np.hstack([X[small], X[large]])   # columns of 2 x 2, then of 2 x 5
    off = X[small].shape[1]

    def less_than(a, b):
        return lambda x: a(x) - b(x)

    def largest(offset):
        return lambda x: max(_impact_stat(m, offset)(x) for m in ("IR", "PolyOpt"))
    polyopt_below_ir = [standard.decide(f"{_label(sh)}: impact IR - impact PolyOpt", X[sh],
                                        less_than(_impact_stat("IR"), _impact_stat("PolyOpt")), TIE, ">=")
                        for sh in (small, large)]
    per_mech = [standard.decide(f"{m}: impact on 2 x 2 - impact on 2 x 5", both,
                                less_than(_impact_stat(m), _impact_stat(m, off)), TIE, ">=") for m in ("PolyOpt", "IR")]
    charitable = standard.decide("largest impact over the mechanisms: on 2 x 2 - on 2 x 5", both,
                                 less_than(largest(0), largest(off)), TIE, ">=")
    tests = {}
    for m in ("PolyOpt", "IR"):
        per_run = {sh: [(max(r[_BCOL[m]]) - min(r[_BCOL[m]])) / max(r[_BCOL[m]]) for r in X[sh]] for sh in X}
        tests[m] = {"Mann-Whitney p (2 x 5 per-run impact > 2 x 2's)":
                    round(float(mannwhitneyu(per_run[large], per_run[small], alternative="greater").pvalue), 5)}
    imp = {_label(sh): {m: f"{100 * _impact(M, sh, m):.2f} %" for m in ("IR", "PolyOpt")} for sh in M}
    ev = {"impact of mean NMI": imp, "per-run impacts": tests}
    literal = decided("impact of beta: less for PolyOpt, less for larger X", polyopt_below_ir + per_mech, ev)
    if literal.verdict.value != "REFUTED":
        return literal
    if charitable.outcome != standard.FAILS and all(d.outcome == standard.HOLDS for d in polyopt_below_ir):
        # issue 24: 'This impact' refers back to the previous sentence's 'at most about 4 % impact', the largest impact
        # over the mechanisms; read per mechanism, the sentence fails for one of them, read so it does not fail
        failed = [d.text() for d in per_mech if d.outcome == standard.FAILS]
        ev2 = {**literal.evidence, "readings_not_deciding": [charitable.record()]}
        ev2.pop("counterexample", None)
        ev2["readings by reading"] = {"literal": "'less for larger X' for each mechanism separately: " + "; ".join(failed),
                                      "charitable": charitable.text() + "; PolyOpt's impact below IR's in both shapes"}
        return Outcome.refuted("reading-dependent: per mechanism, " + "; ".join(failed) + "; read as the largest impact "
                               "over the mechanisms (the 'at most about 4 %' it refers to), it does not fail: "
                               + charitable.text(),
                               counterexample=failed, **ev2, kind="reading-dependent")
    return literal


# --- Sec. 8.3: how often P* lies in F -----------------------------------------------------------------------
@claim(
    id="rldp.sec8.pstar-in-F-rate",
    paper=PAPER,
    source="Sec. 8.3: \"PolyOpt does [give privacy for P*] when P* in F, which happens with 95% probability\"",
    statement="For the synthetic experiments, P* lies in F (beta = 0.05) with probability about 95 %.",
    hypotheses=("P* ~ Dirichlet(1/2), n = 32,561, P-hat the ML estimate, F = {P : D_2(P-hat||P) <= "
                "log(1 + F^-1_{chi2,a-1}(0.95)/n)}",
                "the instances of rldp.sec8.realized-eps-q75: 500 on 2 x 2, 300 on 2 x 5"),
    method=Method.PROPERTY,
    reading="Membership decided in double precision (D_2 = log(1 + chi^2(P-hat||P*)) against B from scipy's chi^2 "
            "quantile; may err only for P* within ~1e-12 of the boundary, immaterial for a rate). Verdict: 0.95 inside "
            "the exact (Clopper-Pearson) 99 % interval of our rate -> VERIFIED, outside -> REFUTED.",
    slow=False,
)
def check_coverage_rate(ctx):
    from scipy.stats import binomtest, chi2

    seed = ctx.seed
    rates = {}
    verdicts = []
    for (a1, a2), nb in QUANTILE_BATCHES.items():
        a = a1 * a2
        B = math.log1p(chi2.ppf(0.95, a - 1) / N_ADULT)
        hits = 0
        total = nb * BATCH
        for k in range(total):
            pstar, table, _ = synthetic_instance(seed, a1, a2, k)
            ps = np.array([float(x) for x in pstar])
            ph = np.array([float(v) for r in table for v in r])
            with np.errstate(divide="ignore", invalid="ignore"):
                chi = float(np.sum(np.where(ps > 0, (ph - ps) ** 2 / np.where(ps > 0, ps, 1), np.inf * (ph > 0))))
            hits += math.log1p(chi) <= B
        ci = binomtest(hits, total).proportion_ci(0.99, method="exact")
        rates[f"{a1} x {a2}"] = {"in F": hits, "runs": total, "rate": round(hits / total, 4),
                                 "99 % CI": [round(ci.low, 4), round(ci.high, 4)]}
        verdicts.append(ci.low <= 0.95 <= ci.high)
    ev = {"coverage": rates,
          **no_certificate("a statistical reading over random draws: the rate at which P* lies in F, judged by a "
                           "Clopper-Pearson 99 % interval (membership decided in double precision, immaterial for a "
                           "rate); a rate over a sample is not a fact that a certificate could re-evaluate")}
    txt = "; ".join(f"{k}: {v['in F']}/{v['runs']} = {v['rate']} (99 % CI {v['99 % CI']})" for k, v in rates.items())
    if all(verdicts):
        return Outcome.verified(f"rate consistent with 95 %: {txt}", **ev)
    return Outcome.refuted(f"rate not consistent with 95 %: {txt}", counterexample=rates, **ev, kind="false")
