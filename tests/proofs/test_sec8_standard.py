"""Issue 24 item 1: the Sec. 8-9 synthetic comparisons are decided by the statistical standard
(rldp_verify.core.standard) on the runs. Fed fabricated runs (no solver: the claims only read the runs), each check
says VERIFIED when the comparison clearly holds, REFUTED when a wrong variant of the data clearly breaks it, and
INCONCLUSIVE (with what would decide it) when the two sides are tied within the noise."""

import numpy as np
import pytest

from proofs.rldp import sec8_synthetic as s8
from proofs.rldp import sec9_summary as s9
from proofs.rldp._sec8 import EPS_GRID, MECHS
from rldp_verify.claims import Context, Verdict

BASE = {"GRR": 0.1, "SRR": 0.3, "IR": 0.4, "PolyOpt": 0.5, "NR": 0.51}


def _fake_runs(nmi=BASE, noise=0.01, k=40, seed=0, last_beta=1.0):
    """shape -> runs as sec8_synthetic._experiment returns them, with NMI = nmi[m] + noise (no solver); IR's and
    PolyOpt's NMI times ``last_beta`` at the smallest beta."""
    rng = np.random.default_rng(seed)
    out = {}
    for sh in s8.SETTINGS:
        rs = []
        for i in range(k):
            evals = {}
            for e, b in [(e, "0.05") for e in EPS_GRID] + [(s8.ROBUST_EPS, b) for b in s8.BETAS if b != "0.05"]:
                v = {m: float(nmi[m] + noise * rng.standard_normal()) for m in MECHS}
                if b == s8.BETAS[-1]:
                    v["IR"], v["PolyOpt"] = v["IR"] * last_beta, v["PolyOpt"] * last_beta
                if b != "0.05" or e == s8.ROBUST_EPS:
                    v["SRR"] = nmi["SRR"] + 1e-3 * (i % 7)   # SRR does not depend on beta
                evals[(e, b)] = {"eps": e, "nmi": v}
            rs.append({"shape": sh, "k": i, "evals": evals})
        out[sh] = rs
    return out


@pytest.fixture
def ctx(tmp_path, monkeypatch):
    c = Context(out_dir=str(tmp_path))
    monkeypatch.setitem(s8._RUNS, c.seed, _fake_runs())
    return c


def _with(ctx, monkeypatch, **nmi):
    monkeypatch.setitem(s8._RUNS, ctx.seed, _fake_runs({**BASE, **nmi}))


def test_orderings_follow_the_runs(ctx, monkeypatch):
    assert s8.check_synthetic_orderings(ctx).verdict is Verdict.VERIFIED
    _with(ctx, monkeypatch, PolyOpt=0.35)        # wrong variant: PolyOpt below IR
    out = s8.check_synthetic_orderings(ctx)
    assert out.verdict is Verdict.REFUTED and "PolyOpt - IR" in out.summary
    _with(ctx, monkeypatch, PolyOpt=0.4)         # tied with IR within the noise
    out = s8.check_synthetic_orderings(ctx)
    assert out.verdict is not Verdict.VERIFIED
    assert all(r["interval"][0] <= r["estimate"] <= r["interval"][1] for r in out.evidence["readings"])


def test_grr_worst_and_nr_margin(ctx, monkeypatch):
    assert s8.check_synthetic_grr(ctx).verdict is Verdict.VERIFIED
    assert s8.check_synthetic_nr(ctx).verdict is Verdict.VERIFIED          # margin 2 % <= 5 %
    _with(ctx, monkeypatch, GRR=0.45)                                     # GRR above SRR and IR everywhere
    assert s8.check_synthetic_grr(ctx).verdict is Verdict.REFUTED
    _with(ctx, monkeypatch, NR=0.7)                                       # margin 29 %: not small
    out = s8.check_synthetic_nr(ctx)
    assert out.verdict is Verdict.REFUTED and "(NR - best RLDP) / NR" in out.summary


def test_beta_impact(ctx, monkeypatch):
    assert s8.check_beta_impact(ctx).verdict is Verdict.VERIFIED         # noise 1 % of 0.4: impact ~ 1 %
    monkeypatch.setitem(s8._RUNS, ctx.seed, _fake_runs(last_beta=0.9))   # impact of beta ~ 10 %: not 'about 4 %'
    assert s8.check_beta_impact(ctx).verdict is Verdict.REFUTED


def test_sec9_rldp_beats_ldp_synthetic_part(ctx, monkeypatch):
    monkeypatch.setattr("proofs.rldp.sec8_adult.small_runs", lambda ctx=None: {})
    assert s9.check_rldp_ldp(ctx).verdict is Verdict.VERIFIED            # best RLDP / GRR = 5
    _with(ctx, monkeypatch, GRR=0.48)                                     # ratio 1.04 < 1.2 at every eps
    out = s9.check_rldp_ldp(ctx)
    assert out.verdict is Verdict.REFUTED and "best RLDP / GRR" in out.summary
