"""OpenDP's randomized-response constructors (``make_randomized_response``, ``make_randomized_response_bool``)
as exact GRR channels, and its integer noise (``make_laplace`` / ``make_geometric`` on integers in ``bounds``) as
the exact discrete Laplace shift (see :mod:`rldp_verify.adapters`): OpenDP samples exactly from the rational
value of the float ``prob`` or ``scale`` (the discrete Laplace of Canonne, Kamath and Steinke, NeurIPS 2020).

Float inputs (``T="float"``, or float ``bounds``): OpenDP 0.16 rounds x to the nearest multiple of 2^k (ties up;
k = -1074 by default for float64, the lattice of all floats: its privacy map equals that of k = -1074 and not
-1073), adds discrete Laplace / Gaussian noise of scale s 2^-k exactly and returns the lattice point as a float
(:mod:`rldp_verify.structured.noise`): Laplace has eps = (i(upper) - i(lower)) 2^k / s exactly; Gaussian noise
(``make_gaussian``, integers or floats) has no finite eps (its privacy loss grows without bound in the output);
vectors (``size``: ``vector_domain(atom_domain(bounds), size)`` with ``l1_distance``) get independent noise per
coordinate: Laplace / geometric eps = size (i(upper) - i(lower)) 2^k / s exactly (the L1 diameter of the box; k = 0
for integers, :class:`~rldp_verify.structured.noise.VectorLaplace`), Gaussian (``l2_distance``) eps = inf; the
threshold releases (``make_laplace_threshold``, ``make_gaussian_threshold``) have eps = inf (a key held by one
input and not the other is released with positive probability under the first only). Noisy max on a finite list
of score vectors (``make_noisy_max``; the deprecated ``make_report_noisy_max_gumbel``, exponential noise in 0.16)
has its exact argmax law (:class:`~rldp_verify.structured.noise.NoisyArgmax`); noisy top k (``make_noisy_top_k``)
with Gumbel noise (ZeroConcentratedDivergence) its exact Plackett-Luce law, with exponential noise (MaxDivergence)
the law of OpenDP's peeling, k rounds of permute-and-flip on the scores left (:class:`~rldp_verify.structured.noise.
NoisyTopK`), with k = 1 noisy max's. Measurement objects are refused with a one-line reason naming them."""

from __future__ import annotations

import math
from fractions import Fraction

from rldp_verify.adapters._common import _Events, _left, _prob, _version
from rldp_verify.core.errors import InputError
from rldp_verify.structured import Adapted, BitChannel, DiscreteLaplaceShift, Symmetric, WeightedBits
from rldp_verify.structured.noise import (
    K_MIN_F64,
    LatticeLaplace,
    NoisyArgmax,
    NoisyTopK,
    UnboundedLoss,
    VectorLaplace,
    lattice_index,
    lattice_text,
)

NOISE = ("make_laplace", "make_geometric", "make_gaussian")
THRESHOLDS = ("make_laplace_threshold", "make_gaussian_threshold")


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


def _scale(scale) -> float:
    try:
        b = float(scale)
    except (TypeError, ValueError):
        raise InputError(f"scale = {scale!r} is not a number") from None
    if not (b > 0 and b != float("inf")):
        raise InputError(f"scale = {scale!r} must be a finite number > 0")
    return b


def _is_float(name, bounds, T) -> bool:
    """Float inputs: T = "float" (or "f64"), or float bounds given from Python; integers otherwise."""
    if T is not None:
        t = str(T).strip().lower()
        if t not in ("int", "i32", "i64", "float", "f64"):
            raise InputError(f"T = {T!r} must be int or float (the input type of OpenDP's atom_domain)")
        if t in ("float", "f64") and name == "make_geometric":
            raise InputError("make_geometric has integer inputs only; T = float is for make_laplace / make_gaussian")
        return t in ("float", "f64")
    return isinstance(bounds, (list, tuple)) and any(isinstance(v, float) for v in bounds)


def _size(size) -> int | None:
    """``size`` of OpenDP's ``vector_domain`` (None: scalar inputs, ``atom_domain``)."""
    if size is None:
        return None
    try:
        n = int(size)
    except (TypeError, ValueError):
        raise InputError(f"size = {size!r} is not an integer") from None
    if n != float(size) or not 1 <= n <= 10**6:
        raise InputError(f"size = {size!r} must be an integer in [1, 10^6] (the length of the input vectors)")
    return n


def _gauss(lo, hi, k: int, b: float, n: int) -> dict:
    """The parameters of lattice Gaussian noise that its certificate form reads (``lattice-gaussian``)."""
    return {"lattice-gaussian": {"lower": lo, "upper": hi, "k": k, "scale": b, "size": n}}


def _vector(name, lo, hi, b: float, n: int, k: int, label: str, samp: str, notes: list) -> Adapted:
    """Vectors of n coordinates in [lo, hi] (lattice exponent k; integers k = 0): L1 (Laplace) or L2 (Gaussian)."""
    label = label.replace(f"{name} (", f"{name} on vectors of size {n} (", 1)
    notes = [*notes, f"inputs: the vectors of {n} coordinates in [{lo!r}, {hi!r}] (vector_domain(atom_domain(bounds),"
             " size)); in the local model every two inputs are neighbours, so eps is the L1 diameter of the box over "
             "the scale"]
    i_lo, i_hi = lattice_index(lo, k), lattice_index(hi, k)
    if name == "make_gaussian":
        st = UnboundedLoss("vector plus discrete Gaussian noise per coordinate", f"({hi!r},) * {n}", f"({lo!r},) * {n}",
                           "y_0 -> +inf: the ratio exp(sum_j ((y_j - i'_j)^2 - (y_j - i_j)^2) / (2 scale'^2)) has no "
                           "bound", constant=i_lo == i_hi, params=_gauss(lo, hi, k, b, n))
        notes.append("Gaussian noise (l2_distance) has no finite eps for eps-LDP (OpenDP's map is for "
                     "ZeroConcentratedDivergence)")
        return Adapted(st, label, samp, {}, None, notes)
    return Adapted(VectorLaplace(i_hi - i_lo + 1, b, lower=lo, upper=hi, size=n, k=k), label, samp, {}, None, notes)


def _noise(name, params) -> Adapted:
    """``make_laplace`` / ``make_geometric`` / ``make_gaussian`` on inputs in ``bounds`` = (lower, upper) with
    ``scale`` (integers, or floats with the lattice exponent ``k``); with ``size``: vectors of that many coordinates,
    each in bounds (``vector_domain(atom_domain(bounds), size)``, L1 distance; L2 for Gaussian)."""
    bounds, scale = params.pop("bounds", None), params.pop("scale", None)
    T, k = params.pop("T", None), params.pop("k", None)
    n = _size(params.pop("size", None))
    _left(params, f"opendp {name}")
    if _is_float(name, bounds, T):
        return _float_noise(name, bounds, _scale(scale), k, n)
    if k is not None:
        raise InputError(f"k = {k!r} is the lattice of float inputs; integer inputs take no k")
    try:
        lo, hi = (int(v) if isinstance(v, int) or str(v).strip().lstrip("-").isdigit() else None for v in bounds)
    except (TypeError, ValueError):
        lo = hi = None
    if lo is None or hi is None or not lo < hi:
        raise InputError(f"bounds = {bounds!r} must be two integers lower < upper (the integer inputs)")
    b = _scale(scale)
    label = f"opendp {_version('opendp')} {name} (integers {lo}..{hi}, scale {b!r})"
    if n is not None:
        law = "Gaussian" if name == "make_gaussian" else "Laplace"
        return _vector(name, lo, hi, b, n, 0, label, f"exact discrete {law} noise per coordinate with the rational "
                       "value of the float scale (OpenDP's sampler, Canonne, Kamath, Steinke 2020): no float sampler "
                       "to model", [])
    if name == "make_gaussian":
        return Adapted(UnboundedLoss("integer plus discrete Gaussian noise", str(hi), str(lo), f"y -> +inf: the ratio "
                                     f"exp(((y - {lo})^2 - (y - {hi})^2) / (2 scale^2)) has no bound",
                                     params=_gauss(lo, hi, 0, b, 1)), label,
                       "exact discrete Gaussian (OpenDP's sampler, Canonne, Kamath, Steinke 2020)", {}, None,
                       ["Gaussian noise has no finite eps for eps-LDP: the privacy loss grows linearly in |y| (it is "
                        "(eps, delta)- or zCDP-private: OpenDP's map is for ZeroConcentratedDivergence)"])
    return Adapted(DiscreteLaplaceShift(hi - lo + 1, b, lo=lo), label, "exact discrete Laplace with the rational value "
                   "of the float scale (OpenDP's sampler, Canonne, Kamath, Steinke 2020): no float sampler to model",
                   {}, None)


def _float_noise(name, bounds, b: float, k, n: int | None = None) -> Adapted:
    """Float inputs in [lower, upper]: rounded to the 2^k lattice, then exact integer noise of scale b 2^-k."""
    try:
        lo, hi = (float(v) for v in bounds)
    except (TypeError, ValueError):
        raise InputError(f"bounds = {bounds!r} must be two finite numbers lower < upper (the float inputs)") from None
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise InputError(f"bounds = {bounds!r} must be two finite numbers lower < upper (the float inputs)")
    try:
        kk = K_MIN_F64 if k is None else int(k)
    except (TypeError, ValueError):
        raise InputError(f"k = {k!r} is not an integer") from None
    if kk < K_MIN_F64 or kk > 1023:
        raise InputError(f"k = {kk} must be in [{K_MIN_F64}, 1023] (OpenDP refuses k below {K_MIN_F64} for float64)")
    i_lo, i_hi = lattice_index(lo, kk), lattice_index(hi, kk)
    label = f"opendp {_version('opendp')} {name} (floats in [{lo!r}, {hi!r}], scale {b!r}, k = {kk})"
    samp = (f"exact: x rounded to the nearest multiple of 2^{kk} (ties up), discrete "
            f"{'Gaussian' if name == 'make_gaussian' else 'Laplace'} noise of scale {b!r} 2^{-kk} (rational) added to "
            "the index, the lattice point returned as a float (post-processing); OpenDP's float sampler is exact")
    notes = [f"k = {kk}{' (OpenDP default for float64: the lattice of all floats, no rounding)' if k is None else ''}; "
             f"{lattice_text(lo, hi, kk)}"]
    if n is not None:
        return _vector(name, lo, hi, b, n, kk, label, samp.replace("added to the index", "added to each coordinate's "
                                                                    "index"), notes)
    if name == "make_gaussian":
        st = UnboundedLoss("float plus discrete Gaussian noise on the 2^k lattice", repr(hi), repr(lo),
                           "y -> +inf: the ratio exp(((y - i')^2 - (y - i)^2) / (2 (scale 2^-k)^2)) has no bound",
                           constant=i_lo == i_hi, params=_gauss(lo, hi, kk, b, 1))
        notes.append("Gaussian noise has no finite eps for eps-LDP (OpenDP's map is for ZeroConcentratedDivergence)"
                     if i_lo != i_hi else "both bounds round to the same lattice point: the output law is constant")
        return Adapted(st, label, samp, {}, None, notes)
    return Adapted(LatticeLaplace(i_hi - i_lo + 1, b, lower=lo, upper=hi, k=kk), label, samp, {}, None, notes)


def _threshold(name, params) -> Adapted:
    """``make_laplace_threshold`` / ``make_gaussian_threshold``: a map's keys whose noisy value passes the threshold
    are released; as a local randomiser on maps over a key set, a key held by one input only is released with
    positive probability under that input and never under the other: eps = inf."""
    scale, thr = params.pop("scale", None), params.pop("threshold", None)
    _left(params, f"opendp {name}")
    b = _scale(scale)
    try:
        t = float(thr)
    except (TypeError, ValueError):
        raise InputError(f"threshold = {thr!r} is not a number") from None
    st = UnboundedLoss("threshold release of a map's keys", "{key: v}", "{} (the key absent)",
                       "an output that contains the key (probability > 0 under x, 0 under x')",
                       params={"threshold-release": {"noise": name.split("_")[1], "scale": b, "threshold": t}})
    return Adapted(st, f"opendp {_version('opendp')} {name} (scale {b!r}, threshold {t!r})",
                   "exact noise; the key set of the output is the evidence (no sampler detail matters)", {}, None,
                   ["a threshold release is (eps, delta)-DP, not eps-DP: for eps-LDP on maps whose key sets differ, "
                    "eps = inf"])


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


def _scores(text) -> list:
    """The inputs of noisy max: score vectors as "a,b;c,d" (one input per ';') or a list of lists, read exactly
    (a float is the binary rational it denotes)."""
    rows = [r.split(",") for r in str(text).split(";")] if isinstance(text, str) else text
    try:
        out = [tuple(Fraction(str(v).strip()) if isinstance(v, str) else Fraction(v) for v in r) for r in rows]
    except (TypeError, ValueError, ZeroDivisionError):
        raise InputError(f"scores = {text!r} must be score vectors of numbers, one input per ';'") from None
    if len(out) < 2 or len({len(r) for r in out}) != 1 or len(out[0]) < 2 or len(out) > 256 or len(out[0]) > 32:
        raise InputError(f"scores = {text!r} must list 2..256 inputs, each a vector of 2..32 scores of one length")
    if any(not math.isfinite(float(v)) for r in out for v in r):
        raise InputError(f"scores = {text!r} must be finite")
    return out


def _noisy_max(name, params) -> Adapted:
    """``make_noisy_max`` (``output_measure`` MaxDivergence: exponential noise; ZeroConcentratedDivergence: Gumbel)
    and the deprecated ``make_report_noisy_max_gumbel`` (OpenDP 0.16 routes it to make_noisy_max with MaxDivergence:
    exponential noise, whatever its name) on a finite list of score vectors."""
    scores, scale = _scores(params.pop("scores", None)), _scale(params.pop("scale", None))
    measure = str(params.pop("output_measure", "MaxDivergence")).replace("()", "").strip()
    negate = params.pop("negate", False)
    optimize = params.pop("optimize", None)
    _left(params, f"opendp {name}")
    if optimize is not None:
        if str(optimize) not in ("max", "min"):
            raise InputError(f"optimize = {optimize!r} must be max or min")
        negate = str(optimize) == "min"
    norm = measure.lower().replace("_", "")
    if norm not in ("maxdivergence", "zeroconcentrateddivergence"):
        raise InputError(f"output_measure = {measure!r} must be MaxDivergence or ZeroConcentratedDivergence")
    noise = "gumbel" if norm == "zeroconcentrateddivergence" and name == "make_noisy_max" else "exponential"
    st = NoisyArgmax(scores, scale, noise, bool(negate))
    notes = [f"{len(scores)} inputs (the score vectors given), {len(scores[0])} indices; every index has positive "
             "probability, so eps is finite; the ratio is a certified enclosure (irrational probabilities)"]
    if name == "make_report_noisy_max_gumbel":
        notes.append("OpenDP 0.16's make_report_noisy_max_gumbel is deprecated and calls make_noisy_max with "
                     "MaxDivergence: its noise is exponential, not Gumbel (checked against its sampler in the tests)")
    law = ("permute-and-flip: Pr[i] = p_i int_0^1 prod_(j != i) (1 - p_j t) dt, p_j = e^((s_j - s*)/scale)"
           if noise == "exponential" else "softmax: Pr[i] = e^(s_i/scale) / sum_j e^(s_j/scale)")
    return Adapted(st, f"opendp {_version('opendp')} {name} ({noise} noise, scale {scale!r}"
                   f"{', argmin' if negate else ''})", f"exact {noise} noise (OpenDP's sampler); the argmax law is "
                   f"{law}", {}, None, notes)


def _noisy_top_k(params) -> Adapted:
    """``make_noisy_top_k`` on a finite list of score vectors: Gumbel noise (ZeroConcentratedDivergence) has the
    Plackett-Luce law of the ordered top k; exponential noise (MaxDivergence) is sampled by OpenDP 0.16 as k rounds of
    permute-and-flip, each on the scores not yet selected (``peel_permute_and_flip``), whose law is the product of
    the rounds' argmax laws (:class:`~rldp_verify.structured.noise.NoisyTopK`); k = 1 is noisy max."""
    try:
        k = int(params.pop("k", None))
    except (TypeError, ValueError):
        raise InputError("opendp make_noisy_top_k needs an integer k >= 1") from None
    a = _noisy_max("make_noisy_max", params)
    st = a.structure
    n = len(st.inputs[0])
    if not 1 <= k <= n:
        raise InputError(f"k = {k} must be in [1, {n}] (the number of scores)")
    if k == 1:
        return a
    if math.perm(n, k) > 20000:
        raise InputError(f"k = {k} of {n} scores gives {math.perm(n, k)} ordered outputs (at most 20000)")
    top = NoisyTopK(st.inputs, st.scale, st.noise, st.negate, k=k)
    samp = ("exact Gumbel noise (OpenDP's sampler); the ordered top k has the Plackett-Luce law "
            "Pr[(i_1..i_k)] = prod_m w_(i_m) / (sum_j w_j - sum_(l<m) w_(i_l)), w_j = e^(s_j/scale)"
            if st.noise == "gumbel" else
            "exact: OpenDP 0.16 peels (peel_permute_and_flip), k rounds of permute-and-flip with fresh randomness "
            "(exact Bernoulli(e^(-(s* - s_i)/scale)) draws), each on the scores not yet selected: Pr[(i_1..i_k)] = "
            "prod_m PF(i_m | the scores left), PF(i | v) = p_i int_0^1 prod_(j != i) (1 - p_j t) dt, "
            "p_j = e^((v_j - max v)/scale); not the sorted order of one exponential draw")
    return Adapted(top, a.name.replace("make_noisy_max (", f"make_noisy_top_k (k = {k}, ", 1), samp,
                   {}, None, [f"{len(st.inputs)} inputs, {math.perm(n, k)} ordered outputs (k = {k} of {n} indices); "
                              "every output has positive probability; the ratio is a certified enclosure"])


def _one_line(obj, attr) -> str:
    try:
        return " ".join(str(getattr(obj, attr)).split())
    except Exception:        # an attribute the installed OpenDP does not have: say so, do not fail on it
        return "?"


def _opendp(obj, name, ev: _Events, params) -> Adapted:
    params = dict(params)
    if name == "make_randomized_response_bitvec":
        return _bitvec(params)
    if name in NOISE:
        return _noise(name, params)
    if name in THRESHOLDS:
        return _threshold(name, params)
    if name == "make_randomized_response":
        k, labels, p = _categories(params)
    elif name == "make_randomized_response_bool":
        k, labels, p = _boolean(params)
    elif type(obj).__name__ == "Measurement":
        raise InputError(f"unsupported opendp Measurement (input domain {_one_line(obj, 'input_domain')}, input metric "
                         f"{_one_line(obj, 'input_metric')}, output measure {_one_line(obj, 'output_measure')}): its "
                         "sampler's parameters are not exposed through the Python API; pass the constructor instead, "
                         "e.g. adapt(dp.m.make_laplace, bounds=(0.0, 1.0), scale=1.0)")
    elif name in ("make_noisy_max", "make_report_noisy_max_gumbel"):
        return _noisy_max(name, params)
    elif name == "make_noisy_top_k":
        return _noisy_top_k(params)
    else:
        raise InputError(f"unsupported opendp object {name!r} (supported: make_randomized_response, "
                         "make_randomized_response_bool, make_randomized_response_bitvec, make_laplace, "
                         "make_geometric and make_gaussian on integers or floats (scalars, or vectors with size), "
                         "make_laplace_threshold, "
                         "make_gaussian_threshold)")

    def rebuild(f):
        a = Fraction(f["prob"])
        return Symmetric(k, a, (1 - a) / (k - 1), labels=labels)
    return Adapted(rebuild({"prob": p}), f"opendp {_version('opendp')} {name}",
                   "exact Bernoulli(prob) and uniform draws (OpenDP samples exactly from the rational value of "
                   "the float prob)", {"prob": p}, rebuild)
