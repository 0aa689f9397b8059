"""pure-ldp's sketch responses (``SketchResponseClient``), private count sketch (``PCSClient``) and the prefix-
extending heavy hitter (``PEMClient``) as structured exact channels (:mod:`rldp_verify.structured.sketch`); the
other heavy hitters are refused with the reason. The code of these clients is the same in pure-ldp 1.1.2 and 1.2.0.

- ``SketchResponseClient``: j = random.randint(0, k - 1) released, the inner frequency-oracle client (FastLH by
  default: seed random.randint(0, lh_k - 1), GRR on g buckets) applied to hash_funcs[j](x) (count sketch: to
  cs_map((h_j(x) + 1)(2 g_j(x) - 1)) on 2m values). The images are read by running ``privatise`` with the inner
  client replaced by a recorder and randint answered with j (its arguments checked). Inputs: the indices 0..d-1
  after the client's ``index_mapper``; pass ``d``.
- ``PCSClient``: j = np.random.randint(0, l) released; entries 2 binomial(1, 0.5) - 1 (NumPy's legacy binomial,
  counted exactly) and at h_j(x) the sign g_j(x) times random.choices([1, -1], weights=[bias, 1 - bias]) (counted
  exactly). Inputs: the items 0..d-1 (``str(x)`` is hashed); pass ``d``.
- ``PEMClient``: group j = random.randint(0, G - 1) released, the inner client (LHClient OLH by default) on the
  index of the prefix of length start + (j + 1) fragment of the padded string. Inputs: the strings of length
  ``max_string_length`` over the alphabet, numbered in base |alphabet| (first character most significant).
- ``TreeHistClient`` and ``SFPClient``: :mod:`rldp_verify.adapters.pure_ldp_treehist`, :mod:`~.pure_ldp_sfp`.
"""

from __future__ import annotations

import copy
import types

from rldp_verify.adapters._common import _d_param, _Events, _index_string, _size, xxhash_accepting_str
from rldp_verify.core.errors import InputError
from rldp_verify.structured import Adapted, SignedSketch, hashed_mixture
from rldp_verify.structured import samplers as sm

SKETCH = ("SketchResponseClient", "PCSClient", "PEMClient", "TreeHistClient", "SFPClient")
DENSE_SEEDS = 4


class _Recorder:
    """Stands for the inner frequency-oracle client: records what it is asked to privatise."""

    def __init__(self):
        self.seen: list = []

    def update_params(self, *args, **kwargs):
        return None

    def privatise(self, v):
        self.seen.append(v)
        return None


class _Images:
    """image(j, x): the inner client's argument when the public index is j, read by running ``privatise`` of a
    copy of the client with the inner client recorded and ``random.randint`` answering j (cached)."""

    def __init__(self, obj, module, n: int, label: str, arg=lambda x: x, after=lambda v: v):
        self.probe = copy.copy(obj)
        self.probe.client = self.rec = _Recorder()
        if hasattr(obj, "index_mapper") and type(obj).__name__ == "SketchResponseClient":
            self.probe.index_mapper = lambda v: v
        self.module, self.n, self.label, self.arg, self.after = module, n, label, arg, after
        self.cache: dict = {}

    def __call__(self, j, x):
        if (j, x) in self.cache:
            return self.cache[(j, x)]
        calls = []
        saved = self.module.random

        def randint(a, b):
            calls.append((a, b))
            return j
        self.module.random = types.SimpleNamespace(randint=randint)
        try:
            with xxhash_accepting_str("xxh64", 64):
                self.probe.privatise(self.arg(x))
        except InputError:
            raise
        except Exception as exc:      # a user-supplied hash function: any failure is bad input, named
            raise InputError(f"{self.label}: privatise raised {type(exc).__name__}: {exc}; the hash family cannot "
                             "be reproduced") from None
        finally:
            self.module.random = saved
        if calls != [(0, self.n - 1)] or len(self.rec.seen) != 1:
            raise InputError(f"{self.label} does not draw its public index as random.randint(0, {self.n - 1}) and "
                             "privatise once; unsupported version")
        v = self.after(self.rec.seen.pop())
        self.cache[(j, x)] = v
        return v


def _inner(client, d_in: int, ev: _Events, label: str, own_d: bool = False) -> Adapted:
    """The adapted inner client (its own d set to d_in while adapting). ``own_d``: d_in is the client's own d, as the
    code runs it (SFP, TreeHist); only then are the Hadamard clients, whose draws depend on d, modelled."""
    from rldp_verify.adapters.pure_ldp import _CLIENTS
    from rldp_verify.adapters.pure_ldp_more import _hm, _hr, _rappor

    cls = type(client).__name__
    if cls == "RAPPORClient" and own_d:       # hashes str(index): a Bloom filter on the indices 0..d_in-1
        from rldp_verify.adapters._common import _version

        return _rappor(client, _version("pure-ldp"), ev, {"d": d_in})
    hadamard = {"HadamardMechClient": _hm, "HadamardResponseClient": _hr}
    if cls not in _CLIENTS and (cls not in hadamard or not own_d or d_in != getattr(client, "d", None)):
        raise InputError(f"{label}: inner client {cls} has no exact sketch structure (supported: FastLHClient, "
                         "LHClient, DEClient, UEClient, HEClient; in SFP / TreeHist also HadamardMechClient, "
                         "HadamardResponseClient)")
    from rldp_verify.adapters._common import _version

    probe = copy.copy(client)
    probe.d = d_in
    probe.index_mapper = lambda v: v          # the images are the inner client's indices
    if cls in hadamard:                       # their draws depend on d: d_in must be the client's own (callers)
        return hadamard[cls](probe, _version("pure-ldp"), ev)
    return _CLIENTS[cls](probe, d_in, _version("pure-ldp"), ev)


def _wrap(inner: Adapted, d: int, indices, image, dense_indices, name, samp, notes) -> Adapted:
    rebuild = None
    if inner.rebuild is not None:
        inner_rebuild = inner.rebuild

        def rebuild(f):
            return hashed_mixture(d, indices, image, inner_rebuild(f), dense_indices=dense_indices)
    st = hashed_mixture(d, indices, image, inner.structure, dense_indices=dense_indices)
    return Adapted(st, name, samp, dict(inner.float_params), rebuild, notes + list(inner.notes))


def _sketch_response(obj, ver, ev: _Events, params, values=None) -> Adapted:
    """``values``: the client's indices numbered 0..d-1 (the inputs of the structure), default the indices 0..d-1."""
    import pure_ldp.frequency_oracles.sketch_response.sketch_response_client as mod

    label = f"pure-ldp {ver} SketchResponseClient"
    d = _d_param(params, label)
    k, m = _size(getattr(obj, "k", None), "k (number of hash functions)"), _size(getattr(obj, "m", None), "m")
    cs = bool(getattr(obj, "count_sketch", False))
    d_in = 2 * m if cs else m
    image = _Images(obj, mod, k, label, arg=(lambda x: x) if values is None else values.__getitem__)
    inner = _inner(obj.client, d_in, ev, label)
    dense = range(min(k, DENSE_SEEDS))
    samp = (f"j = random.randint(0, k - 1), k = {k} (uniform, released); the inner client on "
            f"{'cs_map((h_j(x) + 1)(2 g_j(x) - 1))' if cs else 'h_j(x)'}: {inner.sampler}")
    notes = [f"{k} hash functions onto {'2m' if cs else 'm'} = {d_in} values (the client's own), called as the code "
             "calls them"]
    if k > DENSE_SEEDS:
        notes.append(f"the dense channel keeps the first {DENSE_SEEDS} hash rows (uniform); the eps-LDP ratio uses "
                     "all of them")
    return _wrap(inner, d, range(k), image, dense, f"{label} ({'count sketch' if cs else 'count-mean sketch'}, "
                 f"k = {k}, m = {m}; inner {inner.name})", samp, notes)


def _pcs(obj, ver, ev: _Events, params) -> Adapted:
    label = f"pure-ldp {ver} PCSClient"
    d = _d_param(params, label)
    w, rows = _size(getattr(obj, "w", None), "w"), int(getattr(obj, "l", 0))
    funcs = list(getattr(obj, "hash_funcs", []))
    if rows < 1 or len(funcs) < rows:
        raise InputError(f"{label}: hash_funcs must hold l = {rows} pairs (h, g)")
    _pcs_check(obj, w)
    cache: dict = {}

    def key(j, x):
        if (j, x) not in cache:
            try:
                with xxhash_accepting_str("xxh64", 64):
                    h, g = int(funcs[j][0](str(x))), 2 * int(funcs[j][1](str(x))) - 1
            except Exception as exc:
                raise InputError(f"{label}: hash pair {j} raised {type(exc).__name__}: {exc}; the hash family cannot "
                                 "be reproduced") from None
            if not 0 <= h < w or g not in (-1, 1):
                raise InputError(f"{label}: hash pair {j} maps {x} to ({h}, {g}), outside 0..{w - 1} x {{-1, 1}}")
            cache[(j, x)] = (h, g)
        return cache[(j, x)]

    def rebuild(f):
        hot = ev("choices", f["bias"])
        cold = sm.prob_binomial1(0.5, "numpy") if ev.model == "code" else sm.ideal(0.5)
        return SignedSketch(d, w, rows, hot, cold, key)
    fp = {"bias": float(obj.bias)}
    samp = ("j = np.random.randint(0, l) (uniform, released); other entries 2 np.random.binomial(1, 0.5) - 1 (NumPy's "
            "legacy binomial: Pr[+1] = (2^52 - 1)/2^53, counted exactly); the entry at h_j(x) is g_j(x) times "
            "random.choices([1, -1], weights=[bias, 1 - bias]) (+1 iff fl(U total) < bias, counted exactly)"
            if ev.model == "code" else "exact Bernoulli(bias) and fair coins (ideal)")
    return Adapted(rebuild(fp), f"{label} (l = {rows} rows, w = {w})", samp, fp, rebuild,
                   [f"{rows} hash pairs (h onto {w}, g onto 2) of the client, called on str(x) as the code does"])


def _pcs_check(obj, w: int) -> None:
    """``_perturb((h, s))`` draws ``np.random.binomial(1, 0.5, w)`` and ``random.choices([1, -1], weights=[bias,
    1 - bias])`` once each, and sets entry h to s times the choice (else the code is not the one modelled)."""
    import random

    import numpy as np

    calls: list = []
    saved = np.random.binomial, random.choices

    def binomial(n, p, size=None):
        calls.append(("binomial", n, p, size))
        return np.ones(size, dtype=int)

    def choices(pop, weights=None, **kw):
        calls.append(("choices", list(pop), list(weights or [])))
        return [pop[1]]
    np.random.binomial, random.choices = binomial, choices  # type: ignore[assignment]
    try:
        out = [int(v) for v in obj._perturb((0, 1))]
    finally:
        np.random.binomial, random.choices = saved
    want = [("binomial", 1, 0.5, w), ("choices", [1, -1], [obj.bias, 1 - obj.bias])]
    if calls != want or out != [-1] + [1] * (w - 1):
        raise InputError("pure-ldp PCSClient does not draw as 1.1.2 / 1.2.0 do; unsupported version")


def _pem(obj, ver, ev: _Events, params) -> Adapted:
    import pure_ldp.heavy_hitters.prefix_extending.pem_client as mod

    label = f"pure-ldp {ver} PEMClient"
    if params:
        raise InputError(f"{label} carries its own parameters; unexpected {', '.join(sorted(params))}")
    alphabet, L = list(obj.alphabet), int(obj.max_string_length)
    G = _size(getattr(obj, "g", None), "g (number of groups)") if getattr(obj, "g", 0) != 1 else 1
    d = len(alphabet) ** L
    if d < 2 or d > 2**24:
        raise InputError(f"{label}: |alphabet|^max_string_length = {d} inputs; the audit handles 2..2^24")

    string = _index_string(alphabet, L)
    client = obj.client
    image = _Images(obj, mod, G, label, arg=string, after=lambda frag: int(client.index_mapper(frag)))
    inner = _inner(client, d, ev, label)
    if type(inner.structure).__name__ != "PublicMixture":
        raise InputError(f"{label}: the inner client {type(client).__name__} changes with each group's domain size; "
                         "only local hashing (the default, whose channel does not depend on d) is supported")
    samp = (f"group j = random.randint(0, {G} - 1) (uniform, released); the inner client on the index of the prefix of "
            f"length {obj.start_length} + (j + 1) {obj.fragment_length}: {inner.sampler}")
    return _wrap(inner, d, range(G), image, range(G), f"{label} (alphabet {''.join(alphabet)}, length {L}, {G} "
                 f"groups; inner {inner.name})", samp, [f"inputs: the {d} strings of length {L}, numbered in base "
                                                       f"{len(alphabet)}"])


def _pure_ldp_sketch(obj, cls: str, ver, ev: _Events, params) -> Adapted:
    if cls == "SketchResponseClient":
        return _sketch_response(obj, ver, ev, dict(params))
    if cls == "PCSClient":
        return _pcs(obj, ver, ev, dict(params))
    if cls == "PEMClient":
        return _pem(obj, ver, ev, dict(params))
    if cls == "TreeHistClient":
        from rldp_verify.adapters.pure_ldp_treehist import _treehist

        return _treehist(obj, ver, ev, dict(params))
    if cls == "SFPClient":
        from rldp_verify.adapters.pure_ldp_sfp import _sfp

        return _sfp(obj, ver, ev, dict(params))
    raise InputError(f"pure-ldp {ver} {cls} is not supported")
