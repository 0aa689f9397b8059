"""Symbolic identities with logarithms and real powers (issue 23): ``symbolic-identity`` certificates with log and exp
atoms (:mod:`rldp_verify_check.identity`, "Log and exp atoms").

A claim writes both sides of the paper's identity as printed, with :class:`Atoms`: it declares log atoms L = log(b)
(b a rational function, the identity is then proved where b > 0) and exp atoms E = exp(y), and writes each log(x) in
the identity as ``atoms.log_of(x, {a: n_a})`` (x = prod beta_a^n_a, beta_L = b, beta_E = E) and each exp(x) as
``atoms.exp_of(x, {a: n_a})`` (x = sum n_a lambda_a, lambda_L = L, lambda_E = y); a real power x^c (x > 0) is
exp(c log x).  The integers n_a are the claim's data: the checker proves every one of these node identities and the
identity itself (with the atoms as independent variables) by exact evaluation on a grid; nothing is decided here, a
false identity or a wrong n_a is written and rejected by the checker.
"""

from __future__ import annotations

from rldp_verify.certificates.identity import MAX_POINTS, Tree, tree_variables


class Atoms:
    """The log and exp atoms of one identity, in declaration order (a base or an exponent may use only the variables
    and the atoms declared before it)."""

    def __init__(self) -> None:
        self.atoms: dict = {}     # name -> ["log", base] or ["exp", exponent], in declaration order

    def log(self, name: str, base) -> Tree:
        """Declare the log atom ``name`` = log(base) (base a rational :class:`Tree`); returns its variable."""
        self._new(name)
        self.atoms[name] = ["log", Tree.of(base)]
        return Tree.var(name)

    def exp(self, name: str, exponent) -> Tree:
        """Declare the exp atom ``name`` = exp(exponent); returns its variable (the value exp(exponent))."""
        self._new(name)
        self.atoms[name] = ["exp", Tree.of(exponent)]
        return Tree.var(name)

    def log_of(self, x, ns: dict) -> Tree:
        """log(x), with x = prod beta_a^n_a for the atoms a of ``ns`` ({name: integer})."""
        return Tree(["log", Tree.of(x), dict(ns)])

    def exp_of(self, x, ns: dict) -> Tree:
        """exp(x), with x = sum n_a lambda_a for the atoms a of ``ns``."""
        return Tree(["exp", Tree.of(x), dict(ns)])

    def power(self, x, c, logs: dict, exps: dict) -> Tree:
        """x^c = exp(c log x) for x > 0: ``exp_of(c * log_of(x, logs), exps)`` (x = prod beta_a^n_a over ``logs``,
        c log x = sum n_a lambda_a over ``exps``)."""
        return self.exp_of(c * self.log_of(x, logs), exps)

    def _new(self, name: str) -> None:
        if not name or name in self.atoms:
            raise ValueError(f"atom name {name!r} empty or declared twice")


def log_identity_certificate(name: str, lhs, rhs, atoms: Atoms, *, words: str) -> dict:
    """The ``symbolic-identity`` certificate of lhs == rhs (:class:`Tree` objects or numbers) with ``atoms``; the grid
    holds, per variable and atom, enough points for the largest of the checker's degree bounds over the identity and
    its node identities.  ``words``: the identity's source and how its sides were written (stated, not checked).
    ValueError when the grid would exceed MAX_POINTS evaluations for one identity."""
    from rldp_verify.certificates.identity import _grid_certificate

    st = {"lhs": Tree.of(lhs), "rhs": Tree.of(rhs), "atoms": atoms.atoms}
    every = [st["lhs"], st["rhs"], *(d for _, d in atoms.atoms.values())]
    st["variables"] = sorted({v for t in every for v in tree_variables(t)} - set(atoms.atoms))
    return _grid_certificate(name, st, *grid_degrees(st), words)


def grid_degrees(st: dict) -> tuple[list, dict]:
    """(names, degree bounds) of a ``symbolic-identity`` statement with atoms: its variables and atoms as the checker
    replaces them, and per name (and "" for the total) the largest of the checker's degree bounds over the identity
    and its node identities; ValueError when one grid would exceed MAX_POINTS evaluations."""
    from rldp_verify_check.identity import degrees, replace_atoms

    lhs_, rhs_, names, checks = replace_atoms(st)
    names = [*st["variables"], *names]
    degree = dict.fromkeys([*names, ""], 0)
    for x, y in [*checks, (lhs_, rhs_)]:
        dn, _ = degrees(["-", x, y], names)
        _size_within_limit(dn, names)
        degree = {k: max(degree[k], dn[k]) for k in degree}
    return names, degree


def _size_within_limit(degree: dict, names: list) -> None:
    """ValueError when the checker's lower set for these degree bounds has more than MAX_POINTS points."""
    ways = [1] + [0] * degree[""]
    for x in names:
        ways = [sum(ways[s - k] for k in range(min(degree[x], s) + 1)) for s in range(degree[""] + 1)]
    if sum(ways) > MAX_POINTS:
        raise ValueError(f"the grid would have {sum(ways)} points (numerator degrees {degree}), more than {MAX_POINTS}")
