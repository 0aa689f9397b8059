"""Issue 23: the ideal Laplace histogram (HE: multi-freq-ldpy's ``HE_Client``, pure-ldp's ``HEClient``) under {P}, on a
Rényi ball and on the whole simplex (:mod:`rldp_verify.structured.laplace_rldp`), its ``laplace-histogram``
certificate under F (:mod:`rldp_verify_check.forms_mfl`) and the CLI routes; local hashing over a complete seed range
under {P} with ``--certificate`` beyond its dense channel (the ``seed_table`` form)."""

from __future__ import annotations

import copy
import json
from fractions import Fraction as F

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.audit import structured_certificate
from rldp_verify.core.errors import InputError
from rldp_verify.rldp.uncertainty import RenyiBall
from rldp_verify.structured import Adapted, LaplaceHistogram, audit_structured

TWO = [[F(1, 4), F(1, 4)], [F(1, 2), F(0)]]          # two secrets of positive mass
ONE = [[F(1, 4), F(3, 4)], [F(0), F(0)]]             # one secret of positive mass
HE = LaplaceHistogram(4, 2.0)                         # eps = 2/b = 1


def _audit(eps, **kw):
    model = Adapted(HE, "HE test", "ideal")
    res = audit_structured(model, eps, **kw)
    return res, structured_certificate(res, model, eps)


def _ball(phat, radius=F(1, 10)):
    return RenyiBall.from_radius(phat, F(2), radius)


@pytest.mark.parametrize(("eps", "kw", "verdict", "lower"), [
    ("1", {"distribution": TWO}, "PASS", True),
    ("99/100", {"distribution": TWO}, "FAIL", True),
    ("1/2", {"distribution": ONE}, "PASS", True),                  # one secret: ratio 1
    ("1", {"ball": _ball(TWO)}, "PASS", True),
    ("9/10", {"ball": _ball(TWO)}, "FAIL", True),                  # P^ in F is the witness
    ("9/10", {"ball": _ball(ONE)}, "FAIL", True),                  # witness: P^ with mass moved to secret 1
    ("1", {"ball": _ball(ONE)}, "PASS", True),
    ("1/2", {"ball": _ball(ONE, F(0))}, "PASS", True),             # radius 0: F = {P^}, ratio 1
    ("9/10", {"ball": _ball(ONE, float("inf"))}, "FAIL", True),    # radius inf: the simplex
    ("1", {"simplex": True, "sizes": (2, 2)}, "PASS", True),
    ("1/2", {"simplex": True}, "FAIL", True),
])
def test_he_under_f_certified(eps, kw, verdict, lower):
    """The verdicts from eps_c = 2/b = 1 (or 0 for a P with one secret of positive mass), each certificate
    accepted by the checker; the printed bracket encloses e (or is [1, 1])."""
    res, doc = _audit(eps, **kw)
    assert str(res.verdict) == verdict and (res.ratio_lower is not None) == lower
    assert "laplace-histogram" in doc["statement"]
    chk = recheck(doc)
    assert chk.ok, chk.message
    one = kw.get("distribution") is ONE or "ball" in kw and kw["ball"].radius == 0
    e_lo, e_hi = F(2718281828459045, 10**15), F(2718281828459046, 10**15)
    assert (res.ratio_upper == 1) == one and (one or e_lo < res.ratio_upper < e_hi)
    assert one or res.ratio_lower is None or e_lo < res.ratio_lower <= res.ratio_upper < res.ratio_lower + F(1, 10**30)


def _mutate(doc, change):
    bad = copy.deepcopy(doc)
    st, data = bad["statement"], bad["data"]
    if change == "upper rounded down":
        st["ratio_upper"] = "2.71828182845904523535"
    elif change == "b wrong":
        st["laplace-histogram"]["b"] = "19/10"
    elif change == "witness outside the ball":
        data["witness"] = [["1/2", "0"], ["1/2", "0"]]             # P^(0, 1) = 1/4 > 0 but P = 0: D_2 infinite
    elif change == "no witness":
        data["witness"] = None
    elif change == "d not |S||U|":
        st["laplace-histogram"]["d"] = 6
    elif change == "one secret":
        st["set"]["P"] = [["1/4", "3/4"], ["0", "0"]]
    elif change == "radius negative":
        st["set"]["radius"] = "-1"
    return bad


@pytest.mark.parametrize(("eps", "kw", "change", "why"), [
    ("1", {"distribution": TWO}, "upper rounded down", "does not enclose"),
    ("1", {"distribution": TWO}, "b wrong", "does not enclose e^20/19"),
    ("99/100", {"distribution": TWO}, "one secret", "does not enclose"),
    ("1", {"distribution": TWO}, "d not |S||U|", "d = |S||U|"),
    ("1", {"ball": _ball(TWO)}, "upper rounded down", "does not enclose"),
    ("9/10", {"ball": _ball(TWO)}, "witness outside the ball", "not certainly in F"),
    ("9/10", {"ball": _ball(TWO)}, "no witness", "needs a witness"),
    ("1", {"ball": _ball(TWO)}, "radius negative", "radius >= 0"),
    ("1/2", {"simplex": True}, "no witness", "needs a witness"),
    ("1", {"simplex": True}, "b wrong", "does not enclose e^20/19"),
])
def test_wrong_he_certificate_rejected(eps, kw, change, why):
    """Wrong HE certificates under F: an upper end below e^(2/b), a wrong b, a witness outside the ball, a FAIL or a
    lower end without a witness giving two secrets positive mass, d != |S||U|, a negative radius."""
    _, doc = _audit(eps, **kw)
    assert recheck(doc).ok
    chk = recheck(_mutate(doc, change))
    assert not chk.ok and why in chk.message, chk.message


def test_engine_variants_rejected(monkeypatch):
    """Wrong variants of the engine and the builder, certificates rejected: the upper end taken as the enclosure's
    lower end at 5 digits (rounded the wrong way), the builder's b doubled, the moved witness's delta for radius 2B (out
    of F), and catalogue mutant
    ``certificate.he-ball-upper-from-phat`` (the ball's upper end from P^ alone)."""
    import rldp_verify.certificates.audit_mfl as am
    import rldp_verify.structured.audit as sa
    from mutation.catalogue import MODULES, MUTANTS
    from rldp_verify.claims.mutants import apply, revert

    real = sa._ratio_bounds
    monkeypatch.setattr(sa, "_ratio_bounds", lambda st, dps=40: (real(st, 5)[0],) * 2)   # 5 digits, rounded down
    assert not recheck(_audit("1", distribution=TWO)[1]).ok
    monkeypatch.setattr(sa, "_ratio_bounds", real)
    real_form = am.mfl_p_form
    monkeypatch.setattr(am, "mfl_p_form", lambda st, res, sizes: {**real_form(st, res, sizes), "laplace-histogram": {
        "d": st.d, "b": str(2 * F(st.scale))}})
    assert not recheck(_audit("9/10", ball=_ball(TWO))[1]).ok          # FAIL at eps_c = 1/2: not certainly above
    monkeypatch.setattr(am, "mfl_p_form", real_form)
    import rldp_verify.structured.laplace_rldp as lr

    real_moved = lr._moved
    monkeypatch.setattr(lr, "_moved", lambda phat, a1, a2, radius: real_moved(phat, a1, a2, 2 * radius))
    chk = recheck(_audit("9/10", ball=_ball(ONE))[1])                  # delta = 2B / (1 + 2B): log(1 + 2B) > B
    assert not chk.ok and "not certainly in F" in chk.message, chk.message
    monkeypatch.setattr(lr, "_moved", real_moved)
    assert recheck(_audit("9/10", ball=_ball(ONE))[1]).ok
    (m,) = [m for m in MUTANTS if m.id == "certificate.he-ball-upper-from-phat"]
    done = apply(m, MODULES)
    try:
        res, doc = _audit("9/10", ball=_ball(ONE))
    finally:
        revert(done)
    chk = recheck(doc)
    assert str(res.verdict) == "PASS" and not chk.ok and "does not enclose" in chk.message, chk.message


def test_he_bad_input_one_line():
    """d != |S||U| and a subclass of the Laplace histogram on the simplex: InputError naming the values."""
    with pytest.raises(InputError, match="4 values is not a channel on the 2 x 3"):
        audit_structured(Adapted(HE, "HE", "ideal"), "1", simplex=True, sizes=(2, 3))
    from rldp_verify.structured.channels import Symmetric

    with pytest.raises(InputError, match="Laplace histogram only"):
        audit_structured(Adapted(Symmetric(3, F(1, 2), F(1, 4)), "GRR", "exact"), "1", simplex=True)


_HE = ["audit", "--adapter", "multi-freq-ldpy:HE_Client", "--param", "k=4", "--param", "epsilon=1"]


@pytest.mark.parametrize(("argv", "rc", "verdict", "set_type"), [
    (["--sizes", "2,2", "--distribution", "1/4,1/4;1/2,0", "--eps", "1"], 0, "PASS", "distribution"),
    (["--sizes", "2,2", "--distribution", "1/4,1/4;1/2,0", "--eps", "0.99"], 1, "FAIL", "distribution"),
    (["--sizes", "2,2", "--phat", "1/4,1/4;1/2,0", "--alpha", "2", "--radius", "0.1", "--eps", "0.9"], 1, "FAIL",
     "renyi-ball"),
    (["--sizes", "2,2", "--phat", "1/4,3/4;0,0", "--alpha", "1/2", "--radius", "0.1", "--eps", "0.9"], 1,
     "FAIL", "renyi-ball"),                                 # the witness: P^ with mass moved to secret 1
    (["--sizes", "2,2", "--phat", "1/4,3/4;0,0", "--alpha", "1", "--radius", "0", "--eps", "0.9"], 0,
     "PASS", "distribution"),                               # radius 0: F = {P^}, one secret, ratio 1
    (["--full-simplex", "--eps", "1"], 0, "PASS", "simplex"),
])
def test_cli_he_under_f(tmp_path, argv, rc, verdict, set_type):
    """``rldp-verify audit --adapter multi-freq-ldpy:HE_Client`` under {P}, a ball and the simplex (before: refused,
    'audit it with --ldp') prints the verdict and writes a certificate that check-certificates re-checks."""
    pytest.importorskip("multi_freq_ldpy")
    from tests._cli_runner import run

    path = tmp_path / "he.json"
    out = run(*_HE, *argv, "--json", "--certificate", str(path))
    assert out.returncode == rc and json.loads(out.stdout)["verdict"] == verdict, out.stderr
    assert "re-checked" in out.stderr
    doc = json.loads(path.read_text())
    assert "laplace-histogram" in doc["statement"] and doc["statement"]["set"]["type"] == set_type
    assert run("check-certificates", str(path)).returncode == 0


def test_cli_he_bad_sizes_one_line():
    """A distribution whose shape disagrees with --sizes, and sizes whose product is not d: one line, exit 2."""
    pytest.importorskip("multi_freq_ldpy")
    from tests._cli_runner import run

    for argv, msg in ((["--sizes", "2,3", "--distribution", "1/4,1/4;1/2,0"], "sizes = (2, 3)"),
                      (["--sizes", "1,3", "--full-simplex"], "not a channel on the 1 x 3")):
        out = run(*_HE, *argv, "--eps", "1")
        assert out.returncode == 2 and msg in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr


@pytest.mark.slow      # pure-ldp's import (4 s) and 64 seeds x 450 inputs hashed twice
def test_cli_lh_complete_range_seed_table(tmp_path):
    """FastLH (k = 64 seeds, the whole range; OLH g = 149, d = 450) under {P} with --certificate: the dense channel
    (64 x 149 x 450 > 2^22 entries) is refused, the seed table (64 x 450 buckets) fits: the CLI takes the structured
    route and writes the seed_table certificate (before: 'needs the dense channel ... refused')."""
    pytest.importorskip("pure_ldp")
    pytest.importorskip("xxhash")
    from tests._cli_runner import run

    rows = [[(7 * u + s) % 4 for u in range(225)] for s in range(2)]
    t = sum(map(sum, rows))
    P = ";".join(",".join(f"{v}/{t}" for v in r) for r in rows)
    path = tmp_path / "lh.json"
    out = run("audit", "--adapter", "pure-ldp:FastLHClient", "--param", "epsilon=5", "--param", "d=450", "--param",
              "k=64", "--param", "use_olh=true", "--sizes", "2,225", "--distribution", P, "--eps", "5", "--json",
              "--certificate", str(path))
    assert out.returncode == 0 and "re-checked" in out.stderr, out.stderr
    doc = json.loads(path.read_text())
    assert "seed_table" in doc["data"] and len(doc["data"]["seed_table"]["seeds"]) == 64
    assert run("check-certificates", str(path)).returncode == 0
