"""``rldp-verify ball`` (000_aca93ed29ea857ee.txt, Secs. 3-4): JSON statistics and one-line errors with exit code 2."""

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from rldp_verify.cli import main

EX = "0.07,0.10;0.26,0.57"


def run(capsys, *argv):
    code = main(["ball", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_example_json(capsys):
    code, out, err = run(capsys, "--phat", EX, "--alpha", "2", "--confidence", "0.95", "--samples", "100", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert float(doc["radius"]) == pytest.approx(0.0752440856339434, abs=1e-15)
    c = doc["conditional"]
    assert [r["s"] for r in c] == [0, 1]
    # Theorem 1: B_s1 = 2 log((e^{B/2} - 0.83)/0.17)
    assert float(c[0]["radius"]) == pytest.approx(0.406733474224221, abs=1e-12)
    assert float(c[1]["radius"]) == pytest.approx(0.0903123159004737, abs=1e-12)
    assert [float(v) for v in c[0]["lower"]] == pytest.approx([0.155222533750403, 0.272720467623376], abs=1e-12)
    assert float(c[0]["rad"]) == pytest.approx(0.631029652988543, abs=1e-12)
    assert all(isinstance(v, str) for r in c for v in r["lower"])  # decimal strings (issue 13)


def test_radius_counts_dps(capsys):
    code, out, _ = run(capsys, "--phat", "7,10;26,57", "--alpha", "2", "--radius", "0.0752", "--dps", "20", "--json",
                       "--certified")
    assert code == 0
    doc = json.loads(out)
    assert doc["radius"] == "0.0752" and doc["digits"] == 20
    r0 = doc["conditional"][0]
    assert Fraction(r0["lower_certified"][0]) <= Fraction(r0["lower"][0])
    assert doc["conditional"][1]["marginal"] == "83/100"


def test_infinite_radius_is_a_string(capsys):
    code, out, _ = run(capsys, "--phat", "1,1;1,1", "--alpha", "1/2", "--radius", "2", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["conditional"][0]["radius"] == "inf"   # e^{(alpha-1)B/alpha} < 1 - P^_s: the whole simplex
    assert [float(v) for v in doc["conditional"][0]["lower"]] == [0, 0]


def test_text_output(capsys):
    code, out, _ = run(capsys, "--phat", EX, "--alpha", "1", "--radius", "0.05")
    assert code == 0 and "B_s" in out and "L_{u|s}" in out


def test_data_file(capsys, tmp_path):
    f = tmp_path / "d.csv"
    f.write_text("a,x\na,y\nb,x\nb,x\n?,y\nb,y\n")
    code, out, err = run(capsys, "--data", str(f), "--sensitive", "0", "--public", "1", "--alpha", "2",
                         "--confidence", "0.9", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["sensitive_values"] == ["a", "b"] and doc["public_values"] == ["x", "y"]
    assert "n = 5 samples" in doc["provenance"]


BAD = [
    ["--phat", "0.5,0.6;0.1,0.1", "--alpha", "2", "--radius", "0.1"],           # not stochastic
    ["--phat", "0.5,-0.1;0.3,0.3", "--alpha", "2", "--radius", "0.1"],          # negative
    ["--phat", "nan,0.5;0.25,0.25", "--alpha", "2", "--radius", "0.1"],         # NaN
    ["--phat", "0.5,0.5;1", "--alpha", "2", "--radius", "0.1"],                 # ragged rows
    ["--phat", "a,b;c,d", "--alpha", "2", "--radius", "0.1"],                   # unparsable
    ["--phat", "", "--alpha", "2", "--radius", "0.1"],                          # empty
    ["--phat", EX, "--alpha", "0", "--radius", "0.1"],                          # alpha <= 0
    ["--phat", EX, "--alpha", "-2", "--radius", "0.1"],
    ["--phat", EX, "--alpha", "two", "--radius", "0.1"],
    ["--phat", EX, "--alpha", "2", "--radius", "-0.1"],                         # radius < 0
    ["--phat", EX, "--alpha", "2", "--radius", "x"],
    ["--phat", EX, "--alpha", "2", "--confidence", "1", "--samples", "100"],    # confidence outside (0, 1)
    ["--phat", EX, "--alpha", "2", "--confidence", "0", "--samples", "100"],
    ["--phat", EX, "--alpha", "2", "--confidence", "95", "--samples", "100"],
    ["--phat", EX, "--alpha", "2", "--confidence", "0.95", "--samples", "0"],   # samples not a positive integer
    ["--phat", EX, "--alpha", "2", "--confidence", "0.95", "--samples", "2.5"],
    ["--phat", EX, "--alpha", "2", "--confidence", "0.95", "--samples", "abc"],
    ["--phat", EX, "--alpha", "2", "--confidence", "0.95"],                     # samples missing
    ["--phat", EX, "--alpha", "2"],                                             # neither radius nor confidence
    ["--phat", EX, "--alpha", "2", "--radius", "0.1", "--confidence", "0.9", "--samples", "10"],
    ["--phat", EX, "--alpha", "2", "--radius", "0.1", "--dps", "x"],
    ["--phat", EX, "--alpha", "2", "--radius", "0.1", "--dps", "2"],
    ["--alpha", "2", "--radius", "0.1"],                                        # no P^
    ["--data", "/nonexistent.csv", "--sensitive", "0", "--public", "1", "--alpha", "2", "--radius", "0.1"],
    ["--data", "/nonexistent.csv", "--alpha", "2", "--radius", "0.1"],
]


@pytest.mark.parametrize("argv", BAD, ids=lambda a: " ".join(a)[:60])
def test_bad_input_one_line_exit_2(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert err.startswith("rldp-verify: error: ") and err.count("\n") == 1, err


def test_subprocess_exit_code():
    p = subprocess.run([sys.executable, "-m", "rldp_verify", "ball", "--phat", "0.5,0.6", "--alpha", "2",
                        "--radius", "0.1"], capture_output=True, text=True)
    assert p.returncode == 2 and p.stderr.count("\n") == 1
