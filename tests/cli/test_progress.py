"""Issue 13, item 5: progress of single long computations (PolyOpt, NR, column generation, the audit) on
stderr, through :mod:`rldp_verify.core.progress` and :class:`rldp_verify.cli.progress.Live`: the step, n/total
and an ETA on a terminal; nothing when stderr is a pipe or with --quiet; stdout stays clean JSON."""

import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from rldp_verify.core import progress
from tests import _cli_runner
from tests.fakes import FakeStream

ROOT = Path(__file__).resolve().parents[2]
PHAT43 = "7,10,5;26,57,9;11,4,8;5,5,5"    # 4 x 3: 12 certified lower bounds L_{u|s}, ~1-2 s
COUNT = re.compile(r"(\d+)/(\d+) (\w+) \[\d\d:\d\d<(\d\d:\d\d|\?)\]")   # n/total unit [elapsed<ETA]


def test_hooks_do_nothing_without_a_reporter_and_forward_with_one():
    progress.step("x", 3)          # no reporter installed: no effect, no error
    progress.update(1, "info")
    assert not progress.active()
    seen = []

    class R:
        def step(self, name, total, unit):
            seen.append(("step", name, total, unit))

        def update(self, done, info):
            seen.append(("update", done, info))

    with progress.reporting(R()):
        assert progress.active()
        progress.step("vertices", 10, "vertices")
        progress.update(4, "half")
    assert not progress.active()
    progress.update(5)
    assert seen == [("step", "vertices", 10, "vertices"), ("update", 4, "half")]


def test_live_shows_step_count_eta_and_status_on_a_terminal():
    from rldp_verify.cli.progress import Live

    s = FakeStream(True)
    with Live("audit", delay=0.0, stream=s):
        progress.step("pairs certified in arb", 8, "pairs")
        for i in range(4):
            progress.update(i + 1, f"best ratio {i}")
            time.sleep(0.3)
        progress.step("column generation", None)
        time.sleep(0.7)
    text = "".join(s.parts)
    m = COUNT.search(text)
    assert m and m.group(2) == "8" and m.group(3) == "pairs", text
    assert "audit" in text and "pairs certified in arb" in text and "best ratio" in text
    assert "column generation [" in text      # a step without a count: elapsed time only
    assert not progress.active()              # the reporter is removed after the block


@pytest.mark.parametrize("tty, quiet, delay", [(False, False, 0.0), (True, True, 0.0), (True, False, 30.0)])
def test_live_is_silent_off_a_terminal_with_quiet_and_before_its_delay(tty, quiet, delay):
    from rldp_verify.cli.progress import Live

    s = FakeStream(tty)
    with Live("mechanism polyopt", delay=delay, quiet=quiet, stream=s):
        progress.step("vertices", 10, "vertices")
        progress.update(3)
        time.sleep(0.7)
    assert "".join(s.parts) == ""


def _run_on_pty(args, *, quiet=False):
    """Run the CLI with stderr on a pseudo-terminal (stdout a pipe): (returncode, stdout, terminal text)."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 200, 0, 0))
    env = dict(os.environ, RLDP_VERIFY_PROGRESS_DELAY="0")
    proc = subprocess.Popen([sys.executable, "-m", "rldp_verify", *args, *(["--quiet"] if quiet else [])],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL, env=env)
    os.close(slave)
    chunks = []

    def reader():
        while True:
            try:
                b = os.read(master, 4096)
            except OSError:        # EIO: the terminal's last writer closed it
                return
            if not b:
                return
            chunks.append(b)

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    out, _ = proc.communicate(timeout=300)
    t.join(timeout=10)
    os.close(master)
    return proc.returncode, out.decode(), b"".join(chunks).decode(errors="replace")


POLYOPT = ["mechanism", "polyopt", "--eps", "1", "--phat", PHAT43, "--alpha", "2", "--radius", "0.05",
           "--route", "enumerate"]


def test_mechanism_progress_on_a_terminal_not_on_stdout():
    rc, out, term = _run_on_pty(POLYOPT)
    assert rc == 0, term
    doc = json.loads(out)                         # stdout: the JSON and nothing else
    assert doc["parameters"]["mechanism"] == "PolyOpt"
    counts = [(int(n), int(t), u) for n, t, u, _ in COUNT.findall(term)]
    assert any(t == 12 and u == "cells" for n, t, u in counts), term     # the 12 certified lower bounds L_{u|s}
    assert all(n <= t for n, t, _ in counts), counts
    assert "mechanism polyopt" in term and "certified lower bounds" in term


def test_mechanism_quiet_on_a_terminal_and_nothing_on_a_pipe():
    rc, out, term = _run_on_pty(POLYOPT, quiet=True)
    assert rc == 0 and json.loads(out)["matrix"]
    assert term.strip() == "", term
    env = dict(os.environ, RLDP_VERIFY_PROGRESS_DELAY="0")
    p = subprocess.run([sys.executable, "-m", "rldp_verify", *POLYOPT], cwd=ROOT, capture_output=True, text=True,
                       env=env, timeout=300)
    assert p.returncode == 0 and json.loads(p.stdout)["matrix"]
    assert p.stderr == "", p.stderr


def test_audit_progress_counts_pairs_and_precision_round(tmp_path):
    phat = "7,10;26,57;5,5"
    mech = tmp_path / "polyopt.json"
    made = _cli_runner.run("mechanism", "polyopt", "--eps", "1", "--phat", phat, "--alpha", "2", "--radius", "0.05",
                           "-o", str(mech), cwd=ROOT)  # the input file: in this process (no terminal involved)
    assert made.returncode == 0, made.stderr
    args = ["audit", str(mech), "--eps", "1", "--phat", phat, "--alpha", "2", "--radius", "0.05", "--no-screen",
            "--json"]
    rc, out, term = _run_on_pty(args)
    assert rc in (0, 1, 3), term
    doc = json.loads(out)
    y = len(json.loads(mech.read_text())["outputs"])
    assert doc["pairs_certified_in_arb"] == 6 * y              # |Y| outputs x 3 x 2 ordered pairs (s, s')
    counts = [(int(n), int(t), u) for n, t, u, _ in COUNT.findall(term)]
    assert any(t == 6 * y and u == "pairs" for _, t, u in counts), term
    assert all(n <= t for n, t, _ in counts), counts
    assert "precision round 1 of at most" in term
    rc, out2, term = _run_on_pty(args, quiet=True)
    assert json.loads(out2)["verdict"] == doc["verdict"] and term.strip() == "", term


def test_colgen_shows_bracket_and_time_limit_as_total():
    # 6 x 6: the column-generation loop runs until the 4 s time limit (less the reserve it keeps for certifying:
    # at least half of what the set-up left), long enough to be drawn even on a loaded machine
    phat = "7,10,5,3,2,8;26,57,9,4,1,3;11,4,8,6,3,9;5,5,5,5,5,2;1,2,3,4,5,6;9,3,7,2,8,4"
    args = ["mechanism", "nr", "--eps", "1", "--phat", phat, "--route", "colgen", "--time-limit", "4", "--gap", "1e-12"]
    rc, out, term = _run_on_pty(args)
    assert rc == 0, term
    doc = json.loads(out)
    assert doc["parameters"]["optimum_bracket"]
    assert re.search(r"column generation .*: \d+/[1-4] s \[", term), term
    assert re.search(r"bracket \[[0-9.e+-]+, [0-9.e+-]+\] width [0-9.e+-]+", term), term


def test_ball_shows_its_cells_on_a_terminal():
    """Issue 29: a large P-hat gave no sign of life; ``ball`` counts the cells of L_{u|s} (n/total, ETA)."""
    phat = ";".join(",".join(str(1 + (3 * i + 5 * j) % 7) for j in range(4)) for i in range(3))
    args = ["ball", "--phat", phat, "--alpha", "2", "--radius", "0.05", "--json"]
    rc, out, term = _run_on_pty(args)
    assert rc == 0, term
    assert len(json.loads(out)["conditional"]) == 3           # stdout: the JSON only
    counts = [(int(n), int(t), u) for n, t, u, _ in COUNT.findall(term)]
    assert any(t == 12 and u == "cells" for n, t, u in counts), term
    assert "ball" in term and "lower bounds L_{u|s}(F)" in term
    rc, out, term = _run_on_pty(args, quiet=True)
    assert rc == 0 and term.strip() == "", term


def test_deadline_stops_a_bounded_set_up_naming_the_step_and_is_taken_over():
    from rldp_verify.core.errors import InputError

    with progress.deadline(0.2, "--time-limit 0.2 s"):
        progress.step("lower bounds", 10, "cells")
        progress.update(3)
        time.sleep(0.3)
        with pytest.raises(progress.TimeLimitReached) as info:
            progress.update(4)
        assert isinstance(info.value, InputError)
        assert str(info.value) == ("--time-limit 0.2 s reached during lower bounds (4 of 10 cells): this set-up alone "
                                   "needs more time; raise the time limit")
    with progress.deadline(5, "--time-limit 5 s"):
        progress.step("set-up")
        left = progress.take_over_deadline()
        assert 4 < left <= 5
        progress.step("the loop that stops by itself")     # no deadline any more
        assert progress.take_over_deadline() is None
    with progress.deadline(None, "none"):
        assert progress.take_over_deadline() is None
    progress.step("outside any deadline")
    progress.update(1)


def test_mechanism_time_limit_covers_the_set_up():
    """Issue 29: `mechanism polyopt` on a large P-hat spent minutes in set-up past --time-limit; now a set-up
    that outlasts the limit stops with one line naming the step and how far it got."""
    phat = ";".join(",".join(str(1 + (3 * i + 5 * j) % 7) for j in range(12)) for i in range(3))
    p = subprocess.run([sys.executable, "-m", "rldp_verify", "mechanism", "polyopt", "--eps", "1", "--phat", phat,
                        "--alpha", "2", "--radius", "0.05", "--route", "colgen", "--time-limit", "0.001"],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert p.returncode == 2 and p.stdout == "", p.stderr
    line = p.stderr.strip()
    assert "\n" not in line and line.startswith("rldp-verify: error: --time-limit 0.001 s reached during "), line
    assert re.search(r"\(\d+ of \d+ (cells|blocks)\)", line) and "raise the time limit" in line, line


def test_ball_time_limit_stops_with_one_line():
    """Issue 29: `ball` on a large P-hat printed nothing for minutes; --time-limit stops it with one line naming
    the step and how far it got (exit 2), well before the last cell."""
    phat = ";".join(",".join(str(1 + (3 * i + 5 * j) % 7) for j in range(40)) for i in range(40))
    p = subprocess.run([sys.executable, "-m", "rldp_verify", "ball", "--phat", phat, "--alpha", "2", "--radius",
                        "0.05", "--time-limit", "0.5", "--json"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert p.returncode == 2 and p.stdout == "", p.stderr
    line = p.stderr.strip()
    assert "\n" not in line and line.startswith("rldp-verify: error: --time-limit 0.5 s reached during lower bounds "
                                                "L_{u|s}(F) ("), line
    done = int(re.search(r"\((\d+) of 1600 cells\)", line).group(1))
    assert done < 1600, line
    for bad in ("0", "-1", "inf", "x"):
        q = _cli_runner.run("ball", "--phat", "7,10;26,57", "--alpha", "2", "--radius", "0.05", "--time-limit", bad,
                            cwd=ROOT)  # bad input, refused before any work: in this process
        assert q.returncode == 2 and q.stderr.strip() == ("rldp-verify: error: --time-limit must be a positive number "
                                                          f"of seconds, got {bad!r}"), q.stderr
