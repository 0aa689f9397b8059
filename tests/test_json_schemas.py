"""Issue 13: every JSON output has a schema version and validates against the schema shipped in the package."""

import json
import math
from pathlib import Path

import jsonschema
import pytest

from rldp_verify.cli._json import INF, dec, schema
from tests import _cli_runner

ROOT = Path(__file__).resolve().parents[1]
PHAT = "7,10;26,57"


def cli(*args, stdin=None):
    """``rldp-verify ARGS`` in this process (tests/_cli_runner.py), as ``python -m rldp_verify`` would run it."""
    return _cli_runner.run(*args, stdin=stdin, cwd=ROOT)


def validate(name, text):
    doc = json.loads(text)  # plain stdout: nothing but the JSON
    jsonschema.validate(doc, schema(name), format_checker=jsonschema.FormatChecker())
    assert doc["schema_version"] == 1
    return doc


def _no_json_floats(doc, path="$"):
    """Real values are decimal strings: no JSON number other than ints, except measured seconds."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            _no_json_floats(v, f"{path}.{k}")
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            _no_json_floats(v, f"{path}[{i}]")
    elif isinstance(doc, float):
        assert path.endswith(".seconds"), f"JSON float at {path}: {doc}"


@pytest.mark.parametrize("name", ["ball", "mechanism", "audit", "threshold", "report", "audit_sampler"])
def test_schemas_are_valid_and_shipped(name):
    s = schema(name)
    jsonschema.Draft202012Validator.check_schema(s)
    assert s["properties"]["schema_version"] == {"const": 1}


def test_ball_json_validates():
    out = cli("ball", "--phat", PHAT, "--alpha", "2", "--radius", "0.0752", "--json", "--certified", "--dps", "20")
    doc = validate("ball", out.stdout)
    _no_json_floats(doc)
    assert doc["digits"] == 20 and doc["radius"] == "0.0752"
    inf = validate("ball", cli("ball", "--phat", PHAT, "--alpha", "2", "--radius", "inf", "--json").stdout)
    assert inf["radius"] == INF


@pytest.mark.parametrize("kind", ["grr", "srr", "nr"])
def test_mechanism_json_validates_and_pipes_into_audit(kind):
    out = cli("mechanism", kind, "--eps", "1", "--phat", PHAT)
    assert out.returncode == 0, out.stderr
    doc = validate("mechanism", out.stdout)
    _no_json_floats(doc)
    aud = cli("audit", "-", "--eps", "1", "--phat", PHAT, "--alpha", "2", "--radius", "0.05", "--json", stdin=out.stdout)
    assert aud.returncode in (0, 1, 3), aud.stderr
    a = validate("audit", aud.stdout)
    _no_json_floats(a)
    assert set(a["argmax"]) == {"y", "s", "s_prime", "u", "u_prime"} and a["argmax"]["u"] is None


def test_audit_argmax_keys_are_stable_across_modes():
    mech = cli("mechanism", "grr", "--eps", "1", "--phat", PHAT).stdout
    keys = set()
    for mode in (["--ldp"], ["--full-simplex"], ["--distribution", "0.1,0.1;0.2,0.6"],
                 ["--phat", PHAT, "--alpha", "2", "--radius", "0.05"]):
        out = cli("audit", "-", "--eps", "0.5", "--json", *mode, stdin=mech)
        doc = validate("audit", out.stdout)
        keys.add(tuple(sorted(doc["argmax"])))
    assert keys == {("s", "s_prime", "u", "u_prime", "y")}


def test_threshold_json_validates():
    for args in (["--utility", "kl", "--p0", ".5,.3,.2", "--p1", ".1,.4,.5"],
                 ["--utility", "f", "--p0", ".5,.3,.2", "--p1", ".1,.4,.5"],
                 ["--utility", "mi", "--p", ".4,.3,.2,.1", "--mechanism", "binary"]):
        out = cli("threshold", "--paper", "kairouz", *args, "--json")
        assert out.returncode == 0, out.stderr
        _no_json_floats(validate("threshold", out.stdout))


@pytest.mark.parametrize("mode", [[], ["--sizes", "2,2", "--full-simplex"]])
def test_audit_sampler_json_validates(mode):
    """``audit-sampler --json`` (eps-LDP and (eps, F)-RLDP): decimal strings, no JSON float but the seconds."""
    inputs = "0,1" if not mode else "1,2,3,4"
    out = cli("audit-sampler", "random:getrandbits", "--inputs", inputs, "--trials", "200", "--json", "--quiet",
              "--workers", "1", *mode)
    assert out.returncode == 0, out.stderr
    doc = validate("audit_sampler", out.stdout)
    _no_json_floats(doc)
    assert doc["digits"] == 17 and float(doc["eps_lower"]) > 0 and doc["outputs_seen"] >= 2


def test_report_json_validates(tmp_path):
    out = cli("report", "--only", "rldp.example1", "--out", str(tmp_path), "--quiet")
    assert out.returncode == 0, out.stderr
    validate("report", (tmp_path / "verification.json").read_text())


def test_dec_spelling():
    from fractions import Fraction

    assert dec(Fraction(1, 3), 5) == "0.33333"
    assert dec(math.inf, 5) == INF == "inf"
    assert dec(None, 5) is None
    assert float(dec(Fraction(10) ** -9, 12)) == 1e-9


def test_structured_adapter_audit_json_validates():
    """An audit read from an LDP library (issue 26: adapter, structure, sampler model, excess as decimal strings)."""
    pytest.importorskip("pure_ldp")
    out = cli("audit", "--adapter", "pure-ldp:UEClient", "--param", "epsilon=0.25", "--param", "d=16",
              "--param", "use_oue=true", "--eps", "0.25", "--ldp", "--json")
    assert out.returncode == 1, out.stderr  # pure-ldp 1.1.2's OUE: FAIL
    doc = validate("audit", out.stdout)
    assert doc["structure"] and doc["sampler_model"] and float(doc["excess"]) > 0.9
