"""rigorous-value certificates: an enclosure one ulp too narrow is rejected; correct ones accepted."""

import math
from fractions import Fraction as F

import flint
import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.value import value_certificate
from rldp_verify_check.value import evaluate

LN2 = ["log", 2]


def test_float_enclosure_of_ln2():
    lo, hi = F(math.nextafter(math.log(2), 0)), F(math.nextafter(math.log(2), 1))
    assert recheck(value_certificate("ln2", LN2, lower=lo, upper=hi)).ok


@pytest.mark.parametrize("expr, x", [(LN2, math.log(2)), (["exp", ["/", 1, 3]], math.exp(1 / 3)),
                                     (["sqrt", 2], math.sqrt(2)), (["pow", 3, ["/", 1, 7]], 3 ** (1 / 7))])
def test_enclosure_one_ulp_too_narrow_rejected(expr, x):
    """[d-, d+] around the true value (doubles one ulp apart) is accepted; moving the end on the true value's
    side by one ulp, to the double x itself, excludes the true value and is rejected."""
    with flint.ctx.workprec(300):
        above = bool(evaluate(expr) > flint.arb(flint.fmpq(*F(x).as_integer_ratio())))
    lo, hi = (F(x), F(math.nextafter(x, 2))) if above else (F(math.nextafter(x, 0)), F(x))
    assert recheck(value_certificate("ok", expr, lower=lo, upper=hi)).ok
    narrow = (F(math.nextafter(x, 0)), F(x)) if above else (F(x), F(math.nextafter(x, 2)))
    r = recheck(value_certificate("narrow", expr, lower=narrow[0], upper=narrow[1]))
    assert not r.ok and "not certainly in" in r.message


def test_strict_inequality_and_let():
    e = ["let", [["x", ["exp", 1]]], ["-", "$x", ["pow", "$x", ["/", 1, 2]]]]   # e - sqrt(e) = 1.0696...
    assert recheck(value_certificate("let", e, lower=1, upper=F(107, 100), strict=True)).ok
    assert not recheck(value_certificate("let", e, upper=F(1069, 1000))).ok


def test_exact_tie_is_not_strict():
    assert recheck(value_certificate("tie", ["*", 2, ["/", 1, 2]], lower=1, upper=1)).ok
    assert not recheck(value_certificate("tie", ["*", 2, ["/", 1, 2]], upper=1, strict=True)).ok


def test_domain_errors_rejected():
    assert not recheck(value_certificate("log0", ["log", ["-", 1, 1]], upper=0)).ok
    assert not recheck(value_certificate("div0", ["/", 1, 0], upper=0)).ok
    with pytest.raises(TypeError):
        value_certificate("float", ["log", 2.0], upper=1)


def test_enclosure_certificate_of_an_engine_ball():
    from rldp_verify.certificates.value import enclosure_certificate
    from rldp_verify.core.rigorous import arb_exact, arb_precision

    with arb_precision(30):
        good = (arb_exact(F(1, 3)) * 2).exp()           # e^(2/3), enclosed by the engine
        wrong = (arb_exact(F(1, 3)) * 3).exp()          # a formula with a wrong factor
    e = ["exp", ["*", 2, ["/", 1, 3]]]
    assert recheck(enclosure_certificate("e^(2/3)", e, good)).ok
    assert not recheck(enclosure_certificate("e^(2/3)", e, wrong)).ok
