"""Fact 1 (Sec. 3.1, eq. (11)) and Appendix 5.2, eq. (12)-(17): the DP set as linear constraints."""

from fractions import Fraction

from rldp_verify.certificates.claims import built
from rldp_verify.certificates.lp import solve_with_certificate
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.topics import pram

from ._certs import dp_polytope, vertex_cert
from ._common import PAPER

T_VALUES = (Fraction(11, 10), Fraction(2), Fraction(7, 2))


def _normalise(row):
    """A row b + a.q >= 0 scaled so that its first non-zero entry has absolute value 1."""
    lead = next(abs(x) for x in row if x != 0)
    return tuple(x / lead for x in row)


@claim(
    id="pram.fact1.linear-form",
    paper=PAPER,
    source="Sec. 3.1, Fact 1, eq. (11); Appendix 5.2 (count 3S(S-1))",
    statement="There are C (3S(S-1) x S) and b_alpha with: q satisfies (10) iff C q^T <= b_alpha.",
    hypotheses=("S >= 3 for the count 3S(S-1); for S = 2 the third ratio of (10) is absent",),
    reading="C q <= b is read as the constraints M[k][z] <= e^alpha M[k'][z] written without "
            "quotients (this is (10) cleared of denominators, and also covers q_k in {0, 1}).",
    method=Method.EXACT,
)
def check_fact1(ctx):
    counts, coincide = {}, {}
    for S in range(2, 8):
        # at e^alpha = S - 1 the rows of (12) for (k, l) and (l, k) coincide; count at generic t
        coincide[f"S={S}"] = len(pram.dp_rows(S, Fraction(S - 1), box=False)) if S >= 3 else None
        for t in T_VALUES:
            if t == S - 1:
                continue
            rows = pram.dp_rows(S, t, box=False)
            want = 3 * S * (S - 1) if S >= 3 else 2 * S * (S - 1)
            counts[f"S={S}"] = len(rows)
            if len(rows) != want:
                return Outcome.refuted("the number of distinct linear DP constraints is not 3S(S-1)",
                                       counterexample={"S": S, "e^alpha": t}, rows=len(rows), expected=want, kind="false")
            # the box 0 <= q <= 1 is implied: same polytope with and without it
            if S <= 5 and pram.vertices(rows, S) != pram.vertices(pram.dp_rows(S, t, box=True), S):
                return Outcome.refuted("the DP constraints alone do not keep q in [0, 1]^S",
                                       counterexample={"S": S, "e^alpha": t}, kind="false")
    gap = _printed_rows_gap()
    if gap is not None:
        return gap
    return Outcome.verified("the DP constraints of (8) are linear: 3S(S-1) distinct rows for S >= 3 "
                            "(2S(S-1) for S = 2), S = 2..7; they imply 0 <= q <= 1 (same exact vertex "
                            "set with and without the box, S = 2..5); Appendix 5.2's rows (12)-(17) ((15) "
                            "mirrored from (14)) each hold at every vertex of the DP polytope and together cut out "
                            "exactly its vertex set (S = 3..5)", distinct_rows=counts,
                            distinct_rows_at_e_alpha_eq_S_minus_1=coincide, **built(_box_certs))  # issue 23


def _printed_rows_gap():
    """Issue 30: Appendix 5.2's printed rows (12)-(17), each imposed on every pair (q_k, q_l) (with (15) as the
    mirror image of (14): as printed it is refuted by pram.sec5-2.eq12-17-as-printed), S = 3..5, e^alpha in T_VALUES.
    Each equation must hold at every vertex of the DP polytope (so on all of it: exact), and the six together must
    have exactly its vertex set; a REFUTED outcome (proof-gap: Fact 1 itself holds by the count above) or None."""
    for S in range(3, 6):
        for t in T_VALUES:
            V = pram.vertices(pram.dp_rows(S, t), S)
            for e in (12, 13, 14, 15, 16, 17):
                rows_e = pram.paper_rows(S, t, eq15="mirror", equations=(e,))
                bad = next((q for q in V if not pram.satisfies(rows_e, q)), None)
                if bad is not None:
                    return Outcome.refuted(f"eq. ({e}) on the pairs (q_k, q_l) excludes a private point (a vertex of "
                                           "the DP polytope)", counterexample={"S": S, "e^alpha": str(t), "equation": e,
                                                                               "q": [str(x) for x in bad]},
                                           kind="proof-gap")
            W = pram.vertices(pram.paper_rows(S, t, eq15="mirror"), S)
            if W != V:
                extra = [[str(x) for x in w] for w in W if w not in V][:3]
                return Outcome.refuted("(12)-(17) ((15) mirrored) do not cut out the DP polytope: a vertex of theirs "
                                       "is not private", counterexample={"S": S, "e^alpha": str(t),
                                                                         "vertices_not_private": extra},
                                       kind="proof-gap")
    return None


def _box_certs() -> list[dict]:
    """Per S = 2..5 and e^alpha in T_VALUES (not S - 1): the vertex-enumeration certificate of the polytope of the
    DP rows alone (no box rows); its vertices all lie in [0, 1]^S (checked here, visible in the certificate), so
    the rows imply 0 <= q <= 1. (The row count 3S(S-1) is a count of distinct exact rows, not certified.)"""
    out = []
    for S in range(2, 6):
        for t in T_VALUES:
            if t == S - 1:
                continue
            rows = pram.dp_rows(S, t, box=False)
            V = pram.vertices(rows, S)
            if any(not 0 <= x <= 1 for v in V for x in v):
                raise ValueError(f"a vertex outside [0, 1]^S at S = {S}, e^alpha = {t}")
            out.append(vertex_cert(f"DP rows without the box, S = {S}, e^alpha = {t}: vertices in [0, 1]^S", rows, V))
    return out


@claim(
    id="pram.sec5-2.eq12-17-as-printed",
    paper=PAPER,
    source="Appendix 5.2, eq. (12)-(17) and the characterisation of T_alpha",
    statement="q satisfies alpha-DP iff (q_k, q_l) lies in the polygon S_alpha of (12)-(17) for every "
              "pair k != l.",
    hypotheses=("no restriction on S is stated",),
    method=Method.EXACT,
)
def check_printed(ctx):
    findings, cex = [], {}
    # (15) as printed: search small S and e^alpha for a DP point that violates it
    for S in range(2, 5):
        for t in (Fraction(2),) + T_VALUES:
            truth = pram.dp_rows(S, t)
            printed = pram.paper_rows(S, t, eq15="printed")
            cands = [tuple([Fraction(1, S)] * S)] + pram.vertices(truth, S)
            bad = [q for q in cands if not pram.satisfies(printed, q)]
            if bad and "eq15" not in cex:
                q = list(bad[0])
                x, y = q[1], q[0]  # (x, y) = (q_2, q_1) is the pair that fails
                cex["eq15"] = {"S": S, "e^alpha": t, "q": q, "dp_ratio": pram.dp_ratio(q),
                               "printed (15): -(S-1)e^a x + y": -(S - 1) * t * x + y, "must be <=": -1}
                findings.append(f"(15) as printed, -(S-1)e^a x + y <= -1, excludes the private point "
                                f"q = {[str(v) for v in q]} (S={S}, e^a={t})")
    # (16)-(17) for S = 2, with (15) mirrored from (14)
    t = Fraction(2)
    truth2 = pram.vertices(pram.dp_rows(2, t), 2)
    mirror2 = pram.vertices(pram.paper_rows(2, t, eq15="mirror"), 2)
    if truth2 != mirror2:
        lost = [[str(x) for x in v] for v in truth2 if v not in mirror2]
        cex["S=2 with (16)-(17)"] = {"S": 2, "e^alpha": t, "private vertices excluded": lost}
        findings.append(f"for S = 2, (16)-(17) exclude the private vertices {lost} (eq. (10) has the "
                        "factor 1(S >= 3) that the appendix drops)")
    # the reading that works: (15) mirrored, (16)-(17) only for S >= 3
    ok = []
    for S in range(2, 6):
        for t in T_VALUES:
            eqs = (12, 13, 14, 15, 16, 17) if S >= 3 else (12, 13, 14, 15)
            same = pram.vertices(pram.paper_rows(S, t, eq15="mirror", equations=eqs), S) == \
                pram.vertices(pram.dp_rows(S, t), S)
            ok.append(same)
    repaired = all(ok)
    if findings:
        certs = built(_printed_certs, cex)  # issue 23
        return Outcome.refuted("; ".join(findings), counterexample=cex, **certs,
                               repaired_reading="(15): -(S-1)e^a x - y <= -1 and (16)-(17) only for S >= 3",
                               repaired_reading_matches_dp_set=repaired,
                               repaired_checked="exact vertex sets, S = 2..5, e^alpha in {11/10, 2, 7/2}", kind="misprint")
    return Outcome.verified("(12)-(17) as printed define the DP set", repaired_reading_matches_dp_set=repaired)


def _printed_certs(cex) -> list[dict]:
    """The refutation re-checked: for (15), the exact LP max of its left side -(S-1) e^alpha q_2 + q_1 over the DP
    polytope exceeds -1 (a private q violates (15) as printed); for S = 2, the vertex-enumeration certificates of
    the DP polytope and of (12)-(17) with (15) mirrored: different vertex sets."""
    out = []
    if "eq15" in cex:
        S, t = cex["eq15"]["S"], cex["eq15"]["e^alpha"]
        A, b = dp_polytope(S, t)
        c = [1, -(S - 1) * t] + [0] * (S - 2)
        res, cert = solve_with_certificate(f"max of (15)'s left side -(S-1)e^a q_2 + q_1 over the DP polytope "
                                           f"(S = {S}, e^alpha = {t}); printed (15) needs <= -1", c, A, b)
        if not res.value > -1:
            raise ValueError(f"the max of (15)'s left side is {res.value} <= -1")
        out.append(cert)
    if "S=2 with (16)-(17)" in cex:
        t = cex["S=2 with (16)-(17)"]["e^alpha"]
        for name, rows in (("DP polytope", pram.dp_rows(2, t)),
                           ("(12)-(17) with (15) mirrored", pram.paper_rows(2, t, eq15="mirror"))):
            out.append(vertex_cert(f"{name}, S = 2, e^alpha = {t}", rows, pram.vertices(rows, 2)))
    return out
