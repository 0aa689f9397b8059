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
