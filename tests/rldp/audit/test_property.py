"""Every mechanism the mechanisms issue generates PASSes its own audit at its claimed eps."""

import numpy as np
import pytest

from rldp_verify.rldp.audit import audit
from rldp_verify.rldp.mechanisms import grr, independent_reporting, polyopt, srr
from rldp_verify.rldp.uncertainty import RenyiBall

EX1 = [["0.07", "0.10"], ["0.26", "0.57"]]


@pytest.mark.parametrize("eps", ["0.3", "log(2)", "1.5"])
def test_grr_is_ldp(eps):
    m = grr(EX1, eps)
    assert audit(m, eps, ldp=True).verdict == "PASS"
    assert audit(m, eps, full_simplex=True).verdict == "PASS"


@pytest.mark.parametrize("eps", ["0.3", "log(2)", "1.5"])
def test_srr_is_px_rldp(eps):
    m = srr(EX1, eps)
    assert audit(m, eps, full_simplex=True).verdict == "PASS"
    # and not eps-LDP in general (ratios e^{2 eps} within one s)
    assert audit(m, eps, ldp=True).verdict == "FAIL"


@pytest.mark.parametrize("eps", ["0.5", "log(2)"])
def test_ir_and_polyopt_pass_over_their_ball(eps):
    ball = RenyiBall.from_confidence(EX1, 2, "0.95", 100)
    for m in (independent_reporting(ball, eps), polyopt(ball, eps)):
        r = audit(m, eps, ball=ball, dps=30)
        assert r.verdict == "PASS", (m.guarantee, r.to_json())


def test_random_phat_srr_and_ir():
    rng = np.random.default_rng(3)
    counts = rng.integers(0, 30, size=(3, 3))
    counts[:, 0] += 1
    ball = RenyiBall.from_confidence(counts.tolist(), 2, "0.9", int(counts.sum()))
    for m in (srr(ball.phat, "1"), independent_reporting(ball, "1")):
        assert audit(m, "1", ball=ball, dps=30).verdict == "PASS"
