"""The ``series`` kind (issue 23): Taylor coefficients of an expression in ``$x``, checked with arb_series; wrong
certificates (an enclosure one ulp too narrow, a function not analytic at the point, the wrong index, min/max on a
series) are rejected beside their accepted twins, and each wired claim's builder rejects a wrong variant."""

from __future__ import annotations

from fractions import Fraction

import flint
import pytest

from rldp_verify.certificates import envelope, recheck, taylor
from rldp_verify.certificates.taylor import X, exp, log

ULP = Fraction(1, 2**200)


def _doc(e, coefficients, at=0, strict=False):
    return envelope("series", "t", {"expr": e, "at": at, "coefficients": coefficients, "strict": strict}, {})


def _ok(doc):
    r = recheck(doc)
    assert r.ok, r.message
    return r.message


def _rejected(doc, words=""):
    r = recheck(doc)
    assert not r.ok and words in r.message, r.message
    return r.message


def _q(x):
    return f"{x.numerator}/{x.denominator}"


def test_exact_coefficients_accepted_and_one_ulp_too_narrow_rejected():
    """1/(1 - x) = sum x^j: c_3 = 1 exactly (arb computes it exactly), an enclosure [1, 1] is accepted and [1 + ulp,
    2] rejected; 1/(x (1 - x)) at 1/2 is 4 + 16 t^2: c_1 = 0 and c_2 = 16 exactly."""
    geo = ["/", 1, ["-", 1, "$x"]]
    assert "1 <= c_3 <= 1" in _ok(_doc(geo, [[3, 1, 1]]))
    _rejected(_doc(geo, [[3, _q(1 + ULP), 2]]), "not certainly")
    _rejected(_doc(geo, [[3, 0, _q(1 - ULP)]]), "not certainly")
    _rejected(_doc(geo, [[3, 1, 1]], strict=True), "not certainly")       # c_3 = 1 is not < 1
    _ok(_doc(["/", 1, ["*", "$x", ["-", 1, "$x"]]], [[0, 4, 4], [1, 0, 0], [2, 16, 16]], at="1/2"))


def test_transcendental_coefficient_enclosure_tight_both_sides():
    """log(1 + x)/(1 + x) has c_3 = 1 + 1/2 + 1/3 = 11/6: an enclosure 11/6 -+ 1e-30 is accepted, either end moved
    past 11/6 (by one ulp) rejected: the coefficient is an arb ball, never rounded towards the claim."""
    e = ["/", ["log", ["+", 1, "$x"]], ["+", 1, "$x"]]
    c, d = Fraction(11, 6), Fraction(1, 10**30)
    _ok(_doc(e, [[3, _q(c - d), _q(c + d)]]))
    _rejected(_doc(e, [[3, _q(c + ULP), _q(c + d)]]))
    _rejected(_doc(e, [[3, _q(c - d), _q(c - ULP)]]))
    # the wrong index: c_2 = -(1 + 1/2) = -3/2, not 11/6
    _rejected(_doc(e, [[2, _q(c - d), _q(c + d)]]))
    _ok(_doc(e, [[2, "-1500001/1000000", "-1499999/1000000"]]))


@pytest.mark.parametrize(("e", "at", "words"), [
    (["log", "$x"], 0, "log of a ball not certainly positive"),             # log x at 0: not analytic
    (["log", ["-", "$x", "$x"]], 1, "log of a ball"),                       # constant term exactly 0
    (["/", 1, ["-", ["*", "$x", "$x"], "1/4"]], "1/2", "division"),         # x^2 - 1/4 vanishes at 1/2
    (["/", 1, ["-", ["exp", "$x"], 1]], 0, "division"),                     # constant term e^0 - 1 = 0 (a ball)
    (["sqrt", "$x"], 0, "sqrt"),                                            # sqrt is not analytic at 0
    (["pow", "$x", "1/3"], 0, "power"),
    (["pow", "$x", -1], 0, "negative power"),
    (["min", "$x", 1], 1, "refused on a series"),
    (["max", 1, "$x"], 1, "refused on a series"),
    (["erf", "$x"], 0, "refused on a series"),
    (["xlogx", "$x"], 0, "refused on a series"),
])
def test_not_shown_analytic_rejected(e, at, words):
    _rejected(_doc(e, [[0, -100, 100]], at=at), words)


def test_analytic_twins_accepted():
    """The accepted twins: log x at 1 (c_1 = 1), sqrt x at 4 (c_0 = 2), x^(1/3) at 1, min of constants, x log x at 1
    (c_1 = 1), x^-1 at 2 (c_1 = -1/4)."""
    _ok(_doc(["log", "$x"], [[1, 1, 1], [0, 0, 0]], at=1))
    _ok(_doc(["sqrt", "$x"], [[0, "1999999/1000000", "2000001/1000000"]], at=4))
    _ok(_doc(["pow", "$x", "1/3"], [[1, "333333/1000000", "333334/1000000"]], at=1))
    _ok(_doc(["+", ["min", 1, 2], "$x"], [[0, 1, 1], [1, 1, 1]]))
    _ok(_doc(["xlogx", "$x"], [[1, 1, 1]], at=1))
    _ok(_doc(["pow", "$x", -1], [[1, "-1/4", "-1/4"]], at=2))


def test_malformed_statements_rejected_and_cap_restored():
    cap = flint.ctx.cap
    _rejected(_doc(["exp", "$x"], []), "no coefficient")
    _rejected(_doc(["exp", "$x"], [[-1, 0, 1]]), "no coefficient")
    _rejected(_doc(["exp", "$x"], [[1, None, None]]), "no coefficient")
    _rejected(_doc(["exp", "$x"], [[1, 0.5, 1]]), "not an exact number")
    _rejected(_doc(["exp", "$y"], [[1, 0, 1]]), "unbound name")
    _ok(_doc(["exp", "$x"], [[12, 0, 1]]))
    assert flint.ctx.cap == cap


def test_coefficients_beyond_a_constant_are_exact_zeros():
    _ok(_doc(["log", 2], [[0, "69/100", "7/10"], [5, 0, 0]]))


# the five wired claims' builders: accepted, and a wrong variant of each (the printed coefficient replaced by the
# true one, or the expansion's sign flipped) yields no certificate, or one the checker rejects

def test_eq86_certificate_and_the_true_coefficient_rejected():
    doc = taylor.eq86_certificate(Fraction(1, 2), Fraction(1, 4))
    assert "c_1 < 0" in _ok(doc)
    s, p, q = X, Fraction(1, 2), Fraction(1, 4)
    a, b = p + s * (1 - p), q + s * (1 - q)
    true = p * log(p / q) + s * ((1 - p) * log(p / q) + 1 - p / q)         # the O(1) coefficient corrected
    with pytest.raises(ValueError, match="not certainly non-zero"):
        taylor.expansion_refutation("86 corrected", a * log(a / b), true, 1)
    _rejected(taylor.series_certificate("86 flipped", ["-", (a * log(a / b)).node, true.node], [(1, 0, None)],
                                        strict=True))


def test_cor9_certificate_and_the_final_line_rejected():
    doc = taylor.cor9_certificate(Fraction(3, 4), Fraction(1, 4))
    assert "c_2 < 0" in _ok(doc)
    t, p, q = exp(X), Fraction(3, 4), Fraction(1, 4)
    m0, m1 = (t * p + 1 - p) / (t + 1), (t * q + 1 - q) / (t + 1)
    kl = m0 * log(m0 / m1) + (1 - m0) * log((1 - m0) / (1 - m1))
    with pytest.raises(ValueError, match="not certainly non-zero"):            # the final line (TV^2) is right
        taylor.expansion_refutation("cor9 final line", kl, (t - 1) * (t - 1) / (t + 1) * (p - q) ** 2, 2)


def test_eq101_certificate_and_the_corrected_expansion_rejected():
    assert "c_1 < 0" in _ok(taylor.eq101_certificate())
    for j in (0, 1, 2):
        with pytest.raises(ValueError, match="not certainly non-zero"):
            taylor.expansion_refutation("101 corrected", exp(X), 1 + X + X * X / 2, j)


def test_series_mutant_rejected_by_the_checker():
    """mutation/catalogue.py certificate.series-sign-undecided: the builder states (86)'s refuting coefficient as
    > 0 without deciding it; the checker rejects the certificate."""
    from mutation.catalogue import MODULES, MUTANTS
    from rldp_verify.claims.mutants import apply, revert

    (m,) = [m for m in MUTANTS if m.id == "certificate.series-sign-undecided"]
    done = apply(m, MODULES)
    try:
        bad = taylor.eq86_certificate(Fraction(1, 2), Fraction(1, 4))
    finally:
        revert(done)
    _rejected(bad, "not certainly")
    _ok(taylor.eq86_certificate(Fraction(1, 2), Fraction(1, 4)))


RT_P0 = (Fraction(3, 10), Fraction(3, 10), Fraction(2, 5))
RT_P1 = (Fraction(1, 5), Fraction(1, 5), Fraction(3, 5))


def test_rr_tie_certificates_and_variants_without_a_tie_rejected():
    """kairouz.thm8.rr-optimal-kl: two log-part identities, c_0 = 0 and c_1 < 0 of h(s) = s g(1/s); without a tie
    (pattern {x1, x3}) the log part does not vanish at s = 0 and no certificate is written; the
    series with the identity's s R(s) replaced by R(s) (no factor s) is rejected (c_0 is then not 0)."""
    docs = taylor.rr_tie_certificates(RT_P0, RT_P1, [0, 1])
    assert [d["kind"] for d in docs] == ["symbolic-identity", "symbolic-identity", "series", "series"]
    assert all(recheck(d).ok for d in docs)
    with pytest.raises(ValueError, match="does not vanish"):
        taylor.rr_tie_certificates(RT_P0, RT_P1, [0, 2])
    c0 = docs[2]
    e = c0["statement"]["expr"]

    def drop_s(t):        # ["*", "$x", R] -> R in the log parts
        if isinstance(t, list):
            if len(t) == 3 and t[0] == "*" and t[1] == "$x" and isinstance(t[2], list) and t[2][0] != "+":
                return drop_s(t[2])
            return [drop_s(a) for a in t]
        return t
    assert drop_s(e) != e
    _rejected({**c0, "statement": {**c0["statement"], "expr": drop_s(e)}}, "not certainly")


def test_eq71_certificate_and_the_corrected_form_rejected():
    """isit.thm4.eq71-as-printed: u (71)(u^3) has c_0 < 0; with Lemma 5's factor c, u (c h*(t/c) + c C) at c = u^3
    is -K lambda^(2/3) u^2 + C u^4 (bounded as c -> 0+): c_0 = 0, no certificate."""
    (doc,) = taylor.eq71_certificates(1, 1)
    assert "c_0 < 0" in _ok(doc)
    K = taylor.Formula(["pow", 2, "-2/3"]) + taylor.Formula(["pow", 2, "1/3"])
    with pytest.raises(ValueError, match="not certainly non-zero"):
        taylor.coefficient_sign_certificate("71 corrected", -K * X * X + X * X * X * X, 0)


def test_eq87_certificates_and_the_reversed_88_rejected():
    """kairouz.thm8.expansion-87: s S^T alpha* and h_T minus the printed e^eps coefficients have c_0 = 0 exactly; with
    (88)'s coefficient negated (the printed '>' read as the coefficient's sign) no certificate is written, and an
    identity whose claimed constant is moved by 1/1000 is rejected by the checker."""
    P0, P1 = (Fraction(1, 2), Fraction(3, 10), Fraction(1, 5)), (Fraction(1, 10), Fraction(2, 5), Fraction(1, 2))
    docs, _ = taylor.rr_leading_certificates(P0, P1, [0, 1], {0: P0[0], 1: P0[1], "T": -(P0[0] + P0[1])})
    assert docs[-1]["kind"] == "series" and "0 <= c_0 <= 0" in _ok(docs[-1])
    assert all(recheck(d).ok for d in docs)
    with pytest.raises(ValueError, match="does not vanish"):
        taylor.rr_leading_certificates(P0, P1, [0, 1], {0: -P0[0], 1: -P0[1], "T": P0[0] + P0[1]})
    ident = docs[0]
    moved = {**ident, "statement": {**ident["statement"], "lhs": ["+", ident["statement"]["lhs"], "1/1000"]}}
    _rejected(moved, "!= 0")


def test_rr_level_limit_and_wrong_levels_rejected():
    """falpha.sec6.linear-nonzeros: RR_N's Rényi-2 level in x = 1/N has c_0 = 0; the pure-LDP level log 10 (the
    claim's wrong variant, alpha = inf) has c_0 = log 10, and the sum without its N - 2 equal terms is log of a series
    with constant term 0 (not analytic)."""
    assert "0 <= c_0 <= 0" in _ok(taylor.rr_level_limit_certificate(10, 2))
    _rejected(taylor.series_certificate("pure LDP", log(10) + 0 * X, [(0, 0, 0)]), "not certainly")
    s = Fraction(100) + Fraction(1, 10)
    _rejected(taylor.series_certificate("N - 2 terms dropped", log(X * s / (1 + 9 * X)), [(0, 0, 0)]), "log of a ball")


def test_large_n_certificates_and_a_constant_gamma_rejected():
    """falpha.ex12.large-N: the identity of R_3(u, 1/u) and the bound's c_0 = 0; with Gamma_max = e^eps = 10 fixed
    (channel P^(N), whose Gamma does not depend on N) the bound's c_0 is log(1 + R_3(10, 1/10))/2 > 0: rejected; the
    polynomial form without its u^2 term is rejected by the identity check."""
    ident, limit = taylor.large_n_certificates(10, 3)
    _ok(ident)
    _ok(limit)
    u = 10 + 0 * X
    poly = (1 + u + u * u) - (1 + 1 / u + 1 / (u * u))
    _rejected(taylor.series_certificate("P^(N)", log(1 + poly) / 2, [(0, 0, 0)]), "not certainly")
    rhs = ident["statement"]["rhs"]
    short = {**ident, "statement": {**ident["statement"], "rhs": ["-", rhs[1][1], rhs[2]]}}
    _rejected(short, "!= 0")
