"""OpenDP's randomized-response constructors (``make_randomized_response``, ``make_randomized_response_bool``)
as exact GRR channels, and its integer noise (``make_laplace`` / ``make_geometric`` on integers in ``bounds``) as
the exact discrete Laplace shift (see :mod:`rldp_verify.adapters`): OpenDP samples exactly from the rational
value of the float ``prob`` or ``scale`` (the discrete Laplace of Canonne, Kamath and Steinke, NeurIPS 2020)."""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.adapters._common import _Events, _left, _prob, _version
from rldp_verify.core.errors import InputError
from rldp_verify.structured import Adapted, BitChannel, DiscreteLaplaceShift, Symmetric, WeightedBits


def _categories(params):
    """(k, labels, prob) of ``make_randomized_response``."""
    cats = params.pop("categories", None)
    prob = params.pop("prob", None)
    _left(params, "opendp make_randomized_response")
    if cats is None or len(list(cats)) < 2 or len(set(cats)) != len(list(cats)):
        raise InputError(f"categories = {cats!r} must list at least 2 distinct values")
    k = len(list(cats))
    labels = tuple(str(c) for c in cats)
    p = _prob(prob, "prob")
    if Fraction(p) < Fraction(1, k):
        raise InputError(f"prob = {prob!r} must be at least 1/len(categories) (OpenDP refuses it too)")
    return k, labels, p


def _boolean(params):
    """(k, labels, prob) of ``make_randomized_response_bool``."""
    prob = params.pop("prob", None)
    _left(params, "opendp make_randomized_response_bool")
    k, p, labels = 2, _prob(prob, "prob"), ("False", "True")
    if Fraction(p) < Fraction(1, 2):
        raise InputError(f"prob = {prob!r} must be at least 1/2")
    return k, labels, p


def _integer_noise(name, params) -> Adapted:
    """``make_laplace`` / ``make_geometric`` on an integer in ``bounds`` = (lower, upper) with ``scale``."""
    bounds, scale = params.pop("bounds", None), params.pop("scale", None)
    _left(params, f"opendp {name}")
    try:
        lo, hi = (int(v) if isinstance(v, int) or str(v).strip().lstrip("-").isdigit() else None for v in bounds)
    except (TypeError, ValueError):
        lo = hi = None
    if lo is None or hi is None or not lo < hi:
        raise InputError(f"bounds = {bounds!r} must be two integers lower < upper (the integer inputs)")
    try:
        b = float(scale)
    except (TypeError, ValueError):
        raise InputError(f"scale = {scale!r} is not a number") from None
    if not (b > 0 and b != float("inf")):
        raise InputError(f"scale = {scale!r} must be a finite number > 0")
    return Adapted(DiscreteLaplaceShift(hi - lo + 1, b, lo=lo), f"opendp {_version('opendp')} {name} (integers "
                   f"{lo}..{hi}, scale {b!r})", "exact discrete Laplace with the rational value of the float scale "
                   "(OpenDP's sampler, Canonne, Kamath, Steinke 2020): no float sampler to model", {}, None)


def _bitvec(params) -> Adapted:
    """``make_randomized_response_bitvec`` on n-bit vectors of weight <= max_weight with flipping parameter f: each
    bit is kept with probability 1 - f/2 (set to a fair coin with probability f)."""
    n, w, f = params.pop("n_bits", None), params.pop("max_weight", None), params.pop("f", None)
    _left(params, "opendp make_randomized_response_bitvec")
    try:
        n, w = int(n), int(w)
    except (TypeError, ValueError):
        raise InputError(f"n_bits = {n!r} and max_weight = {w!r} must be integers") from None
    if n < 1 or n % 8 or not 1 <= w <= n:
        raise InputError(f"n_bits = {n} must be a positive multiple of 8 (the input is bytes) and max_weight = {w} "
                         "in [1, n_bits]")
    fv = _prob(f, "f")
    if not fv > 0:
        raise InputError(f"f = {f!r} must be in (0, 1] (OpenDP refuses it too)")
    flip = Fraction(fv) / 2
    return Adapted(WeightedBits(n, w, BitChannel(1 - flip, flip)), f"opendp {_version('opendp')} "
                   f"make_randomized_response_bitvec (n = {n} bits, max_weight = {w}, f = {fv!r})",
                   "exact Bernoulli(f/2) per bit (OpenDP samples exactly from the rational value of the float f/2)",
                   {}, None, ["the audit is for inputs of n bits: BitVectorDomain(max_weight) does not fix the length, "
                              "and the output has the input's length, so inputs of different lengths are told apart "
                              "with certainty"])


def _opendp(obj, name, ev: _Events, params) -> Adapted:
    params = dict(params)
    if name == "make_randomized_response_bitvec":
        return _bitvec(params)
    if name in ("make_laplace", "make_geometric"):
        return _integer_noise(name, params)
    if name == "make_randomized_response":
        k, labels, p = _categories(params)
    elif name == "make_randomized_response_bool":
        k, labels, p = _boolean(params)
    elif type(obj).__name__ == "Measurement":
        raise InputError("an opendp Measurement does not expose its parameters through the Python API; pass "
                         "the constructor instead: channel(dp.m.make_randomized_response, categories=..., prob=...)")
    else:
        raise InputError(f"unsupported opendp object {name!r} (supported: make_randomized_response, "
                         "make_randomized_response_bool, make_randomized_response_bitvec, make_laplace and "
                         "make_geometric on integers)")

    def rebuild(f):
        a = Fraction(f["prob"])
        return Symmetric(k, a, (1 - a) / (k - 1), labels=labels)
    return Adapted(rebuild({"prob": p}), f"opendp {_version('opendp')} {name}",
                   "exact Bernoulli(prob) and uniform draws (OpenDP samples exactly from the rational value of "
                   "the float prob)", {"prob": p}, rebuild)
