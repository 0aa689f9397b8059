"""Certificates of the sampled instances of the rldp property tests (issue 23,
:mod:`rldp_verify.certificates.instances_rldp`): each builder shape is accepted on true instances and rejected
once one instance is made false; the claims' own documents are rejected once a raw number in them is perturbed."""

import copy
import json
from fractions import Fraction as F

import pytest

from rldp_verify.certificates import instances_rldp as inst
from rldp_verify.certificates import recheck
from rldp_verify.certificates.claims import KEY
from rldp_verify.claims import Context


def test_all_zero_accepts_equalities_and_rejects_one_perturbed():
    es = [["-", ["/", ["*", F(1, 3), F(2, 7)], F(2, 7)], F(1, 3)], ["-", ["+", F(1, 2), F(1, 3)], F(5, 6)]]
    assert recheck(inst.all_zero_certificate("eq", es)).ok
    bad = es + [["-", ["+", F(1, 2), F(1, 3)], F(5, 6) + F(1, 10**30)]]   # one instance off by 1e-30
    assert not recheck(inst.all_zero_certificate("eq", bad)).ok


def test_all_nonneg_and_positive_reject_one_false_instance():
    es = [["-", F(1, 2), F(1, 3)], ["-", F(1, 3), F(1, 3)]]
    assert recheck(inst.all_nonneg_certificate("ge", es)).ok
    assert not recheck(inst.all_positive_certificate("gt", es)).ok            # the second is 0, not > 0
    assert not recheck(inst.all_nonneg_certificate("ge", es + [["-", F(1, 3), F(1, 2)]])).ok
    arb = [["-", ["log", 3], 1]]                                                 # log 3 > 1, in arb
    assert recheck(inst.all_positive_certificate("log", arb, exact=False)).ok
    assert not recheck(inst.all_positive_certificate("log", [["-", ["log", 2], 1]], exact=False)).ok


def test_ldp_expressions_and_level():
    Q = [[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]]                                # randomized response, level 3
    assert recheck(inst.all_nonneg_certificate("ldp", inst.ldp_expressions(Q, 3))).ok
    assert not recheck(inst.all_nonneg_certificate("ldp", inst.ldp_expressions(Q, F(299, 100)))).ok
    assert recheck(inst.ldp_level_certificate("lvl", Q, 3)).ok
    assert not recheck(inst.ldp_level_certificate("lvl", Q, F(301, 100))).ok    # every ratio < t: not attained
    assert not recheck(inst.ldp_level_certificate("lvl", Q, F(299, 100))).ok


def test_empty_instance_list_refused():
    with pytest.raises(ValueError, match="no instance"):
        inst.all_zero_certificate("eq", [])


def _docs(outcome):
    docs = outcome.evidence.get(KEY)
    assert docs, outcome.evidence.get("no_certificate")
    return docs


def _perturb_first_number(doc, delta=F(1, 10**12)):
    """The document with the first rational leaf of its expression (a raw datum of an instance) moved by delta."""
    bad = copy.deepcopy(doc)

    def walk(e):
        for i, a in enumerate(e):
            if isinstance(a, list):
                if walk(a):
                    return True
            elif i > 0 and not (isinstance(a, str) and a.startswith("$")):
                e[i] = str(F(a) + delta)
                return True
        return False

    assert walk(bad["statement"]["expr"])
    return json.loads(json.dumps(bad))


def test_sec1_claims_certificates_accepted_and_wrong_variants_rejected(monkeypatch):
    import functools

    import proofs.rldp.sec1_9_sentences as s

    ctx = Context(dps=30)
    for check in (s.check_x_equals_s, s.check_eq3, s.check_composition):
        docs = _docs(check(ctx))
        assert all(recheck(d).ok for d in docs), check.__name__
    assert not recheck(_perturb_first_number(_docs(s.check_x_equals_s(ctx))[0])).ok
    # wrong variants of what the certificates state: P(y, s) for P(y|s); the prior odds inverted; max for product
    joint = lambda Q, P, y, s_, a2: ["+", *(["*", Q[y][x], P[x]] for x in range(s_ * a2, s_ * a2 + a2))]  # noqa: E731
    monkeypatch.setattr(s, "cond_output_expr", joint)
    assert not recheck(_docs(s.check_x_equals_s(ctx))[0]).ok
    monkeypatch.undo()
    monkeypatch.setattr(s, "_eq3_sides", functools.partial(s._eq3_sides, prior="inverted"))
    assert not all(recheck(d).ok for d in _docs(s.check_eq3(ctx)))
    monkeypatch.undo()
    monkeypatch.setattr(s, "_composition_certificates",
                        functools.partial(s._composition_certificates, level=lambda a, b: ["max", a, b]))
    docs = _docs(s.check_composition(ctx))
    assert not recheck(docs[0]).ok and not recheck(docs[1]).ok
