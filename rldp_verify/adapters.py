"""Exact channels of mechanism objects from widely used LDP libraries.

``channel(obj, **params)`` returns the exact :class:`~rldp_verify.rldp.mechio.Mechanism` (column-stochastic
Q[y|x]) that the object's code samples from, dispatching on the object's type:

=====================  ==========================================  ===================================
library (extra)        object                                      channel
=====================  ==========================================  ===================================
pure-ldp               ``UEClient`` (SUE, OUE with ``use_oue``)    unary encoding on {0,1}^d
                       ``DEClient``                                direct encoding (GRR) on d values
multi-freq-ldpy        ``GRR_Client`` (params ``k``, ``epsilon``)  GRR on k values
                       ``UE_Client`` (``k``, ``epsilon``,          SUE / OUE on {0,1}^k
                       ``optimal=True``)
opendp                 ``make_randomized_response`` (params        randomized response on the
                       ``categories``, ``prob``),                  categories / on {False, True}
                       ``make_randomized_response_bool`` (``prob``)
=====================  ==========================================  ===================================

Exactness. The probabilities are the library's own float64 values (computed by its code from eps), taken
as the binary rationals they are (``from_float``), so the channel's ratios, and the realised eps an audit
finds, are exact for the parameters the code uses. (The sampling itself compares a float uniform with these
probabilities; we model it as exact Bernoulli(p) draws, which OpenDP implements and the others approximate
to within 2^-53.) pure-ldp before 1.2.0 has a bug in ``UEClient._perturb``: the true value's bit is not
cleared before it is set with probability p, so it is 1 with probability p + (1-p) q, not p; for OUE at a
claimed eps this is a channel with eps = ln(e^eps + 2) (0.25 -> 1.189). The adapter reproduces the code of
the installed version (``importlib.metadata``), bug included.

Inputs are the library's value indices 0..d-1 (pure-ldp's default ``index_mapper`` maps item v to v - 1).
The channel is on X = S x U with |S| = d, |U| = 1 unless ``sizes=(|S|, |U|)`` (S-major order) is given.
Unary encodings have 2^d outputs; d <= 12. An object of another type raises
:class:`~rldp_verify.core.errors.InputError` naming the type.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import from_float
from rldp_verify.rldp.mechio import Mechanism

MAX_UNARY_BITS = 12

__all__ = ["channel", "from_spec", "SPECS", "pure_ldp_has_ue_bug"]


def _f(x, what: str) -> Fraction:
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise InputError(f"{what} = {x!r} is not a number") from None
    if not math.isfinite(v) or not 0 <= v <= 1:
        raise InputError(f"{what} = {x!r} is not a probability")
    return from_float(v)


def _size(d, what: str) -> int:
    if isinstance(d, bool) or not isinstance(d, (int,)) and not (hasattr(d, "__index__")):
        raise InputError(f"{what} = {d!r} is not an integer")
    d = int(d)
    if d < 2:
        raise InputError(f"{what} = {d} must be at least 2")
    return d


def _mechanism(matrix, d: int, outputs, sizes, name: str, params: dict) -> Mechanism:
    if sizes is None:
        sens, pub = [str(i) for i in range(d)], ["*"]
    else:
        try:
            a1, a2 = (int(v) for v in sizes)
        except (TypeError, ValueError):
            raise InputError(f"sizes = {sizes!r} must be (|S|, |U|)") from None
        if a1 * a2 != d or a1 < 1 or a2 < 1:
            raise InputError(f"sizes = {sizes!r} do not multiply to the domain size {d}")
        sens, pub = a1, a2
    return Mechanism.from_matrix(matrix, sens, pub, outputs, eps=None, guarantee=None,
                                 parameters={"adapter": name, **{k: str(v) for k, v in params.items()}},
                                 notes=(f"exact channel of {name}; float parameters read as binary rationals",))


def grr_channel(d: int, p: Fraction) -> list[list[Fraction]]:
    """Keep the value with probability p, else a uniform other value: Q[y|x] = p or (1-p)/(d-1)."""
    off = (1 - p) / (d - 1)
    return [[p if y == x else off for x in range(d)] for y in range(d)]


def unary_channel(d: int, p_true: Fraction, q: Fraction):
    """Independent bits: the input's bit is 1 w.p. ``p_true``, every other bit w.p. ``q``. Rows: {0,1}^d."""
    if d > MAX_UNARY_BITS:
        raise InputError(f"unary encoding with d = {d} has 2^{d} outputs; the exact channel needs d <= {MAX_UNARY_BITS}")
    outs = list(itertools.product((0, 1), repeat=d))
    rows = []
    for y in outs:
        row = []
        for x in range(d):
            prob = Fraction(1)
            for j, bit in enumerate(y):
                pj = p_true if j == x else q
                prob *= pj if bit else 1 - pj
            row.append(prob)
        rows.append(row)
    return rows, ["".join(map(str, y)) for y in outs]


def pure_ldp_has_ue_bug(version: str | None = None) -> bool:
    """True for pure-ldp < 1.2.0, whose UEClient does not clear the true bit before setting it."""
    if version is None:
        from importlib.metadata import PackageNotFoundError
        from importlib.metadata import version as _v

        try:
            version = _v("pure-ldp")
        except PackageNotFoundError:  # pragma: no cover - the object exists, so the package does
            return False
    parts = []
    for tok in version.split(".")[:3]:
        digits = "".join(ch for ch in tok if ch.isdigit())
        parts.append(int(digits) if digits else 0)
    return tuple(parts + [0] * (3 - len(parts))) < (1, 2, 0)


# ------------------------------------------------------------------------------------------ dispatch


def _module(obj) -> str:
    fn = getattr(obj, "py_func", None)   # numba dispatchers wrap the Python function
    target = fn if fn is not None else obj
    return getattr(target, "__module__", None) or type(obj).__module__ or ""


def _name(obj) -> str:
    fn = getattr(obj, "py_func", None)
    target = fn if fn is not None else obj
    return getattr(target, "__name__", type(obj).__name__)


def _no_params(params, what):
    if params:
        raise InputError(f"{what} carries its own parameters; unexpected {', '.join(sorted(params))}")


def channel(obj, *, sizes=None, **params) -> Mechanism:
    """The exact channel of ``obj`` (see the module docstring); ``params`` for function-style APIs."""
    tname = f"{type(obj).__module__}.{type(obj).__qualname__}"
    mod = _module(obj)
    if type(obj).__module__.startswith("pure_ldp"):
        cls = type(obj).__name__
        d = _size(getattr(obj, "d", None), "d")
        _no_params(params, f"pure-ldp {cls}")
        if cls == "UEClient":
            p, q = _f(obj.p, "p"), _f(obj.q, "q")
            buggy = pure_ldp_has_ue_bug()
            p_true = p + (1 - p) * q if buggy else p
            rows, outs = unary_channel(d, p_true, q)
            kind = "OUE" if getattr(obj, "use_oue", False) else "SUE"
            return _mechanism(rows, d, outs, sizes, f"pure-ldp UEClient ({kind}{', pre-1.2.0 bug' if buggy else ''})",
                              {"epsilon": obj.epsilon, "d": d, "p": obj.p, "q": obj.q})
        if cls == "DEClient":
            p = _f(obj.p, "p")
            return _mechanism(grr_channel(d, p), d, [str(i) for i in range(d)], sizes, "pure-ldp DEClient",
                              {"epsilon": obj.epsilon, "d": d, "p": obj.p})
        raise InputError(f"unsupported pure-ldp object of type {tname} (supported: UEClient, DEClient)")
    if mod.startswith("multi_freq_ldpy"):
        name = _name(obj)
        k = _size(params.pop("k", None), "k")
        eps = params.pop("epsilon", None)
        if eps is None or not float(eps) > 0:
            raise InputError(f"epsilon = {eps!r} must be a number > 0 (multi-freq-ldpy {name})")
        import numpy as np

        if name == "GRR_Client":
            _no_params(params, "multi-freq-ldpy GRR_Client")
            e = np.exp(float(eps))
            p = _f(e / (e + k - 1), "p")
            return _mechanism(grr_channel(k, p), k, [str(i) for i in range(k)], sizes, "multi-freq-ldpy GRR_Client",
                              {"k": k, "epsilon": eps})
        if name == "UE_Client":
            optimal = bool(params.pop("optimal", True))
            _no_params(params, "multi-freq-ldpy UE_Client")
            if optimal:
                p, q = Fraction(1, 2), _f(1 / (np.exp(float(eps)) + 1), "q")
            else:
                c = np.exp(float(eps) / 2)
                pf = c / (c + 1)
                p, q = _f(pf, "p"), _f(1 - pf, "q")
            rows, outs = unary_channel(k, p, q)
            return _mechanism(rows, k, outs, sizes, f"multi-freq-ldpy UE_Client ({'OUE' if optimal else 'SUE'})",
                              {"k": k, "epsilon": eps, "optimal": optimal})
        raise InputError(f"unsupported multi-freq-ldpy object {name!r} (supported: GRR_Client, UE_Client)")
    if mod.startswith("opendp") or type(obj).__module__.startswith("opendp"):
        name = _name(obj)
        if name == "make_randomized_response":
            cats = params.pop("categories", None)
            prob = params.pop("prob", None)
            _no_params(params, "opendp make_randomized_response")
            if cats is None or len(list(cats)) < 2 or len(set(cats)) != len(list(cats)):
                raise InputError(f"categories = {cats!r} must list at least 2 distinct values")
            cats = list(cats)
            p = _f(prob, "prob")
            if p < Fraction(1, len(cats)):
                raise InputError(f"prob = {prob!r} must be at least 1/len(categories) (OpenDP refuses it too)")
            k = len(cats)
            return _mechanism(grr_channel(k, p), k, [str(c) for c in cats], sizes,
                              "opendp make_randomized_response", {"categories": cats, "prob": prob})
        if name == "make_randomized_response_bool":
            prob = params.pop("prob", None)
            _no_params(params, "opendp make_randomized_response_bool")
            p = _f(prob, "prob")
            if p < Fraction(1, 2):
                raise InputError(f"prob = {prob!r} must be at least 1/2")
            return _mechanism(grr_channel(2, p), 2, ["False", "True"], sizes,
                              "opendp make_randomized_response_bool", {"prob": prob})
        if type(obj).__name__ == "Measurement":
            raise InputError("an opendp Measurement does not expose its parameters through the Python API; pass "
                             "the constructor instead: channel(dp.m.make_randomized_response, categories=..., prob=...)")
        raise InputError(f"unsupported opendp object {name!r} (supported: make_randomized_response, "
                         "make_randomized_response_bool)")
    raise InputError(f"unsupported object of type {tname}: no adapter (supported: pure-ldp UEClient/DEClient, "
                     "multi-freq-ldpy GRR_Client/UE_Client, opendp make_randomized_response[_bool])")


# ------------------------------------------------------------------------------------------ LIBRARY:NAME


def _pure_ldp(name):
    def build(epsilon, d, use_oue=False, **kw):
        import pure_ldp.frequency_oracles as fo

        cls = {"UEClient": fo.UEClient, "DEClient": fo.DEClient}[name]
        if name == "UEClient":
            return channel(cls(float(epsilon), int(d), use_oue=bool(use_oue), index_mapper=lambda x: x), **kw)
        return channel(cls(float(epsilon), int(d), index_mapper=lambda x: x), **kw)
    return build


def _mfl(name):
    def build(**kw):
        from multi_freq_ldpy.pure_frequency_oracles import GRR, UE

        fn = {"GRR_Client": GRR.GRR_Client, "UE_Client": UE.UE_Client}[name]
        return channel(fn, **kw)
    return build


def _odp(name):
    def build(**kw):
        import opendp.prelude as dp

        return channel(getattr(dp.m, name), **kw)
    return build


SPECS = {
    ("pure-ldp", "UEClient"): (_pure_ldp("UEClient"), {"epsilon": float, "d": int, "use_oue": bool}),
    ("pure-ldp", "DEClient"): (_pure_ldp("DEClient"), {"epsilon": float, "d": int}),
    ("multi-freq-ldpy", "GRR_Client"): (_mfl("GRR_Client"), {"k": int, "epsilon": float}),
    ("multi-freq-ldpy", "UE_Client"): (_mfl("UE_Client"), {"k": int, "epsilon": float, "optimal": bool}),
    ("opendp", "make_randomized_response"): (_odp("make_randomized_response"), {"categories": list, "prob": float}),
    ("opendp", "make_randomized_response_bool"): (_odp("make_randomized_response_bool"), {"prob": float}),
}


def _convert(key: str, text: str, typ):
    t = text.strip()
    try:
        if typ is bool:
            if t.lower() in ("1", "true", "yes"):
                return True
            if t.lower() in ("0", "false", "no"):
                return False
            raise ValueError
        if typ is list:
            return [c.strip() for c in t.split(",") if c.strip()]
        v = typ(t)
        if typ is float and not math.isfinite(v):
            raise ValueError
        return v
    except ValueError:
        raise InputError(f"--param {key}={text!r}: not a valid {typ.__name__}") from None


def from_spec(spec: str, params: dict | list | None = None, *, sizes=None) -> Mechanism:
    """The channel of ``LIBRARY:NAME`` built with ``params`` ({name: text} or ["k=v", ...]), e.g.
    ``from_spec("pure-ldp:UEClient", ["epsilon=0.25", "d=2", "use_oue=true"])``."""
    if ":" not in str(spec):
        raise InputError(f"adapter {spec!r} must be LIBRARY:NAME, e.g. pure-ldp:UEClient")
    lib, name = (s.strip() for s in str(spec).split(":", 1))
    if (lib, name) not in SPECS:
        known = ", ".join(f"{a}:{b}" for a, b in SPECS)
        raise InputError(f"unknown adapter {spec!r} (known: {known})")
    build, types = SPECS[(lib, name)]
    kv = {}
    for item in (params or []) if not isinstance(params, dict) else [f"{k}={v}" for k, v in params.items()]:
        if "=" not in item:
            raise InputError(f"--param {item!r} must be NAME=VALUE")
        k, v = item.split("=", 1)
        k = k.strip()
        if k not in types:
            raise InputError(f"--param {k!r} is not a parameter of {lib}:{name} (parameters: {', '.join(types)})")
        kv[k] = _convert(k, v, types[k])
    missing = [k for k in types if k not in kv and k not in ("use_oue", "optimal")]
    if missing:
        raise InputError(f"{lib}:{name} needs --param {missing[0]}=...")
    try:
        return build(**kv, sizes=sizes)
    except ImportError:
        raise InputError(f"the library {lib!r} is not installed (pip install 'rldp-verify[{lib}]')") from None
