"""OpenDP's noisy top k (``make_noisy_top_k``) with Gumbel noise (ZeroConcentratedDivergence): the ordered top k has
the Plackett-Luce law (rldp_verify.structured.noise.NoisyTopK), checked against a quadrature of the Gumbel order
statistics (mpmath), against OpenDP's own sampler (chi-square on the ordered pairs; OpenDP cannot be seeded, so
p > 1e-6; a wrong law, the unordered product of the weights, is rejected) and its certified eps against the exact
ratio; k out of range is refused in one line (exponential noise with k > 1: test_opendp_topk_exponential.py)."""

import itertools
import math
from collections import Counter

import mpmath
import pytest
from scipy.stats import chisquare

from rldp_verify.adapters import adapt, adapt_spec, audit_adapted
from rldp_verify.cli import main
from rldp_verify.core.errors import InputError

dp = pytest.importorskip("opendp.prelude")


def _quadrature(s, b, i, j):
    """Pr[X_i > X_j > X_l for the other l], X = s + b G with G standard Gumbel: the integral over X_j = y of
    f_j(y) (1 - F_i(y)) prod_l F_l(y) (mpmath quadrature)."""
    def F(x, m):
        return mpmath.exp(-mpmath.exp(-(x - s[m]) / b))

    def f(x, m):
        z = (x - s[m]) / b
        return mpmath.exp(-z - mpmath.exp(-z)) / b

    rest = [m for m in range(len(s)) if m not in (i, j)]
    return mpmath.quad(lambda y: f(y, j) * (1 - F(y, i)) * mpmath.fprod(F(y, m) for m in rest),
                       [-30, -5, 0, 5, 40])              # the tails beyond carry < 1e-15


def _law(s, b, k, wrong=False):
    """Plackett-Luce (``wrong``: prod w_(i_m) renormalised, the law that forgets to remove the chosen indices)."""
    w = [math.exp(v / b) for v in s]
    outs = list(itertools.permutations(range(len(s)), k))
    if wrong:
        p = [math.prod(w[i] for i in t) for t in outs]
        return outs, [v / sum(p) for v in p]
    law = []
    for t in outs:
        p, rest = 1.0, sum(w)
        for i in t:
            p, rest = p * w[i] / rest, rest - w[i]
        law.append(p)
    return outs, law


def test_law_is_the_quadrature_and_the_eps_is_exact():
    s, b = [0.0, 1.0, 0.5], 1.0
    a = adapt(dp.m.make_noisy_top_k, scores=[s, [1.0, 0.0, 0.0]], scale=b, k=2,
              output_measure="ZeroConcentratedDivergence")
    outs, law = _law(s, b, 2)
    with mpmath.workdps(20):
        for t, p in zip(outs, law, strict=True):
            assert abs(_quadrature(s, b, *t) - p) < 1e-12
    # the exact eps: max over the two inputs (both orders) and the 6 ordered pairs of the Plackett-Luce ratio
    _, other = _law([1.0, 0.0, 0.0], b, 2)
    exact = max(math.log(max(p / q, q / p)) for p, q in zip(law, other, strict=True))
    lo, hi = (float(v) for v in audit_adapted(a, 10).eps_realised())
    assert lo <= exact + 1e-14 and hi >= exact - 1e-14 and hi - lo < 1e-12
    assert audit_adapted(a, f"{exact + 1e-9:.15f}").verdict == "PASS"
    assert audit_adapted(a, f"{exact - 1e-9:.15f}").verdict == "FAIL"
    one = adapt(dp.m.make_noisy_top_k, scores=[s, [1.0, 0.0, 0.0]], scale=b, k=1)        # k = 1: noisy max
    assert type(one.structure).__name__ == "NoisyArgmax" and one.structure.noise == "exponential"


def test_fits_opendp_sampler():
    dp.enable_features("contrib")
    s, b, n = [0.0, 1.0, 0.5], 1.0, 12000
    meas = dp.m.make_noisy_top_k(dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.linf_distance(T=float),
                                 dp.zero_concentrated_divergence(), k=2, scale=b)
    counts = Counter(tuple(meas(s)) for _ in range(n))
    for wrong in (False, True):
        outs, law = _law(s, b, 2, wrong)
        p = chisquare([counts.get(t, 0) for t in outs], [v * n for v in law]).pvalue
        assert (p > 1e-6) != wrong


def test_cli_and_refusals(capsys):
    argv = ["audit", "--adapter", "opendp:make_noisy_top_k", "--param", "scores=0,1,0.5;1,0,0", "--param", "scale=1",
            "--param", "k=2", "--param", "output_measure=ZeroConcentratedDivergence", "--eps", "2", "--ldp"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "PASS" in out and "Plackett-Luce" in out
    assert main(argv[:-3] + ["--eps", "1.7", "--ldp"]) == 1
    capsys.readouterr()
    for params, msg in ((["k=4"], "k = 4 must be in [1, 3]"),):
        args = argv[:7] + [x for p in params for x in ("--param", p)] + ["--eps", "1", "--ldp"]
        assert main(args) == 2
        err = capsys.readouterr().err.strip()
        assert msg in err and len(err.splitlines()) == 1
    with pytest.raises(InputError, match="ordered outputs"):
        adapt_spec("opendp:make_noisy_top_k", [f"scores={','.join(map(str, range(32)))};{','.join(['0'] * 32)}",
                                               "scale=1", "k=5", "output_measure=ZeroConcentratedDivergence"])
