"""The semantic mutant catalogue (mutation/catalogue.py) is well-formed, and cheap mutants are killed.

The full mutation run is `make mutation` (not CI); here: >= 40 mutants with unique ids, every patch
target resolves, every mutant applies and reverts cleanly, and two cheap mutants are killed by the
claims named below when run the way `make mutation` runs them (fresh subprocess, patch first).
"""

import sys
import types

import pytest

from rldp_verify.claims.mutants import apply, judge, load_catalogue, resolve, revert, run_subprocess

CATALOGUE = "mutation.catalogue"
MUTANTS, MODULES = load_catalogue(CATALOGUE)


def test_catalogue_size_and_ids():
    assert len(MUTANTS) >= 40
    assert len({m.id for m in MUTANTS}) == len(MUTANTS)
    assert all(m.description and m.claims and m.patches for m in MUTANTS)


def test_catalogue_spreads_over_modules():
    assert len({m.module for m in MUTANTS}) >= 15


@pytest.mark.parametrize("m", MUTANTS, ids=lambda m: m.id)
def test_mutant_applies_and_reverts(m):
    originals = [resolve(p.target, MODULES)[2] for p in m.patches]
    # where the engine's functions were imported by name, the same objects must be rebound and restored
    holders = [(mod, k) for mod in list(sys.modules.values()) if isinstance(mod, types.ModuleType)
               and getattr(mod, "__name__", "").startswith(("rldp_verify", "proofs"))
               for k, v in list(vars(mod).items()) if any(v is o for o in originals if callable(o))]
    before = {(id(mod), k): getattr(mod, k) for mod, k in holders}
    done = apply(m, MODULES)
    try:
        for p, orig in zip(m.patches, originals, strict=True):
            now = resolve(p.target, MODULES)[2]
            assert now is not orig, f"{p.target} not patched"
    finally:
        revert(done)
    for p, orig in zip(m.patches, originals, strict=True):
        assert resolve(p.target, MODULES)[2] is orig, f"{p.target} not restored"
    assert {(id(mod), k): getattr(mod, k) for mod, k in holders} == before


def test_patch_target_errors_are_reported():
    with pytest.raises(AttributeError):
        resolve("uncertainty:no_such_function", MODULES)


@pytest.mark.parametrize("mutant_id, claim_id", [
    ("thm1.bs-chi2-radius", "rldp.audit.joint-projection-theorem1"),
    ("def4.srr-second-case-e", "rldp.ex4.matrices-and-utilities"),
])
def test_cheap_mutant_is_killed(mutant_id, claim_id):
    m = {x.id: x for x in MUTANTS}[mutant_id]
    assert m.selects(claim_id)
    from rldp_verify.claims import Context, discover
    from rldp_verify.claims.runner import run_claim

    claim = {c.id: c for c in discover("proofs")}[claim_id]
    base = {claim_id: {"verdict": run_claim(claim, Context()).verdict.value}}   # unmutated, in this process
    assert base[claim_id]["verdict"] == "VERIFIED", base
    run = run_subprocess(CATALOGUE, mutant_id, [claim_id], timeout=900)      # mutated, fresh interpreter
    rec = judge(m, base, run)
    assert rec["status"] == "killed" and rec["killed_by"] == [claim_id], rec


def test_report_section_renders_mutation_json(tmp_path):
    from rldp_verify.claims.mutants import markdown_section, update_report, wilson_interval
    from rldp_verify.report import mutation_markdown

    assert mutation_markdown(tmp_path) == ""
    sem = {"mutants": [{"id": "x.one", "module": "uncertainty", "description": "a | b", "status": "killed",
                        "killed_by": ["rldp.c1"], "errors": []},
                       {"id": "x.two", "module": "stats", "description": "d", "status": "equivalent",
                        "killed_by": [], "errors": [], "equivalent": "why"}],
           "total": 2, "killed": 1, "survived": 0, "equivalent": 1, "error": 0, "kill_rate": 1.0}
    update_report(tmp_path / "mutation.json", "semantic", sem)
    lo, hi = wilson_interval(70, 100)
    assert 0.60 < lo < 0.70 < hi < 0.79
    update_report(tmp_path / "mutation.json", "generic", {"tool": "mutmut 3.8.1", "modules": ["m"], "killed": 70,
                                                          "survived": 30, "timeout": 0, "kill_rate": 0.7,
                                                          "kill_rate_95ci_wilson": [lo, hi],
                                                          "sample": {"size": 100, "checked": 100, "seed": 1,
                                                                     "random": True}, "total_mutants": 900})
    text = mutation_markdown(tmp_path)
    assert "`x.one`" in text and "`rldp.c1`" in text and "a \\| b" in text and "equivalent: why" in text
    assert "70.0 %" in text and "seed 1" in text
    assert markdown_section(None) == []


def _write_sections(args):
    from rldp_verify.claims.mutants import update_report

    path, section = args
    for i in range(30):
        update_report(path, section, {"i": i})


def test_update_report_concurrent_writers_keep_both_sections(tmp_path):
    # make mutation runs the semantic and the generic layer at the same time, both writing mutation.json:
    # without the lock one writer's read-modify-write can drop the other's section
    import json
    import multiprocessing

    path = tmp_path / "mutation.json"
    with multiprocessing.get_context("fork").Pool(2) as pool:
        pool.map(_write_sections, [(path, "semantic"), (path, "generic")])
    doc = json.loads(path.read_text())
    assert doc == {"semantic": {"i": 29}, "generic": {"i": 29}}


def _crash_fixture(tmp_path):
    """A claims package and a catalogue: under mutant 'crash', claim c.b aborts the interpreter (os.abort, as
    a C library would) and claim c.c says REFUTED; c.a is VERIFIED throughout."""
    import textwrap

    pkg = tmp_path / "fakeproofs_crash"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "flags.py").write_text("MUTATED = False\n")
    (pkg / "claims.py").write_text(textwrap.dedent('''
        import os
        from rldp_verify.claims import Method, Outcome, claim
        from fakeproofs_crash import flags

        def _c(i, f):
            return claim(id=f"c.{i}", paper="000_aca93ed29ea857ee.txt", source="s", statement="s",
                         method=Method.EXACT)(f)

        _c("a", lambda ctx: Outcome.verified("ok"))

        def b(ctx):
            if flags.MUTATED:
                os.abort()
            return Outcome.verified("ok")
        _c("b", b)

        def c(ctx):
            if flags.MUTATED:
                return Outcome.refuted("mutated", counterexample=1, kind="false")
            return Outcome.verified("ok")
        _c("c", c)
        '''))
    (tmp_path / "fakecat_crash.py").write_text(textwrap.dedent('''
        from rldp_verify.claims.mutants import mutant, replace
        MODULES = {"flags": "fakeproofs_crash.flags"}
        MUTANTS = [mutant("crash", "flags", "c.b aborts, c.c refutes", replace("flags:MUTATED", True), "c.*")]
        '''))
    return pkg.name, "fakecat_crash"


def test_a_claim_that_kills_the_interpreter_is_its_error_and_the_others_still_run(tmp_path, monkeypatch):
    pkg, cat = _crash_fixture(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    base = run_subprocess(cat, None, package=pkg, cwd=str(tmp_path))["results"]
    assert {k: v["verdict"] for k, v in base.items()} == {"c.a": "VERIFIED", "c.b": "VERIFIED", "c.c": "VERIFIED"}
    run = run_subprocess(cat, "crash", package=pkg, cwd=str(tmp_path), all_killers=True)
    assert run["results"]["c.b"]["verdict"] == "ERROR" and "died" in run["results"]["c.b"]["summary"]
    assert run["results"]["c.c"]["verdict"] == "REFUTED" and run["results"]["c.a"]["verdict"] == "VERIFIED"
    m = load_catalogue(cat)[0][0]
    rec = judge(m, base, run)
    assert rec["status"] == "killed" and rec["killed_by"] == ["c.c"], rec
    assert any(e.startswith("c.b: the interpreter died") for e in rec["errors"]), rec


def _consistency_fixture(tmp_path):
    """Claims under mutant 'split': k.route's two routes disagree (a ConsistencyFailure), k.crash raises a plain
    error unrelated to any route, k.always fails its consistency check with or without the mutant."""
    import textwrap

    pkg = tmp_path / "fakeproofs_consistency"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "flags.py").write_text("MUTATED = False\n")
    (pkg / "claims.py").write_text(textwrap.dedent('''
        from rldp_verify.claims import ConsistencyFailure, Method, Outcome, claim
        from fakeproofs_consistency import flags

        def _c(i, f):
            return claim(id=f"k.{i}", paper="000_aca93ed29ea857ee.txt", source="s", statement="s",
                         method=Method.EXACT)(f)

        def route(ctx):
            engine, second = (2 if flags.MUTATED else 1), 1
            if engine != second:
                raise ConsistencyFailure(f"routes disagree: {engine} != {second}")
            return Outcome.verified("ok")
        _c("route", route)

        def crash(ctx):
            if flags.MUTATED:
                raise KeyError("unrelated")
            return Outcome.verified("ok")
        _c("crash", crash)

        def always(ctx):
            raise ConsistencyFailure("broken without the mutant too")
        _c("always", always)
        '''))
    (tmp_path / "fakecat_consistency.py").write_text(textwrap.dedent('''
        from rldp_verify.claims.mutants import mutant, replace
        MODULES = {"flags": "fakeproofs_consistency.flags"}
        MUTANTS = [mutant("split", "flags", "the engine's route moves", replace("flags:MUTATED", True), "k.*")]
        '''))
    return pkg.name, "fakecat_consistency"


def test_a_consistency_check_failing_under_the_mutant_kills_it_and_a_crash_does_not(tmp_path, monkeypatch):
    """Issue 24 item 5: an ERROR counts as a detection only when it is a consistency check (ConsistencyFailure)
    failing on a claim that gives a verdict without the mutant; an unrelated crash, or a consistency ERROR the
    unmutated engine gives too, is recorded as an error, never a kill."""
    import os

    pkg, cat = _consistency_fixture(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in (str(tmp_path), os.environ.get("PYTHONPATH")) if p))
    base = run_subprocess(cat, None, package=pkg, cwd=str(tmp_path))["results"]
    assert {k: v["verdict"] for k, v in base.items()} == {"k.route": "VERIFIED", "k.crash": "VERIFIED",
                                                          "k.always": "ERROR"}
    run = run_subprocess(cat, "split", package=pkg, cwd=str(tmp_path), all_killers=True)
    got = run["results"]
    assert got["k.route"]["verdict"] == "ERROR" and got["k.route"].get("consistency") is True, got
    assert got["k.crash"]["verdict"] == "ERROR" and "consistency" not in got["k.crash"], got
    m = load_catalogue(cat)[0][0]
    rec = judge(m, base, run)
    assert rec["status"] == "killed" and len(rec["killed_by"]) == 1, rec
    assert rec["killed_by"][0].startswith("k.route (consistency check failed"), rec
    assert any(e.startswith("k.crash: KeyError") for e in rec["errors"]), rec
    assert any(e.startswith("k.always: ConsistencyFailure") for e in rec["errors"]), rec
    # as `make mutation` runs it (baseline file, stopping at the first kill): the same judgement
    bfile = tmp_path / "baseline.json"
    bfile.write_text(__import__("json").dumps(base))
    staged = run_subprocess(cat, "split", package=pkg, cwd=str(tmp_path), baseline_file=str(bfile))
    assert judge(m, base, staged)["status"] == "killed", staged
    # without the route claim the mutant is not killed: the crash alone is an error, never a detection
    alone = judge(m, base, {"results": {k: v for k, v in got.items() if k != "k.route"}, "seconds": 0})
    assert alone["status"] == "error" and alone["killed_by"] == [], alone
