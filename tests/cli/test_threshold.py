"""``rldp-verify threshold --paper kairouz`` (rldp_verify.cli.threshold)."""

import json

import pytest

from rldp_verify.cli import main

BASE = ["threshold", "--paper", "kairouz"]


def _json(capsys, *args):
    assert main(BASE + list(args) + ["--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_kl_rr_json(capsys):
    out = _json(capsys, "--utility", "kl", "--p0", "0.5,0.3,0.2", "--p1", "0.1,0.4,0.5")
    assert set(out) >= {"threshold", "bracket", "method", "t_bracket"}
    lo, hi = map(float, out["bracket"])
    assert lo <= float(out["threshold"]) <= hi and hi - lo < 1e-5
    assert out["schema_version"] == 1 and out["digits"] == 12
    assert out["mechanism"] == "rr" and out["kind"] == "bisected"


def test_f_closed_form(capsys):
    out = _json(capsys, "--utility", "f", "--p0", "1/2,3/10,1/5", "--p1", "1/10,2/5,1/2")
    assert out["t_star"] == "17/7"
    lo, hi = map(float, out["bracket"])
    assert lo <= float(out["threshold"]) <= hi


def test_tie_closed_form_is_zero(capsys):
    out = _json(capsys, "--utility", "f", "--p0", "1/2,1/4,1/4", "--p1", "1/4,1/2,1/4")
    assert float(out["threshold"]) == 0.0 and out["t_star"] == "1"


def test_mi_binary_human(capsys):
    assert main(BASE + ["--utility", "mi", "--p", "0.4,0.3,0.2,0.1", "--mechanism", "binary"]) == 0
    text = capsys.readouterr().out
    assert "binary mechanism" in text and "bracket" in text


@pytest.mark.parametrize("args, needle", [
    (["--utility", "kl", "--p0", "0.5,-0.5,1", "--p1", "0.5,0.5,0"], "--p0[1]"),
    (["--utility", "kl", "--p0", "0.5,0.6", "--p1", "0.5,0.5"], "sums to"),
    (["--utility", "kl", "--p0", "0.5,0.5", "--p1", "0.2,0.3,0.5"], "entries"),
    (["--utility", "kl", "--p0", "0.5,0.5", "--p1", "0,1"], "--p1[0]"),
    (["--utility", "mi", "--p0", "0.5,0.5", "--p1", "0.2,0.8"], "--p"),
    (["--utility", "mi", "--p", "abc,1"], "not a number"),
    (["--utility", "f", "--p0", "0.5,0.5", "--p1", "0.2,0.8", "--mechanism", "rr"], "binary"),
    (["--utility", "kl", "--p1", "0.5,0.5"], "--p0 is required"),
    (["--p0", "0.5,0.5", "--p1", "0.2,0.8"], "--utility"),
    (["--utility", "kl", "--p0", "0.5,0.5", "--p1", "0.2,0.8", "--eps-max", "-1"], "eps"),
])
def test_bad_input_exits_2_with_one_line(capsys, args, needle):
    assert main(BASE + args) == 2
    err = capsys.readouterr().err
    assert err.startswith("rldp-verify: error:") and err.count("\n") == 1 and needle in err
