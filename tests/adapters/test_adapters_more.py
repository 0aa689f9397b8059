"""multi-freq-ldpy's adaptive (ADP, L_ADP, SMP_ADP, RSpFD_ADP), budget-splitting (SPL_*), RS+FD with random fake data
(RSpFD_UE_rnd), longitudinal local hashing (L_LH) and dBitFlipPM clients: (1) the structure's closed form against
the certified audit of the brute-force dense channel at small sizes, (2) the dense channel against the library's own
sampler at a fixed seed (chi-square), (3) exact at deployment sizes, (4) bad input refused in one line."""

import importlib
import math

import pytest

from rldp_verify.adapters import adapt, adapt_spec, audit_adapted, dense_mechanism
from rldp_verify.cli import main
from rldp_verify.core.errors import InputError
from rldp_verify.rldp.audit import audit
from tests.adapters.test_adapters import _bits, _fits, _lh_fits, _seed, _tuple
from tests.adapters.test_adapters import xxhash3 as xxhash3  # noqa: F401  (the fixture)

pytest.importorskip("multi_freq_ldpy")


def _fn(mod, name):
    return getattr(importlib.import_module(f"multi_freq_ldpy.{mod}"), name)


SMALL = [
    ("multi-freq-ldpy:ADP_Client", ["k=3", "epsilon=1"]),                       # -> GRR
    ("multi-freq-ldpy:ADP_Client", ["k=6", "epsilon=0.1"]),                     # -> OUE
    ("multi-freq-ldpy:L_ADP_Client", ["k=3", "eps_perm=2", "eps_1=1"]),         # -> L_GRR
    ("multi-freq-ldpy:L_ADP_Client", ["k=6", "eps_perm=2", "eps_1=1"]),         # -> L_OSUE
    ("multi-freq-ldpy:L_LH_Client", ["k=4", "eps_perm=2", "eps_1=1"]),
    ("multi-freq-ldpy:L_LH_Client", ["k=3", "eps_perm=1", "eps_1=0.5", "optimal=false"]),
    ("multi-freq-ldpy:dBitFlipPM_Client", ["k=6", "b=3", "d_bits=2", "eps_perm=1"]),
    ("multi-freq-ldpy:dBitFlipPM_Client", ["k=5", "b=3", "d_bits=1", "eps_perm=1"]),
    ("multi-freq-ldpy:dBitFlipPM_Client", ["k=4", "b=1", "d_bits=1", "eps_perm=1"]),
    ("multi-freq-ldpy:SPL_GRR_Client", ["lst_k=2,3", "epsilon=1"]),
    ("multi-freq-ldpy:SPL_UE_Client", ["lst_k=2,2", "epsilon=1", "optimal=false"]),
    ("multi-freq-ldpy:SPL_LH_Client", ["lst_k=2,2", "epsilon=2"]),
    ("multi-freq-ldpy:SPL_SS_Client", ["lst_k=3,2", "epsilon=1"]),
    ("multi-freq-ldpy:SPL_ADP_Client", ["lst_k=2,3", "epsilon=1"]),
    ("multi-freq-ldpy:SMP_ADP_Client", ["lst_k=2,6", "epsilon=0.1"]),
    ("multi-freq-ldpy:RSpFD_UE_rnd_Client", ["lst_k=2,3", "epsilon=1"]),
    ("multi-freq-ldpy:RSpFD_UE_rnd_Client", ["lst_k=2,2,2", "epsilon=0.5", "optimal=false"]),
    ("multi-freq-ldpy:RSpFD_ADP_Client", ["lst_k=2,3", "epsilon=1"]),           # GRR / uniform fake values
    ("multi-freq-ldpy:RSpFD_ADP_Client", ["lst_k=3,2", "epsilon=3"]),           # UE / zero-vector fake data
    ("multi-freq-ldpy:RSpFD_ADP_Client", ["lst_k=6,2", "epsilon=0.1"]),         # mixed
    *[(f"multi-freq-ldpy:{a}_{n}_Client", ["lst_k=2,3", "eps_perm=2", "eps_1=1"]) for a in ("SMP", "SPL")
      for n in ("L_GRR", "L_OUE", "L_OSUE", "L_SUE", "L_SOUE", "L_ADP")],
    ("multi-freq-ldpy:SMP_dBitFlipPM_Client", ["lst_k=4,3", "lst_b=2,3", "d_bits=2", "eps_perm=1"]),
    ("multi-freq-ldpy:SPL_dBitFlipPM_Client", ["lst_k=4,3", "lst_b=2,3", "d_bits=1", "eps_perm=1"]),
]


@pytest.mark.parametrize("spec, params", SMALL, ids=[f"{s}:{','.join(p)}" for s, p in SMALL])
def test_structured_ratio_is_the_dense_audit(spec, params):
    a = adapt_spec(spec, params)
    r = audit(dense_mechanism(a), 1, ldp=True)
    assert r.ratio_lower == r.ratio_upper == a.structure.ratio()
    assert audit_adapted(a, 1).ratio_lower == r.ratio_lower


def test_rspfd_adp_mixed_is_mixed():
    a = adapt_spec("multi-freq-ldpy:RSpFD_ADP_Client", ["lst_k=6,2", "epsilon=0.1"])
    assert "UE/zero, GRR/uniform" in a.name


def test_adp_samplers():
    adp = _fn("pure_frequency_oracles.ADP", "ADP_Client")
    _seed(21)
    _fits(dense_mechanism(adapt(adp, k=3, epsilon=1.0)), lambda x: adp(x, 3, 1.0))
    _fits(dense_mechanism(adapt(adp, k=6, epsilon=0.1)), lambda x: adp(x, 6, 0.1), n=3000, label=_bits)
    l_adp = _fn("long_freq_est.L_ADP", "L_ADP_Client")
    _fits(dense_mechanism(adapt(l_adp, k=3, eps_perm=2.0, eps_1=1.0)), lambda x: l_adp(x, 3, 2.0, 1.0), n=3000)
    _fits(dense_mechanism(adapt(l_adp, k=6, eps_perm=2.0, eps_1=1.0)), lambda x: l_adp(x, 6, 2.0, 1.0), n=3000,
          label=_bits)


def test_l_lh_sampler(xxhash3):  # noqa: F811
    l_lh = _fn("long_freq_est.L_LH", "L_LH_Client")
    for eps_perm, eps_1, opt in ((2.0, 1.0, True), (1.0, 0.5, False)):
        a = adapt(l_lh, k=3, eps_perm=eps_perm, eps_1=eps_1, optimal=opt)
        _seed(22)
        _lh_fits(a, lambda x, e=(eps_perm, eps_1, opt): l_lh(x, 3, *e), 3, n=3000)


def test_dbitflippm_sampler():
    fn = _fn("long_freq_est.dBitFlipPM", "dBitFlipPM_Client")
    _seed(23)
    for k, b, m in ((6, 3, 2), (5, 3, 1)):
        _fits(dense_mechanism(adapt(fn, k=k, b=b, d_bits=m, eps_perm=1.0)), lambda x, k=k, b=b, m=m: fn(x, k, b, m, 1.0),
              n=3000, label=_tuple)


def _tuples(lst_k):
    import itertools

    return list(itertools.product(*[range(k) for k in lst_k]))


def _mixed(out):
    return ",".join(_bits(v) if hasattr(v, "__len__") else str(int(v)) for v in out)


def test_multidimensional_samplers():
    spl_grr, spl_ue = _fn("mdim_freq_est.SPL_solution", "SPL_GRR_Client"), _fn("mdim_freq_est.SPL_solution",
                                                                                 "SPL_UE_Client")
    _seed(24)
    t = _tuples([2, 3])
    _fits(dense_mechanism(adapt(spl_grr, lst_k=[2, 3], epsilon=1.0)), lambda x: spl_grr(list(t[x]), [2, 3], 2, 1.0),
          n=3000, label=_tuple)
    t2 = _tuples([2, 2])
    _fits(dense_mechanism(adapt(spl_ue, lst_k=[2, 2], epsilon=1.0)), lambda x: spl_ue(list(t2[x]), [2, 2], 2, 1.0),
          n=3000, label=_mixed)
    smp = _fn("mdim_freq_est.SMP_solution", "SMP_ADP_Client")
    t3 = _tuples([2, 6])
    _fits(dense_mechanism(adapt(smp, lst_k=[2, 6], epsilon=0.1)), lambda x: smp(list(t3[x]), [2, 6], 2, 0.1),
          n=3000, label=lambda o: f"{o[0]}:{_mixed([o[1]])}")
    rnd = _fn("mdim_freq_est.RSpFD_solution", "RSpFD_UE_rnd_Client")
    _fits(dense_mechanism(adapt(rnd, lst_k=[2, 3], epsilon=1.0)), lambda x: rnd(list(t[x]), [2, 3], 2, 1.0),
          n=3000, label=_mixed)
    adp = _fn("mdim_freq_est.RSpFD_solution", "RSpFD_ADP_Client")
    t4 = _tuples([6, 2])
    _fits(dense_mechanism(adapt(adp, lst_k=[6, 2], epsilon=0.1)), lambda x: adp(list(t4[x]), [6, 2], 2, 0.1),
          n=2000, label=_mixed)


def test_longitudinal_multidimensional_samplers():
    smp = _fn("long_mdim_freq_est.L_SMP_Solution", "SMP_L_GRR_Client")
    spl = _fn("long_mdim_freq_est.L_SPL_Solution", "SPL_dBitFlipPM_Client")
    t = _tuples([2, 3])
    _seed(25)
    _fits(dense_mechanism(adapt(smp, lst_k=[2, 3], eps_perm=2.0, eps_1=1.0)),
          lambda x: smp(list(t[x]), [2, 3], 2, 2.0, 1.0), n=3000, label=lambda o: f"{o[0]}:{int(o[1])}")
    t2 = _tuples([4, 3])
    _fits(dense_mechanism(adapt(spl, lst_k=[4, 3], lst_b=[2, 3], d_bits=1, eps_perm=1.0)),
          lambda x: spl(list(t2[x]), [4, 3], [2, 3], 1, 2, 1.0), n=3000, label=lambda o: ",".join(_tuple(v) for v in o))


@pytest.mark.parametrize("spec, params, eps", [
    ("multi-freq-ldpy:SMP_L_OSUE_Client", ["lst_k=65536,1024", "eps_perm=2", "eps_1=1"], 1),
    ("multi-freq-ldpy:SPL_L_OSUE_Client", ["lst_k=65536,1024", "eps_perm=2", "eps_1=1"], 1),
    ("multi-freq-ldpy:RSpFD_UE_rnd_Client", ["lst_k=65536,1024,2", "epsilon=1"], math.log(3 * (math.e - 1) + 1)),
    ("multi-freq-ldpy:RSpFD_ADP_Client", ["lst_k=65536,1024,2", "epsilon=1"], math.log(3 * (math.e - 1) + 1)),
    ("multi-freq-ldpy:SPL_UE_Client", ["lst_k=65536,1024", "epsilon=1"], 1),
    ("multi-freq-ldpy:SPL_ADP_Client", ["lst_k=65536,1024", "epsilon=1"], 1),
    ("multi-freq-ldpy:ADP_Client", ["k=65536", "epsilon=1"], 1),
    ("multi-freq-ldpy:L_ADP_Client", ["k=65536", "eps_perm=2", "eps_1=1"], 1),
    ("multi-freq-ldpy:L_LH_Client", ["k=65536", "eps_perm=2", "eps_1=1"], 0.948001084313),
    ("multi-freq-ldpy:dBitFlipPM_Client", ["k=65536", "b=1024", "d_bits=64", "eps_perm=1"], 1),
])
def test_deployment_sizes_exactly(spec, params, eps):
    r = audit_adapted(adapt_spec(spec, params), 1)
    assert r.ratio_lower == r.ratio_upper and abs(float(r.eps_realised()[0]) - eps) < 1e-6
    assert "sampler model" in " ".join(r.notes)


@pytest.mark.parametrize("params, msg", [
    (["k=4", "b=5", "d_bits=1", "eps_perm=1"], "b = 5, d_bits = 1 must satisfy 1 <= d_bits <= b <= k = 4"),
    (["k=4", "b=2", "d_bits=0", "eps_perm=1"], "must satisfy 1 <= d_bits"),
    (["k=4", "b=2", "d_bits=1", "eps_perm=-1"], "eps_perm = -1.0 must be a number > 0"),
])
def test_dbitflippm_bad_input_exit_2(capsys, params, msg):
    argv = ["audit", "--adapter", "multi-freq-ldpy:dBitFlipPM_Client", "--eps", "1", "--ldp"]
    for p in params:
        argv += ["--param", p]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert msg in err and len(err.splitlines()) == 1


def test_bad_input():
    with pytest.raises(InputError, match="eps_1 = 2.0 must be < eps_perm"):
        adapt_spec("multi-freq-ldpy:L_LH_Client", ["k=4", "eps_perm=1", "eps_1=2"])
    with pytest.raises(InputError, match="d = 3 must be the number of attributes"):
        adapt_spec("multi-freq-ldpy:SPL_GRR_Client", ["lst_k=2,3", "epsilon=1", "d=3"])
    with pytest.raises(InputError, match="lst_k entry = 1 must be at least 2"):
        adapt(_fn("mdim_freq_est.RSpFD_solution", "RSpFD_UE_rnd_Client"), lst_k=[1, 3], epsilon=1.0)


def test_p_ratio_at_deployment_size():
    """(eps, P)-RLDP of multi-freq-ldpy's GRR and OUE on k = 65536 = 256 x 256 inputs for the uniform P: GRR's ratio
    drops to 1 + (a/b - 1)/256 (the closed form), OUE's stays its eps-LDP ratio."""
    from fractions import Fraction

    from rldp_verify.structured.rldp import p_ratio

    P = [[Fraction(1, 65536)] * 256 for _ in range(256)]
    g = adapt_spec("multi-freq-ldpy:GRR_Client", ["k=65536", "epsilon=5"]).structure
    assert p_ratio(g, P, (256, 256)) == 1 + (g.a / g.b - 1) / 256
    u = adapt_spec("multi-freq-ldpy:UE_Client", ["k=65536", "epsilon=1"]).structure
    assert p_ratio(u, P, (256, 256)) == u.ratio()
