"""Generic mutation testing of the core numeric modules with mutmut (the `generic` section of
reports/mutation.json). Run by `make mutation`; not part of CI.

    .venv/bin/python scripts/mutation_generic.py [--sample 500] [--seed 20261126] [--deadline 19:40]

Configuration is [tool.mutmut] in pyproject.toml (modules, tests, timeout_multiplier). Steps:
1. `mutmut run` once with a name that matches nothing: generates every mutant and collects which
   tests reach which function (stats); mutmut then stops ("nothing matches"), as intended. Tests added
   later are picked up incrementally by the next `mutmut run` (only the new tests are run for stats).
2. A seeded random sample of the mutant names (all of them with --sample 0). The sample depends only
   on the seed and the set of mutant names (sorted), never on results.
3. `mutmut run NAMES` over the sample in batches (--batch, in the sample's random order; 2 workers); each
   mutant runs only the tests that reach its function, stopping at the first failure (-x). Every mutmut
   invocation first re-runs the unmutated tests of its mutants ("clean run"), which for a random batch is
   most of the suite; with --skip-clean-run that is skipped (stats collection has run every selected test
   on the same tree and stops on any failure, so the clean run would repeat it). With --deadline, mutmut
   is interrupted at that UTC time and only the completed batches are reported: each is a random part of
   the sample (inside one run mutmut orders mutants by test duration, so a partial batch is not).
4. Counts by mutmut's status; the kill rate with its 95 % Wilson interval.

Counting (stated in the JSON's `counting`):
- kill_rate = (killed + timeout) / (killed + timeout + survived + no tests). Every checked mutant is in
  the denominator. Error-message-only survivors (the mutation changes nothing but a string literal in a
  `raise`) COUNT AS SURVIVORS: the project's bad-input standard (a one-line error naming the bad value)
  makes a test that checks the message kill them, so a surviving one is a missing test. They are also
  listed as `message_only`, and `kill_rate_excluding_messages` leaves them out, for comparison only.
- timeout: the tests of a mutant exceeded timeout_multiplier x their measured duration; mutmut counts it
  as detected. On a loaded machine a slow survivor can time out, so `kill_rate_strict` counts timeouts
  as not killed, and with --retry-timeouts M the timed-out mutants are re-run with timeout_multiplier M
  (their final status is the retry's).
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rldp_verify.claims.mutants import update_report, wilson_interval  # noqa: E402

MUTMUT = str(Path(sys.executable).with_name("mutmut"))
STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests", 34: "skipped", 36: "timeout",
          37: "killed", 24: "timeout", -24: "timeout", 152: "timeout", 255: "timeout", None: "not checked"}

# runs mutmut's CLI in this interpreter, optionally without its clean run (see step 3 of the module doc)
_RUNNER = """
import sys
from mutmut.workers import isolation
if sys.argv[1] == "skip-clean":
    for cls in (isolation.ForkServerRunner, isolation.ForkRunner):
        cls.run_clean_tests = lambda self, tests: 0
from mutmut.__main__ import cli
sys.argv = ["mutmut", *sys.argv[2:]]
cli()
"""


def env() -> dict:
    e = dict(os.environ, CI="1", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", PYTHONHASHSEED="0")
    e.pop("PYTHONPATH", None)   # mutants/ must be what the tests import
    return e


def _only_mutate() -> list[str]:
    import tomllib

    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"].get("only_mutate", ["*"])


def meta_files():
    """mutmut's result files of the modules [tool.mutmut] mutates now (stale ones of other modules skipped)."""
    from fnmatch import fnmatch

    globs = _only_mutate()
    base = ROOT / "mutants"
    return sorted(f for f in base.rglob("*.py.meta")
                  if any(fnmatch(str(f.relative_to(base))[:-len(".meta")], g) for g in globs))


def all_results() -> dict[str, int | None]:
    out = {}
    for f in meta_files():
        out.update(json.loads(f.read_text())["exit_code_by_key"])
    return out


def loadavg() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def generate(log) -> None:
    """Step 1 (mutmut reuses mutants/ and its stats when the sources did not change)."""
    p = subprocess.run([MUTMUT, "run", "__generate_only__"], cwd=ROOT, env=env(), capture_output=True, text=True)
    if "nothing matches" not in (p.stdout + p.stderr) and p.returncode != 0:
        log(p.stdout[-2000:] + p.stderr[-2000:])
        raise SystemExit("mutation_generic: mutmut could not generate the mutants or collect stats")


def set_timeout_multiplier(m: float) -> float:
    """Edit [tool.mutmut] timeout_multiplier in pyproject.toml; returns the old value."""
    path = ROOT / "pyproject.toml"
    text = path.read_text()
    old = float(re.search(r"^timeout_multiplier = ([0-9.]+)$", text, re.M).group(1))
    path.write_text(re.sub(r"^timeout_multiplier = [0-9.]+$", f"timeout_multiplier = {m}", text, flags=re.M))
    return old


def run_mutmut(names, jobs: int, skip_clean: bool, deadline, log) -> bool:
    """One mutmut run over ``names``; interrupted (SIGINT) at ``deadline``. True if it finished."""
    cmd = [sys.executable, "-c", _RUNNER, "skip-clean" if skip_clean else "clean", "run",
           "--max-children", str(jobs), *names]
    logf = open(ROOT / "mutants" / "mutation_generic.log", "a")  # noqa: SIM115 (held by the mutmut process)
    p = subprocess.Popen(cmd, cwd=ROOT, env=env(), stdout=logf, stderr=subprocess.STDOUT)
    total = len(names)
    last = time.time()
    while p.poll() is None:
        time.sleep(15)
        if deadline and dt.datetime.now(dt.UTC) >= deadline:
            log("mutation_generic: deadline reached; interrupting mutmut and reporting the mutants checked so far")
            p.send_signal(signal.SIGINT)
            try:
                p.wait(timeout=120)
            except subprocess.TimeoutExpired:
                p.kill()
            return False
        if time.time() - last > 120:
            res = all_results()
            log(f"mutation_generic: {sum(1 for n in names if res.get(n) is not None)}/{total} checked, "
                f"load {loadavg()}")
            last = time.time()
    return p.returncode == 0


def module_of(name: str) -> str:
    return name.split(".x_")[0].split(".xǁ")[0]


def _changes_a_string(name: str) -> bool:
    """Cheap pre-filter: mutmut marks a mutated string literal as "XX...XX"; without one in the mutant's
    function (mutants/<module path>.py, ``def <mangled name>(``) it cannot be message-only."""
    mod, _, func = name.rpartition(".")
    path = ROOT / "mutants" / (mod.replace(".", "/") + ".py")
    try:
        text = path.read_text()
    except OSError:
        return True
    i = text.find(f"def {func}(")
    if i < 0:
        return True
    j = text.find("\ndef ", i + 1)
    return "XX" in text[i:j if j > 0 else None]


def message_only(name: str) -> bool:
    """True when the mutant changes only a string literal of a `raise` statement (see module doc)."""
    if not _changes_a_string(name):
        return False
    p = subprocess.run([MUTMUT, "show", name], cwd=ROOT, env=env(), capture_output=True, text=True)
    old = [ln[1:] for ln in p.stdout.splitlines() if ln.startswith("-") and not ln.startswith("---")]
    new = [ln[1:] for ln in p.stdout.splitlines() if ln.startswith("+") and not ln.startswith("+++")]
    if not old or len(old) != len(new):
        return False

    def code_tokens(line):
        try:
            toks = list(tokenize.generate_tokens(io.StringIO(line.strip() + "\n").readline))
        except (tokenize.TokenError, IndentationError, SyntaxError):
            return None
        strings = {tokenize.STRING} | {getattr(tokenize, n) for n in ("FSTRING_START", "FSTRING_MIDDLE", "FSTRING_END")
                                        if hasattr(tokenize, n)}   # f-string tokens exist from Python 3.12
        return [(t.type, t.string) for t in toks if t.type not in strings]

    body = p.stdout
    for a, b in zip(old, new, strict=True):
        ta, tb = code_tokens(a), code_tokens(b)
        if ta is None or ta != tb:
            return False
    # the changed string belongs to an exception being raised
    ctx = "\n".join(old)
    return bool(re.search(r"raise |Error\(", ctx)) or bool(re.search(r"raise [A-Za-z]*Error\([^)]*$", body, re.M))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sample", type=int, default=500, help="sample size (0: every mutant)")
    ap.add_argument("--seed", type=int, default=20261126)
    ap.add_argument("--deadline", help="UTC HH:MM at which mutmut is interrupted")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--batch", type=int, default=50, help="mutants per mutmut run (0: one run)")
    ap.add_argument("--out", default=str(ROOT / "reports" / "mutation.json"))
    ap.add_argument("--skip-generate", action="store_true", help="reuse mutants/ (stats already collected)")
    ap.add_argument("--skip-clean-run", action="store_true", help="skip mutmut's clean run (see module doc)")
    ap.add_argument("--retry-timeouts", type=float, default=0.0,
                    help="re-run timed-out mutants with this timeout_multiplier (0: no retry)")
    ap.add_argument("--note", action="append", default=[], help="a note for the JSON (repeatable)")
    args = ap.parse_args(argv)
    log = lambda s: print(s, flush=True)  # noqa: E731
    t0 = time.time()
    notes = list(args.note)
    started = dt.datetime.now(dt.UTC)
    notes.append(f"started {started:%Y-%m-%d %H:%M} UTC, load average {loadavg()} (1, 5, 15 min)")
    if not args.skip_generate:
        log("mutation_generic: generating mutants and collecting test stats (mutmut)")
        generate(log)
        notes.append(f"mutants generated and test stats collected in {time.time() - t0:.0f} s; load {loadavg()}")
    names = sorted(all_results())
    if not names:
        raise SystemExit("mutation_generic: no mutants generated (check [tool.mutmut] in pyproject.toml)")
    rng = random.Random(args.seed)
    sample = names if args.sample <= 0 or args.sample >= len(names) else rng.sample(names, args.sample)
    log(f"mutation_generic: {len(names)} mutants; running {len(sample)} (seed {args.seed})")
    deadline = None
    if args.deadline:
        hh, mm = map(int, args.deadline.split(":"))
        deadline = dt.datetime.now(dt.UTC).replace(hour=hh, minute=mm, second=0, microsecond=0)
    done = all_results()
    todo = [n for n in sample if done.get(n) is None]
    t1 = time.time()
    # batches in the sample's (random) order: a batch that completes is a random part of the sample; mutmut
    # orders the mutants inside one run by their tests' duration, so an interrupted batch is not, and its
    # finished mutants are not counted (`counted` below)
    batch = args.batch if args.batch > 0 else max(1, len(todo))
    counted = {n for n in sample if done.get(n) is not None}
    finished = True
    for i in range(0, len(todo), batch):
        if deadline and dt.datetime.now(dt.UTC) >= deadline:
            finished = False
            break
        part = todo[i:i + batch]
        if not run_mutmut(part, args.jobs, args.skip_clean_run, deadline, log):
            finished = False
            break
        counted |= set(part)
        log(f"mutation_generic: {len(counted)}/{len(sample)} checked ({time.time() - t0:.0f} s, load {loadavg()})")
    stopped = "" if finished else " (stopped at the deadline; mutants of an unfinished batch are not counted)"
    notes.append(f"mutmut over {len(counted)} of the {len(sample)} sampled mutants in batches of {batch}: "
                 f"{time.time() - t1:.0f} s wall{stopped}; load at the end {loadavg()}")
    res = all_results()
    retried = []
    if args.retry_timeouts and (not deadline or dt.datetime.now(dt.UTC) < deadline):
        retried = [n for n in sample if STATUS.get(res.get(n)) == "timeout"]
        if retried:
            old = set_timeout_multiplier(args.retry_timeouts)
            try:
                t2 = time.time()
                ok = run_mutmut(retried, args.jobs, args.skip_clean_run, deadline, log)
                notes.append(f"{len(retried)} timed-out mutants re-run with timeout_multiplier {args.retry_timeouts} "
                             f"(was {old}): {time.time() - t2:.0f} s{'' if ok else ', interrupted'}")
            finally:
                set_timeout_multiplier(old)
            res = all_results()
    checked = {n: STATUS.get(res.get(n), "suspicious") for n in sample if n in counted and res.get(n) is not None}
    survivors = sorted(n for n, s in checked.items() if s in ("survived", "no tests"))
    msg = {n for n in survivors if message_only(n)}
    count = lambda st: sum(1 for s in checked.values() if s == st)  # noqa: E731
    killed, timeout = count("killed"), count("timeout")
    survived, no_tests = count("survived"), count("no tests")
    other = len(checked) - killed - timeout - survived - no_tests
    den = killed + timeout + survived + no_tests
    lo, hi = wilson_interval(killed + timeout, den)
    by_module = {}
    for n, s in checked.items():
        m = by_module.setdefault(module_of(n), {"killed": 0, "survived": 0, "timeout": 0, "message_only": 0})
        key = {"no tests": "survived"}.get(s, s)
        if key in m:
            m[key] += 1
        if n in msg:
            m["message_only"] += 1
    for m in by_module.values():
        d = m["killed"] + m["survived"] + m["timeout"]
        m["kill_rate"] = round((m["killed"] + m["timeout"]) / d, 4) if d else None
    gen = {
        "tool": "mutmut " + subprocess.run([sys.executable, "-c", "import importlib.metadata as m;"
                                            "print(m.version('mutmut'))"], capture_output=True, text=True).stdout.strip(),
        "modules": sorted({module_of(n) for n in names}),
        "total_mutants": len(names),
        "sample": {"size": len(sample), "seed": args.seed, "checked": len(checked),
                   "random": len(sample) < len(names), "complete": len(checked) == len(sample)},
        "killed": killed,
        "survived": survived + no_tests,
        "survived_no_tests": no_tests,
        "timeout": timeout,
        "message_only": len(msg),
        "other": other,
        "kill_rate": round((killed + timeout) / den, 4) if den else None,
        "kill_rate_95ci_wilson": [round(lo, 4), round(hi, 4)],
        "kill_rate_strict": round(killed / den, 4) if den else None,
        "kill_rate_excluding_messages": (round((killed + timeout) / (den - len(msg)), 4)
                                         if den - len(msg) else None),
        "by_module": by_module,
        "survivors": survivors,
        "message_only_survivors": sorted(msg),
        "timeouts_retried": len(retried),
        "counting": "kill_rate = (killed + timeout) / (killed + timeout + survived), survived including 'no tests' "
                    "and the message-only survivors (a test checking the message would kill them; the bad-input "
                    "standard asks for one); kill_rate_excluding_messages leaves those out, for comparison; "
                    "kill_rate_strict counts timeouts as not killed",
        "tests": "the fast tests of [tool.mutmut] pytest_add_cli_args_test_selection (incl. the fast claims "
                 "through tests/proofs/test_proofs.py and their pinned verdicts), only those reaching the "
                 "mutated function, stopping at the first failure",
        "seconds": round(time.time() - t0),
        "scope": (f"configured layer: every module of [tool.mutmut] only_mutate ({len({module_of(n) for n in names})} "
                  f"modules, {len(names)} mutants), "
                  + ("every mutant" if len(sample) == len(names) else f"a seeded random sample of {len(sample)}")
                  + ("" if finished else "; INTERRUPTED at the deadline: only the completed batches are counted")),
        "notes": notes,
    }
    update_report(Path(args.out), "generic", gen)
    log(json.dumps({k: v for k, v in gen.items() if k not in ("survivors", "by_module", "message_only_survivors")},
                   indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
