"""benchmarks/run.py re-runs a benchmark only when its key changed (issue 28 item 3)."""

import importlib.util
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run_module():
    spec = importlib.util.spec_from_file_location("bench_run_under_test", ROOT / "benchmarks" / "run.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_key_follows_the_script(tmp_path):
    run = _run_module()
    script = tmp_path / "bench_reference.py"
    shutil.copy(ROOT / "benchmarks" / "bench_reference.py", script)
    k1 = run.bench_key(script)
    assert k1 == run.bench_key(script) and len(k1) == 64
    script.write_text(script.read_text() + "\n# edited\n")
    assert run.bench_key(script) != k1


def test_a_benchmark_whose_json_records_its_key_is_not_rerun(tmp_path, monkeypatch, capsys):
    run = _run_module()
    monkeypatch.setattr(run, "OUT", tmp_path)
    script = ROOT / "benchmarks" / "bench_reference.py"
    (tmp_path / "reference.json").write_text(json.dumps({"title": "t", "key": run.bench_key(script)}))
    monkeypatch.setattr(sys, "argv", ["run.py", "--only", "reference"])
    assert run.main() == 0
    assert "not re-run: reference" in capsys.readouterr().err
    # a stale key would run it: the decision is the key's, checked here without running the benchmark
    (tmp_path / "reference.json").write_text(json.dumps({"title": "t", "key": "0" * 64}))
    assert run._recorded_key("reference") != run.bench_key(script)



def test_key_covers_the_subcommands_and_the_tests_a_script_runs():
    """A CLI-driving benchmark's key covers every subcommand module (rldp_verify.cli loads them by name, which no
    import statement shows), and a benchmark that imports a test module covers that module's engine imports:
    the red-team and extremes-grid benchmarks were once reused after edits of the audit they measure."""
    run = _run_module()
    red = run.bench_deps(ROOT / "benchmarks" / "bench_audit_redteam.py")
    assert {"rldp_verify.cli.audit", "rldp_verify.cli.mechanism", "rldp_verify.rldp.audit.pair"} <= set(red)
    grid = run.bench_deps(ROOT / "benchmarks" / "bench_audit_grid.py")
    assert {"tests.rldp.audit.test_extreme_inputs", "rldp_verify.rldp.audit.pair", "rldp_verify.rldp.audit.grid"} <= set(grid)
