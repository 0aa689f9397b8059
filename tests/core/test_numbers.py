from decimal import Decimal
from fractions import Fraction

import mpmath
import pytest

from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import coerce, exact, from_float, parse_exact, to_mpf, working_precision
from rldp_verify.core.rigorous import arb_exact, arb_precision, lower, upper


@pytest.mark.parametrize("text,value", [("0.07", Fraction(7, 100)), ("7/100", Fraction(7, 100)),
                                        ("-3", Fraction(-3)), ("1e-3", Fraction(1, 1000)),
                                        (" 0.5 / 2 ", Fraction(1, 4))])
def test_parse_exact(text, value):
    assert parse_exact(text) == value


@pytest.mark.parametrize("bad", ["", "abc", "1/0", "nan", "inf", "0.1.2"])
def test_parse_exact_rejects(bad):
    with pytest.raises(InputError) as e:
        parse_exact(bad)
    assert "\n" not in str(e.value)


def test_exact_refuses_float_but_from_float_is_exact():
    with pytest.raises(TypeError):
        exact(0.1)
    assert from_float(0.1) == Fraction(3602879701896397, 2**55)
    assert exact(Decimal("0.25")) == Fraction(1, 4)
    with pytest.raises(InputError):
        exact(True)


def test_coerce_keeps_floats_and_refuses_nonfinite():
    assert coerce(0.5) == 0.5 and isinstance(coerce(0.5), float)
    assert coerce("1/3") == Fraction(1, 3)
    for bad in [float("nan"), float("inf")]:
        with pytest.raises(InputError):
            coerce(bad)


def test_working_precision_is_scoped():
    before = mpmath.mp.dps
    with working_precision(80):
        assert mpmath.mp.dps == 80
        x = to_mpf(Fraction(1, 3))
        assert abs(x * 3 - 1) < mpmath.mpf(10) ** -78
    assert mpmath.mp.dps == before


def test_arb_bounds_enclose():
    with arb_precision(40):
        x = arb_exact("1/7").exp()
        lo, hi = lower(x), upper(x)
    assert lo <= hi
    with mpmath.workdps(60):
        t = mpmath.exp(mpmath.mpf(1) / 7)
        assert to_mpf(lo) <= t <= to_mpf(hi)


def test_sum_str_shows_why_a_sum_is_not_one():
    """Issue 25: a 1e-300 cell made 'phat sums to 1.0, not 1'; a 1e400 entry printed a 401-digit sum."""
    from fractions import Fraction

    from rldp_verify.core.numbers import sum_str

    assert sum_str(1 + Fraction(1, 10**300)) == "1 + 1.0e-300"
    assert sum_str(1 - Fraction(5, 2 * 10**17)) == "1 - 2.5e-17"
    assert sum_str(Fraction(5, 2)) == "5/2" and sum_str(Fraction(10001, 10000)) == "10001/10000"
    assert sum_str(Fraction(10**400)) == "1.0e+400"
    assert sum_str(Fraction(2, 3**60)) == "4.7179649751851457e-29"  # decimal: 4.71796497518514570...e-29


def test_table_sum_message_names_the_difference():
    from rldp_verify.core.errors import InputError
    from rldp_verify.rldp.uncertainty import read_table

    with pytest.raises(InputError, match=r"^phat sums to 1 \+ 1.0e-300, not 1"):
        read_table([["1e-300", "0.5"], ["0.25", "0.25"]], name="phat")
