"""pure-ldp's RAPPOR (``RAPPORClient``), Apple's count-mean sketch (``CMSClient``: CMS and, with
``is_hadamard``, HCMS) and the Hadamard mechanism (``HadamardMechClient``) as structured exact channels (see
:mod:`rldp_verify.adapters`). The code of these clients is the same in pure-ldp 1.1.2 and 1.2.0 (compared file by
file with the 1.2.0 wheel).

Inputs: RAPPOR's and the Hadamard mechanism's value indices 0..d-1 (after the client's ``index_mapper``); CMS hashes
its data item itself, so its inputs are the items 0..d-1 (``str(x)`` is hashed). RAPPOR and CMS do not know the
domain size: pass ``d``. Their hash functions are the ones the client holds (``RAPPORServer.get_hash_funcs()``,
``CMSServer.get_hash_funcs()``: ``xxhash.xxh64(str(x), seed) % m``), called as the code calls them; under xxhash 4
they raise TypeError on the str, and the adapter calls them with the str encoded (what xxhash < 4 does), and says
so."""

from __future__ import annotations

import copy
import itertools
from typing import Any

from rldp_verify.adapters._common import _d_param, _Events, _size, _trace, xxhash_accepting_str
from rldp_verify.core.errors import InputError
from rldp_verify.structured import Adapted, BitChannel, BloomProduct, PublicMixture, TwoLevel

MORE = ("RAPPORClient", "CMSClient", "HadamardMechClient", "HadamardResponseClient")


def _xxh64_str():
    """xxhash.xxh64 accepting a str (as xxhash < 4 does: its UTF-8 bytes) while the hashes are computed."""
    return xxhash_accepting_str("xxh64", 64)


def _xxh64_problem() -> str | None:
    import xxhash

    try:
        xxhash.xxh64("0", seed=0)  # type: ignore[arg-type]  # the library's own call, with a str
        return None
    except TypeError as exc:
        return (f"with xxhash {xxhash.VERSION} pure-ldp's hash functions xxhash.xxh64(str(x), seed) raise TypeError "
                f"({exc}): the code as written cannot run; with xxhash<4 it hashes the UTF-8 bytes of str(x), which "
                "is the channel audited")


class _Sets:
    """(c, x) -> frozenset of positions, from the client's own hash functions, computed one cohort at a time when
    first asked (the audit usually needs one cohort)."""

    def __init__(self, funcs_of, d: int, m: int, what: str, values=None):
        self.funcs_of, self.d, self.m, self.what = funcs_of, d, m, what
        self.values = list(range(d)) if values is None else list(values)    # input x is hashed as str(values[x])
        self.cohorts: dict = {}

    def __call__(self, c: int, x: int) -> frozenset:
        if c not in self.cohorts:
            funcs = list(self.funcs_of(c))
            try:
                with _xxh64_str():
                    sets = [frozenset(int(f(str(v))) for f in funcs) for v in self.values]
                    again = [frozenset(int(f(str(v))) for f in funcs) for v in self.values[:64]]
            except Exception as exc:   # a user-supplied hash function: any failure is bad input, named
                raise InputError(f"{self.what}: a hash function of cohort {c} raised {type(exc).__name__}: {exc}; "
                                 "the hash family cannot be reproduced") from None
            if again != sets[:len(again)]:
                raise InputError(f"{self.what}: the hash functions of cohort {c} give different positions on a second "
                                 "call; the hash family is not reproducible (not a fixed function)")
            bad = next((v for v, S in enumerate(sets) if any(not 0 <= p < self.m for p in S)), None)
            if bad is not None:
                raise InputError(f"{self.what}: a hash function maps {bad} outside 0..{self.m - 1}")
            self.cohorts[c] = sets
        return self.cohorts[c][x]


def _pure_ldp_more(obj, cls: str, ver, ev: _Events, params) -> Adapted:
    if cls == "RAPPORClient":
        return _rappor(obj, ver, ev, dict(params))
    if cls == "CMSClient":
        return _cms(obj, ver, ev, dict(params))
    if params:
        raise InputError(f"pure-ldp {cls} carries its own parameters; unexpected {', '.join(sorted(params))}")
    return _hm(obj, ver, ev) if cls == "HadamardMechClient" else _hr(obj, ver, ev)


# ------------------------------------------------------------------------------------------ RAPPOR


def _rappor_bits(obj, ver):
    """(event of bit 1, event of bit 0, output bit when the event happens / not, per input bit) read off a traced
    ``_perturb([1, 0])``: the comparisons made and the bits returned when they all answer True, then False."""
    outs = {}
    cmps = None
    for ans in (True, False):
        log, out = _trace(obj._perturb, [1, 0], decide=lambda i, op, c, a=ans: a)
        got = [(e[0], e[1]) for e in log if len(e) == 3 and e[0] in ("<", "<=", ">", ">=")]
        if len(got) != 2 or (cmps is not None and got != cmps):
            raise InputError(f"pure-ldp {ver} RAPPORClient does not draw one uniform per bit; unsupported version")
        cmps, outs[ans] = got, [int(v) for v in out]
    return cmps, outs


def _rappor(obj, ver, ev: _Events, params) -> Adapted:
    label = f"pure-ldp {ver} RAPPORClient"
    d = _d_param(params, label)
    m, cohorts = _size(getattr(obj, "m", None), "m"), int(getattr(obj, "num_of_cohorts", 0))
    fam = getattr(obj, "hash_family", None)
    if cohorts < 1 or fam is None or len(fam) < cohorts:
        raise InputError(f"{label}: hash_family must hold num_of_cohorts = {cohorts} lists of hash functions")
    cmps, outs = _rappor_bits(obj, ver)
    fp = {"1 - f/2": cmps[0][1], "f/2": cmps[1][1]}
    tab = _Sets(lambda c: fam[c], d, m, label)

    def rebuild(f):
        prob = []
        for b, (op, _) in ((1, cmps[0]), (0, cmps[1])):       # the bit of input b: its event, then its outputs
            e = ev({"<": "lt", "<=": "le", ">": "gt"}[op], f["1 - f/2" if b else "f/2"])
            prob.append(e * outs[True][1 - b] + (1 - e) * outs[False][1 - b])
        return BloomProduct(d, m, cohorts, BitChannel(prob[0], prob[1]), tab,
                            hmax=max(len(fam[c]) for c in range(cohorts)))
    st = rebuild(fp)
    notes = [f"Bloom filter of m = {m} bits, {cohorts} cohorts of {len(fam[0])} hash functions (the client's own)"]
    if st.bit.p == 1:
        notes.append("a 1 bit of the Bloom filter is never cleared: _perturb sets data[i] = 1 when (bit == 1 and u < "
                     "1 - f/2) or (bit == 0 and u < f/2) and leaves it unchanged otherwise, so Pr[1 | 1] = 1 (RAPPOR's "
                     "permanent response reports 1 with probability 1 - f/2); any report with a 0 where the input's "
                     "filter has a 1 rules the input out: eps = inf (pure-ldp 1.1.2 and 1.2.0 alike)")
    problem = _xxh64_problem()
    samp = ("random.random() < threshold per bit (Pr = ceil(c 2^53)/2^53), the outcome of each branch read from the "
            "code; cohort random.randint(0, num_of_cohorts - 1) (uniform, released)" if ev.model == "code" else
            "exact Bernoulli thresholds (ideal), the outcome of each branch read from the code")
    return Adapted(st, f"{label} (m = {m}, {cohorts} cohorts)", samp, fp, rebuild,
                   notes + ([problem] if problem else []))


# ------------------------------------------------------------------------------------------ CMS / HCMS


def _cms_flip_op(obj, m: int) -> str:
    """The comparison of ``np.random.rand(m)`` with prob in ``_cms_perturb``: '<' when a uniform equal to prob does
    not flip and one just below does (else the code is not the one modelled)."""
    import numpy as np

    saved = np.random.rand
    flips = []
    try:
        for u in (obj.prob, np.nextafter(obj.prob, -1.0)):
            np.random.rand = lambda *shape, u=u: np.full(shape, u)  # type: ignore[assignment]
            with _xxh64_str():
                v, j = obj._cms_perturb("0")
            flips.append(int(np.sum(v == 1)))
    finally:
        np.random.rand = saved
    if flips != [1, m - 1]:
        raise InputError("pure-ldp CMSClient does not flip each entry when np.random.rand() < prob; unsupported "
                         "version")
    return "<"


def _cms(obj, ver, ev: _Events, params, values=None) -> Adapted:
    """``values``: the data items hashed for inputs 0..d-1 (default the integers; SFP: its strings)."""
    hadamard = bool(getattr(obj, "is_hadamard", False))
    label = f"pure-ldp {ver} CMSClient ({'HCMS' if hadamard else 'CMS'})"
    d = _d_param(params, label)
    m, funcs = _size(getattr(obj, "m", None), "m"), list(getattr(obj, "hash_funcs", []))
    if not funcs:
        raise InputError(f"{label}: no hash functions")
    k, prob = len(funcs), float(obj.prob)
    tab = _Sets(lambda c: [funcs[c]], d, m, label, values)
    problem = _xxh64_problem()
    notes = [f"{k} hash functions onto m = {m} (the client's own), the index j released"] + ([problem] if problem
                                                                                              else [])
    if not hadamard:
        _cms_flip_op(obj, m)

        def rebuild(f):
            e = ev("lt", f["prob"])
            return BloomProduct(d, m, k, BitChannel(1 - e, e), tab, labels=("-1", "1"), hmax=1)
        samp = ("j = random.randint(0, k - 1) (uniform, released); one-hot +1 at h_j(x), -1 elsewhere, each entry "
                "flipped when np.random.rand() < prob (Pr = ceil(prob 2^53)/2^53)" if ev.model == "code" else
                "exact Bernoulli(prob) flips (ideal)")
        return Adapted(rebuild({"prob": prob}), label, samp, {"prob": prob}, rebuild, notes)
    had = obj.had

    def bucket(x, s):
        j, row = s
        return 0 if had[row, next(iter(tab(j, x)))] == 1 else 1

    def separating(x, xp):
        for j in range(k):
            hx, hxp = next(iter(tab(j, x))), next(iter(tab(j, xp)))
            if hx != hxp:
                return j, next(r for r in range(m) if had[r, hx] != had[r, hxp])
        return None

    def rebuild_h(f):
        flip = ev("choices", f["prob"])
        return PublicMixture(d, 2, 1 - flip, flip, separating, list(itertools.product(range(k), range(m))), bucket,
                             complete=True)
    samp = ("j = random.randint(0, k - 1), l = random.randint(0, m - 1) (uniform, released); b = random.choices([-1, "
            "1], weights=[prob, 1 - prob]): -1 iff fl(U total) < prob (counted exactly); report b H[l, h_j(x)]"
            if ev.model == "code" else "exact Bernoulli(prob) sign flip (ideal)")
    return Adapted(rebuild_h({"prob": prob}), label, samp, {"prob": prob}, rebuild_h, notes)


# ------------------------------------------------------------------------------------------ Hadamard mechanism


def _hm(obj, ver, ev: _Events) -> Adapted:
    d, t = _size(getattr(obj, "d", None), "d"), int(getattr(obj, "t", 0))
    if t < 1:
        raise InputError(f"pure-ldp HadamardMechClient: t = {t} must be >= 1")
    probe = copy.copy(obj)
    probe.index_mapper = lambda x: x
    log, _ = _trace(probe.privatise, 0, decide=lambda i, op, c: False)
    cmps = [e for e in log if len(e) == 3 and e[0] in ("<", "<=", ">", ">=")]
    rows = [e for e in log if e[0] == "py_randint"]
    if len(cmps) != 1 or cmps[0][0] != ">=" or len(rows) != t or any(e[1:] != (0, d - 1) for e in rows):
        raise InputError(f"pure-ldp {ver} HadamardMechClient does not draw t rows and keep when random() < p; "
                         "unsupported version")
    g, hashes = 2**t, list(obj.hashes)
    index = {h: i for i, h in enumerate(hashes)}

    def bucket(x, js):
        return index[tuple((-1) ** bin(x & j).count("1") for j in js)]

    def separating(x, xp):
        low = (x ^ xp) & -(x ^ xp)          # a row j with <x, j> != <x', j> (mod 2); j < d
        return (low,) + (0,) * (t - 1) if x != xp else None

    def rebuild(f):
        keep = ev("lt", f["p"])               # changed when random() >= p
        return PublicMixture(d, g, keep, (1 - keep) / (g - 1), separating,
                             list(itertools.islice(itertools.product(range(d), repeat=t), 4096)), bucket,
                             complete=d**t <= 4096)
    fp = {"p": cmps[0][1]}
    samp = ("rows j_1..j_t = random.randint(0, d - 1) (uniform, released); the t signs (-1)^<x, j_i> kept when "
            "random() < p (Pr = ceil(p 2^53)/2^53), else one of the other 2^t - 1 sign tuples (uniform randint)"
            if ev.model == "code" else "exact Bernoulli(p) keep (ideal)")
    return Adapted(rebuild(fp), f"pure-ldp {ver} HadamardMechClient (t = {t})", samp, fp, rebuild,
                   ["GRR on the 2^t sign tuples given the released rows"])



# ------------------------------------------------------------------------------------------ Hadamard response


def _parity0(a: int, b: int) -> bool:
    return bin(a & b).count("1") % 2 == 0


def _hr(obj, ver, ev: _Events) -> Adapted:
    """HadamardResponseClient: eps <= 1 uses ``Hadamard_Rand_high_priv`` (out1 uniform on K = 2^outbit, out2 = out1
    with the leading 1 bit of x + 1 flipped; the one with a +1 Hadamard entry in row x + 1 is output when random() >
    pri_para): Q = 2 Pr[keep] / K on the +1 entries, 2 (1 - Pr[keep]) / K elsewhere. eps > 1 uses
    ``Hadamard_Rand_general_original`` on the permuted value (out1 = np.random.randint(0, K) output as it is when
    random() < c, else moved into x's block and onto a +1 entry of x's column): Q = c'/K + 2 (1 - c') / b on those
    entries, c'/K elsewhere (c' = Pr[random() < c], b the block size)."""
    hr: Any = getattr(obj, "hr", None)
    d, kind = _size(getattr(obj, "d", None), "d"), type(hr).__name__
    log, _ = _trace(hr.encode_symbol, 0, decide=lambda i, op, c: False) if hr is not None else ([], None)
    cmps = [e for e in log if len(e) == 3 and e[0] in ("<", "<=", ">", ">=")]
    label = f"pure-ldp {ver} HadamardResponseClient"
    if kind == "Hadamard_Rand_high_priv" and len(cmps) == 1 and cmps[0][0] == ">":
        K = int(hr.outsz)

        def rebuild(f):
            keep = ev("gt", f["pri_para"])
            return TwoLevel(d, K, 2 * keep / K, 2 * (1 - keep) / K,
                            lambda x: {y for y in range(K) if _parity0(x + 1, y)})
        fp = {"pri_para": cmps[0][1]}
        samp = ("out1 = random.randint(0, K - 1) (uniform); the +1 entry of the pair kept when random() > pri_para "
                "(Pr = 1 - (floor(c 2^53) + 1)/2^53)" if ev.model == "code" else "exact Bernoulli (ideal)")
        return Adapted(rebuild(fp), f"{label} (high privacy, K = {K})", samp, fp, rebuild)
    if kind == "Hadamard_Rand_general_original" and len(cmps) == 1 and cmps[0][0] == "<" and \
            any(e[0] == "randint" and e[1:] == (0, int(hr.outsz)) for e in log):
        K, b, tail = int(hr.outsz), int(hr.partsz), int(hr.tailbit)
        perm = [int(v) for v in hr.permute]

        def support(x):
            v = perm[x]              # block v // (b - 1), column v % (b - 1) + 1 of the block's Hadamard matrix
            block, col = v // (b - 1), v % (b - 1) + 1
            return {(block << tail) + pos for pos in range(b) if _parity0(col, pos)}

        def rebuild_g(f):
            c = ev("lt", f["c"])
            return TwoLevel(d, K, c / K + 2 * (1 - c) / b, c / K, support)
        fp = {"c": cmps[0][1]}
        samp = ("out1 = np.random.randint(0, K) (uniform); output as it is when random() < c (Pr = ceil(c 2^53)/2^53), "
                "else moved onto a +1 entry of the input's column in its block" if ev.model == "code" else
                "exact Bernoulli (ideal)")
        return Adapted(rebuild_g(fp), f"{label} (general, K = {K}, {hr.part} blocks of {b})", samp, fp, rebuild_g,
                       ["the input is permuted first (hash_funcs: the server's permutation); eps-LDP does not depend "
                        "on it"])
    raise InputError(f"{label}: its encoder {kind} does not draw as 1.1.2 / 1.2.0 do; unsupported version")
