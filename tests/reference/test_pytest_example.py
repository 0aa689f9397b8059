"""The README's "Regression-checking your implementation" example, run as a user would run it (pytester):
the right B_s passes, the chi-square radius fails listing every bad grid point, the one-sided check passes."""

import re
from pathlib import Path

pytest_plugins = ["pytester"]

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "test_my_radius.py"


def test_readme_quotes_the_example():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    body = EXAMPLE.read_text()
    assert body.strip() in readme, "the README's pytest example differs from docs/examples/test_my_radius.py"


def test_example_right_passes_wrong_fails_listing_every_point(pytester):
    pytester.makepyfile(test_my_radius=EXAMPLE.read_text())
    res = pytester.runpytest_subprocess("-q", "-p", "no:cacheprovider")
    res.assert_outcomes(passed=2, failed=1)
    out = res.stdout.str()
    m = re.search(r"(\d+) of 324 points of 'B_s' do not match the reference", out)
    assert m, out[-3000:]
    n_bad = int(m.group(1))
    listed = re.findall(r"^E?\s+(p_s=.*: got .*, wanted .*, rel\. diff .*)$", out, flags=re.M)
    assert n_bad == 289 and len(set(listed)) == n_bad      # every bad point is listed (the README says 289)
    assert "p_s=1e-12, alpha=0.1, B=1e-10: got 100.000000005, wanted inf" in out
