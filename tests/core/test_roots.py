"""rldp_verify.core.roots: the one bracketing root finder finds roots and never fails silently."""

import mpmath
import pytest

from rldp_verify.core.errors import CertificationError
from rldp_verify.core.roots import RootNotBracketed, root_increasing


@pytest.mark.parametrize("x0", [-30, -1, 0, 2, 50])
def test_finds_the_root_from_either_side(x0):
    with mpmath.workdps(40):
        x = root_increasing(lambda t: mpmath.exp(t) - 3, mpmath.mpf(x0))
        assert abs(x - mpmath.log(3)) < mpmath.mpf(10) ** -35


def test_minus_infinity_on_the_left_is_allowed():
    with mpmath.workdps(30):
        x = root_increasing(lambda t: mpmath.log(t) if t > 0 else -mpmath.inf, mpmath.mpf(5))
        assert abs(x - 1) < mpmath.mpf(10) ** -25


def test_no_sign_change_raises():
    with mpmath.workdps(30):
        with pytest.raises(RootNotBracketed):
            root_increasing(lambda t: mpmath.exp(t) + 1, mpmath.mpf(0), lo=-50, hi=50)
        with pytest.raises(CertificationError):      # a RootNotBracketed is a CertificationError
            root_increasing(lambda t: -mpmath.exp(-t), mpmath.mpf(0), lo=-50, hi=50)
