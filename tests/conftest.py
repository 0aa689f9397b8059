import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Deterministic by default, so that the test command cannot flake (issue 28 item 4): the same examples on every
# run and machine. HYPOTHESIS_PROFILE=dev draws fresh examples (to look for new counterexamples locally).
settings.register_profile("ci", derandomize=True, deadline=None, max_examples=60,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def _restore_mpmath_precision():
    """Each test starts at mpmath's default precision and leaves it as it found it (issue 27): a test that
    sets ``mp.dps`` without ``workdps`` cannot change the numbers of the tests after it."""
    import mpmath

    saved = mpmath.mp.prec
    mpmath.mp.prec = 53
    yield
    mpmath.mp.prec = saved


# --- the test command leaves the work tree as it found it (issue 28 item 4) ---------------------------------
_ROOT = Path(__file__).resolve().parents[1]


def _tree_state() -> dict[str, str] | None:
    """``{path: status + content digest}`` of every path ``git status`` lists (None: not a git work tree)."""
    try:
        out = subprocess.run(["git", "status", "--porcelain=v1", "-z", "--untracked-files=all"], cwd=_ROOT,
                             capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    state = {}
    for entry in filter(None, out.stdout.split("\0")):
        path = entry[3:]
        p = _ROOT / path
        digest = hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "-"
        state[path] = entry[:2] + " " + digest
    return state


def pytest_sessionstart(session):
    if not hasattr(session.config, "workerinput"):  # the controller (or a run without xdist)
        session.config._tree_before = _tree_state()


def pytest_sessionfinish(session, exitstatus):
    before = getattr(session.config, "_tree_before", None)
    if before is None or os.environ.get("RLDP_VERIFY_SKIP_TREE_CHECK"):
        return
    after = _tree_state() or {}
    changed = sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))
    if changed:
        shown = ", ".join(changed[:10]) + (f" and {len(changed) - 10} more" if len(changed) > 10 else "")
        sys.stderr.write(f"\nthe test run changed the work tree (git status): {shown}\n")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
