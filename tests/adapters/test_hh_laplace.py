"""TreeHist and SFP over histogram encoding (pure-ldp ``HEClient``, ideal continuous Laplace noise):
eps = 2/b_fragment + 2/b_word exactly (structured.sketch.LaplaceReports). Checked against the exact densities of the
two reports over every pair of inputs at sampled outputs (never above e^eps, reaching it on the witness event), the
witness event's probabilities in closed form, the library's own sampler (the noise scales by a KS test, the event's
frequency by a binomial test), wrong models (the inner eps not halved; the word report left out) rejected, and the
refusal when no witness pair exists."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from rldp_verify.adapters import adapt, adapt_spec, audit_adapted, dense_mechanism
from rldp_verify.core.errors import InputError
from rldp_verify.rldp.audit import FAIL, PASS
from rldp_verify.structured.sketch import LaplaceReports
from tests.adapters.test_adapters import _seed
from tests.adapters.test_pure_ldp_more import xxh64_str as xxh64_str  # noqa: F401  (the fixture)

hh = pytest.importorskip("pure_ldp.heavy_hitters")
fo = pytest.importorskip("pure_ldp.frequency_oracles")
stats = pytest.importorskip("scipy.stats")


def _th(eps, L=2):
    return hh.TreeHistClient(eps, 1, L, fo_client=fo.HEClient(eps, 2**L))


def _sfp(eps, L=2):
    he = fo.HEClient(eps, 2**L)
    he.sketch_based = False
    return hh.SFPClient(eps, 1, L, fo_client=he)


def _strings(c):
    return ["".join(t) for t in itertools.product(c.alphabet, repeat=c.max_string_length)]


def _th_indices(client):
    """(word index, prefix indices) of each input, from the library's own prefix map (np.random.randint answered r)
    and the estimators' index_mapper."""
    import pure_ldp.heavy_hitters.treehistogram.treehist_client as mod

    fe, we, out = client.fragment_estimator, client.word_estimator, []
    R = client.max_string_length // client.fragment_length
    saved = mod.np
    try:
        for w in _strings(client):
            pre = []
            for r in range(R):
                mod.np = type("np", (), {"random": type("r", (), {"randint": staticmethod(lambda a, b, r=r: r)})})
                pre.append(fe.index_mapper(client._choose_random_n_gram_prefix(w, client.fragment_length)))
            out.append((we.index_mapper(w), tuple(pre)))
    finally:
        mod.np = saved
    return out


def _log_density(y, u, b):
    """log of the Laplace(b) density of y - e_u (numpy, float64)."""
    z = np.array(y, dtype=float)
    z[u] -= 1.0
    return float(np.sum(-np.abs(z) / b - math.log(2 * b)))


def _th_log_q(yf, yw, idx, bf, bw):
    w, pre = idx
    comps = [_log_density(yf, u, bf) for u in pre]
    top = max(comps)
    return top + math.log(sum(math.exp(c - top) for c in comps) / len(comps)) + _log_density(yw, w, bw)


@pytest.mark.parametrize("eps", [0.5, 2.0])
def test_treehist_eps_is_exact(eps):
    client = _th(eps)
    a = adapt(client)
    bf, bw = 2 / client.fragment_estimator.epsilon, 2 / client.word_estimator.epsilon
    assert a.structure.eps() == 2 / Fraction(bf) + 2 / Fraction(bw)
    assert audit_adapted(a, eps).verdict == PASS                # 2/b = eps/2 each, exactly at these eps
    assert audit_adapted(a, eps * (1 - 1e-9)).verdict == FAIL
    with pytest.raises(InputError, match="no dense channel"):
        dense_mechanism(a)


def test_density_ratio_over_every_pair_never_exceeds_and_reaches_e_eps():
    """Brute force over the 4 x 4 input pairs at outputs drawn from the library at every input: the exact density
    ratio (mixture over the prefixes times the word report) is at most e^eps, and equals it at the witness pair on
    the witness event (y_f >= 1 on U(x), <= 0 on U(x'), y_w likewise)."""
    client = _th(1.0)
    st = adapt(client).structure
    bf, bw = 2 / client.fragment_estimator.epsilon, 2 / client.word_estimator.epsilon
    idx = _th_indices(client)
    e = float(st.eps())
    _seed(5)
    ys = [client.privatise(s) for s in _strings(client) for _ in range(400)]
    worst = max(_th_log_q(yf, yw, idx[x], bf, bw) - _th_log_q(yf, yw, idx[xp], bf, bw)
                for yf, yw in ys for x in range(4) for xp in range(4) if x != xp)
    assert worst <= e + 1e-12
    wit = st.witness()
    x, xp = wit["x"], wit["x_prime"]
    ux, uxp = set(idx[x][1]), set(idx[xp][1])
    inside = [(yf, yw) for yf, yw in ys if all(yf[i] >= 1 for i in ux) and all(yf[i] <= 0 for i in uxp)
              and yw[idx[x][0]] >= 1 and yw[idx[xp][0]] <= 0]
    assert inside
    for yf, yw in inside:
        assert abs(_th_log_q(yf, yw, idx[x], bf, bw) - _th_log_q(yf, yw, idx[xp], bf, bw) - e) < 1e-12
    assert e > 2 / bf + 1e-9            # a model without the word report (eps = 2/b_F) is below what the event shows


def _event_prob(pre, ux, uxp, w, wx, wxp, qf, qw):
    """Pr[A | input] in closed form: Laplace coordinates are independent; Pr[y >= 1] = 1/2 at mean 1, q/2 at mean 0;
    Pr[y <= 0] = 1/2 at mean 0, q/2 at mean 1 (q = e^(-1/b)); the fragment a uniform mixture over the prefixes."""
    def one(u, q, up, down):
        p = Fraction(1)
        for i in up:
            p *= Fraction(1, 2) if i == u else q / 2
        for i in down:
            p *= q / 2 if i == u else Fraction(1, 2)
        return p
    frag = sum(one(u, qf, ux, uxp) for u in pre) / len(pre)
    return frag * one(w, qw, [wx], [wxp])


def test_witness_event_in_closed_form_and_the_library_sampler():
    client = _th(1.0)
    st = adapt(client).structure
    bf, bw = 2 / client.fragment_estimator.epsilon, 2 / client.word_estimator.epsilon
    idx = _th_indices(client)
    x, xp = st.witness()["x"], st.witness()["x_prime"]
    ux, uxp = sorted(set(idx[x][1])), sorted(set(idx[xp][1]))
    qf, qw = Fraction(math.exp(-1 / bf)), Fraction(math.exp(-1 / bw))
    px, pxp = (_event_prob(idx[z][1], ux, uxp, idx[z][0], idx[x][0], idx[xp][0], qf, qw) for z in (x, xp))
    assert abs(math.log(px / pxp) - float(st.eps())) < 1e-12
    _seed(11)
    n, s = 20000, _strings(client)[x]
    hits = 0
    noise_w, noise_f = [], []
    for _ in range(n):
        yf, yw = client.privatise(s)
        hits += all(yf[i] >= 1 for i in ux) and all(yf[i] <= 0 for i in uxp) and yw[idx[x][0]] >= 1 \
            and yw[idx[xp][0]] <= 0
        z = np.array(yw)
        z[idx[x][0]] -= 1
        noise_w.extend(z)
        noise_f.extend(yf[i] for i in range(len(yf)) if i not in set(idx[x][1]))
    mean = float(px) * n
    assert abs(hits - mean) < 5 * math.sqrt(mean * (1 - float(px)))
    assert stats.kstest(noise_w, "laplace", args=(0, bw)).pvalue > 1e-4
    assert stats.kstest(noise_f, "laplace", args=(0, bf)).pvalue > 1e-4
    wrong = 2 / client.epsilon                                  # the inner eps not halved
    assert stats.kstest(noise_w, "laplace", args=(0, wrong)).pvalue < 1e-6


@pytest.mark.parametrize("eps", [0.5, 3.0])
def test_sfp_eps_is_exact(eps):
    client = _sfp(eps)
    a = adapt(client)
    fc, wc = client.fragment_client, client.word_client
    assert a.structure.eps() == 2 / Fraction(2 / fc.epsilon) + 2 / Fraction(2 / wc.epsilon)
    excess = a.structure.eps() - Fraction(eps)
    assert (excess == 0) == (eps == 0.5)             # at 3: b = 2 / 1.5 rounds down, so 2/b exceeds 1.5
    res = audit_adapted(a, eps)
    assert res.verdict == (PASS if excess == 0 else FAIL) and 0 <= excess < Fraction(1, 10**15)
    if excess:
        assert "float64 rounding" in res.notes[0] and audit_adapted(a, eps, tolerance="1e-15").verdict == PASS
    assert audit_adapted(a, eps * (1 - 1e-9)).verdict == FAIL


def test_sfp_library_sampler_scales(xxh64_str):  # noqa: F811
    """The noise of the library's two reports (the one-hot at the modelled indices removed) is Laplace(2 / (eps/2))."""
    client = _sfp(1.0)
    st = adapt(client).structure
    _seed(13)
    noise = []
    for _ in range(800):
        yf, yw, pos = client.privatise("01")
        z = np.array(yw)
        z[st.word_index(1)] -= 1
        f = np.array(yf)
        f[st.pieces(1)[pos // client.fragment_length][0]] -= 1
        noise.extend(z)
        noise.extend(f)
    assert stats.kstest(noise, "laplace", args=(0, 2 / client.word_client.epsilon)).pvalue > 1e-4
    assert stats.kstest(noise, "laplace", args=(0, 2 / client.epsilon)).pvalue < 1e-6


def test_no_witness_pair_is_refused():
    with pytest.raises(InputError, match="no inputs x = 0, x' with disjoint fragment indices"):
        LaplaceReports(3, 1.0, frag_scale=1.0, word_scale=1.0, pieces=lambda x: [(0,)], word_index=lambda x: x)
    with pytest.raises(InputError, match="distinct word indices"):
        LaplaceReports(3, 1.0, frag_scale=1.0, word_scale=1.0, pieces=lambda x: [(x,)], word_index=lambda x: 0)


def test_cli(capsys):
    from rldp_verify.cli import main

    for cls in ("TreeHistClient", "SFPClient"):
        argv = ["audit", "--adapter", f"pure-ldp:{cls}", "--param", "epsilon=1", "--param", "fragment_length=1",
                "--param", "max_string_length=4", "--param", "fo=HEClient", "--ldp", "--eps"]
        assert main(argv + ["1"]) == 0
        assert main(argv + ["0.999"]) == 1
        assert "2/b_fragment + 2/b_word" in capsys.readouterr().out
    a = adapt_spec("pure-ldp:SFPClient", ["epsilon=1", "fragment_length=2", "max_string_length=8", "fo=HEClient"])
    assert a.structure.eps() == 1


def test_histogram_encoding_with_another_client_is_refused():
    c = _sfp(1.0)
    de = fo.DEClient(0.5, 1024, index_mapper=c.fragment_client.index_mapper)
    c.fragment_client = de
    with pytest.raises(InputError, match="fragment client DEClient and word client HEClient differ"):
        adapt(c)
