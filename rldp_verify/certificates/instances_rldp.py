"""Certificates of the sampled instances of exact property tests (issue 23), for the rldp claims.

A property test decides each sampled instance exactly (Fractions); a sample is not a proof of the universal
statement, but each instance's exact fact can be re-derived by the independent checker.  The builders here
write those facts as ``rigorous-value`` certificates in exact mode (:mod:`rldp_verify_check.value`, ``fmpq``),
one document per shape and claim, over the first ``cap`` instances:

- :func:`all_zero_certificate` -- every listed expression equals 0: ``max_i |e_i| = 0`` (an equality per
  instance, e.g. lhs - rhs of an identity evaluated at the instance's raw numbers);
- :func:`all_nonneg_certificate` -- every listed expression is >= 0 (``> 0`` with ``strict``):
  ``min_i e_i >= 0`` (an inequality per instance); ``exact=False`` evaluates in arb (for log / exp / sqrt);
- :func:`ldp_expressions` -- the expressions t Q[y][x'] - Q[y][x] of "Q is (log t)-LDP", one per (y, x, x'),
  from Q's raw entries (Definition 2's ratio, cross-multiplied);
- :func:`cover_note` -- the ``certificate_covers`` text the claims print.

Each expression holds the instance's raw data (the mechanism's entries, the distribution, e^eps), never the
engine's conclusion: the checker recomputes the value from them.
"""

from __future__ import annotations

from rldp_verify.certificates.value import abs_expr, value_certificate

CAP = 200


def _capped(exprs, cap: int) -> list:
    exprs = list(exprs)
    if not exprs:
        raise ValueError("no instance to certify (an empty list of expressions)")
    return exprs[:cap]


def all_zero_certificate(name: str, exprs, *, cap: int = CAP) -> dict:
    """The exact ``rigorous-value`` certificate that each of the first ``cap`` expressions equals 0
    (``max_i max(e_i, -e_i) = 0``, evaluated in exact rationals)."""
    es = _capped(exprs, cap)
    return value_certificate(f"{name} ({len(es)} instances: each = 0)", ["max", *(abs_expr(e) for e in es)],
                             lower=0, upper=0, exact=True)


def all_nonneg_certificate(name: str, exprs, *, strict: bool = False, exact: bool = True, cap: int = CAP,
                           prec: int = 128) -> dict:
    """The ``rigorous-value`` certificate that each of the first ``cap`` expressions is >= 0 (``> 0`` with
    ``strict``): ``min_i e_i`` against 0, in exact rationals (``exact``) or in arb."""
    es = _capped(exprs, cap)
    rel = ">" if strict else ">="
    return value_certificate(f"{name} ({len(es)} instances: each {rel} 0)", ["min", *es], lower=0, strict=strict,
                             exact=exact, prec=prec)


def all_positive_certificate(name: str, exprs, **kwargs) -> dict:
    """:func:`all_nonneg_certificate` with ``strict``: each expression > 0."""
    return all_nonneg_certificate(name, exprs, strict=True, **kwargs)


def ldp_expressions(Q, t) -> list:
    """t Q[y][x'] - Q[y][x] for every output y and inputs x != x' (``Q[y][x]``: exact entries or expressions;
    ``t``: e^eps, exact or an expression): all >= 0 iff Q is (log t)-LDP (Definition 2: Q[y][x] <= e^eps Q[y][x'])."""
    out = []
    for row in Q:
        for i, a in enumerate(row):
            for j, b in enumerate(row):
                if i != j:
                    out.append(["-", ["*", t, b], a])
    return out


def ldp_level_certificate(name: str, Q, t) -> dict:
    """The exact certificate that Q's LDP level max_{y, x, x'} Q[y][x] / Q[y][x'] is exactly t (Q with positive
    entries): min_{y, x != x'} (t Q[y][x'] - Q[y][x]) = 0 -- every ratio <= t and one equal to t."""
    return value_certificate(f"{name} (LDP level exactly {t})", ["min", *ldp_expressions(Q, t)], lower=0, upper=0,
                             exact=True)


def transpose(M) -> list:
    """Rows x columns y -> ``Q[y][x]``."""
    return [list(col) for col in zip(*M, strict=True)]


def cover_note(n_total: int, n_cert: int, what: str, extra: str = "") -> str:
    """``certificate_covers``: "the N sampled instances' <what>, each re-derived; not the statement for every
    instance" (with the cap named when fewer than all are certified)."""
    head = (f"the {n_cert} sampled instances' {what}" if n_cert >= n_total else
            f"the first {n_cert} of the {n_total} sampled instances' {what}")
    return f"{head}, each re-derived by the checker in exact rationals; not the statement for every instance{extra}"
