"""pure-ldp's ``SFPClient`` (Apple's sequence-fragment puzzle; 1.1.2 / 1.2.0, the same code) as the exact structure
:class:`rldp_verify.structured.sketch.ReleasedProduct`.

``privatise(x)`` pads x to length L, draws l = np.random.choice(np.arange(0, L, N)) (released: the report is
(fragment report, word report, l)), forms the fragment r = str(hash_256(x)) + "_" + x[l: l + N] (hash_256: xxh64
with seed 10, mod 256) and returns (fragment_client.privatise(r), word_client.privatise(x), l): two independent
copies of the frequency-oracle client at eps / 2. Each client maps its argument through its own index_mapper (the
fragment client's is ``fragment_map``: SFP's index_mapper itself for a sketch-based client, else
int(hash) * (index_mapper(substring) + 1)) and perturbs the index. The arguments are read by running the client's own
``privatise`` with both clients replaced by recorders and np.random.choice answered l (its argument checked), with
xxhash made to accept the str argument as xxhash < 4 does; the parts' exact probabilities come from the clients'
adapters (sketch response, local hashing, GRR, unary encoding; their sampler models; histogram encoding, ideal
continuous Laplace: :class:`~rldp_verify.structured.sketch.LaplaceReports`). The law of l cancels (released,
independent of x). Inputs: the strings of length ``max_string_length`` over the alphabet, numbered in base
|alphabet| (first character most significant).
"""

from __future__ import annotations

import copy
import types

from rldp_verify.adapters._common import _Events, _index_string, _Rec, rappor_family_lost, xxhash_accepting_str
from rldp_verify.core.errors import InputError
from rldp_verify.structured import Adapted, LaplaceHistogram
from rldp_verify.structured.sketch import LaplaceReports, ReleasedProduct

MAX_D = 2**16


def _arguments(obj, label: str, positions: list, strings: list) -> list:
    """[(word argument, {l: fragment argument}) for each string], read from the client's own ``privatise``."""
    import numpy as np
    import pure_ldp.heavy_hitters.apple_sfp.sfp_client as mod

    probe = copy.copy(obj)
    probe.fragment_client, probe.word_client = rf, rw = _Rec(), _Rec()
    calls: list = []
    cur = [0]

    def choice(a, *args, **kw):
        calls.append((list(np.asarray(a)), args, kw))
        return np.int64(cur[0])
    saved = mod.np
    mod.np = types.SimpleNamespace(arange=np.arange, random=types.SimpleNamespace(choice=choice))
    out_all = []
    try:
        with xxhash_accepting_str("xxh64", 64):
            for s in strings:
                words, frags = set(), {}
                for pos in positions:
                    cur[0] = pos
                    calls.clear()
                    try:
                        out = probe.privatise(s)
                    except Exception as exc:
                        raise InputError(f"{label}: privatise({s!r}) raised {type(exc).__name__}: {exc}") from None
                    if calls != [(positions, (), {})] or len(rf.seen) != 1 or len(rw.seen) != 1 or out[2] != pos:
                        raise InputError(f"{label} does not draw its position as np.random.choice({positions}), "
                                         "privatise each client once and release l; unsupported version")
                    frags[pos] = rf.seen.pop()
                    words.add(rw.seen.pop())
                if len(words) != 1:
                    raise InputError(f"{label}: the word report depends on the position draw; unsupported version")
                out_all.append((words.pop(), frags))
    finally:
        mod.np = saved
    return out_all


def _index(client, v, label: str, what: str):
    if type(client).__name__ == "CMSClient":      # privatise hashes str(data); update_params ignores index_mapper
        return v
    try:
        return client.index_mapper(v)
    except Exception as exc:
        raise InputError(f"{label}: the {what} client's index_mapper({v!r}) raised {type(exc).__name__}: {exc} (pass "
                         "SFPClient an index_mapper that reads these strings)") from None


def _part(client, indices: list, ver, ev: _Events, label: str, what: str):
    """(Adapted part, input(index) -> the part's input): a sketch response on the distinct indices (numbered),
    else the frequency oracle itself on the indices (integers in 0..d-1 of the client's own d)."""
    from rldp_verify.adapters.pure_ldp_more import _cms
    from rldp_verify.adapters.pure_ldp_sketch import _inner, _sketch_response

    cls = type(client).__name__
    if cls in ("SketchResponseClient", "CMSClient"):
        values = list(dict.fromkeys(indices))
        if len(values) < 2:
            raise InputError(f"{label}: every input gives the {what} client the index {values[0]!r}; nothing to audit")
        pos = {v: i for i, v in enumerate(values)}
        sketch = _sketch_response if cls == "SketchResponseClient" else _cms
        return sketch(client, ver, ev, {"d": len(values)}, values=values), pos.__getitem__
    d = getattr(client, "d", None)
    if not isinstance(d, int) or d < 2:
        raise InputError(f"{label}: the {what} client {cls} has d = {d!r}; expected an integer >= 2")
    bad = [i for i in indices if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < d]
    if bad:
        raise InputError(f"{label}: the {what} client's index {bad[0]!r} is not an integer in 0..{d - 1}")
    return _inner(client, d, ev, f"{label} {what} client", own_d=True), (lambda i: i)


def _sfp(obj, ver, ev: _Events, params) -> Adapted:
    label = f"pure-ldp {ver} SFPClient"
    if params:
        raise InputError(f"{label} carries its own parameters; unexpected {', '.join(sorted(params))}")
    alphabet, L, N = list(obj.alphabet), int(obj.max_string_length), int(obj.fragment_length)
    d = len(alphabet) ** L
    if N < 1:
        raise InputError(f"{label}: fragment_length = {N} must be >= 1")
    if d < 2 or d > MAX_D:
        raise InputError(f"{label}: |alphabet|^max_string_length = {d} inputs; the audit handles 2..{MAX_D}")
    fc, wc = obj.fragment_client, obj.word_client
    for client, what in ((wc, "word client"), (fc, "fragment client")):
        rappor_family_lost(client, label, what)
    if type(fc) is not type(wc):
        raise InputError(f"{label}: fragment client {type(fc).__name__} and word client {type(wc).__name__} differ; "
                         "unsupported version")
    positions = list(range(0, L, N))
    string = _index_string(alphabet, L)
    args = _arguments(obj, label, positions, [string(x) for x in range(d)])
    words = [_index(wc, w, label, "word") for w, _ in args]
    seen: dict = {}                  # the fragment strings repeat (256 hashes x |alphabet|^N substrings): map each once
    frags = [{pos: seen[f] if f in seen else seen.setdefault(f, _index(fc, f, label, "fragment"))
              for pos, f in fs.items()} for _, fs in args]
    word, w_in = _part(wc, words, ver, ev, label, "word")
    frag, f_in = _part(fc, [f for fs in frags for f in fs.values()], ver, ev, label, "fragment")

    name = (f"{label} (alphabet {''.join(alphabet)}, length {L}, fragments of {N}; word {word.name}, fragment "
            f"{frag.name})")
    if isinstance(word.structure, LaplaceHistogram):            # HEClient: both parts (type checked above)
        st = LaplaceReports(d, word.structure.scale, frag_scale=frag.structure.scale, word_scale=word.structure.scale,
                            pieces=lambda x: [(f_in(frags[x][pos]),) for pos in positions],
                            word_index=lambda x: w_in(words[x]), who=label)
        return Adapted(st, name, f"l = np.random.choice({positions}) (released); fragment: {frag.sampler}; word: "
                       f"{word.sampler}; the three draws independent", {}, None,
                       [f"inputs: the {d} strings of length {L}, numbered in base {len(alphabet)}", "exact: eps = "
                        "2/b_fragment + 2/b_word, attained at a released l where the fragment and word indices of "
                        "the two inputs differ"])

    def build(sw, sf):
        return ReleasedProduct(d, positions, sf, sw, lambda pos, x: f_in(frags[x][pos]), lambda x: w_in(words[x]))
    fp = {f"word {k}": v for k, v in word.float_params.items()}
    fp.update({f"fragment {k}": v for k, v in frag.float_params.items()})
    rebuild = None
    if word.rebuild is not None and frag.rebuild is not None:
        rwb, rfb = word.rebuild, frag.rebuild

        def rebuild(f):
            return build(rwb({k[5:]: v for k, v in f.items() if k.startswith("word ")}),
                         rfb({k[9:]: v for k, v in f.items() if k.startswith("fragment ")}))
    samp = (f"l = np.random.choice({positions}) (released; its law cancels); fragment client on "
            f"fragment_map(str(hash_256(x)) + '_' + x[l:l+{N}]): {frag.sampler}; word client on index_mapper(x): "
            f"{word.sampler}; the three draws independent")
    notes = [f"inputs: the {d} strings of length {L}, numbered in base {len(alphabet)}",
             "exact: rho = max over l, x != x' of the product of the two reports' pair ratios; certified interval "
             "[that product at the searched (l, x, x'), rho_fragment * rho_word], closed when the search reaches the "
             "upper end", "hash_256 is xxh64(str, seed 10) as xxhash < 4 computes it (the library's call raises a "
             "TypeError under xxhash 4: pin xxhash<4 to run its sampler)"]
    return Adapted(build(word.structure, frag.structure), name, samp, fp, rebuild,
                   notes + list(word.notes) + list(frag.notes))
