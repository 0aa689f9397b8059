"""rldp_verify.blackbox.audit_sampler: sound, seeded, RLDP through the auditor's witness, bad input refused."""

import json
import math
import random

import pytest

from rldp_verify.blackbox import audit_sampler, clopper_pearson_lower, clopper_pearson_upper, lh_feature
from rldp_verify.cli import main
from rldp_verify.core.errors import InputError


def rr(x):
    return x if random.random() < 0.75 else 1 - x       # eps = ln 3


def grr4(x):
    return x if random.random() < 0.5 else random.choice([v for v in range(4) if v != x])   # GRR, e^eps = 3


def test_clopper_pearson_bounds():
    assert clopper_pearson_lower(0, 10, 0.95) == 0.0 and clopper_pearson_upper(10, 10, 0.95) == 1.0
    assert abs(clopper_pearson_upper(0, 100, 0.95) - (1 - 0.05 ** (1 / 100))) < 1e-12   # (1 - alpha)^(1/n) rule


def test_rr_bound_is_below_truth_and_seeded():
    a = audit_sampler(rr, [0, 1], 20000, 0.95, seed=7, workers=2, progress=False)
    b = audit_sampler(rr, [0, 1], 20000, 0.95, seed=7, workers=1, progress=False)
    assert 0.8 < a.eps_lower < math.log(3)
    assert a.eps_lower == b.eps_lower and a.counts == b.counts and a.reproducible
    assert a.certification_trials == 10000 and len(a.event) == 1


def test_bound_holds_over_seeds():
    # at confidence 0.99 every one of 10 seeds stays below the true eps = ln 3 (a failure has prob <~ 0.1)
    for seed in range(10):
        assert audit_sampler(rr, [0, 1], 4000, 0.99, seed=seed, workers=1, progress=False).eps_lower < math.log(3)


def test_rldp_single_distribution():
    r = audit_sampler(grr4, [0, 1, 2, 3], 20000, 0.95, seed=2, workers=1, progress=False, sizes=(2, 2),
                      distribution="0.1,0.1;0.2,0.6")
    # GRR with keep-probability 1/2 on 4 values: under P the true eps* = 0.8807 (certified audit)
    assert 0.6 < r.eps_lower < 0.8807 and r.mode.startswith("(eps, F)-RLDP")
    assert sum(r.weights["w1"].values()) == 1 and sum(r.weights["w2"].values()) == 1


@pytest.mark.parametrize("fn, kw, msg", [
    (lambda x: 1 / 0, {}, "the sampler raised ZeroDivisionError on input 0: division by zero"),
    (lambda x: [x], {}, "the sampler returned an unhashable list on input 0"),
    (lambda x: x if random.random() < 0.5 else str(x), {}, "outputs of different types on input 0"),
    (rr, {"inputs": [0]}, "inputs must hold at least 2 values, got 1"),
    (rr, {"trials": 2}, "trials must be an integer >= 4, got 2"),
    (rr, {"confidence": 1.0}, "confidence must be in (0, 1), got 1.0"),
    (rr, {"sizes": (2, 2)}, "sizes = (2, 2) must multiply to the number of inputs 2"),
    (rr, {"distribution": "0.5,0.5"}, "an uncertainty set needs sizes"),
])
def test_bad_input(fn, kw, msg):
    args = {"inputs": [0, 1], "trials": 100, "confidence": 0.95}
    args.update(kw)
    with pytest.raises(InputError) as e:
        audit_sampler(fn, args.pop("inputs"), args.pop("trials"), args.pop("confidence"), workers=1,
                      progress=False, **args)
    assert msg in str(e.value) and "\n" not in str(e.value)


def test_cli(tmp_path, monkeypatch, capsys):
    (tmp_path / "mysampler_t.py").write_text("import random\ndef rr(x):\n    return x if random.random() < 0.75 else 1 - x\n"
                                             "def bad(x):\n    raise RuntimeError('nope')\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["audit-sampler", "mysampler_t:rr", "--inputs", "0,1", "--trials", "4000", "--seed", "1",
                 "--workers", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert isinstance(out["eps_lower"], str) and 0 < float(out["eps_lower"]) < math.log(3)
    assert out["confidence"] == "0.95" and out["schema_version"] == 1 and out["digits"] == 17
    assert all(isinstance(b[0], str) for b in out["bounds"].values()) and out["outputs_seen"] == 2
    assert main(["audit-sampler", "mysampler_t:bad", "--inputs", "0,1", "--trials", "100", "--workers", "1"]) == 2
    assert capsys.readouterr().err.strip() == "rldp-verify: error: the sampler raised RuntimeError on input 0: nope"
    assert main(["audit-sampler", "mysampler_t:rr", "--inputs", "0,1", "--trials", "x"]) == 2


# ------------------------------------------------------------------------------------------ public randomness

G = 4
_H = {}


def olh(x):
    """OLH-like: a fresh public seed per report, the bucket h_seed(x) kept w.p. 3/4 (else uniform), e^eps = 3g/(...)."""
    seed = random.randrange(2**40)
    h = lh_feature([x], G)((0, seed))               # (1,) iff bucket 0 is h_seed(x): recompute the hash directly
    import xxhash

    hx = xxhash.xxh32(str(x).encode(), seed=seed & 0xFFFFFFFF).intdigest() % G
    assert h == (int(hx == 0),)
    y = hx if random.random() < 0.5 else random.randrange(G)
    return (y, seed)


OLH_EPS = math.log((0.5 + 0.5 / G) / (0.5 / G))        # = ln 5


def test_public_seed_outputs_warn_and_feature_gives_a_bound():
    raw = audit_sampler(olh, [0, 1], 4000, 0.95, seed=1, workers=1, progress=False)
    assert raw.warning and "distinct outputs in 8000 draws" in raw.warning and raw.outputs_seen > 7000
    assert raw.eps_lower < 0.2
    f = audit_sampler(olh, [0, 1], 4000, 0.95, seed=1, workers=1, progress=False, feature=lh_feature([0, 1], G))
    assert f.warning is None and f.outputs_seen <= 4 and f.feature == "lh_feature(g=4)"
    assert 0.9 < f.eps_lower < OLH_EPS
    assert f.to_json()["draws"] == 8000


def test_feature_map_that_raises_is_one_line():
    def bad(y):
        raise KeyError("nope")
    with pytest.raises(InputError) as e:
        audit_sampler(olh, [0, 1], 100, 0.95, workers=1, progress=False, feature=bad)
    assert "the feature map bad raised KeyError on the output" in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(InputError, match="the feature map must be callable"):
        audit_sampler(olh, [0, 1], 100, 0.95, workers=1, progress=False, feature=3)


def test_xxhash4_typeerror_is_explained():
    def lib_like(x):
        import xxhash

        return xxhash.xxh32(str(x), seed=1).intdigest() % 2
    import xxhash

    if int(xxhash.VERSION.split(".")[0]) < 4:  # pragma: no cover
        pytest.skip("xxhash < 4 accepts str")
    with pytest.raises(InputError, match="install xxhash<4"):
        audit_sampler(lib_like, [0, 1], 100, 0.95, workers=1, progress=False)


def test_cli_feature_lh(tmp_path, monkeypatch, capsys):
    (tmp_path / "olh_t.py").write_text("from tests.test_blackbox import olh\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    import os

    monkeypatch.syspath_prepend(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert main(["audit-sampler", "olh_t:olh", "--inputs", "0,1", "--trials", "2000", "--workers", "1",
                 "--feature", "lh:4", "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "distinct outputs (feature keys) in 4000 draws" in text and "WARNING" not in text
    assert main(["audit-sampler", "olh_t:olh", "--inputs", "0,1", "--trials", "2000", "--workers", "1",
                 "--quiet"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("WARNING:") and "--feature lh:G" in text and " outputs; all in --json)" in text
    assert main(["audit-sampler", "olh_t:olh", "--inputs", "0,1", "--feature", "lh:x"]) == 2


def test_cli_adapter_sampler(capsys, monkeypatch):
    pytest.importorskip("multi_freq_ldpy")
    assert main(["audit-sampler", "--adapter", "multi-freq-ldpy:GRR_Client", "--param", "k=4", "--param",
                 "epsilon=1", "--inputs", "0,3", "--trials", "4000", "--workers", "1", "--quiet", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert 0.5 < float(out["eps_lower"]) < 1 and out["outputs_seen"] == 4
    # local hashing: refused with the reason under xxhash 4, a bound with the default feature under xxhash < 4
    import xxhash

    argv = ["audit-sampler", "--adapter", "multi-freq-ldpy:LH_Client", "--param", "k=1024", "--param", "epsilon=1",
            "--inputs", "0,1", "--trials", "4000", "--workers", "1", "--quiet"]
    if int(xxhash.VERSION.split(".")[0]) >= 4:
        assert main(argv) == 2
        assert "install xxhash<4" in capsys.readouterr().err
    orig = xxhash.xxh32
    monkeypatch.setattr(xxhash, "xxh32", lambda s, seed=0: orig(s.encode() if isinstance(s, str) else s,
                                                                  seed=int(seed) & 0xFFFFFFFF))
    assert main(argv + ["--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["feature"] == "lh_feature(g=4)" and out["warning"] is None and 0.4 < float(out["eps_lower"]) < 1
    assert main(["audit-sampler", "x:y", "--adapter", "multi-freq-ldpy:GRR_Client", "--inputs", "0,1"]) == 2
    assert "either MODULE:CALLABLE" in capsys.readouterr().err
