"""pytest plugin (registered through the ``pytest11`` entry point ``rldp_verify``): fixtures for
regression-checking an implementation against rldp-verify's reference values.

- ``rldp_reference_grid``: a factory, ``rldp_reference_grid("B_s")`` -> the default grid of a quantity as
  the implementation receives it (a list of dicts of floats / lists / ints / strings);
  ``rldp_reference_grid("B_s", "my_points.csv")`` reads a grid file instead.
- ``rldp_assert_matches_reference``: :func:`rldp_verify.testing.assert_matches_reference`.

Reference values are cached per test session (per process), so several tests on one grid compute it once.
A failure shows the test's own line and the helper's message (the helper and the wrapper here set
``__tracebackhide__``), not the plugin's or the helper's source.
"""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def rldp_reference_grid():
    """Fixture: ``grid(quantity, source="default")`` -> the reference points of a quantity (certified values)."""
    from rldp_verify.testing import reference_points

    def grid(quantity: str, source="default"):
        return reference_points(quantity, source)

    return grid


@pytest.fixture(scope="session")
def rldp_assert_matches_reference():
    """Fixture: :func:`rldp_verify.testing.assert_matches_reference` (fails listing every bad grid point)."""
    from rldp_verify.testing import assert_matches_reference

    def check(*args, **kwargs):
        __tracebackhide__ = True
        return assert_matches_reference(*args, **kwargs)

    check.__doc__ = assert_matches_reference.__doc__
    return check
