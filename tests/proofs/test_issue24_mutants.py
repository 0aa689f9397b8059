"""Issue 24: checks that can fail. Each wrong variant of the engine below (mutation/catalogue.py) must turn the
claim behind it REFUTED, or -- where the paper's statement stays true and only the engine is wrong -- make the claim
say ERROR through its own consistency check (proofs._consistency.InconsistentCheck), never a verdict.

Each case runs in a fresh interpreter (rldp_verify.claims.mutants.run_subprocess), so no patch leaks into the
test process."""

import pytest

from rldp_verify.claims.mutants import run_subprocess

CASES = [
    # (mutant, claim, expected verdict, text the summary must contain)
    ("thm5.d-missing-factor-2", "rldp.thm5.ir-private", "REFUTED", ""),
    ("audit.lenient-upper-at-phat", "rldp.audit.upper-end-vs-oracle", "REFUTED", ""),
    ("audit.lenient-upper-at-phat", "rldp.example3.audit-example1", "ERROR", "InconsistentCheck"),
    ("thm1.bs-chi2-radius", "rldp.example2.lower-bounds", "ERROR", "InconsistentCheck"),
    ("thm1.bs-chi2-radius", "rldp.example2.conditional-radii", "ERROR", "InconsistentCheck"),
    ("eq11.chi2-radius-as-renyi", "rldp.example1.radius", "ERROR", "InconsistentCheck"),
    ("eq11.chi2-radius-as-renyi", "rldp.audit.confidence-radius", "REFUTED", ""),
    ("eq6.renyi-arguments-swapped", "falpha.def1.eq4-alpha-lt-1", "ERROR", "InconsistentCheck"),
    ("eq56.grr-inverted", "rldp.audit.grr-matrix", "REFUTED", ""),
    ("eq56.grr-inverted", "rldp.ex4.matrices-and-utilities", "ERROR", "InconsistentCheck"),
    ("isit.eq21-c-times-B", "isit.thm2.support-ball", "REFUTED", ""),
    ("isit.eq29-without-row-masses", "isit.thm4.support-projection", "REFUTED", ""),
    # (kairouz.thm12.tied-maximisers is REFUTED on the unmutated engine since item 4: binary-optimal-mi kills it)
    ("kairouz.binary-set-farthest-from-half", "kairouz.thm12.binary-optimal-mi", "REFUTED", ""),
    ("kairouz.mu-mi-uniform-marginal", "kairouz.thm12.tied-maximisers", "ERROR", "InconsistentCheck"),
    ("kairouz.mu-mi-uniform-marginal", "rldp.sec1.ir-randomized-response-optimal", "ERROR", "InconsistentCheck"),
    ("pram.prop32-v-min-as-v-malpha", "pram.table3.counts", "ERROR", "InconsistentCheck"),
    # item 3: the statements indexed last session, their wrong variants as catalogue mutants
    ("issue24.gamma-extremes-unordered-pairs", "falpha.sec1.post-processing-min", "REFUTED", ""),
    ("issue24.pram-dp-ratio-diagonal-only", "pram.sec2-3.post-processing", "REFUTED", ""),
    ("issue24.isit-robust-problem-joint", "isit.sec1.convex-formulations", "REFUTED", "not DCP"),
    # item 2: second routes
    ("issue24.csv-reader-drops-last-row", "rldp.sec8.adult-n", "ERROR", "routes disagree"),
    ("issue24.pram-f-simplified-without-s-minus-1", "pram.table1.counts", "ERROR", "routes disagree"),
    ("issue24.pram-mi-in-bits", "pram.sec4-2.boundary-maximises", "ERROR", "routes disagree"),
    ("issue24.kairouz-mu-kl-inverted", "kairouz.fig5.optimal-mechanisms-kl", "ERROR", "routes disagree"),
]


MUTANTS = sorted({m for m, _, _, _ in CASES})


@pytest.mark.parametrize("mutant", MUTANTS)
def test_mutant_is_caught(mutant):
    cases = [(c, v, t) for m, c, v, t in CASES if m == mutant]
    run = run_subprocess("mutation.catalogue", mutant, [c for c, _, _ in cases], timeout=300)
    assert "results" in run, run
    for claim_id, verdict, text in cases:
        got = run["results"][claim_id]
        assert got["verdict"] == verdict, f"{claim_id} under {mutant}: {got}"
        assert text in got["summary"], got["summary"]
