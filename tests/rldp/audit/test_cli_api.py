"""CLI (exit codes, --json keys, errors) and the Python API (numpy, Fractions, JSON file)."""

import json
from fractions import Fraction

import numpy as np
import pytest

from rldp_verify.cli import main
from rldp_verify.core.errors import InputError
from rldp_verify.rldp.audit import audit
from rldp_verify.rldp.mechio import Mechanism

EX3 = {"sensitive": ["s1", "s2"], "public": ["u1", "u2"], "outputs": ["y1", "y2", "y3", "y4"],
       "matrix": [["0.0885", "0.3840", "0.6667", "0.0507"], ["0.0860", "0.3731", "0", "0.3080"],
                  ["0.6162", "0.1813", "0", "0.6159"], ["0.2094", "0.0616", "0.3333", "0.0254"]]}
BALL = ["--phat", "0.07,0.10;0.26,0.57", "--alpha", "2", "--confidence", "0.95", "--samples", "100"]


@pytest.fixture
def ex3(tmp_path):
    p = tmp_path / "ex3.json"
    p.write_text(json.dumps(EX3))
    return str(p)


def test_unnormalised_columns_are_an_error(ex3, capsys):
    assert main(["audit", ex3, "--eps", "log(2)", *BALL]) == 2
    err = capsys.readouterr().err
    assert "column 0 sums to 10001/10000" in err


def test_json_output_and_exit_codes(ex3, capsys):
    assert main(["audit", ex3, "--eps", "log(2)", *BALL, "--normalize", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("verdict", "ratio_lower", "ratio_upper", "eps_realised", "argmax", "witness", "dps", "seconds"):
        assert key in out
    assert set(out["argmax"]) == {"y", "s", "s_prime", "u", "u_prime"}
    assert any("normalized" in n for n in out["notes"])
    assert main(["audit", ex3, "--eps", "0.5", *BALL, "--normalize", "--json"]) == 1
    capsys.readouterr()
    assert main(["audit", ex3, "--eps", "0.5", "--normalize", "--distribution", "0.1,0.1;0.2,0.6"]) == 0
    assert main(["audit", ex3, "--eps", "0.5", "--normalize", "--ldp"]) == 1


def test_inconclusive_exit_code(tmp_path, capsys):
    # a ball audit whose eps sits exactly on the witnessed ratio at a fixed precision is undecided
    Q = [["1/2", "1/5", "3/10", "3/5"], ["1/2", "4/5", "7/10", "2/5"]]
    m = Mechanism.from_matrix(Q, 2, 2)
    r = audit(m, "1", phat=[[3, 5], [4, 7]], alpha=2, radius="1/20", dps=20)
    p = tmp_path / "m.json"
    m.save(p)
    code = main(["audit", str(p), "--eps", f"log({r.ratio_lower})", "--phat", "3,5;4,7", "--alpha", "2",
                 "--radius", "1/20", "--dps", "20", "--max-dps", "20"])
    assert code in (0, 3)
    assert code == 3 or r.ratio_upper == r.ratio_lower


@pytest.mark.parametrize("args,msg", [
    (["--eps", "-1", "--ldp"], "negative"),
    (["--eps", "1", "--phat", "0.07,0.10;0.26,0.57", "--alpha", "0", "--radius", "0.1"], "alpha"),
    (["--eps", "1", "--phat", "0.07,0.10,0.1;0.26,0.47,0", "--alpha", "2", "--radius", "0.1"], "2 x 3"),
    (["--eps", "1", "--phat", "0.07,0.10;0.26,0.57", "--alpha", "2"], "radius"),
    (["--eps", "x", "--ldp"], "not a number"),
])
def test_bad_input_exit_2(ex3, capsys, args, msg):
    assert main(["audit", ex3, "--normalize", *args]) == 2
    assert msg in capsys.readouterr().err


def test_bad_entries(tmp_path, capsys):
    for bad, msg in (("NaN", "not finite"), ("-0.1", "negative")):
        obj = dict(EX3)
        obj["matrix"] = [list(r) for r in EX3["matrix"]]
        obj["matrix"][0][0] = float(bad) if bad == "NaN" else bad
        p = tmp_path / "bad.json"
        p.write_text(json.dumps(obj))
        assert main(["audit", str(p), "--eps", "1", "--ldp", "--normalize"]) == 2
        assert msg in capsys.readouterr().err
    assert main(["audit", str(tmp_path / "missing.json"), "--eps", "1", "--ldp"]) == 2


def test_api_inputs_agree(tmp_path):
    Q = [[Fraction(1, 2), Fraction(1, 5), Fraction(3, 10), Fraction(3, 5)],
         [Fraction(1, 2), Fraction(4, 5), Fraction(7, 10), Fraction(2, 5)]]
    kw = dict(phat=[[3, 5], [4, 7]], alpha=2, radius="1/20", dps=30)
    a = audit(Q, "1", **kw)
    b = audit(np.array([[float(x) for x in r] for r in Q]), "1", **kw)
    m = Mechanism.from_matrix(Q, 2, 2)
    p = tmp_path / "q.json"
    m.save(p)
    c = audit(str(p), "1", **kw)
    assert a.verdict == b.verdict == c.verdict
    assert a.ratio_upper == c.ratio_upper
    assert abs(float(a.ratio_upper) - float(b.ratio_upper)) < 1e-12
    assert any("from_float" in n for n in b.notes)
    with pytest.raises(InputError):
        audit(Q, "1")  # no uncertainty set
    with pytest.raises(InputError):
        audit(Q, "1", phat=[[3, 5], [4, 7]], alpha=-1, radius="1")


def test_data_csv(tmp_path, capsys):
    p = tmp_path / "d.csv"
    p.write_text("s,u\n" + "a,x\n" * 3 + "a,y\n" * 5 + "b,x\n" * 4 + "b,y\n" * 7)
    m = Mechanism.from_matrix([["1/2", "1/5", "3/10", "3/5"], ["1/2", "4/5", "7/10", "2/5"]], 2, 2)
    q = tmp_path / "m.json"
    m.save(q)
    code = main(["audit", str(q), "--eps", "3", "--data", str(p), "--sensitive", "s", "--public", "u",
                 "--alpha", "2", "--confidence", "0.9", "--json"])
    assert code in (0, 1, 3)
    out = json.loads(capsys.readouterr().out)
    assert "n = 19 samples" in out["uncertainty"]


def test_single_distribution_conventions():
    """eq. (62) with 003 eq. (32): 0/0 = 1, x/0 = inf."""
    from rldp_verify.rldp.audit.exact import audit_single
    F = Fraction
    Q = [[F(0), F(0), F(1, 2), F(1, 2)], [F(1), F(1), F(1, 2), F(1, 2)]]
    P = ((F(1, 4), F(1, 4)), (F(1, 4), F(1, 4)))
    rho, arg = audit_single(Q, P, 2, 2)
    assert rho == float("inf") and arg == {"y": 0, "s": 1, "s_prime": 0, "u": None, "u_prime": None}
    Q2 = [[F(0), F(0), F(0), F(0)], [F(1), F(1), F(1), F(1)]]
    assert audit_single(Q2, P, 2, 2)[0] == 1  # 0/0 = 1 and 1/1
    r = audit(Mechanism.from_matrix(Q, 2, 2), "5", distribution=[["1/4", "1/4"], ["1/4", "1/4"]])
    assert r.verdict == "FAIL" and r.ratio_lower == float("inf")


def test_text_output_says_where_the_lower_end_comes_from_and_prints_the_witness_by_rows(tmp_path):
    """Issue 29: 'audit --ldp' said 'attained by a witness in F' (eps-LDP has no F); a 14 x 16 witness printed as
    one 8 KB line."""
    import subprocess
    import sys

    from tests._cli_runner import run as cli

    mech = tmp_path / "srr.json"
    assert cli("mechanism", "srr", "--eps", "1", "--phat", "0.1,0.2;0.3,0.4", "-o", str(mech)).returncode == 0
    # the audit command's entry point once in a real process; the rest in this one (tests/_cli_runner.py)
    run = [sys.executable, "-m", "rldp_verify"]
    ldp = subprocess.run(run + ["audit", str(mech), "--eps", "1", "--ldp"], capture_output=True, text=True).stdout
    assert "attained at the pair of inputs in argmax" in ldp and "witness in F" not in ldp
    ball = cli("audit", str(mech), "--eps", "1", "--phat", "0.1,0.2;0.3,0.4", "--alpha", "2", "--radius", "0.5").stdout
    lines = ball.splitlines()
    i = next(k for k, ln in enumerate(lines) if ln.startswith("witness:"))
    assert "attained by a witness in F" in ball
    assert lines[i + 1].startswith("              [") and not lines[i + 2].startswith("              [")  # 2 rows
