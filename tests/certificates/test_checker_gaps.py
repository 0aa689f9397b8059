"""Wrong certificates that five checker mutants accepted (found by the compaction pass of 2026-11-27: each of these
checks existed, but no test failed when it was weakened). Each test builds a certificate that is wrong in exactly one
respect, so that only the check named in its docstring can reject it:

- ``lp-optimum``: a primal point off an equality row E x = f on either side (the mutant compared ``>`` for ``!=``);
- ``rigorous-value``: log of an argument that is 0, not certainly > 0 (the mutant allowed ``>= 0``);
- ``series``: two coefficient claims of which one is false (the mutant accepted when ``any`` claim held);
- ``lattice-laplace``: the eps-LDP form stated for a set other than ``ldp`` (the mutant dropped the set check);
- ``bloom`` / ``signed-sketch``: a witness input outside [0, d) (the mutant dropped the upper end of the range).
"""

from __future__ import annotations

import copy
from fractions import Fraction as F

import pytest

from rldp_verify.certificates import envelope, recheck


def _lp(x):
    """max x1 + x2 s.t. x1 + x2 <= 2 (A), x1 - x2 = 0 (E): optimum 2 at (1, 1), dual y_A = 1, y_E = 0."""
    st = {"sense": "max", "c": [1, 1], "A": [[1, 1]], "b": [2], "E": [[1, -1]], "f": [0], "value": 2}
    return envelope("lp-optimum", "lp with an equality row", st, {"x": x, "y": [1, 0]})


@pytest.mark.parametrize("x", [["3/2", "1/2"], ["1/2", "3/2"]], ids=["E x > f", "E x < f"])
def test_lp_point_off_an_equality_rejected_on_either_side(x):
    assert recheck(_lp(["1", "1"])).ok
    bad = recheck(_lp(x))                  # A x = 2 <= 2 and c.x = 2 = value: only E x = f fails
    assert not bad.ok and "equality 0" in bad.message, bad.message


@pytest.mark.parametrize("arg", [0, ["-", 1, 1]], ids=["log 0", "log (1 - 1)"])
def test_log_of_zero_rejected(arg):
    good = envelope("rigorous-value", "log 1/2 <= 0", {"expr": ["log", "1/2"], "upper": 0}, {})
    assert recheck(good).ok
    bad = recheck(envelope("rigorous-value", "log 0 <= 0", {"expr": ["log", arg], "upper": 0}, {}))
    assert not bad.ok and "log" in bad.message, bad.message


def test_series_with_one_false_coefficient_claim_rejected():
    """1/(1 - x) at 0: c_1 = 1 (true) and c_2 in [2, 3] (false): all claims must hold."""
    expr = ["/", 1, ["-", 1, "$x"]]

    def doc(coefficients):
        return envelope("series", "1/(1 - x)", {"expr": expr, "at": 0, "coefficients": coefficients}, {})

    assert recheck(doc([[1, 1, 1], [2, 1, 1]])).ok
    assert not recheck(doc([[1, 1, 1], [2, 2, 3]])).ok
    assert not recheck(doc([[1, 2, 3], [2, 1, 1]])).ok


def _lattice():
    from rldp_verify.certificates.audit import structured_certificate
    from rldp_verify.structured.audit import Adapted, audit_structured
    from rldp_verify.structured.noise import LatticeLaplace

    model = Adapted(LatticeLaplace(3, 0.5, lower=0.2, upper=1.7, k=0), "test lattice noise", "exact")
    return structured_certificate(audit_structured(model, "4"), model, "4")


@pytest.mark.parametrize("F_", [{"type": "simplex"}, {"type": "distribution", "P": [["1/2", "0"], ["0", "1/2"]]}],
                         ids=["simplex", "distribution"])
def test_lattice_form_for_a_set_other_than_ldp_rejected(F_):
    good = _lattice()
    assert recheck(good).ok
    bad = copy.deepcopy(good)
    bad["statement"]["set"] = F_
    chk = recheck(bad)
    assert not chk.ok and "set ldp" in chk.message, chk.message


def _hash_cert(kind):
    from rldp_verify.certificates.audit import structured_certificate
    from rldp_verify.structured.audit import Adapted, audit_structured

    if kind == "bloom":
        from rldp_verify.structured.channels import BitChannel
        from rldp_verify.structured.composite import BloomProduct

        st = BloomProduct(4, 8, 2, BitChannel(F(3, 4), F(1, 4)),
                          lambda c, x: frozenset({(2 * x + c) % 8, (2 * x + 1 + c) % 8}), hmax=2)
        eps = "log(80)"
    else:
        from rldp_verify.structured.sketch import SignedSketch

        st = SignedSketch(4, 8, 2, F(9, 10), F(2, 5), lambda j, x: ((x // 2 + j) % 8, 1 if x % 2 == 0 else -1))
        eps = "log(13)"
    model = Adapted(st, "test", "exact")
    return structured_certificate(audit_structured(model, eps), model, eps)


@pytest.mark.parametrize("kind", ["bloom", "signed-sketch"])
@pytest.mark.parametrize("index", [4, 7], ids=["x' = d", "x' > d"])
def test_hash_witness_input_outside_the_domain_rejected(kind, index):
    good = _hash_cert(kind)
    assert recheck(good).ok and good["statement"]["verdict"] == "FAIL"
    bad = copy.deepcopy(good)
    w = bad["data"]["bloom_witness" if kind == "bloom" else "sketch_witness"]
    w["inputs"][1] = index                              # d = 4: the input is not one of the mechanism's
    chk = recheck(bad)
    assert not chk.ok and "[0, 4)" in chk.message, chk.message
