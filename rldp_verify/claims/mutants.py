"""Semantic mutation testing of the checker: wrong variants of the engine's mathematics.

A *mutant* replaces one or more engine objects (functions, methods, constants) by a wrong variant —
a formula a paper misprints or a careless implementation could contain — and names the claims that
depend on it. Running a mutant runs those claims in a fresh subprocess with the patch applied *before*
the proof modules are imported. The engine knows no papers: mutant catalogues live beside ``proofs/`` (see
``mutation/catalogue.py``, which adds the mutants kept in the papers' folders,
:meth:`rldp_verify.claims.catalogue.Catalogue.mutants`) and are passed to this module by name; the claims come
from the catalogue of papers (``package``: the name :meth:`~rldp_verify.claims.catalogue.Catalogue.load` takes).

Kill rule. A claim *kills* a mutant when it says REFUTED under the mutant and did not say REFUTED on
the unmutated engine (a claim that is REFUTED anyway, because the paper is wrong, cannot tell the
mutant apart); so does the independent checker (issue 23) when it rejects a certificate the claim carries
under the mutant and accepts that claim's certificate on the unmutated engine. An ERROR is a kill only when it is
a consistency check failing (the claim's own expectation of its computation,
:class:`~rldp_verify.claims.core.ConsistencyFailure`: two routes disagree, an identity fails) in a claim that gives
a verdict on the unmutated engine (issue 24): the mutant made the claim's routes disagree, which is what a second
route is for. Any other ERROR (a crash, a type error, a timeout) is a defect of the claim, never a kill; it is
recorded under ``errors``.
Other verdict changes (e.g. REFUTED -> VERIFIED when the mutant reproduces a misprint) are recorded
under ``changed`` as information; they are not kills.

Status: ``killed`` (some claim kills it), ``equivalent`` (the catalogue documents why no claim can
tell it apart; the mutant is still run and must not be killed), ``error`` (not killed and some claim
said ERROR), ``survived`` otherwise.

Patch targets are ``"<module>:<attribute path>"``; ``<module>`` is either a dotted module path or a
key of the catalogue's ``MODULES`` table (one place to edit when modules move).
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import json
import math
import os
import subprocess
import sys
import time
import types
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from rldp_verify.claims.catalogue import DEFAULT_SOURCE, SOURCES, Catalogue
from rldp_verify.claims.core import ConsistencyFailure

# ---------------------------------------------------------------------------------------------
# Catalogue records
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Patch:
    """Replace the object at ``target`` by ``make(original)``."""

    target: str
    make: Callable[[Any], Any]


def replace(target: str, new) -> Patch:
    """A patch that replaces ``target`` by ``new`` (whatever the original was)."""
    return Patch(target, lambda _orig: new)


def wrap(target: str, factory: Callable[[Any], Any]) -> Patch:
    """A patch that replaces ``target`` by ``factory(original)`` (e.g. a wrapper changing the result)."""
    return Patch(target, factory)


@dataclass(frozen=True)
class Mutant:
    """A semantic mutant: patches applied to the engine (``module:attribute`` targets) that some of the claims
    ``claims`` (ids or globs) must detect; ``equivalent`` documents why no claim can tell it apart, if none can."""

    id: str
    module: str
    description: str
    patches: tuple[Patch, ...]
    claims: tuple[str, ...]
    equivalent: str | None = None   # why no claim can tell this mutant apart (documented equivalence)
    timeout: float = 600.0
    include_slow: bool = False      # also run the listed slow claims (baseline verdict: their pin)

    def selects(self, claim_id: str) -> bool:
        """True when the claim id is one this mutant must be detected by (exact id or glob)."""
        return any(claim_id == p or fnmatchcase(claim_id, p) for p in self.claims)


def mutant(id: str, module: str, description: str, patches, claims, *, equivalent: str | None = None,
           timeout: float = 600.0, include_slow: bool = False) -> Mutant:
    """Declare a :class:`Mutant` (one patch or several; one claim pattern or several); ValueError when it
    has no patch or no claim."""
    if isinstance(patches, Patch):
        patches = (patches,)
    if isinstance(claims, str):
        claims = (claims,)
    if not patches:
        raise ValueError(f"mutant {id!r}: no patch")
    if not claims:
        raise ValueError(f"mutant {id!r}: no claims")
    return Mutant(id, module, " ".join(description.split()), tuple(patches), tuple(claims), equivalent, timeout,
                  include_slow)


# ---------------------------------------------------------------------------------------------
# Resolving, applying and reverting patches
# ---------------------------------------------------------------------------------------------


def split_target(target: str, modules: dict[str, str] | None = None) -> tuple[str, list[str]]:
    """``'module:attr.path'`` -> (module, [attr, path]), the module renamed through ``modules``; ValueError
    without a colon."""
    if ":" not in target:
        raise ValueError(f"patch target {target!r} must read 'module:attribute'")
    mod, path = target.split(":", 1)
    mod = (modules or {}).get(mod, mod)
    return mod, path.split(".")


def resolve(target: str, modules: dict[str, str] | None = None):
    """(owner, attribute name, current object) of ``target``; imports the module."""
    mod, path = split_target(target, modules)
    owner = importlib.import_module(mod)
    for name in path[:-1]:
        owner = getattr(owner, name)
    if not hasattr(owner, path[-1]):
        raise AttributeError(f"{target}: {owner!r} has no attribute {path[-1]!r}")
    return owner, path[-1], getattr(owner, path[-1])


def _rebindable(obj) -> bool:
    # only functions and classes are rebound by identity (never ints, strings, ... which are shared)
    return isinstance(obj, (types.FunctionType, type, types.BuiltinFunctionType))


_OWN_PREFIXES = ("rldp_verify", *SOURCES)


@dataclass
class Applied:
    """What :func:`apply` changed, for :func:`revert`."""

    changes: list = field(default_factory=list)   # (owner, name, old value)


def apply(m: Mutant, modules: dict[str, str] | None = None) -> Applied:
    """Apply every patch of ``m``. Functions/classes are also rebound in every loaded engine/proof module
    that imported them by name (``from x import f``), so the patch reaches every caller."""
    done = Applied()
    try:
        for p in m.patches:
            owner, name, orig = resolve(p.target, modules)
            new = p.make(orig)
            done.changes.append((owner, name, orig))
            setattr(owner, name, new)
            if _rebindable(orig) and isinstance(owner, types.ModuleType):
                for mname, mod in list(sys.modules.items()):
                    if mod is None or mod is owner or not mname.startswith(_OWN_PREFIXES):
                        continue
                    for attr, val in list(vars(mod).items()):
                        if val is orig:
                            done.changes.append((mod, attr, orig))
                            setattr(mod, attr, new)
    except Exception:
        revert(done)
        raise
    return done


def revert(done: Applied) -> None:
    """Undo the patches of ``done`` in reverse order (the original attributes restored)."""
    for owner, name, old in reversed(done.changes):
        setattr(owner, name, old)
    done.changes.clear()


# ---------------------------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------------------------


def load_catalogue(name: str):
    """(mutants, modules table) of a catalogue module exposing ``MUTANTS`` and optionally ``MODULES``."""
    cat = importlib.import_module(name)
    mutants = list(cat.MUTANTS)
    ids = [m.id for m in mutants]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        raise ValueError(f"catalogue {name}: repeated mutant ids {sorted(dup)}")
    return mutants, dict(getattr(cat, "MODULES", {}))


def _pins(package: str | Catalogue = DEFAULT_SOURCE) -> dict:
    """{claim id: pinned verdict} of the catalogue's pins (:meth:`Catalogue.pins`: the unmutated verdicts,
    tested in CI); the baseline for slow claims, which the baseline run does not run."""
    try:
        return {k: v["verdict"] for k, v in Catalogue.load(package).pins().items()}
    except (OSError, ValueError, KeyError, ImportError, TypeError):
        return {}


def _kills(before: str | None, after: str) -> bool:
    return after == "REFUTED" and before in ("VERIFIED", "INCONCLUSIVE")


def _consistency_kills(before: str | None, after: dict) -> bool:
    """Issue 24: an ERROR is a detection only when it is a consistency check failing (the claim's own expectation of
    its computation, :class:`~rldp_verify.claims.core.ConsistencyFailure`: two routes disagree, an identity fails)
    on a claim that gives a verdict on the unmutated engine. Any other ERROR (a crash, a timeout, a type error) and
    an ERROR the unmutated engine gives too are not caused by a detected mutant: they stay defects, never kills."""
    return after.get("verdict") == "ERROR" and after.get("consistency") is True and before in (
        "VERIFIED", "INCONCLUSIVE", "REFUTED")


def _certificate_status(evidence) -> str | None:
    """Issue 23: the independent checker's answer on the certificates a claim's evidence carries -- None (none),
    "re-checked" or "FAILED: <why>". A certificate that the unmutated engine's claim gets accepted and the mutant's
    does not is a kill by the checker, whatever the verdict says."""
    docs = (evidence or {}).get("certificates") if isinstance(evidence, dict) else None
    if not isinstance(docs, list) or not docs:
        return None
    from rldp_verify.certificates import recheck

    bad = [r for r in map(recheck, docs) if not r.ok]
    return f"FAILED: {bad[0].name}: {bad[0].message}"[:300] if bad else "re-checked"


def _checker_kills(before: dict | None, after: dict) -> bool:
    rejected_now = str(after.get("certificate") or "").startswith("FAILED")
    return rejected_now and (before or {}).get("certificate") == "re-checked"


def _recording(check: Callable[[Any], Any], raised: list[BaseException]) -> Callable[[Any], Any]:
    """``check`` that also appends the exception it raises (if any) to ``raised``, then re-raises it."""
    def recorded(ctx):
        try:
            return check(ctx)
        except Exception as exc:
            raised.append(exc)
            raise
    return recorded


def _killed(before: dict, after: dict) -> bool:
    """Whether a claim's record ``after`` under the mutant kills it, given its unmutated record ``before``."""
    was = before.get("verdict")
    return _kills(was, after["verdict"]) or _consistency_kills(was, after) or _checker_kills(before, after)


def _run_one(c, ctx) -> dict:
    """One claim's record in the child: verdict, summary, seconds; ``consistency`` when its ERROR is a consistency
    check failing; ``certificate`` (the independent checker's answer) when it carries certificates."""
    from rldp_verify.claims.runner import run_claim

    raised: list[BaseException] = []
    r = run_claim(dataclasses.replace(c, check=_recording(c.check, raised)), ctx)
    rec = {"verdict": r.verdict.value, "summary": r.summary[:300], "seconds": round(r.seconds, 3)}
    if r.verdict.value == "ERROR" and raised and isinstance(raised[0], ConsistencyFailure):
        rec["consistency"] = True   # the check's own expectation failed (two routes disagree, ...)
    cert = _certificate_status(r.evidence)
    if cert is not None:
        rec["certificate"] = cert
    return rec


def _run_in_process(catalogue: str, mutant_id: str | None, claim_ids: Sequence[str] | None,
                    package: str, baseline: dict | None = None, all_killers: bool = False) -> dict:
    """Apply the mutant (if any), then import the proofs and run the selected fast claims.

    With ``baseline`` the claims run cheapest first and, unless ``all_killers``, stop at the first kill."""
    from rldp_verify.claims.core import Context

    mutants, modules = load_catalogue(catalogue)
    m = None
    if mutant_id is not None:
        m = {x.id: x for x in mutants}[mutant_id]
        apply(m, modules)
    slow_ok = m is not None and m.include_slow
    papers = Catalogue.load(package)
    claims = [c for c in papers.discover() if not c.slow or slow_ok]
    if claim_ids is not None:   # ids or globs
        claims = [c for c in claims if any(c.id == w or fnmatchcase(c.id, w) for w in claim_ids)]
    elif m is not None:
        claims = [c for c in claims if m.selects(c.id)]
    if baseline:
        claims.sort(key=lambda c: (baseline.get(c.id, {}).get("seconds", 1e9), c.id))
    out = {}
    ctx = Context(include_slow=slow_ok)
    print("PLAN " + json.dumps([c.id for c in claims]), flush=True)
    for c in claims:
        print("START " + json.dumps(c.id), flush=True)   # names the claim if the interpreter dies in it
        out[c.id] = _run_one(c, ctx)
        print("CLAIM " + json.dumps({c.id: out[c.id]}), flush=True)   # partial results survive a timeout
        if baseline and not all_killers and _killed(baseline.get(c.id) or {"verdict": _pins(papers).get(c.id)},
                                                    out[c.id]):
            break
    return out


def _parse_claim_lines(text) -> dict:
    if isinstance(text, bytes):
        text = text.decode(errors="replace")
    out = {}
    for line in (text or "").splitlines():
        if line.startswith("CLAIM "):
            out.update(json.loads(line[6:]))
    return out


def _parse_child(text) -> tuple[list[str], str | None]:
    """The child's claim plan and the claim it started last (None before the first)."""
    if isinstance(text, bytes):
        text = text.decode(errors="replace")
    plan, started = [], None
    for line in (text or "").splitlines():
        if line.startswith("PLAN "):
            plan = json.loads(line[5:])
        elif line.startswith("START "):
            started = json.loads(line[6:])
    return plan, started


def run_subprocess(catalogue: str, mutant_id: str | None, claim_ids: Sequence[str] | None = None, *,
                   package: str = DEFAULT_SOURCE, timeout: float = 600.0, cwd: str | None = None,
                   baseline_file: str | None = None, all_killers: bool = False) -> dict:
    """Run in a fresh interpreter; returns {"results": {...}} or {"failure": "..."}.

    When the interpreter dies inside a claim (e.g. a C library aborts), that claim is recorded as ERROR
    with the exit status, and the claims it had not reached run in a new interpreter (the same order and
    stopping rule): a crash is a defect of one claim and does not hide the verdicts of the others.
    "failure" is returned only when the interpreter dies before its first claim."""
    base_cmd = [sys.executable, "-m", "rldp_verify.claims.mutants", "_child", "--catalogue", catalogue,
                "--package", package]
    if baseline_file:
        base_cmd += ["--baseline", baseline_file]
    if all_killers:
        base_cmd += ["--all-killers"]
    if mutant_id is not None:
        base_cmd += ["--mutant", mutant_id]
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    t0 = time.perf_counter()
    results: dict = {}
    ids = None if claim_ids is None else list(claim_ids)
    while True:
        cmd = base_cmd + (["--claims", ",".join(ids)] if ids is not None else [])
        left = timeout - (time.perf_counter() - t0)
        try:
            if left <= 0:
                raise subprocess.TimeoutExpired(cmd, timeout)
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=left, cwd=cwd, env=env)
        except subprocess.TimeoutExpired as e:
            results.update(_parse_claim_lines(e.stdout))
            return {"results": results, "timeout": f"timeout after {timeout:.0f} s",
                    "seconds": time.perf_counter() - t0}
        results.update(_parse_claim_lines(p.stdout))
        if p.returncode == 0:
            return {"results": results, "seconds": time.perf_counter() - t0}
        tail = (p.stderr or p.stdout).strip().splitlines()[-3:]
        why = f"exit code {p.returncode}: " + " | ".join(tail)
        plan, started = _parse_child(p.stdout)
        if started is None or started in results:
            if results:   # died after its last claim (at exit): the verdicts stand, the failure is reported
                return {"results": results, "failure_after": why, "seconds": time.perf_counter() - t0}
            return {"failure": why, "seconds": time.perf_counter() - t0}
        results[started] = {"verdict": "ERROR", "summary": f"the interpreter died in this claim ({why})"[:300],
                            "seconds": None}
        ids = [c for c in plan if c not in results]
        if not ids:
            return {"results": results, "seconds": time.perf_counter() - t0}


def judge(m: Mutant, baseline: dict, run: dict) -> dict:
    """The mutation.json record of one mutant from its run and the baseline verdicts."""
    rec = {"id": m.id, "module": m.module, "description": m.description, "status": "survived",
           "killed_by": [], "errors": [], "changed": [], "claims_run": 0, "seconds": round(run.get("seconds", 0), 1)}
    if m.equivalent:
        rec["equivalent"] = m.equivalent
    if "failure" in run:
        rec["status"] = "error"
        rec["errors"] = [run["failure"]]
        return rec
    res = run["results"]
    rec["claims_run"] = len(res)
    pins = _pins() if m.include_slow else {}
    if "timeout" in run:   # the claims still running at the timeout gave no verdict: a defect, like ERROR
        rec["errors"].append(run["timeout"] + f" ({len(res)} claims finished)")
    if "failure_after" in run:
        rec["errors"].append(run["failure_after"])
    for cid, r in sorted(res.items()):
        before = baseline.get(cid, {}).get("verdict") or pins.get(cid)
        v = r["verdict"]
        if _consistency_kills(before, r):
            rec["killed_by"].append(f"{cid} (consistency check failed: {r['summary'][:120]})")
        elif v == "ERROR":
            rec["errors"].append(f"{cid}: {r['summary']}")
        elif _kills(before, v):
            rec["killed_by"].append(cid)
        elif _checker_kills(baseline.get(cid), r):
            rec["killed_by"].append(f"{cid} (certificate rejected by rldp_verify_check)")
        elif before is not None and v != before:
            rec["changed"].append(f"{cid}: {before} -> {v}")
    if rec["killed_by"]:
        rec["status"] = "killed"
    elif rec["errors"]:
        rec["status"] = "error"
    elif m.equivalent:
        rec["status"] = "equivalent"
    if not res:
        rec["status"] = "error"
        rec["errors"].append("no fast claim matches the mutant's claim list")
    return rec


def run_catalogue(catalogue: str, *, only: Sequence[str] | None = None, jobs: int = 2, package: str = DEFAULT_SOURCE,
                  progress=print, all_killers: bool = False, baseline_path: str | None = None) -> dict:
    """Run the baseline and every mutant; returns the ``semantic`` section of mutation.json."""
    mutants, _ = load_catalogue(catalogue)
    if only:
        mutants = [m for m in mutants if any(fnmatchcase(m.id, o) for o in only)]
    t0 = time.perf_counter()
    if baseline_path and Path(baseline_path).exists():
        baseline = json.loads(Path(baseline_path).read_text())
        progress(f"mutation: baseline verdicts of {len(baseline)} claims read from {baseline_path}")
    else:
        progress(f"mutation: baseline run of the fast claims ({catalogue})")
        select = sorted({p for m in mutants for p in m.claims}) if only else None
        base = run_subprocess(catalogue, None, select, package=package, timeout=3600)
        if "failure" in base or "timeout" in base:
            raise RuntimeError(f"baseline run failed: {base.get('failure') or base.get('timeout')}")
        baseline = base["results"]
        progress(f"mutation: baseline {len(baseline)} claims in {base['seconds']:.0f} s")
        if baseline_path and not only:
            Path(baseline_path).parent.mkdir(parents=True, exist_ok=True)
            Path(baseline_path).write_text(json.dumps(baseline, indent=0, sort_keys=True))
    errors = sorted(k for k, v in baseline.items() if v["verdict"] == "ERROR")
    if errors:
        progress(f"mutation: WARNING: the unmutated engine gives ERROR for {errors}")
    import tempfile

    fd, bfile = tempfile.mkstemp(prefix="mutation-baseline-", suffix=".json")
    with os.fdopen(fd, "w") as fh:
        json.dump(baseline, fh)
    progress(f"mutation: {len(mutants)} mutants, {jobs} at a time")

    def one(m):
        run = run_subprocess(catalogue, m.id, None, package=package, timeout=m.timeout, baseline_file=bfile,
                             all_killers=all_killers)
        rec = judge(m, baseline, run)
        progress(f"  {rec['status']:>10}  {m.id}  ({rec['seconds']:.0f} s, {rec['claims_run']} claims)"
                 + (f"  by {', '.join(rec['killed_by'][:3])}" if rec["killed_by"] else "")
                 + (f"  ERRORS: {'; '.join(rec['errors'])[:300]}" if rec["errors"] else ""))
        return rec

    try:
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
            records = list(ex.map(one, mutants))
    finally:
        os.unlink(bfile)
    return {
        "catalogue": catalogue,
        "mutants": records,
        **_totals(records),
        "kill_rule": "killed when a claim says REFUTED under the mutant that is VERIFIED or INCONCLUSIVE on the "
                     "unmutated engine, or when the independent checker rejects a certificate of a claim whose "
                     "certificate it accepts on the unmutated engine (issue 23), or when a consistency check fails "
                     "(ERROR from the claim's own expectation of its computation: two routes disagree) in a claim that "
                     "gives a verdict on the unmutated engine (issue 24); any other ERROR never kills; equivalent "
                     "mutants are excluded from the rate",
        "killed_by_note": ("every killing claim" if all_killers else
                           "claims run cheapest first, stopping at the first kill: killed_by names that claim"),
        "seconds": round(time.perf_counter() - t0, 1),
    }


def _totals(records: list[dict]) -> dict:
    counted = [r for r in records if r["status"] != "equivalent"]
    killed = sum(r["status"] == "killed" for r in counted)
    return {"total": len(records), "killed": killed,
            "survived": sum(r["status"] == "survived" for r in records),
            "equivalent": sum(r["status"] == "equivalent" for r in records),
            "error": sum(r["status"] == "error" for r in records),
            "kill_rate": round(killed / len(counted), 4) if counted else None}


def merge_records(doc: dict, partial: dict, catalogue: str) -> dict:
    """The semantic section of ``doc`` with the records of ``partial`` (a run with --only) replacing theirs;
    records of mutants no longer in the catalogue are dropped, totals recomputed."""
    order = [m.id for m in load_catalogue(catalogue)[0]]
    old = {r["id"]: r for r in (doc.get("semantic") or {}).get("mutants", [])}
    old.update({r["id"]: r for r in partial["mutants"]})
    records = [old[i] for i in order if i in old]
    sem = dict(doc.get("semantic") or partial)
    sem.update(mutants=records, **_totals(records))
    sem["rerun"] = sorted(set(sem.get("rerun", [])) | {r["id"] for r in partial["mutants"]})
    return sem


def update_report(path: Path, section: str, value: dict) -> None:
    """Write ``value`` as ``section`` of the JSON file at ``path`` (other sections kept).  The read-modify-write
    holds an exclusive lock on ``path``.lock, so the two layers of ``make mutation`` (run concurrently) cannot
    lose each other's section."""
    import fcntl

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        doc = json.loads(path.read_text()) if path.exists() else {}
        doc[section] = value
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(doc, indent=1, sort_keys=False) + "\n")
        tmp.replace(path)


def wilson_interval(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion k/n (95 % by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


from rldp_verify.claims.mutation_report import load_report, markdown_section  # noqa: E402  (re-exported)

__all__ = ["Mutant", "Patch", "apply", "judge", "load_catalogue", "load_report", "markdown_section", "mutant",
           "replace", "resolve", "revert", "run_catalogue", "run_subprocess", "update_report", "wilson_interval",
           "wrap"]


def main(argv=None) -> int:
    """``python -m rldp_verify.claims.mutants run ...``: run a mutant catalogue in worker processes and write
    the mutation section of the report; returns the exit code."""
    ap = argparse.ArgumentParser(prog="python -m rldp_verify.claims.mutants")
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run a catalogue's mutants and write the semantic section of the report")
    r.add_argument("--catalogue", default="mutation.catalogue")
    r.add_argument("--package", default=DEFAULT_SOURCE)
    r.add_argument("--only", action="append", help="mutant id (glob); repeatable")
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--out", default="reports/mutation.json")
    r.add_argument("--all-killers", action="store_true",
                   help="run every listed claim (default: stop at the first kill)")
    r.add_argument("--baseline", help="JSON file of the unmutated verdicts: read if present, else computed and written")
    r.add_argument("--merge", action="store_true", help="with --only: replace those mutants' records in --out")
    c = sub.add_parser("_child")
    c.add_argument("--catalogue", required=True)
    c.add_argument("--package", default=DEFAULT_SOURCE)
    c.add_argument("--mutant")
    c.add_argument("--claims")
    c.add_argument("--baseline")
    c.add_argument("--all-killers", action="store_true")
    args = ap.parse_args(argv)
    if args.cmd == "_child":
        ids = args.claims.split(",") if args.claims else None
        base = json.loads(Path(args.baseline).read_text()) if args.baseline else None
        _run_in_process(args.catalogue, args.mutant, ids, args.package, base, args.all_killers)
        return 0
    sem = run_catalogue(args.catalogue, only=args.only, jobs=args.jobs, package=args.package,
                        progress=lambda s: print(s, flush=True), all_killers=args.all_killers,
                        baseline_path=args.baseline)
    if args.only and args.merge:
        sem = merge_records(load_report(args.out) or {}, sem, args.catalogue)
    elif args.only:
        print(json.dumps(sem, indent=1))
        return 0
    update_report(Path(args.out), "semantic", sem)
    print(f"mutation: {sem['killed']} killed, {sem['survived']} survived, {sem['equivalent']} equivalent, "
          f"{sem['error']} error of {sem['total']}; kill rate {sem['kill_rate']}; wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
