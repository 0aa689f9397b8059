"""Audit certificate forms of issue 23's second pass, built from the structures' own fields;
:mod:`rldp_verify_check.forms_threshold` derives what each proves.

- ``threshold-release`` {noise, scale, threshold}: OpenDP's make_laplace_threshold / make_gaussian_threshold
  (:class:`~rldp_verify.structured.noise.UnboundedLoss` with these ``params``, set by the OpenDP adapter).
- ``two-level`` {a, b} with ``hadamard_witness``: Hadamard response
  (:class:`~rldp_verify.structured.composite.TwoLevel`), inputs 0 and 1, an output in the support of the input with
  the larger level only, and each support as a Sylvester-Hadamard row r of order n at offset o, read off the
  structure's support and checked against it (:func:`hadamard_support`).
- a Rényi ball of radius inf is the simplex (:func:`infinite_ball`): the ``unary`` form under ``{"type": "simplex"}``.
"""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.certificates import qs
from rldp_verify.core.errors import InputError


def more2_form(st) -> dict | None:
    """The statement part (and ``data``) of ``st`` in one of the forms above, or None when it is none of them."""
    from rldp_verify.structured.composite import TwoLevel
    from rldp_verify.structured.noise import UnboundedLoss

    if isinstance(st, UnboundedLoss) and "threshold-release" in st.params:
        f = st.params["threshold-release"]
        return {"threshold-release": {"noise": f["noise"], "scale": qs(Fraction(f["scale"])),
                                      "threshold": qs(Fraction(f["threshold"]))}}
    if not isinstance(st, TwoLevel) or st.d < 2:
        return None
    x, xp = (0, 1) if st.hi >= st.lo else (1, 0)           # y in A(x) minus A(x'): Q[y|x] / Q[y|x'] = max level ratio
    sup = [hadamard_support(st.support(v)) for v in (0, 1)]
    if None in sup:
        return None
    y = min(set(st.support(x)) - set(st.support(xp)), default=None)
    if y is None:
        return None
    return {"two-level": {"a": qs(st.hi), "b": qs(st.lo)}, "sizes": [st.d, 1],
            "data": {"hadamard_witness": {"inputs": [x, xp], "y": y, "supports": [sup[x], sup[xp]]}}}


def hadamard_support(S) -> list[int] | None:
    """[r, o, n] with S = {o + j : 0 <= j < n, popcount(r & j) even} (n the least power of 2 above max S - o, o = min
    S, r's bit i set iff o + 2^i is not in S), or None when S is no such set."""
    S = set(S)
    if not S:
        return None
    o = min(S)
    n = 1 << (max(S) - o).bit_length()
    r = sum(1 << i for i in range(n.bit_length() - 1) if o + (1 << i) not in S)
    return [r, o, n] if S == {o + j for j in range(n) if bin(r & j).count("1") % 2 == 0} else None


def infinite_ball(res) -> tuple[dict, dict, tuple]:
    """(set, data, sizes) of a structured audit on a Rényi ball of radius inf (every P: the simplex) of a unary
    encoding, with a witness table giving two secrets positive mass (the uniform one); InputError for any other
    structure."""
    from rldp_verify.structured.channels import UnaryProduct

    ball = res.ball
    a1, a2 = ball.sensitive_size, ball.public_size
    if res.structure != UnaryProduct.kind:
        raise InputError(f"no certificate form for {res.adapter} on a Rényi ball of infinite radius (the simplex): "
                         "only a unary encoding's")
    uniform = [[qs(Fraction(1, a1 * a2))] * a2 for _ in range(a1)]
    return {"type": "simplex"}, {"witness": uniform if res.ratio_lower is not None else None}, (a1, a2)
