"""The float sampler models (rldp_verify.structured.samplers) against the samplers themselves: the exact
event probabilities by hand, NumPy's legacy binomial(1, p) and choice(p=...) draw for draw from the same
uniforms, and numba's compiled code queried at chosen uniforms (its Mersenne Twister state set so that the
next doubles are k / 2^53 for chosen k): the thresholds the compiled clients use are the ones the adapters
read from the Python source."""

import math
import random
from fractions import Fraction

import numpy as np
import pytest

from rldp_verify.structured import samplers as sm

T = 2**53


def test_grid_probabilities_by_hand():
    assert sm.prob_lt(0.5) == sm.prob_le(0.5) - Fraction(1, T) == Fraction(1, 2)
    q = 0.1                                              # not on the 2^-53 grid: ulp(0.1) = 2^-56
    assert (Fraction(q) * T).denominator > 1
    assert sm.prob_lt(q) == Fraction(math.ceil(Fraction(q) * T), T) == sm.prob_le(q) > Fraction(q)
    assert sm.prob_lt(0.0) == 0 and sm.prob_le(0.0) == Fraction(1, T) and sm.prob_le(-1.0) == 0
    assert sm.prob_lt(1.0) == 1 == sm.prob_le(1.0)


def test_python_and_numpy_uniforms_are_k_over_2_53():
    random.seed(3)
    np.random.seed(3)
    for u in [random.random() for _ in range(200)] + list(np.random.random_sample(200)):
        assert (Fraction(float(u)) * T).denominator == 1


def _binomial_from_uniforms(u, p, impl):
    t = 1 - p if p > 0.5 else p
    qq = 1 - t
    qn = math.exp(math.log(qq)) if impl == "numpy" else qq
    px = (t * qn) / qq
    out, i = [], 0
    while i < len(u):
        U = u[i]
        i += 1
        if qn >= U:
            out.append(0)
        elif U - qn <= px:
            out.append(1)
    return [1 - v for v in out] if p > 0.5 else out


@pytest.mark.parametrize("p", [0.3, 0.7, 0.5, 1e-3, 0.9999, 0.7310585786300049])
def test_numpy_binomial_draw_for_draw(p):
    np.random.seed(5)
    got = np.random.binomial(1, p, size=3000)
    np.random.seed(5)
    want = _binomial_from_uniforms(list(np.random.random_sample(6000)), p, "numpy")[:3000]
    assert list(got) == want


def test_numpy_choice_draw_for_draw():
    for q in (0.2, 1 / (math.e ** 0.25 + 1)):
        np.random.seed(3)
        got = np.random.choice([1, 0], size=3000, p=[q, 1 - q])
        np.random.seed(3)
        u = np.random.random_sample(3000)
        assert (got == np.where(u < sm.numpy_choice_first([q, 1 - q]), 1, 0)).all()


# ------------------------------------------------------------------------------------------ numba, exactly

numba = pytest.importorskip("numba")


def _untemper(y):
    def unright(y, s):
        x = y
        for _ in range(32 // s + 1):
            x = y ^ (x >> s)
        return x & 0xFFFFFFFF

    def unleft(y, s, mask):
        x = y
        for _ in range(32 // s + 1):
            x = y ^ ((x << s) & mask)
        return x & 0xFFFFFFFF
    y = unright(y, 18)
    y = unleft(y, 15, 0xEFC60000)
    y = unleft(y, 7, 0x9D2C5680)
    return unright(y, 11)


def _set_uniforms(ks):
    """Make numba's next doubles k / 2^53 for k in ks (at most 300)."""
    from numba import _helperlib

    words = []
    for k in ks:
        a, b = k >> 26, k & (2**26 - 1)
        words += [_untemper(a << 5), _untemper(b << 6)]
    ptr = _helperlib.rnd_get_np_state_ptr()
    idx, mt = _helperlib.rnd_get_state(ptr)
    _helperlib.rnd_set_state(ptr, (0, words + list(mt[len(words):])))


@numba.njit
def _nb_random():
    return np.random.random()


def test_numpy_exp_differs_from_compiled_exp_at_the_test_points():
    @numba.njit
    def nb_exp(x):
        return np.exp(x)
    for e in NP_EXP_DIFFERS:
        assert np.exp(e) != nb_exp(e) == math.exp(e)
        assert sm.prob_le(1 / (np.exp(e) + 1)) != sm.prob_le(1 / (nb_exp(e) + 1))


def test_state_control_gives_chosen_uniforms():
    ks = [0, 1, T - 1, 123456789012345, T // 3]
    _set_uniforms(ks)
    assert [Fraction(_nb_random()) * T for _ in ks] == ks


def _threshold_count(call, lo=0, hi=T):
    """The number of k in [0, 2^53) for which call(k) is true (true on a prefix), by bisection."""
    if not call(0):
        return 0
    a, b = 0, hi                    # call(a) true, call(b) false (b = 2^53: beyond the range)
    while b - a > 1:
        m = (a + b) // 2
        if call(m):
            a = m
        else:
            b = m
    return a + 1


# 0.0762..., 0.1755...: NumPy's scalar exp differs from numba's (libm) there, and the threshold's 2^-53 grid event
# with it; the adapter must read the compiled code's value
NP_EXP_DIFFERS = [0.07622868605817452, 0.17552657973921765]


@pytest.mark.parametrize("eps, optimal", [(1.0, True), (1.0, False), (0.25, True), (5.0, False)] +
                         [(e, True) for e in NP_EXP_DIFFERS])
def test_numba_ue_client_thresholds_are_the_traced_ones(eps, optimal):
    from multi_freq_ldpy.pure_frequency_oracles.UE import UE_Client

    from rldp_verify.adapters import adapt

    a = adapt(UE_Client, k=2, epsilon=eps, optimal=optimal)

    def bit(which, k):              # input 1: bit 0 is cold, bit 1 is hot
        ks = [k, T - 1] if which == 0 else [T - 1, k]
        _set_uniforms(ks)
        return UE_Client(1, 2, eps, optimal)[which] == 1
    assert Fraction(_threshold_count(lambda k: bit(0, k)), T) == a.structure.bit.q
    assert Fraction(_threshold_count(lambda k: bit(1, k)), T) == a.structure.bit.p


def _np_set_uniforms(ks):
    keys = []
    for k in ks:
        a, b = k >> 26, k & (2**26 - 1)
        keys += [_untemper(a << 5), _untemper(b << 6)]
    st = np.random.get_state()
    np.random.set_state(("MT19937", np.array(keys + list(st[1][len(keys):]), dtype=np.uint32), 0, 0, 0.0))


@numba.njit
def _nb_binomial(p):
    return np.random.binomial(1, p)


@pytest.mark.parametrize("impl", ["numpy", "numba"])
def test_binomial_runs_are_the_samplers(impl):
    """At the boundaries the model predicts (k = n0 - 1, n0, n0 + n1 - 1, n0 + n1) the real sampler, fed
    exactly those uniforms, returns 0, 1, 1 and draws again (then 0 from k = 0)."""
    set_u, draw = (_np_set_uniforms, lambda p: np.random.binomial(1, p)) if impl == "numpy" else \
        (_set_uniforms, _nb_binomial)
    ps = [0.3, 0.7, 0.5, 1e-3, 0.9999, 0.7310585786300049, 4 / 7]
    for p in ps:
        n0, n1, flip = sm.binomial1_runs(p, impl)

        def inv(k):
            set_u([k, 0, 0])
            x = int(draw(p))
            return 1 - x if flip else x
        assert inv(n0 - 1) == 0 and inv(n0) == 1 and inv(n0 + n1 - 1) == 1, (p, n0, n1)
        if n0 + n1 < T:
            assert inv(n0 + n1) == 0, (p, n0, n1)          # rejected, redrawn at k = 0
        x1 = Fraction(n1, n0 + n1)
        assert sm.prob_binomial1(p, impl) == (1 - x1 if flip else x1)


def test_numpy_and_numba_loops_coincide_where_used():
    """qq = 1 - min(p, 1 - p) lies in [1/2, 1], where glibc's exp(log(qq)) == qq (NumPy's qn equals numba's):
    checked on a grid; where they differ (qq < 1/2) the loops are never entered."""
    for i in range(1, 20001):
        qq = 0.5 + 0.5 * i / 20001
        assert math.exp(math.log(qq)) == qq


def test_mfl_grr_client_uses_numba_binomial():
    """GRR_Client keeps its input exactly when numba's binomial(1, p) returns 1 (p read by the adapter)."""
    from multi_freq_ldpy.pure_frequency_oracles.GRR import GRR_Client

    from rldp_verify.adapters import adapt

    for k_dom, eps in ((4, 1.0), (64, 2.0)):
        a = adapt(GRR_Client, k=k_dom, epsilon=eps)
        p = a.float_params["p"]
        n0, n1, flip = sm.binomial1_runs(p, "numba")
        for k in (n0 - 1, n0, n0 + n1 - 1):
            _set_uniforms([k, 0, 0])
            kept = GRR_Client(0, k_dom, eps) == 0
            _set_uniforms([k, 0, 0])
            assert kept == bool(_nb_binomial(p))
        assert a.structure.a == sm.prob_binomial1(p, "numba")


# (eps_perm, eps_1) where NumPy's numerics would move a threshold's grid event (found by search)
L_NP_DIFFERS = {"L_SUE": (1.1081081081081081, 0.48178613396004705), "L_OUE": (1.1081081081081081, 0.48178613396004705),
                "L_OSUE": (1.135135135135135, 0.49353701527614574), "L_SOUE": (1.0810810810810811, 0.47003525264394835)}


@pytest.mark.parametrize("name, eps_perm, eps_1", [(n, 2.0, 1.0) for n in L_NP_DIFFERS] +
                         [(n, *L_NP_DIFFERS[n]) for n in L_NP_DIFFERS])
def test_numba_longitudinal_thresholds_are_the_traced_ones(name, eps_perm, eps_1):
    """The compiled clients' four thresholds (q1, p1 of the memoised round, q2, p2 of the second), found by
    bisection at chosen uniforms, are the ones the adapter read from the Python source (numba's exp and
    sqrt against NumPy's would show here)."""
    import importlib

    from rldp_verify.adapters import adapt

    fn = getattr(importlib.import_module(f"multi_freq_ldpy.long_freq_est.{name}"), f"{name}_Client")
    fp = adapt(fn, k=2, eps_perm=eps_perm, eps_1=eps_1).float_params

    def out(ks):
        _set_uniforms(ks)
        return fn(1, 2, eps_perm, eps_1)
    # round 1 on input 1: draw 0 is bit 0 (cold, q1); its second-round draw u2 with q2 < u2 / 2^53 <= p2 makes
    # the output bit equal to the memoised bit
    u2 = math.floor(Fraction(fp["q2"]) * T) + 1
    assert Fraction(u2, T) <= Fraction(fp["p2"])
    n_q1 = _threshold_count(lambda k: out([k, 0, u2, T - 1])[0] == 1)
    assert Fraction(n_q1, T) == sm.prob_le(fp["q1"])
    n_p1 = _threshold_count(lambda k: out([T - 1, k, T - 1, u2])[1] == 1)
    assert Fraction(n_p1, T) == sm.prob_le(fp["p1"])
    # round 2 with the memoised bits (0, 1): bit 0 compared with q2, bit 1 with p2
    n_q2 = _threshold_count(lambda k: out([T - 1, 0, k, T - 1])[0] == 1)
    n_p2 = _threshold_count(lambda k: out([T - 1, 0, T - 1, k])[1] == 1)
    assert Fraction(n_q2, T) == sm.prob_le(fp["q2"]) and Fraction(n_p2, T) == sm.prob_le(fp["p2"])


def test_numba_ss_client_threshold_is_the_traced_one():
    from multi_freq_ldpy.pure_frequency_oracles.SS import SS_Client

    from rldp_verify.adapters import adapt

    for k, eps in ((4, 0.5), (10, 1.0)):
        a = adapt(SS_Client, k=k, epsilon=eps, as_set=True)

        def included(u):
            _set_uniforms([u] + [0] * 40)
            return SS_Client(0, k, eps)[0] == 0
        assert Fraction(_threshold_count(included), T) == a.structure.P
