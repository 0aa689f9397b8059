import json

import pytest

from rldp_verify.claims import Context, Outcome, Verdict, compare_printed, outcome_from_comparisons
from rldp_verify.claims.core import Claim, Method, claim
from rldp_verify.claims.runner import run_claim


def _mk(fn, **kw):
    return Claim(id=kw.get("id", "t.x"), paper="000_aca93ed29ea857ee.txt", source="s", statement="st",
                 check=fn, method=(Method.EXACT,))


def test_printed_comparison_is_at_printed_precision():
    assert compare_printed("B", "0.0752", 0.075241).agrees
    assert not compare_printed("B", "0.0752", 0.07526).agrees
    assert compare_printed("x", "2", 2.49).agrees and not compare_printed("x", "2", 2.51).agrees


def test_refuted_lists_misses():
    out = outcome_from_comparisons([compare_printed("a", "1.00", 1.004), compare_printed("b", "1.00", 1.2)])
    assert out.verdict is Verdict.REFUTED
    assert [c["label"] for c in out.evidence["counterexample"]] == ["b"]


def test_exception_is_error_not_verdict():
    r = run_claim(_mk(lambda ctx: 1 / 0), Context())
    assert r.verdict is Verdict.ERROR and "ZeroDivisionError" in r.summary


def test_refuted_needs_counterexample():
    r = run_claim(_mk(lambda ctx: Outcome(Verdict.REFUTED, "no evidence")), Context())
    assert r.verdict is Verdict.ERROR


def test_evidence_is_json_safe():
    from fractions import Fraction

    r = run_claim(_mk(lambda ctx: Outcome.verified("ok", q=Fraction(1, 3), inf=float("inf"))), Context())
    json.dumps(r.to_json())
    assert r.evidence["q"] == "1/3"


def test_duplicate_ids_rejected():
    @claim(id="t.dup", paper="000_aca93ed29ea857ee.txt", source="s", statement="x", method="exact")
    def one(ctx):
        return Outcome.verified("ok")

    def other(ctx):
        return Outcome.verified("ok")

    other.__module__ = "elsewhere"
    with pytest.raises(ValueError):
        claim(id="t.dup", paper="000_aca93ed29ea857ee.txt", source="s", statement="x", method="exact")(other)


def test_duplicate_id_in_the_same_module_rejected():
    """A copy-pasted claim inside one module must not silently replace the first one."""

    @claim(id="t.dup-same", paper="000_aca93ed29ea857ee.txt", source="s", statement="x", method="exact")
    def first(ctx):
        return Outcome.verified("ok")

    def second(ctx):
        return Outcome.verified("ok")

    second.__module__ = first.__module__
    with pytest.raises(ValueError, match="duplicate claim id 't.dup-same'"):
        claim(id="t.dup-same", paper="000_aca93ed29ea857ee.txt", source="s", statement="x", method="exact")(second)


def test_refuted_needs_a_known_kind():
    import pytest

    from rldp_verify.claims import Context, Outcome
    from rldp_verify.claims.core import KINDS, Claim, Method
    from rldp_verify.claims.runner import run_claim

    with pytest.raises(ValueError):
        Outcome.refuted("x", counterexample=1, kind="typo")
    with pytest.raises(ValueError):
        Outcome(Outcome.verified("x").verdict, "x", {}, "false")

    def mk(outcome):
        return Claim("t.kind", "000_x.txt", "s", "st", lambda ctx: outcome, (Method.EXACT,))

    r = run_claim(mk(Outcome.refuted("no kind", counterexample=1)), Context())
    assert r.verdict.value == "ERROR" and "finding kind" in r.summary
    for k in KINDS:
        r = run_claim(mk(Outcome.refuted("x", counterexample=1, kind=k)), Context())
        assert r.verdict.value == "REFUTED" and r.kind == k and r.to_json()["kind"] == k
