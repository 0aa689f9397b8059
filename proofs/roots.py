"""Root findings (issue 24: one finding, counted once).

Several REFUTED claims can follow from one mistake of a paper: Example 2's chi-square radius makes all its printed
numbers fail, and Example 3's printed-L reading with them. A claim that follows from another claim's finding
names it with ``@claim(..., root="<id of the claim stating the finding>")``; its REFUTED entry in
``verification.json`` then carries ``"root"``. A REFUTED claim without a root is a finding of its own.
:data:`ROOTS` states each root finding in one sentence; :func:`distinct_findings` groups claims by finding.
"""

from __future__ import annotations

#: root claim id -> the finding, in one sentence
ROOTS = {
    "rldp.example2.conditional-radii":
        "Example 2 computes B_s with the chi-square radius (e^B - 1)/P^_s instead of Theorem 1's eq. (23), so every "
        "printed number of Example 2 that depends on B_s (B_s, L_{u|s}, the interval ends, rad_s) is too small, and "
        "Example 3's printed values do not follow from Example 2's printed L (they follow from the true L)",
    "rldp.ex3.true-utility":
        "Example 3's 'I_P*(X;Y) = 0.2804' is the realised eps* of eq. (62) under P*, not the utility (0.370212)",
    "pram.table1.counts":
        "PRAM Table 1's vertex counts are not reproduced (by the enumeration and by the exact vertex sets)",
    "pram.table2.counts":
        "PRAM Table 2's vertex counts are not reproduced (by the enumeration and by the exact vertex sets)",
    "rldp.thm4.single-secret":
        "Theorem 4 and Lemma A8 need |S| >= 2 (with one sensitive value there is no pair s != s')",
}


def distinct_findings(claims, verdicts: dict) -> dict:
    """{finding (root claim id): [claim ids]} over the claims whose verdict ``verdicts[id]`` is REFUTED: claims with
    a ``root`` grouped under it, every other REFUTED claim a finding of its own."""
    out: dict = {}
    for c in claims:
        if verdicts.get(c.id) == "REFUTED":
            out.setdefault(c.root or c.id, []).append(c.id)
    return out
