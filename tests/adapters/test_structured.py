"""The structures' closed-form worst ratios against the certified audit of their dense matrices, on random exact
parameters (zeros and ones included: the 0/0 and a/0 conventions), and the audit's verdict and excess."""

import random
from fractions import Fraction

import pytest

from rldp_verify.rldp.audit import audit
from rldp_verify.rldp.mechio import Mechanism
from rldp_verify.structured import (
    Adapted,
    AttributeMixture,
    BitChannel,
    FakeDataMixture,
    PublicMixture,
    SubsetSelection,
    Symmetric,
    UnaryProduct,
    audit_structured,
    compose,
)

INF = float("inf")


def _p(rng):
    return rng.choice([Fraction(0), Fraction(1), Fraction(rng.randint(1, 9), 10), Fraction(rng.randint(1, 99), 100)])


def _sym(rng, k):
    a = _p(rng)
    return Symmetric(k, a, (1 - a) / (k - 1))


def _dense_ratio(st):
    rows, outs = st.dense()
    d = len(rows[0])
    keep = [i for i, r in enumerate(rows) if any(r)]                  # outputs of probability 0 everywhere
    rows, outs = [rows[i] for i in keep], [outs[i] for i in keep]
    mech = Mechanism.from_matrix(rows, [str(i) for i in range(d)], ["*"], outs)
    r = audit(mech, 1, ldp=True)
    assert r.ratio_lower == r.ratio_upper
    return r.ratio_lower


def _cases(seed):
    rng = random.Random(seed)
    hash_tab = {(x, s): rng.randrange(3) for x in range(4) for s in range(6)}
    yield UnaryProduct(rng.randint(2, 4), BitChannel(_p(rng), _p(rng)))
    yield _sym(rng, rng.randint(2, 5))
    k = rng.randint(3, 6)
    m = rng.randint(1, k - 1)
    yield SubsetSelection(k, m, _p(rng), ordered=rng.random() < 0.5)
    sym = _sym(rng, 3)
    yield PublicMixture(4, 3, sym.a, sym.b, lambda x, xp: next((s for s in range(6) if hash_tab[x, s] !=
                                                                hash_tab[xp, s]), None),
                        range(6), lambda x, s: hash_tab[x, s])
    yield AttributeMixture([_sym(rng, 2), UnaryProduct(2, BitChannel(_p(rng), _p(rng)))])
    yield compose(_sym(rng, 3), _sym(rng, 3))
    yield FakeDataMixture([_sym(rng, rng.randint(2, 3)) for _ in range(rng.randint(1, 3))])
    yield compose(UnaryProduct(3, BitChannel(_p(rng), _p(rng))), BitChannel(_p(rng), _p(rng)))


@pytest.mark.parametrize("seed", range(25))
def test_closed_form_ratio_is_the_dense_audit(seed):
    for st in _cases(seed):
        if isinstance(st, Symmetric) and st.a == st.b == 0:
            continue
        got = st.ratio()
        want = _dense_ratio(st)
        assert got == want, (st, got, want)
        if isinstance(st, UnaryProduct):          # the witness output attains the ratio
            rows, outs = st.dense()
            y = outs.index("".join(map(str, st.witness()["y_bits"])))
            q0, q1 = rows[y][0], rows[y][1]
            assert (q0 / q1 if q1 else (INF if q0 else 1)) == got or got == 1


def test_verdicts_never_pass_above_the_truth():
    """Against e^eps at, just below and just above the exact ratio: PASS exactly when ratio <= e^eps."""
    st = Symmetric(3, Fraction(1, 2), Fraction(1, 4))      # ratio 2
    a = Adapted(st, "test", "exact")
    assert audit_structured(a, "log(2)").verdict == "PASS"
    assert audit_structured(a, "log(1.999999999999)").verdict == "FAIL"
    r = audit_structured(a, "log(1.9)")
    assert r.verdict == "FAIL" and r.excess > 0
    assert audit_structured(a, "log(1.9)", tolerance="0.06").verdict == "PASS"     # ln(2/1.9) = 0.0513
    assert audit_structured(a, "log(1.9)", tolerance="0.05").verdict == "FAIL"
