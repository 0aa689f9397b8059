"""Builders shared by the audit tests: GRR (eq. (56)) and SRR (Definition 4) from their formulas, and
a 1e-9 mutation towards violation."""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.rldp.mechio import Mechanism


def grr_matrix(a: int, e: Fraction):
    """GRR^eps (000, eq. (56)): e^eps/(e^eps + a - 1) on the diagonal, 1/(e^eps + a - 1) elsewhere."""
    C = e + a - 1
    return [[(e if x == y else 1) / C for x in range(a)] for y in range(a)]


def srr_matrix(a1: int, a2: int, e: Fraction):
    """SRR^eps (000, Definition 4)."""
    a = a1 * a2
    C = e + (a2 - 1) / e + a - a2
    rows = []
    for s2 in range(a1):
        for u2 in range(a2):
            rows.append([((e if u == u2 else 1 / e) if s == s2 else Fraction(1)) / C
                         for s in range(a1) for u in range(a2)])
    return rows


def mutate(Q, y: int, x_up: int, y_down: int, delta=Fraction(1, 10**9)):
    """Move mass delta in column x_up from output y_down to output y (columns keep summing to 1)."""
    Q = [list(r) for r in Q]
    Q[y][x_up] += delta
    Q[y_down][x_up] -= delta
    return Q


def mech(Q, a1, a2):
    return Mechanism.from_matrix(Q, a1, a2)
