"""Mechanisms of the RLDP paper ([lopuhaa-2024], Secs. 5-8) and exact checks of guarantees.

Public API:

- constructors: :func:`grr`, :func:`srr`, :func:`independent_reporting`, :func:`polyopt`,
  :func:`polyopt_from_bounds`, :func:`nonrobust` — each returns an immutable
  :class:`~rldp_verify.rldp.mechio.Mechanism` (labels S, U, Y; exact matrix; eps; guarantee; utility).
- matrices: :func:`grr_matrix`, :func:`srr_matrix`, :func:`ir_matrix`.
- Gamma_eps / Theorem 3: :func:`gamma_hat_vertices`, :func:`solve_eq46` (the inequalities:
  :func:`rldp_verify.rldp.gamma.gamma_inequalities`).
- IR (Theorem 5): :func:`ir_distance`, :func:`exp_delta2`, :func:`optimise_eps2`.
- checks: :func:`check_ldp`, :func:`check_prop3`, :func:`check_single_distribution`,
  :func:`check_gamma`, :func:`check_column_stochastic`, :func:`realized_eps` (Sec. 8.3).
- utility: :func:`mutual_information_value`, :func:`mutual_information_bounds`, :func:`mu_value`,
  :func:`nmi_value`.
- rounding: :func:`privacy_level`, :class:`PrivacyLevel`, :func:`lower_bounds`, :func:`rad_bounds`.
"""

from rldp_verify.core.information import mu_value, mutual_information_bounds, mutual_information_value, nmi_value
from rldp_verify.rldp.mechanisms.grr import grr, grr_matrix
from rldp_verify.rldp.mechanisms.guarantees import (
                                               CheckResult,
                                               check_column_stochastic,
                                               check_gamma,
                                               check_ldp,
                                               check_prop3,
                                               check_single_distribution,
                                               realized_eps,
)
from rldp_verify.rldp.mechanisms.ir import exp_delta2, independent_reporting, ir_distance, ir_matrix, optimise_eps2
from rldp_verify.rldp.mechanisms.nonrobust import nonrobust
from rldp_verify.rldp.mechanisms.polyopt import (
                                               Eq46Solution,
                                               gamma_hat_vertices,
                                               polyopt,
                                               polyopt_from_bounds,
                                               solve_eq46,
)
from rldp_verify.rldp.mechanisms.rounding import (
                                               PrivacyLevel,
                                               exact_level,
                                               exp_eps_bracket,
                                               lower_bounds,
                                               privacy_level,
                                               rad_bounds,
)
from rldp_verify.rldp.mechanisms.srr import srr, srr_matrix

__all__ = [
    "grr", "grr_matrix", "srr", "srr_matrix", "independent_reporting", "ir_matrix", "ir_distance", "exp_delta2",
    "optimise_eps2", "polyopt", "polyopt_from_bounds", "nonrobust", "gamma_hat_vertices",
    "solve_eq46", "Eq46Solution", "check_ldp", "check_prop3", "check_single_distribution", "check_gamma",
    "check_column_stochastic", "CheckResult", "realized_eps", "mutual_information_value", "mutual_information_bounds",
    "mu_value",
    "nmi_value", "privacy_level", "exact_level", "PrivacyLevel", "exp_eps_bracket", "lower_bounds", "rad_bounds",
]
