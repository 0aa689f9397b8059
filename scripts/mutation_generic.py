"""Generic mutation testing of the core numeric modules with mutmut (the `generic` section of
reports/mutation.json). Run by `make mutation`; not part of CI.

    .venv/bin/python scripts/mutation_generic.py [--sample 500] [--seed 20261124] [--deadline 08:40]

Configuration is [tool.mutmut] in pyproject.toml (modules, tests, timeout_multiplier). Steps:
1. `mutmut run` once with a name that matches nothing: generates every mutant and collects which
   tests reach which function (stats); mutmut then stops ("nothing matches"), as intended.
2. A seeded random sample of the mutant names (all of them with --sample 0).
3. `mutmut run NAMES` in batches (2 workers); each mutant runs only the tests that reach it.
   With --deadline the batches stop at that UTC time and the report covers the mutants checked.
4. Counts by mutmut's status; the kill rate with its 95 % Wilson interval.

Error-message-only mutants: a survivor whose mutation changes nothing but a string literal inside a
`raise` statement (the text of an error message) is counted separately as `message_only` and left
out of the kill rate's denominator (it cannot change a number or a verdict; the style guide's
"error names the bad value" is checked by the bad-input tests, which kill many such mutants).
The rate including them is reported too (`kill_rate_including_messages`).
Timeouts: a mutant whose tests exceed timeout_multiplier x their clean duration is counted as
`timeout` and as detected (the suite did not pass), as mutmut does; `kill_rate_strict` excludes them.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import json
import os
import random
import re
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


def env() -> dict:
    return dict(os.environ, CI="1", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", PYTHONHASHSEED="0")


def meta_files():
    return sorted((ROOT / "mutants").rglob("*.py.meta"))


def all_results() -> dict[str, int | None]:
    out = {}
    for f in meta_files():
        out.update(json.loads(f.read_text())["exit_code_by_key"])
    return out


def generate(log) -> None:
    """Step 1 (skipped when mutants/ already holds the stats of the current sources)."""
    p = subprocess.run([MUTMUT, "run", "__generate_only__"], cwd=ROOT, env=env(), capture_output=True, text=True)
    if "nothing matches" not in (p.stdout + p.stderr) and p.returncode != 0:
        log(p.stdout[-2000:] + p.stderr[-2000:])
        raise SystemExit("mutation_generic: mutmut could not generate the mutants or collect stats")


def module_of(name: str) -> str:
    return name.split(".x_")[0].split(".xǁ")[0]


def message_only(name: str) -> bool:
    """True when the mutant changes only a string literal of a `raise` statement (see module doc)."""
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
    for a, b in zip(old, new):
        ta, tb = code_tokens(a), code_tokens(b)
        if ta is None or ta != tb:
            return False
    # the changed string belongs to an exception being raised
    ctx = "\n".join(old)
    return bool(re.search(r"raise |Error\(", ctx)) or bool(re.search(r"raise [A-Za-z]*Error\([^)]*$", body, re.M))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sample", type=int, default=500, help="sample size (0: every mutant)")
    ap.add_argument("--seed", type=int, default=20261124)
    ap.add_argument("--deadline", help="UTC HH:MM after which no new batch starts")
    ap.add_argument("--batch", type=int, default=40)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=str(ROOT / "reports" / "mutation.json"))
    ap.add_argument("--skip-generate", action="store_true", help="reuse mutants/ (stats already collected)")
    args = ap.parse_args(argv)
    log = lambda s: print(s, flush=True)  # noqa: E731
    t0 = time.time()
    if not args.skip_generate:
        log("mutation_generic: generating mutants and collecting test stats (mutmut)")
        generate(log)
    names = sorted(all_results())
    if not names:
        raise SystemExit("mutation_generic: no mutants generated (check [tool.mutmut] in pyproject.toml)")
    rng = random.Random(args.seed)
    sample = names if args.sample <= 0 or args.sample >= len(names) else rng.sample(names, args.sample)
    log(f"mutation_generic: {len(names)} mutants; running {len(sample)} (seed {args.seed})")
    deadline = None
    if args.deadline:
        hh, mm = map(int, args.deadline.split(":"))
        now = dt.datetime.now(dt.timezone.utc)
        deadline = now.replace(hour=hh, minute=mm, second=0, microsecond=0)
    done = all_results()
    todo = [n for n in sample if done.get(n) is None]
    for i in range(0, len(todo), args.batch):
        if deadline and dt.datetime.now(dt.timezone.utc) >= deadline:
            log("mutation_generic: deadline reached; reporting the mutants checked so far")
            break
        batch = todo[i:i + args.batch]
        subprocess.run([MUTMUT, "run", "--max-children", str(args.jobs), *batch], cwd=ROOT, env=env(),
                       capture_output=True, text=True)
        res = all_results()
        k = sum(1 for n in sample if res.get(n) is not None)
        log(f"mutation_generic: {k}/{len(sample)} checked ({time.time() - t0:.0f} s)")
    res = all_results()
    checked = {n: STATUS.get(res.get(n), "suspicious") for n in sample if res.get(n) is not None}
    survivors = [n for n, s in checked.items() if s in ("survived", "no tests")]
    msg = {n for n in survivors if message_only(n)}
    count = lambda st: sum(1 for n, s in checked.items() if s == st and n not in msg)  # noqa: E731
    killed, timeout = count("killed"), count("timeout")
    survived, no_tests = count("survived"), count("no tests")
    other = len(checked) - killed - timeout - survived - no_tests - len(msg)
    den = killed + timeout + survived + no_tests
    lo, hi = wilson_interval(killed + timeout, den)
    by_module = {}
    for n, s in checked.items():
        m = by_module.setdefault(module_of(n), {"killed": 0, "survived": 0, "timeout": 0, "message_only": 0})
        key = "message_only" if n in msg else {"no tests": "survived"}.get(s, s)
        if key in m:
            m[key] += 1
    gen = {
        "tool": "mutmut " + subprocess.run([sys.executable, "-c", "import importlib.metadata as m;"
                                            "print(m.version('mutmut'))"], capture_output=True, text=True).stdout.strip(),
        "modules": sorted({module_of(n) for n in names}),
        "total_mutants": len(names),
        "sample": {"size": len(sample), "seed": args.seed, "checked": len(checked),
                   "random": len(sample) < len(names)},
        "killed": killed,
        "survived": survived + no_tests,
        "survived_no_tests": no_tests,
        "timeout": timeout,
        "message_only": len(msg),
        "other": other,
        "kill_rate": round((killed + timeout) / den, 4) if den else None,
        "kill_rate_95ci_wilson": [round(lo, 4), round(hi, 4)],
        "kill_rate_strict": round(killed / den, 4) if den else None,
        "kill_rate_including_messages": round((killed + timeout) / (den + len(msg)), 4) if den + len(msg) else None,
        "by_module": by_module,
        "survivors": sorted(survivors),
        "counting": "kill_rate = (killed + timeout) / (killed + timeout + survived); survived includes 'no tests'; "
                    "message_only survivors (only an error message's text changed) are excluded from the rate",
        "tests": "the fast tests of [tool.mutmut] pytest_add_cli_args_test_selection (fast claims through "
                 "tests/test_proofs.py and the pinned verdicts), only those reaching the mutated function",
        "seconds": round(time.time() - t0),
    }
    update_report(Path(args.out), "generic", gen)
    log(json.dumps({k: v for k, v in gen.items() if k not in ("survivors", "by_module")}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
