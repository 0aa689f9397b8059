"""pure-ldp's TreeHist heavy hitter as a certified interval: the interval against a brute-force dense channel built
from the library's own prefix and index maps, the model against the library's own sampler at a fixed seed
(chi-square), wrong models (the fragment read as the whole word; the two reports as one oracle) rejected, the
INCONCLUSIVE verdict of an open interval, and the refusals (one line)."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from rldp_verify.adapters import _lh_hash, adapt, audit_adapted, dense_mechanism
from rldp_verify.core.errors import InputError
from rldp_verify.rldp.audit import FAIL, INCONCLUSIVE, PASS, audit
from rldp_verify.structured.treehist import PrefixMixture
from tests.adapters.test_adapters import _seed
from tests.adapters.test_adapters import xxhash3 as xxhash3  # noqa: F401  (the fixture)

hh = pytest.importorskip("pure_ldp.heavy_hitters")

CASES = [(1.0, 1, 3), (1.0, 2, 4), (2.0, 1, 3), (0.5, 1, 2)]


def _brute(client, fs, ws):
    """max over x, x' and outputs (y_f, s_f, y_w, s_w), seeds uniform on fs x ws, of Q[y|x] / Q[y|x'], with Q
    built from the library's own _choose_random_n_gram_prefix (np.random.randint answered r) and index_mapper."""
    import pure_ldp.heavy_hitters.treehistogram.treehist_client as mod

    L, N = client.max_string_length, client.fragment_length
    R = L // N
    words = ["".join(t) for t in itertools.product(client.alphabet, repeat=L)]
    fe, we = client.fragment_estimator, client.word_estimator
    kf, kw = fe.p - fe.q, we.p - we.q
    af, bf = Fraction(kf) + (1 - Fraction(kf)) / fe.g, (1 - Fraction(kf)) / fe.g      # exact Bernoulli(p - q)
    aw, bw = Fraction(kw) + (1 - Fraction(kw)) / we.g, (1 - Fraction(kw)) / we.g
    saved = mod.np
    pre = []
    try:
        for w in words:
            row = []
            for r in range(R):
                mod.np = type("np", (), {"random": type("r", (), {"randint": staticmethod(lambda a, b, r=r: r)})})
                row.append(int(fe.index_mapper(client._choose_random_n_gram_prefix(w, N))))
            pre.append(row)
    finally:
        mod.np = saved
    wi = [int(we.index_mapper(w)) for w in words]
    best = Fraction(0)
    for sf, sw in itertools.product(fs, ws):
        for yf, yw in itertools.product(range(fe.g), range(we.g)):
            q = [sum(af if _lh_hash(u, sf, fe.g) == yf else bf for u in pre[x]) / R
                 * (aw if _lh_hash(wi[x], sw, we.g) == yw else bw) for x in range(len(words))]
            best = max(best, max(q) / min(q))
    return best


@pytest.mark.parametrize("args", CASES, ids=[str(c) for c in CASES])
def test_interval_contains_the_brute_force_channel(args):
    a = adapt(hh.TreeHistClient(*args), model="ideal")
    st = a.structure
    assert isinstance(st, PrefixMixture)
    lo, hi, wit = st.ratio_bounds(30)
    assert lo <= hi
    fs, ws = sorted({wit["frag_seed"], 11}), sorted({wit["word_seed"] or 0, 12})
    dense = _brute(hh.TreeHistClient(*args), fs, ws)
    assert lo <= dense <= hi                  # the restricted channel lies inside the interval ...
    assert dense == lo == hi                  # ... and reaches it: the witness's seeds are in the lists
    # the structure's own dense form agrees with the brute force, and with the certified dense audit
    rows, _ = st.dense(fs, ws)
    assert max(max(r) / min(r) for r in rows) == dense
    assert audit(dense_mechanism(a), 1, ldp=True).ratio_upper <= hi


def test_verdicts_and_float_rounding():
    """At its claimed eps the code's channel exceeds e^eps by float rounding only (explained); at eps + 1e-9 it
    passes; at eps - 1e-3 it fails beyond rounding."""
    for eps in (1.0, 2.0):
        a = adapt(hh.TreeHistClient(eps, 1, 3))
        r = audit_adapted(a, eps)
        assert r.ratio_lower == r.ratio_upper
        if r.verdict == FAIL:
            assert "float64 rounding" in r.notes[0] or "float sampler" in r.notes[0]
        assert audit_adapted(a, eps + 1e-9).verdict == PASS
        bad = audit_adapted(a, eps - 1e-3)
        assert bad.verdict == FAIL and "not float64 rounding" in bad.notes[0]
        assert math.isclose(float(r.ratio_upper), math.exp(eps), rel_tol=1e-12)


def test_open_interval_is_inconclusive():
    """No fragment seed searched: the lower end is the word factor alone, e^eps lies inside: INCONCLUSIVE."""
    a = adapt(hh.TreeHistClient(1.0, 1, 3), model="ideal")
    st = a.structure
    a.structure = PrefixMixture(st.d, st.word, st.frag, st.word_index, st.prefixes, frag_seeds=[])
    lo, hi, _ = a.structure.ratio_bounds(30)
    assert lo < hi
    r = audit_adapted(a, 1.0 - 1e-6)
    assert r.verdict == INCONCLUSIVE and "certified interval" in r.notes[0]
    with pytest.raises(InputError, match="only enclosed"):
        a.structure.ratio()


def test_two_reports_are_not_one_oracle():
    """The wrong model 'one eps/2 oracle' (upper end rho_fragment alone) is refuted by the brute-force channel."""
    client = hh.TreeHistClient(1.0, 1, 3)
    st = adapt(client, model="ideal").structure
    _, hi, wit = st.ratio_bounds(30)
    one = max(st.frag.a / st.frag.b, st.frag.b / st.frag.a)
    assert _brute(client, [wit["frag_seed"]], [wit["word_seed"]]) > one
    assert hi == one * max(st.word.a / st.word.b, st.word.b / st.word.a)


def _counts(client, x, n, R, st, frag_of):
    """Observed and expected counts of (word hit, number k of the R fragment images hit) over n reports; the
    expected law given the released seeds is the model's (frag_of(x): the fragment images the model assumes)."""
    g_f, g_w = st.frag.g, st.word.g
    obs, exp = np.zeros((2, R + 1)), np.zeros((2, R + 1))
    word = ("{:0" + str(client.max_string_length) + "b}").format(x)
    wi, pre = st.word_index(x), frag_of(x)
    for _ in range(n):
        (yf, sf), (yw, sw) = client.privatise(word)
        hits = [_lh_hash(u, int(sf), g_f) for u in pre]
        obs[int(int(yw) == _lh_hash(wi, int(sw), g_w)), hits.count(int(yf))] += 1
        pk = np.zeros(R + 1)
        for y in range(g_f):
            k = hits.count(y)
            pk[k] += float((k * st.frag.a + (len(pre) - k) * st.frag.b) / len(pre))
        exp[1] += float(st.word.a) * pk
        exp[0] += float((g_w - 1) * st.word.b) * pk
    return obs, exp


def _fit(obs, exp):
    from scipy.stats import chisquare

    keep = exp.ravel() > 0
    assert obs.ravel()[~keep].sum() == 0
    return chisquare(obs.ravel()[keep], exp.ravel()[keep]).pvalue


def test_library_sampler_fits_the_model(xxhash3):  # noqa: F811
    client = hh.TreeHistClient(1.0, 1, 3)
    st = adapt(client).structure
    _seed(46)
    for x in (5, 6):                              # "101", "110": three distinct prefix indices
        obs, exp = _counts(client, x, 3000, 3, st, st.prefixes)
        assert _fit(obs, exp) > 1e-6


def test_wrong_fragment_model_is_rejected(xxhash3):  # noqa: F811
    """The fragment read as the whole word (every r encodes x, as if one oracle) fails the same fit."""
    client = hh.TreeHistClient(1.0, 1, 3)
    st = adapt(client).structure
    _seed(47)
    obs, exp = _counts(client, 5, 3000, 3, st, lambda x: (st.word_index(x),) * 3)
    assert _fit(obs, exp) < 1e-6


def test_refusals():
    import pure_ldp.frequency_oracles as fo
    from pure_ldp.core import generate_hash_funcs

    with pytest.raises(InputError, match=r"SFPClient: the fragment client.s index_mapper\(.*\) raised"):
        adapt(hh.SFPClient(1.0, 2, 4, fo_client=fo.SketchResponseClient(1.0, 8, generate_hash_funcs(2, 8))))
    c = hh.TreeHistClient(1.0, 1, 3)

    c.fragment_estimator = fo.HEClient(0.5, 8, index_mapper=c.index_mapper)
    with pytest.raises(InputError, match="histogram-encoding estimator with a .*LHClient.* one is not supported"):
        adapt(c)
    with pytest.raises(InputError, match="carries its own parameters"):
        adapt(hh.TreeHistClient(1.0, 1, 3), d=8)
    with pytest.raises(InputError, match="not a multiple of fragment_length"):
        adapt(hh.TreeHistClient(1.0, 2, 3))


def test_cli(capsys):
    from rldp_verify.cli import main

    argv = ["audit", "--adapter", "pure-ldp:TreeHistClient", "--param", "epsilon=1", "--param", "fragment_length=1",
            "--param", "max_string_length=4", "--ldp", "--eps"]
    assert main(argv + ["1.0000001"]) == 0
    assert main(argv + ["0.999"]) == 1
    out = capsys.readouterr().out
    assert "TreeHistClient" in out and "rho_word * rho_fragment" in out
