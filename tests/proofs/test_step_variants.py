"""Wrong variants of the steps that statement-level claims check (mutation/step_variants.py, issue 30).

Each variant is judged for real: the claim runs with the variant applied (in this process) and must say REFUTED.
The fast test runs a few cheap variants; the whole table is the slow test (``pytest -m slow``, the report job).
"""

import pytest

import mutation.step_variants as sv

#: cheap variants (each claim runs in well under a second), one per paper section the table covers
FAST = ["000:A.2.A50", "000:6.P3.53", "000:A.6.A92", "001:IV.T6.(28)", "000:A.1.A23",
        "001:B.(77)", "003:B.i25"]   # the last two: checks strengthened in issue 30 item 2 (they said INCONCLUSIVE)


def test_table_is_consistent():
    need = sv.steps_needing_variants()
    ids = [x.id for x in sv.VARIANTS]
    assert len(ids) == len(set(ids))
    for x in sv.VARIANTS:
        assert x.step in need, f"{x.step} is not a step checked only by statement-level claims"
        assert x.claim in need[x.step], f"{x.claim} does not check {x.step}"
        assert x.old != x.new and x.description
    assert set(sv.refuted_as_printed()) <= set(need)
    assert not set(sv.refuted_as_printed()) & {x.step for x in sv.VARIANTS}
    assert set(sv.SURVIVORS) <= {x.step for x in sv.VARIANTS}


def test_judge_restores_the_claim():
    """After a variant is judged, the claim is registered and behaves as before (VERIFIED)."""
    from rldp_verify.claims import Context, discover
    from rldp_verify.claims.runner import run_claim

    x = next(v for v in sv.VARIANTS if v.step == FAST[0])
    assert sv.judge(x)["status"] == "killed"
    claim = {c.id: c for c in discover("proofs")}[x.claim]
    assert run_claim(claim, Context()).verdict.value == "VERIFIED"


def test_stale_snippet_is_reported():
    x = sv.Variant("000:A.2.A50", "rldp.lemma-a6.a47-a50", "proofs.rldp.lemA6_l1_radius", "no such text", "x", "d")
    assert sv.judge(x)["status"] == "stale"


@pytest.mark.parametrize("step", FAST)
def test_fast_variants_are_killed(step):
    for x in (v for v in sv.VARIANTS if v.step == step):
        r = sv.judge(x)
        assert r["status"] == "killed", r


@pytest.mark.slow
def test_every_variant_is_killed():
    res = sv.run()
    bad = [(r["step"], r["verdict"], r["summary"][:100]) for r in res["records"]
           if r["status"] != "killed" and not (r["status"] == "survived" and r["step"] in sv.SURVIVORS)]
    assert bad == [], bad
    assert {r["step"] for r in res["records"] if r["status"] == "survived"} == set(sv.SURVIVORS)


def test_variants_are_in_the_semantic_catalogue():
    """`make mutation-semantic` runs every variant (mutation/catalogue.py appends them as `variant.<step>`)."""
    from rldp_verify.claims.mutants import load_catalogue

    mutants = {m.id: m for m in load_catalogue("mutation.catalogue")[0]}
    for x in sv.VARIANTS:
        m = mutants[f"variant.{x.step}"]
        assert m.claims == (x.claim,) and m.module == x.module


@pytest.mark.parametrize("step", ["000:A.2.A50"])
def test_variant_mutant_patch_is_the_variant(step):
    """Applied as a catalogue mutant (in this process), the variant makes its claim REFUTED; reverted, VERIFIED."""
    from rldp_verify.claims import Context, discover
    from rldp_verify.claims.mutants import apply, revert
    from rldp_verify.claims.runner import run_claim

    (x,) = [v for v in sv.VARIANTS if v.step == step]
    claim = {c.id: c for c in discover("proofs")}[x.claim]
    done = apply(sv.as_mutant(x), {})
    try:
        assert run_claim(claim, Context()).verdict.value == "REFUTED"
    finally:
        revert(done)
    assert run_claim(claim, Context()).verdict.value == "VERIFIED"


def test_stale_variant_mutant_fails_to_apply():
    from rldp_verify.claims.mutants import apply

    x = sv.Variant("000:A.2.A50", "rldp.lemma-a6.a47-a50", "proofs.rldp.lemA6_l1_radius", "no such text", "x", "d")
    with pytest.raises(ValueError, match="not once"):
        apply(sv.as_mutant(x), {})


def test_variant_mutant_reaches_a_wrapped_check():
    """000:A.5.i56's snippet is in rldp.thm3.lp-optimum's check, below a functools.wraps decorator: the patch swaps the
    wrapped function's code (the one the registered claim calls), and revert puts it back."""
    import importlib

    from rldp_verify.claims.mutants import apply, revert

    (x,) = [v for v in sv.VARIANTS if v.step == "000:A.5.i56"]
    m = sv.as_mutant(x)
    assert m.patches[0].target == "proofs.rldp.thm3_lp:check_lp.__wrapped__.__code__"
    inner = importlib.import_module("proofs.rldp.thm3_lp").check_lp.__wrapped__
    code = inner.__code__
    done = apply(m, {})
    try:
        assert inner.__code__ is not code and "include_same_s" in inner.__code__.co_names + tuple(
            n for c in inner.__code__.co_consts if isinstance(c, tuple) for n in c if isinstance(n, str))
    finally:
        revert(done)
    assert inner.__code__ is code
