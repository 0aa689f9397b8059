"""OpenDP's randomized-response constructors (``make_randomized_response``, ``make_randomized_response_bool``)
as exact GRR channels (see :mod:`rldp_verify.adapters`): OpenDP samples exactly from the rational value of
the float ``prob``."""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.adapters._common import _Events, _left, _prob, _version
from rldp_verify.core.errors import InputError
from rldp_verify.structured import Adapted, Symmetric


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


def _opendp(obj, name, ev: _Events, params) -> Adapted:
    params = dict(params)
    if name == "make_randomized_response":
        k, labels, p = _categories(params)
    elif name == "make_randomized_response_bool":
        k, labels, p = _boolean(params)
    elif type(obj).__name__ == "Measurement":
        raise InputError("an opendp Measurement does not expose its parameters through the Python API; pass "
                         "the constructor instead: channel(dp.m.make_randomized_response, categories=..., prob=...)")
    else:
        raise InputError(f"unsupported opendp object {name!r} (supported: make_randomized_response, "
                         "make_randomized_response_bool)")

    def rebuild(f):
        a = Fraction(f["prob"])
        return Symmetric(k, a, (1 - a) / (k - 1), labels=labels)
    return Adapted(rebuild({"prob": p}), f"opendp {_version('opendp')} {name}",
                   "exact Bernoulli(prob) and uniform draws (OpenDP samples exactly from the rational value of "
                   "the float prob)", {"prob": p}, rebuild)
