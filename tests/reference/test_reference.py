"""Reference tables: certified values against independent routes, provenance from the claim registry, the CLI."""

import csv
import json
from fractions import Fraction

import mpmath
import pytest

from proofs.reference_claims import REFERENCE_CLAIMS
from rldp_verify.cli import main
from rldp_verify.reference import QUANTITIES, default_grid, evaluate
from rldp_verify.reference.provenance import pinned, resolve
from rldp_verify.reference.registry import parse_point


def test_every_quantity_names_verified_claims_that_exist():
    pins = pinned("proofs")
    assert set(REFERENCE_CLAIMS) == set(QUANTITIES)
    for q, ids in REFERENCE_CLAIMS.items():
        assert ids, q
        for cid in ids:
            assert cid in pins, f"{q}: claim {cid} is not pinned"
            assert pins[cid]["verdict"] == "VERIFIED", f"{q}: claim {cid} is {pins[cid]['verdict']}"


def test_resolve_records_pins_without_running():
    recs = resolve("B_s", run=False)
    assert [r["id"] for r in recs] == list(REFERENCE_CLAIMS["B_s"])
    assert all(r["pinned_verdict"] == "VERIFIED" and "verdict" not in r for r in recs)


def _pt(name, **kw):
    return parse_point(QUANTITIES[name], kw, 0)


def test_xi_alpha2_against_lemma1_closed_form():
    # Lemma 1 (alpha = 2) is an independent route to t-, t+
    for rho, B in (("0.3", "0.1"), ("1e-6", "1e-3"), ("0.9", "1e-10")):
        r_m = evaluate("xi_minus", _pt("xi_minus", rho=rho, alpha="2", B_s=B), dps=30)
        r_p = evaluate("xi_plus", _pt("xi_plus", rho=rho, alpha="2", B_s=B), dps=30)
        with mpmath.workdps(80):
            e, r = mpmath.exp(mpmath.mpf(B)), mpmath.mpf(rho)
            root = mpmath.sqrt((e - 1) * (e - (2 * r - 1) ** 2))
            xm = (e + 2 * r - 1 - root) / (2 * e * r)
            xp = (e + 2 * r - 1 + root) / (2 * e * r)
            assert abs(mpmath.mpf(r_m.value) - xm) <= mpmath.mpf(r_m.error.numerator) / r_m.error.denominator
            assert abs(mpmath.mpf(r_p.value) - xp) <= mpmath.mpf(r_p.error.numerator) / r_p.error.denominator
        assert r_m.error < Fraction(1, 10**28) * Fraction(r_m.value)


def test_B_s_alpha1_is_exact_and_alpha_lt_1_whole_simplex():
    r = evaluate("B_s", _pt("B_s", p_s="0.2", alpha="1", B="0.3"), dps=25)
    assert Fraction(r.value) == Fraction(3, 2) and r.error < Fraction(1, 10**50)
    assert evaluate("B_s", _pt("B_s", p_s="0.3", alpha="0.1", B="10"), dps=25).value == "inf"


def test_rad_s_and_L_match_the_engine():
    from rldp_verify.rldp.uncertainty import RenyiBall

    ball = RenyiBall.from_radius("0.07,0.10;0.26,0.57", 2, "0.0752")
    L = evaluate("L", _pt("L", rho=str(Fraction(7, 17)), p_s="0.17", alpha="2", B="0.0752"), dps=30)
    rad = evaluate("rad_s", _pt("rad_s", cond="7/17,10/17", p_s="0.17", alpha="2", B="0.0752"), dps=30)
    with mpmath.workdps(40):
        assert abs(mpmath.mpf(L.value) - ball.lower_value(0, 0, dps=40)) < mpmath.mpf(10) ** -28
        assert abs(mpmath.mpf(rad.value) - ball.rad_value(0, dps=40)) < mpmath.mpf(10) ** -28


def test_matrices_and_utilities_example4():
    # Example 4 at eps = log 2: GRR 0.4 / 0.2, I_P-hat(GRR) = 0.0419, I_P-hat(SRR) = 0.1005
    eps = "0.69314718055994530941723212145817656807550013436026"   # log 2 to 50 digits
    g = evaluate("grr_matrix", _pt("grr_matrix", eps=eps, a="4"), dps=20)
    assert abs(float(g.value[0][0]) - 0.4) < 1e-15 and abs(float(g.value[0][1]) - 0.2) < 1e-15
    u = evaluate("srr_utility", _pt("srr_utility", eps=eps, phat="0.07,0.10;0.26,0.57"), dps=20)
    assert round(float(u.value), 4) == 0.1005


def test_every_quantity_evaluates_its_first_default_point():
    for name in QUANTITIES:
        pt = default_grid(name)[0]
        r = evaluate(name, pt, dps=20)
        assert r.error >= 0


def test_cli_writes_csv_with_provenance(tmp_path):
    out = tmp_path / "bs.csv"
    assert main(["reference", "B_s", "--no-check-claims", "--dps", "20", "-o", str(out), "--workers", "1"]) == 0
    lines = out.read_text().splitlines()
    assert lines[0].startswith("# rldp-verify 0.1.0 reference table: B_s")
    assert any("claim rldp.thm1.radius-direct-optimisation [not run; pinned VERIFIED]" in ln for ln in lines)
    rows = list(csv.DictReader(ln for ln in lines if not ln.startswith("#")))
    assert len(rows) == 324 and set(rows[0]) == {"p_s", "alpha", "B", "value", "error"}
    assert rows[0]["p_s"] == "1e-12"


def test_cli_json_from_grid_file_runs_claims(tmp_path, capsys):
    grid = tmp_path / "g.csv"
    grid.write_text("eps,a\n1,3\n1e-6,2\n")
    assert main(["reference", "grr_matrix", "--grid", str(grid), "--format", "json", "--dps", "15"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [c["verdict"] for c in doc["provenance"]["claims"]] == ["VERIFIED", "VERIFIED"]
    assert doc["rows"][0]["value"][0][0].startswith("0.5761168847658")
    assert doc["provenance"]["dps"] == 15 and doc["provenance"]["version"] == "0.1.0"


@pytest.mark.parametrize("argv, msg", [
    (["reference", "B_s", "--dps", "x"], "--dps must be an integer, got 'x'"),
    (["reference", "nope"], "unknown quantity 'nope'"),
    (["reference", "B_s", "--format", "xml"], "--format must be csv or json, got 'xml'"),
    (["reference", "B_s", "--grid", "GRID"], "grid point 1: alpha = '-1' must be > 0"),
    (["reference", "B_s", "--grid", "GRID"], None),
])
def test_cli_bad_input_exit_2(tmp_path, capsys, argv, msg):
    g = tmp_path / "g.csv"
    g.write_text("p_s,alpha,B\n0.5,2,0.1\n0.5,-1,0.1\n" if msg else "p_s,alpha,B,zeta\n0.5,2,0.1,1\n")
    argv = [str(g) if a == "GRID" else a for a in argv]
    assert main(argv + ["--no-check-claims"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("rldp-verify: error: ") and len(err.splitlines()) == 1
    assert (msg or "unknown input 'zeta'") in err
