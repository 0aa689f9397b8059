"""Adapters: exact channels of pure-ldp (1.1.2, installed by the test extras), multi-freq-ldpy and OpenDP;
each channel is checked against the library's own sampler (chi-square goodness of fit)."""

import math
import random
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from scipy.stats import chisquare

from rldp_verify.adapters import channel, from_spec, pure_ldp_has_ue_bug
from rldp_verify.cli import main
from rldp_verify.core.errors import InputError
from rldp_verify.rldp.audit import audit

pure_ldp = pytest.importorskip("pure_ldp.frequency_oracles")


def _fits(mech, sample, n=20000):
    """The library's empirical output frequencies agree with the channel's column (chi-square, p > 1e-6)."""
    for x in range(len(mech.sensitive) * len(mech.public)):
        counts = Counter(sample(x) for _ in range(n))
        expected = [float(mech.matrix[y][x]) * n for y in range(len(mech.outputs))]
        observed = [counts.get(lab, 0) for lab in mech.outputs]
        assert sum(observed) == n, (counts, mech.outputs)
        keep = [i for i, e in enumerate(expected) if e > 0]
        assert all(observed[i] == 0 for i in range(len(expected)) if i not in keep)
        assert chisquare([observed[i] for i in keep], [expected[i] for i in keep]).pvalue > 1e-6


def test_pure_ldp_112_oue_bug_found_exactly():
    assert pure_ldp_has_ue_bug()           # the test extras pin pure-ldp 1.1.2
    client = pure_ldp.UEClient(0.25, 2, use_oue=True, index_mapper=lambda x: x)
    m = channel(client)
    r = audit(m, 0.25, ldp=True)
    assert r.verdict == "FAIL"
    lo, hi = (float(v) for v in r.eps_realised())
    assert abs(lo - math.log(math.exp(0.25) + 2)) < 1e-15 and hi - lo < 1e-19
    # exactly 1 + 1/q for the float q the code uses: the ratio of Pr[bits (1,0)] under inputs 0 and 1
    q = Fraction(client.q)
    assert r.ratio_lower == r.ratio_upper == 1 + 1 / q
    random.seed(1)
    np.random.seed(1)
    _fits(m, lambda x: "".join(str(int(b)) for b in client.privatise(x)))


def test_pure_ldp_fixed_version_channel(monkeypatch):
    import rldp_verify.adapters as ad

    assert not ad.pure_ldp_has_ue_bug("1.2.0") and ad.pure_ldp_has_ue_bug("1.1.2")
    monkeypatch.setattr(ad, "pure_ldp_has_ue_bug", lambda version=None: False)
    m = channel(pure_ldp.UEClient(0.25, 3, use_oue=True, index_mapper=lambda x: x))
    lo, hi = (float(v) for v in audit(m, 1, ldp=True).eps_realised())
    assert abs(lo - 0.25) < 1e-15


def test_pure_ldp_de_is_grr():
    client = pure_ldp.DEClient(1.0, 4, index_mapper=lambda x: x)
    m = channel(client)
    assert m.matrix[0][0] == Fraction(client.p) and m.matrix[1][0] == (1 - Fraction(client.p)) / 3
    random.seed(2)
    _fits(m, lambda x: str(client.privatise(x)))


def test_multi_freq_ldpy_grr_and_ue():
    from multi_freq_ldpy.pure_frequency_oracles.GRR import GRR_Client
    from multi_freq_ldpy.pure_frequency_oracles.UE import UE_Client

    g = channel(GRR_Client, k=3, epsilon=1.0)
    u = channel(UE_Client, k=2, epsilon=1.0, optimal=True)
    assert abs(float(audit(u, 1, ldp=True).eps_realised()[0]) - 1.0) < 1e-15
    _fits(g, lambda x: str(GRR_Client(x, 3, 1.0)), n=5000)
    _fits(u, lambda x: "".join(str(int(b)) for b in UE_Client(x, 2, 1.0, True)), n=5000)


def test_opendp_randomized_response():
    import opendp.prelude as dp

    dp.enable_features("contrib")
    m = channel(dp.m.make_randomized_response, categories=["a", "b", "c"], prob=0.75)
    r = audit(m, 1, ldp=True)
    claimed = dp.m.make_randomized_response(["a", "b", "c"], 0.75).map(1)
    assert Fraction(r.eps_realised()[1]) <= Fraction(claimed)    # OpenDP's privacy map is not below the truth
    meas = dp.m.make_randomized_response(["a", "b", "c"], 0.75)
    _fits(m, lambda x: meas(["a", "b", "c"][x]), n=3000)
    with pytest.raises(InputError, match="Measurement does not expose its parameters"):
        channel(meas)


@pytest.mark.parametrize("obj, msg", [(object(), "unsupported object of type builtins.object"),
                                      ([1, 2], "unsupported object of type builtins.list")])
def test_unsupported_object_names_its_type(obj, msg):
    with pytest.raises(InputError, match=msg):
        channel(obj)


def test_cli_adapter(capsys):
    argv = ["audit", "--adapter", "pure-ldp:UEClient", "--param", "epsilon=0.25", "--param", "d=2",
            "--param", "use_oue=true", "--eps", "0.25", "--ldp", "--json"]
    assert main(argv) == 1
    import json

    out = json.loads(capsys.readouterr().out)
    assert out["eps_realised"][0].startswith("1.1890699311119189768")


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


def test_from_spec_unknown():
    with pytest.raises(InputError, match="unknown adapter 'foo:bar'"):
        from_spec("foo:bar", [])
