"""Issue 24: the report never holds two verdicts that contradict each other.

Two kinds of check, both on the pinned verdicts and kinds (which tests/proofs/test_proofs.py ties to the claims'
actual results, so they are the report's verdicts):

- declared pairs (SHARED_INPUTS): claims known to share inputs, each with the rule that keeps them consistent;
- found pairs: every two claims that share inputs -- listed under one entry of the statement index
  (proofs/statements/*.toml: the same place of the paper) or whose statements quote the same printed decimal (three
  or more decimals) of the same paper -- and reach opposite conclusions: one VERIFIED, the other REFUTED as 'false'
  (false under every careful reading), or, on a shared printed number, REFUTED as 'wrong-number'. Each such pair must
  be explained in EXPLAINED (why the two conclusions are about different propositions); an unexplained pair fails,
  and so does an explanation whose pair no longer arises (it would hide a future one).
"""

import itertools
import re

import pytest

import proofs.statements as st
from rldp_verify.claims.catalogue import Catalogue

CATALOGUE = Catalogue.load("proofs")
PINS = CATALOGUE.pins()
CLAIMS = {c.id: c for c in CATALOGUE.discover()}


def _not_false_if_verified(a, b):
    """b may not be a 'false' finding when a, on the same inputs, verifies the reading b's finding contradicts."""
    return not (PINS[a]["verdict"] == "VERIFIED" and PINS[b]["verdict"] == "REFUTED" and PINS[b]["kind"] == "false")


SHARED_INPUTS = [
    # J_0.05's ends print as 0.4875 / 0.5125 (interval VERIFIED): the grid with those ends cannot be a 'false' finding
    ("pram.sec4-2.interval", "pram.sec4-2.grid-private", _not_false_if_verified,
     "J_0.05 = [1/(e^0.05+1), e^0.05/(1+e^0.05)] and the six printed q"),
    # Example 3 is reproduced from the recomputed L (one value off: 0.2804); its printed-L reading is a consequence of
    # Example 2's radius, not a separate false statement
    ("rldp.ex3.recomputed-L", "rldp.ex3.printed-L-inputs", lambda a, b: PINS[b]["kind"] != "false",
     "Example 3's inputs"),
]


@pytest.mark.parametrize("a,b,rule,what", SHARED_INPUTS, ids=[f"{a}|{b}" for a, b, _, _ in SHARED_INPUTS])
def test_claims_sharing_inputs_do_not_contradict(a, b, rule, what):
    assert a in PINS and b in PINS
    assert rule(a, b), f"{a} ({PINS[a]}) and {b} ({PINS[b]}) contradict on {what}"


#: (VERIFIED claim, REFUTED claim) -> why the two conclusions do not contradict each other
EXPLAINED = {
    ("isit.sec5.fig2-scatter", "isit.sec5.finding-nonrobust-privacy-weak"):
        "the scatter's problems are solvable (VERIFIED); the finding is about how far eps* exceeds eps at n = 15000",
    ("isit.sec5.finding-robust-privacy-costs-utility", "isit.sec5.finding-nonrobust-privacy-weak"):
        "distortion D* (utility) vs the size of eps* without robust privacy: different quantities of one figure",
    ("isit.sec5.finding-robust-utility-small-effect", "isit.sec5.finding-nonrobust-privacy-weak"):
        "NURP vs RURP distortion vs eps* of the non-robust problems: different quantities of one figure",
    ("isit.sec5.finding-rurp-conservative-small-n", "isit.sec5.finding-nonrobust-privacy-weak"):
        "eps* of RURP (robust privacy, small n) vs eps* of the non-robust problems: different problems of one figure",
    ("kairouz.cor16.mi-bound-large-eps", "kairouz.eq32.rr-mi-expansion"):
        "Corollary 16's bound (a (1 - delta) factor) holds; eq. (32)'s remainder order O(e^-2eps) is what fails",
    ("kairouz.cor9.symkl-bound-small-eps", "kairouz.sec3.error-exponent-low-privacy"):
        "small-eps bound (Corollary 9) vs the low-privacy (large eps) error exponent: different regimes",
    ("kairouz.fig6.limits", "kairouz.fig6.beats-geometric"):
        "RR's limit at large eps holds; the finding is the binary mechanism below the geometric one at eps = 8, 10",
    ("kairouz.fig6.regimes", "kairouz.fig6.beats-geometric"):
        "which mechanism is optimal in each regime vs the binary mechanism against the geometric one at large eps",
    ("pram.ex3-2-3.interval", "pram.ex3-2-3.both-ends-optimal"):
        "the privacy interval of the symmetric family (VERIFIED) vs which of its ends maximises I (only the upper)",
    ("pram.ex3-2-3.optimum-at-boundary", "pram.ex3-2-3.both-ends-optimal"):
        "'an end is optimal' (VERIFIED) is implied by, not contrary to, 'only the upper end is optimal'",
    ("rldp.example1.radius", "rldp.example2.conditional-radii"):
        "Example 1's B = 0.0752 is right; Example 2 derives its B_s from it with the wrong formula (root finding)",
    ("rldp.example2.fprime-simplex", "rldp.ex3.printed-L-inputs"):
        "fprime-simplex is VERIFIED only as a conditional statement on the printed L (its summary says so)",
    ("rldp.example2.fprime-simplex", "rldp.example2.intervals-and-rad"):
        "fprime-simplex is VERIFIED only as a conditional statement on the printed intervals (its summary says so)",
    ("rldp.example2.fprime-simplex", "rldp.example2.lower-bounds"):
        "fprime-simplex is VERIFIED only as a conditional statement on the printed L (its summary says so)",
    ("rldp.orderings.nested", "rldp.sec6.srr-utility-below-polyopt"):
        "the nesting gives relaxed PolyOpt >= SRR, not PolyOpt >= SRR, which is what fails (Definition 3's rows)",
    ("rldp.orderings.nested-exhaustive", "rldp.sec6.srr-utility-below-polyopt"):
        "the nesting gives relaxed PolyOpt >= SRR, not PolyOpt >= SRR, which is what fails (Definition 3's rows)",
    ("rldp.sec6.srr-stricter-than-polyopt", "rldp.sec6.srr-utility-below-polyopt"):
        "the privacy requirements are nested (VERIFIED); the utility ordering drawn from it fails (Definition 3's rows)",
    ("rldp.sec8.synthetic-orderings", "rldp.sec8.synthetic-nr-margin"):
        "orderings among the RLDP mechanisms vs the size of NR's lead over them",
    ("rldp.sec9.ir-quick", "rldp.sec9.polyopt-close-to-nr"):
        "IR's running time vs PolyOpt's utility gap to NR: one paragraph, different propositions",
    ("rldp.sec9.nonrobust-privacy-cost", "rldp.sec9.polyopt-close-to-nr"):
        "NR's privacy cost vs PolyOpt's utility gap to NR: one paragraph, different propositions",
    ("rldp.sec9.rldp-beats-ldp", "rldp.sec9.polyopt-close-to-nr"):
        "RLDP's gain over GRR (the LDP baseline) vs PolyOpt's utility gap to NR: one paragraph, different propositions",
}

_DECIMAL = re.compile(r"(?<![\w.])\d+\.\d{3,}")


def shared_input_groups() -> dict:
    """{what is shared: [claim ids]}: the claims of one statement-index entry, and the claims of one paper whose
    statements quote the same printed decimal."""
    groups = {}
    for s in st.statements():
        ids = [c for c in s.claims if c in CLAIMS]
        if len(ids) > 1:
            groups[f"statement {s.paper}:{s.id}"] = ids
    by_number: dict = {}
    for cid, c in CLAIMS.items():
        for x in set(_DECIMAL.findall(c.statement)):
            by_number.setdefault((cid.split(".")[0], x), set()).add(cid)
    for (paper, x), ids in by_number.items():
        if len(ids) > 1:
            groups[f"printed number {x} ({paper})"] = sorted(ids)
    return groups


def opposite(a: str, b: str, on_number: bool) -> bool:
    """a VERIFIED, b REFUTED as false (or, on a shared printed number, as wrong-number)."""
    pa, pb = PINS[a], PINS[b]
    kinds = ("false", "wrong-number") if on_number else ("false",)
    return pa["verdict"] == "VERIFIED" and pb["verdict"] == "REFUTED" and pb.get("kind") in kinds


def found_pairs() -> dict:
    out: dict = {}
    for what, ids in shared_input_groups().items():
        for a, b in itertools.permutations(ids, 2):
            if opposite(a, b, what.startswith("printed number")):
                out.setdefault((a, b), []).append(what)
    return out


def test_no_unexplained_contradiction():
    found = found_pairs()
    unexplained = {f"{a} VERIFIED / {b} REFUTED {PINS[b]['kind']}": w for (a, b), w in found.items()
                   if (a, b) not in EXPLAINED}
    assert not unexplained, ("claims sharing inputs with opposite conclusions, not explained in EXPLAINED (reclassify "
                             f"the finding under its charitable reading, or explain the pair): {unexplained}")
    stale = sorted(set(EXPLAINED) - set(found))
    assert not stale, f"explanations for pairs that no longer arise (delete them): {stale}"


def test_the_finder_finds_a_planted_contradiction(monkeypatch):
    """The finder is not vacuous: the pram.sec4-2 pair as it was before issue 24 (grid-private REFUTED 'false')."""
    a, b = "pram.sec4-2.interval", "pram.sec4-2.grid-private"
    assert any(a in ids and b in ids for ids in shared_input_groups().values())
    monkeypatch.setitem(PINS, b, {**PINS[b], "verdict": "REFUTED", "kind": "false"})
    monkeypatch.setitem(PINS, a, {**PINS[a], "verdict": "VERIFIED"})
    assert (a, b) in found_pairs()
