"""OpenDP's vector noise (``make_laplace`` / ``make_geometric`` on ``vector_domain(atom_domain(bounds), size)`` with
``l1_distance``, ``make_gaussian`` with ``l2_distance``) as a local randomiser on the box of input vectors: eps =
size (i(upper) - i(lower)) 2^k / scale exactly, checked against the brute-force worst ratio over every pair of inputs
and a window of outputs (mpmath), against OpenDP's own sampler (chi-square on the joint law of two coordinates;
OpenDP cannot be seeded, so p > 1e-6, and a wrong law, one noise shared by the coordinates, is rejected) and against
OpenDP's privacy map (never below the exact eps)."""

import itertools
from collections import Counter
from fractions import Fraction

import mpmath
import pytest
from scipy.stats import chisquare

from rldp_verify.adapters import adapt, adapt_spec, audit_adapted, dense_mechanism
from rldp_verify.cli import main
from rldp_verify.core.errors import InputError
from rldp_verify.structured.noise import lattice_index

dp = pytest.importorskip("opendp.prelude")


def _pmf(n, i, s):
    """Discrete Laplace on the integers with scale s (rational), centred at i."""
    t = mpmath.exp(-1 / mpmath.mpf(Fraction(s).numerator) * Fraction(s).denominator)
    return (1 - t) / (1 + t) * t ** abs(n - i)


def _brute(i_lo, i_hi, size, s):
    """max over input index vectors i, i' in the box and outputs in a window of prod_j pmf(y_j | i_j) / pmf(y_j | i'_j)."""
    points, ys = range(i_lo, i_hi + 1), range(i_lo - 3, i_hi + 4)
    with mpmath.workdps(40):
        one = {(i, ip, y): _pmf(y, i, s) / _pmf(y, ip, s) for i in points for ip in points for y in ys}
        box = list(itertools.product(points, repeat=size))
        return max(mpmath.fprod(one[i[j], ip[j], y[j]] for j in range(size))
                   for i in box for ip in box for y in itertools.product(ys, repeat=size))


@pytest.mark.parametrize("spec, lo, hi, size, scale, k", [
    ("make_laplace", 0, 2, 2, 2.0, None), ("make_geometric", -1, 1, 2, 0.7, None),
    ("make_geometric", 5, 6, 3, 0.9, None), ("make_laplace", 3, 4, 2, 1 / 3, None),
    ("make_laplace", 0.2, 1.7, 2, 0.5, 0), ("make_laplace", -0.5, 0.6, 2, 1.5, -1)])
def test_eps_is_the_brute_force_worst_ratio(spec, lo, hi, size, scale, k):
    params = [f"bounds={lo},{hi}", f"scale={scale!r}", f"size={size}"]
    if k is not None:
        params += ["T=float", f"k={k}"]
    a = adapt_spec(f"opendp:{spec}", params)
    kk = 0 if k is None else k
    s = Fraction(scale) / Fraction(2) ** kk                       # the integer noise's scale
    i_lo, i_hi = lattice_index(lo, kk), lattice_index(hi, kk)
    eps = a.structure.eps()
    with mpmath.workdps(40):
        exact = mpmath.exp(mpmath.mpf(eps.numerator) / eps.denominator)
        assert abs(_brute(i_lo, i_hi, size, s) - exact) < mpmath.mpf(10) ** -25 * exact
    assert eps == size * Fraction(i_hi - i_lo) / s
    assert audit_adapted(a, f"{eps.numerator}/{eps.denominator}").verdict == "PASS"
    assert audit_adapted(a, f"{eps.numerator - 1}/{eps.denominator}").verdict == "FAIL"


def test_float_rounding_per_coordinate():
    """k = 0, bounds 0.2, 1.7: the indices 0 and 2 (not a span of 1.5): eps = size 2 / scale = 8 at scale 0.5."""
    a = adapt(dp.m.make_laplace, bounds=(0.2, 1.7), scale=0.5, k=0, size=2)
    assert a.structure.eps() == 8
    b = adapt(dp.m.make_laplace, bounds=(0.2, 1.7), scale=0.5, size=2)          # k = -1074: no rounding
    assert b.structure.eps() == 2 * (Fraction(1.7) - Fraction(0.2)) / Fraction(0.5)


def _joint_fit(meas, x, scale, shared=False):
    """p-value of OpenDP's outputs at the input vector x (two coordinates) against independent discrete Laplace noise
    per coordinate (``shared``: the wrong law, one noise added to both coordinates)."""
    n = 12000
    counts = Counter(tuple(meas(list(x))) for _ in range(n))
    cells = list(itertools.product(range(-3, 4), repeat=2))
    with mpmath.workdps(30):
        if shared:
            probs = [float(_pmf(a, 0, scale)) if a == b else 0.0 for a, b in cells]
        else:
            probs = [float(_pmf(a, 0, scale) * _pmf(b, 0, scale)) for a, b in cells]
    obs = [counts.get((x[0] + a, x[1] + b), 0) for a, b in cells]
    keep = [i for i, p in enumerate(probs) if p > 0]
    rest_obs, rest_p = n - sum(obs[i] for i in keep), 1 - sum(probs[i] for i in keep)
    if shared and rest_obs > 0 and rest_p * n < 1e-9:
        return 0.0                                       # outputs the shared-noise law cannot produce
    o = [obs[i] for i in keep] + [rest_obs]
    e = [probs[i] * n for i in keep] + [rest_p * n]
    return chisquare(o, e).pvalue


def test_sampler_and_privacy_map():
    dp.enable_features("contrib")
    lo, hi, scale, size = 0, 3, 1.5, 2
    space = dp.vector_domain(dp.atom_domain(bounds=(lo, hi), T=int), size=size), dp.l1_distance(T=int)
    meas = dp.m.make_laplace(*space, scale)
    a = adapt(dp.m.make_laplace, bounds=(lo, hi), scale=scale, size=size)
    assert Fraction(meas.map(size * (hi - lo))) >= a.structure.eps() == Fraction(size * (hi - lo)) / Fraction(scale)
    for x in ((lo, hi), (hi, hi)):
        assert _joint_fit(meas, x, scale) > 1e-6
    assert _joint_fit(meas, (lo, hi), scale, shared=True) < 1e-6        # a wrong law is rejected by the same fit


def test_float_sampler_rounds_each_coordinate():
    """k = 0: (0.2, 1.7) is released around the lattice indices (0, 2), and not around (0, 1) (ties down / floor)."""
    dp.enable_features("contrib")
    meas = dp.m.make_laplace(dp.vector_domain(dp.atom_domain(T=float, nan=False), size=2), dp.l1_distance(T=float),
                             0.8, k=0)
    n = 12000
    counts = Counter(tuple(int(y) for y in meas([0.2, 1.7])) for _ in range(n))
    cells = list(itertools.product(range(-3, 4), repeat=2))
    for centre, ok in (((0, 2), True), ((0, 1), False)):
        with mpmath.workdps(30):
            probs = [float(_pmf(a, 0, 0.8) * _pmf(b, 0, 0.8)) for a, b in cells]
        obs = [counts.get((centre[0] + a, centre[1] + b), 0) for a, b in cells]
        o, e = obs + [n - sum(obs)], [p * n for p in probs] + [(1 - sum(probs)) * n]
        assert (chisquare(o, e).pvalue > 1e-6) == ok


def test_gaussian_vector_is_unbounded_and_the_cli(capsys):
    a = adapt_spec("opendp:make_gaussian", ["bounds=0,4", "scale=2", "size=3"])
    assert audit_adapted(a, "1000").verdict == "FAIL"
    c = adapt_spec("opendp:make_gaussian", ["bounds=1,1.4", "scale=2", "size=3", "T=float", "k=0"])   # one point
    assert audit_adapted(c, "0").verdict == "PASS"
    argv = ["audit", "--adapter", "opendp:make_laplace", "--param", "bounds=0,4", "--param", "scale=2", "--param",
            "size=3", "--eps", "6", "--ldp"]
    assert main(argv) == 0
    capsys.readouterr()
    assert main(argv[:-3] + ["--eps", "5.99", "--ldp"]) == 1
    capsys.readouterr()
    for bad, msg in (("size=0", "size = 0 must be an integer in [1, 10^6]"), ("size=x", "size='x': not a valid int")):
        assert main(argv[:-3] + ["--param", bad, "--eps", "1", "--ldp"]) == 2
        err = capsys.readouterr().err.strip()
        assert msg in err and len(err.splitlines()) == 1
    with pytest.raises(InputError, match="size = 2.5 must be an integer"):
        adapt(dp.m.make_laplace, bounds=(0, 4), scale=2.0, size=2.5)
    with pytest.raises(InputError, match="no dense channel"):
        dense_mechanism(adapt_spec("opendp:make_laplace", ["bounds=0,4", "scale=2", "size=2"]))
