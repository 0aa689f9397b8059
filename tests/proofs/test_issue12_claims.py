"""The claims written for issue 12 can refute: a wrong variant of each formula changes the verdict.

Each check takes the formula it tests as a parameter; the paper's (default) and a wrong variant are run
here on small instances (the slow figure claims with fewer runs).
"""

import pytest

import proofs.falpha.sec1_6_sentences as falpha
import proofs.isit.sec6_formulation_size as isit
import proofs.kairouz.sec3_5_figures as kfig
import proofs.kairouz.sec4_6_sentences as kairouz
import proofs.pram.sec2_entropy as pram_entropy
import proofs.pram.sec4_1_figures as pram_fig
import proofs.pram.sec4_2_figure5 as pram_fig5
import proofs.rldp.sec1_9_sentences as rldp
from rldp_verify.claims import Context, Verdict

V, R = Verdict.VERIFIED, Verdict.REFUTED

CASES = [
    (rldp.check_x_equals_s, {"formula": "joint"}, V, R),
    (rldp.check_eq3, {"prior": "inverted"}, V, R),
    (rldp.check_power_divergence, {"normalisation": "alpha"}, V, R),
    (rldp.check_lp_complexity, {"form": "omega"}, V, R),
    (rldp.check_composition, {"bound": "max"}, V, R),
    (rldp.check_choice_of_grr, {"weights": "uniform"}, V, R),
    (rldp.check_grr_regime_sentence, {"regime": "low"}, R, V),  # the paper's sentence is the wrong one
    (rldp.check_mi_concave, {"shape": "convex"}, V, R),
    (falpha.check_eq1, {"direction": "q/p"}, V, R),
    (falpha.check_dpi, {"direction": "expand"}, V, R),
    (falpha.check_confusion_graph, {"rule": "equal-support"}, V, R),
    (falpha.check_linear_nonzeros, {"alpha": "inf"}, V, R),
    (isit.check_size, {"variant": "per-set"}, R, V),  # exponential counting would make the sentence true
    (kairouz.check_mi_facts, {"shape": "concave"}, V, R),
    (kairouz.check_wang, {"distance": "scaled"}, V, R),
    (pram_entropy.check_entropy, {"maximiser": "point-mass"}, V, R),
]


@pytest.mark.parametrize("check, wrong, paper_verdict, wrong_verdict", CASES,
                         ids=[f"{c[0].__module__.split('.')[-2]}.{c[0].__name__}" for c in CASES])
def test_wrong_variant_changes_the_verdict(check, wrong, paper_verdict, wrong_verdict):
    ctx = Context(dps=30)
    assert check(ctx).verdict is paper_verdict
    out = check(ctx, **wrong)
    assert out.verdict is wrong_verdict
    if out.verdict is R:
        assert out.kind is not None and out.evidence.get("counterexample") not in (None, "", [], {})


def test_pram_figure_claim_refutes_reversed_alphas(monkeypatch, tmp_path):
    monkeypatch.setattr(pram_fig, "RUNS", 30)
    monkeypatch.setattr(pram_fig, "BOOT", 100)
    ctx = Context(out_dir=str(tmp_path))
    ok = pram_fig.figure_claim(1, ctx, sensitivity=False, draw_figures=True)
    assert ok.verdict is V
    assert (tmp_path / "figures" / "pram_fig1_estimates.png").is_file()
    rev = {"0.5": "2", "1": "1.5", "1.5": "1", "2": "0.5"}
    assert pram_fig.figure_claim(1, ctx, alpha_map=rev.get, sensitivity=False, draw_figures=False).verdict is R


def test_pram_figure5_naive_estimator_is_refuted(monkeypatch, tmp_path):
    monkeypatch.setattr(pram_fig5, "RUNS", 60)
    ctx = Context(out_dir=str(tmp_path))
    assert pram_fig5.check_figure5(ctx, draw=False).verdict is V
    assert pram_fig5.check_figure5(ctx, estimator="naive", draw=False).verdict is R


def test_kairouz_figure_claims_swapped_mechanisms_are_refuted():
    ctx = Context(dps=30)
    assert kfig.figure_claim(ctx, "mi", swap=True, n=3).verdict is R
    assert kfig.figure_claim(ctx, "kl", swap=True, n=3).verdict is R


# --- the companions' figures (issue 12 item 4): Grosse et al. Figures 1-2, Kairouz et al. Figures 3, 4, 6, 7 ---

def test_falpha_figure1_claims_refute_wrong_bounds(tmp_path):
    import proofs.falpha.fig1_fig2 as ff

    ctx = Context(out_dir=str(tmp_path))
    assert ff.check_fig1(ctx).verdict is V
    assert (tmp_path / "figures" / "falpha_fig1.png").stat().st_size > 10_000
    assert ff.check_fig1(ctx, variant="no-jump", draw=False).verdict is R
    out = ff.check_other_alphas(ctx, draw=False)
    assert out.verdict is R and out.kind == "missing-hypothesis" and "2" in out.evidence["counterexample"]["alpha"]
    assert ff.check_other_alphas(ctx, formula="exp-branch", draw=False).verdict is V


def test_falpha_figure2_claims_flip_under_wrong_variants(tmp_path):
    import proofs.falpha.fig1_fig2 as ff

    ctx = Context(dps=30, out_dir=str(tmp_path))
    small = dict(alphas=("1.5", "3"), panels=("c",), draw=False)
    assert ff.check_fig2_amplification(ctx, **small).verdict is V
    assert ff.check_fig2_amplification(ctx, swap=True, **small).verdict is R
    out = ff.check_fig2_improves(ctx, **small)
    assert out.verdict is R and out.evidence["phi_not_below_rldp_rr"] == {"c": [1.5]}
    assert ff.check_fig2_improves(ctx, reference="ldp", **small).verdict is V


def test_kairouz_figure_claims_flip_under_wrong_variants(tmp_path):
    import numpy as np

    import proofs.kairouz.sec3_4_figures as kf

    ctx = Context(out_dir=str(tmp_path))
    n = 12
    assert kf.regimes_claim(ctx, "mi", n=n, draw_figure=True).verdict is V
    assert (tmp_path / "figures" / "kairouz_fig6.png").is_file()
    assert kf.regimes_claim(ctx, "mi", n=n, swap=True, draw_figure=False).verdict is R
    assert kf.limits_claim(ctx, "kl", n=n).verdict is V
    assert kf.limits_claim(ctx, "kl", n=n, swap=True).verdict is R
    assert kf.geometric_claim(ctx, "mi", n=n).verdict is R          # binary falls below geometric at large eps
    assert kf.geometric_claim(ctx, "mi", n=n, geo=lambda d: 0 * d["geometric"]).verdict is V
    small = dict(n=n, ks=(3, 6), replicates=1, replicates_k12=0, draw_figure=False)
    assert kf.floors_claim(ctx, "mi", **small).verdict is V
    assert kf.floors_claim(ctx, "mi", combine=np.minimum, **small).verdict is R
