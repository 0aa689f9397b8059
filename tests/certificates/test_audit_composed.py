"""Issue 23: composed protocols' audit certificates in the ``product`` form with parts of any form (unary, subsets,
seeded-grr), released / secret mixtures and ``coordinates`` (SPL: the lower end the product of the parts').
Accepted twins beside wrong ones (a part loosened, a part missing, the coordinates claimed for a product whose lower
end is not derived, a witness's ratio off, a released mixture read as a product, a two-level part's level moved), the catalogue mutants of the shape rejected by the checker, and the
``rldp-verify audit --adapter ... --ldp --certificate`` route writing the form."""

from __future__ import annotations

import copy
import json
from fractions import Fraction as F

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.audit import structured_certificate
from rldp_verify.structured.audit import Adapted, audit_structured


def _structures():
    from proofs.rldp.audit_certificate_composed import structures

    return {" ".join(name.split()[:2]) if name.startswith("TreeHist") else name.split()[0]: (st, rho, lower)
            for name, st, rho, lower in structures()}


def _cert(which: str, below: bool = False):
    st, rho, _ = _structures()[which]
    model = Adapted(st, which, "exact")
    eps = f"log({rho * (1 - F(1, 10**9)) if below else rho})"
    res = audit_structured(model, eps)
    return res, structured_certificate(res, model, eps)


@pytest.mark.parametrize("which", ["SPL", "SFP", "sketch", "TreeHist unary", "TreeHist GRR", "dBitFlipPM", "SMP",
                                   "CMS", "HR"])
def test_pass_accepted_in_the_product_form(which):
    res, cert = _cert(which)
    st = cert["statement"]
    assert str(res.verdict) == "PASS" and "product" in st and "Q" not in st
    chk = recheck(cert)
    assert chk.ok and chk.message.startswith("PASS"), chk.message
    assert (st["ratio_lower"] is not None) == (which != "HR")               # HR: upper end only


def test_spl_fail_certified_by_coordinates_and_hr_by_its_witness():
    res, cert = _cert("SPL", below=True)
    assert str(res.verdict) == "FAIL" and cert["statement"]["coordinates"] is True
    assert recheck(cert).ok and recheck(cert).message.startswith("FAIL: ratio in [6, 6]")
    res, cert = _cert("HR", below=True)                    # two-level with the hadamard_witness (test_audit_more2)
    assert str(res.verdict) == "FAIL" and "hadamard_witness" in cert["data"]
    assert recheck(cert).ok and recheck(cert).message.startswith("FAIL: ratio in [3, 3]"), recheck(cert).message


def _twin(cert, change):
    bad = copy.deepcopy(cert)
    st = bad["statement"]
    if change == "part-loosened":                          # unary q just below 1/4: its ratio just above 3
        st["product"][0]["unary"]["q"] = str(F(1, 4) - F(1, 10**12))
    elif change == "part-missing":                         # the GRR attribute dropped: L = 3, not above 6 (1 - 1e-9)
        st["product"], st["ratio_lower"] = st["product"][:1], "3"
    elif change == "coordinates-dropped":                  # no lower end derived: the FAIL is not certified
        del st["coordinates"]
        st["ratio_lower"] = None
    elif change == "lower-end-off":                        # the printed lower end above the product of the parts'
        st["ratio_lower"] = str(F(6) + F(1, 10**12))
    elif change == "part-not-a-channel":                   # GRR with a + (k-1) b != 1... as subsets p > 1
        st["product"][1]["subsets"]["p"] = "3/2"
    return bad


@pytest.mark.parametrize("change", ["part-loosened", "part-missing", "coordinates-dropped", "lower-end-off",
                                    "part-not-a-channel"])
def test_wrong_spl_rejected(change):
    _, cert = _cert("SPL", below=True)
    assert recheck(cert).ok
    assert not recheck(_twin(cert, change)).ok, change


def test_released_mixture_part_loosened_or_missing_rejected():
    """SFP's PASS at 9: a fragment part loosened (GRR p just above 1/2: ratio above 3) or missing (the word part alone:
    then the printed 9 is above the certified 3, still accepted: a weaker claim; the PASS at e^eps = 3 is not)."""
    _, cert = _cert("SFP")
    bad = copy.deepcopy(cert)
    bad["statement"]["product"][0]["subsets"]["p"] = str(F(1, 2) + F(1, 10**12))
    assert not recheck(bad).ok and "below the certified bound" in recheck(bad).message
    weaker = copy.deepcopy(cert)
    weaker["statement"]["product"] = weaker["statement"]["product"][1:]
    weaker["statement"].update(ratio_upper="3", ratio_lower=None, eps={"exp_eps": "3"})
    del weaker["data"]["product_witness"]
    assert recheck(weaker).ok                              # the word alone: 3 (the twin below drops a factor)
    weaker["statement"]["product"] = cert["statement"]["product"]
    assert not recheck(weaker).ok                          # with the fragment part back: 9 > the printed 3


def test_treehist_over_grr_fragment_takes_no_product_form():
    """A GRR fragment's upper end v(M, 0) is tighter than rho_W a/b: no product form (the dense route or a refusal)."""
    from rldp_verify.certificates.audit_forms import product_form
    from rldp_verify.structured.channels import Symmetric
    from rldp_verify.structured.treehist import PrefixOracle

    st = PrefixOracle(8, Symmetric(8, F(1, 3), F(2, 21)), Symmetric(6, F(1, 2), F(1, 10)), lambda x: x,
                      lambda x: (x >> 2, 2 + (x >> 1)))
    assert product_form(st) is None


def test_smp_mixture_certified_and_its_twins_rejected():
    """SMP (a released attribute: the max of the parts' ends): its FAIL just below 3 certified; the mixture flag dropped
    (the product 6 above the printed 3) and the unary attribute missing (max 2 below the printed lower end 3)
    rejected."""
    res, cert = _cert("SMP", below=True)
    assert str(res.verdict) == "FAIL" and cert["statement"]["mixture"] is True
    assert recheck(cert).ok and recheck(cert).message.startswith("FAIL: ratio in [3, 3]"), recheck(cert).message
    bad = copy.deepcopy(cert)
    del bad["statement"]["mixture"]
    assert not recheck(bad).ok and "below the certified bound 6" in recheck(bad).message
    bad = copy.deepcopy(cert)
    bad["statement"]["product"] = bad["statement"]["product"][:1]
    assert not recheck(bad).ok and "witness ratio 2" in recheck(bad).message


def test_two_level_twins_rejected():
    """Hadamard response's two-level part: a level moved (lo just below 1/16: the ratio above the printed 3), a printed
    lower end (none is derived), a product witness (no rule for the part) and a distribution set rejected."""
    _, cert = _cert("HR")
    assert recheck(cert).ok
    bad = copy.deepcopy(cert)
    bad["statement"]["product"][0]["two-level"]["b"] = str(F(1, 16) - F(1, 10**12))
    assert not recheck(bad).ok and "below the certified bound" in recheck(bad).message
    bad = copy.deepcopy(cert)
    bad["statement"]["ratio_lower"] = "3"
    assert not recheck(bad).ok and "not attained" in recheck(bad).message
    bad = copy.deepcopy(cert)                              # a witness for a part without a witness rule
    bad["data"]["product_witness"] = {"hash": "-", "parts": [{"seed": None, "inputs": [[0], [1]], "y": 0}]}
    assert not recheck(bad).ok and "product witness needs" in recheck(bad).message
    bad = copy.deepcopy(cert)
    part = bad["statement"].pop("product")[0]
    bad["statement"].update(part, set={"type": "distribution", "P": [["1/4"]] * 4})
    assert not recheck(bad).ok and "structured channel needs" in recheck(bad).message


def test_treehist_grr_fail_certified_by_its_inner_indices_and_twins_rejected():
    """TreeHist over GRR word and fragment (M = R: the product's upper end): the FAIL just below 21/2 certified by the
    witness's inner indices; a prefix index out of range, x' given x's prefix 0 (the ratio falls to
    7/2 * 2a / (a + b) = 21/4, below the printed lower end) and a fragment part loosened rejected."""
    res, cert = _cert("TreeHist GRR", below=True)
    assert str(res.verdict) == "FAIL" and recheck(cert).ok, recheck(cert).message
    assert recheck(cert).message.startswith("FAIL: ratio in [10.5, 10.5]")
    parts = cert["data"]["product_witness"]["parts"]
    bad = copy.deepcopy(cert)
    bad["data"]["product_witness"]["parts"][1]["inputs"][1][0] = 4      # a prefix index outside the 4 values
    assert not recheck(bad).ok and "outside [0, 4)" in recheck(bad).message
    bad = copy.deepcopy(cert)
    moved = [parts[1]["y"]] + parts[1]["inputs"][1][1:]
    bad["data"]["product_witness"]["parts"][1]["inputs"][1] = moved
    assert not recheck(bad).ok and "not attained by a witness" in recheck(bad).message
    bad = copy.deepcopy(cert)
    bad["statement"]["product"][1]["subsets"]["p"] = str(F(1, 2) + F(1, 10**12))
    assert not recheck(bad).ok and "below the certified bound" in recheck(bad).message


def test_treehist_unary_fail_certified_by_its_bits_and_twins_rejected():
    """TreeHist over a unary-encoding fragment: the FAIL just below 21/2 certified by the witness's listed bits; an
    input whose bit is not listed (a bit that need not cancel), a listed bit flipped (x's prefix cold: the ratio falls)
    and a bit value 2 rejected."""
    res, cert = _cert("TreeHist unary", below=True)
    assert str(res.verdict) == "FAIL" and recheck(cert).ok, recheck(cert).message
    frag = cert["data"]["product_witness"]["parts"][1]
    assert "unary" in cert["statement"]["product"][1] and set(frag["y"]) >= {str(u) for s in frag["inputs"] for u in s}
    bad = copy.deepcopy(cert)
    del bad["data"]["product_witness"]["parts"][1]["y"][str(frag["inputs"][0][0])]
    assert not recheck(bad).ok and "must list bits" in recheck(bad).message
    bad = copy.deepcopy(cert)
    bad["data"]["product_witness"]["parts"][1]["y"][str(frag["inputs"][0][0])] = 0
    assert not recheck(bad).ok and "not attained by a witness" in recheck(bad).message
    bad = copy.deepcopy(cert)
    bad["data"]["product_witness"]["parts"][1]["y"][str(frag["inputs"][0][0])] = 2
    assert not recheck(bad).ok and "must list bits" in recheck(bad).message


@pytest.mark.parametrize("which", ["sketch", "CMS", "SFP", "dBitFlipPM"])
def test_released_row_fail_certified_and_twins_rejected(which):
    """A released row over GRR (sketch) / a unary encoding (CMS), SFP's released position over GRR x unary encoding,
    dBitFlipPM's released positions: the FAIL just below the ratio certified by the inner inputs; the first part's two inputs made equal (its factor 1)
    and the witness dropped rejected."""
    res, cert = _cert(which, below=True)
    assert str(res.verdict) == "FAIL" and recheck(cert).ok, recheck(cert).message
    bad = copy.deepcopy(cert)
    part = bad["data"]["product_witness"]["parts"][0]
    part["inputs"][1] = list(part["inputs"][0])
    if "y" in part and isinstance(part["y"], dict):
        part["y"] = {str(part["inputs"][0][0]): part["y"][str(part["inputs"][0][0])]}
    assert not recheck(bad).ok and "not attained by a witness" in recheck(bad).message
    bad = copy.deepcopy(cert)
    del bad["data"]["product_witness"]
    assert not recheck(bad).ok


@pytest.mark.parametrize(("mid", "route", "why"), [
    ("certificate.spl-ratio-last-factor-dropped", "SPL", "below the certified bound"),
    ("certificate.hr-ratio-against-mean-level", "HR", "below the certified bound"),
    ("certificate.treehist-prefix-witness-swapped", "TreeHist", "not attained by a witness (witness ratio 0.095"),
    ("certificate.sfp-upper-word-only", "SFP", "below the certified bound"),
    ("certificate.smp-ratio-first-attribute", "SMP", "below the certified bound")])
def test_composed_mutant_rejected(mid, route, why):
    import proofs.rldp.audit_certificate_composed as mod
    from mutation.catalogue import MODULES, MUTANTS
    from rldp_verify.claims.mutants import apply, revert

    class Ctx:
        dps = 30

    def docs():
        check = mod.check_composed_product_forms
        return {d["name"]: d for d in getattr(check, "__wrapped__", check)(Ctx()).evidence["certificates"]}
    (m,) = [m for m in MUTANTS if m.id == mid]
    done = apply(m, MODULES)
    try:
        bad = docs()
    finally:
        revert(done)
    hit = [recheck(d) for n, d in bad.items() if route in n]
    assert hit and any(not c.ok and why in c.message for c in hit), [c.message for c in hit]
    assert all(recheck(d).ok for n, d in bad.items() if route not in n)
    assert all(recheck(d).ok for d in docs().values())


def test_cli_writes_the_spl_product_certificate(tmp_path, capsys):
    pytest.importorskip("multi_freq_ldpy")
    from rldp_verify.cli import main

    cert = tmp_path / "spl.json"
    assert main(["audit", "--adapter", "multi-freq-ldpy:SPL_UE_Client", "--param", "lst_k=64,64", "--param",
                 "epsilon=0.25", "--eps", "0.25", "--ldp", "--certificate", str(cert)]) == 1     # FAIL (float p)
    assert "re-checked" in capsys.readouterr().err
    doc = json.loads(cert.read_text())
    assert doc["statement"]["coordinates"] and len(doc["statement"]["product"]) == 2 and recheck(doc).ok
