"""Audit certificate forms of issue 23's second pass, built from the structures' own fields;
:mod:`rldp_verify_check.forms_threshold` derives what each proves.

- ``threshold-release`` {noise, scale, threshold}: OpenDP's make_laplace_threshold / make_gaussian_threshold
  (:class:`~rldp_verify.structured.noise.UnboundedLoss` with these ``params``, set by the OpenDP adapter).
- ``two-level`` {a, b} with ``hadamard_witness``: the FAIL of Hadamard response
  (:class:`~rldp_verify.structured.composite.TwoLevel`; its PASS keeps the ``product`` form), inputs 0 and 1, an
  output in the support of the input with the larger level only, and each support as a Sylvester-Hadamard row r of
  order n at offset o, read off the structure's support and checked against it (:func:`hadamard_support`).
- a Rényi ball of radius inf is the simplex (:func:`infinite_ball`): the ``unary`` / ``subsets`` forms (or a dense
  matrix) under ``{"type": "simplex"}``.
"""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.certificates import qs
from rldp_verify.core.errors import InputError


def threshold_form(st) -> dict | None:
    """The ``threshold-release`` statement of ``st``, or None when it is no threshold release."""
    from rldp_verify.structured.noise import UnboundedLoss

    if not isinstance(st, UnboundedLoss) or "threshold-release" not in st.params:
        return None
    f = st.params["threshold-release"]
    return {"threshold-release": {"noise": f["noise"], "scale": qs(Fraction(f["scale"])),
                                  "threshold": qs(Fraction(f["threshold"]))}}


def fail_head(res, st) -> dict:
    """The statement (with its ``data``) of the eps-LDP FAIL of a ``product`` without a lower end: Hadamard response
    as ``two-level`` with its ``hadamard_witness``; InputError (one line) for anything else (its lower end rests on
    data the checker cannot re-derive)."""
    from rldp_verify.structured.composite import TwoLevel

    wit = hadamard_witness(st) if isinstance(st, TwoLevel) else None
    if wit is None:
        raise InputError(f"no certificate for the FAIL of {res.adapter} ({st.kind}): its lower end rests on data the "
                         "checker cannot re-derive (buckets not xxh32(str(x), seed) % g, prefixes, positions); a PASS "
                         "is certified from the parts")
    return {"two-level": {"a": qs(st.hi), "b": qs(st.lo)}, "sizes": [st.d, 1], "data": {"hadamard_witness": wit}}


def hadamard_witness(st) -> dict | None:
    """Inputs 0 and 1 (x the one with the larger level on its support), the least output in A(x) minus A(x') and both
    supports as [r, o, n] (:func:`hadamard_support`); None when a support is no such set or d < 2."""
    if st.d < 2:
        return None
    x, xp = (0, 1) if st.hi >= st.lo else (1, 0)           # y in A(x) minus A(x'): Q[y|x] / Q[y|x'] = max level ratio
    S = {v: set(st.support(v)) for v in (0, 1)}
    sup = {v: hadamard_support(S[v]) for v in (0, 1)}
    y = min(S[x] - S[xp], default=None)
    if y is None or None in sup.values():
        return None
    return {"inputs": [x, xp], "y": y, "supports": [sup[x], sup[xp]]}


def hadamard_support(S) -> list[int] | None:
    """[r, o, n] with S = {o + j : 0 <= j < n, popcount(r & j) even} (n the least power of 2 above max S - o, o = min
    S, r's bit i set iff o + 2^i is not in S), or None when S is no such set."""
    S = set(S)
    if not S:
        return None
    o = min(S)
    n = 1 << (max(S) - o).bit_length()
    r = sum(1 << i for i in range(n.bit_length() - 1) if o + (1 << i) not in S)
    return [r, o, n] if {o + j for j in range(n) if bin(r & j).count("1") % 2 == 0} == S else None


def infinite_ball(res) -> tuple[dict, dict, tuple]:
    """(set, data, sizes) of a structured audit on a Rényi ball of radius inf (every P: the simplex) of a unary
    encoding, GRR or subset selection, with the audit's witness table (a unary encoding without one: the uniform
    table, two secrets of positive mass); InputError for any other structure (local hashing)."""
    from rldp_verify.structured.channels import SubsetSelection, Symmetric, UnaryProduct

    ball = res.ball
    a1, a2 = ball.sensitive_size, ball.public_size
    if res.structure not in (UnaryProduct.kind, Symmetric.kind, SubsetSelection.kind):
        raise InputError(f"no certificate form for {res.adapter} on a Rényi ball of infinite radius (the simplex): "
                         "only a unary encoding's, GRR's or subset selection's")
    wit = None
    if res.ratio_lower is not None:
        wit = [[qs(Fraction(v)) for v in r] for r in res.witness] if res.witness is not None else \
            [[qs(Fraction(1, a1 * a2))] * a2 for _ in range(a1)] if res.structure == UnaryProduct.kind else None
    return {"type": "simplex"}, {"witness": wit}, (a1, a2)
