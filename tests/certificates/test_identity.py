"""symbolic-identity certificates (issue 23): wrong certificates are rejected, their correct twins accepted."""

import copy
import json

import pytest
import sympy

from rldp_verify.certificates import envelope, recheck
from rldp_verify.certificates.identity import identity_certificate, rationalize, refutation_certificate
from rldp_verify_check.identity import degrees

x, y, eps = sympy.symbols("x y eps", positive=True)


def _doc(lhs, rhs, variables, points):
    return envelope("symbolic-identity", "t", {"lhs": lhs, "rhs": rhs, "variables": variables},
                    {"points": points})


# (x - 2)(x - 3) written out, against 0: a non-identity of degree 2 that vanishes at x = 2 and x = 3
QUADRATIC = ["+", ["pow", "$x", 2], ["*", -5, "$x"], 6]


def test_non_identity_vanishing_on_too_small_a_grid_rejected():
    r = recheck(_doc(QUADRATIC, 0, ["x"], {"x": [2, 3]}))
    assert not r.ok and "needs 3" in r.message
    r = recheck(_doc(QUADRATIC, 0, ["x"], {"x": [2, 3, 4]}))   # enough points: the third one shows it is not 0
    assert not r.ok and "!= 0" in r.message
    # the accepted twin: the same polynomial against its factored form, on 3 points
    assert recheck(_doc(QUADRATIC, ["*", ["-", "$x", 2], ["-", "$x", 3]], ["x"], {"x": [2, 3, 4]})).ok


def test_degree_understated_by_the_certificate_rejected():
    """The numerator of x^3 / x - x^2 + (x - 2)(x - 3)(x - 4) / x (as one fraction) has degree 4 in x; a certificate
    that holds points for a lower degree, all roots of the cubic, is rejected: the checker recomputes the degree."""
    cubic = ["*", ["-", "$x", 2], ["-", "$x", 3], ["-", "$x", 4]]
    e = ["+", ["/", ["pow", "$x", 3], "$x"], ["-", ["pow", "$x", 2]], ["/", cubic, "$x"]]
    assert degrees(["-", e, 0], ["x"])[0] == {"x": 4, "": 4}
    doc = _doc(e, 0, ["x"], {"x": [2, 3, 4]})
    doc["data"]["degrees"] = {"x": 2}           # a stated degree is not read
    r = recheck(doc)
    assert not r.ok and "degree bound 4 needs 5" in r.message
    ok = ["+", ["/", ["pow", "$x", 3], "$x"], ["-", ["pow", "$x", 2]]]   # the twin: x^3 / x - x^2 == 0
    assert recheck(_doc(ok, 0, ["x"], {"x": [2, 3, 4, 5, 6]})).ok


def test_vanishing_denominator_rejected():
    lhs = ["/", ["-", ["pow", "$x", 2], 1], ["-", "$x", 1]]
    r = recheck(_doc(lhs, ["+", "$x", 1], ["x"], {"x": [1, 2, 3, 4]}))
    assert not r.ok and "denominator vanishes" in r.message
    assert recheck(_doc(lhs, ["+", "$x", 1], ["x"], {"x": [2, 3, 4, 5]})).ok
    r = recheck(_doc(["pow", "$x", -1], ["/", 1, "$x"], ["x"], {"x": [0, 1, 2]}))
    assert not r.ok and "denominator vanishes" in r.message


def test_perturbed_rational_coefficient_rejected():
    doc = identity_certificate("binomial", (x + y) ** 2, sympy.expand((x + y) ** 2) + sympy.Rational(0))
    assert recheck(doc).ok
    text = json.dumps(doc)
    assert '"*",2,' in text.replace(" ", "")
    bad = json.loads(text.replace(" ", "").replace('"*",2,', '"*","2000001/1000000",'))
    r = recheck(bad)
    assert not r.ok and "!= 0" in r.message


def test_malformed_certificates_rejected():
    good = _doc(["+", "$x", "$x"], ["*", 2, "$x"], ["x"], {"x": [1, 2]})
    assert recheck(good).ok
    for path, value, words in [(("statement", "lhs"), ["+", "$z", "$x"], "not among"),
                               (("statement", "lhs"), ["pow", "$x", "1/2"], "non-integer power"),
                               (("statement", "lhs"), ["sqrt", "$x"], "malformed expression"),
                               (("statement", "variables"), ["x", "x"], "distinct"),
                               (("data", "points"), {"x": [1, 1]}, "1 distinct points"),
                               (("data", "points"), {"x": [1, 0.5]}, "not an exact number")]:
        doc = copy.deepcopy(good)
        doc[path[0]][path[1]] = value
        r = recheck(doc)
        assert not r.ok and words in r.message, (value, r.message)


def test_builder_substitutions():
    doc = identity_certificate("exp", sympy.exp(2 * eps) - 1, (sympy.exp(eps) - 1) * (sympy.exp(eps) + 1))
    assert recheck(doc).ok and doc["statement"]["substitution"] == "t_eps = exp(eps)"
    doc = identity_certificate("half", sympy.exp(eps) - 1, (sympy.exp(eps / 2) - 1) * (sympy.exp(eps / 2) + 1))
    assert recheck(doc).ok and doc["statement"]["substitution"] == "t_eps = exp(eps/2)"
    doc = identity_certificate("tanh", sympy.tanh(eps / 2), (sympy.exp(eps) - 1) / (sympy.exp(eps) + 1))
    assert recheck(doc).ok
    doc = identity_certificate("root", sympy.sqrt(x) * (sympy.sqrt(x) + 1), x + sympy.sqrt(x))
    assert recheck(doc).ok and doc["statement"]["substitution"] == "x = x_root2^2"
    with pytest.raises(ValueError, match="one expression"):    # sympy writes both as x**(3/2): nothing to prove
        identity_certificate("same", sympy.sqrt(x) ** 3, x * sympy.sqrt(x))
    # log(1 + x/y) and log((x + y)/y) share a variable; the equality of their arguments is certified too
    docs = identity_certificate("log", 2 * sympy.log(1 + x / y), sympy.log((x + y) / y) * 2)
    assert isinstance(docs, list) and len(docs) == 2 and all(recheck(d).ok for d in docs)


def test_builder_refuses_what_it_cannot_prove():
    with pytest.raises(ValueError, match="not a rational identity"):
        rationalize(sympy.log(x * y), sympy.log(x) + sympy.log(y))
    with pytest.raises(ValueError, match="not a rational identity"):
        identity_certificate("wrong", (x + 1) ** 2, x ** 2 + 1)
    zs = sympy.symbols("z0:6")
    with pytest.raises(ValueError, match="more than 10000"):   # 10^6 points: (9 + 1) per variable
        identity_certificate("big", sympy.Mul(*((z + 1) ** 9 for z in zs)), sympy.Mul(*(sympy.expand((z + 1) ** 9)
                                                                                        for z in zs)))


def test_refutation_certificate():
    assert recheck(refutation_certificate("r", sympy.exp(eps), 1 + eps, {eps: "1/2"})).ok
    doc = refutation_certificate("r", sympy.exp(eps), 1 + eps, {eps: "1/2"})
    doc["statement"]["lower"], doc["statement"]["upper"] = None, 0       # the wrong side
    assert not recheck(doc).ok
    doc = refutation_certificate("zero", (x + 1) ** 2, x ** 2 + 2 * x + 1, {x: 3})
    assert not recheck(doc).ok                                           # an identity is not refuted


def test_root_relation():
    """xi = (1 + sqrt(1 + 4 x)) / 2 solves xi^2 - xi - x = 0: certified as lhs == 0 + (A^2 - (1 + 4 x)) K; dropping
    the relation's term is rejected."""
    root = (1 + sympy.sqrt(1 + 4 * x)) / 2
    doc = identity_certificate("golden", root ** 2 - root - x, 0)
    assert recheck(doc).ok and "A0**2 - 4*x - 1" in doc["statement"]["substitution"]
    doc["statement"]["rhs"] = 0
    assert not recheck(doc).ok


def test_mutant_builder_drops_a_term(monkeypatch):
    """The catalogue's certificate.identity-term-dropped: the builder's tree loses the last term of every sum."""
    import rldp_verify.certificates.identity as builder

    doc = identity_certificate("binomial", (x + y) ** 3, sympy.expand((x + y) ** 3))
    assert recheck(doc).ok
    real = builder.to_tree
    monkeypatch.setattr(builder, "to_tree", lambda e: (lambda t: t[:-1] if isinstance(t, list) and t[0] == "+"
                                                       and len(t) > 2 else t)(real(e)))
    r = recheck(identity_certificate("binomial", (x + y) ** 3, sympy.expand((x + y) ** 3)))
    assert not r.ok and "!= 0" in r.message


def test_total_degree_lower_set():
    """(x1 + ... + x10)^2 against its expansion: degree 2 in each variable and in total, so the checker evaluates at
    the 66 points of the lower set {alpha : alpha_i <= 2, sum alpha <= 2}, not at 3^10 grid points; one cross term's
    coefficient perturbed is rejected."""
    xs = sympy.symbols("x1:11")
    doc = identity_certificate("square", sympy.Add(*xs) ** 2, sympy.expand(sympy.Add(*xs) ** 2))
    r = recheck(doc)
    assert r.ok and "total <= 2; 0 at 66 points" in r.message
    text = json.dumps(doc, separators=(",", ":"))
    bad = json.loads(text.replace('["*",2,"$x1","$x2"]', '["*","2000001/1000000","$x1","$x2"]'))
    assert bad != doc
    r = recheck(bad)
    assert not r.ok and "!= 0" in r.message


def test_roots_of_fractions_and_perfect_powers():
    """sqrt(x/c^2 + y/c^2) = sqrt(x + y)/c (c > 0): the root of the one-fraction form is split, and the equality of
    the base with that form is certified beside it; sqrt(1 - 2u + u^2) = |1 - u| is not a rational identity and is
    refused, while sqrt(u^2 (1 + u)^2) = u (1 + u) for u > 0 is certified with the perfect square stated in words."""
    c, u = sympy.symbols("c u", positive=True)
    docs = identity_certificate("split", sympy.sqrt(x / c**2 + y / c**2) * c, sympy.sqrt(x + y))
    assert isinstance(docs, list) and len(docs) == 2 and all(recheck(d).ok for d in docs)
    assert "(x + y)/c**2)^(1/2) = (x + y)^(1/2) / (c)" in docs[0]["statement"]["substitution"]
    with pytest.raises(ValueError, match="not a rational identity"):
        identity_certificate("abs", sympy.sqrt(1 - 2 * u + u**2), 1 - u)
    docs = identity_certificate("square", sympy.sqrt(u**2 + 2 * u**3 + u**4), u * (1 + u))
    docs = docs if isinstance(docs, list) else [docs]
    assert all(recheck(d).ok for d in docs) and "= u*(u + 1)" in docs[0]["statement"]["substitution"]


def test_difference_below_a_float_ulp_rejected():
    """lhs - rhs = 10^-40 at every point: exact evaluation sees it (a ball at working precision would hold 0)."""
    tiny = "1/" + "1" + "0" * 40
    r = recheck(_doc("$x", ["+", "$x", tiny], ["x"], {"x": [1, 2]}))
    assert not r.ok and "!= 0" in r.message
    assert recheck(_doc(["+", "$x", tiny], ["+", tiny, "$x"], ["x"], {"x": [1, 2]})).ok
