"""OpenDP's noisy top k with exponential noise (``make_noisy_top_k``, MaxDivergence) at k > 1 (issue 26): OpenDP 0.16
peels -- k rounds of permute-and-flip with fresh randomness, each on the scores left -- so the ordered top k has the
law prod_m PF(i_m | the scores left) (rldp_verify.structured.noise.NoisyTopK). Checked against a brute-force
quadrature of each round's exponential-noise argmax (mpmath), against OpenDP's own sampler (chi-square; OpenDP cannot
be seeded, so the right law fails with probability 1e-7; two wrong laws -- the sorted order of one i.i.d. exponential
draw, and Plackett-Luce -- are rejected), and its certified eps against the exact ratio and OpenDP's privacy map."""

import itertools
import math
from collections import Counter

import mpmath
import pytest
from scipy.stats import chisquare

from rldp_verify.adapters import adapt, audit_adapted
from rldp_verify.cli import main

dp = pytest.importorskip("opendp.prelude")

S, B = [0.0, 1.0, 0.5, 0.2], 1.0                  # the sampled scores (4 indices, k = 2: 12 ordered outputs)
OTHER = [1.0, 0.0, 0.0, 0.3]


def _F(x, s, b):
    """CDF of s + Exp(scale b) at x."""
    return 1 - mpmath.exp(-(x - s) / b) if x > s else mpmath.mpf(0)


def _argmax_quad(s, b, i):
    """Pr[argmax_j (s_j + E_j) = i], E_j i.i.d. exponential of scale b: int_{s_i}^inf f_i(x) prod_{j != i} F_j(x) dx
    (mpmath quadrature, split at the scores where the integrand has kinks)."""
    pts = sorted({v for v in s if v >= s[i]}) + [max(s) + 40 * b]
    return mpmath.quad(lambda x: mpmath.exp(-(x - s[i]) / b) / b
                       * mpmath.fprod(_F(x, s[j], b) for j in range(len(s)) if j != i), pts)


def _peeled_quad(s, b, t):
    """OpenDP's law: the product over the rounds of the argmax law among the indices left."""
    left, p = list(range(len(s))), mpmath.mpf(1)
    for i in t:
        p *= _argmax_quad([s[j] for j in left], b, left.index(i))
        left.remove(i)
    return p


def _sorted_draw_quad(s, b, t):
    """A wrong law: (i, j) the two largest of ONE draw s + E: int f_j(y) (1 - F_i(y)) prod_{l != i, j} F_l(y) dy."""
    i, j = t
    rest = [m for m in range(len(s)) if m not in t]
    pts = sorted({v for v in s if v >= s[j]}) + [max(s) + 40 * b]
    return mpmath.quad(lambda y: mpmath.exp(-(y - s[j]) / b) / b * (1 - _F(y, s[i], b))
                       * mpmath.fprod(_F(y, s[m], b) for m in rest), pts)


def _plackett_luce(s, b, t):
    """A wrong law: Gumbel noise's (peeled softmax)."""
    w, p, rest = [math.exp(v / b) for v in s], 1.0, sum(math.exp(v / b) for v in s)
    for i in t:
        p, rest = p * w[i] / rest, rest - w[i]
    return p


OUTS = list(itertools.permutations(range(len(S)), 2))


def test_law_is_the_quadrature_and_the_eps_is_exact():
    a = adapt(dp.m.make_noisy_top_k, scores=[S, OTHER], scale=B, k=2)
    st = a.structure
    assert type(st).__name__ == "NoisyTopK" and st.noise == "exponential" and st.outputs() == OUTS
    with mpmath.workdps(25):
        law = {tuple(map(str, r)): [_peeled_quad(r, B, t) for t in OUTS] for r in (S, OTHER)}
        assert all(abs(sum(v) - 1) < 1e-15 for v in law.values())
        from rldp_verify.core.rigorous import arb_precision

        with arb_precision(40):
            tab = st._table(30)
        for mine, quad in zip(tab, law.values(), strict=True):
            for a_, q in zip(mine, quad, strict=True):
                assert abs(float(a_.mid()) - float(q)) < 1e-13 and float(a_.rad()) < 1e-25
        x, y = law.values()
        exact = max(max(mpmath.log(p / q), mpmath.log(q / p)) for p, q in zip(x, y, strict=True))
    lo, hi = (float(v) for v in audit_adapted(a, 10).eps_realised())
    assert lo <= float(exact) + 1e-14 and hi >= float(exact) - 1e-14 and hi - lo < 1e-12
    assert audit_adapted(a, f"{float(exact) + 1e-9:.15f}").verdict == "PASS"
    assert audit_adapted(a, f"{float(exact) - 1e-9:.15f}").verdict == "FAIL"
    # the two wrong laws are far from OpenDP's here (what the sampler test below can see)
    assert max(abs(float(_sorted_draw_quad(S, B, t)) - float(p)) for t, p in zip(OUTS, law[tuple(map(str, S))],
                                                                                strict=True)) > 0.01
    assert max(abs(_plackett_luce(S, B, t) - float(p)) for t, p in zip(OUTS, law[tuple(map(str, S))],
                                                                        strict=True)) > 0.01


def test_fits_opendp_sampler_and_wrong_laws_are_rejected():
    """16,000 draws of OpenDP's sampler: the peeled law passes the chi-square test (p > 1e-7, so the right law fails
    with probability 1e-7 < 1e-6); the sorted order of one exponential draw and Plackett-Luce fail it (p < 1e-7):
    their noncentrality 16000 sum (p - q)^2 / q is 193 and 663 with 11 degrees of freedom, so a wrong law passes
    with probability ncx2.cdf(54.4, 11, 193) = 1.2e-12 (54.4: the 1e-7 critical value)."""
    dp.enable_features("contrib")
    n = 16000
    meas = dp.m.make_noisy_top_k(dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.linf_distance(T=float),
                                 dp.max_divergence(), k=2, scale=B)
    drawn = Counter(tuple(meas(S)) for _ in range(n))
    counts = [drawn.get(t, 0) for t in OUTS]
    assert sum(counts) == n
    with mpmath.workdps(20):
        laws = {"peeled": [float(_peeled_quad(S, B, t)) for t in OUTS],
                "sorted one draw": [float(_sorted_draw_quad(S, B, t)) for t in OUTS],
                "Plackett-Luce": [_plackett_luce(S, B, t) for t in OUTS]}
    pvalues = {name: chisquare(counts, [v * n / sum(law) for v in law]).pvalue for name, law in laws.items()}
    assert pvalues["peeled"] > 1e-7, pvalues
    assert pvalues["sorted one draw"] < 1e-7 and pvalues["Plackett-Luce"] < 1e-7, pvalues


def test_eps_is_below_opendp_privacy_map_and_negate():
    """OpenDP's privacy map at d_in = the L-inf distance of the two score vectors bounds the exact eps from above;
    negate (bottom k) is top k of the negated scores."""
    dp.enable_features("contrib")
    meas = dp.m.make_noisy_top_k(dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.linf_distance(T=float),
                                 dp.max_divergence(), k=2, scale=B)
    d_in = max(abs(u - v) for u, v in zip(S, OTHER, strict=True))
    hi = float(audit_adapted(adapt(dp.m.make_noisy_top_k, scores=[S, OTHER], scale=B, k=2), 10).eps_realised()[1])
    assert 0 < hi <= meas.map(d_in)
    neg = adapt(dp.m.make_noisy_top_k, scores=[S, OTHER], scale=B, k=2, negate=True)
    flip = adapt(dp.m.make_noisy_top_k, scores=[[-v for v in S], [-v for v in OTHER]], scale=B, k=2)
    assert audit_adapted(neg, 10).eps_realised() == audit_adapted(flip, 10).eps_realised()


def test_cli(capsys):
    argv = ["audit", "--adapter", "opendp:make_noisy_top_k", "--param", "scores=0,1,0.5,0.2;1,0,0,0.3",
            "--param", "scale=1", "--param", "k=2", "--param", "output_measure=MaxDivergence", "--ldp", "--eps"]
    assert main([*argv, "2.4"]) == 0
    out = capsys.readouterr().out
    assert "PASS" in out and "peel_permute_and_flip" in out
    assert main([*argv, "2.39"]) == 1
    capsys.readouterr()
    assert main([*argv[:7], "--param", "k=3", *argv[9:], "10"]) == 0
    assert "24 ordered outputs (k = 3 of 4 indices)" in capsys.readouterr().out
