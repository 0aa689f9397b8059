"""Definition 3 (staircase pattern matrix) and the printed S^(3); Figure 2's two example mechanisms."""

from fractions import Fraction

import sympy as sp

from rldp_verify.certificates.claims import no_certificate
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.topics.extremal.polytope import is_staircase
from rldp_verify.topics.extremal.staircase import pattern_matrix
from rldp_verify.topics.extremal.utilities import is_ldp, is_stochastic

from ._common import PAPER

# The printed S^(3) of Sec. 2.2 (rows x = 1..3), with 'e' standing for e^eps.
PRINTED_S3 = [
    "1 1 1 1 e e e e",
    "1 1 e e 1 1 e e",
    "1 e 1 e 1 e 1 e",
]


@claim(
    id="kairouz.def3.printed-s3",
    paper=PAPER,
    source="Sec. 2.2, Definition 3 and the displayed S^(3)",
    statement="Column j of S^(k) is (e^eps - 1) b_{j-1} + 1 with b_m the binary representation of m; "
              "for k = 3 this gives the printed 3 x 8 matrix S^(3), and there are exactly 2^k patterns.",
    method=Method.SYMBOLIC,
    reading="b_m written most-significant bit first (row 1 = highest bit), the only reading that gives the printed S^(3)",
)
def check(ctx):
    t = sp.Symbol("t", positive=True)
    printed = [[t if c == "e" else sp.Integer(1) for c in row.split()] for row in PRINTED_S3]
    ours = [[t if (j >> (2 - i)) & 1 else sp.Integer(1) for j in range(8)] for i in range(3)]
    lsb = [[t if (j >> i) & 1 else sp.Integer(1) for j in range(8)] for i in range(3)]
    counts = {}
    for k in range(1, 7):
        cols = pattern_matrix(k, Fraction(3))
        counts[k] = len(set(cols))
    if printed != ours:
        return Outcome.refuted("printed S^(3) differs from Definition 3", counterexample={"printed": str(printed), "ours": str(ours)}, kind="false")
    if any(counts[k] != 2**k for k in counts):
        return Outcome.refuted("pattern count is not 2^k", counterexample=counts, kind="false")
    return Outcome.verified("Definition 3 (MSB-first) reproduces the printed S^(3) entry by entry; "
                            "distinct patterns = 2^k for k = 1..6",
                            lsb_first_reading_matches=(printed == lsb), distinct_patterns=counts,
                            **no_certificate("an entry-by-entry comparison of two matrices whose entries are t or 1 "
                                             "(no identity to certify) and exact pattern counts"))


@claim(
    id="kairouz.fig2.example-mechanisms",
    paper=PAPER,
    source="Sec. 2.1, Figure 2",
    statement="The two printed matrices Q^T (binary, 5 inputs x 2 outputs, and randomized response, 4 x 4) "
              "are eps-LDP staircase mechanisms (rows of Q sum to 1, |log likelihood ratios| in {0, eps}).",
    method=(Method.SYMBOLIC, Method.EXACT),
)
def check_fig2(ctx):
    t = sp.Symbol("t", positive=True)
    binT = [[t, t, 1, t, 1], [1, 1, t, 1, t]]
    rrT = [[t if i == j else 1 for j in range(4)] for i in range(4)]
    problems = []
    identities = {}
    for name, QT, d in (("binary", binT, 1 + t), ("rr", rrT, 3 + t)):
        Q = sp.Matrix(QT).T / d
        for i in range(Q.rows):
            identities[f"{name}: row {i} sums to 1"] = (sp.Add(*Q.row(i), evaluate=False), 1)
            if sp.simplify(sum(Q.row(i)) - 1) != 0:
                problems.append(f"{name}: row {i} does not sum to 1")
        for y in range(Q.cols):
            ratios = {sp.simplify(Q[a, y] / Q[b, y]) for a in range(Q.rows) for b in range(Q.rows)}
            if not ratios <= {1, t, 1 / t}:
                problems.append(f"{name}: column {y} ratios {ratios}")
        for tv in (Fraction(2), Fraction(7, 3)):
            Qn = [[Fraction(str(Q[i, j].subs(t, sp.Rational(tv.numerator, tv.denominator)))) for j in range(Q.cols)] for i in range(Q.rows)]
            if not (is_stochastic(Qn) and is_ldp(Qn, tv) and is_staircase(Qn, tv)):
                problems.append(f"{name}: exact check failed at t = {tv}")
    if problems:
        return Outcome.refuted("; ".join(problems), counterexample=problems, kind="false")
    from rldp_verify.certificates.identity import identity_evidence

    ev = identity_evidence("kairouz.fig2.example-mechanisms", identities)
    return Outcome.verified("both Figure 2 mechanisms are stochastic, eps-LDP and staircase (symbolic in t = e^eps; "
                            "exact at t = 2, 7/3)", **_fig2_certificates(ev, (("binary", binT, 1), ("rr", rrT, 3))))


def _fig2_certificates(ev: dict, printed) -> dict:
    """Add to the row-sum identities ``ev`` (:func:`identity_evidence`): per printed Q^T (``printed``: name, rows y
    with entries t or 1, and d: the rows are over d + t), the ``symbolic-identity`` certificates that every ratio Q[y][x] / Q[y][x'] lies in
    {1, t, 1/t} for all t, and eps-LDP ``audit`` certificates at t = 2 and 7/3 (stochastic, level exactly t), all
    from the printed entries."""
    from rldp_verify.certificates.claims import KEY, built
    from rldp_verify.certificates.exact_gaps import ldp_audit_certificate, ratio_set_identities
    from rldp_verify.certificates.identity import Tree

    def docs():
        out, tv = [], Tree.var("t")
        for name, QT, d in printed:
            def entry(v, t):
                return 1 if v == 1 else t
            out += ratio_set_identities(f"kairouz.fig2.example-mechanisms: {name}",
                                        [[entry(v, tv) / (d + tv) for v in row] for row in QT], tv)
            out += [ldp_audit_certificate(f"kairouz.fig2.example-mechanisms: {name} at t = {t}: exactly log(t)-LDP",
                                          [[Fraction(entry(v, t)) / (d + t) for v in row] for row in QT], t, level=t)
                    for t in (Fraction(2), Fraction(7, 3))]
        return out

    extra = built(docs)
    if KEY not in extra:
        return {**ev, "certificate_covers": f"{ev.get('certificate_covers', 'the row sums')}; not the ratios "
                                            f"({extra.get('no_certificate')})"}
    return {**ev, KEY: [*ev.get(KEY, []), *extra[KEY]],
            "certificate_covers": "from the printed entries: the rows summing to 1 and every likelihood ratio in "
            "{1, t, 1/t} identically in t (symbolic identities: (a - b)(a - t b)(t a - b) = 0 per output and pair of "
            "inputs), and both mechanisms stochastic with positive entries and exactly "
            "log(t)-LDP at t = 2, 7/3 (eps-LDP audits); the staircase pattern follows (each column's entries are its "
            "least entry c > 0 times 1 or t)"}
