import json
import subprocess
import sys
from pathlib import Path

from rldp_verify import report
from rldp_verify.claims import Context, Outcome
from rldp_verify.claims.core import Claim, Method
from rldp_verify.claims.runner import run_claims
from tests import _cli_runner

ROOT = Path(__file__).resolve().parents[1]


def _claims():
    def ok(ctx):
        return Outcome.verified("fine", x="1/3")

    def bad(ctx):
        return Outcome.refuted("wrong", counterexample={"p": [1, 0]}, ours="0.5", kind="wrong-number")

    return [Claim("rldp.t.ok", "000_aca93ed29ea857ee.txt", "Thm 1", "A", ok, (Method.EXACT,)),
            Claim("kairouz.t.bad", "004_3b35ffa09c03afc4.txt", "Lemma 2", "B <tag>", bad, (Method.SYMBOLIC,))]


def test_report_files_and_schema(tmp_path):
    res = run_claims(_claims(), Context())
    doc = report.build(res, report.environment(50, 1, False))
    paths = report.write(doc, tmp_path)
    data = json.loads(paths[0].read_text())
    assert data["summary"] == {"VERIFIED": 1, "REFUTED": 1, "INCONCLUSIVE": 0, "ERROR": 0}
    for c in data["claims"]:
        assert {"id", "paper", "source", "statement", "method", "verdict", "evidence", "seconds"} <= set(c)
    md = paths[1].read_text()
    assert "rldp.t.ok" in md and "**REFUTED**" in md
    html = paths[2].read_text()
    assert "B &lt;tag&gt;" in html  # escaped


def test_report_is_deterministic_up_to_timings(tmp_path):
    def once():
        doc = report.build(run_claims(_claims(), Context()), report.environment(50, 1, False))
        for c in doc["claims"]:
            c["seconds"] = 0
        return json.dumps(doc, sort_keys=True)

    assert once() == once()


def test_cli_report_only_prefix(tmp_path):
    out = _cli_runner.run("report", "--only", "rldp.example1", "--out", str(tmp_path), "--quiet", cwd=ROOT)
    assert out.returncode == 0, out.stderr
    data = json.loads((tmp_path / "verification.json").read_text())
    assert all(c["id"].startswith("rldp.example1") for c in data["claims"])


def test_cli_bad_input_is_one_line_exit_2():
    """The report command's entry point in a real process (the other CLI tests here run it in this one)."""
    out = subprocess.run([sys.executable, "-m", "rldp_verify", "report", "--dps", "1"], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 2
    assert out.stderr.strip().count("\n") == 0 and "dps" in out.stderr


def test_cli_report_from_json_rerenders_with_benchmarks(tmp_path):
    run = ["report", "--only", "rldp.example1", "--out", str(tmp_path), "--quiet"]
    assert _cli_runner.run(*run, cwd=ROOT).returncode == 0
    (tmp_path / "benchmarks").mkdir()
    (tmp_path / "benchmarks" / "x.json").write_text(json.dumps(
        {"title": "Bench X", "columns": ["n", "s"], "rows": [[1, 0.5]], "notes": ["first note", "second note"]}))
    out = _cli_runner.run(*run, "--from-json", cwd=ROOT)
    assert out.returncode == 0, out.stderr
    md = (tmp_path / "verification.md").read_text()
    assert "### Bench X" in md and "- first note" in md and "- second note" in md
    assert json.loads((tmp_path / "verification.json").read_text())["benchmarks"][0]["title"] == "Bench X"
