"""Certificates of nine Kairouz claims (issue 23): the six step claims that had no builder, (12), (32) and
(129)-(135). Each claim's certificates are accepted by the independent checker, its verdict is its pin, and a
corrupted certificate (a perturbed number, a wrong printed step, a moved bound) is rejected."""

import copy
from fractions import Fraction

import pytest

from mutation.steps_catalogue import _k70_over_t, _k72_sign, _k_constant_square
from proofs.kairouz import _step_certs, steps_sec7_8
from rldp_verify.certificates import qs, recheck
from rldp_verify.certificates.identity import Tree, tree_identity_certificate
from rldp_verify.claims import Context
from rldp_verify.claims.catalogue import Catalogue
from rldp_verify.claims.runner import run_claim

F = Fraction
CATALOGUE = Catalogue.load("proofs")
CLAIMS = {c.id: c for c in CATALOGUE.discover()}
PINS = CATALOGUE.pins()
IDS = ("kairouz.steps.literal-readings", "kairouz.steps.s8-2.strict-gap-fact", "kairouz.steps.s8-3.tv-dual-70-79",
       "kairouz.steps.s8-2.eps-star", "kairouz.steps.s8-5.constant-94-95", "kairouz.steps.mu-closed-forms",
       "kairouz.thm14.expansions-133-135", "kairouz.eq32.rr-mi-expansion", "kairouz.eq12.utility-is-output-divergence")
_RUNS: dict = {}


def _run(cid: str):
    if cid not in _RUNS:
        _RUNS[cid] = run_claim(CLAIMS[cid], Context(out_dir="/tmp/rldp-verify-test-kairouz-steps"))
    return _RUNS[cid]


def _docs(cid: str) -> list[dict]:
    return _run(cid).evidence["certificates"]


def _named(cid: str, part: str) -> dict:
    docs = [d for d in _docs(cid) if part in d["name"]]
    assert docs, f"{cid}: no certificate named with {part!r}"
    return copy.deepcopy(docs[0])


def _ok(doc) -> bool:
    return recheck(doc).ok


def _false_identity(doc) -> bool:
    """A corrupted symbolic identity, with a grid large enough for its new degrees (as the builder would make it),
    is rejected because lhs - rhs != 0 at a grid point (not merely for too few points)."""
    from rldp_verify.certificates.identity import _grid, _tree_grid_size

    st = doc["statement"]
    _, names, degree = _tree_grid_size(st["lhs"], st["rhs"], st["variables"])
    doc["data"]["points"] = _grid(names, degree, 0)
    r = recheck(doc)
    return not r.ok and "!= 0 at" in r.message


@pytest.mark.parametrize("cid", IDS)
def test_claim_keeps_its_pin_and_its_certificates_pass(cid):
    r = _run(cid)
    assert r.verdict.value == PINS[cid]["verdict"]
    docs = r.evidence.get("certificates")
    assert docs, f"{cid}: no certificates ({r.evidence.get('no_certificate')})"
    bad = [recheck(d).line() for d in docs if not recheck(d).ok]
    assert not bad, bad
    assert r.evidence.get("certificate_covers"), f"{cid}: the certified part is not named"


def test_literal_readings_corrupted():
    doc = _named("kairouz.steps.literal-readings", "Lemma 22")
    doc["statement"]["expr"][1] = "1/2"            # Q_02 = 1/2: S_02 = 3/2 is not < 1
    assert not _ok(doc)
    doc = _named("kairouz.steps.literal-readings", "(57)")
    printed, closed = doc["statement"]["expr"][1], doc["statement"]["expr"][2]
    # the closed form with P_0(T) (the evident reading) equals the printed sum: the strict inequality fails
    closed[1][1][2] = ["+", 0, "3/4"]
    assert printed and not _ok(doc)


def test_strict_gap_corrupted():
    doc = _named("kairouz.steps.s8-2.strict-gap-fact", "= 0 exactly")
    doc["statement"]["lhs"][1][1][2] = qs(F(doc["statement"]["lhs"][1][1][2]) + F(1, 10 ** 30))
    assert _false_identity(doc)
    tie = _named("kairouz.steps.s8-2.strict-gap-fact", "a tie")
    tie["statement"]["rhs"] = qs(F(tie["statement"]["rhs"]) - F(1, 10 ** 30))
    assert _false_identity(tie)


def test_eps_star_corrupted():
    doc = _named("kairouz.steps.s8-2.eps-star", "eps* = min")
    doc["statement"]["expr"] = ["min", *[1 if a == 0 else a for a in doc["statement"]["expr"][1:]]]   # eps(j) = 1
    assert not _ok(doc)


def test_tv_dual_wrong_printed_steps_are_rejected():
    cid = "kairouz.steps.s8-3.tv-dual-70-79"
    docs, _ = _step_certs.tv_dual_certificates(cid, steps_sec7_8.printed_70, steps_sec7_8.printed_72_final)
    assert all(_ok(d) for d in docs)
    docs, _ = _step_certs.tv_dual_certificates(cid, _k70_over_t, steps_sec7_8.printed_72_final)
    assert _false_identity(docs[0]) and _false_identity(docs[1])    # (71) and (72) line 2 through the wrong (70)
    docs, _ = _step_certs.tv_dual_certificates(cid, steps_sec7_8.printed_70, _k72_sign)
    assert _false_identity(docs[2])


def test_tv_dual_mutant_refutes_without_certificates(monkeypatch):
    monkeypatch.setattr(steps_sec7_8, "printed_72_final", _k72_sign)
    r = run_claim(CLAIMS["kairouz.steps.s8-3.tv-dual-70-79"], Context(out_dir="/tmp/rldp-verify-test-kairouz-steps"))
    assert r.verdict.value == "REFUTED" and "no_certificate" in r.evidence and "certificates" not in r.evidence


def test_constant_94_95_corrupted():
    cid = "kairouz.steps.s8-5.constant-94-95"
    docs, _ = _step_certs.constant_94_95_certificates(cid, _k_constant_square, [])
    assert _false_identity(docs[0])
    doc = _named(cid, "Pinsker")
    doc["statement"]["expr"][1][2] = qs(F(doc["statement"]["expr"][1][2]) * 10 ** 6)   # 2 TV^2 x 10^6 > D_kl
    assert not _ok(doc)


def test_closed_forms_corrupted():
    doc = _named("kairouz.steps.mu-closed-forms", "(92)")
    assert doc["statement"]["variables"]
    # (92) with 1/(e^eps + k) for 1/(e^eps + k - 1): the identity is false
    text = str(doc["statement"]["rhs"])
    doc["statement"]["rhs"] = ["*", ["/", ["+", "$t", 3], ["+", "$t", 2]], doc["statement"]["rhs"]]
    assert text and _false_identity(doc)


def test_thm14_corrupted():
    cid = "kairouz.thm14.expansions-133-135"
    doc = _named(cid, "(131)")
    doc["statement"]["rhs"] = ["*", doc["statement"]["rhs"], ["/", ["+", "$t", 4], ["+", "$t", 3]]]
    assert _false_identity(doc)
    doc = _named(cid, "coefficient at T_j = [0, 1] is > 0")
    doc["statement"]["expr"] = ["-", doc["statement"]["expr"]]
    assert not _ok(doc)
    doc = _named(cid, "eps = 30")
    doc["statement"]["lower"], doc["statement"]["upper"] = qs(F(-1, 10 ** 14)), qs(F(1, 10 ** 14))
    assert not _ok(doc)        # the coefficient is matched to O(eps e^-eps), not to 10^-14 at eps = 30


def test_eq32_corrupted():
    cid = "kairouz.eq32.rr-mi-expansion"
    doc = _named(cid, "c = ")
    doc["statement"]["upper"] = -2            # c = -1
    assert not _ok(doc)
    doc = _named(cid, "eps = 10 ")
    doc["statement"]["lower"], doc["statement"]["upper"] = qs(F(-1, 10 ** 4)), qs(F(1, 10 ** 4))
    assert not _ok(doc)        # at eps = 10 the scaled remainder is -0.99952..., 4.8e-4 from c


def test_eq12_corrupted():
    cid = "kairouz.eq12.utility-is-output-divergence"
    doc = _named(cid, "KL (a = ")
    doc["statement"]["rhs"] = ["*", "$b", "$L"]          # mu_kl = b log(a/b): the reverse divergence's term
    assert _false_identity(doc)
    doc = _named(cid, "chi^2 (k = 2")
    doc["statement"]["rhs"][2] = ["-", doc["statement"]["rhs"][2], 1]
    assert _false_identity(doc)


def test_tree_refuses_what_it_cannot_write():
    t = Tree.var("t")
    with pytest.raises(ValueError, match="sign is not known"):
        abs(t - 1)
    with pytest.raises(TypeError, match="not an exact number"):
        t + 0.5
    with pytest.raises(ValueError, match="non-integer power"):
        t ** F(1, 2)
    assert abs(Tree.var("u", nonneg=True)).node == "$u"
    assert _ok(tree_identity_certificate("x", (t + 1) ** 2, t * t + 2 * t + 1))
    assert _false_identity(tree_identity_certificate("x", (t + 1) ** 2, t * t + t + 1))


def test_tv_dual_sign_facts_corrupted():
    cid = "kairouz.steps.s8-3.tv-dual-70-79"
    doc = _named(cid, "the signs of d on T")
    x = doc["data"]["x"]
    k = len(x) // 2
    doc["data"]["x"] = x[k:] + x[:k]          # P0 and P1 swapped: d changes sign on T (the sums stay 1)
    assert not _ok(doc)
    P0, P1 = (F(1, 2), F(1, 4), F(1, 4)), (F(1, 4), F(1, 2), F(1, 4))
    good = _step_certs.tv_dual_sign_certificates(cid, [(P0, P1, F(3), frozenset({0, 2}))])
    wrong_T = _step_certs.tv_dual_sign_certificates(cid, [(P0, P1, F(3), frozenset({1}))])
    assert _ok(good[0]) and not _ok(wrong_T[0])


def test_eps_star_repair_just_above_the_repaired_eps_is_rejected():
    doc = _named("kairouz.steps.s8-2.eps-star", "the repair at")
    assert _ok(doc)
    binding = doc["statement"]["expr"][1][0][1]           # ["*", ["min", r_j ...], 1 - 10^-20]
    binding[2] = qs(1 + F(1, 10 ** 20))                   # just above e^{eps*}: the binding bound is < 0
    assert not _ok(doc)
