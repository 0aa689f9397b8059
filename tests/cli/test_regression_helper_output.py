"""Issue 29: a failing regression check reads well in pytest: the helper's frames are hidden
(``__tracebackhide__``), the message opens with the pattern of the bad points (the worst one, the input that
separates bad from good) and lists the bad points worst first."""

from __future__ import annotations

import math
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from rldp_verify.testing import _pattern, assert_matches_reference

ROOT = Path(__file__).resolve().parents[2]
GRID = [{"p_s": ps, "alpha": a, "B": b} for ps in ("0.2", "0.5") for a in ("0.5", "1", "2", "3") for b in ("0.01", "0.1")]


def correct_B_s(p_s, alpha, B):
    if alpha == 1:
        return B / p_s
    return alpha / (alpha - 1) * math.log((math.exp((alpha - 1) * B / alpha) - (1 - p_s)) / p_s)


def kl_everywhere(p_s, alpha, B):  # the alpha = 1 formula for every alpha: wrong wherever alpha != 1
    return B / p_s


def test_message_summarises_the_pattern_worst_first():
    assert_matches_reference(correct_B_s, "B_s", GRID, rtol=1e-12)
    with pytest.raises(AssertionError) as info:
        assert_matches_reference(kl_everywhere, "B_s", GRID, rtol=1e-12)
    msg = str(info.value)
    lines = msg.splitlines()
    assert lines[0].startswith("12 of 16 points of 'B_s' do not match the reference")
    assert lines[1].startswith("Worst: relative difference ")
    assert "Pattern: every point with alpha != 1.0 fails (12 of 12); none with alpha = 1.0 (0 of 4)." in msg
    rels = [float(line.rsplit("rel. diff ", 1)[1]) for line in lines if line.startswith("  ")]
    assert len(rels) == 12 and rels == sorted(rels, reverse=True)
    assert lines[1].split("relative difference ")[1].split()[0] == f"{rels[0]:.3g}"


def test_pattern_without_a_separating_input():
    points = [{"a": a, "b": b} for a in range(3) for b in range(4)]
    bad = [(p, "1.0", "2.0", 0.5) for p in points if (p["a"], p["b"]) in ((0, 0), (1, 1), (2, 2), (0, 3))]
    text = " ".join(_pattern(points, bad))
    assert "No input separates the bad points; the largest shares:" in text and "a = 0: 2 of 4 bad" in text


def test_pytest_shows_the_test_line_not_the_helper(tmp_path):
    (tmp_path / "test_mine.py").write_text(textwrap.dedent('''
        def my_B_s(p_s, alpha, B):
            return B / p_s

        def test_B_s(rldp_assert_matches_reference):
            grid = [{"p_s": "0.5", "alpha": "2", "B": "0.1"}, {"p_s": "0.5", "alpha": "1", "B": "0.1"}]
            rldp_assert_matches_reference(my_B_s, "B_s", grid, rtol=1e-12)
        '''))
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_mine.py"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stdout + r.stderr
    failure = r.stdout.split("___ test_B_s ___")[1].split("short test summary")[0]
    assert "rldp_assert_matches_reference(my_B_s" in failure            # the test's own line
    assert "def assert_matches_reference" not in failure and "__tracebackhide__" not in failure
    assert "testing.py" not in failure and "pytest_plugin.py" not in failure
    assert "1 of 2 points of 'B_s' do not match" in failure
    assert len(failure.splitlines()) < 30, failure


def test_pattern_confined_to_some_values():
    points = [{"alpha": a, "B": b} for a in (0.5, 1.0, 2.0) for b in (0.0, 0.1, 1.0)]
    bad = [(p, "1.0", "2.0", 0.5) for p in points if p["alpha"] != 1.0 and p["B"] != 0.0]
    text = " ".join(_pattern(points, bad))
    assert "Pattern: no point with alpha = 1.0 fails (0 of 3); the bad points all have alpha != 1.0 (4 of 6" in text
