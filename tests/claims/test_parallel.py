"""report --jobs N (worker processes) and the Dask fan-out (rldp_verify.core.distributed)."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from rldp_verify.claims import Context
from rldp_verify.core.distributed import DaskCluster, map_tasks
from rldp_verify.core.errors import ExecutionError, InputError

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args, cwd=ROOT, env=None):
    return subprocess.run([sys.executable, "-m", "rldp_verify", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600, env=None if env is None else dict(os.environ, **env))


def _strip_timings(x):
    """Timings vary from run to run whatever the number of jobs: drop every key that holds one."""
    if isinstance(x, dict):
        return {k: _strip_timings(v) for k, v in x.items() if k not in ("seconds", "wall_seconds", "time")}
    if isinstance(x, list):
        return [_strip_timings(v) for v in x]
    return x


def _without_timings(path: Path) -> str:
    return json.dumps(_strip_timings(json.loads(path.read_text())), sort_keys=True, indent=0)


def test_report_jobs_2_equals_jobs_1(tmp_path):
    # a subset from several modules (several groups), with randomised checks (ctx.rng) among them
    a, b = tmp_path / "j1", tmp_path / "j2"
    # rldp.sec3: 4 claims in 3 modules, ~1.4 s, sec3_confidence draws from ctx.rng (rldp.example: 14 s)
    r1 = _cli("report", "--only", "rldp.sec3", "--out", str(a), "--quiet", "--jobs", "1")
    r2 = _cli("report", "--only", "rldp.sec3", "--out", str(b), "--quiet", "--jobs", "2")
    assert r1.returncode == 0 and r2.returncode == 0, r1.stderr + r2.stderr
    doc = json.loads((a / "verification.json").read_text())
    assert len({c["module"] for c in doc["claims"]}) >= 3
    assert _without_timings(a / "verification.json") == _without_timings(b / "verification.json")
    assert (a / "verification.md").read_text().count("####") == (b / "verification.md").read_text().count("####")


def _fake_proofs(tmp_path: Path, body: str) -> str:
    pkg = tmp_path / "fakeproofs_parallel"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "mod_a.py").write_text(textwrap.dedent('''
        from rldp_verify.claims import Method, Outcome, claim

        @claim(id="fake.a1", paper="000_aca93ed29ea857ee.txt", source="s", statement="s", method=Method.EXACT)
        def a1(ctx):
            return Outcome.verified("ok", r=ctx.rng("fake.a1").random())
        '''))
    (pkg / "mod_b.py").write_text(textwrap.dedent(body))
    return pkg.name


def test_report_jobs_worker_dies_is_one_line_exit_2(tmp_path):
    name = _fake_proofs(tmp_path, '''
        import os
        from rldp_verify.claims import Method, Outcome, claim

        @claim(id="fake.b1", paper="000_aca93ed29ea857ee.txt", source="s", statement="s", method=Method.EXACT)
        def b1(ctx):
            os._exit(3)   # the worker process dies

        @claim(id="fake.b2", paper="000_aca93ed29ea857ee.txt", source="s", statement="s", method=Method.EXACT)
        def b2(ctx):
            return Outcome.verified("never reached")
        ''')
    out = tmp_path / "out"
    r = _cli("report", "--proofs", name, "--jobs", "2", "--out", str(out), "--quiet", cwd=tmp_path)
    assert r.returncode == 2, r.stdout + r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rldp-verify: error: run interrupted: a worker process died")
    assert "fake.b2" in lines[0] and "Traceback" not in r.stderr
    assert not (out / "verification.json").exists()          # no partial report presented as complete
    partial = json.loads((out / "verification-interrupted.json").read_text())
    assert partial["complete"] is False and "fake.b2" in partial["not_run"]


def test_report_unreachable_scheduler_is_one_line_exit_2(tmp_path):
    r = _cli("report", "--only", "rldp.example1", "--scheduler", "tcp://127.0.0.1:9", "--out", str(tmp_path),
             "--quiet", env={"RLDP_VERIFY_SCHEDULER_TIMEOUT": "1"})   # nothing listens: no need to wait 10 s
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'" in lines[0], r.stderr
    assert not (tmp_path / "verification.json").exists()


def test_report_bad_jobs():
    r = _cli("report", "--jobs", "0")
    assert r.returncode == 2 and r.stderr.strip() == "rldp-verify: error: --jobs must be at least 1, got 0"


def _square_plus_draw(task):
    import numpy as np

    k, seed = task
    return k * k + float(np.random.default_rng([seed, k]).random())


def test_map_tasks_on_local_cluster_equals_sequential():
    tasks = [(k, 7) for k in range(12)]
    seq = map_tasks(_square_plus_draw, tasks)
    with DaskCluster(n_workers=2, processes=False) as cl:
        par = map_tasks(_square_plus_draw, tasks, scheduler=cl.address)
    assert par == seq


def _die(task):
    import os

    if task == 1:
        os._exit(1)
    return task


def test_map_tasks_worker_dies_raises_execution_error():
    import dask

    # Dask names one of the tasks that were on the dead worker (_die(1); _die(2) when it was
    # already queued there; _die(0) when, on a loaded machine, its result had not left the worker
    # yet); it may also report them as cancelled: either way an ExecutionError, never a result
    with (dask.config.set({"distributed.scheduler.allowed-failures": 0}),
          DaskCluster(n_workers=1, processes=True) as cl,
          pytest.raises(ExecutionError, match=r"a Dask worker died \(Dask gave up on _die\([012]\)|cancelled|lost")):
        map_tasks(_die, [0, 1, 2], scheduler=cl.address)


def test_dask_cluster_bad_input():
    with pytest.raises(InputError, match="positive integer"):
        DaskCluster(n_workers=0)
    with pytest.raises(InputError, match="non-empty string"):
        DaskCluster("  ")


def test_benchmarks_unreachable_scheduler_is_one_line_exit_2():
    r = subprocess.run([sys.executable, "benchmarks/run.py", "--scheduler", "tcp://127.0.0.1:9", "--only", "none"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, RLDP_VERIFY_SCHEDULER_TIMEOUT="1"))
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'" in lines[0], r.stderr


def test_run_claims_jobs_callbacks_and_order(tmp_path, monkeypatch):
    from rldp_verify.claims import discover, run_claims

    name = _fake_proofs(tmp_path, '''
        from rldp_verify.claims import Method, Outcome, claim

        for i in range(4):
            @claim(id=f"fake.b{i}", paper="000_aca93ed29ea857ee.txt", source="s", statement="s",
                   method=Method.EXACT, group="fake-shared" if i % 2 else None)
            def b(ctx, i=i):
                return Outcome.verified(f"b{i}", r=ctx.rng(f"fake.b{i}").random())
        ''')
    monkeypatch.syspath_prepend(str(tmp_path))
    claims = discover(name)
    started, ended = [], []
    seq = run_claims(claims, Context())
    par = run_claims(claims, Context(), jobs=2, package=name, on_start=lambda c: started.append(c.id),
                     progress=lambda r: ended.append(r.claim.id))
    assert [r.claim.id for r in par] == [c.id for c in claims] == [r.claim.id for r in seq]
    assert [(r.verdict, r.summary, r.evidence) for r in par] == [(r.verdict, r.summary, r.evidence) for r in seq]
    assert sorted(started) == sorted(ended) == sorted(c.id for c in claims)
    assert {c.group for c in claims if c.id in ("fake.b1", "fake.b3")} == {"fake-shared"}


def test_scheduler_timeout_is_read_from_the_environment(monkeypatch):
    from rldp_verify.core.distributed import scheduler_timeout

    monkeypatch.delenv("RLDP_VERIFY_SCHEDULER_TIMEOUT", raising=False)
    assert scheduler_timeout() == 10.0
    monkeypatch.setenv("RLDP_VERIFY_SCHEDULER_TIMEOUT", "2.5")
    assert scheduler_timeout() == 2.5
    for bad in ("abc", "0", "-1", "nan"):
        monkeypatch.setenv("RLDP_VERIFY_SCHEDULER_TIMEOUT", bad)
        with pytest.raises(InputError, match="RLDP_VERIFY_SCHEDULER_TIMEOUT"):
            scheduler_timeout()
