"""eps-LDP audit certificate forms of multi-freq-ldpy's HE, RS+FD and ordered SS clients (issue 23), built from the
structures' own fields; :mod:`rldp_verify_check.forms_mfl` derives what each proves.

- ``laplace-histogram`` {d, b}: :class:`~rldp_verify.structured.channels.LaplaceHistogram` (``HE_Client``: the
  ideal mechanism e_x + Laplace(0, b)^d with b the binary rational of the library's float scale 2 / epsilon; the
  float sampler is not modelled, as in the audit). Subclasses (lattice noise, sketches) are not this form.
- ``rsfd`` {parts: [{fake, k, p, q}]} with the bound ``r`` and the maximising ``choice`` [[b1, b2(, n)], ...] as data
  (r: the structure's exact ratio, so that a PASS at e^eps = r is certified, not its printed decimal): RS+FD with GRR
  and uniform fake values (:class:`~rldp_verify.structured.channels.FakeDataMixture`), UE and zero-vector fake data
  (:class:`~rldp_verify.structured.channels.FakeDataUnary`) or a fake law per attribute
  (:class:`~rldp_verify.structured.composite.FakeData`, UE with random fake data too). The choice maximises
  u_j - r v_j per part (Dinkelbach's fixed point: sum u / sum v = r there).
- ``rsfd`` under {P} (:func:`mfl_p_form`): the same parts, ``sizes`` [|S|, |U|] and the exact (eps, P) ratio ``r`` of
  :func:`rldp_verify.structured.rsfd.rsfd_p_audit` as data, at any size (no dense channel, no choice: the checker
  finds the maximisers itself).
- ``laplace-histogram`` {d, b} with ``sizes`` [|S|, |U|] (d = |S||U|) under {P}, a Rényi ball or P_X
  (:func:`mfl_p_form`; :mod:`rldp_verify.structured.laplace_rldp`): the same statement, the set's witness P (P^ on a
  ball, the uniform P on P_X) as data when the audit printed a lower end.
- ``ordered-subsets`` {k, m, p}: :class:`~rldp_verify.structured.channels.SubsetSelection` with ``ordered`` and
  m >= 2 (``SS_Client``'s array: the true value, when included, first).
"""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.certificates import qs

INF = float("inf")


def mfl_form(st) -> dict | None:
    """The statement part (and ``data``) of ``st`` in one of the forms above, or None when it is none of them."""
    from rldp_verify.structured.channels import LaplaceHistogram, SubsetSelection

    if type(st) is LaplaceHistogram:
        return {"laplace-histogram": {"d": st.d, "b": qs(Fraction(st.scale))}, "sizes": [st.d, 1]}
    if isinstance(st, SubsetSelection) and st.ordered and st.m >= 2:
        return {"ordered-subsets": {"k": st.k, "m": st.m, "p": qs(st.P)}, "sizes": [st.k, 1]}
    parts = rsfd_parts(st)
    if parts is None:
        return None
    r = st.ratio()
    k = 1
    for p in parts:
        k *= int(p["k"])
    return {"rsfd": {"parts": parts}, "sizes": [k, 1],
            "data": {"r": qs(r), "choice": [best_choice(p, INF if r == INF else Fraction(r)) for p in parts]}}


def mfl_p_form(st, res, sizes) -> dict | None:
    """The ``rsfd`` statement (with ``data``) of the (eps, P) audit ``res`` of an RS+FD structure ``st`` on
    ``sizes`` = (|S|, |U|), or the ``laplace-histogram`` statement of the Laplace histogram's audit under {P}, on a
    Rényi ball or on P_X (its witness P, when the audit has one, is the set's data); None for other structures;
    InputError (one line) for an infinite RS+FD ratio."""
    from rldp_verify.core.errors import InputError
    from rldp_verify.structured.channels import LaplaceHistogram

    if type(st) is LaplaceHistogram:                # {P}, a Rényi ball or P_X: the set and witness are the caller's
        return {"laplace-histogram": {"d": st.d, "b": qs(Fraction(st.scale))}, "sizes": [int(v) for v in sizes]}
    parts = rsfd_parts(st)
    if parts is None:
        return None
    if res.ratio_upper == INF or res.ratio_upper != res.ratio_lower:
        raise InputError(f"no certificate for {res.adapter} ({st.kind}) under {{P}}: the rsfd form needs the exact "
                         f"finite ratio (got [{res.ratio_lower}, {res.ratio_upper}])")
    return {"rsfd": {"parts": parts}, "sizes": [int(v) for v in sizes], "data": {"r": qs(Fraction(res.ratio_upper))}}


def rsfd_parts(st) -> list[dict] | None:
    """[{fake, k, p, q}] of an RS+FD structure (GRR: p = a, q = b; UE: the bit's p, q), None for other structures."""
    from rldp_verify.structured.channels import FakeDataMixture, FakeDataUnary, Symmetric
    from rldp_verify.structured.composite import FakeData

    if isinstance(st, FakeDataUnary):
        pairs = [(c, "zero") for c in st.components]
    elif isinstance(st, FakeDataMixture):
        pairs = [(c, "uniform") for c in st.components]
    elif isinstance(st, FakeData):
        pairs = list(st.parts)
    else:
        return None
    return [{"fake": fake, "k": c.k, "p": qs(c.a), "q": qs(c.b)} if isinstance(c, Symmetric) else
            {"fake": fake, "k": c.d, "p": qs(c.bit.p), "q": qs(c.bit.q)} for c, fake in pairs]


def _terms(part: dict):
    """[((b1, b2, n), u, v)]: the part's (u, v) at both bits and, for random fake data, the ends of n's range."""
    fake, k, p, q = part["fake"], int(part["k"]), Fraction(part["p"]), Fraction(part["q"])
    G = [k * q, k * p] if fake == "uniform" else [(1 - p) / (1 - q), p / q]
    out = []
    for b1 in (0, 1):
        for b2 in (0, 1):
            ns = ([b1, k - 1 + b1] if b1 == b2 else [1, k - 1]) if fake == "random" else [0]
            for n in ns:
                w = Fraction(k) / (n * G[1] + (k - n) * G[0]) if fake == "random" else Fraction(1)
                out.append(((b1, b2, n), w * G[b1], w * G[b2]))
    return out


def best_choice(part: dict, R) -> list[int]:
    """The part's choice [b1, b2(, n)] maximising u - R v (R = inf: the largest u with v = 0, else u - v)."""
    terms = _terms(part)
    (b1, b2, n), _, _ = max(terms, key=(lambda e: (e[2] == 0, e[1] - e[2])) if R == INF else lambda e: e[1] - R * e[2])
    return [b1, b2, n] if part["fake"] == "random" else [b1, b2]
