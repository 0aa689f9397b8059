"""Which claims check the formula behind each reference quantity of ``rldp-verify reference``.

The engine's reference tables (:mod:`rldp_verify.reference`) know no papers; this map, read by the CLI
from the proofs package, names the claims whose checks verify each quantity's formula. The ids are
resolved in the claim registry when a table is written (and their checks are run there), and
``tests/reference/test_provenance.py`` fails when an id is missing or its pinned verdict is not VERIFIED.
"""

REFERENCE_CLAIMS = {
    "B": ("rldp.example1.radius", "rldp.sec3.d2-chi2"),
    "B_s": ("rldp.thm1.radius-direct-optimisation", "rldp.thm1.projection-in-ball", "rldp.thm1.lift-in-F",
            "rldp.thm1.alpha-lt-1-whole-simplex"),
    "xi_minus": ("rldp.sec42.phi-is-binary-divergence", "rldp.lemma-a5.extreme-coordinates",
                 "rldp.lemma1.roots-numeric"),
    "xi_plus": ("rldp.sec42.phi-is-binary-divergence", "rldp.lemma-a5.extreme-coordinates",
                "rldp.lemma1.roots-numeric"),
    "L": ("rldp.prop1.lower-and-rad", "rldp.lemma-a5.extreme-coordinates", "rldp.prop2.part1"),
    "rad_s": ("rldp.prop1.lower-and-rad", "rldp.lemma-a6.l1-radius"),
    "grr_matrix": ("rldp.prop3.eq57-and-grr", "rldp.ex4.matrices-and-utilities"),
    "srr_matrix": ("rldp.lemma2.srr-private", "rldp.ex4.matrices-and-utilities"),
    "ir_matrix": ("rldp.ex5.kronecker-form", "rldp.thm5.ir-private"),
    "grr_utility": ("rldp.thm4.utility-as-mu-sum", "rldp.ex4.matrices-and-utilities"),
    "srr_utility": ("rldp.thm4.utility-as-mu-sum", "rldp.ex4.matrices-and-utilities"),
    "ir_utility": ("rldp.thm6.chain-rule", "rldp.thm4.utility-as-mu-sum"),
    "polyopt_utility": ("rldp.thm3.lp-optimum", "rldp.thm2.cone-implies-rldp", "rldp.thm3.mu-properties",
                        "rldp.orderings.monotone"),
    "polyopt_matrix": ("rldp.thm3.lp-optimum", "rldp.thm3.vertex-enumeration-crosscheck"),
    "realized_eps": ("rldp.sec8.realized-eps", "rldp.audit.joint-projection"),
    "audit_ratio": ("rldp.audit.joint-projection", "rldp.audit.pair-bracket", "rldp.audit.ball-support-dual"),
    "kairouz_f_threshold": ("kairouz.lemma24.eq61-closed-form", "kairouz.thm5.binary-optimal-no-ties"),
    "kairouz_kl_rr_threshold": ("kairouz.thm8.rr-optimal-kl-distinct-ratios", "kairouz.thresholds.kl"),
}
