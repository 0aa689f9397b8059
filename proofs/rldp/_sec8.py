"""Shared settings and cached runs of the Sec. 8 experiment claims (000_aca93ed29ea857ee.txt).

No claims here. Reduced-scale reproductions of Sec. 8:
- adult data (n = 32,561) with small attribute pairs, where exact PolyOpt and NR are fast:
  sex x income (2 x 2, a = 4) and sex x race (2 x 5, a = 10); relationship x sex (6 x 2, a = 12)
  was tried and takes ~100 s per PolyOpt solve, too slow for the report;
- synthetic data: P* ~ Dirichlet(1/2) (Jeffreys) on the same X, n = 32,561 samples, P-hat the ML
  estimate; fewer runs than the paper's 100 (stated in every claim).
F is the chi^2 confidence set of eq. (9)/(61): alpha = 2, confidence 1 - beta, beta = 0.05 unless stated.

Mechanisms: GRR, SRR (exact matrices), PolyOpt (exact, certified lower bounds L' <= L_{u|s}(F) and
r <= e^eps), NR (exact), IR: exact engine (certified split bracket) on the adult pairs, float split
search (:func:`rldp_verify.rldp.experiments.ir_split_search`, errs low) on synthetic runs. Utilities
are evaluated in double precision (error ~1e-13, far below every difference we compare);
orderings treat differences below TIE = 1e-9 as ties.
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from functools import cache

import numpy as np

from rldp_verify.certificates.claims import no_certificate
from rldp_verify.claims import Outcome
from rldp_verify.core import standard
from rldp_verify.core.information import mutual_information_float, nmi_float
from rldp_verify.rldp.data import adult_data_path, read_counts
from rldp_verify.rldp.experiments import (
    draw_dirichlet,
    exact_distribution,
    ir_split_search,
    sample_counts,
)
from rldp_verify.rldp.mechanisms import (
    grr_matrix,
    independent_reporting,
    ir_distance,
    lower_bounds,
    nonrobust,
    polyopt_from_bounds,
    privacy_level,
    realized_eps,
    srr_matrix,
)
from rldp_verify.rldp.uncertainty import RenyiBall, read_table

from ..papers import paper

PAPER = paper("rldp").seed
# the UCI adult.data file: ../shared/data/adult.data beside the repository, or $RLDP_VERIFY_ADULT_DATA
ADULT = "adult.data (../shared/data/ beside the repository, or $RLDP_VERIFY_ADULT_DATA)"
N_ADULT = 32561
EPS_GRID = ("0.075", "0.25", "0.5", "1", "1.5", "2", "3")
TIE = 1e-9
MECHS = ("GRR", "SRR", "IR", "PolyOpt", "NR")
GROUP = "rldp.sec8-experiments"  # the claims sharing the cached runs: one worker process with report --jobs
# 0-based columns of adult.data (no header)
COLUMNS = {"age": 0, "workclass": 1, "education": 3, "marital-status": 5, "occupation": 6, "relationship": 7,
           "race": 8, "sex": 9, "native-country": 13, "income": 14}
ADULT_PAIRS = (("sex", "income"), ("sex", "race"))


def conf(beta) -> str:
    return str(1 - Fraction(str(beta)))


@cache
def adult_table(sensitive: str, public: str, keep_missing: bool = False):
    ct = read_counts(adult_data_path(), COLUMNS[sensitive], COLUMNS[public], missing=() if keep_missing else ("?",))
    return ct


@cache
def _ball_template(a1: int, a2: int, n: int, beta: str) -> RenyiBall:
    """The chi^2 ball of eq. (9)/(61) for a table of shape a1 x a2: its radius depends on the shape, n and
    beta only (computing it takes ~1.6 s, so it is computed once per setting, not once per run)."""
    uniform = [[Fraction(1, a1 * a2)] * a2 for _ in range(a1)]
    return RenyiBall.from_confidence(uniform, 2, conf(beta), n)


#: precision of the certified d' >= d of Theorem 5 in the experiments (rigorous at any precision: a lower
#: precision can only make d' larger, i.e. IR more private and less useful; 30 digits give the same d' as 50
#: on the instances we compared, in 60 % of the time)
IR_DISTANCE_DPS = 30


@cache
def _ball_data(table, n: int, beta: str):
    """(ball, L', d') for the chi^2 ball around ``table`` (exact Fractions): certified L' <= L_{u|s}(F)
    and d' >= Theorem 5's d."""
    ball = replace(_ball_template(len(table), len(table[0]), n, beta), phat=read_table([list(r) for r in table]))
    return ball, lower_bounds(ball), ir_distance(ball, dps=IR_DISTANCE_DPS)


def evaluate(table, n: int, eps: str, *, beta: str = "0.05", pstar=None, mechs=MECHS, exact_ir: bool = False) -> dict:
    """Run the mechanisms on P-hat = ``table`` (exact, |S| x |U|) at eps; NMI under P-hat, and under
    ``pstar`` (exact flat) when given, with I under both and eps* (Sec. 8.3) of NR and PolyOpt."""
    a1, a2 = len(table), len(table[0])
    p = [v for r in table for v in r]
    ball, L, d = _ball_data(table, n, beta)
    r = privacy_level(eps).exp_eps
    out = {"eps": eps, "nmi": {}, "I": {}}
    if pstar is not None:
        out.update({"nmi_star": {}, "I_star": {}, "eps_star": {}, "pstar_in_F": ball.contains(list(pstar))})
    for m in mechs:
        if m == "GRR":
            Q = grr_matrix(a1 * a2, r)
        elif m == "SRR":
            Q = srr_matrix(a1, a2, r)
        elif m == "IR":
            Q = independent_reporting(ball, eps, d=d).matrix if exact_ir else ir_split_search(p, a1, a2, r, d)[1]
        elif m == "PolyOpt":
            Q = polyopt_from_bounds(table, L, eps)[0].matrix
        elif m == "NR":
            Q = nonrobust(table, eps).matrix
        else:
            raise ValueError(m)
        out["nmi"][m] = nmi_float(Q, p)
        out["I"][m] = mutual_information_float(Q, p)
        if pstar is not None:
            out["nmi_star"][m] = nmi_float(Q, pstar)
            out["I_star"][m] = mutual_information_float(Q, pstar)
            if m in ("NR", "PolyOpt"):
                out["eps_star"][m] = float(realized_eps(Q, list(pstar), a1, a2, dps=20))
    return out


SYNTH_SALT = "rldp.sec8.synthetic"


@cache
def synthetic_instance(seed: int, a1: int, a2: int, k: int, n: int = N_ADULT):
    """Instance k: P* ~ Dirichlet(1/2) on a1 * a2 points (exact), counts of n draws; redrawn while a
    sensitive value has no sample (P-hat_{U|s} undefined). Returns (pstar, table, redraws)."""
    rng = np.random.default_rng([seed % 2**32, a1, a2, k, 8])
    redraws = 0
    while True:
        w = draw_dirichlet(rng, a1 * a2, 0.5)
        pstar = exact_distribution(w)
        counts = sample_counts(rng, [float(x) for x in pstar], n, a1, a2)
        if all(sum(r) > 0 for r in counts):
            table = tuple(tuple(Fraction(c, n) for c in r) for r in counts)
            return pstar, table, redraws
        redraws += 1


def mean_nmi(rows, m, key="nmi") -> float:
    return float(np.mean([r[key][m] for r in rows]))


def beats(x: float, y: float) -> bool:
    return x - y > TIE


def fmt(x: float, k: int = 4) -> str:
    return "inf" if math.isinf(x) else f"{x:.{k}f}"


def figure_path(ctx, name: str):
    """(path to write, name for the evidence) of figure ``name`` below the report's directory."""
    return ctx.artefact(f"figures/{name}")


# --- the statistical standard (issue 24) on the synthetic runs ------------------------------------------------
#: the column of each mechanism in the rows given to :func:`rldp_verify.core.standard.decide`
COL = {m: i for i, m in enumerate(MECHS)}


def nmi_rows(rs, key: str = "nmi", mechs=MECHS) -> np.ndarray:
    """runs x mechanisms array of ``r[key][m]`` (one row per synthetic instance, so the bootstrap keeps pairs)."""
    return np.array([[r[key][m] for m in mechs] for r in rs], dtype=float)


def mean_diff(a: str, b: str):
    """The statistic mean NMI(a) - mean NMI(b) on rows of :func:`nmi_rows` (paired)."""
    i, j = COL[a], COL[b]
    return lambda x: float(np.mean(x[:, i]) - np.mean(x[:, j]))


def exact_decision(reading: str, value: float, threshold: float, side: str) -> standard.Decision:
    """A reading on one fixed data set (the adult pairs: no sampling, so no interval): holds or fails exactly."""
    ok = value >= threshold if side == ">=" else value <= threshold
    return standard.Decision(reading, float(value), (float(value), float(value)), float(threshold), side, 1,
                             standard.HOLDS if ok else standard.FAILS)


#: why a verdict of :func:`decided` carries no certificate (issue 23)
STATISTICAL_REASON = ("a statistical reading (README's statistical standard): means, quantiles or fractions over random "
                      "runs, each decided by a 95 % bootstrap interval (a reading on a single run compares utilities "
                      "that the engine's optimisations computed); a sample statistic is no counterexample that a "
                      "certificate could re-evaluate")


def decided(name: str, decisions: list, ev: dict, *, also=(), excused=None, excuse_text: str = "",
            kind: str = "false") -> Outcome:
    """The claim's verdict from its readings by the statistical standard (as proofs/isit/sec5_experiment.py):
    VERIFIED when every reading holds, REFUTED when one fails, INCONCLUSIVE otherwise with what would decide it.
    ``excused(decision)``: failed readings that only make the claim INCONCLUSIVE (e.g. the top of our eps grid,
    when the paper does not give its range), explained by ``excuse_text``. ``also``: readings shown beside them.
    The verdict's no-certificate reason is :data:`STATISTICAL_REASON` unless ``ev`` gives its own."""
    ev = {**no_certificate(STATISTICAL_REASON), **ev, "readings": [d.record() for d in decisions]}
    if also:
        ev["readings_not_deciding"] = [d.record() for d in also]
    shown = [d for d in decisions if d.outcome != standard.HOLDS] or decisions
    detail = (f"{sum(d.outcome == standard.HOLDS for d in decisions)} of {len(decisions)} readings hold; "
              + "; ".join(d.text() for d in shown[:4]) + (f"; ... ({len(shown) - 4} more)" if len(shown) > 4 else ""))
    failed = [d for d in decisions if d.outcome == standard.FAILS]
    hard = [d for d in failed if excused is None or not excused(d)]
    if hard:
        txt = "; ".join(d.text() for d in hard[:4])
        return Outcome.refuted(f"{len(hard)} reading(s) fail: {txt}", counterexample={"finding": name,
                               "failed": [d.text() for d in hard]}, **ev, kind=kind)
    if not failed and all(d.outcome == standard.HOLDS for d in decisions):
        return Outcome.verified(detail, **ev)
    open_ = [d for d in decisions if d.outcome == standard.UNDECIDED]
    would = [f"{d.reading}: about {d.instances_to_decide} instances at the observed spread" if d.instances_to_decide
             else f"{d.reading}: more instances (the estimate sits on the threshold)" for d in open_]
    if failed:
        would.insert(0, excuse_text)
    ev["would_decide"] = "; ".join(would)
    return Outcome.inconclusive("undecided at the 95 % level: " + detail, **ev)
