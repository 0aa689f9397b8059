"""SFP over pure-ldp's count-mean sketch (``CMSClient``, CMS and HCMS; issue 26): the client hashes str(data) itself
(its update_params ignores SFP's index_mapper), so the two parts are CMS on the fragment strings and on the words.
Checked against a brute-force channel built from the library's own hash functions and flip rule, the library's
sampler (chi-square at a fixed seed), and a wrong model (the fragment hashed without its word hash) rejected. RAPPOR
(``RAPPORClient``, a Bloom filter too): pure-ldp's update_params drops its hash family, so the heavy hitters' code
raises (refused, naming it); with the family set again, SFP over it is eps = inf (a set bit is never cleared), as the
brute-force channel says; TreeHist over RAPPOR refused with the reason. TreeHist over CMS / HCMS (RowPrefix; HCMS as
local hashing over (j, l)): against the brute-force channel and the library's sampler, a wrong model rejected."""

import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from rldp_verify.adapters import adapt, adapt_spec, audit_adapted, dense_mechanism
from rldp_verify.core.errors import InputError
from rldp_verify.rldp.audit import FAIL, PASS, audit
from rldp_verify.structured.channels import INF
from rldp_verify.structured.sketch import ReleasedProduct
from tests.adapters.test_adapters import _seed
from tests.adapters.test_pure_ldp_more import xxh64_str as xxh64_str  # noqa: F401  (the fixture)
from tests.adapters.test_sfp import _frag_arg, _strings

hh = pytest.importorskip("pure_ldp.heavy_hitters")
fo = pytest.importorskip("pure_ldp.frequency_oracles")


def _sfp_cms(eps=2.0, L=2, k=2, m=4, hadamard=False):
    from pure_ldp.core import generate_hash_funcs

    return hh.SFPClient(eps, 1, L, index_mapper=lambda s: s,
                        fo_client=fo.CMSClient(eps, generate_hash_funcs(k, m), m, is_hadamard=hadamard))


def _cms_law(c, data):
    """{(vector, j): Pr}: one-hot +1 at the library's hash_j(str(data)), -1 elsewhere, each entry flipped with
    probability prob (exact Bernoulli)."""
    e = Fraction(c.prob)
    law = {}
    for j, h in enumerate(c.hash_funcs):
        hot = h(str(data))
        for v in itertools.product((-1, 1), repeat=c.m):
            p = Fraction(1, len(c.hash_funcs))
            for i, b in enumerate(v):
                p *= (1 - e) if b == (1 if i == hot else -1) else e
            law[(v, j)] = p
    return law


def _hcms_law(c, data):
    """{(b * H[l, h_j], j, l): Pr}: j and l uniform, b = -1 with probability prob (exact)."""
    e, k = Fraction(c.prob), len(c.hash_funcs)
    law: dict = {}
    for j, h in enumerate(c.hash_funcs):
        col = h(str(data))
        for row in range(c.m):
            for v in (-1, 1):
                p = Fraction(1, k * c.m) * ((1 - e) if v == c.had[row, col] else e)
                law[(v, j, row)] = law.get((v, j, row), Fraction(0)) + p
    return law


def _brute(client, law):
    """max over x, x' and outputs (y_f, y_w, l) of Q[y|x] / Q[y|x'] (the parts on the raw strings, as CMS hashes)."""
    fc, wc = client.fragment_client, client.word_client
    words = _strings(client)
    best = Fraction(0)
    for pos in range(0, client.max_string_length, client.fragment_length):
        laws = [(law(fc, _frag_arg(client, w, pos)), law(wc, w)) for w in words]
        for yf in laws[0][0]:
            for yw in laws[0][1]:
                q = [lf[yf] * lw[yw] for lf, lw in laws]
                if max(q) > 0:
                    best = max(best, math.inf if min(q) == 0 else max(q) / min(q))
    return best


@pytest.mark.parametrize(("hadamard", "law"), [(False, _cms_law), (True, _hcms_law)], ids=["CMS", "HCMS"])
def test_exact_ratio_is_the_brute_force_channel(hadamard, law, xxh64_str):  # noqa: F811
    a = adapt(_sfp_cms(hadamard=hadamard), model="ideal")
    st = a.structure
    assert isinstance(st, ReleasedProduct)
    lo, hi, _ = st.ratio_bounds(30)
    assert lo == hi == _brute(_sfp_cms(hadamard=hadamard), law)
    assert audit(dense_mechanism(a), 1, ldp=True).ratio_upper == hi


def _flips(v, hot):
    return sum(1 for i, b in enumerate(v) if b != (1 if i == hot else -1))


def _fit(client, st, xs, n=3000):
    """(l, flips of the fragment vector, flips of the word vector; flips capped at 2) of the library's reports,
    the one-hot positions from the model's hash sets, against the model's binomial flip law."""
    from scipy.stats import binom, chisquare

    strings = _strings(client)
    R, m = len(st.positions), client.fragment_client.m
    pf, pw = float(st.frag.bit.prob(0, 1)), float(st.word.bit.prob(0, 1))     # Pr[an entry flips]
    cap = [lambda f, p=p: [binom.pmf(0, m, p), binom.pmf(1, m, p), 1 - binom.cdf(1, m, p)] for p in (pf, pw)]
    worst = 1.0
    for x in xs:
        obs: Counter = Counter()
        for _ in range(n):
            (vf, jf), (vw, jw), pos = client.privatise(strings[x])
            hf = next(iter(st.frag.sets(int(jf), st.frag_input(int(pos), x))))
            hw = next(iter(st.word.sets(int(jw), st.word_input(x))))
            obs[(int(pos), min(_flips(vf, hf), 2), min(_flips(vw, hw), 2))] += 1
        keys = [(pos, a, b) for pos in range(R) for a in range(3) for b in range(3)]
        exp = [n / R * cap[0](0)[a] * cap[1](0)[b] for _, a, b in keys]
        worst = min(worst, chisquare([obs.get(k, 0) for k in keys], exp).pvalue)
    return worst


@pytest.mark.parametrize("wrong", [False, True], ids=["model", "fragment without its word hash"])
def test_library_sampler_fits_the_model(wrong, xxh64_str):  # noqa: F811
    client = _sfp_cms(eps=4.0, L=2)
    st = adapt(client).structure
    if wrong:       # the fragment read as its substring alone: the model's inputs re-hashed without 'hash_'
        subs = {v: i for i, v in enumerate(dict.fromkeys(s[p] for s in _strings(client) for p in range(2)))}
        fc = client.fragment_client
        st = ReleasedProduct(st.d, st.positions, type(st.frag)(len(subs), st.frag.m, st.frag.cohorts, st.frag.bit,
                             lambda c, i: frozenset({fc.hash_funcs[c](str(list(subs)[i]))})),
                             st.word, lambda pos, x: subs[_strings(client)[x][pos]], st.word_input)
    _seed(91)
    np.random.seed(91)
    p = _fit(client, st, (1, 2))
    assert (p < 1e-6) if wrong else (p > 1e-6)


def test_verdicts_and_cli(capsys):
    for extra in ([], ["fo.is_hadamard=true"]):
        a = adapt_spec("pure-ldp:SFPClient", ["epsilon=1", "fragment_length=1", "max_string_length=3", "fo=CMSClient",
                                              "fo.m=8", "fo.num_hashes=3"] + extra)
        assert audit_adapted(a, 1.0001).verdict == PASS and audit_adapted(a, 0.999).verdict == FAIL
    from rldp_verify.cli import main

    argv = ["audit", "--adapter", "pure-ldp:SFPClient", "--param", "epsilon=1", "--param", "fragment_length=1",
            "--param", "max_string_length=3", "--param", "fo=CMSClient", "--param", "fo.m=8", "--param",
            "fo.num_hashes=3", "--ldp", "--eps", "1.0001"]
    assert main(argv) == 0 and "CMSClient (CMS)" in capsys.readouterr().out


def _rappor_sfp():
    from pure_ldp.core import generate_hash

    fam = [[generate_hash(4, c * 2 + i) for i in range(2)] for c in range(2)]
    r = fo.RAPPORClient(0.5, 4, fam, num_of_cohorts=2)
    r.sketch_based = False
    client = hh.SFPClient(2.0, 1, 2, fo_client=r)
    return client, fam


def _rappor_law(c, index):
    """{(bits, cohort): Pr}: the Bloom filter of str(index) under the cohort's hash functions (the library's), each
    set bit kept set (Pr 1: set when u < 1 - f/2, else left as it is), each clear bit set with Pr f/2."""
    law = {}
    for coh, funcs in enumerate(c.hash_family):
        hot = {f(str(index)) for f in funcs}
        for bits in itertools.product((0, 1), repeat=c.m):
            p = Fraction(1, len(c.hash_family))
            for i, b in enumerate(bits):
                one = Fraction(1) if i in hot else Fraction(c.f) / 2
                p *= one if b else 1 - one
            law[(bits, coh)] = p
    return law


def test_sfp_over_rappor(xxh64_str):  # noqa: F811
    from tests.adapters.test_sfp import _brute as sfp_brute

    client, fam = _rappor_sfp()
    with pytest.raises(InputError, match="word client RAPPORClient has hash_family = None"):
        adapt(client)
    client.word_client.hash_family = client.fragment_client.hash_family = fam
    res = audit_adapted(adapt(client, model="ideal"), 2.0)
    assert res.verdict == FAIL and res.ratio_lower == res.ratio_upper == INF
    assert sfp_brute(client, _rappor_law) == math.inf


def test_treehist_refusals():
    with pytest.raises(InputError, match="hash_family = None"):
        adapt_spec("pure-ldp:TreeHistClient", ["epsilon=1", "fragment_length=1", "max_string_length=3",
                                               "fo=RAPPORClient", "fo.f=0.5", "fo.m=8", "fo.num_hashes=2"])
    c = _th_cms()
    c.word_estimator = fo.DEClient(1.0, 4, index_mapper=c.index_mapper)
    with pytest.raises(InputError, match="a CMSClient estimator with a DEClient one"):
        adapt(c)
    c = hh.TreeHistClient(1.0, 1, 2, fo_client=fo.RAPPORClient(0.5, 4, [[lambda s: 0]], num_of_cohorts=1))
    c.word_estimator.hash_family = c.fragment_estimator.hash_family = [[lambda s: 0]]
    with pytest.raises(InputError, match="every pair of words has the same Bloom filter in every cohort"):
        adapt(c)


def _th_cms(eps=2.0, L=2, k=2, m=4, hadamard=False):
    from pure_ldp.core import generate_hash_funcs

    return hh.TreeHistClient(eps, 1, L, fo_client=fo.CMSClient(eps, generate_hash_funcs(k, m), m, is_hadamard=hadamard))


def _th_strings(client):
    """(word string, prefix strings) of each input, from the library's own prefix map (np.random.randint answered r);
    CMS hashes these strings itself."""
    import pure_ldp.heavy_hitters.treehistogram.treehist_client as mod

    out, saved = [], mod.np
    try:
        for w in _strings(client):
            pre = []
            for r in range(client.max_string_length // client.fragment_length):
                mod.np = type("np", (), {"random": type("r", (), {"randint": staticmethod(lambda a, b, r=r: r)})})
                pre.append(client._choose_random_n_gram_prefix(w, client.fragment_length))
            out.append((w, pre))
    finally:
        mod.np = saved
    return out


def _th_channel(client, law):
    """{output: [Q[y|x] for x]} of TreeHist: law_w(word) times the uniform mixture of law_f over the prefixes."""
    fe, we = client.fragment_estimator, client.word_estimator
    cols = []
    for w, pre in _th_strings(client):
        lw = law(we, w)
        lfs = [law(fe, p) for p in pre]
        cols.append({(yf, yw): sum(lf[yf] for lf in lfs) / len(lfs) * lw[yw] for yf in lfs[0] for yw in lw})
    return {y: [c[y] for c in cols] for y in cols[0]}


def _max_ratio(channel):
    best = Fraction(0)
    for q in channel.values():
        if max(q) > 0:
            best = max(best, math.inf if min(q) == 0 else max(q) / min(q))
    return best


@pytest.mark.parametrize(("hadamard", "law"), [(False, _cms_law), (True, _hcms_law)], ids=["CMS", "HCMS"])
def test_treehist_cms_is_the_brute_force_channel(hadamard, law, xxh64_str):  # noqa: F811
    a = adapt(_th_cms(hadamard=hadamard), model="ideal")
    lo, hi, _ = a.structure.ratio_bounds(30)
    assert lo == hi == _max_ratio(_th_channel(_th_cms(hadamard=hadamard), law))


def _label(out):
    (vf, jf), (vw, jw) = out
    bits = ["".join("1" if e == 1 else "0" for e in v) for v in (vf, vw)]
    return f"{bits[0]},{bits[1]}@{int(jf)},{int(jw)}"


@pytest.mark.parametrize("wrong", [False, True], ids=["model", "fragment read as the word"])
def test_treehist_cms_library_sampler(wrong, xxh64_str):  # noqa: F811
    """The library's outputs against the model's dense channel (chi-square, p > 1e-6); the model with every prefix
    replaced by the word itself is rejected."""
    from scipy.stats import chisquare

    from rldp_verify.structured.treehist import RowPrefix

    client = _th_cms(eps=3.0, m=2)
    st = adapt(client).structure
    assert isinstance(st, RowPrefix)
    if wrong:
        words = {w: i for i, (w, _) in enumerate(_th_strings(client))}
        frag_values = st.frag.sets.values                # the fragment part's strings: re-point the prefixes at the word
        st = RowPrefix(st.d, st.word, st.frag, st.word_index,
                       lambda x: tuple(frag_values.index(w) if w in frag_values else 0 for w in [list(words)[x]] * 2))
    rows, outs = st.dense()
    col = {o: i for i, o in enumerate(outs)}
    strings = _strings(client)
    _seed(97)
    np.random.seed(97)
    worst = 1.0
    for x in (1, 2):
        obs = Counter(col[_label(client.privatise(strings[x]))] for _ in range(4000))
        keys = [i for i in range(len(outs)) if rows[i][x] > 0]
        worst = min(worst, chisquare([obs.get(i, 0) for i in keys], [float(rows[i][x]) * 4000 for i in keys]).pvalue)
    assert (worst < 1e-6) if wrong else (worst > 1e-6)


def test_treehist_over_repaired_rappor_is_infinite(xxh64_str):  # noqa: F811
    """With its hash family set again, TreeHist over pure-ldp's RAPPOR is eps = inf (a set word bit is never
    cleared), as the brute-force channel from the library's hash functions says, with Q[y | x'] = 0 < Q[y | x] at
    the witness; a filter that clears set bits (not pure-ldp's code) is refused, not certified."""
    from pure_ldp.core import generate_hash

    from rldp_verify.adapters.pure_ldp_treehist import _rappor as th_rappor
    from rldp_verify.structured import Adapted, BitChannel
    from rldp_verify.structured.composite import BloomProduct
    from tests.adapters.test_treehist_oracles import _brute as th_brute
    from tests.adapters.test_treehist_oracles import _indices

    fam = [[generate_hash(4, c * 2 + i) for i in range(2)] for c in range(2)]
    client = hh.TreeHistClient(2.0, 1, 2, fo_client=fo.RAPPORClient(0.5, 4, fam, num_of_cohorts=2))
    client.word_estimator.hash_family = client.fragment_estimator.hash_family = fam
    res = audit_adapted(adapt(client), 2.0)
    assert res.verdict == FAIL and res.ratio_lower == res.ratio_upper == INF
    fe, we = client.fragment_estimator, client.word_estimator
    laws: dict = {}

    def law(est):
        def f(y, u):
            if (id(est), u) not in laws:
                laws[(id(est), u)] = _rappor_law(est, u)
            return laws[(id(est), u)][y]
        return f
    outs = list(_rappor_law(fe, 0))
    assert th_brute(client, law(fe), law(we), outs, outs) == math.inf
    x, xp = int(res.structured_witness["x"]), int(res.structured_witness["x_prime"])
    wi, _ = _indices(client)
    filters = [{f(str(wi[z])) for f in fam[c]} for z in (x, xp) for c in range(2)]
    assert filters[2] - filters[0] or filters[3] - filters[1]          # x' has a set bit that x's filter lacks
    bloom = BloomProduct(4, 4, 2, BitChannel(Fraction(9, 10), Fraction(1, 4)), lambda c, u: frozenset({u}))
    part = Adapted(bloom, "RAPPOR", "ideal", {}, None)
    with pytest.raises(InputError, match="has no exact form here"):
        th_rappor(4, part, part, [0, 1, 2, 3], [(0, 0)] * 4, "TreeHist", "name")
