"""Example 4 (Sec. 6): GRR and SRR at eps = log 2 on Example 1's X, and their utilities."""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.claims import Method, Outcome, claim, compare_printed, outcome_from_comparisons
from rldp_verify.core.numbers import working_precision
from rldp_verify.rldp.mechanisms import grr, lower_bounds, mutual_information_value, polyopt_from_bounds, srr
from rldp_verify.rldp.uncertainty import read_table

from .._routes import agree, mi_by_entropies
from ._mech_common import PAPER, PHAT, PSTAR_FLAT, example_ball, gamma_hat_nonempty, s

GRR_PRINTED = "0.4 0.2 0.2 0.2; 0.2 0.4 0.2 0.2; 0.2 0.2 0.4 0.2; 0.2 0.2 0.2 0.4"
SRR_PRINTED = "0.444 0.111 0.222 0.222; 0.111 0.444 0.222 0.222; 0.222 0.222 0.444 0.111; 0.222 0.222 0.111 0.444"
I_PRINTED = {("GRR", "P-hat"): "0.0419", ("SRR", "P-hat"): "0.1005", ("GRR", "P*"): "0.0412", ("SRR", "P*"): "0.0942"}


def _mechs():
    phat = read_table([list(r) for r in PHAT])
    return phat, grr(phat, "log(2)"), srr(phat, "log(2)")


@claim(
    id="rldp.ex4.matrices-and-utilities",
    paper=PAPER,
    source="Sec. 6, Example 4",
    statement="At eps = log 2: GRR has 0.4 on the diagonal and 0.2 elsewhere; SRR has 0.444 (diagonal), 0.111 "
              "(same s), 0.222 (other s); I_P-hat(GRR) = 0.0419, I_P-hat(SRR) = 0.1005, I_P*(GRR) = 0.0412, "
              "I_P*(SRR) = 0.0942.",
    hypotheses=("X = S x U of Example 1", "e^eps = 2 exactly"),
    method=(Method.EXACT, Method.HIGH_PRECISION),
    reading="Definition 4's same-s entry is e^-eps / C (see rldp_verify.rldp.mechanisms.srr); nats. Second routes "
            "(ERROR when they disagree with the engine): GRR from eq. (56) written out, I as H(Y) - H(Y|X).",
)
def check_values(ctx):
    phat, g, r = _mechs()
    comps, mi = [], []   # mi: the mutual informations' rigorous-value certificates (issue 23)
    # second route for GRR (eq. (56)): e^eps / (e^eps + |X| - 1) on the diagonal, 1 / (e^eps + |X| - 1) elsewhere
    agree("GRR matrix", 0, max(abs(g.matrix[y][x] - Fraction(2 if x == y else 1, 2 + 3)) for y in range(4)
                               for x in range(4)), 0)
    for name, mech, printed in (("GRR", g, GRR_PRINTED), ("SRR", r, SRR_PRINTED)):
        for y, row in enumerate(printed.split(";")):
            for x, pv in enumerate(row.split()):
                comps.append(compare_printed(f"{name}[{y + 1}][{x + 1}]", pv, mech.matrix[y][x]))
        with working_precision(30):
            for dist, p in (("P-hat", [v for rr in phat for v in rr]), ("P*", PSTAR_FLAT)):
                value = mutual_information_value(mech.matrix, p)
                agree(f"I_{dist}({name})", value, mi_by_entropies(mech.matrix, p), Fraction(1, 10**25))
                comps.append(compare_printed(f"I_{dist}({name})", I_PRINTED[(name, dist)], value))
                mi.append((f"I_{dist}({name}) = {I_PRINTED[(name, dist)]}", mech.matrix, p, I_PRINTED[(name, dist)],
                           comps[-1].agrees))
    from rldp_verify.certificates.claims import built
    from rldp_verify.certificates.value import mutual_information_expr, printed_certificate

    certs = built(lambda: [printed_certificate(n, mutual_information_expr(Q, p), pv, ok) for n, Q, p, pv, ok in mi])
    return outcome_from_comparisons(comps, what="printed values of Example 4",
                                    grr_exact=[[str(v) for v in row] for row in g.matrix],
                                    srr_exact=[[str(v) for v in row] for row in r.matrix], **certs)


@claim(
    id="rldp.ex4.comparisons",
    paper=PAPER,
    source="Sec. 6, Example 4, last paragraph",
    statement="Adopting SRR more than doubles GRR's utility, and SRR's utility is still significantly lower than "
              "PolyOpt's (Example 3).",
    hypotheses=("Example 1's P-hat and P*", "eps = log 2", "PolyOpt with recomputed L (Example 3)"),
    method=Method.HIGH_PRECISION,
)
@gamma_hat_nonempty
def check_comparisons(ctx):
    phat, g, r = _mechs()
    po, _ = polyopt_from_bounds(phat, lower_bounds(example_ball(), dps=ctx.dps), "log(2)")
    with working_precision(30):
        vals = {}
        for dist, p in (("P-hat", [v for rr in phat for v in rr]), ("P*", PSTAR_FLAT)):
            vals[dist] = {n: mutual_information_value(m.matrix, p) for n, m in (("GRR", g), ("SRR", r), ("PolyOpt", po))}
    doubles = all(v["SRR"] > 2 * v["GRR"] for v in vals.values())
    lower = all(v["SRR"] < v["PolyOpt"] for v in vals.values())
    ev = {d: {k: s(x) for k, x in v.items()} for d, v in vals.items()}
    if doubles and lower:
        from rldp_verify.certificates.claims import built
        from rldp_verify.certificates.value import mutual_information_expr, value_certificate

        def _certs():   # issue 23: both inequalities under both distributions, from the exact matrices
            out = []
            for dist, p in (("P-hat", [v for rr in phat for v in rr]), ("P*", PSTAR_FLAT)):
                mi = {n: mutual_information_expr(m.matrix, p) for n, m in (("GRR", g), ("SRR", r), ("PolyOpt", po))}
                out += [value_certificate(f"I_{dist}(SRR) - 2 I_{dist}(GRR) > 0", ["-", mi["SRR"], ["*", 2, mi["GRR"]]],
                                          lower=0, strict=True),
                        value_certificate(f"I_{dist}(PolyOpt) - I_{dist}(SRR) > 0", ["-", mi["PolyOpt"], mi["SRR"]],
                                          lower=0, strict=True)]
            return out
        return Outcome.verified("SRR > 2 GRR and SRR < PolyOpt under both P-hat and P*", **ev, **built(_certs))
    return Outcome.refuted("comparison fails", counterexample=ev, **ev, kind="false")


@claim(
    id="rldp.audit.grr-matrix",
    paper=PAPER,
    source="Sec. 6, eq. (56) (GRR, as the tool builds it for the audits and comparisons)",
    statement="The tool's GRR on |X| symbols at e^eps puts e^eps / (e^eps + |X| - 1) on the diagonal and "
              "1 / (e^eps + |X| - 1) elsewhere.",
    hypotheses=("|X| = |S| |U| in {2, 4, 6, 9}", "e^eps in {1, 3/2, 2, 7}"),
    method=Method.EXACT,
    reading="A check of the tool, not of the paper (it sits with the audit's consistency checks): eq. (56) written out "
            "exactly is the second route; Example 4's printed GRR is checked by rldp.ex4.matrices-and-utilities.",
)
def check_tool_grr(ctx):
    from fractions import Fraction as F

    bad, cases = [], []
    for a1, a2 in ((1, 2), (2, 2), (2, 3), (3, 3)):
        table = [[F(1, a1 * a2)] * a2 for _ in range(a1)]
        for e in ("0", "log(3/2)", "log(2)", "log(7)"):
            m = grr(table, e)
            r = F(1) if e == "0" else F(e[4:-1])
            n = a1 * a2
            want = [[r / (r + n - 1) if y == x else 1 / (r + n - 1) for x in range(n)] for y in range(n)]
            got = [list(row) for row in m.matrix]
            cases.append((a1, a2, r, got))
            if got != want:
                bad.append({"|X|": n, "e^eps": str(r), "got_first_row": [str(v) for v in got[0]],
                            "eq56_first_row": [str(v) for v in want[0]]})
    if bad:
        return Outcome.refuted(f"the tool's GRR differs from eq. (56) in {len(bad)} of 16 cases", counterexample=bad[:3],
                               kind="false")
    from rldp_verify.certificates.claims import built

    return Outcome.verified("the tool's GRR equals eq. (56) exactly in 16 cases (|X| 2..9, e^eps 1..7)",
                            **built(_grr_certificates, cases),
                            certificate_covers="all 16 cases: each entry of the tool's GRR equal to eq. (56) written "
                                               "out from e^eps and |X| (exact), and the tool's GRR stochastic and "
                                               "exactly e^eps-LDP with the level e^eps attained (an eps-LDP audit "
                                               "re-derived from its entries)")


def _grr_certificates(cases) -> list[dict]:
    """Per case (|S|, |U|, e^eps = r, the tool's GRR ``Q[y][x]``): its entries equal eq. (56) written out in the
    checker's exact language, r / (r + |X| - 1) on the diagonal and 1 / (r + |X| - 1) off it (one certificate for
    all cases), and an eps-LDP ``audit`` at e^eps = r whose level the checker recomputes from the entries."""
    from rldp_verify.certificates.exact_gaps import entries_equal_certificate, ldp_audit_certificate

    pairs = [(Q[y][x], ["/", r if y == x else 1, ["+", r, len(Q), -1]])
             for _, _, r, Q in cases for y in range(len(Q)) for x in range(len(Q))]
    return [entries_equal_certificate("rldp.audit.grr-matrix: the tool's GRR against eq. (56), 16 cases", pairs)] + [
        ldp_audit_certificate(f"rldp.audit.grr-matrix: the tool's GRR, |X| = {a1 * a2}, e^eps = {r}", Q, r,
                              sizes=[a1, a2], level=r) for a1, a2, r, Q in cases]
