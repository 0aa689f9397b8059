"""TreeHist and SFP over pure-ldp's Hadamard clients (issue 26): the Hadamard mechanism (``HadamardMechClient``: t
released rows, GRR on the 2^t sign tuples; TreeHist: PrefixMixture over the rows, SFP: ReleasedProduct) and, in SFP,
the Hadamard response (``HadamardResponseClient``, high-privacy regime: a two-level channel whose supports differ
both ways for distinct inputs). Checked against brute-force channels whose laws are read from the library's own code
(its _count_bin_ones; its encode_symbol run on every out1 and both branches), the library's sampler (chi-square at a
fixed seed), a wrong model rejected; TreeHist over the Hadamard response (PrefixTwoLevel) likewise."""

import itertools
import math
import random
import warnings
from collections import Counter
from fractions import Fraction

import pytest

from rldp_verify.adapters import adapt, adapt_spec, audit_adapted, dense_mechanism
from rldp_verify.core.errors import InputError
from rldp_verify.rldp.audit import FAIL, PASS, audit
from rldp_verify.structured.sketch import ReleasedProduct
from rldp_verify.structured.treehist import PrefixMixture
from tests.adapters.test_adapters import _seed
from tests.adapters.test_pure_ldp_more import xxh64_str as xxh64_str  # noqa: F401  (the fixture)
from tests.adapters.test_sfp import _brute as _sfp_brute
from tests.adapters.test_sfp import _strings
from tests.adapters.test_treehist_oracles import _brute as _th_brute

hh = pytest.importorskip("pure_ldp.heavy_hitters")
fo = pytest.importorskip("pure_ldp.frequency_oracles")


def _hm_law(est):
    """(law(y, u), outputs) of the Hadamard mechanism: rows uniform on d^t, the true signs (from the library's own
    _count_bin_ones) kept with probability p (exact), else one of the other 2^t - 1 tuples uniformly."""
    p, t, d = Fraction(est.p), est.t, est.d
    size = len(bin(d)[2:])

    def law(y, u):
        rows, signs = y
        truth = tuple((-1) ** est._count_bin_ones(bin(u)[2:].zfill(size), bin(j)[2:].zfill(size)) for j in rows)
        return Fraction(1, d**t) * (p if signs == truth else (1 - p) / (2**t - 1))
    outs = [(rows, s) for rows in itertools.product(range(d), repeat=t) for s in itertools.product((-1, 1), repeat=t)]
    return law, outs


def _th_hm(eps=2.0, L=2, t=1):
    return hh.TreeHistClient(eps, 1, L, fo_client=fo.HadamardMechClient(eps, 2**L, t))


def _sfp_hm(eps=2.0, L=2, t=1):
    c = fo.HadamardMechClient(eps, 2**L, t)
    c.sketch_based = False
    return hh.SFPClient(eps, 1, L, fo_client=c)


@pytest.mark.parametrize("t", [1, 2])
def test_treehist_hm_is_the_brute_force_channel(t):
    client = _th_hm(t=t)
    a = adapt(client, model="ideal")
    st = a.structure
    assert isinstance(st, PrefixMixture)
    lo, hi, _ = st.ratio_bounds(30)
    law_f, outs_f = _hm_law(client.fragment_estimator)
    law_w, outs_w = _hm_law(client.word_estimator)
    assert lo == hi == _th_brute(client, law_f, law_w, outs_f, outs_w)
    assert audit(dense_mechanism(a), 1, ldp=True).ratio_upper == hi


def test_sfp_hm_is_the_brute_force_channel(xxh64_str):  # noqa: F811
    client = _sfp_hm()
    st = adapt(client, model="ideal").structure
    assert isinstance(st, ReleasedProduct)
    lo, hi, _ = st.ratio_bounds(30)
    laws = {}

    def law(c, u):
        if id(c) not in laws:
            laws[id(c)] = _hm_law(c)
        f, outs = laws[id(c)]
        return {y: f(y, u) for y in outs}
    assert lo == hi == _sfp_brute(client, law)


def _hr_law(c, u):
    """{y: Pr} of the library's high-privacy Hadamard response on index u: its encode_symbol run on every out1
    (randint patched, each with Pr 1/K) and both branches of random() > pri_para (exact Bernoulli weights)."""
    import pure_ldp.frequency_oracles.hadamard_response.internal.k2k_hadamard as mod

    hr = c.hr
    K, pp = int(hr.outsz), Fraction(hr.pri_para)
    law: dict = {}
    saved = mod.random
    try:
        for out1 in range(K):
            for ra, w in ((1.0 - 1e-12, 1 - pp), (0.0, pp)):
                mod.random = type("r", (), {"randint": staticmethod(lambda a, b, o=out1: o),
                                            "random": staticmethod(lambda ra=ra: ra)})
                y = hr.encode_symbol(u)
                law[y] = law.get(y, Fraction(0)) + w / K
    finally:
        mod.random = saved
    return law


def test_sfp_hr_is_the_brute_force_channel(xxh64_str):  # noqa: F811
    c = fo.HadamardResponseClient(1.0, 4, None)
    c.sketch_based = False
    client = hh.SFPClient(1.0, 1, 2, fo_client=c)
    st = adapt(client, model="ideal").structure
    lo, hi, _ = st.ratio_bounds(30)
    assert lo == hi == _sfp_brute(client, _hr_law)
    assert math.isclose(float(hi), math.e, rel_tol=1e-12)


def _hm_label(out):
    rows, signs = zip(*out, strict=True)
    return list(itertools.product((-1, 1), repeat=len(signs))).index(tuple(signs)), tuple(int(j) for j in rows)


def _chi2(client, model, xs, n=4000):
    """The library's TreeHist-over-HM outputs at inputs xs against the model's dense channel (all rows)."""
    from scipy.stats import chisquare

    rows, outs = model.dense()
    col = {o: i for i, o in enumerate(outs)}
    strings = _strings(client)
    worst = 1.0
    for x in xs:
        obs: Counter = Counter()
        for _ in range(n):
            yf, yw = client.privatise(strings[x])
            (bf, sf), (bw, sw) = _hm_label(yf), _hm_label(yw)
            obs[col[f"{bf}@{sf},{bw}@{sw}"]] += 1
        keys = [i for i in range(len(outs)) if rows[i][x] > 0]
        assert set(obs) <= set(keys)
        worst = min(worst, chisquare([obs.get(i, 0) for i in keys], [float(rows[i][x]) * n for i in keys]).pvalue)
    return worst


@pytest.mark.parametrize("wrong", [False, True], ids=["model", "fragment read as the word"])
def test_treehist_hm_library_sampler(wrong):
    client = _th_hm(eps=1.0)
    st = adapt(client).structure
    if wrong:
        st = PrefixMixture(st.d, st.word, st.frag, st.word_index, lambda x: (st.word_index(x),) * 2,
                           frag_seeds=st.frag_seeds)
    _seed(83)
    random.seed(83)
    p = _chi2(client, st, (1, 2))
    assert (p < 1e-6) if wrong else (p > 1e-6)


def test_verdicts_and_refusals():
    for cls in ("TreeHistClient", "SFPClient"):
        a = adapt_spec(f"pure-ldp:{cls}", ["epsilon=4", "fragment_length=1", "max_string_length=4",
                                           "fo=HadamardMechClient", "fo.t=2"])
        assert audit_adapted(a, 4.0).verdict == PASS and audit_adapted(a, 3.99).verdict == FAIL
    with pytest.raises(InputError, match="the library raised RuntimeWarning"):      # eps / 2 > 1: pure-ldp's own error
        adapt_spec("pure-ldp:SFPClient", ["epsilon=4", "fragment_length=1", "max_string_length=3",
                                          "fo=HadamardResponseClient"])


def _th_hr(eps=1.0, L=2):
    return hh.TreeHistClient(eps, 1, L, fo_client=fo.HadamardResponseClient(eps, 2**L, None))


def _hr_cached(c):
    cache: dict = {}

    def law(y, u):
        if u not in cache:
            cache[u] = _hr_law(c, u)
        return cache[u].get(y, Fraction(0))
    return law


@pytest.mark.parametrize("L", [2, 3])
def test_treehist_hr_is_the_brute_force_channel(L):
    from rldp_verify.structured.treehist import PrefixTwoLevel

    client = _th_hr(L=L)
    a = adapt(client, model="ideal")
    st = a.structure
    assert isinstance(st, PrefixTwoLevel)
    lo, hi, _ = st.ratio_bounds(30)
    fe, we = client.fragment_estimator, client.word_estimator
    brute = _th_brute(client, _hr_cached(fe), _hr_cached(we), range(int(fe.hr.outsz)), range(int(we.hr.outsz)))
    assert lo == hi == brute
    assert math.isclose(float(hi), math.e, rel_tol=1e-12)


@pytest.mark.parametrize("wrong", [False, True], ids=["model", "fragment read as the word"])
def test_treehist_hr_library_sampler(wrong):
    from scipy.stats import chisquare

    from rldp_verify.structured.treehist import PrefixTwoLevel

    client = _th_hr()
    st = adapt(client).structure
    if wrong:
        st = PrefixTwoLevel(st.d, st.word, st.frag, st.word_index, lambda x: (st.word_index(x),) * 2)
    rows, outs = st.dense()
    col = {o: i for i, o in enumerate(outs)}
    strings = _strings(client)
    _seed(89)
    random.seed(89)
    worst = 1.0
    for x in (1, 2):
        with warnings.catch_warnings():      # the library's randint(0, 2.0 ** outbit - 1): a float, deprecated in 3.10
            warnings.simplefilter("ignore", DeprecationWarning)
            obs = Counter(col["{},{}".format(*(int(v) for v in client.privatise(strings[x])))] for _ in range(4000))
        keys = [i for i in range(len(outs)) if rows[i][x] > 0]
        worst = min(worst, chisquare([obs.get(i, 0) for i in keys], [float(rows[i][x]) * 4000 for i in keys]).pvalue)
    assert (worst < 1e-6) if wrong else (worst > 1e-6)
