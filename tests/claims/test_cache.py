"""The result cache of ``rldp-verify report`` (issue 28 item 3): a re-run recomputes exactly the claims whose
key changed — their module, an engine or proof module they import, the options — and ``--no-cache`` all.

The end-to-end test runs the CLI in a scratch directory holding a *copy* of the engine (found before the
installed one, since the working directory comes first on ``sys.path``) and a toy proofs package, so that
an engine module can be edited without touching the repository.
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

from rldp_verify.claims import Context, Verdict, discover
from rldp_verify.claims.cache import ResultCache, claim_key, closure
from rldp_verify.claims.core import Result

ROOT = Path(__file__).resolve().parents[2]
PAPER = "000_aca93ed29ea857ee.txt"


def _claim_src(cid: str, engine_module: str, verdict: str = "verified", figure: bool = False) -> str:
    fig = (f'''
    path, rel = ctx.artefact("figures/{cid}.txt")
    path.write_text("drawn")''' if figure else "")
    return f'''
@claim(id="{cid}", paper="{PAPER}", source="s", statement="s", method=Method.EXACT)
def check_{cid.replace(".", "_")}(ctx):
    import {engine_module}  # noqa: F401{fig}
    return Outcome.{verdict}("computed at dps " + str(ctx.dps))
'''


def _toy(tmp_path: Path) -> Path:
    """tmp/rldp_verify (a copy of the engine) and tmp/toyp with modules a (2 claims), b (1 claim, a figure)."""
    shutil.copytree(ROOT / "rldp_verify", tmp_path / "rldp_verify",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    pkg = tmp_path / "toyp"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    head = "from rldp_verify.claims import Method, Outcome, claim\n"
    (pkg / "a.py").write_text(head + _claim_src("toy.a1", "rldp_verify.core.stats")
                              + _claim_src("toy.a2", "rldp_verify.core.stats"))
    (pkg / "b.py").write_text(head + _claim_src("toy.b1", "rldp_verify.core.polytope", figure=True))
    return pkg


def _report(tmp_path: Path, *extra: str) -> dict:
    r = subprocess.run([sys.executable, "-m", "rldp_verify", "report", "--proofs", "toyp", "--out", "out",
                        "--quiet", *extra], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    doc = json.loads((tmp_path / "out" / "verification.json").read_text())
    assert sorted(c["id"] for c in doc["claims"]) == ["toy.a1", "toy.a2", "toy.b1"]
    import re

    n = int(re.search(r"\((\d+) recomputed, (\d+) reused", r.stdout).group(1))
    if n:  # a run that recomputed something records it; one that did not keeps the previous report's record
        assert len(doc["run"]["recomputed"]) == n
    else:
        doc["run"] = {**doc["run"], "recomputed": [], "this run": "nothing recomputed"}
    return doc


def test_rerun_recomputes_exactly_the_claims_whose_key_changed(tmp_path):
    _toy(tmp_path)
    # the premise: the two engine modules are in disjoint parts of the claims' import closures
    base = set(closure("rldp_verify.claims", {"rldp_verify"}))
    assert "rldp_verify.core.polytope" not in base | set(closure("rldp_verify.core.stats", {"rldp_verify"}))
    assert "rldp_verify.core.stats" not in base | set(closure("rldp_verify.core.polytope", {"rldp_verify"}))

    cold = _report(tmp_path)
    assert sorted(cold["run"]["recomputed"]) == ["toy.a1", "toy.a2", "toy.b1"] and cold["run"]["reused"] == 0
    assert all(len(c["key"]) == 64 for c in cold["claims"])
    cold_bytes = (tmp_path / "out" / "verification.json").read_bytes()
    warm = _report(tmp_path)
    assert warm["claims"] == cold["claims"] and warm["run"]["recomputed"] == []
    # a reused claim is the stored result, timing included, and the run record is the cold run's (nothing was
    # recomputed): the re-run rewrites the report byte for byte (git status stays clean)
    assert (tmp_path / "out" / "verification.json").read_bytes() == cold_bytes

    # an engine module that only b imports: b re-runs, a does not (it is reused: the record says so)
    polytope = tmp_path / "rldp_verify" / "core" / "polytope.py"
    polytope.write_text(polytope.read_text() + "\n# edited\n")
    doc = _report(tmp_path)
    assert doc["run"]["recomputed"] == ["toy.b1"] and doc["run"]["reused"] == 2
    # an engine module that only a imports
    stats = tmp_path / "rldp_verify" / "core" / "stats.py"
    stats.write_text(stats.read_text() + "\n# edited\n")
    assert sorted(_report(tmp_path)["run"]["recomputed"]) == ["toy.a1", "toy.a2"]
    # the claim module itself
    a = tmp_path / "toyp" / "a.py"
    a.write_text(a.read_text().replace('"computed at dps "', '"computed, dps "'))
    doc = _report(tmp_path)
    assert sorted(doc["run"]["recomputed"]) == ["toy.a1", "toy.a2"]
    assert all(c["summary"].startswith("computed, dps") for c in doc["claims"] if c["id"].startswith("toy.a"))
    # an option that reaches the checks: all of them
    assert sorted(_report(tmp_path, "--dps", "31")["run"]["recomputed"]) == ["toy.a1", "toy.a2", "toy.b1"]
    assert _report(tmp_path, "--dps", "31")["run"]["recomputed"] == []
    # an artefact that changed on disk: its claim re-runs (and draws it again)
    fig = tmp_path / "out" / "figures" / "toy.b1.txt"
    fig.write_text("tampered")
    assert _report(tmp_path, "--dps", "31")["run"]["recomputed"] == ["toy.b1"]
    assert fig.read_text() == "drawn"
    # --no-cache recomputes everything
    assert len(_report(tmp_path, "--dps", "31", "--no-cache")["run"]["recomputed"]) == 3


def test_the_committed_report_seeds_the_cache(tmp_path):
    """Without OUT/.cache, the keys recorded in OUT/verification.json are enough (a fresh clone)."""
    _toy(tmp_path)
    _report(tmp_path)
    shutil.rmtree(tmp_path / "out" / ".cache")
    assert _report(tmp_path)["run"]["recomputed"] == []


def test_keys_follow_options_and_modules():
    claims = {c.id: c for c in discover("proofs")}
    c = claims["rldp.example1.radius"]
    k = claim_key(c, Context())
    assert k == claim_key(c, Context()) and len(k) == 64
    assert k != claim_key(c, Context(dps=41))
    assert k != claim_key(c, Context(seed=1))
    assert k != claim_key(c, Context(include_slow=True))
    assert k != claim_key(claims["rldp.example1.n-for-radius"] if "rldp.example1.n-for-radius" in claims
                          else next(x for x in claims.values() if x.id != c.id), Context())
    mods = closure(c.module, {"rldp_verify", "proofs"})
    assert c.module in mods and "rldp_verify.claims.core" in mods and "rldp_verify.cli" not in mods


def test_cache_rejects_wrong_keys_errors_and_missing_artefacts(tmp_path):
    c = discover("proofs")[0]
    cache = ResultCache(tmp_path)
    r = Result(c, Verdict.VERIFIED, "ok", {}, 1.0, key="k1", artefacts={"figures/x.png": "0" * 64})
    cache.put(r.to_json())
    assert cache.get(c.id, "k2") is None                 # another key
    assert cache.get(c.id, None) is None                 # no key: never cached
    assert cache.get(c.id, "k1") is None                 # its artefact is missing
    r.artefacts = {}
    cache.put(r.to_json())
    assert cache.get(c.id, "k1")["summary"] == "ok"
    cache.put(Result(c, Verdict.ERROR, "boom", {}, 1.0, key="k3").to_json())
    assert cache.get(c.id, "k3") is None                 # an ERROR is never stored
    assert cache.get(c.id, "k1") is not None



def test_an_interrupted_run_leaves_the_report_directory_as_it_was(tmp_path):
    """Artefacts go to OUT/.staging and reach OUT only with the report: a run that breaks off (here a worker
    process dies after another claim drew its figure) changes nothing in OUT but the interrupted-run file."""
    _toy(tmp_path)
    b = tmp_path / "toyp" / "b.py"
    b.write_text(b.read_text() + _claim_src("toy.b2", "os._exit(3) if True else None; import os"))
    (tmp_path / "toyp" / "b.py").write_text(b.read_text().replace(
        "    import os._exit(3) if True else None; import os  # noqa: F401", "    import os\n    os._exit(3)"))
    r = subprocess.run([sys.executable, "-m", "rldp_verify", "report", "--proofs", "toyp", "--out", "out", "--quiet",
                        "--jobs", "2"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "worker process died" in r.stderr, r.stderr
    out = tmp_path / "out"
    assert not (out / "figures").exists() and not (out / ".staging").exists()
    assert not (out / "verification.json").exists()


def test_keys_do_not_change_when_a_dask_cluster_starts():
    """A LocalCluster sets OMP_NUM_THREADS / MKL_NUM_THREADS / OPENBLAS_NUM_THREADS to 1 in this process: keys
    take their environment snapshot when the cache is created, so the claims keyed after the cluster started
    (the fast ones, in a report with slow claims) get the same keys as in a run without a cluster."""
    import os

    from rldp_verify.claims import cache as cache_mod
    from rldp_verify.core.distributed import DaskCluster

    cache_mod.clear_memo()
    saved = {v: os.environ.get(v) for v in cache_mod.ENV_VARS}
    try:
        for v in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
            os.environ.pop(v, None)
        c = discover("proofs")[0]
        cache = ResultCache("/nonexistent-out-dir")
        before = cache.key(c, Context())
        with DaskCluster(None, n_workers=1):
            changed = os.environ.get("OMP_NUM_THREADS") is not None
            after = claim_key(c, Context())
        assert changed, "premise: the cluster sets the thread variables here"
        assert after == before
    finally:
        for v, x in saved.items():
            if x is None:
                os.environ.pop(v, None)
            else:
                os.environ[v] = x
        cache_mod.clear_memo()
