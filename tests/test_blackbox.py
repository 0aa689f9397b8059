"""rldp_verify.blackbox.audit_sampler: sound, seeded, RLDP through the auditor's witness, bad input refused."""

import json
import math
import random

import pytest

from rldp_verify.blackbox import audit_sampler, clopper_pearson_lower, clopper_pearson_upper
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
    assert 0 < out["eps_lower"] < math.log(3) and out["confidence"] == 0.95
    assert main(["audit-sampler", "mysampler_t:bad", "--inputs", "0,1", "--trials", "100", "--workers", "1"]) == 2
    assert capsys.readouterr().err.strip() == "rldp-verify: error: the sampler raised RuntimeError on input 0: nope"
    assert main(["audit-sampler", "mysampler_t:rr", "--inputs", "0,1", "--trials", "x"]) == 2
