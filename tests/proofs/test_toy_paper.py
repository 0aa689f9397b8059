"""Adding a paper touches one folder and one registry entry (issue 27; README, "Adding a paper").

A copy of the papers' package without its papers (its ``__init__``, the registry ``papers.py`` and the
statement and step indexes' machinery) is made in ``tmp_path`` under another name. A toy paper is then added
exactly as the README says: one folder (``toy/``: a claim module, ``statements.toml``, ``pins.json``,
``mutants.py``) and one entry in ``papers.py``. The test shows it discovered, run, pinned and reported by
``rldp-verify report --proofs``, covered in the statement index, its mutant run and killed; nothing else was
edited. Everything that imports the copy runs in a fresh interpreter (the claim registry is per process).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "toycatalogue"
INFRASTRUCTURE = ("__init__.py", "papers.py", "statements/__init__.py", "steps/__init__.py")

CLAIM = '''\
"""Claims of the toy paper: Definition 1 (the KL divergence) on one pair of distributions."""

import mpmath

from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.divergence import kl_divergence


@claim(
    id="toy.def1.kl-two-points",
    paper="toy.txt",
    source="Def. 1, eq. (1)",
    statement="D(P||Q) = log 2 - (1/2) log 3 for P = (1/2, 1/2), Q = (1/4, 3/4)",
    method=Method.HIGH_PRECISION,
)
def check(ctx):
    with mpmath.workdps(ctx.dps):
        half, quarter = mpmath.mpf(1) / 2, mpmath.mpf(1) / 4
        got = kl_divergence([half, half], [quarter, 1 - quarter], dps=ctx.dps)
        want = mpmath.log(2) - mpmath.log(3) / 2
        err = abs(got - want)
        if err < mpmath.mpf(10) ** (5 - ctx.dps):
            return Outcome.verified(f"D = {mpmath.nstr(got, 15)}", error=mpmath.nstr(err, 3))
        return Outcome.refuted(f"D = {mpmath.nstr(got, 15)}, not {mpmath.nstr(want, 15)}",
                               {"got": str(got), "want": str(want)}, kind="false")
'''

STATEMENTS = '''\
paper = "toy.txt"

[[statement]]
id = "def1"
kind = "definition"
label = "Definition 1"
where = "Sec. 1, Definition 1, eq. (1)"
equations = ["1"]
text = "D(P||Q) = sum_x P(x) log(P(x)/Q(x))"
claims = ["toy.def1.kl-two-points"]
'''

PINS = {"claims": {"toy.def1.kl-two-points": {"verdict": "VERIFIED"}}}

MUTANTS = '''\
"""Wrong variants of the engine that the toy paper's claims must detect."""

from rldp_verify.claims.mutants import mutant, wrap


def _base_two(kl):
    def wrong(phat, p, *, dps=None):
        import mpmath

        return kl(phat, p, dps=dps) / mpmath.log(2)   # bits instead of nats
    return wrong


MUTANTS = [
    mutant("toy.kl-in-bits", "rldp_verify.core.divergence", "the KL divergence in bits instead of nats",
           wrap("rldp_verify.core.divergence:kl_divergence", _base_two), ("toy.def1.*",)),
]
'''

ENTRY = ('    Paper("toy", "toy.txt", "A. Author, A Toy Paper (Test 2026)", key="author-2026", authors="A. Author", '
         'venue="Test", year=2026),\n')


def _python(code: str, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(cwd))
    return subprocess.run([sys.executable, *args] if not code else [sys.executable, "-c", code, *args],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def _catalogue(cwd: Path) -> dict:
    code = textwrap.dedent(f"""
        import json
        from rldp_verify.claims.catalogue import Catalogue
        cat = Catalogue.load({PACKAGE!r})
        print(json.dumps({{"papers": [p.name for p in cat.papers],
                           "claims": [c.id for c in cat.discover()],
                           "pins": cat.pins(),
                           "mutants": [m.id for m in cat.mutants()],
                           "order": cat.claim_order([c.id for c in cat.discover()])}}))
    """)
    r = _python(code, cwd)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_a_paper_is_one_folder_and_one_registry_entry(tmp_path):
    pkg = tmp_path / PACKAGE
    for rel in INFRASTRUCTURE:   # the papers' package without its papers
        (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / "proofs" / rel, pkg / rel)
    before = _catalogue(tmp_path)
    assert "toy" not in before["papers"] and before["claims"] == [] and before["mutants"] == []

    # the one folder ...
    toy = pkg / "toy"
    toy.mkdir()
    (toy / "__init__.py").write_text('"""Claims of the toy paper (toy.txt)."""\n')
    (toy / "def1_kl.py").write_text(CLAIM)
    (toy / "statements.toml").write_text(STATEMENTS)
    (toy / "pins.json").write_text(json.dumps(PINS))
    (toy / "mutants.py").write_text(MUTANTS)
    # ... and the one registry entry
    registry = pkg / "papers.py"
    text = registry.read_text()
    head = "PAPERS: tuple[Paper, ...] = (\n"
    assert text.count(head) == 1
    registry.write_text(text.replace(head, head + ENTRY))

    after = _catalogue(tmp_path)
    assert after["papers"][0] == "toy"                      # discovered: registry, claims, pins, mutants
    assert after["claims"] == ["toy.def1.kl-two-points"]
    assert after["pins"] == PINS["claims"]
    assert after["mutants"] == ["toy.kl-in-bits"]
    assert after["order"]["toy.txt"] == ["toy.def1.kl-two-points"]   # its statement index is read

    # run and reported by the command line, pinned verdict reached
    out = tmp_path / "out"
    r = _python("", tmp_path, "-m", "rldp_verify", "report", "--proofs", PACKAGE, "--out", str(out), "--quiet",
                "--no-cache")
    assert r.returncode == 0, r.stderr + r.stdout
    doc = json.loads((out / "verification.json").read_text())
    [c] = doc["claims"]
    assert (c["id"], c["verdict"]) == ("toy.def1.kl-two-points", PINS["claims"][c["id"]]["verdict"])
    md = (out / "verification.md").read_text()
    assert "A Toy Paper (Test 2026)" in md and "toy.def1.kl-two-points" in md
    toy_cov = doc["coverage"]["papers"]["toy.txt"]
    assert (toy_cov["statements"], toy_cov["covered"]) == (1, 1)

    # its mutant, run by the mutant runner through a catalogue that takes the paper's mutants, is killed
    (tmp_path / "toymutants.py").write_text(
        f"from rldp_verify.claims.catalogue import Catalogue\n\nMUTANTS = Catalogue.load({PACKAGE!r}).mutants()\n")
    code = textwrap.dedent(f"""
        import json
        from rldp_verify.claims.mutants import judge, load_catalogue, run_subprocess
        m = load_catalogue("toymutants")[0][0]
        base = run_subprocess("toymutants", None, package={PACKAGE!r})["results"]
        run = run_subprocess("toymutants", m.id, package={PACKAGE!r})
        print(json.dumps(judge(m, base, run)))
    """)
    r = _python(code, tmp_path)
    assert r.returncode == 0, r.stderr
    rec = json.loads(r.stdout)
    assert rec["status"] == "killed" and rec["killed_by"] == ["toy.def1.kl-two-points"], rec
