"""OpenDP's float noise (``make_laplace`` / ``make_gaussian`` on ``atom_domain(T=float)``): the input rounded to the
2^k lattice (ties up), exact integer noise: eps of Laplace exact against the pmf over a window (mpmath), the rounding
rule and the default k against OpenDP's own sampler and privacy map, Gaussian and thresholds eps = inf, and the
refusals of noisy max and Measurement objects (one line). OpenDP draws from the system's entropy: its sampler cannot
be seeded, so the chi-square tests use a threshold p > 1e-6."""

import math
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


def _space():
    dp.enable_features("contrib")
    return dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float)


def _pmf(n, i, s):
    """Discrete Laplace on the integers with scale s (rational), centred at i."""
    t = mpmath.exp(-1 / mpmath.mpf(Fraction(s).numerator) * Fraction(s).denominator)
    return (1 - t) / (1 + t) * t ** abs(n - i)


@pytest.mark.parametrize("lo, hi, scale, k", [(-0.5, 1.2, 0.5, 0), (0.3, 0.9, 0.25, -2), (0.5, 2.5, 1.5, 0),
                                              (0.0, 1.0, 0.7, None), (5e-324, 1.0, 0.7, None)])
def test_eps_is_the_worst_ratio_over_a_window(lo, hi, scale, k):
    a = adapt(dp.m.make_laplace, bounds=(lo, hi), scale=scale, k=k)
    kk = -1074 if k is None else k
    s = Fraction(scale) / Fraction(2) ** kk                       # the integer noise's scale
    i_lo, i_hi = lattice_index(lo, kk), lattice_index(hi, kk)
    eps = a.structure.eps()
    if k is not None:                                            # the window: every lattice input, outputs around
        with mpmath.workdps(40):
            worst = max(_pmf(n, i, s) / _pmf(n, ip, s) for i in range(i_lo, i_hi + 1) for ip in range(i_lo, i_hi + 1)
                        for n in range(i_lo - 20, i_hi + 21))
            exact = mpmath.exp(mpmath.mpf(eps.numerator) / eps.denominator)
            assert abs(worst - exact) < mpmath.mpf(10) ** -30
    assert eps == Fraction(i_hi - i_lo) / s
    if k is None:                                                # the lattice of all floats: no rounding at all
        assert eps == (Fraction(hi) - Fraction(lo)) / Fraction(scale)
    assert audit_adapted(a, f"{eps.numerator}/{eps.denominator}").verdict == "PASS"
    assert audit_adapted(a, f"{eps.numerator - 1}/{eps.denominator}").verdict == "FAIL"


def test_rounding_ties_up_and_the_sampler():
    """-0.5 rounds to index 0 and 1.5 to 2 (ties up; ties down would give -1 and 1): OpenDP's own outputs at k = 0
    fit the discrete Laplace around the index the model says, and not around the tie-down index."""
    meas = dp.m.make_laplace(*_space(), scale=0.8, k=0)
    n = 6000
    for x, idx, wrong in ((-0.5, 0, -1), (1.5, 2, 1), (0.49999999999999994, 0, 1)):
        assert lattice_index(x, 0) == idx
        counts = Counter(meas(x) for _ in range(n))
        window = list(range(idx - 6, idx + 7))

        def pvalue(centre, window=window, counts=counts):
            with mpmath.workdps(30):
                probs = [float(_pmf(y, centre, Fraction(0.8))) for y in window]
            obs = [counts.get(float(y), 0) for y in window] + [n - sum(counts.get(float(y), 0) for y in window)]
            return chisquare(obs, [p * n for p in probs] + [(1 - sum(probs)) * n]).pvalue
        assert pvalue(idx) > 1e-6
        assert pvalue(wrong) < 1e-6                              # the wrong rounding rule is rejected


def test_default_k_and_privacy_map():
    """OpenDP's default k for float64 is -1074 (its map equals that of k = -1074, not of -1073); its map is never
    below the exact eps."""
    sp = _space()
    default, k_min = dp.m.make_laplace(*sp, scale=1.0), dp.m.make_laplace(*sp, scale=1.0, k=-1074)
    assert default.map(1.0) == k_min.map(1.0) != dp.m.make_laplace(*sp, scale=1.0, k=-1073).map(1.0)
    for lo, hi, scale, k in ((0.0, 1.0, 0.5, None), (0.2, 1.7, 0.5, 0), (-3.0, 4.25, 2.0, -2)):
        eps = adapt(dp.m.make_laplace, bounds=(lo, hi), scale=scale, k=k).structure.eps()
        meas = dp.m.make_laplace(*sp, scale=scale, k=k)
        assert Fraction(meas.map(hi - lo)) >= eps


def test_gaussian_and_thresholds_have_no_finite_eps():
    for a in (adapt(dp.m.make_gaussian, bounds=(0.0, 1.0), scale=2.0), adapt(dp.m.make_gaussian, bounds=(0, 3),
                                                                              scale=1.0),
              adapt_spec("opendp:make_laplace_threshold", ["scale=1", "threshold=10"])):
        r = audit_adapted(a, 50)
        assert r.verdict == "FAIL" and r.ratio_lower == math.inf
        with pytest.raises(InputError, match="no dense channel"):
            dense_mechanism(a)
    # both bounds round to the same lattice point: the output law does not depend on the input
    const = adapt(dp.m.make_gaussian, bounds=(0.1, 0.2), scale=1.0, k=3)
    assert audit_adapted(const, "1/1000").verdict == "PASS" and const.structure.ratio() == 1


def test_refusals(capsys):
    sp = _space()
    meas = dp.m.make_laplace(*sp, scale=1.0)
    with pytest.raises(InputError) as e:
        adapt(meas)
    msg = str(e.value)
    assert "unsupported opendp Measurement (input domain AtomDomain(T=f64)" in msg and "\n" not in msg
    with pytest.raises(InputError, match="k = 4 must be in .1, 3."):       # exponential k = 2: modelled (peeling)
        adapt(dp.m.make_noisy_top_k, scores=[[0, 1, 2], [2, 1, 0]], scale=1.0, k=4)
    for params, text in ((["bounds=0,1", "scale=1", "T=float", "k=-1075"], "k = -1075 must be in [-1074, 1023]"),
                         (["bounds=1,0", "scale=1", "T=float"], "must be two finite numbers lower < upper"),
                         (["bounds=0,1", "scale=1", "T=str"], "T = 'str' must be int or float")):
        args = ["audit", "--adapter", "opendp:make_laplace", "--eps", "1", "--ldp"]
        for p in params:
            args += ["--param", p]
        assert main(args) == 2
        err = capsys.readouterr().err.strip()
        assert text in err and len(err.splitlines()) == 1


# ------------------------------------------------------------------------------------------ noisy max


def _argmax_law_by_quadrature(s, b, noise):
    """Pr[argmax_j (s_j + N_j) = i] = int f_i(x) prod_{j != i} F_j(x) dx, by mpmath quadrature (an independent route:
    no permute-and-flip identity, no softmax formula)."""
    def cdf(x, sj):
        if noise == "gumbel":
            return mpmath.exp(-mpmath.exp(-(x - sj) / b))
        return 1 - mpmath.exp(-(x - sj) / b) if x > sj else mpmath.mpf(0)

    def pdf(x, si):
        if noise == "gumbel":
            z = (x - si) / b
            return mpmath.exp(-z - mpmath.exp(-z)) / b
        return mpmath.exp(-(x - si) / b) / b if x > si else mpmath.mpf(0)
    out = []
    for i, si in enumerate(s):
        pts = sorted({v for v in s if v >= si})                 # the kinks of the integrand
        top = max(s) + 80 * b                                   # tails beyond: below e^-80
        edges = ([min(s) - 6 * b] if noise == "gumbel" else []) + pts + [top]
        f = lambda x, i=i, si=si: pdf(x, si) * mpmath.fprod(cdf(x, sj) for j, sj in enumerate(s) if j != i)  # noqa: E731
        out.append(mpmath.quad(f, edges))
    return out


@pytest.mark.parametrize("s, b, noise", [((0, 1, 0.5), 1.0, "exponential"), ((0, 2, 2, -1), 0.7, "exponential"),
                                         ((0, 1, 0.5), 1.0, "gumbel"), ((3, -1, 0.25, 0), 2.0, "gumbel")])
def test_noisy_max_law_is_the_quadrature(s, b, noise):
    from rldp_verify.core.rigorous import arb_precision
    from rldp_verify.structured.noise import NoisyArgmax

    st = NoisyArgmax([tuple(Fraction(v) for v in s)], b, noise)
    with arb_precision(40):
        probs = st._probs(st.inputs[0])
    with mpmath.workdps(30):
        ref = _argmax_law_by_quadrature([mpmath.mpf(v) for v in s], mpmath.mpf(b), noise)
    for p, r in zip(probs, ref, strict=True):
        assert abs(float(p.mid()) - float(r)) < 1e-15
    assert abs(sum(float(p.mid()) for p in probs) - 1) < 1e-15


def test_noisy_max_fits_opendp_and_its_map():
    """OpenDP's samplers: make_noisy_max with MaxDivergence (exponential noise) and ZeroConcentratedDivergence
    (Gumbel), and the deprecated make_report_noisy_max_gumbel (exponential in 0.16): each fits its modelled law
    (chi-square) and not the other law; eps never exceeds OpenDP's map of the inputs' l_inf distance."""
    import warnings

    dp.enable_features("contrib")
    sp = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.linf_distance(T=float)
    s, n = [0.0, 1.0, 0.5], 8000
    cases = [("make_noisy_max", dp.m.make_noisy_max(*sp, output_measure=dp.max_divergence(), scale=1.0),
              {"output_measure": "MaxDivergence"}, "exponential"),
             ("make_noisy_max", dp.m.make_noisy_max(*sp, output_measure=dp.zero_concentrated_divergence(), scale=1.0),
              {"output_measure": "ZeroConcentratedDivergence"}, "gumbel")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        cases.append(("make_report_noisy_max_gumbel", dp.m.make_report_noisy_max_gumbel(*sp, scale=1.0), {},
                      "exponential"))
    for name, meas, extra, noise in cases:
        a = adapt(getattr(dp.m, name), scores=[s, [1.0, 0.0, 0.0]], scale=1.0, **extra)
        assert a.structure.noise == noise
        counts = Counter(meas(s) for _ in range(n))
        obs = [counts.get(i, 0) for i in range(3)]
        with mpmath.workdps(30):
            laws = {z: [float(p) * n for p in _argmax_law_by_quadrature(s, 1, z)] for z in ("exponential", "gumbel")}
        assert chisquare(obs, laws[noise]).pvalue > 1e-6
        assert chisquare(obs, laws["gumbel" if noise == "exponential" else "exponential"]).pvalue < 1e-6
        if noise == "exponential":                                # pure DP: the map bounds eps
            hi = float(audit_adapted(a, 100).eps_realised()[1])
            assert hi <= meas.map(1.0) + 1e-12


def test_noisy_max_audit_and_negate(capsys):
    a = adapt_spec("opendp:make_noisy_max", ["scores=0,1;1,0", "scale=1"])
    r = audit_adapted(a, 2)
    exact = math.log((1 - math.exp(-1) / 2) / (math.exp(-1) / 2))      # index 1: Pr 1 - e^-1/2 against e^-1/2
    assert r.verdict == "PASS" and abs(float(r.eps_realised()[0]) - exact) < 1e-14
    assert audit_adapted(a, "1.489").verdict == "FAIL"
    neg = adapt(dp.m.make_noisy_max, scores=[[0, 1], [1, 0]], scale=1.0, negate=True)
    assert abs(float(audit_adapted(neg, 2).eps_realised()[0]) - exact) < 1e-14
    assert main(["audit", "--adapter", "opendp:make_noisy_max", "--param", "scores=0,1;1", "--param", "scale=1",
                 "--eps", "1", "--ldp"]) == 2
    err = capsys.readouterr().err.strip()
    assert "each a vector of 2..32 scores of one length" in err and len(err.splitlines()) == 1
    with pytest.raises(InputError, match="no exact dense channel"):
        dense_mechanism(a)
