"""The structures of :mod:`rldp_verify.structured.composite` (budget splitting, RS+FD with per-attribute fake data,
dBitFlipPM's sampled bits): closed-form worst ratio against the certified audit of the brute-force dense matrix,
on random exact parameters."""

import random
from fractions import Fraction

import pytest

from rldp_verify.core.errors import InputError
from rldp_verify.structured import (
    AttributeProduct,
    BitChannel,
    FakeData,
    FakeDataMixture,
    FakeDataUnary,
    SampledBits,
    Symmetric,
    UnaryProduct,
)
from tests.adapters.test_structured import _dense_ratio


def _p(rng, lo=0):
    return rng.choice([Fraction(rng.randint(1, 9), 10), Fraction(rng.randint(1, 99), 100)] + ([Fraction(0), Fraction(1)]
                                                                                           if lo == 0 else []))


def _sym(rng, k):
    a = _p(rng, 1)
    return Symmetric(k, a, (1 - a) / (k - 1))


def _ue(rng, k):
    return UnaryProduct(k, BitChannel(_p(rng, 1), _p(rng, 1)))


def _cases(seed):
    rng = random.Random(seed)
    yield AttributeProduct([_sym(rng, rng.randint(2, 3)), _ue(rng, 2)])
    yield AttributeProduct([_sym(rng, 2), _sym(rng, 3), UnaryProduct(2, BitChannel(_p(rng), _p(rng)))])
    parts = []
    for _ in range(rng.randint(1, 3)):
        fake = rng.choice(["uniform", "zero", "random"])
        parts.append((_sym(rng, rng.randint(2, 3)), fake) if fake == "uniform" else (_ue(rng, rng.randint(2, 3)), fake))
    yield FakeData(parts)
    yield FakeData([(_ue(rng, 3), "random"), (_ue(rng, 2), "random")])
    b = rng.randint(1, 4)
    k = rng.randint(b, 6)
    yield SampledBits(k, b, rng.randint(1, b), BitChannel(_p(rng), _p(rng)), lambda x, k=k, b=b: int(x / (k / b)))


@pytest.mark.parametrize("seed", range(20))
def test_closed_form_ratio_is_the_dense_audit(seed):
    for st in _cases(seed):
        assert st.ratio() == _dense_ratio(st), (st, st.ratio())


def test_fakedata_agrees_with_the_older_structures():
    rng = random.Random(3)
    for _ in range(20):
        syms = [_sym(rng, rng.randint(2, 5)) for _ in range(rng.randint(1, 4))]
        assert FakeData([(c, "uniform") for c in syms]).ratio() == FakeDataMixture(syms).ratio()
        ues = [_ue(rng, rng.randint(2, 5)) for _ in range(rng.randint(1, 4))]
        assert FakeData([(c, "zero") for c in ues]).ratio() == FakeDataUnary(ues).ratio()


def test_wrong_variants_are_caught():
    """The oracle would reject a wrong closed form: random fake data is not zero fake data, dBitFlipPM with one
    sampled bit is not the product of both bits' ratios."""
    rng = random.Random(5)
    differ = 0
    for _ in range(10):
        ues = [_ue(rng, 3), _ue(rng, 2)]
        zero, rnd = FakeData([(c, "zero") for c in ues]), FakeData([(c, "random") for c in ues])
        assert rnd.ratio() == _dense_ratio(rnd)
        differ += zero.ratio() != _dense_ratio(rnd)
    assert differ >= 8
    bit = BitChannel(Fraction(3, 4), Fraction(1, 4))
    one = SampledBits(4, 4, 1, bit, lambda x: x)
    assert one.ratio() == _dense_ratio(one) == 3 and SampledBits(4, 4, 2, bit, lambda x: x).ratio() == 9
    assert SampledBits(4, 1, 1, bit, lambda x: 0).ratio() == 1


def test_bad_structures_refused():
    with pytest.raises(InputError, match="fake data 'zero' with a Symmetric"):
        FakeData([(Symmetric(2, Fraction(1, 2), Fraction(1, 2)), "zero")])
    with pytest.raises(InputError, match="0 < q < 1 and 0 < p < 1"):
        FakeData([(UnaryProduct(2, BitChannel(Fraction(1), Fraction(1, 2))), "random")]).ratio()
    with pytest.raises(InputError, match="d_bits = 3 must be in"):
        SampledBits(4, 2, 3, BitChannel(Fraction(1, 2), Fraction(1, 3)), lambda x: x // 2)


def _bloom_cases(seed):
    from rldp_verify.structured import BloomProduct

    rng = random.Random(seed)
    for _ in range(3):
        d, m, cohorts = rng.randint(2, 5), rng.randint(2, 4), rng.randint(1, 3)
        h = rng.randint(1, m)
        tab = {(c, x): frozenset(rng.randrange(m) for _ in range(h)) for c in range(cohorts) for x in range(d)}
        yield BloomProduct(d, m, cohorts, BitChannel(_p(rng), _p(rng)), lambda c, x, tab=tab: tab[c, x])


@pytest.mark.parametrize("seed", range(20))
def test_bloom_product_is_the_dense_audit(seed):
    for st in _bloom_cases(seed):
        got, want = st.ratio(), _dense_ratio(st)
        assert got == want, (st, got, want)


def test_bloom_product_wrong_variant_caught():
    """Counting only the positions of x (not those of x') is a wrong closed form the oracle rejects."""
    from rldp_verify.structured import BloomProduct

    st = BloomProduct(2, 3, 1, BitChannel(Fraction(3, 4), Fraction(1, 4)), lambda c, x: {x})
    assert st.ratio() == _dense_ratio(st) == 9 and st.ratio() != 3
    same = BloomProduct(3, 3, 2, BitChannel(Fraction(3, 4), Fraction(1, 4)), lambda c, x: {0})
    assert same.ratio() == 1


def _random_P(rng, a1, a2):
    w = [[rng.choice([0, 0, 1, 2, 3, 5]) for _ in range(a2)] for _ in range(a1)]
    if sum(map(sum, w)) == 0:
        w[0][0] = 1
    tot = sum(map(sum, w))
    return [[Fraction(v, tot) for v in r] for r in w]


@pytest.mark.parametrize("seed", range(30))
def test_p_ratio_is_the_dense_route(seed):
    """(eps, P)-RLDP of GRR and UE on X = S x U without outputs equals eq. (62) on the dense matrix."""
    from rldp_verify.rldp.audit import audit
    from rldp_verify.rldp.mechio import Mechanism
    from rldp_verify.structured.rldp import p_ratio

    rng = random.Random(seed)
    a1, a2 = rng.randint(1, 3), rng.randint(1, 3)
    k = a1 * a2
    if k < 2:
        a2 += 1
        k = a1 * a2
    P = _random_P(rng, a1, a2)
    for st in (_sym(rng, k), UnaryProduct(k, BitChannel(_p(rng, 1), _p(rng, 1))), Symmetric(k, Fraction(1), Fraction(0)),
               Symmetric(k, Fraction(0), Fraction(1, k - 1))):
        rows, outs = st.dense()
        keep = [i for i, r in enumerate(rows) if any(r)]
        mech = Mechanism.from_matrix([rows[i] for i in keep], a1, a2, [outs[i] for i in keep])
        want = audit(mech, 1, distribution=P).ratio_lower
        assert p_ratio(st, P, (a1, a2)) == want, (st, P)


def test_p_ratio_wrong_variant_and_bad_input():
    """Taking c* as the largest joint P(s, u) instead of the conditional P(u | s) is rejected by the dense route."""
    from rldp_verify.structured.rldp import p_ratio

    st = Symmetric(4, Fraction(1, 2), Fraction(1, 6))
    P = [[Fraction(1, 8), Fraction(1, 8)], [Fraction(3, 4), 0]]
    assert p_ratio(st, P, (2, 2)) == 1 + (3 - 1) * 1          # c* = P(u=0 | s=1) = 1
    assert p_ratio(st, P, (2, 2)) != 1 + (3 - 1) * Fraction(3, 4)
    with pytest.raises(InputError, match="must be an |S| x |U|"):
        p_ratio(st, [[1]], (2, 2))
    with pytest.raises(InputError, match="sum to 1"):
        p_ratio(st, [[Fraction(1, 2), 0], [0, 0]], (2, 2))
    with pytest.raises(InputError, match="not for LaplaceHistogram"):
        from rldp_verify.structured import LaplaceHistogram

        p_ratio(LaplaceHistogram(4, 1.0), P, (2, 2))
