"""Bad input to the audit API: every error is one line naming the bad value (STYLE: bad input), checked word for
word, and the accepted forms of eps are parsed to the exact target (issue 9: generic mutants of audit/core.py)."""

from fractions import Fraction

import numpy as np
import pytest

from rldp_verify.core.errors import InputError
from rldp_verify.rldp.audit.core import audit, load_mechanism, parse_eps
from rldp_verify.rldp.mechio import Mechanism

F = Fraction
Q = [[F(1, 2)] * 4, [F(1, 2)] * 4]
PH = [[3, 5], [4, 7]]


@pytest.mark.parametrize("call, message", [
    (lambda: parse_eps(None), "eps = None is not a number"),
    (lambda: parse_eps("log(-2)"), "eps = 'log(-2)' is negative (need r >= 1 in log(r))"),
    (lambda: parse_eps("log(1/2)"), "eps = 'log(1/2)' is negative (need r >= 1 in log(r))"),
    (lambda: parse_eps("abc"), "eps = 'abc' is not a number"),
    (lambda: parse_eps(float("inf")), "eps = inf is not finite"),
    (lambda: parse_eps("-1"), "eps = -1 is negative"),
    (lambda: parse_eps(-1), "eps = -1 is negative"),
    (lambda: parse_eps(F(-1, 2)), "eps = -1/2 is negative"),
    (lambda: parse_eps([1]), "eps = [1] is not a number"),
    (lambda: load_mechanism(Q), "a matrix needs the sizes (|S|, |U|) (or pass a Mechanism / JSON file)"),
    (lambda: load_mechanism(np.zeros((2, 2, 2)), sizes=(1, 2)), "the mechanism matrix must be 2-D, got shape (2, 2, 2)"),
    (lambda: audit(Q, "1", ldp=True, sizes=(2,)), "sizes = (2,) must be (|S|, |U|)"),
    (lambda: audit(Q, "1", ldp=True, sizes=(0, 2)), "sizes = (0, 2) must be two positive integers (|S|, |U|)"),
    (lambda: audit(Q, "1", ldp=True, sizes=(True, 2)), "sizes = (True, 2) must be two positive integers (|S|, |U|)"),
    (lambda: audit(Q, "1", ldp=True, sizes=(2, 2), dps=10), "dps must be an integer >= 15, got 10"),
    (lambda: audit(Q, "1", ldp=True, sizes=(2, 2), dps=20.0), "dps must be an integer >= 15, got 20.0"),
    (lambda: audit(Q, "1", ldp=True, full_simplex=True, sizes=(2, 2)),
     "choose exactly one uncertainty set: ldp, full_simplex, distribution, or a Rényi ball (phat)"),
    (lambda: audit(Q, "1", sizes=(2, 2)),
     "choose exactly one uncertainty set: ldp, full_simplex, distribution, or a Rényi ball (phat)"),
    (lambda: audit(Q, "1", phat=PH, alpha=2, radius=1, sizes=(1, 4)), "sizes = (1, 4) but the table is 2 x 2"),
    (lambda: audit(Mechanism.from_matrix(Q, 2, 2), "1", phat=[[1, 1, 1, 1]], alpha=2, radius=1),
     "the mechanism has |S| x |U| = 2 x 2 but the table is 1 x 4"),
    (lambda: audit(Q, "1", phat=PH), "a Rényi ball needs alpha"),
    (lambda: audit(Q, "1", phat=PH, alpha=2), "give exactly one of radius or (confidence, samples)"),
    (lambda: audit(Q, "1", phat=PH, alpha=2, radius=1, confidence="0.9"),
     "give exactly one of radius or (confidence, samples)"),
    (lambda: audit(Q, "1", phat=PH, alpha=2, confidence="0.9"), "confidence needs the sample size (samples)"),
])
def test_audit_bad_input_message(call, message):
    with pytest.raises(InputError) as exc:
        call()
    assert str(exc.value) == message


@pytest.mark.parametrize("eps, exp_exact, eps_exact", [
    (0, F(1), F(0)), ("0", F(1), F(0)), ("log(3)", F(3), None), ("log(1)", F(1), None), ("1/2", None, F(1, 2)),
    (0.5, None, F(1, 2)), (F(3, 4), None, F(3, 4)), (2, None, F(2)),
])
def test_parse_eps_targets(eps, exp_exact, eps_exact):
    t = parse_eps(eps)
    assert (t.exp_exact, t.eps_exact) == (exp_exact, eps_exact)
    assert t.text == str(eps)


def test_single_secret_and_degenerate_balls():
    """|S| = 1 has no pair (ratio 1); radius 0 is the single distribution P^; radius inf is all of P_X."""
    r = audit(Mechanism.from_matrix([[F(1, 3), F(2, 3)], [F(2, 3), F(1, 3)]], 1, 2), "0", phat=[[1, 2]], alpha=2,
              radius=1)
    assert r.verdict == "PASS" and r.ratio_lower == r.ratio_upper == 1
    assert any("|S| = 1" in n for n in r.notes)
    Qs = [[F(3, 4), F(1, 4), F(1, 2), F(1, 2)], [F(1, 4), F(3, 4), F(1, 2), F(1, 2)]]
    m = Mechanism.from_matrix(Qs, 2, 2)
    zero = audit(m, "log(3)", phat=PH, alpha=2, radius=0)
    single = audit(m, "log(3)", distribution=[[F(3, 19), F(5, 19)], [F(4, 19), F(7, 19)]])
    assert (zero.ratio_lower, zero.ratio_upper) == (single.ratio_lower, single.ratio_upper)
    inf = audit(m, "log(3)", phat=PH, alpha=2, radius="inf")
    full = audit(m, "log(3)", full_simplex=True)
    assert (inf.ratio_lower, inf.ratio_upper) == (full.ratio_lower, full.ratio_upper) == (F(2), F(2))   # max_u Q(y|s1,u) / min_u Q(y|s0,u) = (1/2)/(1/4)
    assert any("radius inf" in n for n in inf.notes)
    assert inf.verdict == "PASS" and audit(m, "log(2)", full_simplex=True).verdict == "PASS"
    assert audit(m, "log(199/100)", full_simplex=True).verdict == "FAIL"
