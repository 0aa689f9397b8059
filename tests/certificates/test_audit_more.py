"""Issue 23: the eps-LDP audit certificate forms of OpenDP's discrete Gaussian (``lattice-gaussian``) and noisy max /
top k (``noisy-max``) (rldp_verify_check.forms_more): accepted at the audit's verdicts, the checker's laws equal to
closed forms, and their wrong twins rejected (a finite upper end, a PASS, an output y too close, an upper end rounded
down, a lower end above the ratio, a verdict flipped, the noise or the scale changed); the CLI route end to end."""

from __future__ import annotations

import copy
import json
import math
import subprocess
import sys

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.audit import structured_certificate
from rldp_verify.structured.audit import Adapted, audit_structured
from rldp_verify.structured.noise import NoisyArgmax, NoisyTopK, UnboundedLoss


def _gauss(lower=0, upper=4, k=0, scale=1.0, size=1, constant=False):
    return UnboundedLoss("discrete Gaussian", str(upper), str(lower), "y -> inf", constant=constant,
                         params={"lattice-gaussian": {"lower": lower, "upper": upper, "k": k, "scale": scale,
                                                      "size": size}})


def _cert(st, eps):
    model = Adapted(st, "test OpenDP form", "exact")
    res = audit_structured(model, eps)
    return res, structured_certificate(res, model, eps)


def _bad(doc, why, **changes):
    d = copy.deepcopy(doc)
    for key, value in changes.items():
        where, name = (d["data"], key[5:]) if key.startswith("data_") else (d["statement"], key)
        where[name] = value
    c = recheck(d)
    assert not c.ok and why in c.message, c.message


# ------------------------------------------------------------------------------------------ lattice-gaussian
@pytest.mark.parametrize(("st", "eps"), [(_gauss(), "1"), (_gauss(), "log(3)"), (_gauss(size=3, scale=2.0), "5"),
                                         (_gauss(0.0, 1.0, -10, 1.0), "1")])
def test_gaussian_fail_accepted_and_twins_rejected(st, eps):
    res, doc = _cert(st, eps)
    assert str(res.verdict) == "FAIL" and recheck(doc).ok, recheck(doc).message
    m, y = doc["statement"]["lattice-gaussian"], doc["data"]["y"]
    i, ip = (math.floor(float(m[x]) / 2 ** m["k"] + 0.5) for x in ("upper", "lower"))
    s2 = (float(m["scale"]) / 2 ** m["k"]) ** 2
    c = m["size"] * (i - ip) * (2 * y - i - ip) / (2 * s2)                  # the log ratio at y, in floats
    assert c > 1 + 1e-9
    _bad(doc, "the ratio is unbounded", ratio_upper="1000")                  # a finite upper end
    _bad(doc, "the ratio is unbounded", verdict="PASS")
    e = {"eps": str(math.ceil(c))} if "eps" in doc["statement"]["eps"] else {"exp_eps": str(math.ceil(math.exp(c)))}
    _bad(doc, "not certain", eps=e)                                            # y's log ratio not above eps
    assert recheck({**doc, "statement": {**doc["statement"], "verdict": "INCONCLUSIVE", "eps": e}}).ok


def test_gaussian_float_margin():
    """At y = 5 (integers 0..4, scale 1) the log ratio 4y - 8 = 12 > 10, but the checker takes the least index its
    float output may hold, y - 2 (log ratio 4 < 10): rejected; at y = 7 accepted."""
    res, doc = _cert(_gauss(), "10")
    assert recheck({**doc, "data": {"y": 7}}).ok
    _bad(doc, "not certain", data_y=5)


def test_gaussian_constant_pass():
    res, doc = _cert(_gauss(0.0, 0.1, 3, constant=True), "0")
    assert str(res.verdict) == "PASS" and recheck(doc).ok
    _bad(doc, "y", **{"lattice-gaussian": {**doc["statement"]["lattice-gaussian"], "upper": "8"}})   # index 1: no y
    _bad(doc, "below the certified bound", ratio_upper="1/2")


# ------------------------------------------------------------------------------------------ noisy-max
CASES = [(NoisyArgmax([[1, 0], [0, 1]], 4.0), 2 * math.exp(0.25) - 1),              # permute-and-flip, two scores
         (NoisyArgmax([[1, 0], [0, 1]], 4.0, "gumbel"), math.exp(0.25)),              # softmax
         (NoisyArgmax([[0, 1], [1, 0]], 4.0, negate=True), 2 * math.exp(0.25) - 1),   # argmin
         (NoisyTopK([[2, 1, 0], [0, 1, 2]], 4.0, "gumbel", k=2), math.exp(0.75)),      # Plackett-Luce
         (NoisyTopK([[2, 1, 0], [0, 1, 2], [1, 1, 1]], 1.0, k=2), None)]               # peeled permute-and-flip


@pytest.mark.parametrize(("st", "rho"), CASES)
def test_noisy_max_accepted_and_twins_rejected(st, rho):
    lo, hi, _ = st.ratio_bounds(20)
    if rho is not None:
        assert float(lo) <= rho * (1 + 1e-12) and rho <= float(hi) * (1 + 1e-12)
    e_pass, e_fail = math.log(float(hi)) * (1 + 1e-6), math.log(float(lo)) * (1 - 1e-6)
    for eps, want in ((f"{e_pass:.12f}", "PASS"), (f"{e_fail:.12f}", "FAIL")):
        res, doc = _cert(st, eps)
        assert str(res.verdict) == want and recheck(doc).ok, recheck(doc).message
        _bad(doc, "is not certain", verdict="FAIL" if want == "PASS" else "PASS")
        low = float(lo) * (1 - 1e-9)
        _bad(doc, "is not certain", ratio_upper=f"{low:.15f}")                  # upper end rounded down
        _bad(doc, "is not certain", ratio_lower=f"{float(hi) * (1 + 1e-9):.15f}")  # lower end above rho
        f = doc["statement"]["noisy-max"]
        if want == "PASS":                                                      # a smaller scale: a larger ratio
            _bad(doc, "is not certain", **{"noisy-max": {**f, "scale": "2"}})
        if st.noise == "exponential" and want == "FAIL":                         # softmax's ratio is smaller
            _bad(doc, "is not certain", **{"noisy-max": {**f, "noise": "gumbel"}})
        _bad(doc, "noisy max needs", **{"noisy-max": {**f, "k": len(f["scores"][0]) + 1}})


# ------------------------------------------------------------------------------------------ CLI end to end
@pytest.mark.slow
@pytest.mark.parametrize("adapter", [["opendp:make_gaussian", "--param", "bounds=0,4", "--param", "scale=1.0"],
                                     ["opendp:make_noisy_max", "--param", "scores=0,1;1,0", "--param", "scale=1.0"]])
def test_cli_writes_and_checks(tmp_path, adapter):
    pytest.importorskip("opendp")
    path = tmp_path / "c.json"
    r = subprocess.run([sys.executable, "-m", "rldp_verify", "audit", "--adapter", *adapter, "--eps", "1", "--ldp",
                        "--certificate", str(path)], capture_output=True, text=True)
    assert r.returncode == 1 and "re-checked" in r.stderr, r.stderr              # FAIL, certificate re-checked
    assert json.loads(path.read_text())["kind"] == "audit"
    r = subprocess.run([sys.executable, "-m", "rldp_verify_check", str(path)], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.startswith("OK"), r.stdout


# ------------------------------------------------------------------------------------------ local hashing under {P}
def test_hash_p_witness_accepted_and_twins_rejected():
    xxhash = pytest.importorskip("xxhash")
    from proofs.rldp.audit_certificate_more import hashing_case

    st, P = hashing_case()
    model = Adapted(st, "test local hashing under P", "exact")
    res = audit_structured(model, "0.5", distribution=P, sizes=(2, 4))
    doc = structured_certificate(res, model, "0.5")
    assert str(res.verdict) == "FAIL" and recheck(doc).ok, recheck(doc).message
    w = doc["data"]["p_witness"]
    for s, row in zip((w["s"], w["s_prime"]), w["buckets"], strict=True):                # the data, re-checked
        assert row == [xxhash.xxh32(str(s * 4 + u).encode("utf-8"), seed=w["seed"]).intdigest() % 8 for u in range(4)]
    assert str(doc["statement"]["ratio_upper"]) == "7"                                    # max(a/b, b/a) above
    moved = [[(v + 1) % 8 for v in w["buckets"][0]], w["buckets"][1]]                   # another bucket: m_s = 0
    _bad(doc, "not attained by a witness", data_p_witness={**w, "buckets": moved})
    _bad(doc, "not attained by a witness", data_p_witness={**w, "s": w["s_prime"], "s_prime": w["s"],
                                                           "buckets": w["buckets"][::-1]})
    _bad(doc, "buckets in [0, 8)", data_p_witness={**w, "y": 8})
    _bad(doc, "secrets s != s'", data_p_witness={**w, "s_prime": w["s"]})
    _bad(doc, "below the certified bound", ratio_upper=str(res.ratio_lower))   # < max(a/b, b/a) = 7
    _bad(doc, "PASS but", verdict="PASS")
