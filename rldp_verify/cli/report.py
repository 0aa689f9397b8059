"""``rldp-verify report``: run every registered claim and write OUT/verification.{md,json,html}."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import threading
from pathlib import Path

from rldp_verify.cli._help import add_parser
from rldp_verify.core.numbers import DEFAULT_DPS

DEFAULT_SEED = 20240306


def register(sub):
    """Register ``rldp-verify report`` (check every claim, write the verification report)."""
    from rldp_verify.claims.catalogue import DEFAULT_SOURCE, INSTALLED_SOURCE

    p = add_parser(
        sub, "report", help="check every claim of the papers and write the verification report",
        description="Check every registered claim of the papers (the modules below --proofs) and write "
                    "OUT/verification.md, .json and .html;\nfigures and other artefacts go below OUT too. "
                    "Progress (n/total, the current claim, an ETA) goes to stderr\nwhen it is a terminal.",
        examples=["rldp-verify report                          # fast claims, report in ./reports",
                  "rldp-verify report --include-slow --out /tmp/full",
                  "rldp-verify report --only kairouz. --quiet   # one paper's claims",
                  "rldp-verify report --from-json              # re-render OUT/verification.json"],
        exit_codes={0: "every claim ran (VERIFIED, REFUTED or INCONCLUSIVE: findings are not failures)",
                    1: "at least one claim ended in ERROR (their ids are printed on stderr)",
                    2: "bad input, or --only matches no claim",
                    130: "interrupted (Ctrl-C): no report; the completed claims in OUT/verification-interrupted.json"})
    p.add_argument("--out", default="reports",
                   help="output directory for the report and its figures (default: reports)")
    p.add_argument("--proofs", default=DEFAULT_SOURCE, metavar="PACKAGE",
                   help=f"package holding the claims, the catalogue of papers (default: {DEFAULT_SOURCE}; "
                        f"{INSTALLED_SOURCE} when installed from the wheel)")
    p.add_argument("--include-slow", action="store_true", help="also run the slow, exhaustive claims")
    p.add_argument("--only", default=None, help="run only claims whose id starts with this prefix")
    p.add_argument("--dps", type=int, default=DEFAULT_DPS, help=f"working precision in digits (default {DEFAULT_DPS})")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED,
                   help=f"seed of every randomised check (ctx.rng / ctx.np_rng; default {DEFAULT_SEED}); "
                        "the same seed gives the same report up to timings")
    p.add_argument("--adult-data", default=None, metavar="PATH",
                   help="the UCI adult.data file (default: $RLDP_VERIFY_ADULT_DATA, else "
                        "../shared/data/adult.data beside the repository)")
    p.add_argument("--quiet", action="store_true",
                   help="no progress and no per-claim lines on stderr (the final summary line is still printed)")
    p.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="run the claims in N worker processes (default 1); the report is the same as with 1")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="Dask scheduler (e.g. tcp://host:8786) for the experiments that fan out over Dask; "
                        "default: a LocalCluster of N worker processes, started when slow claims run")
    p.add_argument("--no-cache", action="store_true",
                   help="recompute every claim; by default a claim is reused from OUT/.cache (or from the key recorded "
                        "in OUT/verification.json) when nothing that determines it changed: its module and the engine "
                        "and proof modules it imports, --dps/--seed/--include-slow, library versions, its data files")
    p.add_argument("--certificates", default=None, metavar="DIR",
                   help="write each claim's certificates to DIR/<claim id>.json and re-check them with the independent "
                        "checker (rldp_verify_check); verification.json keeps a reference and, per claim, 'certificate "
                        "re-checked', 'certificate FAILED: ...' or 'no certificate: <reason>' (issue 23)")
    p.add_argument("--from-json", action="store_true",
                   help="re-render verification.md/.html from OUT/verification.json with fresh benchmark tables "
                        "and the claims in the current statement index's order, without re-running the claims")
    p.set_defaults(func=run)


def _errors_exit(doc) -> int:
    errors = [c["id"] for c in doc["claims"] if c["verdict"] == "ERROR"]
    if errors:
        shown = ", ".join(errors[:10]) + (f" and {len(errors) - 10} more" if len(errors) > 10 else "")
        sys.stderr.write(f"rldp-verify: {len(errors)} claim(s) ended in ERROR: {shown}\n")
        return 1
    return 0


def run(args) -> int:
    """Run ``rldp-verify report``: discover and run the claims, write OUT/verification.{md,json,html}; returns 1
    when a claim ended in ERROR."""
    from rldp_verify.claims import Context
    from rldp_verify.claims.runner import selected
    from rldp_verify.core.errors import InputError

    out = Path(args.out)
    if args.from_json:
        return _rerender(args, out)
    _check_options(args, out)
    if str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    catalogue, claims = _load(args.proofs)
    # artefacts (figures) are written to OUT/.staging and moved into OUT only when the report is written: an
    # interrupted or failed run leaves OUT as it was (issue 28 item 4)
    staging = out / ".staging"
    ctx = Context(dps=args.dps, seed=args.seed, include_slow=args.include_slow, out_dir=str(staging))
    claims_all = claims
    if args.only:
        claims = [c for c in claims if c.id.startswith(args.only)]
        if not selected(claims, ctx):
            slow = " (only slow claims match: add --include-slow)" if claims else ""
            raise InputError(f"--only {args.only!r} matches no claim{slow}")
    results = _run_with_progress(selected(claims, ctx), ctx, args, out, staging, catalogue)
    return _write(args, out, results, catalogue, [c.id for c in claims_all])


def _load(source: str):
    """(the catalogue loaded from ``--proofs``, its claims); a one-line InputError when it cannot be imported.
    The default name falls back to the installed one (:meth:`Catalogue.load` without a name)."""
    from rldp_verify.claims.catalogue import DEFAULT_SOURCE, Catalogue
    from rldp_verify.core.errors import InputError

    try:
        catalogue = Catalogue.load(None if source == DEFAULT_SOURCE else source)
        return catalogue, catalogue.discover()
    except ModuleNotFoundError as exc:
        raise InputError(f"--proofs {source!r}: cannot import {exc.name!r}") from None


def _rerender(args, out: Path) -> int:
    """``report --from-json``: re-render OUT/verification.md/.html from OUT/verification.json with fresh
    benchmark tables and the claims in the current statement index's order."""
    from rldp_verify import report
    from rldp_verify.claims.catalogue import DEFAULT_SOURCE, Catalogue
    from rldp_verify.core.errors import InputError

    path = out / "verification.json"
    try:
        doc = json.loads(path.read_text())
    except OSError as exc:
        raise InputError(f"cannot read {str(path)!r}: {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"{str(path)!r} is not JSON: {exc}") from None
    _check_report(doc, out / "verification.json")
    _check_writable(out)
    doc["benchmarks"] = report.load_benchmarks(out / "benchmarks")
    if str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    try:
        catalogue = Catalogue.load(None if args.proofs == DEFAULT_SOURCE else args.proofs)
        order = catalogue.claim_order([c["id"] for c in doc.get("claims", [])])
    except ImportError:  # no proofs package here: keep the document's order
        order = None
    doc = report.reorder(doc, order)
    paths = report.write(doc, out)
    print("report re-rendered -> " + ", ".join(map(str, paths)))
    return _errors_exit(doc)


def _check_options(args, out: Path) -> None:
    """The options of a run, checked before any claim runs (one-line InputErrors); sets the Adult data path."""
    from rldp_verify.core.errors import InputError

    if args.dps < 5:
        raise InputError(f"--dps must be at least 5, got {args.dps}")
    if args.adult_data is not None:
        if not Path(args.adult_data).is_file():
            raise InputError(f"--adult-data {args.adult_data!r} is not a file")
        from rldp_verify.rldp.data import ADULT_ENV

        os.environ[ADULT_ENV] = str(Path(args.adult_data).resolve())
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {args.out!r} exists and is not a directory")
    _check_writable(out)  # before any claim runs, not after
    if args.certificates is not None:
        _check_writable(Path(args.certificates), "--certificates")
    if args.jobs < 1:
        raise InputError(f"--jobs must be at least 1, got {args.jobs}")


def _run_with_progress(todo, ctx, args, out: Path, staging: Path, catalogue):
    """Run the claims with the progress display; artefacts go to ``staging`` and are moved into OUT after."""
    import shutil

    from rldp_verify.cli.progress import Progress

    with Progress(len(todo), desc="claims", quiet=args.quiet) as bar:
        def started(c):
            bar.start(c.id)

        def finished(r):
            line = f"{r.verdict.value:<12} {r.seconds:7.2f}s  {r.claim.id}"
            if bar.bar is not None:
                bar.finish(r.claim.id, line)
            else:
                bar.finish(r.claim.id)
                if not args.quiet:
                    sys.stderr.write(line + "\n")
                    sys.stderr.flush()

        shutil.rmtree(staging, ignore_errors=True)
        try:
            results = _run(todo, ctx, args, finished, started, out, catalogue)
            _publish(staging, out)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return results


def _write(args, out: Path, results, catalogue, claim_ids: list[str]) -> int:
    """Build the report document (titles, order, coverage from the catalogue; certificates), write it and print
    the summary line; the exit code."""
    from rldp_verify import report
    from rldp_verify.certificates.report import attach, summary_line

    recomputed = [r.claim.id for r in results if not r.reused]
    doc = report.build(results, report.environment(args.dps, args.seed, args.include_slow),
                       report.load_benchmarks(out / "benchmarks"), catalogue.titles(),
                       order=catalogue.claim_order(claim_ids))
    coverage = catalogue.coverage(claim_ids)
    if coverage is not None:
        doc["coverage"] = coverage
    step_coverage = catalogue.step_coverage(claim_ids)
    if step_coverage is not None:
        doc["step_coverage"] = step_coverage
    certs = attach(doc["claims"], args.certificates, out / "certificates")   # issue 23: documents out of the JSON
    if certs is not None:
        doc["certificates"] = certs
    doc["run"] = _run_record(out, doc, not args.no_cache, recomputed, len(results) - len(recomputed))
    paths = report.write(doc, out)
    s = doc["summary"]
    print("report: " + ", ".join(f"{k} {v}" for k, v in s.items())
          + f" ({len(recomputed)} recomputed, {len(results) - len(recomputed)} reused from the cache)"
          + (f"; {summary_line(certs)}" if certs is not None else "") + " -> " + ", ".join(map(str, paths)))
    return _errors_exit(doc)


def _publish(staging: Path, out: Path) -> None:
    """Move every file written below ``staging`` to the same place below ``out`` (replacing the old one)."""
    if not staging.is_dir():
        return
    for f in sorted(p for p in staging.rglob("*") if p.is_file()):
        dest = out / f.relative_to(staging)
        dest.parent.mkdir(parents=True, exist_ok=True)
        os.replace(f, dest)


def _run_record(out: Path, doc: dict, cache: bool, recomputed: list[str], reused: int) -> dict:
    """The report's ``run`` entry: the cache setting, the claims this run recomputed, how many it reused. A run
    that recomputed nothing and reproduced the previous report's claims exactly keeps that report's record
    (the report is then the same document, and its record says which run computed it), so a re-run with
    nothing changed rewrites the report byte for byte."""
    import json

    record = {"cache": cache, "recomputed": recomputed, "reused": reused}
    if recomputed:
        return record
    try:
        prev = json.loads((out / "verification.json").read_text())
    except (OSError, ValueError):
        return record
    if isinstance(prev, dict) and prev.get("claims") == doc["claims"] and isinstance(prev.get("run"), dict):
        return prev["run"]
    return record


def _previous_durations(out: Path) -> dict:
    """Claim timings of the previous report in ``out`` (they only order the parallel work)."""
    import json

    try:
        return {c["id"]: float(c["seconds"]) for c in json.loads((out / "verification.json").read_text())["claims"]}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def _run(claims, ctx, args, progress, on_start, out: Path, catalogue):
    """Run the claims with ``--jobs`` processes, on a Dask cluster (``--scheduler``, or a LocalCluster
    when slow claims run). A run that breaks off writes OUT/verification-interrupted.json (complete
    claims and the ids that did not run), leaves the report untouched and raises a one-line InputError
    (exit 2)."""
    import contextlib
    import json

    from rldp_verify.claims import run_claims
    from rldp_verify.claims.cache import ResultCache
    from rldp_verify.claims.runner import RunInterrupted
    from rldp_verify.core.distributed import DaskCluster
    from rldp_verify.core.errors import InputError

    cache = None if args.no_cache else ResultCache(out)
    # the LocalCluster is for the slow claims' experiments: not started when each of them is reused from the cache
    use_dask = args.scheduler is not None or (args.include_slow and any(
        c.slow and (cache is None or cache.lookup(c, ctx, catalogue.name) is None) for c in claims))
    cm = DaskCluster(args.scheduler, n_workers=args.jobs) if use_dask else contextlib.nullcontext()
    completed: dict = {}

    def keep(r):  # the claims that completed, for an interrupted run's partial JSON
        completed[r.claim.id] = r
        progress(r)

    try:
        with contextlib.ExitStack() as stack:
            with _sigint_ignored():  # child processes started here ignore Ctrl-C: this process stops them
                cluster = stack.enter_context(cm)
                if args.jobs > 1:
                    from multiprocessing import forkserver

                    forkserver.ensure_running()  # the parent of the --jobs worker processes
            if cluster is not None:
                ctx.scheduler = cluster.address
            stack.enter_context(_sigint_stops_children())
            return run_claims(claims, ctx, progress=keep, on_start=on_start, jobs=args.jobs,
                              package=catalogue, durations=_previous_durations(out),
                              cache=cache)
    except KeyboardInterrupt:
        _stop_children()
        out.mkdir(parents=True, exist_ok=True)
        path = out / "verification-interrupted.json"
        done = [completed[c.id] for c in claims if c.id in completed]
        not_run = [c.id for c in claims if c.id not in completed]
        path.write_text(json.dumps({"complete": False, "cause": "interrupted (SIGINT)", "not_run": not_run,
                                    "claims": [r.to_json() for r in done]}, indent=1, ensure_ascii=False) + "\n")
        raise KeyboardInterrupt(f"{len(done)} of {len(claims)} claims completed; report not written, completed "
                                f"claims in {path}") from None
    except RunInterrupted as exc:
        out.mkdir(parents=True, exist_ok=True)
        path = out / "verification-interrupted.json"
        path.write_text(json.dumps({"complete": False, "cause": exc.cause, "not_run": exc.not_run,
                                    "claims": [r.to_json() for r in exc.results]}, indent=1, ensure_ascii=False) + "\n")
        shown = ", ".join(exc.not_run[:5]) + (f" and {len(exc.not_run) - 5} more" if len(exc.not_run) > 5 else "")
        raise InputError(f"run interrupted: {exc.cause}; {len(exc.not_run)} of {len(exc.not_run) + len(exc.results)} "
                         f"claims did not run ({shown}); report not written, completed claims in {path}") from None


@contextlib.contextmanager
def _sigint_ignored():
    """SIGINT ignored while child processes are started: they inherit it (a Dask nanny and its worker, the
    forkserver and the --jobs workers forked from it), so Ctrl-C to the process group prints no traceback
    of theirs; this process stops them (:func:`_sigint_stops_children`)."""
    if threading.current_thread() is not threading.main_thread():  # signals belong to the main thread
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


@contextlib.contextmanager
def _sigint_stops_children():
    """While the claims run, SIGINT stops every child process at once (the --jobs workers would otherwise
    finish their claim groups first, and Dask workers their tasks), then raises KeyboardInterrupt here."""
    def handler(signum, frame):
        signal.signal(signal.SIGINT, signal.SIG_IGN)   # a second Ctrl-C does not break the clean-up
        _stop_children()
        raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def _stop_children(grace: float = 2.0) -> None:
    """Terminate every descendant process (SIGTERM, SIGKILL after ``grace`` seconds) and silence the logs
    of Dask and asyncio about the workers and tasks that went away with them. Python's resource tracker is
    left alone: it unregisters this process's semaphores and ends with it."""
    import logging

    for name in ("distributed", "asyncio", "tornado"):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)
    try:
        import psutil
    except ImportError:  # pragma: no cover - psutil comes with dask.distributed
        import multiprocessing

        for p in multiprocessing.active_children():
            p.kill()
        return
    from multiprocessing import resource_tracker

    tracker = getattr(resource_tracker._resource_tracker, "_pid", None)
    procs = [p for p in psutil.Process().children(recursive=True) if p.pid != tracker]
    for p in procs:
        with contextlib.suppress(psutil.Error):
            p.terminate()
    _, alive = psutil.wait_procs(procs, timeout=grace)
    for p in alive:
        with contextlib.suppress(psutil.Error):
            p.kill()
    psutil.wait_procs(alive, timeout=grace)


def _check_writable(out: Path, option: str = "--out") -> None:
    """``out`` exists (created if needed) and a file can be written in it; else a one-line InputError."""
    import tempfile

    from rldp_verify.core.errors import InputError

    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out, prefix=".write-test-"):
            pass
    except OSError as exc:
        raise InputError(f"{option} {str(out)!r} is not a writable directory: {exc.strerror or exc}") from None


def _check_report(doc, path: Path) -> None:
    """``doc`` is a verification report (``report --from-json``): its schema, else a one-line InputError
    naming the first problem (e.g. no "claims")."""
    from rldp_verify.core.errors import InputError

    where = str(path)
    if not isinstance(doc, dict):
        raise InputError(f"{where!r} is not a verification report: a JSON object is expected, got {type(doc).__name__}")
    missing = [k for k in ("summary", "environment", "papers", "claims") if k not in doc]
    if missing:
        raise InputError(f"{where!r} is not a verification report: no {', '.join(repr(k) for k in missing)}")
    try:
        import jsonschema
    except ImportError:  # pragma: no cover - a dev dependency; the keys above are what the pages need
        return
    from importlib import resources

    schema = json.loads(resources.files("rldp_verify").joinpath("schemas", "report.schema.json").read_text())
    # the benchmark tables are re-read from OUT/benchmarks: a report without them is fine
    errors = jsonschema.Draft202012Validator(schema).iter_errors({"benchmarks": [], **doc})
    err = jsonschema.exceptions.best_match(errors)
    if err is not None:
        at = "/".join(str(x) for x in err.absolute_path) or "the top level"
        raise InputError(f"{where!r} is not a verification report: at {at}: {' '.join(err.message.split())[:200]}")
