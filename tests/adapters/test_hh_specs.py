"""The heavy hitters' inner frequency oracle from the command line (issue 26): ``--param fo=CLIENT`` and its
``fo.KEY=VALUE`` parameters build the same client as Python (the audited channel is the Python-built one's), every
supported combination of TreeHistClient / SFPClient is reachable, and the unsupported ones and bad parameters are one
line with exit 2."""

import pytest

from rldp_verify.adapters import adapt, adapt_spec, audit_adapted
from rldp_verify.cli import main
from rldp_verify.core.errors import InputError

hh = pytest.importorskip("pure_ldp.heavy_hitters")
fo = pytest.importorskip("pure_ldp.frequency_oracles")

BASE = ["epsilon=2", "fragment_length=1", "max_string_length=3"]


def _funcs(k, m):
    from pure_ldp.core import generate_hash_funcs

    return generate_hash_funcs(k, m)


def _marked(c):
    c.sketch_based = False
    return c


# (heavy hitter, fo parameters, the same object built in Python)
COMBOS = [
    ("TreeHistClient", [], lambda: hh.TreeHistClient(2.0, 1, 3)),
    ("TreeHistClient", ["fo=LHClient", "fo.g=4"], lambda: hh.TreeHistClient(2.0, 1, 3, fo_client=fo.LHClient(2.0, 8, g=4))),
    ("TreeHistClient", ["fo=FastLHClient", "fo.k=5", "fo.use_olh=true"],
     lambda: hh.TreeHistClient(2.0, 1, 3, fo_client=fo.FastLHClient(2.0, 8, 5, use_olh=True))),
    ("TreeHistClient", ["fo=pure-ldp:DEClient"], lambda: hh.TreeHistClient(2.0, 1, 3, fo_client=fo.DEClient(2.0, 8))),
    ("TreeHistClient", ["fo=UEClient", "fo.use_oue=true"],
     lambda: hh.TreeHistClient(2.0, 1, 3, fo_client=fo.UEClient(2.0, 8, use_oue=True))),
    ("SFPClient", ["fo=LHClient", "fo.use_olh=true"],
     lambda: hh.SFPClient(2.0, 1, 3, fo_client=_marked(fo.LHClient(2.0, 8, use_olh=True)))),
    ("SFPClient", ["fo=FastLHClient", "fo.k=4"], lambda: hh.SFPClient(2.0, 1, 3, fo_client=_marked(fo.FastLHClient(2.0, 8, 4)))),
    ("SFPClient", ["fo=DEClient"], lambda: hh.SFPClient(2.0, 1, 3, fo_client=_marked(fo.DEClient(2.0, 8)))),
    ("SFPClient", ["fo=UEClient"], lambda: hh.SFPClient(2.0, 1, 3, fo_client=_marked(fo.UEClient(2.0, 8)))),
    ("TreeHistClient", ["fo=HadamardMechClient", "fo.t=2"],
     lambda: hh.TreeHistClient(2.0, 1, 3, fo_client=fo.HadamardMechClient(2.0, 8, 2))),
    ("SFPClient", ["fo=HadamardMechClient", "fo.t=1"],
     lambda: hh.SFPClient(2.0, 1, 3, fo_client=_marked(fo.HadamardMechClient(2.0, 8, 1)))),
    ("TreeHistClient", ["fo=HadamardResponseClient"],
     lambda: hh.TreeHistClient(2.0, 1, 3, fo_client=fo.HadamardResponseClient(2.0, 8, list(range(8))))),
    ("SFPClient", ["fo=HadamardResponseClient"],
     lambda: hh.SFPClient(2.0, 1, 3, fo_client=_marked(fo.HadamardResponseClient(2.0, 8, list(range(8)))))),
    ("TreeHistClient", ["fo=CMSClient", "fo.m=4", "fo.num_hashes=2"],
     lambda: hh.TreeHistClient(2.0, 1, 3, fo_client=fo.CMSClient(2.0, _funcs(2, 4), 4))),
    ("SFPClient", ["fo=CMSClient", "fo.m=4", "fo.num_hashes=2"],
     lambda: hh.SFPClient(2.0, 1, 3, index_mapper=lambda s: s, fo_client=fo.CMSClient(2.0, _funcs(2, 4), 4))),
    ("SFPClient", ["fo=SketchResponseClient", "fo.m=4", "fo.num_hashes=2", "fo.lh_k=3"],
     lambda: hh.SFPClient(2.0, 1, 3, index_mapper=lambda s: s,
                          fo_client=fo.SketchResponseClient(2.0, 4, _funcs(2, 4), lh_k=3))),
]


@pytest.mark.parametrize(("cls", "params", "python"), COMBOS)
def test_spec_is_the_python_client(cls, params, python):
    a, b = adapt_spec(f"pure-ldp:{cls}", BASE + params), adapt(python())
    assert a.name == b.name
    ra, rb = audit_adapted(a, 2.0), audit_adapted(b, 2.0)
    assert (ra.ratio_lower, ra.ratio_upper) == (rb.ratio_lower, rb.ratio_upper)


def test_inner_parameters_reach_the_client():
    """fo.use_oue selects OUE (1.1.2's bug: OUE at eps/2 = 1 keeps the true bit, ratio far above e^2); fo.g the
    bucket count; so a spec that dropped them would fail here."""
    sue = audit_adapted(adapt_spec("pure-ldp:TreeHistClient", BASE + ["fo=UEClient"]), 2.0)
    oue = audit_adapted(adapt_spec("pure-ldp:TreeHistClient", BASE + ["fo=UEClient", "fo.use_oue=true"]), 2.0)
    assert sue.ratio_upper != oue.ratio_upper
    assert "g = 4" in adapt_spec("pure-ldp:TreeHistClient", BASE + ["fo=LHClient", "fo.g=4"]).name
    assert "g = 4" not in adapt_spec("pure-ldp:TreeHistClient", BASE + ["fo=LHClient", "fo.g=3"]).name


def test_cli_verdicts(capsys):
    argv = ["audit", "--adapter", "pure-ldp:SFPClient"] + [a for p in BASE + ["fo=DEClient"] for a in ("--param", p)]
    assert main(argv + ["--ldp", "--eps", "2.0001"]) == 0
    assert main(argv + ["--ldp", "--eps", "1.9"]) == 1
    out = capsys.readouterr().out
    assert "SFPClient" in out and "DEClient (GRR)" in out
    argv = ["audit", "--adapter", "pure-ldp:TreeHistClient"] + [a for p in BASE + ["fo=UEClient"] for a in ("--param", p)]
    assert main(argv + ["--ldp", "--eps", "2.0001"]) == 1       # pure-ldp < 1.2.0's unary-encoding bug
    out = capsys.readouterr().out
    assert "UEClient" in out and "not float64 rounding" in out


BAD = [
    ("SFPClient", [], "needs --param fo=CLIENT"),
    ("SFPClient", ["fo=GRR"], "fo='GRR': not a pure-ldp frequency oracle"),
    ("SFPClient", ["fo=pure-ldp:PEMClient"], "not a pure-ldp frequency oracle"),
    ("SFPClient", ["fo=DEClient", "fo.epsilon=1"], "fo.epsilon: set by pure-ldp:SFPClient"),
    ("TreeHistClient", ["fo=DEClient", "fo.d=4"], "fo.d: set by pure-ldp:TreeHistClient"),
    ("SFPClient", ["fo=FastLHClient"], "needs --param fo.k="),
    ("TreeHistClient", ["fo.k=3"], "fo.k needs --param fo=CLIENT"),
    ("SFPClient", ["fo=UEClient", "fo.zz=3"], "'fo.zz' is not a parameter of pure-ldp:UEClient"),
    ("SFPClient", ["fo=UEClient", "fo.use_oue=maybe"], "fo.use_oue='maybe': not a valid bool"),
    ("TreeHistClient", ["fo=RAPPORClient", "fo.f=0.5", "fo.m=8", "fo.num_hashes=2"], "RAPPORClient has hash_family = None"),
]


@pytest.mark.parametrize(("cls", "params", "match"), BAD)
def test_refusals_are_one_line_exit_2(cls, params, match, capsys):
    with pytest.raises(InputError, match=match.replace("(", r"\(").replace(")", r"\)")):
        adapt_spec(f"pure-ldp:{cls}", BASE + params)
    argv = ["audit", "--adapter", f"pure-ldp:{cls}"] + [a for p in BASE + params for a in ("--param", p)]
    assert main(argv + ["--ldp", "--eps", "2"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and match.split("'")[0].split("(")[0].strip() in err
