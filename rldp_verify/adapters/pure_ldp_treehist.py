"""pure-ldp's ``TreeHistClient`` (1.1.2 / 1.2.0) as a certified interval (:mod:`rldp_verify.structured.treehist`).

``privatise(x)`` pads x, draws r = np.random.randint(0, L / N) (secret) and returns (fragment_estimator on the
prefix of length (r + 1) N, padded; word_estimator on the padded string): two local-hashing clients at eps / 2,
each with its own released seed. The images (the inner indices of the word and of each prefix) are read by running
the client's own ``privatise`` with both estimators replaced by recorders and np.random.randint answered r (its
arguments checked); the inner clients' exact probabilities come from their adapters (their sampler models). The
estimators are copies of the user's ``fo_client``: LHClient (the default) or FastLHClient (local hashing:
:class:`~rldp_verify.structured.treehist.PrefixMixture`), DEClient or UEClient (GRR, unary encoding on the
estimator's own d = |alphabet|^L: :class:`~rldp_verify.structured.treehist.PrefixOracle`), HEClient (ideal continuous
Laplace: :class:`~rldp_verify.structured.sketch.LaplaceReports`, eps = 2/b_F + 2/b_W exactly).
Inputs: the strings of length ``max_string_length`` over the alphabet, numbered in base |alphabet| (first
character most significant).
"""

from __future__ import annotations

import copy
import itertools
import types

from rldp_verify.adapters._common import _Events, _index_string, _Rec, rappor_family_lost
from rldp_verify.core.errors import InputError
from rldp_verify.structured import Adapted, LaplaceHistogram, PublicMixture
from rldp_verify.structured.composite import BloomProduct, TwoLevel
from rldp_verify.structured.sketch import LaplaceReports
from rldp_verify.structured.treehist import FRAG_SEEDS, PrefixMixture, PrefixOracle, PrefixTwoLevel, RowPrefix

ESTIMATORS = ("LHClient", "FastLHClient", "DEClient", "UEClient", "HEClient", "HadamardMechClient", "CMSClient",
              "HadamardResponseClient", "RAPPORClient")


def _images(obj, label: str, R: int, strings: list) -> list:
    """[(word(string), prefixes(string)) for each string]: the estimators' arguments for each r, read from
    ``privatise`` with np.random.randint answered r (its arguments checked)."""
    import pure_ldp.heavy_hitters.treehistogram.treehist_client as mod

    probe = copy.copy(obj)
    probe.fragment_estimator, probe.word_estimator = rf, rw = _Rec(), _Rec()
    calls: list = []
    cur = [0]

    def randint(a, b):
        calls.append((a, b))
        return cur[0]
    saved = mod.np
    mod.np = types.SimpleNamespace(random=types.SimpleNamespace(randint=randint))
    out = []
    try:
        for s in strings:
            words, frags = set(), []
            for r in range(R):
                cur[0] = r
                calls.clear()
                try:
                    probe.privatise(s)
                except Exception as exc:
                    raise InputError(f"{label}: privatise({s!r}) raised {type(exc).__name__}: {exc}") from None
                if len(calls) != 1 or calls[0][0] != 0 or calls[0][1] != R or len(rf.seen) != 1 or len(rw.seen) != 1:
                    raise InputError(f"{label} does not draw its prefix as np.random.randint(0, {R}) and privatise "
                                     "each estimator once; unsupported version")
                frags.append(rf.seen.pop())
                words.add(rw.seen.pop())
            if len(words) != 1:
                raise InputError(f"{label}: the word report depends on the secret prefix draw; unsupported version")
            out.append((words.pop(), tuple(frags)))
    finally:
        mod.np = saved
    return out


def _index(client, v, label: str) -> int:
    try:
        i = int(client.index_mapper(v))
    except Exception as exc:
        raise InputError(f"{label}: index_mapper({v!r}) raised {type(exc).__name__}: {exc}") from None
    if i < 0:
        raise InputError(f"{label}: index_mapper({v!r}) = {i} is negative")
    return i


def _estimator(est, d_min: int, ev: _Events, label: str, what: str) -> Adapted:
    """The adapted estimator: local hashing on the indices 0..d_min-1 (its channel does not depend on d), GRR or
    unary encoding on the estimator's own d (the code's probabilities depend on it; every index must lie below)."""
    from rldp_verify.adapters.pure_ldp_sketch import _inner

    cls = type(est).__name__
    own = cls in ("DEClient", "UEClient", "HEClient", "HadamardMechClient", "HadamardResponseClient")
    if own:
        d = getattr(est, "d", None)
        if not isinstance(d, int) or d < d_min:
            raise InputError(f"{label}: the {what} estimator {cls} has d = {d!r} but receives the index {d_min - 1}")
        d_min = d
    return _inner(est, max(d_min, 2), ev, f"{label} {what} estimator", own_d=own or cls == "RAPPORClient")


def _cms_parts(imgs: list, we, fe, ver, ev: _Events, label: str) -> tuple:
    """(word inputs, prefix inputs, word part, fragment part) over CMSClient estimators: the client hashes str(data)
    itself (its update_params ignores TreeHist's index_mapper), so each part is the CMS adapter on the distinct
    strings it receives, numbered (CMS: a Bloom filter with the row as cohort; HCMS: local hashing over (j, l))."""
    from rldp_verify.adapters.pure_ldp_more import _cms

    if type(we) is not type(fe) or bool(getattr(we, "is_hadamard", False)) != bool(getattr(fe, "is_hadamard", False)):
        other = type(fe if type(we).__name__ == "CMSClient" else we).__name__
        raise InputError(f"{label}: a CMSClient estimator with a {other} one (or CMS with HCMS) is not supported "
                         "(copies of one client, as the library builds them)")
    wv = list(dict.fromkeys(w for w, _ in imgs))
    fv = list(dict.fromkeys(f for _, fs in imgs for f in fs))
    wpos, fpos = {v: i for i, v in enumerate(wv)}, {v: i for i, v in enumerate(fv)}
    words = [wpos[w] for w, _ in imgs]
    pres = [tuple(fpos[f] for f in fs) for _, fs in imgs]
    return (words, pres, _cms(we, ver, ev, {"d": max(len(wv), 2)}, values=wv),
            _cms(fe, ver, ev, {"d": max(len(fv), 2)}, values=fv))


def _frag_seeds(fe, inner_f: Adapted):
    """The fragment seeds searched for the lower end: FastLH's k seeds; the first FRAG_SEEDS of the Hadamard
    mechanism's row tuples or HCMS's (j, l); LHClient's seeds 0..FRAG_SEEDS-1."""
    if type(fe).__name__ == "FastLHClient":
        return range(min(fe.k, FRAG_SEEDS))
    if isinstance(inner_f.structure, PublicMixture) and type(fe).__name__ in ("HadamardMechClient", "CMSClient"):
        return list(itertools.islice(inner_f.structure.seeds, FRAG_SEEDS))
    return range(FRAG_SEEDS)


def _check_estimators(label: str, we, fe) -> None:
    for est, what in ((we, "word"), (fe, "fragment")):
        rappor_family_lost(est, label, f"{what} estimator")
        if type(est).__name__ not in ESTIMATORS:
            raise InputError(f"{label}: the {what} estimator {type(est).__name__} is not supported (supported: "
                             f"{', '.join(ESTIMATORS)})")


def _treehist(obj, ver, ev: _Events, params) -> Adapted:
    label = f"pure-ldp {ver} TreeHistClient"
    if params:
        raise InputError(f"{label} carries its own parameters; unexpected {', '.join(sorted(params))}")
    alphabet, L, N = list(obj.alphabet), int(obj.max_string_length), int(obj.fragment_length)
    d = len(alphabet) ** L
    if N < 1 or L % N:
        raise InputError(f"{label}: max_string_length = {L} is not a multiple of fragment_length = {N}")
    if d < 2 or d > 2**16:
        raise InputError(f"{label}: |alphabet|^max_string_length = {d} inputs; the audit handles 2..2^16")
    R = L // N

    string = _index_string(alphabet, L)
    fe, we = obj.fragment_estimator, obj.word_estimator
    _check_estimators(label, we, fe)
    imgs = _images(obj, label, R, [string(x) for x in range(d)])
    if "CMSClient" in (type(we).__name__, type(fe).__name__):
        words, pres, inner_w, inner_f = _cms_parts(imgs, we, fe, ver, ev, label)
    else:
        words = [_index(we, w, label) for w, _ in imgs]
        pres = [tuple(_index(fe, f, label) for f in fs) for _, fs in imgs]
        inner_w = _estimator(we, max(words) + 1, ev, label, "word")
        inner_f = _estimator(fe, max(max(p) for p in pres) + 1, ev, label, "fragment")
    he = [isinstance(i.structure, LaplaceHistogram) for i in (inner_w, inner_f)]
    if he[0] != he[1]:
        raise InputError(f"{label}: a histogram-encoding estimator with a {(inner_f if he[0] else inner_w).name} one "
                         "is not supported (both HEClient, as the library builds them, or neither)")
    if he[0]:                                                    # HEClient (both estimators: copies of one client)
        return _he(d, inner_w, inner_f, words, pres, label, f"{label} (alphabet {''.join(alphabet)}, length {L}, "
                   f"fragments of {N}; word {inner_w.name}, fragment {inner_f.name})", R)
    if "RAPPORClient" in (type(we).__name__, type(fe).__name__):
        return _rappor(d, inner_w, inner_f, words, pres, label, f"{label} (alphabet {''.join(alphabet)}, length {L}, "
                       f"fragments of {N}; word {inner_w.name}, fragment {inner_f.name})")
    lh = [isinstance(i.structure, PublicMixture) for i in (inner_w, inner_f)]
    if lh[1] and not lh[0]:
        raise InputError(f"{label}: a local-hashing fragment estimator with a {inner_w.name} word estimator is not "
                         "supported (both local hashing, or a GRR / unary-encoding fragment)")
    memo: dict = {}
    frag_seeds = _frag_seeds(fe, inner_f)

    def build(sw, sf):
        if isinstance(sf, BloomProduct):
            return RowPrefix(d, sw, sf, words.__getitem__, pres.__getitem__)
        if isinstance(sf, TwoLevel) and isinstance(sw, TwoLevel):
            return PrefixTwoLevel(d, sw, sf, words.__getitem__, pres.__getitem__)
        if isinstance(sf, PublicMixture):
            return PrefixMixture(d, sw, sf, words.__getitem__, pres.__getitem__, frag_seeds=frag_seeds)
        return PrefixOracle(d, sw, sf, words.__getitem__, pres.__getitem__, memo=memo)
    fp = {f"word {k}": v for k, v in inner_w.float_params.items()}
    fp.update({f"fragment {k}": v for k, v in inner_f.float_params.items()})
    rebuild = None
    if inner_w.rebuild is not None and inner_f.rebuild is not None:
        rw, rfb = inner_w.rebuild, inner_f.rebuild

        def rebuild(f):
            return build(rw({k[5:]: v for k, v in f.items() if k.startswith("word ")}),
                         rfb({k[9:]: v for k, v in f.items() if k.startswith("fragment ")}))
    samp = (f"r = np.random.randint(0, {R}) (uniform, secret); fragment: {inner_f.sampler}; word: "
            f"{inner_w.sampler}; the three draws independent")
    notes = [f"inputs: the {d} strings of length {L}, numbered in base {len(alphabet)}",
             "certified interval: upper end rho_word * rho_fragment (a ratio of two mixtures with the same weights is "
             "at most its largest component ratio; GRR fragment: rho_word * max_x v(m(x), 0), m(x) the largest "
             "number of equal prefix indices of x), lower end the exact ratio at the searched witness"]
    return Adapted(build(inner_w.structure, inner_f.structure), f"{label} (alphabet {''.join(alphabet)}, length "
                   f"{L}, fragments of {N}; word {inner_w.name}, fragment {inner_f.name})", samp, fp, rebuild,
                   notes + list(inner_f.notes))


def _he(d: int, inner_w: Adapted, inner_f: Adapted, words: list, pres: list, label: str, name: str, R: int) -> Adapted:
    """TreeHist over HEClient: :class:`LaplaceReports` with one position (the prefix draw is secret) whose index
    multiset is the R prefix indices."""
    st = LaplaceReports(d, inner_w.structure.scale, frag_scale=inner_f.structure.scale,
                        word_scale=inner_w.structure.scale, pieces=lambda x: [pres[x]], word_index=words.__getitem__,
                        who=label)
    samp = (f"r = np.random.randint(0, {R}) (uniform, secret); fragment: {inner_f.sampler}; word: {inner_w.sampler}; "
            "the three draws independent")
    notes = [f"inputs: the {d} strings, numbered in base |alphabet|", "exact: eps = 2/b_fragment + 2/b_word (a ratio "
             "of two mixtures with the same weights is at most its largest component ratio, e^(2/b) for one Laplace "
             "report; attained on a product event at two inputs with disjoint prefix indices and distinct words)"]
    return Adapted(st, name, samp, {}, None, notes + list(inner_f.notes))


def _rappor(d: int, inner_w: Adapted, inner_f: Adapted, words: list, pres: list, label: str, name: str) -> Adapted:
    """TreeHist over RAPPORClient (its hash family set again; pure-ldp's update_params drops it). pure-ldp's
    _perturb never clears a set bit (Pr[1 | 1] = 1), so for inputs x, x' and a cohort c with a position i in
    S_c(w(x)) and not in S_c(w(x')), the output with word bits = 1 exactly on S_c(w(x')) (bit i = 0: impossible
    under x) and fragment bits = 1 exactly on S_0(u_0(x')) (cohort 0) has probability 0 under x and a positive one
    under x' (the first prefix's component, weight 1/R; cold bits stay 0 with Pr 1 - f/2 > 0): eps = inf exactly.
    A filter that can clear set bits, or f = 2, is refused (no exact form of the prefix mixture here)."""
    from rldp_verify.structured.noise import UnboundedLoss

    sw, sf = inner_w.structure, inner_f.structure
    if not (isinstance(sw, BloomProduct) and isinstance(sf, BloomProduct)):
        raise InputError(f"{label}: a RAPPORClient estimator with another kind is not supported (copies of one client)")
    if sw.bit.prob(0, 1) != 0 or sw.bit.prob(0, 0) == 0 or sf.bit.prob(0, 0) == 0:
        raise InputError(f"{label}: over a RAPPOR filter with Pr[0 | 1] = {float(sw.bit.prob(0, 1))} and Pr[0 | 0] = "
                         f"{float(sw.bit.prob(0, 0))} the secret mixture over the prefixes of a Bloom filter has no "
                         "exact form here (only pure-ldp's never-cleared bits, eps = inf)")
    for c in range(sw.cohorts):
        for x, xp in ((0, y) for y in range(1, d)):
            for a, b in ((x, xp), (xp, x)):
                only = sorted(set(sw.sets(c, words[a])) - set(sw.sets(c, words[b])))
                if only:
                    y = (f"(word cohort {c}: bits 1 exactly on {sorted(sw.sets(c, words[b]))}, so bit {only[0]} is 0, "
                         f"impossible under x'; fragment cohort 0: bits 1 exactly on {sorted(sf.sets(0, pres[b][0]))})")
                    st = UnboundedLoss("TreeHist over RAPPOR: a set bit of the word filter is never cleared", str(b),
                                       str(a), y)
                    return Adapted(st, name, f"r = np.random.randint (secret); fragment: {inner_f.sampler}; word: "
                                   f"{inner_w.sampler}", {}, None, [f"inputs: the {d} strings, numbered in base "
                                                                    "|alphabet|"] + list(inner_w.notes))
    raise InputError(f"{label}: every pair of words has the same Bloom filter in every cohort; not audited")
