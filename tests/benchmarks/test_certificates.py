"""Issue 23: the benchmark audits' certificates (benchmarks/_certificates.py): a row's certificate is written under
its table's directory and re-checked by the independent checker (also by ``python -m rldp_verify_check`` walking
the report's certificate directory, as ``make check-certificates`` does); a tampered certificate (upper end rounded
down) is rejected and its row says FAILED; a structure without a certificate form says "none" naming it; a
certificate above the size limit is written gzipped (.json.gz), above the gzip limit re-checked in memory and not
written."""

import copy
import json
from fractions import Fraction as F

import pytest

from benchmarks._certificates import Certifier, form
from rldp_verify.certificates.audit import audit_certificate
from rldp_verify.core.errors import InputError
from rldp_verify.report.model import benchmark_certificates
from rldp_verify.rldp.audit import audit
from rldp_verify_check import check_path
from rldp_verify_check.__main__ import main as checker_main

Q = [[F(1, 2), F(1, 6), F(1, 5), F(1, 6)], [F(1, 6), F(1, 2), F(1, 5), F(1, 6)],
     [F(1, 6), F(1, 6), F(2, 5), F(1, 6)], [F(1, 6), F(1, 6), F(1, 5), F(1, 2)]]
BALL = dict(phat="0.07,0.10;0.26,0.57", alpha=2, radius="1/10")


def _ball_certificate(name):
    res = audit(Q, "log(4)", sizes=(2, 2), **BALL)
    assert res.verdict == "PASS"
    return audit_certificate(res, Q, "log(4)", sizes=(2, 2), name=name, **BALL)


def _rounded_down(name):
    doc = copy.deepcopy(_ball_certificate(name))          # the printed upper end one unit of its 20th digit lower
    doc["statement"]["ratio_upper"] = str(F(doc["statement"]["ratio_upper"]) - F(1, 10**20))
    return doc


def test_row_certificate_written_and_rechecked(tmp_path):
    certs = Certifier("audit", root=tmp_path / "certificates" / "benchmarks")
    cell, t_build, t_check = certs.certify("GRR ball", _ball_certificate)
    assert cell == "re-checked (audit: dense Q 4 x 4, Rényi ball)", cell
    assert t_build is not None and t_check is not None
    path = tmp_path / "certificates" / "benchmarks" / "audit" / "grr-ball.json"
    doc = json.loads(path.read_text())
    assert doc["name"] == "benchmark audit: GRR ball" and doc["data"]["pairs"]
    assert [r.ok for r in check_path(path)] == [True]
    # make check-certificates: the checker walks the report's certificate directory, benchmarks included
    assert checker_main([str(tmp_path / "certificates")]) == 0
    assert certs.counts["re-checked"] == 1 and "1 re-checked" in certs.note()


def test_upper_end_rounded_down_fails(tmp_path):
    certs = Certifier("audit", root=tmp_path)
    cell, _, _ = certs.certify("GRR ball rounded down", _rounded_down)
    assert cell.startswith("FAILED: ") and "below the certified bound" in cell, cell
    assert certs.failed == 1
    path = tmp_path / "audit" / "grr-ball-rounded-down.json"        # written all the same: a failure is shown
    assert [r.ok for r in check_path(path)] == [False]
    assert checker_main([str(tmp_path)]) == 1


def test_no_form_is_none_with_reason(tmp_path):
    certs = Certifier("protocols", root=tmp_path)

    def build(name):
        raise InputError("no certificate form for X (RAPPOR) yet: no structured form in rldp_verify_check")
    cell, t_build, t_check = certs.certify("RAPPOR", build)
    assert cell == "none: no certificate form for X (RAPPOR) yet: no structured form in rldp_verify_check"
    assert (t_build, t_check) == (None, None) and not (tmp_path / "protocols").exists()


def test_above_size_limit_written_gzipped(tmp_path):
    """Above max_bytes the certificate is written as .json.gz (the checker and make check-certificates read it);
    a tampered one is written gzipped too, and rejected from the file."""
    import gzip

    certs = Certifier("audit", root=tmp_path, max_bytes=100)
    cell, _, _ = certs.certify("big", _ball_certificate)
    assert cell.startswith("re-checked (audit: dense Q 4 x 4, Rényi ball); written gzipped: "), cell
    path = tmp_path / "audit" / "big.json.gz"
    assert json.loads(gzip.decompress(path.read_bytes()))["name"] == "benchmark audit: big"
    assert not list(tmp_path.rglob("*.json")) and [r.ok for r in check_path(path)] == [True]
    cell, _, _ = certs.certify("big rounded down", _rounded_down)
    assert cell.startswith("FAILED: ") and "below the certified bound" in cell and "gzipped" in cell, cell
    assert [r.ok for r in check_path(tmp_path / "audit" / "big-rounded-down.json.gz")] == [False]
    assert checker_main([str(tmp_path)]) == 1                        # one good, one tampered: the walk finds both
    certs.certify("big", _ball_certificate)                          # a clash with big.json.gz: a numeric suffix
    assert (tmp_path / "audit" / "big-2.json.gz").is_file()


def test_above_size_limit_rechecked_not_written(tmp_path):
    certs = Certifier("audit", root=tmp_path, max_bytes=100, max_gz_bytes=100)
    cell, _, _ = certs.certify("big", _ball_certificate)
    assert cell.startswith("re-checked (audit: dense Q 4 x 4, Rényi ball); not written: "), cell
    assert "gzipped" in cell and "> 0.0001 MB" in cell, cell
    assert not list(tmp_path.rglob("*.json*"))
    cell, _, _ = certs.certify("big rounded down", _rounded_down)   # re-checked in memory all the same
    assert cell.startswith("FAILED: ") and "not written" in cell, cell


def test_stale_files_removed_and_names_distinct(tmp_path):
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "old.json").write_text("{}")
    certs = Certifier("t", root=tmp_path)
    assert not (tmp_path / "t" / "old.json").exists()
    certs.certify("a b", _ball_certificate)
    certs.certify("a-b", _ball_certificate)
    assert sorted(p.name for p in (tmp_path / "t").iterdir()) == ["a-b-2.json", "a-b.json"]


def test_adopted_cli_certificate(tmp_path):
    from rldp_verify.cli import main

    mech = tmp_path / "q.json"
    mech.write_text(json.dumps({"matrix": [[str(v) for v in r] for r in Q], "sensitive": 2, "public": 2}))
    out = tmp_path / "cli.json"
    rc = main(["audit", str(mech), "--eps", "log(4)", "--ldp", "--certificate", str(out), "--json", "--quiet"])
    assert rc in (0, 1)
    certs = Certifier("redteam", root=tmp_path / "certs")
    cell, _, t_check = certs.adopt("case 1", out)
    assert cell == "re-checked (audit: dense Q 4 x 4, eps-LDP)" and t_check is not None
    assert not out.exists() and (tmp_path / "certs" / "redteam" / "case-1.json").is_file()
    assert certs.adopt("case 2", tmp_path / "missing.json")[0] == "none: the command wrote no certificate"


@pytest.mark.parametrize("params, want", [
    ({"k": 4, "epsilon": 1, "optimal": True}, "re-checked (audit: unary, eps-LDP)"),
])
def test_protocol_row(tmp_path, params, want):
    from multi_freq_ldpy.pure_frequency_oracles.UE import UE_Client

    from benchmarks.bench_protocols import _certificate
    from rldp_verify.adapters import adapt
    from rldp_verify.structured import audit_structured

    adapted = adapt(UE_Client, **params)
    res = audit_structured(adapted, 0.25)
    cols = _certificate(Certifier("protocols", root=tmp_path), "OUE", 4, res, adapted)
    assert cols["certificate"] == want and cols["certificate_seconds"]


def test_protocol_row_laplace_histogram_form(tmp_path):
    """THE (HE_Client) had no certificate form; it now has ``laplace-histogram`` (re-checked)."""
    from multi_freq_ldpy.pure_frequency_oracles.HE import HE_Client

    from benchmarks.bench_protocols import _certificate
    from rldp_verify.adapters import adapt
    from rldp_verify.structured import audit_structured

    adapted = adapt(HE_Client, k=4, epsilon=1)
    res = audit_structured(adapted, 0.25)
    cols = _certificate(Certifier("protocols", root=tmp_path), "THE", 4, res, adapted)
    assert cols["certificate"] == "re-checked (audit: laplace-histogram, eps-LDP)", cols   # was "none" before its form


def test_form_and_report_summary():
    doc = _ball_certificate("x")
    assert form(doc) == "audit: dense Q 4 x 4, Rényi ball"
    assert form({"kind": "audit", "statement": {"unary": {}, "set": {"type": "ldp"}}}) == "audit: unary, eps-LDP"
    report = {"benchmarks": [
        {"columns": ["a", "certificate"], "rows": [[1, "re-checked (audit: unary, eps-LDP)"], [2, "none: RAPPOR"],
                                                  [3, "FAILED: below"], [4, None]]},
        {"columns": ["a"], "rows": [[1]]}]}
    line = benchmark_certificates(report)
    assert line == ("Benchmark audits (1 tables, counted apart from the claims): 1 certificates re-checked, "
                    "1 FAILED, 2 rows without one (the reason in the row).")
    assert benchmark_certificates({"benchmarks": [{"columns": ["a"], "rows": []}]}) is None


@pytest.mark.parametrize("spec, params, structure", [
    ("multi-freq-ldpy:dBitFlipPM_Client", ["k=1024", "b=1024", "d_bits=16", "eps_perm=0.25"], "dBitFlipPM"),
    ("multi-freq-ldpy:RSpFD_ADP_Client", ["lst_k=65536,65536", "epsilon=0.25"], "RS+FD"),
])
def test_protocol_row_no_form_without_listing_outputs(tmp_path, spec, params, structure):
    """The deployment rows whose structure had no form: the builder's dense fallback counts the outputs before it
    lists them (it listed C(1024, 16) subsets, 11 GB, before refusing), so the row says "none" at once; dBitFlipPM
    now has the product form (its FAIL certified with a unary witness), re-checked without the dense listing."""
    from benchmarks.bench_protocols import _certificate
    from rldp_verify.adapters import adapt_spec
    from rldp_verify.structured import audit_structured

    adapted = adapt_spec(spec, params)
    res = audit_structured(adapted, 0.25)
    cols = _certificate(Certifier("protocols", root=tmp_path), structure, 1024, res, adapted)
    if structure in ("dBitFlipPM", "RS+FD"):                  # RS+FD: the ``rsfd`` form (test_audit_mfl.py)
        assert cols["certificate"] == f"re-checked (audit: {'product' if structure == 'dBitFlipPM' else 'rsfd'}, " \
            "eps-LDP)", cols
        return
    assert cols["certificate"].startswith("none: no certificate ") and structure in cols["certificate"], cols


def test_redteam_case_certificate(tmp_path):
    """A red-team row: the timed process has no --certificate; a second one writes it, re-checked from the table's
    directory; a case that ends in bad input (exit 2) has none."""
    from benchmarks.bench_audit_redteam import certify_case, run_case

    mech = tmp_path / "q.json"
    mech.write_text(json.dumps({"matrix": [[str(v) for v in r] for r in Q], "sensitive": 2, "public": 2}))
    args = [str(mech), "--eps", "log(4)", "--phat", "0.07,0.10;0.26,0.57", "--alpha", "2", "--radius", "1/10"]
    first = run_case(args)
    assert first["exit"] == 0 and first["verdict"] == "PASS", first
    certs = Certifier("audit_redteam", root=tmp_path / "certs")
    cell, secs = certify_case(certs, "ball", args, first)
    assert cell == "re-checked (audit: dense Q 4 x 4, Rényi ball)" and secs, cell
    assert [r.ok for r in check_path(tmp_path / "certs" / "audit_redteam" / "ball.json")] == [True]
    bad = run_case([str(mech), "--eps", "1", "--alpha", "2"])
    assert bad["exit"] == 2
    assert certify_case(certs, "bad", [], bad) == ("none: no audit verdict (exit 2)", None)


def test_adopted_tampered_file_fails(tmp_path):
    path = tmp_path / "written.json"
    path.write_text(json.dumps(_rounded_down("cli")))
    certs = Certifier("audit_redteam", root=tmp_path / "certs")
    cell, _, _ = certs.adopt("tampered", path)
    assert cell.startswith("FAILED: ") and "below the certified bound" in cell, cell
    assert (tmp_path / "certs" / "audit_redteam" / "tampered.json").is_file() and certs.failed == 1


def test_grid_example_certificate(tmp_path):
    """An example of the extremes grid: its audit again in a forked child, with its certificate, re-checked."""
    from benchmarks.bench_audit_grid import _certificate
    from tests.rldp.audit import test_extreme_inputs as grid

    inst = grid.MONOTONE
    first = grid.run_limited(lambda: grid._audit(inst))
    assert first[0] == "ok", first
    certs = Certifier("audit_grid", root=tmp_path)
    cell = _certificate(certs, 1, inst, first)
    assert cell == "re-checked (audit: dense Q 3 x 4, Rényi ball)", cell
    assert [r.ok for r in check_path(tmp_path / "audit_grid" / "example-001.json")] == [True]
    assert _certificate(certs, 2, inst, ("error", "bad input")) == "none: no audit verdict (error)"


def test_audit_row_float_columns_certified_as_given(tmp_path):
    """bench_audit's rows: an exact Q is certified; float columns that sum to 1 only within rounding (accepted by the
    mechanism file within 1e-12) are certified as given (``"column_sums": "inexact"``: the checker's bounds use Q's
    rows only), and the checker's line says how far the columns are from 1."""
    from benchmarks.bench_audit import _certificate
    from rldp_verify.rldp.mechio import Mechanism
    from rldp_verify.rldp.uncertainty import RenyiBall

    ball = RenyiBall.from_radius([[F(7, 100), F(1, 10)], [F(26, 100), F(57, 100)]], 2, F(1, 10))
    certs = Certifier("audit", root=tmp_path)
    exact = Mechanism.from_matrix(Q, 2, 2)
    res = audit(exact, "log(4)", ball=ball)
    assert certs.certify("exact", lambda n: _certificate(res, exact, "log(4)", ball, n))[0].startswith("re-checked")
    col = [0.1, 0.2, 0.7]                                  # 0.1 + 0.2 + 0.7 != 1 in binary
    assert sum(F(x) for x in col) != 1
    floats = Mechanism.from_matrix([[c] * 4 for c in col], 2, 2)
    res = audit(floats, "log(4)", ball=ball)
    cell = certs.certify("floats", lambda n: _certificate(res, floats, "log(4)", ball, n))[0]
    assert cell.startswith("re-checked"), cell
    (chk,) = check_path(tmp_path / "audit" / "floats.json")
    assert chk.ok and "Q as given, its columns sum to 1 within" in chk.message, chk.message


def test_checker_exception_is_the_rows_failure(tmp_path, monkeypatch):
    """An exception that escapes the checker (OverflowError formatting a ratio of 1e600 as a float, seen on the
    red-team's 1e-300 blocks) fails the row, not the benchmark."""
    import rldp_verify_check

    def boom(path):
        raise OverflowError("integer division result too large for a float")
    monkeypatch.setattr(rldp_verify_check, "check_path", boom)
    cell, _, _ = Certifier("t", root=tmp_path).certify("x", _ball_certificate)
    assert cell == "FAILED: the checker raised OverflowError: integer division result too large for a float", cell
