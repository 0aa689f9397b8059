"""pure-ldp's TreeHist heavy hitter over other frequency oracles (DEClient: GRR, UEClient: unary encoding,
FastLHClient): the ratio against a brute-force dense channel built from the library's own prefix and index maps, the
model against the library's own sampler at a fixed seed (chi-square), a wrong model (the fragment read as the whole
word) rejected, a wrong upper end (GRR's a/b bound dropped to the word factor) refuted, and the refusals."""

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest

from rldp_verify.adapters import adapt, audit_adapted, dense_mechanism
from rldp_verify.core.errors import InputError
from rldp_verify.rldp.audit import FAIL, INCONCLUSIVE, PASS, audit
from rldp_verify.structured.treehist import PrefixMixture, PrefixOracle
from tests.adapters.test_adapters import _seed

hh = pytest.importorskip("pure_ldp.heavy_hitters")
fo = pytest.importorskip("pure_ldp.frequency_oracles")


def _th(inner, eps=2.0, N=1, L=2):
    return hh.TreeHistClient(eps, N, L, fo_client=inner)


def _indices(client):
    """(word index, prefix indices) of each input string, from the library's own _choose_random_n_gram_prefix
    (np.random.randint answered r) and the estimators' index_mapper."""
    import pure_ldp.heavy_hitters.treehistogram.treehist_client as mod

    L, N = client.max_string_length, client.fragment_length
    words = ["".join(t) for t in itertools.product(client.alphabet, repeat=L)]
    fe, we = client.fragment_estimator, client.word_estimator
    saved, pre = mod.np, []
    try:
        for w in words:
            row = []
            for r in range(L // N):
                mod.np = type("np", (), {"random": type("r", (), {"randint": staticmethod(lambda a, b, r=r: r)})})
                row.append(int(fe.index_mapper(client._choose_random_n_gram_prefix(w, N))))
            pre.append(row)
    finally:
        mod.np = saved
    return [int(we.index_mapper(w)) for w in words], pre


def _grr_law(est):
    a = Fraction(est.p)
    return lambda y, u: a if y == u else (1 - a) / (est.d - 1)


def _ue_law(bit):
    """Pr[vector y | index u] of a unary encoding with the adapter's per-bit channel (pure-ldp 1.1.2's bug in it)."""
    return lambda y, u: math.prod(bit.prob(b, int(i == u)) for i, b in enumerate(y))


def _brute(client, law_f, law_w, outs_f, outs_w):
    """max over x, x' and outputs (y_f, y_w) of Q[y|x] / Q[y|x'], Q[y|x] = law_w(y_w, w(x)) mean_r law_f(y_f, u_r(x))."""
    wi, pre = _indices(client)
    best = Fraction(0)
    for yf in outs_f:
        mf = [sum(law_f(yf, u) for u in us) / len(us) for us in pre]
        for yw in outs_w:
            q = [mf[x] * law_w(yw, wi[x]) for x in range(len(wi))]
            if max(q) > 0:
                best = max(best, math.inf if min(q) == 0 else max(q) / min(q))
    return best


@pytest.mark.parametrize("L", [2, 3])
def test_grr_is_the_brute_force_channel(L):
    client = _th(fo.DEClient(1.0, 4), L=L)
    a = adapt(client, model="ideal")
    st = a.structure
    assert isinstance(st, PrefixOracle)
    lo, hi, _ = st.ratio_bounds(30)
    d = client.word_estimator.d
    brute = _brute(client, _grr_law(client.fragment_estimator), _grr_law(client.word_estimator), range(d), range(d))
    assert lo == hi == brute
    assert audit(dense_mechanism(a), 1, ldp=True).ratio_upper == hi


def test_ue_is_the_brute_force_channel():
    client = _th(fo.UEClient(1.0, 4), L=2)
    a = adapt(client, model="ideal")
    st = a.structure
    lo, hi, _ = st.ratio_bounds(30)
    outs = list(itertools.product((0, 1), repeat=4))
    assert lo == hi == _brute(client, _ue_law(st.frag.bit), _ue_law(st.word.bit), outs, outs)


def test_grr_upper_end_is_tighter_than_a_over_b():
    """With the prefix indices all distinct (an index_mapper that keeps the padding), the GRR fragment factor is
    (a + (R - 1) b) / (R b), below a / b: the exact ratio (brute force) is the structure's closed interval, and the
    loose upper end rho_W a / b would leave it open."""
    words = ["".join(t) for t in itertools.product("01", repeat=3)]
    keys = sorted({w[:i] + "*" * (3 - i) for w in words for i in (1, 2, 3)})
    index = {k: i for i, k in enumerate(keys)}
    client = hh.TreeHistClient(2.0, 1, 3, fo_client=fo.DEClient(1.0, 16))
    for est in (client.word_estimator, client.fragment_estimator):
        est.update_params(index_mapper=index.__getitem__, d=len(keys))
    st = adapt(client, model="ideal").structure
    lo, hi, _ = st.ratio_bounds(30)
    a, b, R = st.frag.a, st.frag.b, 3
    assert lo == hi == st.word.ratio() * (a + (R - 1) * b) / (R * b) < st.word.ratio() * a / b
    k = len(keys)
    assert hi == _brute(client, _grr_law(client.fragment_estimator), _grr_law(client.word_estimator), range(k),
                        range(k))


def test_fast_lh_interval_contains_the_whole_mixture():
    """FastLH (k = 5 seeds, every one in the dense form): the whole channel's ratio lies in the certified interval
    and is its lower end; between the ends the verdict is INCONCLUSIVE."""
    a = adapt(_th(fo.FastLHClient(1.0, 4, 5), L=3), model="ideal")
    st = a.structure
    assert isinstance(st, PrefixMixture) and list(st.frag_seeds) == list(range(5))
    lo, hi, _ = st.ratio_bounds(30)
    dense = audit(dense_mechanism(a), 1, ldp=True)
    assert lo == dense.ratio_lower == dense.ratio_upper <= hi
    if lo < hi:
        mid = math.log((float(lo) + float(hi)) / 2)
        assert audit_adapted(a, mid).verdict == INCONCLUSIVE


def test_wrong_word_only_bound_is_refuted():
    """The wrong model 'the word report alone' (rho_W) is below the brute-force channel."""
    client = _th(fo.DEClient(1.0, 4), L=3)
    st = adapt(client, model="ideal").structure
    d = client.word_estimator.d
    brute = _brute(client, _grr_law(client.fragment_estimator), _grr_law(client.word_estimator), range(d), range(d))
    assert st.word.ratio() < brute == st.ratio()


def _fit(counts, expected, n):
    from scipy.stats import chisquare

    keys = sorted(expected)
    assert set(counts) <= set(keys)
    exp = [float(expected[k]) * n for k in keys]
    return chisquare([counts.get(k, 0) for k in keys], exp).pvalue


def _marginals(st, x, frag_of):
    """The model's law of the fragment vector and of the word vector of a unary-encoding TreeHist."""
    outs = list(itertools.product((0, 1), repeat=st.frag.d))
    f, w = _ue_law(st.frag.bit), _ue_law(st.word.bit)
    pre = frag_of(x)
    return ({y: sum(f(y, u) for u in pre) / len(pre) for y in outs}, {y: w(y, st.word_index(x)) for y in outs})


@pytest.mark.parametrize("wrong", [False, True], ids=["model", "fragment read as the word"])
def test_library_sampler_fits_the_model(wrong):
    client = _th(fo.UEClient(1.0, 4), L=2)
    st = adapt(client).structure
    frag_of = (lambda x: (st.word_index(x),) * 2) if wrong else st.prefixes
    _seed(71)
    n, worst = 3000, 1.0
    for x, s in ((1, "01"), (2, "10")):
        reports = [client.privatise(s) for _ in range(n)]
        ef, ew = _marginals(st, x, frag_of)
        worst = min(worst, _fit(Counter(tuple(int(b) for b in r[0]) for r in reports), ef, n),
                    _fit(Counter(tuple(int(b) for b in r[1]) for r in reports), ew, n))
    assert (worst < 1e-6) if wrong else (worst > 1e-6)


def test_grr_library_sampler_fits_the_dense_channel():
    client = _th(fo.DEClient(1.0, 4), L=2)
    a = adapt(client)
    rows, outs = a.structure.dense()
    _seed(72)
    n = 4000
    for x, s in ((0, "00"), (3, "11")):
        got = Counter(f"{int(f)},{int(w)}" for f, w in (client.privatise(s) for _ in range(n)))
        assert _fit(got, {o: r[x] for r, o in zip(rows, outs, strict=True)}, n) > 1e-6


def test_verdicts_and_float_rounding():
    for inner in (fo.DEClient(1.0, 4), fo.UEClient(1.0, 4, use_oue=True)):
        a = adapt(_th(inner, 2.0, 1, 3))
        r = audit_adapted(a, 2.0)
        eps = float(r.eps_realised()[1])
        assert r.ratio_lower == r.ratio_upper
        assert audit_adapted(a, eps + 1e-9).verdict == PASS
        assert audit_adapted(a, eps - 1e-3).verdict == FAIL


def test_refusals():
    c = _th(fo.HEClient(1.0, 4))
    c.word_estimator = fo.DEClient(0.5, 4, index_mapper=c.index_mapper)
    with pytest.raises(InputError, match="histogram-encoding estimator with a .*DEClient.* one is not supported"):
        adapt(c)
    c = _th(fo.DEClient(1.0, 4), L=3)
    c.fragment_estimator = fo.FastLHClient(1.0, 8, 5, index_mapper=c.index_mapper)
    with pytest.raises(InputError, match="local-hashing fragment estimator with a .* word estimator"):
        adapt(c)
    c = _th(fo.DEClient(1.0, 4), L=3)
    c.word_estimator.d = 4
    with pytest.raises(InputError, match=r"word estimator DEClient has d = 4 but receives the index 7"):
        adapt(c)
