"""A float mechanism whose columns sum to 1 only within rounding is certified as given (``"column_sums": "inexact"``:
the checker's bounds use Q's rows only); wrong variants rejected: an undeclared inexact Q, a Q entry raised so that
the ratio rises, an unknown ``column_sums`` value."""

import copy
from fractions import Fraction as F

import numpy as np
import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.audit import audit_certificate
from rldp_verify.rldp.audit import audit, exact_matrix
from rldp_verify.rldp.mechio import Mechanism

SETS = {"ball": dict(phat="0.07,0.10;0.26,0.57", alpha=2, radius="1/10"), "ldp": dict(ldp=True),
        "simplex": dict(full_simplex=True), "distribution": dict(distribution="0.1,0.1;0.2,0.6")}


def _mechanism():
    rng = np.random.default_rng(3)
    Q = rng.dirichlet([5.0] * 4, size=4).T
    Q /= Q.sum(axis=0)
    m = Mechanism.from_matrix(Q, 2, 2, normalize=True)
    E = exact_matrix(m)
    assert any(sum(r[c] for r in E) != 1 for c in range(4))        # the test's premise: inexact columns
    return m


def _make(kind, eps):
    m = _mechanism()
    res = audit(m, eps, **SETS[kind])
    return res, audit_certificate(res, m, eps, sizes=(2, 2), name=kind, **SETS[kind])


@pytest.mark.parametrize("kind", sorted(SETS))
@pytest.mark.parametrize("eps", ["log(4)", "1/2"])
def test_inexact_columns_certified_as_given(kind, eps):
    res, cert = _make(kind, eps)
    assert cert["statement"]["column_sums"] == "inexact"
    r = recheck(cert)
    assert r.ok, r.message
    assert r.message.startswith(str(res.verdict)) and "columns sum to 1 within" in r.message


def test_undeclared_or_unknown_column_sums_rejected():
    _, cert = _make("ball", "log(4)")
    for value in (None, "exact", "approximately"):
        bad = copy.deepcopy(cert)
        if value is None:
            del bad["statement"]["column_sums"]
        else:
            bad["statement"]["column_sums"] = value
        assert "not a distribution" in recheck(bad).message, value


@pytest.mark.parametrize("kind", ["ball", "ldp", "simplex"])
def test_entry_raised_so_the_ratio_rises_rejected(kind):
    res, cert = _make(kind, "1/2" if kind != "ball" else "log(4)")
    a = res.argmax
    bad = copy.deepcopy(cert)
    Q = bad["statement"]["Q"]
    y, s = a["y"], a["s"]
    u = max(range(2), key=lambda u: F(Q[y][s * 2 + u]))        # the larger entry of q1 (the worst pair's numerator)
    Q[y][s * 2 + u] = str(F(Q[y][s * 2 + u]) * F(11, 10))
    r = recheck(bad)
    assert not r.ok, r.message
    assert any(w in r.message for w in ("does not prove", "mu1 < max q1", "below the certified bound")), r.message
