"""Adapters named ``LIBRARY:NAME`` with text parameters (the CLI's ``--adapter`` / ``--param``):
:func:`adapt_spec`, :func:`from_spec` (dense channel) and :func:`sampler_spec` (the library's own randomiser,
for the black-box audit)."""

from __future__ import annotations

import math

from rldp_verify.adapters.dispatch import adapt, dense_mechanism
from rldp_verify.core.errors import InputError
from rldp_verify.rldp.mechio import Mechanism
from rldp_verify.structured import Adapted, PublicMixture


def _pure_ldp_build(name):
    def build(**kw):
        import pure_ldp.frequency_oracles as fo

        eps, d = float(kw.pop("epsilon", 0) or 0), int(kw.pop("d"))
        im = {"index_mapper": lambda x: x}
        if name in ("RAPPORClient", "CMSClient", "SketchResponseClient", "PCSClient"):
            return _sketch_build(name, fo, eps, d, kw)
        if name == "UEClient":
            obj = fo.UEClient(eps, d, use_oue=bool(kw.pop("use_oue", False)), **im)
        elif name == "HadamardResponseClient":
            import numpy as np

            obj = fo.HadamardResponseClient(eps, d, np.arange(d), **im)    # identity permutation (eps > 1)
        elif name == "HadamardMechClient":
            obj = fo.HadamardMechClient(eps, d, int(kw.pop("t")), **im)
        elif name == "FastLHClient":
            obj = fo.FastLHClient(eps, d, int(kw.pop("k")), g=int(kw.pop("g", 2)),
                                  use_olh=bool(kw.pop("use_olh", False)), **im)
        elif name == "LHClient":
            obj = fo.LHClient(eps, d, g=int(kw.pop("g", 2)), use_olh=bool(kw.pop("use_olh", False)), **im)
        else:
            obj = getattr(fo, name)(eps, d, **im)
        return obj, kw
    return build


def _sketch_build(name, fo, eps, d, kw):
    """RAPPOR with cohort c's hash functions ``generate_hash(m, c * num_hashes + i)`` (deterministic seeds: the
    server draws them at random) and CMS with ``generate_hash_funcs(num_hashes, m)`` (as CMSServer does); ``d`` is
    left for the adapter (the clients do not know it)."""
    from pure_ldp.core import generate_hash, generate_hash_funcs

    if name == "PCSClient":
        n_rows, w = int(kw.pop("l")), int(kw.pop("w"))
        return fo.PCSClient(eps, n_rows, w, list(zip(generate_hash_funcs(n_rows, w), generate_hash_funcs(n_rows, 2),
                                                strict=True))), {**kw, "d": d}
    m, h = int(kw.pop("m")), int(kw.pop("num_hashes"))
    if name == "SketchResponseClient":
        cs = bool(kw.pop("count_sketch", False))
        funcs = list(zip(generate_hash_funcs(h, m), generate_hash_funcs(h, 2), strict=True)) if cs else \
            generate_hash_funcs(h, m)
        obj = fo.SketchResponseClient(eps, m, funcs, lh_k=int(kw.pop("lh_k", 100)), count_sketch=cs,
                                      index_mapper=lambda x: x)        # inputs: the indices 0..d-1, as the adapter
        return obj, {**kw, "d": d}
    if name == "RAPPORClient":
        n = int(kw.pop("num_of_cohorts", 8))
        fam = [[generate_hash(m, c * h + i) for i in range(h)] for c in range(n)]
        obj = fo.RAPPORClient(float(kw.pop("f")), m, fam, num_of_cohorts=n, index_mapper=lambda x: x)
    else:
        obj = fo.CMSClient(eps, generate_hash_funcs(h, m), m, is_hadamard=bool(kw.pop("is_hadamard", False)))
    return obj, {**kw, "d": d}


def _pem_build(**kw):
    """PEM with its defaults (binary alphabet, the inner LHClient with OLH)."""
    from pure_ldp.heavy_hitters import PEMClient

    return PEMClient(float(kw.pop("epsilon")), int(kw.pop("start_length")), int(kw.pop("max_string_length")),
                     int(kw.pop("fragment_length"))), kw


# the frequency oracles a heavy hitter's ``fo`` may name (the adapter refuses, naming why, those it cannot audit)
FO_CLIENTS = ("LHClient", "FastLHClient", "DEClient", "UEClient", "HEClient", "SketchResponseClient", "CMSClient",
              "RAPPORClient", "HadamardResponseClient", "HadamardMechClient")


def _fo_client(owner: str, eps: float, d: int, fo: str, items: list):
    """The heavy hitter's inner frequency-oracle client ``fo`` (``pure-ldp:NAME`` or ``NAME``) built from the
    ``fo.KEY=VALUE`` items with the spec of ``pure-ldp:NAME``; its epsilon and d are the heavy hitter's to set
    (eps / 2 and its own domain, by ``update_params``), so ``fo.epsilon`` / ``fo.d`` are refused."""
    name = fo.split(":", 1)[1].strip() if fo.startswith("pure-ldp:") else fo.strip()
    if name not in FO_CLIENTS:
        raise InputError(f"--param fo={fo!r}: not a pure-ldp frequency oracle (one of {', '.join(FO_CLIENTS)})")
    _, _, build, types = _lookup(f"pure-ldp:{name}")
    for item in items:
        k = item.split("=", 1)[0].strip()
        if k in ("epsilon", "d"):
            raise InputError(f"--param fo.{k}: set by {owner} (the inner client runs at epsilon / 2 on the heavy "
                             "hitter's own domain)")
    fixed = [f"d={d}"] + ([f"epsilon={eps}"] if "epsilon" in types else [])
    kv = _parse("pure-ldp", name, types, items + fixed, prefix="fo.")
    try:
        obj, _ = build(**kv)
    except InputError:
        raise
    except Exception as exc:
        raise InputError(f"--param fo={name}: pure-ldp could not build it ({type(exc).__name__}: {exc})") from None
    return obj


def _hh_build(cls: str):
    """TreeHist / SFP (binary alphabet) over ``--param fo=NAME`` and its ``fo.KEY=VALUE`` parameters; TreeHist's
    default is the library's own (LHClient with OLH), SFP has none (the library needs one). A client that is not
    sketch-based gets ``sketch_based = False`` (SFPClient reads the attribute, which only the sketch clients set:
    a user of SFP must set it), and over a sketch-based client SFP's index_mapper keeps the strings (the sketch
    hashes them; the default binary mapper cannot read SFP's fragment string 'hash_substring')."""
    def build(**kw):
        from pure_ldp import heavy_hitters as hh

        eps, N, L = float(kw.pop("epsilon")), int(kw.pop("fragment_length")), int(kw.pop("max_string_length"))
        fo, items = kw.pop("fo", None), kw.pop("fo_params", [])
        if fo is None:
            if items:
                raise InputError(f"--param fo.{items[0].split('=', 1)[0]} needs --param fo=CLIENT")
            if cls == "SFPClient":
                raise InputError("pure-ldp:SFPClient needs --param fo=CLIENT (the library has no default frequency "
                                 f"oracle for SFP; one of {', '.join(FO_CLIENTS)})")
            return hh.TreeHistClient(eps, N, L), kw
        if N < 1 or L < 1:
            raise InputError(f"pure-ldp:{cls}: fragment_length = {N} and max_string_length = {L} must be >= 1")
        inner = _fo_client(f"pure-ldp:{cls}", eps, 2**L, fo, items)
        sketch = bool(getattr(inner, "sketch_based", False))
        if not sketch:
            inner.sketch_based = False
        try:
            if cls == "SFPClient":
                return hh.SFPClient(eps, N, L, index_mapper=(lambda s: s) if sketch else None, fo_client=inner), kw
            return hh.TreeHistClient(eps, N, L, fo_client=inner), kw
        except Exception as exc:
            raise InputError(f"pure-ldp:{cls} over {type(inner).__name__}: the library raised {type(exc).__name__}: "
                             f"{exc}") from None
    return build


def _mfl_build(module, name):
    def build(**kw):
        import importlib

        return getattr(importlib.import_module(module), name), kw
    return build


def _odp_build(name):
    def build(**kw):
        import opendp.prelude as dp

        return getattr(dp.m, name), kw
    return build


_PF, _LF = "multi_freq_ldpy.pure_frequency_oracles", "multi_freq_ldpy.long_freq_est"
_MD, _LM = "multi_freq_ldpy.mdim_freq_est", "multi_freq_ldpy.long_mdim_freq_est"
_KE = {"k": int, "epsilon": float}
_KL = {"k": int, "eps_perm": float, "eps_1": float}
SPECS = {
    ("pure-ldp", "UEClient"): (_pure_ldp_build("UEClient"), {"epsilon": float, "d": int, "use_oue": bool}),
    ("pure-ldp", "DEClient"): (_pure_ldp_build("DEClient"), {"epsilon": float, "d": int}),
    ("pure-ldp", "LHClient"): (_pure_ldp_build("LHClient"), {"epsilon": float, "d": int, "g": int, "use_olh": bool}),
    ("pure-ldp", "HEClient"): (_pure_ldp_build("HEClient"), {"epsilon": float, "d": int}),
    ("pure-ldp", "FastLHClient"): (_pure_ldp_build("FastLHClient"), {"epsilon": float, "d": int, "k": int, "g": int,
                                                                     "use_olh": bool}),
    ("pure-ldp", "RAPPORClient"): (_pure_ldp_build("RAPPORClient"), {"f": float, "m": int, "num_hashes": int,
                                                                     "num_of_cohorts": int, "d": int}),
    ("pure-ldp", "CMSClient"): (_pure_ldp_build("CMSClient"), {"epsilon": float, "m": int, "num_hashes": int,
                                                               "d": int, "is_hadamard": bool}),
    ("pure-ldp", "SketchResponseClient"): (_pure_ldp_build("SketchResponseClient"),
                                           {"epsilon": float, "m": int, "num_hashes": int, "lh_k": int,
                                            "count_sketch": bool, "d": int}),
    ("pure-ldp", "PCSClient"): (_pure_ldp_build("PCSClient"), {"epsilon": float, "l": int, "w": int, "d": int}),
    ("pure-ldp", "PEMClient"): (_pem_build, {"epsilon": float, "start_length": int, "max_string_length": int,
                                             "fragment_length": int}),
    ("pure-ldp", "TreeHistClient"): (_hh_build("TreeHistClient"), {"epsilon": float, "fragment_length": int,
                                                                   "max_string_length": int, "fo": str}),
    ("pure-ldp", "SFPClient"): (_hh_build("SFPClient"), {"epsilon": float, "fragment_length": int,
                                                         "max_string_length": int, "fo": str}),
    ("pure-ldp", "HadamardResponseClient"): (_pure_ldp_build("HadamardResponseClient"), {"epsilon": float, "d": int}),
    ("pure-ldp", "HadamardMechClient"): (_pure_ldp_build("HadamardMechClient"), {"epsilon": float, "d": int,
                                                                                 "t": int}),
    ("multi-freq-ldpy", "GRR_Client"): (_mfl_build(f"{_PF}.GRR", "GRR_Client"), _KE),
    ("multi-freq-ldpy", "UE_Client"): (_mfl_build(f"{_PF}.UE", "UE_Client"), {**_KE, "optimal": bool}),
    ("multi-freq-ldpy", "LH_Client"): (_mfl_build(f"{_PF}.LH", "LH_Client"), {**_KE, "optimal": bool}),
    ("multi-freq-ldpy", "SS_Client"): (_mfl_build(f"{_PF}.SS", "SS_Client"), {**_KE, "as_set": bool}),
    ("multi-freq-ldpy", "HE_Client"): (_mfl_build(f"{_PF}.HE", "HE_Client"), _KE),
    **{("multi-freq-ldpy", f"L_{n}_Client"): (_mfl_build(f"{_LF}.L_{n}", f"L_{n}_Client"), _KL)
       for n in ("GRR", "SUE", "OUE", "OSUE", "SOUE")},
    **{("multi-freq-ldpy", f"SMP_{n}_Client"): (_mfl_build(f"{_MD}.SMP_solution", f"SMP_{n}_Client"),
                                               {"lst_k": list, "epsilon": float, "d": int,
                                                **({"optimal": bool} if n in ("UE", "LH") else {})})
       for n in ("GRR", "UE", "LH", "SS")},
    ("multi-freq-ldpy", "RSpFD_GRR_Client"): (_mfl_build(f"{_MD}.RSpFD_solution", "RSpFD_GRR_Client"),
                                             {"lst_k": list, "epsilon": float, "d": int}),
    ("multi-freq-ldpy", "RSpFD_UE_zero_Client"): (_mfl_build(f"{_MD}.RSpFD_solution", "RSpFD_UE_zero_Client"),
                                                 {"lst_k": list, "epsilon": float, "d": int, "optimal": bool}),
    ("multi-freq-ldpy", "RSpFD_UE_rnd_Client"): (_mfl_build(f"{_MD}.RSpFD_solution", "RSpFD_UE_rnd_Client"),
                                                {"lst_k": list, "epsilon": float, "d": int, "optimal": bool}),
    ("multi-freq-ldpy", "RSpFD_ADP_Client"): (_mfl_build(f"{_MD}.RSpFD_solution", "RSpFD_ADP_Client"),
                                             {"lst_k": list, "epsilon": float, "d": int, "optimal": bool}),
    ("multi-freq-ldpy", "SMP_ADP_Client"): (_mfl_build(f"{_MD}.SMP_solution", "SMP_ADP_Client"),
                                           {"lst_k": list, "epsilon": float, "d": int, "optimal": bool}),
    **{("multi-freq-ldpy", f"SPL_{n}_Client"): (_mfl_build(f"{_MD}.SPL_solution", f"SPL_{n}_Client"),
                                               {"lst_k": list, "epsilon": float, "d": int,
                                                **({"optimal": bool} if n in ("UE", "LH", "ADP") else {})})
       for n in ("GRR", "UE", "LH", "SS", "ADP")},
    **{("multi-freq-ldpy", f"{a}_{n}"): (_mfl_build(f"{_LM}.L_{a}_Solution", f"{a}_{n}"),
                                        {"lst_k": list, "d": int, "eps_perm": float, "eps_1": float})
       for a in ("SMP", "SPL") for n in ("L_GRR_Client", "L_OUE_Client", "L_OSUE_Client", "L_SUE_Client",
                                          "L_SOUE_Client", "L_ADP_Client")},
    **{("multi-freq-ldpy", f"{a}_dBitFlipPM_Client"): (_mfl_build(f"{_LM}.L_{a}_Solution", f"{a}_dBitFlipPM_Client"),
                                                      {"lst_k": list, "lst_b": list, "d_bits": int, "d": int,
                                                       "eps_perm": float})
       for a in ("SMP", "SPL")},
    ("multi-freq-ldpy", "ADP_Client"): (_mfl_build(f"{_PF}.ADP", "ADP_Client"), {**_KE, "optimal": bool}),
    ("multi-freq-ldpy", "L_ADP_Client"): (_mfl_build(f"{_LF}.L_ADP", "L_ADP_Client"), _KL),
    ("multi-freq-ldpy", "L_LH_Client"): (_mfl_build(f"{_LF}.L_LH", "L_LH_Client"), {**_KL, "optimal": bool}),
    ("multi-freq-ldpy", "dBitFlipPM_Client"): (_mfl_build(f"{_LF}.dBitFlipPM", "dBitFlipPM_Client"),
                                              {"k": int, "b": int, "d_bits": int, "eps_perm": float}),
    ("opendp", "make_randomized_response"): (_odp_build("make_randomized_response"),
                                             {"categories": list, "prob": float}),
    ("opendp", "make_randomized_response_bool"): (_odp_build("make_randomized_response_bool"), {"prob": float}),
    ("opendp", "make_randomized_response_bitvec"): (_odp_build("make_randomized_response_bitvec"),
                                                    {"n_bits": int, "max_weight": int, "f": float}),
    ("opendp", "make_laplace"): (_odp_build("make_laplace"), {"bounds": list, "scale": float, "T": str, "k": int,
                                                              "size": int}),
    ("opendp", "make_gaussian"): (_odp_build("make_gaussian"), {"bounds": list, "scale": float, "T": str, "k": int,
                                                                "size": int}),
    ("opendp", "make_noisy_max"): (_odp_build("make_noisy_max"), {"scores": str, "scale": float,
                                                                 "output_measure": str, "negate": bool}),
    ("opendp", "make_noisy_top_k"): (_odp_build("make_noisy_top_k"), {"scores": str, "scale": float, "k": int,
                                                                     "output_measure": str, "negate": bool}),
    **{("opendp", n): (_odp_build(n), {"scale": float, "threshold": float})
       for n in ("make_laplace_threshold", "make_gaussian_threshold")},
    ("opendp", "make_geometric"): (_odp_build("make_geometric"), {"bounds": list, "scale": float, "size": int}),
}
_OPTIONAL = ("size", "use_oue", "optimal", "g", "use_olh", "as_set", "num_of_cohorts", "is_hadamard", "lh_k",
             "count_sketch", "fo")


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


def _items(params: dict | list | None) -> list:
    """``params`` as a list of "k=v" texts."""
    return list(params or []) if not isinstance(params, dict) else [f"{k}={v}" for k, v in params.items()]


def _lookup(spec: str):
    """(lib, name, build, types) of ``LIBRARY:NAME``."""
    if ":" not in str(spec):
        raise InputError(f"adapter {spec!r} must be LIBRARY:NAME, e.g. pure-ldp:UEClient")
    lib, name = (s.strip() for s in str(spec).split(":", 1))
    if (lib, name) not in SPECS:
        known = ", ".join(f"{a}:{b}" for a, b in SPECS)
        raise InputError(f"unknown adapter {spec!r} (known: {known})")
    build, types = SPECS[(lib, name)]
    return lib, name, build, types


def _parse(lib: str, name: str, types: dict, params: dict | list | None, prefix: str = "") -> dict:
    """The parameters of ``lib:name`` converted to their types; a missing required one is refused. With a ``fo``
    parameter (a heavy hitter's inner client), the ``fo.KEY=VALUE`` items are kept as ``fo_params`` (unparsed:
    their types are the inner client's, :func:`_fo_client`); ``prefix`` names the items in messages."""
    kv: dict = {}
    for item in _items(params):
        if "=" not in item:
            raise InputError(f"--param {prefix + item!r} must be NAME=VALUE")
        k, v = item.split("=", 1)
        k = k.strip()
        if "fo" in types and k.startswith("fo."):
            kv.setdefault("fo_params", []).append(f"{k[3:]}={v}")
            continue
        if k not in types:
            shown = [prefix + t for t in types if not (prefix and t in ("epsilon", "d"))]
            raise InputError(f"--param {prefix + k!r} is not a parameter of {lib}:{name} (parameters: "
                             f"{', '.join(shown)}{', fo.KEY' if 'fo' in types else ''})")
        kv[k] = _convert(prefix + k, v, types[k])
    multidim = name.startswith(("SMP_", "RSpFD_", "SPL_"))   # d defaults to len(lst_k)
    lattice = lib == "opendp" and name in ("make_laplace", "make_gaussian")    # T and k: OpenDP's defaults
    missing = [k for k in types if k not in kv and k not in _OPTIONAL and not (k == "d" and multidim)
               and not (lattice and k in ("T", "k")) and not (lib == "opendp" and k in ("output_measure", "negate"))]
    if missing:
        raise InputError(f"{lib}:{name} needs --param {prefix}{missing[0]}=...")
    return kv


def adapt_spec(spec: str, params: dict | list | None = None, *, model: str = "code") -> Adapted:
    """The :class:`Adapted` channel of ``LIBRARY:NAME`` built with ``params`` ({name: text} or ["k=v", ...]),
    e.g. ``adapt_spec("pure-ldp:UEClient", ["epsilon=0.25", "d=65536", "use_oue=true"])``."""
    lib, name, build, types = _lookup(spec)
    kv = _parse(lib, name, types, params)
    try:
        obj, rest = build(**kv)
    except ImportError:
        raise InputError(f"the library {lib!r} is not installed (pip install 'rldp-verify[{lib}]')") from None
    return adapt(obj, model=model, **rest)


def _hashable(out):
    import numpy as np

    if isinstance(out, np.ndarray):
        return tuple(v.item() for v in out)
    if isinstance(out, (tuple, list, zip)):
        return tuple(_hashable(v) for v in out)
    if isinstance(out, np.generic):
        return out.item()
    return out


# the positional arguments of multi-freq-ldpy's client functions after the value (longitudinal: k, eps_perm, eps_1)
_MFL_ARGS = {"GRR_Client": ("k", "epsilon"), "SS_Client": ("k", "epsilon"), "HE_Client": ("k", "epsilon"),
             "UE_Client": ("k", "epsilon", "optimal"), "LH_Client": ("k", "epsilon", "optimal"),
             "ADP_Client": ("k", "epsilon", "optimal"), "L_LH_Client": ("k", "eps_perm", "eps_1", "optimal"),
             "dBitFlipPM_Client": ("k", "b", "d_bits", "eps_perm")}


def sampler_spec(spec: str, params: dict | list | None = None):
    """The library's own randomiser for ``LIBRARY:NAME`` as ``(fn, g)``: ``fn(x)`` draws one report for the value
    index x (NumPy arrays as tuples), ``g`` the number of hash buckets for local hashing (else None), for the
    black-box audit (:func:`rldp_verify.blackbox.audit_sampler`)."""
    a = adapt_spec(spec, params)                 # validates the parameters and names what is audited
    lib, name, build, types = _lookup(spec)
    kv = _parse(lib, name, types, params)
    obj, rest = build(**kv)
    g = a.structure.g if type(a.structure) is PublicMixture else None     # plain local hashing: (bucket, seed)
    if lib == "pure-ldp" and name in ("PEMClient", "TreeHistClient", "SFPClient"):
        raise InputError(f"{spec}: inputs are strings; pass your own MODULE:CALLABLE for the black-box audit")
    if lib == "pure-ldp":
        def privatise(x):
            return _hashable(obj.privatise(x))
        return privatise, g
    if lib == "opendp":
        raise InputError("the black-box audit of OpenDP constructors is not wired; build the measurement and pass it "
                         "as MODULE:CALLABLE")
    if name.startswith(("SMP_", "RSpFD_", "SPL_")):
        raise InputError(f"{spec}: inputs are tuples; pass your own MODULE:CALLABLE for the black-box audit")
    names = _MFL_ARGS.get(name, ("k", "eps_perm", "eps_1"))
    defaults = {"optimal": True}
    args = [kv[n] if n in kv else defaults[n] for n in names]

    def fn(x):
        return _hashable(obj(x, *args))
    return fn, g


def from_spec(spec: str, params: dict | list | None = None, *, sizes=None, model: str = "code") -> Mechanism:
    """The dense channel of ``LIBRARY:NAME`` (small domains), e.g.
    ``from_spec("pure-ldp:UEClient", ["epsilon=0.25", "d=2", "use_oue=true"])``."""
    return dense_mechanism(adapt_spec(spec, params, model=model), sizes)
