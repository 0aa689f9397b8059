"""Adapters: the structured exact channels of pure-ldp (1.1.2, installed by the test extras), multi-freq-ldpy
and OpenDP, checked (1) against a brute-force dense channel at small d (the certified audit of the dense
matrix), (2) against the library's own sampler at a fixed seed (chi-square), (3) at deployment sizes
(d = 65,536 in seconds), and their verdicts and bad-input messages."""

import json
import math
import random
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from scipy.stats import chisquare

from rldp_verify.adapters import (
    adapt,
    adapt_spec,
    audit_adapted,
    channel,
    dense_mechanism,
    from_spec,
    pure_ldp_has_ue_bug,
)
from rldp_verify.cli import main
from rldp_verify.core.errors import InputError
from rldp_verify.rldp.audit import audit
from rldp_verify.structured import samplers as sm

pure_ldp = pytest.importorskip("pure_ldp.frequency_oracles")
numba = pytest.importorskip("numba")


@numba.njit
def _nb_seed(s):
    np.random.seed(s)


def _seed(s):
    random.seed(s)
    np.random.seed(s)
    _nb_seed(s)


def _fits(mech, sample, n=4000, label=str):
    """The library's empirical output frequencies agree with the channel's column (chi-square, p > 1e-6)."""
    for x in range(len(mech.sensitive) * len(mech.public)):
        counts = Counter(label(sample(x)) for _ in range(n))
        expected = [float(mech.matrix[y][x]) * n for y in range(len(mech.outputs))]
        observed = [counts.get(lab, 0) for lab in mech.outputs]
        assert sum(observed) == n, (counts, mech.outputs)
        keep = [i for i, e in enumerate(expected) if e > 0]
        assert all(observed[i] == 0 for i in range(len(expected)) if i not in keep)
        assert chisquare([observed[i] for i in keep], [expected[i] for i in keep]).pvalue > 1e-6


def _bits(v):
    return "".join(str(int(b)) for b in v)


def _tuple(v):
    return ",".join(str(int(b)) for b in v)


# ------------------------------------------------------------------------------------------ the oracle

SMALL = [
    ("pure-ldp:UEClient", ["epsilon=0.25", "d=3", "use_oue=true"]),
    ("pure-ldp:UEClient", ["epsilon=1", "d=4"]),
    ("pure-ldp:DEClient", ["epsilon=1", "d=5"]),
    ("pure-ldp:LHClient", ["epsilon=1", "d=4", "use_olh=true"]),
    ("pure-ldp:LHClient", ["epsilon=2", "d=3", "g=5"]),
    ("multi-freq-ldpy:GRR_Client", ["k=4", "epsilon=2"]),
    ("multi-freq-ldpy:UE_Client", ["k=3", "epsilon=1"]),
    ("multi-freq-ldpy:UE_Client", ["k=3", "epsilon=1", "optimal=false"]),
    ("multi-freq-ldpy:LH_Client", ["k=5", "epsilon=2"]),
    ("multi-freq-ldpy:LH_Client", ["k=3", "epsilon=0.5", "optimal=false"]),
    ("multi-freq-ldpy:SS_Client", ["k=6", "epsilon=0.5"]),
    ("multi-freq-ldpy:SS_Client", ["k=6", "epsilon=0.5", "as_set=true"]),
    ("multi-freq-ldpy:L_GRR_Client", ["k=4", "eps_perm=2", "eps_1=1"]),
    ("multi-freq-ldpy:L_SUE_Client", ["k=3", "eps_perm=2", "eps_1=1"]),
    ("multi-freq-ldpy:L_OUE_Client", ["k=3", "eps_perm=2", "eps_1=1"]),
    ("multi-freq-ldpy:L_OSUE_Client", ["k=3", "eps_perm=2", "eps_1=1"]),
    ("multi-freq-ldpy:L_SOUE_Client", ["k=3", "eps_perm=2", "eps_1=1"]),
    ("multi-freq-ldpy:SMP_GRR_Client", ["lst_k=2,3", "epsilon=1"]),
    ("multi-freq-ldpy:SMP_UE_Client", ["lst_k=2,3", "epsilon=2", "optimal=false"]),
    ("multi-freq-ldpy:SMP_LH_Client", ["lst_k=3,2", "epsilon=1"]),
    ("multi-freq-ldpy:SMP_SS_Client", ["lst_k=5,2", "epsilon=0.3"]),
    ("multi-freq-ldpy:RSpFD_GRR_Client", ["lst_k=2,3", "epsilon=1"]),
    ("multi-freq-ldpy:RSpFD_GRR_Client", ["lst_k=3,2,2", "epsilon=0.5"]),
    ("multi-freq-ldpy:RSpFD_UE_zero_Client", ["lst_k=2,3", "epsilon=1"]),
    ("multi-freq-ldpy:RSpFD_UE_zero_Client", ["lst_k=3,2,2", "epsilon=0.5", "optimal=false"]),
    ("opendp:make_randomized_response", ["categories=a,b,c", "prob=0.75"]),
]


@pytest.mark.parametrize("spec, params", SMALL, ids=[f"{s}:{','.join(p)}" for s, p in SMALL])
def test_structured_ratio_is_the_dense_audit(spec, params):
    """The closed-form worst ratio equals the certified audit of the brute-force dense matrix, exactly."""
    a = adapt_spec(spec, params)
    r = audit(dense_mechanism(a), 1, ldp=True)
    assert r.ratio_lower == r.ratio_upper == a.structure.ratio()
    res = audit_adapted(a, 1)
    assert res.ratio_lower == res.ratio_upper == r.ratio_lower


def _matmul(A, B):
    return [[sum(A[i][k] * B[k][j] for k in range(len(B))) for j in range(len(B[0]))] for i in range(len(A))]


def test_compositions_are_matrix_products():
    """Longitudinal = first round then second round: the structure's channel is the product of the rounds'."""
    from rldp_verify.structured import BitChannel, Symmetric, UnaryProduct, compose

    g1, g2 = Symmetric(4, Fraction(1, 2), Fraction(1, 6)), Symmetric(4, Fraction(2, 5), Fraction(1, 5))
    got = compose(g1, g2).dense()[0]
    assert got == _matmul(g2.dense()[0], g1.dense()[0])
    b1, b2 = BitChannel(Fraction(1, 2), Fraction(1, 5)), BitChannel(Fraction(3, 4), Fraction(1, 3))
    u = compose(UnaryProduct(3, b1), b2).dense()[0]
    # per-bit second round on {0,1}^3: the Kronecker power of the 2 x 2 kernel
    K = [[b2.prob(o, i) for i in (0, 1)] for o in (0, 1)]
    outs = [(a, b, c) for a in (0, 1) for b in (0, 1) for c in (0, 1)]
    K3 = [[K[y[0]][z[0]] * K[y[1]][z[1]] * K[y[2]][z[2]] for z in outs] for y in outs]
    assert u == _matmul(K3, UnaryProduct(3, b1).dense()[0])


# ------------------------------------------------------------------------------------------ pure-ldp


def test_pure_ldp_112_oue_bug_found_exactly():
    assert pure_ldp_has_ue_bug()           # the test extras pin pure-ldp 1.1.2
    client = pure_ldp.UEClient(0.25, 2, use_oue=True, index_mapper=lambda x: x)
    r = audit_adapted(client, 0.25)
    assert r.verdict == "FAIL" and "not float64 rounding" in r.notes[0]
    lo, hi = (float(v) for v in r.eps_realised())
    assert abs(lo - math.log(math.exp(0.25) + 2)) < 1e-15
    # exactly 1 + 1/q' with q' = Pr[U < cdf[0]] = ceil(q 2^53) / 2^53, the event numpy's choice draws
    q_ev = sm.prob_lt(sm.numpy_choice_first([client.q, 1 - client.q]))
    assert r.ratio_lower == r.ratio_upper == 1 + 1 / q_ev
    _seed(1)
    _fits(channel(client), lambda x: client.privatise(x), label=_bits)


@pytest.mark.parametrize("d", [2, 16, 1024, 65536])
def test_pure_ldp_112_bugs_at_every_d(d):
    for oue, eps_bug in ((True, math.log(math.exp(0.25) + 2)), (False, None)):
        r = audit_adapted(pure_ldp.UEClient(0.25, d, use_oue=oue, index_mapper=lambda x: x), 0.25)
        assert r.verdict == "FAIL"
        if eps_bug:
            assert abs(float(r.eps_realised()[0]) - eps_bug) < 1e-15
        else:
            assert abs(float(r.eps_realised()[0]) - 1.2288) < 1e-4


def _ue_120_like():
    """A UEClient whose _perturb clears the true bit before the random() < p draw (pure-ldp 1.2.0's fix, as its
    wheel's ue_client.py does; written here, not copied)."""
    base = pure_ldp.UEClient

    class UEClient(base):
        def _perturb(self, index):
            vec = np.random.choice([1, 0], size=self.d, p=[self.q, 1 - self.q])
            vec[index] = 0
            if random.random() < self.p:
                vec[index] = 1
            return vec
    UEClient.__module__ = base.__module__
    return UEClient


def test_pure_ldp_fixed_version_channel(monkeypatch):
    import rldp_verify.adapters as ad
    import rldp_verify.adapters.pure_ldp as ad_pure_ldp

    assert not ad.pure_ldp_has_ue_bug("1.2.0") and ad.pure_ldp_has_ue_bug("1.1.2")
    real = ad_pure_ldp._version
    monkeypatch.setattr(ad_pure_ldp, "_version", lambda dist: "1.2.0" if dist == "pure-ldp" else real(dist))
    client = _ue_120_like()(0.25, 3, use_oue=True, index_mapper=lambda x: x)
    a = adapt(client)
    assert "bit not cleared" not in a.name and "cleared, then set" in a.notes[0]
    assert abs(float(audit_adapted(a, 1).eps_realised()[0]) - 0.25) < 1e-15
    _seed(11)
    _fits(dense_mechanism(a), lambda x: client.privatise(x), label=_bits)
    # 1.1.2's code under a version number that says 1.2.0: refused, not guessed
    with pytest.raises(InputError, match="does not clear the true bit, which the version number does not say"):
        adapt(pure_ldp.UEClient(0.25, 3, use_oue=True, index_mapper=lambda x: x))


def test_pure_ldp_de_is_grr():
    client = pure_ldp.DEClient(1.0, 4, index_mapper=lambda x: x)
    m = channel(client)
    p_ev = sm.prob_lt(client.p)           # random.random() < p
    assert m.matrix[0][0] == p_ev and m.matrix[1][0] == (1 - p_ev) / 3
    _seed(2)
    _fits(m, lambda x: client.privatise(x))


@pytest.fixture
def xxhash3(monkeypatch):
    """xxhash < 4 behaviour (str hashed as its UTF-8 bytes) for the libraries' own LH samplers."""
    import xxhash

    orig = xxhash.xxh32
    monkeypatch.setattr(xxhash, "xxh32", lambda s, seed=0: orig(s.encode() if isinstance(s, str) else s,
                                                                  seed=int(seed) & 0xFFFFFFFF))


def _lh_fits(a, sample, d, n=4000):
    """Pr[reported bucket = h_seed(x)] = a.structure.a over fresh seeds (the rest: g - 1 buckets of b)."""
    from rldp_verify.adapters import _lh_hash

    g = a.structure.g
    for x in range(d):
        hits = sum(1 for _ in range(n) if (lambda o: int(o[0]) == _lh_hash(x, int(o[1]), g))(sample(x)))
        exp = [float(a.structure.a) * n, float((g - 1) * a.structure.b) * n]
        assert chisquare([hits, n - hits], exp).pvalue > 1e-6


def test_pure_ldp_lh(xxhash3):
    for client in (pure_ldp.LHClient(1.0, 4, use_olh=True, index_mapper=lambda x: x),
                   pure_ldp.LHClient(0.5, 3, index_mapper=lambda x: x)):
        a = adapt(client)
        keep = 1 - (1 - sm.prob_le(client.p - client.q))
        assert a.structure.a == keep + (1 - keep) / client.g
        _seed(3)
        _lh_fits(a, client.privatise, client.d)


def test_xxhash4_is_explained():
    import xxhash

    from rldp_verify.adapters import xxhash_problem

    client = pure_ldp.LHClient(1.0, 4, use_olh=True, index_mapper=lambda x: x)
    if xxhash.VERSION.split(".")[0] >= "4":
        with pytest.raises(TypeError):
            client.privatise(0)
        msg = xxhash_problem()
        assert "xxhash<4" in msg and "TypeError" in msg and msg in adapt(client).notes
    else:  # pragma: no cover - an environment with xxhash 3
        assert xxhash_problem() is None


def test_pure_ldp_he_is_the_ideal_laplace():
    client = pure_ldp.HEClient(1.0, 8, index_mapper=lambda x: x)
    r = audit_adapted(client, 1)
    assert r.verdict == "PASS" and "ideal continuous Laplace" in r.sampler
    assert audit_adapted(client, 0.999).verdict == "FAIL"
    from scipy.stats import kstest

    np.random.seed(4)
    noise = np.concatenate([client.privatise(0) - np.eye(8)[0] for _ in range(500)])
    assert kstest(noise, "laplace", args=(0, 2.0)).pvalue > 1e-6


# ------------------------------------------------------------------------------------------ multi-freq-ldpy


def test_multi_freq_ldpy_grr_and_ue():
    from multi_freq_ldpy.pure_frequency_oracles.GRR import GRR_Client
    from multi_freq_ldpy.pure_frequency_oracles.UE import UE_Client

    g = channel(GRR_Client, k=3, epsilon=1.0)
    u = channel(UE_Client, k=2, epsilon=1.0, optimal=True)
    assert abs(float(audit(u, 1, ldp=True).eps_realised()[0]) - 1.0) < 1e-15
    _seed(5)
    _fits(g, lambda x: GRR_Client(x, 3, 1.0))
    _fits(u, lambda x: UE_Client(x, 2, 1.0, True), label=_bits)


def test_multi_freq_ldpy_lh(xxhash3):
    from multi_freq_ldpy.pure_frequency_oracles.LH import LH_Client

    for eps, opt in ((2.0, True), (0.5, False)):
        a = adapt(LH_Client, k=3, epsilon=eps, optimal=opt)
        _seed(6)
        _lh_fits(a, lambda x: LH_Client(x, 3, eps, opt), 3)


def test_multi_freq_ldpy_ss_order_leaks():
    from multi_freq_ldpy.pure_frequency_oracles.SS import SS_Client

    m = channel(SS_Client, k=4, epsilon=0.5)          # subsets of size 2, as ordered arrays
    assert audit(m, 10, ldp=True).verdict == "FAIL"
    r = audit_adapted(adapt(SS_Client, k=4, epsilon=0.5), 10)
    assert r.ratio_lower == math.inf and "first entry" in " ".join(r.notes)
    s = adapt(SS_Client, k=4, epsilon=0.5, as_set=True)
    assert abs(math.log(s.structure.ratio()) - 0.5) < 1e-12
    _seed(7)
    _fits(m, lambda x: SS_Client(x, 4, 0.5), label=_tuple)


def test_multi_freq_ldpy_longitudinal_samplers():
    import importlib

    for name in ("L_GRR", "L_SUE", "L_OUE", "L_OSUE", "L_SOUE"):
        fn = getattr(importlib.import_module(f"multi_freq_ldpy.long_freq_est.{name}"), f"{name}_Client")
        m = channel(fn, k=3, eps_perm=2.0, eps_1=1.0)
        _seed(8)
        _fits(m, lambda x: fn(x, 3, 2.0, 1.0), n=3000, label=str if name == "L_GRR" else _bits)


def test_multi_freq_ldpy_smp_sampler():
    from multi_freq_ldpy.mdim_freq_est.SMP_solution import SMP_GRR_Client

    a = adapt(SMP_GRR_Client, lst_k=[2, 3], epsilon=1.0)
    m = dense_mechanism(a)
    tuples = [(i, j) for i in range(2) for j in range(3)]
    _seed(9)
    _fits(m, lambda x: SMP_GRR_Client(tuples[x], [2, 3], 2, 1.0), n=3000, label=lambda o: f"{o[0]}:{o[1]}")
    big = audit_adapted(adapt(SMP_GRR_Client, lst_k=[65536, 1024, 2], epsilon=1.0), 1)
    assert abs(float(big.eps_realised()[0]) - 1) < 1e-12


def test_multi_freq_ldpy_rspfd_grr():
    """RS+FD with GRR: the tuples that differ in every attribute see the amplified eps ln(D (e^eps - 1) + 1)."""
    from multi_freq_ldpy.mdim_freq_est.RSpFD_solution import RSpFD_GRR_Client

    a = adapt(RSpFD_GRR_Client, lst_k=[2, 3], epsilon=1.0)
    r = audit_adapted(a, 1)
    assert r.verdict == "FAIL" and abs(float(r.eps_realised()[0]) - math.log(2 * (math.e - 1) + 1)) < 1e-12
    tuples = [(i, j) for i in range(2) for j in range(3)]
    _seed(12)
    _fits(dense_mechanism(a), lambda x: RSpFD_GRR_Client(list(tuples[x]), [2, 3], 2, 1.0), n=3000,
          label=lambda o: ",".join(str(int(v)) for v in o))


def test_multi_freq_ldpy_rspfd_ue_zero():
    """RS+FD with UE and zero-vector fake data (OUE-z, SUE-z): exact against the dense channel (SMALL above), the
    tuples differing in every attribute see the amplified eps, and the library's sampler fits the channel."""
    from multi_freq_ldpy.mdim_freq_est.RSpFD_solution import RSpFD_UE_zero_Client

    for optimal in (True, False):
        a = adapt(RSpFD_UE_zero_Client, lst_k=[2, 3], epsilon=1.0, optimal=optimal)
        r = audit_adapted(a, 1)
        assert r.verdict == "FAIL" and abs(float(r.eps_realised()[0]) - math.log(2 * (math.e - 1) + 1)) < 1e-12
        tuples = [(i, j) for i in range(2) for j in range(3)]
        _seed(13)
        _fits(dense_mechanism(a), lambda x, o=optimal: RSpFD_UE_zero_Client(list(tuples[x]), [2, 3], 2, 1.0, o),
              n=3000, label=lambda out: ",".join(_bits(v) for v in out))
    big = audit_adapted(adapt(RSpFD_UE_zero_Client, lst_k=[65536, 1024, 2], epsilon=1.0), 1)
    assert abs(float(big.eps_realised()[0]) - math.log(3 * (math.e - 1) + 1)) < 1e-9
    with pytest.raises(InputError, match="lst_k"):
        adapt(RSpFD_UE_zero_Client, lst_k=[1, 3], epsilon=1.0)


def test_multi_freq_ldpy_he():
    from multi_freq_ldpy.pure_frequency_oracles.HE import HE_Client

    r = audit_adapted(adapt(HE_Client, k=4, epsilon=0.5), 0.5)
    assert r.verdict == "PASS" and r.structure.startswith("histogram encoding")
    from scipy.stats import kstest

    _seed(10)
    noise = np.concatenate([HE_Client(1, 4, 0.5) - np.eye(4)[1] for _ in range(500)])
    assert kstest(noise, "laplace", args=(0, 4.0)).pvalue > 1e-6


def test_opendp_randomized_response():
    import opendp.prelude as dp

    dp.enable_features("contrib")
    m = channel(dp.m.make_randomized_response, categories=["a", "b", "c"], prob=0.75)
    r = audit(m, 1, ldp=True)
    claimed = dp.m.make_randomized_response(["a", "b", "c"], 0.75).map(1)
    assert Fraction(r.eps_realised()[1]) <= Fraction(claimed)    # OpenDP's privacy map is not below the truth
    meas = dp.m.make_randomized_response(["a", "b", "c"], 0.75)
    _fits(m, lambda x: meas(["a", "b", "c"][x]), n=3000)
    with pytest.raises(InputError, match="unsupported opendp Measurement .*not exposed through the Python API"):
        channel(meas)


# ------------------------------------------------------------------------------------------ deployment sizes


@pytest.mark.parametrize("spec, params, eps", [
    ("pure-ldp:UEClient", ["epsilon=1", "d=65536", "use_oue=true"], math.log(math.e + 2)),   # the 1.1.2 bug
    ("multi-freq-ldpy:UE_Client", ["k=65536", "epsilon=1"], 1),
    ("pure-ldp:LHClient", ["epsilon=1", "d=65536", "use_olh=true"], 1),
    ("multi-freq-ldpy:LH_Client", ["k=65536", "epsilon=1"], 1),
    ("multi-freq-ldpy:L_OSUE_Client", ["k=65536", "eps_perm=2", "eps_1=1"], 1),
    ("multi-freq-ldpy:SS_Client", ["k=65536", "epsilon=1", "as_set=true"], 1),
])
def test_deployment_sizes_exactly(spec, params, eps):
    # exact at deployment sizes; the time is measured in benchmarks/bench_protocols.py (no clock in a unit test:
    # the test command must not depend on the machine's load)
    r = audit_adapted(adapt_spec(spec, params), 1)
    assert r.ratio_lower == r.ratio_upper and abs(float(r.eps_realised()[0]) - eps) < 1e-6


# ------------------------------------------------------------------------------------------ verdicts


def test_float_rounding_excess_is_explained_and_accepted_by_tolerance():
    # multi-freq-ldpy GRR at eps = 20: numba's binomial(1, p) draws 1 - p ~ 6e-9 on the 2^-53 grid
    a = adapt_spec("multi-freq-ldpy:GRR_Client", ["k=4", "epsilon=20"])
    r = audit_adapted(a, 20)
    assert r.verdict == "FAIL" and r.notes[0].startswith("FAIL: exceeds the claimed eps by 1.4e-08, from the float "
                                                         "sampler")
    assert 0 < r.excess < r.rounding_budget
    out = r.to_json()
    assert out["excess"] == "0.0000000139" and isinstance(out["rounding_budget"], str)
    ok = audit_adapted(a, 20, tolerance="1e-7")
    assert ok.verdict == "PASS" and ok.notes[0].startswith("PASS within --tolerance 1e-7")
    assert audit_adapted(a, 20, tolerance="1e-9").verdict == "FAIL"
    # the same float p as an exact Bernoulli passes
    assert audit_adapted(adapt_spec("multi-freq-ldpy:GRR_Client", ["k=4", "epsilon=20"], model="ideal"),
                         20).verdict == "PASS"
    # rounding of p itself (not the sampler): multi-freq-ldpy SUE at eps = 1, the ideal channel exceeds too
    b = audit_adapted(adapt_spec("multi-freq-ldpy:UE_Client", ["k=8", "epsilon=1", "optimal=false"]), 1)
    assert b.verdict == "FAIL" and "from float64 rounding of p, q" in b.notes[0]


def test_a_real_excess_is_not_called_rounding():
    r = audit_adapted(pure_ldp.UEClient(1.0, 8, index_mapper=lambda x: x), 1, tolerance="1e-6")
    assert r.verdict == "FAIL" and "not float64 rounding" in r.notes[0]


def test_cli_adapter(capsys):
    argv = ["audit", "--adapter", "pure-ldp:UEClient", "--param", "epsilon=0.25", "--param", "d=65536",
            "--param", "use_oue=true", "--eps", "0.25", "--ldp", "--json"]
    assert main(argv) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["eps_realised"][0].startswith("1.1890699311119189768") and out["excess"] == "0.94"
    assert "choice" in out["sampler_model"] and out["structure"].startswith("product of d per-bit")
    argv = ["audit", "--adapter", "multi-freq-ldpy:GRR_Client", "--param", "epsilon=20", "--param", "k=4",
            "--eps", "20", "--ldp"]
    assert main(argv) == 1
    assert "exceeds the claimed eps by 1.4e-08, from the float sampler" in capsys.readouterr().out
    assert main(argv + ["--tolerance", "1e-7"]) == 0
    capsys.readouterr()
    argv = ["audit", "--adapter", "pure-ldp:UEClient", "--param", "epsilon=0.25", "--param", "d=2",
            "--param", "use_oue=true", "--eps", "0.25", "--full-simplex", "--json"]
    assert main(argv) == 1                                       # dense channel, RLDP audit


# ------------------------------------------------------------------------------------------ bad input


@pytest.mark.parametrize("obj, msg", [(object(), "unsupported object of type builtins.object"),
                                      ([1, 2], "unsupported object of type builtins.list")])
def test_unsupported_object_names_its_type(obj, msg):
    with pytest.raises(InputError, match=msg):
        channel(obj)


def test_unsupported_library_objects():
    with pytest.raises(InputError, match="unsupported pure-ldp object of type .*PCSServer"):
        adapt(_rappor())
    from multi_freq_ldpy.pure_frequency_oracles.GRR import GRR_Aggregator_MI

    with pytest.raises(InputError, match="unsupported multi-freq-ldpy object 'GRR_Aggregator_MI'"):
        adapt(GRR_Aggregator_MI, k=4, epsilon=1.0)


def _rappor():
    return pure_ldp.PCSServer.__new__(pure_ldp.PCSServer)


@pytest.mark.parametrize("extra, msg", [
    (["--param", "dd=2"], "--param 'dd' is not a parameter of pure-ldp:UEClient"),
    (["--param", "d=two"], "--param d='two': not a valid int"),
    ([], "pure-ldp:UEClient needs --param d=..."),
])
def test_cli_adapter_bad_params_exit_2(capsys, extra, msg):
    argv = ["audit", "--adapter", "pure-ldp:UEClient", "--param", "epsilon=0.25", "--eps", "1", "--ldp"] + extra
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("rldp-verify: error: ") and msg in err and len(err.splitlines()) == 1


def test_cli_unknown_and_tolerance_without_ldp(capsys):
    assert main(["audit", "--adapter", "foo:bar", "--eps", "1", "--ldp"]) == 2
    assert "unknown adapter 'foo:bar'" in capsys.readouterr().err
    argv = ["audit", "--adapter", "pure-ldp:DEClient", "--param", "epsilon=1", "--param", "d=3", "--eps", "1",
            "--full-simplex", "--tolerance", "1e-9"]
    assert main(argv) == 2
    assert "--tolerance applies to the structured audits" in capsys.readouterr().err
    argv = ["audit", "--adapter", "pure-ldp:DEClient", "--param", "epsilon=1", "--param", "d=65536", "--eps", "1",
            "--full-simplex"]
    assert main(argv) == 2
    assert "the dense channel would have 4294967296 entries" in capsys.readouterr().err


def test_from_spec_unknown():
    with pytest.raises(InputError, match="unknown adapter 'foo:bar'"):
        from_spec("foo:bar", [])
