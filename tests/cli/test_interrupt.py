"""Issue 29: an interrupted ``rldp-verify report`` cleans up.

SIGINT (Ctrl-C: to the whole process group, or ``kill -INT`` to the main process only) during a run with
worker processes and a Dask LocalCluster: exit code 130 within seconds, ``OUT/verification-interrupted.json``
with the claims that completed and the ids of those that did not, no report presented as complete, no
traceback (ours or Dask's) on stderr, and no child process left alive.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import psutil
import pytest

PAPER = "000_aca93ed29ea857ee.txt"


def _fake_proofs(tmp_path: Path) -> str:
    pkg = tmp_path / "fakeproofs_interrupt"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "mod_fast.py").write_text(textwrap.dedent(f'''
        from rldp_verify.claims import Method, Outcome, claim

        @claim(id="fake.fast", paper="{PAPER}", source="s", statement="s", method=Method.EXACT)
        def fast(ctx):
            return Outcome.verified("done at once")
        '''))
    (pkg / "mod_slow.py").write_text(textwrap.dedent(f'''
        import time
        from rldp_verify.claims import Method, Outcome, claim

        @claim(id="fake.dask", paper="{PAPER}", source="s", statement="s", method=Method.EXACT, slow=True)
        def on_dask(ctx):
            ctx.map(time.sleep, [120, 120])   # both Dask workers busy
            return Outcome.verified("never reached")

        @claim(id="fake.then", paper="{PAPER}", source="s", statement="s", method=Method.EXACT)
        def then(ctx):
            return Outcome.verified("never reached")
        '''))
    return pkg.name


def _alive(procs: list[psutil.Process]) -> list[str]:
    out = []
    for p in procs:
        try:
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                out.append(f"{p.pid} {' '.join(p.cmdline())[:120]}")
        except psutil.NoSuchProcess:
            pass
    return out


@pytest.mark.parametrize("to_group", [True, False], ids=["ctrl-c-to-the-group", "kill-INT-main-process"])
def test_sigint_writes_partial_json_exits_130_and_leaves_no_child(tmp_path, to_group):
    name = _fake_proofs(tmp_path)
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "rldp_verify", "report", "--proofs", name, "--out", str(out),
                             "--jobs", "2", "--include-slow", "--no-cache"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            start_new_session=True)
    me = psutil.Process(proc.pid)
    seen: list[str] = []
    reader = threading.Thread(target=lambda: seen.extend(iter(proc.stderr.readline, "")), daemon=True)
    reader.start()
    try:
        # wait until the fast claim is done and the slow ones run (in the worker processes and on Dask)
        deadline = time.monotonic() + 90
        children: list[psutil.Process] = []
        while time.monotonic() < deadline:
            time.sleep(0.5)
            children = me.children(recursive=True)
            if any("fake.fast" in line for line in seen) and len(children) >= 4:
                break
        assert proc.poll() is None, proc.communicate()
        time.sleep(2)
        children = me.children(recursive=True)
        assert len(children) >= 4, [c.cmdline() for c in children]   # pool workers, forkserver, nannies, workers
        t0 = time.monotonic()
        if to_group:
            os.killpg(proc.pid, signal.SIGINT)
        else:
            os.kill(proc.pid, signal.SIGINT)
        proc.wait(timeout=60)
        took = time.monotonic() - t0
        reader.join(timeout=10)
        stderr = "".join(seen)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()
    assert proc.returncode == 130, stderr
    assert took < 30, took
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    assert stderr.strip().splitlines()[-1].startswith("rldp-verify: interrupted"), stderr
    assert str(out / "verification-interrupted.json") in stderr
    assert not (out / "verification.json").exists()
    partial = json.loads((out / "verification-interrupted.json").read_text())
    assert partial["complete"] is False and partial["cause"].startswith("interrupted")
    assert [c["id"] for c in partial["claims"]] == ["fake.fast"]
    assert set(partial["not_run"]) == {"fake.dask", "fake.then"}
    deadline = time.monotonic() + 15   # Python's resource tracker ends when it sees the main process gone
    while _alive(children) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _alive(children) == []

