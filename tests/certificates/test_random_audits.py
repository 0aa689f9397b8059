"""Every audit verdict on random small instances (every uncertainty set; alpha from 1/3 to 10 including 1 and
1/2; radii 0 to inf; zeros in Q and P-hat) carries a certificate that the independent checker accepts."""

import random
from fractions import Fraction as F

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.audit import audit_certificate
from rldp_verify.core.errors import InputError
from rldp_verify.rldp.audit import audit


def _instance(rng):
    a1, a2, Y = rng.choice([1, 2, 2, 3]), rng.choice([1, 2, 3]), rng.choice([2, 3])
    cols = []
    for _ in range(a1 * a2):
        w = [rng.choice([0, 0, 1, 2, 5, 20]) for _ in range(Y)]
        if not any(w):
            w[rng.randrange(Y)] = 1
        cols.append([F(v, sum(w)) for v in w])
    Q = [[c[y] for c in cols] for y in range(Y)]
    ph = [[rng.choice([0, 1, 3, 10]) for _ in range(a2)] for _ in range(a1)]
    ph[0][0] += 1
    tot = sum(map(sum, ph))
    phat = [[F(v, tot) for v in r] for r in ph]
    alpha = rng.choice([F(2), F(3, 2), F(1), F(5), F(3, 4), F(1, 2), F(1, 3), F(10)])
    B = rng.choice([F(0), F(1, 1000), F(1, 10), F(1, 2), F(3), "inf"])
    kw = rng.choice([dict(phat=phat, alpha=alpha, radius=B)] * 4 +
                    [dict(ldp=True), dict(full_simplex=True), dict(distribution=phat)])
    return Q, (a1, a2), kw, rng.choice(["log(2)", "log(3)", "1/2", "1", "0"])


@pytest.mark.parametrize("seed", range(40))
def test_random_audit_certificate_accepted(seed):
    Q, sizes, kw, eps = _instance(random.Random(seed))
    try:
        res = audit(Q, eps, sizes=sizes, **kw)
    except InputError:          # e.g. an output row of zeros: refused by the audit, nothing to certify
        pytest.skip("input refused by the audit")
    r = recheck(audit_certificate(res, Q, eps, sizes=sizes, **kw))
    assert r.ok, (seed, r.message)
    assert r.message.startswith(str(res.verdict))
