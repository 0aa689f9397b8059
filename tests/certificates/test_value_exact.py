"""The exact mode of ``rigorous-value`` (issue 23): an equality of rationals that arb cannot prove (1/3 is no
dyadic ball) is proved in fmpq; a difference of 10^-100 is rejected; operations without an exact value are refused."""

from fractions import Fraction as F

from rldp_verify.certificates import recheck
from rldp_verify.certificates.value import abs_expr, value_certificate

SUM = ["+", ["/", 1, 3], ["/", 1, 6]]


def test_exact_equality_of_rationals():
    assert recheck(value_certificate("1/3 + 1/6 = 1/2", SUM, lower=F(1, 2), upper=F(1, 2), exact=True)).ok
    r = recheck(value_certificate("1/3 + 1/6 = 1/2", SUM, lower=F(1, 2), upper=F(1, 2)))   # in arb: a ball, not 1/2
    assert not r.ok and "arb" in r.message
    near = F(1, 2) + F(1, 10**100)
    r = recheck(value_certificate("1/3 + 1/6 = 1/2 + 1e-100", SUM, lower=near, upper=near, exact=True))
    assert not r.ok and "exactly" in r.message


def test_exact_min_max_let_pow_and_strict():
    e = ["let", [["a", ["-", ["/", 2, 7], ["/", 1, 3]]]], ["+", abs_expr("$a"), ["pow", ["max", "$a", ["/", 1, 21]], -2],
                                                         ["min", 5, "$a"]]]
    # |a| + max(a, 1/21)^-2 + min(5, a) with a = -1/21: 1/21 + 441 - 1/21 = 441
    assert recheck(value_certificate("e", e, lower=441, upper=441, exact=True)).ok
    assert not recheck(value_certificate("e", e, lower=441, strict=True, exact=True)).ok
    assert not recheck(value_certificate("e", e, upper=440, exact=True)).ok


def test_exact_refuses_what_has_no_exact_value():
    for e in (["log", 2], ["sqrt", 4], ["pow", 4, ["/", 1, 2]], ["pi"], ["/", 1, ["-", ["/", 1, 3], ["/", 1, 3]]]):
        r = recheck(value_certificate("x", e, lower=0, exact=True))
        assert not r.ok, e
