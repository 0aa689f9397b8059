"""Issue 23, second pass: the audit certificate forms of OpenDP's threshold releases (``threshold-release``), Hadamard
response's FAIL (``two-level`` with ``hadamard_witness``) and a unary encoding on a ball of radius inf (``unary`` under
``simplex``): accepted certificates beside wrong twins, the catalogue mutants rejected by the checker, the CLI route
end to end, and the OpenDP Gaussian witness's direction."""

from __future__ import annotations

import copy
import importlib.util
import json

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.audit import structured_certificate
from rldp_verify.certificates.audit_more2 import hadamard_support
from rldp_verify.structured.audit import Adapted, audit_structured


def _docs() -> dict:
    """The claim's audits' certificates by name (``more2 <case> <verdict>``)."""
    from proofs.rldp.audit_certificate_more2 import _cases

    out = {}
    for name, st, ball, runs in _cases():
        model = Adapted(st, name, "exact")
        for eps, want in runs:
            res = audit_structured(model, eps, **({} if ball is None else {"ball": ball[0], "sizes": ball[1]}))
            assert str(res.verdict) == want
            out[f"{name} {want}"] = structured_certificate(res, model, eps, name=f"more2 {name} {want}")
    return out


@pytest.fixture(scope="module")
def docs():
    return _docs()


def _bad(doc, why: str, edit) -> None:
    bad = copy.deepcopy(doc)
    edit(bad["statement"], bad["data"])
    chk = recheck(bad)
    assert not chk.ok and why in chk.message, chk.message


def test_threshold_fail_accepted_and_twins_rejected(docs):
    for noise in ("Laplace", "Gaussian"):
        doc = docs[f"{noise} threshold FAIL"]
        assert recheck(doc).ok and recheck(doc).message.startswith("FAIL: ratio in [inf, inf]"), recheck(doc).message
    doc = docs["Laplace threshold FAIL"]
    _bad(doc, "below the certified bound", lambda st, d: st.update(ratio_upper="1000", verdict="PASS"))
    _bad(doc, "not <= e^eps", lambda st, d: st.update(verdict="PASS"))
    _bad(doc, "laplace or gaussian", lambda st, d: st["threshold-release"].update(noise="uniform"))
    _bad(doc, "scale > 0", lambda st, d: st["threshold-release"].update(scale="0"))
    _bad(doc, "set ldp", lambda st, d: st.update(set={"type": "distribution", "P": [["1"]]}))


def test_hadamard_fail_accepted_and_twins_rejected(docs):
    doc = docs["Hadamard response 8 outputs FAIL"]
    assert recheck(doc).ok and recheck(doc).message.startswith("FAIL: ratio in [3, 3]"), recheck(doc).message
    assert doc["data"]["hadamard_witness"] == {"inputs": [0, 1], "y": 2, "supports": [[1, 0, 8], [2, 0, 8]]}
    assert "product" in docs["Hadamard response 8 outputs PASS"]["statement"]      # the PASS keeps its form
    w = "hadamard_witness"
    _bad(doc, "not attained", lambda st, d: d[w].update(y=1))                  # in both supports: ratio 1
    _bad(doc, "not attained", lambda st, d: d[w].update(y=8))                  # outside both blocks: ratio 1
    _bad(doc, "not attained", lambda st, d: d[w].update(supports=[[2, 0, 8], [1, 0, 8]]))  # y in A(x') only: 1/3
    _bad(doc, "not attained", lambda st, d: d[w].update(supports=[[1, 0, 8], [1, 0, 8]]))  # one row: ratio 1
    _bad(doc, "power of 2", lambda st, d: d[w].update(supports=[[1, 0, 6], [2, 0, 8]]))
    _bad(doc, "power of 2", lambda st, d: d[w].update(supports=[[8, 0, 8], [2, 0, 8]]))   # r >= n
    _bad(doc, "x != x'", lambda st, d: d[w].update(inputs=[0, 0]))
    _bad(doc, "below the certified bound", lambda st, d: st["two-level"].update(b="1/20"))  # ratio 15/4 > 3


def test_hadamard_support_reads_rows_and_blocks():
    assert hadamard_support({0, 2, 4, 6}) == [1, 0, 8]
    assert hadamard_support({8, 9, 12, 13}) == [2, 8, 8]
    assert hadamard_support({5}) == [0, 5, 1]
    assert hadamard_support({0, 1, 2}) is None and hadamard_support(set()) is None


def test_simplex_accepted_and_twins_rejected(docs):
    for v in ("PASS", "FAIL"):
        doc = docs[f"unary encoding d = 4 on the simplex {v}"]
        assert doc["statement"]["set"] == {"type": "simplex"} and recheck(doc).ok, recheck(doc).message
    doc = docs["unary encoding d = 4 on the simplex FAIL"]
    one = [["1"], ["0"], ["0"], ["0"]]
    _bad(doc, "not attained", lambda st, d: d.update(witness=one))             # one secret: ratio 1
    _bad(doc, "not a probability distribution", lambda st, d: d.update(witness=[["1/2"]] * 4))
    _bad(doc, "below the certified bound", lambda st, d: st["unary"].update(q="1/5"))   # ratio 4 > 3
    _bad(doc, "structured channel needs", lambda st, d: st["unary"].update(q="0"))     # q = 0: ratio inf


def test_grr_simplex_accepted_and_twins_rejected(docs):
    doc = docs["GRR k = 4 on the simplex over 2 x 2 cells FAIL"]
    assert doc["statement"]["subsets"]["m"] == 1 and doc["data"]["output"]["Y"]
    assert recheck(doc).ok and recheck(doc).message.startswith("FAIL: ratio in [3, 3]"), recheck(doc).message
    y = doc["data"]["output"]["Y"][0]
    other = next(x for x in range(4) if x // 2 == y // 2 and x != y)      # the other cell of the same secret
    _bad(doc, "not attained", lambda st, d: d["output"].update(Y=[other]))
    _bad(doc, "not attained", lambda st, d: d["output"].update(s=d["output"]["s_prime"], s_prime=d["output"]["s"]))
    _bad(doc, "below the certified bound", lambda st, d: st["subsets"].update(p="3/5"))   # a/b = 9/2 > 3
    _bad(doc, "witness ratio 1", lambda st, d: d.update(witness=[["1", "0"], ["0", "0"]]))   # one secret


@pytest.mark.parametrize(("mid", "case", "why"), [
    ("certificate.threshold-ratio-bounded", "threshold", "below the certified bound inf"),
    ("certificate.hr-witness-output-swapped", "Hadamard response 8 outputs FAIL", "not attained by a witness"),
    ("certificate.simplex-witness-one-secret", "simplex FAIL", "not attained by a witness")])
def test_more2_mutant_rejected(mid, case, why):
    from mutation.catalogue import MODULES, MUTANTS
    from rldp_verify.claims.mutants import apply, revert

    (m,) = [m for m in MUTANTS if m.id == mid]
    done = apply(m, MODULES)
    try:
        from proofs.rldp.audit_certificate_more2 import _cases
        from rldp_verify.structured.audit import Adapted as Ad

        bad = {}
        for name, st, ball, runs in _cases():
            for eps, _ in runs:
                res = audit_structured(Ad(st, name, "exact"), eps, **({} if ball is None else {"ball": ball[0],
                                                                                    "sizes": ball[1]}))
                bad[f"{name} {res.verdict}"] = structured_certificate(res, Ad(st, name, "exact"), eps)
    finally:
        revert(done)
    hit = [recheck(d) for n, d in bad.items() if case in n]
    assert hit and any(not c.ok and why in c.message for c in hit), [c.message for c in hit]


def test_cli_routes_write_checked_certificates(tmp_path, capsys):
    from rldp_verify.cli import main

    p = tmp_path / "phat.json"
    p.write_text("[[0.25],[0.25],[0.25],[0.25]]")
    runs = [(["--adapter", "pure-ldp:HadamardResponseClient", "--param", "epsilon=1", "--param", "d=4", "--eps", "0.5",
              "--ldp"], 1, "hadamard_witness"),
            (["--adapter", "pure-ldp:UEClient", "--param", "epsilon=1", "--param", "d=4", "--phat", str(p), "--alpha",
              "2", "--radius", "inf", "--eps", "2"], 0, "witness")]
    if importlib.util.find_spec("opendp") is not None:
        runs.append((["--adapter", "opendp:make_laplace_threshold", "--param", "scale=1.0", "--param", "threshold=2",
                      "--eps", "1", "--ldp"], 1, "witness"))
    for i, (args, rc, key) in enumerate(runs):
        cert = tmp_path / f"c{i}.json"
        assert main(["audit", *args, "--certificate", str(cert)]) == rc
        assert "re-checked" in capsys.readouterr().err
        doc = json.loads(cert.read_text())
        assert key in doc["data"] and recheck(doc).ok, recheck(doc).message
        assert main(["check-certificates", str(cert)]) == 0


def test_opendp_gaussian_witness_grows_as_y_rises():
    """x = upper, x' = lower: the log ratio ((y - i')^2 - (y - i)^2) / (2 sigma^2) grows as y -> +inf."""
    from rldp_verify.adapters.opendp import _noise

    st = _noise("make_gaussian", {"bounds": (0, 3), "scale": 1.0}).structure
    assert st.x == "3" and st.x_prime == "0" and st.y.startswith("y -> +inf")
    i, ip = 3, 0
    assert [(y - ip) ** 2 - (y - i) ** 2 for y in (10, 20)] == [51, 111]          # rising in y
