"""Certified audit of (eps, F)-RLDP (Definition 1 of [lopuhaa-2024]) and eps-LDP.

Public API:

- :func:`audit` -> :class:`AuditResult` (verdict, certified [ratio_lower, ratio_upper], witness, ...);
- the joint projection and its lift: :mod:`rldp_verify.rldp.projection` (re-exported here:
  :func:`in_joint_projection`, :func:`joint_projection_sides`, :func:`lift_pair`); its dual:
  :mod:`rldp_verify.rldp.audit.dual` (``phi_*``, ``power_mean_*``, ``psi_*``);
- exact audits: :mod:`rldp_verify.rldp.audit.exact`.
"""

from rldp_verify.rldp.audit.core import (
                                    FAIL,
                                    INCONCLUSIVE,
                                    PASS,
                                    AuditResult,
                                    Target,
                                    audit,
                                    exact_matrix,
                                    load_mechanism,
                                    parse_eps,
)
from rldp_verify.rldp.projection import in_joint_projection, joint_projection_sides, lift_pair

__all__ = ["audit", "AuditResult", "PASS", "FAIL", "INCONCLUSIVE", "Target", "parse_eps", "load_mechanism",
           "exact_matrix", "in_joint_projection", "joint_projection_sides", "lift_pair"]
