"""pure-ldp's SFP heavy hitter (SFPClient) as an exact structure: the ratio against a brute-force dense channel
built from the library's own hash functions and index maps, the model against the library's own sampler at a fixed
seed (chi-square), wrong models (the fragment read without its word hash; the two reports as one oracle) rejected,
verdicts with float rounding explained, and the refusals (one line)."""

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest

from rldp_verify.adapters import _lh_hash, adapt, audit_adapted, dense_mechanism
from rldp_verify.core.errors import InputError
from rldp_verify.rldp.audit import FAIL, PASS, audit
from rldp_verify.structured.sketch import ReleasedProduct
from tests.adapters.test_adapters import _seed
from tests.adapters.test_adapters import xxhash3 as xxhash3  # noqa: F401  (the fixture)
from tests.adapters.test_pure_ldp_more import xxh64_str as xxh64_str  # noqa: F401  (the fixture)

hh = pytest.importorskip("pure_ldp.heavy_hitters")
fo = pytest.importorskip("pure_ldp.frequency_oracles")


def _funcs(k, m):
    from pure_ldp.core import generate_hash_funcs

    return generate_hash_funcs(k, m)


def _sr_sfp(eps=2.0, N=1, L=3, k=2, m=4, lh_k=3):
    """SFP over a sketch response (FastLH inside); the index_mapper keeps the strings (the sketch hashes them)."""
    return hh.SFPClient(eps, N, L, index_mapper=lambda s: s,
                        fo_client=fo.SketchResponseClient(1.0, m, _funcs(k, m), lh_k=lh_k))


def _de_sfp(eps=2.0, N=1, L=2):
    """SFP over GRR: a client marked not sketch-based, so the fragment index is hash * (index(substring) + 1)."""
    de = fo.DEClient(1.0, 4)
    de.sketch_based = False
    return hh.SFPClient(eps, N, L, fo_client=de)


def _strings(client):
    return ["".join(t) for t in itertools.product(client.alphabet, repeat=client.max_string_length)]


def _frag_arg(client, w, pos):
    """The fragment string of the library's _create_fragment at position pos, with xxhash < 4's hash."""
    import xxhash

    h = xxhash.xxh64(w.encode(), seed=10).intdigest() % 256
    return f"{h}_{w[pos:pos + client.fragment_length]}"


def _sr_law(c, index):
    """{((y, s), j): Pr} of the library's sketch response on an index: j = randint(0, k - 1), FastLH seed
    randint(0, lh_k - 1), bucket xxh32(str(hash_j(index)), seed) % g kept with Pr p - q (exact Bernoulli)."""
    inner = c.client
    keep = Fraction(inner.p - inner.q)
    law = {}
    for j, s in itertools.product(range(c.k), range(inner.k)):
        h = _lh_hash(c.hash_funcs[j](index), s, inner.g)
        for y in range(inner.g):
            law[((y, s), j)] = (keep * (y == h) + (1 - keep) / inner.g) / (c.k * inner.k)
    return law


def _de_law(c, index):
    a = Fraction(c.p)
    return {y: a if y == index else (1 - a) / (c.d - 1) for y in range(c.d)}


def _brute(client, law, frag_arg=_frag_arg):
    """max over x, x' and outputs (y_f, y_w, l) of Q[y|x] / Q[y|x'] (l uniform on the positions)."""
    fc, wc = client.fragment_client, client.word_client
    words = _strings(client)
    positions = range(0, client.max_string_length, client.fragment_length)
    best = Fraction(0)
    for pos in positions:
        laws = [(law(fc, fc.index_mapper(frag_arg(client, w, pos))), law(wc, wc.index_mapper(w))) for w in words]
        for yf in laws[0][0]:
            for yw in laws[0][1]:
                q = [lf[yf] * lw[yw] for lf, lw in laws]
                if max(q) > 0:
                    best = max(best, math.inf if min(q) == 0 else max(q) / min(q))
    return best


@pytest.mark.parametrize("make, law", [(_sr_sfp, _sr_law), (lambda: _sr_sfp(1.0, 2, 4, 2, 3, 2), _sr_law),
                                       (_de_sfp, _de_law)], ids=["SR over FastLH", "SR N = 2", "GRR"])
def test_exact_ratio_is_the_brute_force_channel(make, law, xxh64_str):  # noqa: F811
    a = adapt(make(), model="ideal")
    st = a.structure
    assert isinstance(st, ReleasedProduct)
    lo, hi, wit = st.ratio_bounds(30)
    assert lo == hi == st.ratio() == _brute(make(), law)
    assert wit["l"] in st.positions
    r = audit(dense_mechanism(a), 1, ldp=True)             # the structure's own dense form, certified
    assert r.ratio_lower == r.ratio_upper == hi


def test_two_reports_are_not_one_oracle(xxh64_str):  # noqa: F811
    """The wrong model 'one eps/2 oracle' (the fragment part alone) is below the brute-force channel; the exact
    ratio is the product of the two parts' ratios, e^eps for eps/2 each."""
    client = _sr_sfp()
    st = adapt(client, model="ideal").structure
    one = st.frag.ratio()
    assert _brute(_sr_sfp(), _sr_law) > one
    assert st.ratio() == one * st.word.ratio()
    assert math.isclose(float(st.ratio()), math.exp(2.0), rel_tol=1e-12)


def test_wrong_fragment_inputs_are_refuted(xxh64_str):  # noqa: F811
    """Wrong variants of the structure disagree with the brute-force channel: the fragment read as one constant
    input (the lower end falls to the word ratio, the interval opens) and the fragment at a fixed position."""
    exact = _brute(_sr_sfp(), _sr_law)
    st = adapt(_sr_sfp(), model="ideal").structure
    const = ReleasedProduct(st.d, st.positions, st.frag, st.word, lambda pos, x: 0, st.word_input)
    lo, hi, _ = const.ratio_bounds(30)
    assert lo == st.word.ratio() < exact == hi
    with pytest.raises(InputError, match="only enclosed"):
        const.ratio()


def _feature(st, x, out):
    """(l, fragment bucket = the model's bucket, word bucket = the model's bucket) of a library output."""
    ((yf, sf), jf), ((yw, sw), jw), pos = out
    hf = st.frag.hash_fn(st.frag_input(int(pos), x), (int(jf), int(sf)))
    hw = st.word.hash_fn(st.word_input(x), (int(jw), int(sw)))
    return int(pos), int(yf) == hf, int(yw) == hw


def _expected(st, x, n):
    R = len(st.positions)
    pf, pw = st.frag.a, st.word.a
    return {(pos, bf, bw): float(Fraction(n, R) * (pf if bf else 1 - pf) * (pw if bw else 1 - pw))
            for pos in st.positions for bf in (True, False) for bw in (True, False)}


def _fit(client, st, xs, n=1500):
    from scipy.stats import chisquare

    strings = _strings(client)
    worst = 1.0
    for x in xs:
        obs = Counter(_feature(st, x, client.privatise(strings[x])) for _ in range(n))
        exp = _expected(st, x, n)
        assert set(obs) <= set(exp)
        keys = sorted(exp)
        worst = min(worst, chisquare([obs.get(k, 0) for k in keys], [exp[k] for k in keys]).pvalue)
    return worst


def test_library_sampler_fits_the_model(xxhash3, xxh64_str):  # noqa: F811
    client = _sr_sfp()
    st = adapt(client).structure
    _seed(61)
    assert _fit(client, st, (3, 6)) > 1e-6


def test_wrong_image_is_rejected_by_the_sampler(xxhash3, xxh64_str):  # noqa: F811
    """The model with the fragment read at the wrong position (l + 1 mod R) fails the same fit."""
    client = _sr_sfp()
    st = adapt(client).structure
    R = len(st.positions)
    wrong = ReleasedProduct(st.d, st.positions, st.frag, st.word,
                            lambda pos, x: st.frag_input(st.positions[(st.positions.index(pos) + 1) % R], x),
                            st.word_input)
    _seed(62)
    assert _fit(client, wrong, (3, 6)) < 1e-6


def test_verdicts_and_float_rounding():
    for eps in (1.0, 2.0):
        a = adapt(_sr_sfp(eps))
        r = audit_adapted(a, eps)
        assert r.ratio_lower == r.ratio_upper
        assert math.isclose(float(r.ratio_upper), math.exp(eps), rel_tol=1e-12)
        if r.verdict == FAIL:
            assert "float64 rounding" in r.notes[0] or "float sampler" in r.notes[0]
        assert audit_adapted(a, eps + 1e-9).verdict == PASS
        bad = audit_adapted(a, eps - 1e-3)
        assert bad.verdict == FAIL and "not float64 rounding" in bad.notes[0]


def test_refusals():
    with pytest.raises(InputError, match=r"index_mapper\('.*_.*'\) raised ValueError") as e:
        adapt(hh.SFPClient(1.0, 2, 4, fo_client=fo.SketchResponseClient(1.0, 8, _funcs(2, 8))))
    assert len(str(e.value).splitlines()) == 1
    with pytest.raises(InputError, match="carries its own parameters"):
        adapt(_sr_sfp(), d=8)
    ue = fo.UEClient(1.0, 4)
    ue.sketch_based = False
    c = hh.SFPClient(1.0, 1, 2, fo_client=ue)
    c.fragment_client.d = 100                    # an index outside the client's own domain
    with pytest.raises(InputError, match="is not an integer in 0..99"):
        adapt(c)
