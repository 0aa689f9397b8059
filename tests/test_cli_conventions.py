"""Issue 13: output hygiene, exit codes, --version, '-' as stdin, examples and exit codes in --help.

Issue 29: the conventions hold for *every* subcommand (the list is read from the parser, so a new subcommand
is covered the day it is registered): ``--help`` with examples and exit codes, ``SUBCOMMAND --version``,
JSON with ``schema_version`` and ``digits`` that validates against its shipped schema, ``-`` for stdin.
What a subcommand breaks today is a strict expected failure naming the reason (it turns into a failure
when fixed, so that the mark is removed)."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests import _cli_runner
from tests.fakes import FakeStream

ROOT = Path(__file__).resolve().parents[1]


def _subcommands() -> tuple[str, ...]:
    from rldp_verify.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return tuple(sorted(sub.choices))


SUBCOMMANDS = _subcommands()
# strict expected failures: (subcommand, convention) -> reason; owned by the subcommand's developers
KNOWN_GAPS: dict[tuple[str, str], str] = {}


def _known(sub: str, what: str):
    reason = KNOWN_GAPS.get((sub, what))
    return pytest.param(sub, marks=pytest.mark.xfail(strict=True, reason=reason)) if reason else sub


def cli(*args, stdin=None, env=None, cwd=ROOT):
    """``rldp-verify ARGS`` run in this process (tests/_cli_runner.py: as ``python -m rldp_verify`` would, without
    an interpreter start per call)."""
    return _cli_runner.run(*args, stdin=stdin, env=env, cwd=cwd)


def cli_process(*args, stdin=None, env=None, cwd=ROOT):
    """``python -m rldp_verify ARGS`` as a real process: for what is about the process (the entry point, C-level
    output on file descriptor 1)."""
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "rldp_verify", *args], cwd=cwd, input=stdin, capture_output=True,
                          text=True, env=e, timeout=300)


def assert_bad_input(out, *words):
    assert out.returncode == 2, (out.returncode, out.stderr)
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rldp-verify"), out.stderr
    assert "error:" in lines[0] and "Traceback" not in out.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])


def test_version():
    """The entry point itself, in a real process (the other tests run the CLI in this one)."""
    out = cli_process("--version")
    assert out.returncode == 0 and out.stdout.startswith("rldp-verify ") and out.stdout.split()[1][0].isdigit()


def test_every_subcommand_is_covered():
    assert {"audit", "audit-sampler", "ball", "mechanism", "reference", "report", "threshold"} <= set(SUBCOMMANDS)


@pytest.mark.parametrize("sub", [_known(s, "help") for s in SUBCOMMANDS])
def test_help_has_examples_and_exit_codes(sub):
    out = cli(sub, "--help")
    assert out.returncode == 0
    assert "examples:" in out.stdout and f"rldp-verify {sub}" in out.stdout.split("examples:")[1]
    codes = out.stdout.split("exit codes:")[1]
    assert "  0  " in codes and "  2  bad input" in codes


@pytest.mark.parametrize("sub", [_known(s, "help") for s in SUBCOMMANDS])
def test_every_option_has_help(sub):
    from rldp_verify.cli import build_parser

    parser = build_parser()
    action = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    bare = [a.option_strings[-1] for a in action.choices[sub]._actions if a.option_strings and not a.help]
    assert bare == [], f"options without help: {bare}"


@pytest.mark.parametrize("sub", SUBCOMMANDS)
def test_subcommand_version(sub):
    """``rldp-verify SUBCOMMAND --version`` prints the version even when the subcommand has required arguments."""
    out = cli(sub, "--version")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == cli("--version").stdout.strip()


def _validate(doc: dict, schema: str) -> None:
    import jsonschema

    from rldp_verify.cli._json import schema as load

    jsonschema.Draft202012Validator(load(schema)).validate(doc)


def _no_json_floats(x, where="$"):
    if isinstance(x, float):
        raise AssertionError(f"a JSON float at {where}: {x!r}")
    if isinstance(x, dict):
        for k, v in x.items():
            _no_json_floats(v, f"{where}.{k}")
    if isinstance(x, list):
        for i, v in enumerate(x):
            _no_json_floats(v, f"{where}[{i}]")


JSON_COMMANDS = {
    "ball": (["ball", "--phat", "7,10;26,57", "--alpha", "2", "--radius", "0.0752", "--json"], "ball", None),
    "mechanism": (["mechanism", "grr", "--eps", "0.5", "--phat", "7,10;26,57"], "mechanism", None),
    "threshold": (["threshold", "--paper", "kairouz", "--utility", "kl", "--p0", ".5,.3,.2", "--p1", ".1,.4,.5",
                   "--mechanism", "binary", "--json"], "threshold", None),
    "audit": (["audit", "-", "--eps", "0.5", "--ldp", "--json"], "audit", "mechanism"),
    "reference": (["reference", "B", "--grid", "-", "--format", "json", "--no-check-claims", "--quiet"], "reference",
                  "alpha,confidence,n,a\n2,0.95,100,4\n1/2,0.9,1000,6\n"),
    "audit-sampler": (["audit-sampler", "random:getrandbits", "--inputs", "0,1", "--trials", "200", "--json", "--quiet",
                       "--workers", "1"], "audit_sampler", None),
}


@pytest.mark.parametrize("sub", [_known(s, "json") for s in JSON_COMMANDS])
def test_json_has_schema_version_digits_and_validates(sub):
    args, schema, stdin = JSON_COMMANDS[sub]
    if stdin == "mechanism":
        stdin = cli(*JSON_COMMANDS["mechanism"][0]).stdout
    out = cli(*args, stdin=stdin)
    assert out.returncode in (0, 1), out.stderr
    doc = json.loads(out.stdout)
    assert doc["schema_version"] == 1 and isinstance(doc["digits"], int)
    _no_json_floats({k: v for k, v in doc.items() if k not in ("seconds", "provenance")})
    _validate(doc, schema)


def test_reference_reads_the_grid_from_stdin():
    out = cli("reference", "B", "--grid", "-", "--no-check-claims", "--quiet", stdin="alpha,confidence,n,a\n2,0.95,100,4\n")
    assert out.returncode == 0, out.stderr
    rows = [line for line in out.stdout.splitlines() if not line.startswith("#")]
    assert rows[0] == "alpha,confidence,n,a,value,error" and rows[1].startswith("2,0.95,100,4,0.0")
    # the time spent on the claims is reported, not hidden; with --no-check-claims they are found, not checked
    assert "(finding the claims: " in out.stdout and "checking the claims" not in out.stdout
    bad = cli("reference", "B", "--grid", "-", "--no-check-claims", "--quiet", stdin="alpha,confidence,n,a\n-2,0.95,100,4\n")
    assert_bad_input(bad, "alpha", "'-2'")


@pytest.mark.parametrize("eps, words", [
    ("inf", ["eps", "'inf'", "must be finite"]),
    ("1e6", ["--eps 1e6", "too large", "eps <= 1000"]),
    ("log(1e500)", ["too large", "eps <= 1000"]),
    ("nan", ["eps", "'nan'", "not a number"]),
])
def test_eps_messages(eps, words):
    assert_bad_input(cli("mechanism", "grr", "--eps", eps, "--phat", "7,10;26,57"), *words)


def test_report_help_documents_seed_quiet_and_exit_1():
    text = cli("report", "--help").stdout
    for opt in ("--seed", "--quiet"):
        after = text.split(opt, 1)[1].split("\n  --", 1)[0]
        assert len(after.split()) > 3, f"{opt} has no help text"
    assert "  1  at least one claim ended in ERROR" in text


def test_json_on_stdout_is_clean_for_highs_paths():
    """HiGHS prints a banner on the first Highs() of a process: it must not reach stdout."""
    nr = cli_process("mechanism", "nr", "--eps", "1", "--phat", "7,10;26,57")  # C-level output: a real process
    assert nr.returncode == 0, nr.stderr
    json.loads(nr.stdout)
    assert "HiGHS" not in nr.stdout + nr.stderr
    th = cli_process("threshold", "--paper", "kairouz", "--utility", "kl", "--p0", ".5,.3,.2", "--p1", ".1,.4,.5",
             "--mechanism", "binary", "--json")
    assert th.returncode == 0, th.stderr
    json.loads(th.stdout)
    assert "HiGHS" not in th.stdout + th.stderr


def test_json_tool_pipeline():
    p = subprocess.run(f"{sys.executable} -m rldp_verify mechanism nr --eps 1 --phat '7,10;26,57' | "
                       f"{sys.executable} -m json.tool", shell=True, cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["matrix"]


def test_dash_is_stdin_for_mechanism_files_and_data():
    mech = cli("mechanism", "grr", "--eps", "0.5", "--phat", "7,10;26,57", "-o", "-")
    assert mech.returncode == 0, mech.stderr
    aud = cli("audit", "-", "--eps", "0.5", "--ldp", "--json", stdin=mech.stdout)
    assert aud.returncode == 0, aud.stderr
    assert json.loads(aud.stdout)["verdict"] == "PASS"
    csv = "a,x\na,y\nb,x\nb,x\na,y\n"
    ball = cli("ball", "--data", "-", "--sensitive", "0", "--public", "1", "--alpha", "2", "--radius", "0.01",
               "--json", stdin=csv)
    assert ball.returncode == 0, ball.stderr
    assert json.loads(ball.stdout)["sensitive_values"] == ["a", "b"]


def test_stdin_garbage_is_one_line_error():
    assert_bad_input(cli("audit", "-", "--eps", "1", "--ldp", stdin="not json"), "<stdin>")


def test_report_only_matching_nothing_exits_2(tmp_path):
    out = cli("report", "--only", "no.such.claim.", "--out", str(tmp_path), "--quiet")
    assert_bad_input(out, "no.such.claim.")
    assert not (tmp_path / "verification.json").exists()


def _proofs_package(tmp_path, body):
    pkg = tmp_path / "tmpproofs"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "mod.py").write_text(textwrap.dedent(body))
    return {"PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"}


def test_report_exits_1_naming_error_claims(tmp_path):
    env = _proofs_package(tmp_path, '''
        from rldp_verify.claims import Method, Outcome, claim

        @claim(id="tmp.ok", paper="000_aca93ed29ea857ee.txt", source="Thm 1", statement="s", method=Method.EXACT)
        def ok(ctx):
            return Outcome.verified("fine")

        @claim(id="tmp.boom", paper="000_aca93ed29ea857ee.txt", source="Thm 2", statement="s", method=Method.EXACT)
        def boom(ctx):
            raise ZeroDivisionError("x")
    ''')
    out = cli("report", "--proofs", "tmpproofs", "--out", str(tmp_path / "r"), "--quiet", env=env)
    assert out.returncode == 1, out.stderr
    assert "tmp.boom" in out.stderr and "ERROR" in out.stderr and "tmp.ok" not in out.stderr
    assert json.loads((tmp_path / "r" / "verification.json").read_text())["summary"]["ERROR"] == 1


def test_report_artefacts_go_under_out(tmp_path):
    env = _proofs_package(tmp_path, '''
        from rldp_verify.claims import Method, Outcome, claim

        @claim(id="tmp.fig", paper="000_aca93ed29ea857ee.txt", source="Fig 1", statement="s", method=Method.EXACT)
        def fig(ctx):
            path, rel = ctx.artefact("figures/tmp.png")
            path.write_bytes(b"png")
            return Outcome.verified("drawn", figure=rel)
    ''')
    work = tmp_path / "elsewhere"
    work.mkdir()
    out = cli("report", "--proofs", "tmpproofs", "--out", str(tmp_path / "r"), "--quiet", env=env, cwd=work)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "r" / "figures" / "tmp.png").read_bytes() == b"png"
    assert not (work / "reports").exists()


def test_report_bad_out_and_proofs(tmp_path):
    f = tmp_path / "file"
    f.write_text("")
    assert_bad_input(cli("report", "--out", str(f), "--only", "rldp.example1"), "--out")
    assert_bad_input(cli("report", "--proofs", "no_such_pkg_xyz"), "no_such_pkg_xyz")
    assert_bad_input(cli("report", "--adult-data", str(tmp_path / "missing")), "--adult-data")


def test_adult_data_path_env_and_repository(tmp_path, monkeypatch):
    from rldp_verify.core.errors import InputError
    from rldp_verify.rldp.data import ADULT_ENV, adult_data_path

    monkeypatch.setenv(ADULT_ENV, str(tmp_path / "nope"))
    with pytest.raises(InputError, match=ADULT_ENV):
        adult_data_path()
    (tmp_path / "a.data").write_text("x")
    monkeypatch.setenv(ADULT_ENV, str(tmp_path / "a.data"))
    assert adult_data_path() == tmp_path / "a.data"
    monkeypatch.delenv(ADULT_ENV)
    try:
        p = adult_data_path()
    except InputError as exc:
        assert ADULT_ENV in str(exc)
    else:
        assert p.parts[-3:] == ("shared", "data", "adult.data") and ROOT.is_relative_to(p.parents[2])


def test_no_absolute_machine_paths_in_sources():
    for d in ("rldp_verify", "proofs", "benchmarks"):
        for f in (ROOT / d).rglob("*.py"):
            assert "/work/" not in f.read_text(), f


def test_progress_only_on_a_terminal_and_not_quiet():
    from rldp_verify.cli.progress import Progress

    for tty, quiet, shown in ((True, False, True), (False, False, False), (True, True, False)):
        s = FakeStream(tty)
        with Progress(3, desc="claims", quiet=quiet, stream=s) as p:
            p.start("a.claim")
            p.finish("a.claim", "VERIFIED a.claim")
            p.start("b.claim")
        text = "".join(s.parts)
        assert (("1/3" in text and "b.claim" in text and "VERIFIED a.claim" in text) if shown else text == ""), text


def test_non_stochastic_mechanism_message_names_the_cli_option():
    mech = '{"matrix": [["1/2", "1/2"], ["1/3", "1/2"]], "sensitive": ["a", "b"], "public": ["u"]}'
    out = cli("audit", "-", "--eps", "1", "--ldp", stdin=mech)
    assert_bad_input(out, "column 0 sums to 5/6", "--normalize on the command line, normalize=True in Python")
    assert "normalize=True / --normalize" not in out.stderr


def test_dash_is_stdin_wherever_a_file_is_read():
    """Every option that reads a file takes '-' for standard input: audit's mechanism (above), --data of ball and
    mechanism, reference --grid."""
    csv = "a,x\na,y\nb,x\nb,x\na,y\n"
    mech = cli("mechanism", "grr", "--eps", "1", "--data", "-", "--sensitive", "0", "--public", "1", stdin=csv)
    assert mech.returncode == 0, mech.stderr
    assert json.loads(mech.stdout)["sensitive"] == ["a", "b"]
    grid = cli("reference", "B", "--grid", "-", "--format", "json", "--no-check-claims", "--quiet",
               stdin='[{"alpha": "2", "confidence": "0.95", "n": "100", "a": "4"}]')
    assert grid.returncode == 0, grid.stderr
    assert len(json.loads(grid.stdout)["rows"]) == 1


# ---------------------------------------------------------------- issue 29: a second newcomer's pass

def test_check_certificates_reads_standard_input(tmp_path):
    """check-certificates reads files too: '-' is one JSON document from standard input, checked like a file
    (a JSON float or garbage there is a failed entry, exit 1; '-' twice is bad input)."""
    mech = cli("mechanism", "grr", "--eps", "0.5", "--phat", "7,10;26,57").stdout
    cert = tmp_path / "c.json"
    assert cli("audit", "-", "--eps", "0.5", "--ldp", "--certificate", str(cert), stdin=mech).returncode == 0
    ok = cli("check-certificates", "-", stdin=cert.read_text())
    assert ok.returncode == 0 and ok.stdout.startswith("OK ") and "1 certificates, 1 re-checked, 0 failed" in ok.stdout
    wrong = cert.read_text().replace('"ldp"', '"full-simplex"', 1) if '"ldp"' in cert.read_text() else "{}"
    assert cli("check-certificates", "-", stdin=wrong).returncode == 1
    bad = cli("check-certificates", "-", stdin='{"certificate": "rldp-verify", "x": 1.5}')
    assert bad.returncode == 1 and "JSON float 1.5" in bad.stdout
    assert_bad_input(cli("check-certificates", "-", "-", stdin=""), "more than once")


def test_reference_refuses_an_unwritable_output_before_working(tmp_path):
    """-o names a file to write: an unwritable one is one line 'cannot write' (not 'cannot read'), before the
    grid and the claims run."""
    import time

    t0 = time.monotonic()
    out = cli("reference", "B_s", "--grid", "default", "-o", str(tmp_path / "no" / "x.csv"))
    assert_bad_input(out, "cannot write", "x.csv")
    assert time.monotonic() - t0 < 15, "the claims ran before the output was checked"
    assert_bad_input(cli("reference", "B_s", "-o", str(tmp_path), "--no-check-claims"), "cannot write", "directory")


def test_threshold_names_the_option_of_a_bad_entry():
    out = cli("threshold", "--paper", "kairouz", "--utility", "kl", "--p0", ".5,.3,nan", "--p1", ".1,.4,.5")
    assert_bad_input(out, "--p0 entry 3", "'nan'")
    assert_bad_input(cli("threshold", "--paper", "kairouz", "--utility", "mi", "--p", ".4,x,.2,.4"), "--p entry 2")


@pytest.mark.parametrize("sub", ["ball", "audit"])
def test_alpha_inf_says_it_must_be_finite(sub):
    args = ["ball"] if sub == "ball" else ["audit", "-", "--eps", "1"]
    stdin = cli(*JSON_COMMANDS["mechanism"][0]).stdout if sub == "audit" else None
    out = cli(*args, "--phat", "7,10;26,57", "--alpha", "inf", "--radius", "0.1", stdin=stdin)
    assert_bad_input(out, "alpha = 'inf'", "must be finite")


def test_top_level_help_lists_every_exit_code():
    text = cli_process("--help").stdout  # --help of the entry point, in a real process.split("exit codes:")[1]
    assert "check-certificates: a certificate failed" in text and "130  interrupted" in text


def test_an_unwritable_output_says_cannot_write(tmp_path):
    """A file the command writes (audit --certificate) that cannot be written is 'cannot write', not 'cannot
    read'; a missing input is still 'cannot read'."""
    mech = cli(*JSON_COMMANDS["mechanism"][0]).stdout
    out = cli("audit", "-", "--eps", "0.5", "--ldp", "--certificate", str(tmp_path / "a" / "b" / "c.json"), stdin=mech)
    if out.returncode != 0:   # the certificate writer may create the folders; if it does not, the error says write
        assert_bad_input(out, "cannot write")
    blocked = tmp_path / "file"
    blocked.write_text("")
    out = cli("audit", "-", "--eps", "0.5", "--ldp", "--certificate", str(blocked / "c.json"), stdin=mech)
    assert_bad_input(out, "cannot write")
    assert_bad_input(cli("audit", str(tmp_path / "missing.json"), "--eps", "1", "--ldp"), "cannot read", "missing.json")
