"""OpenDP's integer noise (``make_laplace`` / ``make_geometric`` on integers in bounds) as the exact discrete Laplace
shift: eps = (upper - lower) / scale exactly, checked against the pmf over a window of outputs (mpmath), against
OpenDP's own sampler (chi-square at a fixed seed) and against OpenDP's privacy map (never below the truth)."""

from collections import Counter
from fractions import Fraction

import mpmath
import pytest
from scipy.stats import chisquare

from rldp_verify.adapters import adapt, adapt_spec, audit_adapted, dense_mechanism
from rldp_verify.cli import main
from rldp_verify.core.errors import InputError

dp = pytest.importorskip("opendp.prelude")


def _pmf(y, x, scale):
    t = mpmath.exp(-1 / mpmath.mpf(Fraction(scale).numerator) * Fraction(scale).denominator)
    return (1 - t) / (1 + t) * t ** abs(y - x)


@pytest.mark.parametrize("name, lo, hi, scale", [("make_laplace", 0, 4, 2.0), ("make_geometric", -3, 2, 0.7),
                                                 ("make_laplace", 10, 11, 1 / 3)])
def test_eps_is_the_worst_ratio_over_a_window(name, lo, hi, scale):
    a = adapt(getattr(dp.m, name), bounds=(lo, hi), scale=scale)
    with mpmath.workdps(40):
        worst = max(_pmf(y, x, scale) / _pmf(y, xp, scale) for x in range(lo, hi + 1) for xp in range(lo, hi + 1)
                    for y in range(lo - 20, hi + 21))
        exact = mpmath.exp(mpmath.mpf(a.structure.eps().numerator) / a.structure.eps().denominator)
        assert abs(worst - exact) < mpmath.mpf(10) ** -30
    eps = a.structure.eps()
    assert eps == Fraction(hi - lo) / Fraction(scale)
    assert audit_adapted(a, f"{eps.numerator}/{eps.denominator}").verdict == "PASS"
    assert audit_adapted(a, f"{eps.numerator - 1}/{eps.denominator}").verdict == "FAIL"


def test_sampler_and_privacy_map():
    dp.enable_features("contrib")
    lo, hi, scale = 0, 3, 1.5
    meas = dp.m.make_laplace(dp.atom_domain(bounds=(lo, hi), T=int), dp.absolute_distance(T=int), scale)
    a = adapt(dp.m.make_laplace, bounds=(lo, hi), scale=scale)
    assert Fraction(meas.map(hi - lo)) >= a.structure.eps()          # OpenDP's map is not below the truth
    n = 20000
    for x in (lo, hi):
        counts = Counter(meas(x) for _ in range(n))
        window = list(range(x - 8, x + 9))
        with mpmath.workdps(30):
            probs = [float(_pmf(y, x, scale)) for y in window]
        obs = [counts.get(y, 0) for y in window] + [n - sum(counts.get(y, 0) for y in window)]
        exp = [p * n for p in probs] + [(1 - sum(probs)) * n]
        assert chisquare(obs, exp).pvalue > 1e-6


def test_cli_and_bad_input(capsys):
    argv = ["audit", "--adapter", "opendp:make_laplace", "--param", "bounds=0,4", "--param", "scale=2", "--eps",
            "2", "--ldp"]
    assert main(argv) == 0
    capsys.readouterr()
    assert main(argv[:-3] + ["--eps", "1.99", "--ldp"]) == 1
    capsys.readouterr()
    for bad, msg in ((["bounds=4,0", "scale=2"], "bounds = ['4', '0'] must be two integers lower < upper"),
                     (["bounds=0,x", "scale=2"], "must be two integers"),
                     (["bounds=0,4", "scale=-1"], "scale = -1.0 must be a finite number > 0")):
        args = ["audit", "--adapter", "opendp:make_laplace", "--eps", "1", "--ldp"]
        for p in bad:
            args += ["--param", p]
        assert main(args) == 2
        err = capsys.readouterr().err.strip()
        assert msg in err and len(err.splitlines()) == 1
    with pytest.raises(InputError, match="unbounded outputs have no dense channel"):
        dense_mechanism(adapt_spec("opendp:make_laplace", ["bounds=0,4", "scale=2"]))


@pytest.mark.parametrize("n, w, f", [(8, 1, "0.5"), (8, 4, "0.95"), (8, 6, "0.3")])
def test_bitvec_is_the_dense_audit(n, w, f):
    from rldp_verify.rldp.audit import audit

    a = adapt_spec("opendp:make_randomized_response_bitvec", [f"n_bits={n}", f"max_weight={w}", f"f={f}"])
    assert audit(dense_mechanism(a), 1, ldp=True).ratio_lower == a.structure.ratio()
    dp.enable_features("contrib")
    meas = dp.m.make_randomized_response_bitvec(dp.bitvector_domain(max_weight=w), dp.discrete_distance(), f=float(f))
    import math

    exact = float(audit_adapted(a, 1).eps_realised()[0])
    assert meas.map(1) >= exact - 1e-12 and abs(exact - min(2 * w, n) * math.log((2 - float(f)) / float(f))) < 1e-9


def test_bitvec_sampler_keeps_a_bit_with_probability_1_minus_f_over_2():
    """The sampler keeps each bit with probability 1 - f/2 (not 1 - f): per-bit counts, chi-square; and the output
    has the input's length (why the audit fixes n)."""
    import numpy as np

    dp.enable_features("contrib")
    f = 0.6
    meas = dp.m.make_randomized_response_bitvec(dp.bitvector_domain(max_weight=2), dp.discrete_distance(), f=f)
    x = np.packbits([1, 0, 0, 0, 0, 0, 0, 1])
    kept = total = 0
    for _ in range(3000):
        out = np.unpackbits(np.frombuffer(meas(x.tobytes()), dtype=np.uint8))
        kept += int(np.sum(out == np.unpackbits(x)))
        total += 8
    keep = float(adapt(dp.m.make_randomized_response_bitvec, n_bits=8, max_weight=2, f=f).structure.bit.p)
    assert chisquare([kept, total - kept], [total * keep, total * (1 - keep)]).pvalue > 1e-6
    assert len(meas(bytes([0]))) == 1 and len(meas(bytes([0, 0]))) == 2


def test_bitvec_bad_input():
    for params, msg in ((["n_bits=7", "max_weight=1", "f=0.5"], "positive multiple of 8"),
                        (["n_bits=8", "max_weight=9", "f=0.5"], "max_weight = 9 in [1, n_bits]"),
                        (["n_bits=8", "max_weight=1", "f=0"], "f = 0.0 must be in (0, 1]")):
        with pytest.raises(InputError, match=msg.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
            adapt_spec("opendp:make_randomized_response_bitvec", params)
