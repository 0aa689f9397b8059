"""audit certificates for every uncertainty set and both verdicts; wrong variants rejected: an upper bound
rounded down, a pair's dual perturbed or missing, a witness just outside F, a wrong verdict, a lenient auditor."""

import copy
import dataclasses
from fractions import Fraction as F

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.audit import audit_certificate
from rldp_verify.rldp.audit import audit

Q = [[F(1, 2), F(1, 6), F(1, 5), F(1, 6)], [F(1, 6), F(1, 2), F(1, 5), F(1, 6)],
     [F(1, 6), F(1, 6), F(2, 5), F(1, 6)], [F(1, 6), F(1, 6), F(1, 5), F(1, 2)]]
PHAT = "0.07,0.10;0.26,0.57"
SETS = {"ldp": dict(ldp=True), "simplex": dict(full_simplex=True), "distribution": dict(distribution="0.1,0.1;0.2,0.6"),
        "ball-2": dict(phat=PHAT, alpha=2, radius="1/10"), "ball-3/2": dict(phat=PHAT, alpha=F(3, 2), radius="1/20"),
        "ball-1": dict(phat=PHAT, alpha=1, radius="1/20"), "ball-3/4": dict(phat=PHAT, alpha=F(3, 4), radius="1/20"),
        "ball-2/5": dict(phat=PHAT, alpha=F(2, 5), radius="1/20"),
        "ball-conf": dict(phat=PHAT, alpha=2, confidence="0.95", samples=100)}


def make(kind, eps):
    kw = SETS[kind]
    res = audit(Q, eps, sizes=(2, 2), **kw)
    return res, audit_certificate(res, Q, eps, sizes=(2, 2), name=kind, **kw)


@pytest.mark.parametrize("kind", sorted(SETS))
@pytest.mark.parametrize("eps", ["log(4)", "1/2", "log(3)"])
def test_accepted(kind, eps):
    res, cert = make(kind, eps)
    r = recheck(cert)
    assert r.ok, r.message
    assert r.message.startswith(str(res.verdict))


def _ball():
    return make("ball-2", "log(4)")


def test_upper_bound_rounded_down_rejected():
    res, cert = _ball()
    assert res.verdict == "PASS"
    bad = copy.deepcopy(cert)                  # the printed upper end one unit of its last digit lower
    hi = F(bad["statement"]["ratio_upper"])
    bad["statement"]["ratio_upper"] = str(hi - F(1, 10**20))
    assert "below the certified bound" in recheck(bad).message
    bad = copy.deepcopy(cert)                  # the worst pair's bound r rounded down, its multipliers kept
    p = _worst(res, bad)
    p["r"] = str(F(p["r"]) - F(1, 10**20))
    msg = recheck(bad).message                 # mu2 = -r min q2 exactly when that block is flat
    assert "does not prove" in msg or "mu2 < -r min q2" in msg, msg


def _worst(res, cert):
    a = res.argmax
    return next(p for p in cert["data"]["pairs"] if (p["y"], p["s"], p["s_prime"]) == (a["y"], a["s"], a["s_prime"]))


def test_perturbed_or_missing_pair_rejected():
    res, cert = _ball()
    for key, change in (("t", F(11, 10)), ("t", F(9, 10)), ("mu1", F(1, 1000))):
        bad = copy.deepcopy(cert)
        p = _worst(res, bad)
        p[key] = str(F(p[key]) * change if key == "t" else F(p[key]) + change)
        assert "does not prove" in recheck(bad).message, (key, change)
    bad = copy.deepcopy(cert)
    bad["data"]["pairs"].pop()
    assert "no certificate" in recheck(bad).message


def test_witness_just_outside_F_rejected():
    res, cert = _ball()
    phat = [[F(v) for v in r] for r in cert["statement"]["set"]["phat"]]
    W = [[F(v) for v in r] for r in cert["data"]["witness"]]
    assert phat != W
    s = 1 + F(1, 10**20)                       # the witness moved 10^-20 of its distance further from P^
    out = [[h + s * (w - h) for h, w in zip(rh, rw, strict=True)] for rh, rw in zip(phat, W, strict=True)]
    bad = copy.deepcopy(cert)
    bad["data"]["witness"] = [[str(v) for v in r] for r in out]
    assert "not certainly in F" in recheck(bad).message


def test_wrong_verdicts_rejected():
    res, cert = _ball()
    bad = copy.deepcopy(cert)
    bad["statement"]["verdict"] = "FAIL"
    assert not recheck(bad).ok
    res, cert = make("ball-2", "1/2")
    assert res.verdict == "FAIL"
    bad = copy.deepcopy(cert)
    bad["statement"]["verdict"] = "PASS"
    assert not recheck(bad).ok
    bad = copy.deepcopy(cert)
    bad["statement"]["eps"] = {"exp_eps": bad["statement"]["ratio_upper"]}   # FAIL needs lower > e^eps
    assert not recheck(bad).ok


@pytest.mark.parametrize("kind", ["ldp", "simplex", "distribution"])
def test_exact_sets_reject_a_lower_upper_bound(kind):
    _, cert = make(kind, "log(4)")
    bad = copy.deepcopy(cert)
    bad["statement"]["ratio_upper"] = str(F(bad["statement"]["ratio_upper"]) * F(999, 1000))
    assert not recheck(bad).ok


def test_lenient_auditor_caught():
    """Issue 23's lenient auditor (upper bound taken at P^ only): its certificate cannot be accepted."""
    from rldp_verify.rldp.audit.exact import audit_single

    res, _ = _ball()
    rho_hat, _ = audit_single(Q, [[F(v) for v in r.split(",")] for r in PHAT.split(";")], 2, 2)
    assert rho_hat < res.ratio_upper
    lenient = dataclasses.replace(res, ratio_upper=rho_hat, ratio_lower=rho_hat,
                                  witness=tuple(tuple(F(v) for v in r.split(",")) for r in PHAT.split(";")))
    cert = audit_certificate(lenient, Q, "log(4)", sizes=(2, 2), **SETS["ball-2"])
    assert not recheck(cert).ok


def test_non_stochastic_matrix_rejected():
    _, cert = make("ldp", "log(4)")
    bad = copy.deepcopy(cert)
    bad["statement"]["Q"][0][0] = "1/3"
    assert "not a distribution" in recheck(bad).message


def test_product_bound_pairs_alpha_half():
    """alpha = 1/2 (the joint dual is not tight there): the engine's Theorem-1 product bound becomes a pair entry
    of mode "product" (or, tighter, the budget split of mode "split") that the checker accepts; the same entry with
    r lowered is rejected."""
    Q3 = [[F(0), F(1), F(5, 6), F(5, 6), F(5, 6), F(0), F(1, 5), F(0), F(0)],
          [F(1), F(0), F(1, 6), F(1, 6), F(1, 6), F(1), F(4, 5), F(1), F(1)]]
    kw = dict(phat=[[F(3, 31), F(3, 31), F(0)], [F(10, 31), F(3, 31), F(1, 31)], [F(10, 31), F(0), F(1, 31)]],
              alpha=F(1, 2), radius=F(1, 10))
    res = audit(Q3, "1", sizes=(3, 3), **kw)
    cert = audit_certificate(res, Q3, "1", sizes=(3, 3), **kw)
    r = recheck(cert)
    assert r.ok and r.message.startswith("FAIL"), r.message
    prods = [p for p in cert["data"]["pairs"] if p.get("mode") in ("product", "split")]
    assert prods
    bad = copy.deepcopy(cert)                  # product pairs' r below the witness's ratio: one of them fails
    for p in bad["data"]["pairs"]:
        if p.get("mode") in ("product", "split"):
            p["r"] = str(res.ratio_lower * F(999, 1000))
    assert "does not prove" in recheck(bad).message or "mu2" in recheck(bad).message
