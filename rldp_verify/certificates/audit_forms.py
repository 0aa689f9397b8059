"""Structured audit certificate forms for OpenDP's lattice noise, local hashing's witness seed and TreeHist
(issue 23), built from the structures' own fields; :mod:`rldp_verify_check.audit` states what each proves.

- :func:`lattice_form` -- ``lattice-laplace`` {lower, upper, k, scale, size} with the lattice indices of the bounds
  as data: integers plus discrete Laplace noise (:class:`~rldp_verify.structured.composite.DiscreteLaplaceShift`,
  k = 0), floats on the 2^k lattice (:class:`~rldp_verify.structured.noise.LatticeLaplace`) and vectors of either
  (:class:`~rldp_verify.structured.noise.VectorLaplace`); the checker recomputes the indices and
  eps = size (i(upper) - i(lower)) 2^k / scale from them.
"""

from __future__ import annotations

import math
from fractions import Fraction

from rldp_verify.certificates import qs


def lattice_form(st) -> dict | None:
    """The ``lattice-laplace`` statement part of ``st`` and its ``data`` (the indices i(lower), i(upper)), or None
    when ``st`` is not lattice Laplace noise. Bounds and scale are the exact rationals of the floats given."""
    from rldp_verify.structured.composite import DiscreteLaplaceShift
    from rldp_verify.structured.noise import LatticeLaplace, VectorLaplace, lattice_index

    lower: float | int
    upper: float | int
    if isinstance(st, DiscreteLaplaceShift):
        lower, upper, k, n = st.lo, st.lo + st.d - 1, 0, 1
    elif isinstance(st, (LatticeLaplace, VectorLaplace)):
        lower, upper, k, n = st.lower, st.upper, st.k, getattr(st, "size", 1)
    else:
        return None
    form = {"lower": qs(Fraction(lower)), "upper": qs(Fraction(upper)), "k": int(k), "scale": qs(Fraction(st.scale)),
            "size": int(n)}
    return {"lattice-laplace": form, "data": {"i_lower": lattice_index(lower, k), "i_upper": lattice_index(upper, k)}}


XXH32 = "xxhash.xxh32(str(x).encode('utf-8'), seed=seed & 0xFFFFFFFF).intdigest() % g"


def hash_witness(st) -> dict | None:
    """Local hashing's lower end for eps-LDP (``seeded-grr``): the seed separating inputs 0 and 1 that the audit
    found, with their two buckets as integers, when they are the buckets of ``XXH32`` (pure-ldp's and
    multi-freq-ldpy's local hashing); None otherwise (other hashes, xxhash missing, no separating seed). The checker
    takes the buckets as data; a reader re-checks them with xxhash (README, certificates section)."""
    seed = st.separating(0, 1)
    if not isinstance(seed, int) or isinstance(seed, bool) or st.hash_fn is None:
        return None
    buckets = [int(st.hash_fn(x, seed)) for x in (0, 1)]
    try:
        import xxhash
    except ImportError:                                       # xxhash not installed: no witness
        return None
    if [xxhash.xxh32(str(x).encode("utf-8"), seed=seed & 0xFFFFFFFF).intdigest() % st.g for x in (0, 1)] != buckets:
        return None                                           # the XXH32 expression, evaluated
    return {"seed": seed, "inputs": [0, 1], "buckets": buckets, "hash": XXH32}


def part_form(st) -> dict | None:
    """The structured statement {form, sizes} of a part's channel for eps-LDP (checker forms only): a unary encoding
    (``unary`` {d, p, q}), GRR and unordered subset selection (``subsets`` {m, p}), local hashing (``seeded-grr``
    {g, a, b}), Hadamard response (``two-level`` {a, b}: every entry hi or lo) and a released hash index over GRR /
    unary encoding (:class:`~rldp_verify.structured.sketch.HashedInput`: its inner channel's form, the index a
    released mixture of the product statement); None for anything else."""
    from rldp_verify.structured.channels import PublicMixture, SubsetSelection, Symmetric, UnaryProduct
    from rldp_verify.structured.composite import TwoLevel
    from rldp_verify.structured.sketch import HashedInput

    if isinstance(st, HashedInput):
        return part_form(st.inner)
    if isinstance(st, UnaryProduct) and st.d >= 2:
        return {"unary": {"d": st.d, "p": qs(st.bit.p), "q": qs(st.bit.q)}, "sizes": [st.d, 1]}
    if isinstance(st, Symmetric) and st.k >= 2:
        return {"subsets": {"m": 1, "p": qs(st.a)}, "sizes": [st.k, 1]}
    if isinstance(st, SubsetSelection) and (not st.ordered or st.m == 1) and 1 <= st.m < st.k:
        return {"subsets": {"m": st.m, "p": qs(st.P)}, "sizes": [st.k, 1]}
    if isinstance(st, PublicMixture):
        return {"seeded-grr": {"g": st.g, "a": qs(st.a), "b": qs(st.b)}, "sizes": [max(st.d, 2), 1]}
    if isinstance(st, TwoLevel) and st.d >= 2:
        return {"two-level": {"a": qs(st.hi), "b": qs(st.lo)}, "sizes": [st.d, 1]}
    return None


def _composed_parts(st) -> tuple[list, dict] | None:
    """(the parts' channels, the statement's flags) of a composed structure whose upper end is the product of its
    parts' eps-LDP ratios (:mod:`rldp_verify_check.audit`, ``product``): SPL (:class:`~rldp_verify.structured.composite.
    AttributeProduct`, attribute j through part j: ``coordinates``, so the lower end is the product too), SMP
    (:class:`~rldp_verify.structured.channels.AttributeMixture`, the released attribute j through part j: ``mixture``
    and ``coordinates``, the max of the parts' ends), CMS (:class:`~rldp_verify.structured.composite.BloomProduct`
    with one position per input, ``hmax`` = 1: a released row c, then a unary encoding of h_c(x) on m positions),
    Hadamard response (:class:`~rldp_verify.structured.composite.TwoLevel`, one ``two-level`` part, upper end only), SFP
    (:class:`~rldp_verify.structured.sketch.ReleasedProduct`: a released position, then fragment x word), TreeHist
    over GRR or a unary encoding (:class:`~rldp_verify.structured.treehist.PrefixOracle`: word x a secret uniform
    mixture over prefixes; with a GRR fragment only when its upper end v(M, 0) is the product's a/b, M = R equal
    prefix indices of one input, as at the library's default index_mapper), a sketch over GRR / unary encoding
    (:class:`~rldp_verify.structured.sketch.HashedInput`, one part) and dBitFlipPM with d_bits >= 2
    (:class:`~rldp_verify.structured.composite.SampledBits`: released positions of a unary encoding of the bucket, a
    marginal of it; its ratio r1 r2 is the unary encoding's). None otherwise."""
    from rldp_verify.structured.channels import AttributeMixture, BitChannel, UnaryProduct
    from rldp_verify.structured.composite import AttributeProduct, BloomProduct, SampledBits, TwoLevel
    from rldp_verify.structured.sketch import HashedInput, ReleasedProduct, _part_max, _times
    from rldp_verify.structured.treehist import PrefixOracle

    if isinstance(st, (AttributeProduct, AttributeMixture)):
        return list(st.components), {"coordinates": True, **({"mixture": True} if isinstance(st, AttributeMixture)
                                                             else {})}
    if isinstance(st, ReleasedProduct):
        return [st.frag, st.word], {}
    if isinstance(st, PrefixOracle) and st.upper() == _times(_part_max(st.word), _part_max(st.frag)):
        return [st.word, st.frag], {}
    if isinstance(st, HashedInput) and st._pair() is not None or isinstance(st, TwoLevel):
        return [st], {}
    if isinstance(st, SampledBits) and st.m >= 2 and st._split():
        return [UnaryProduct(st.b, BitChannel(st.bit.p, st.bit.q))], {}
    if isinstance(st, BloomProduct) and st.hmax == 1 and st.ratio() == math.prod(st._r()):
        return [UnaryProduct(st.m, BitChannel(st.bit.p, st.bit.q))], {}
    return None


def product_form(st) -> dict | None:
    """A composed structure as a ``product`` of its parts' forms (:func:`part_form`, :func:`_composed_parts`), the
    upper end the product of the parts' (the lower end too with ``coordinates``, SPL); TreeHist over local hashing
    (:class:`~rldp_verify.structured.treehist.PrefixMixture`: word x a secret uniform mixture over prefixes of a
    fragment report) as its two ``seeded-grr`` parts with the searched witness (:func:`product_witness`) as data when
    there is one. None when ``st`` is none of these or a part has no form."""
    from rldp_verify.structured.treehist import PrefixMixture

    if isinstance(st, PrefixMixture):
        parts = [{"seeded-grr": {"g": pm.g, "a": qs(pm.a), "b": qs(pm.b)}, "sizes": [max(pm.d, 2), 1]}
                 for pm in (st.word, st.frag)]
        wit = product_witness(st)
        return {"product": parts, "sizes": [st.d, 1], **({"data": {"product_witness": wit}} if wit else {})}
    found = _composed_parts(st)
    if found is None:
        return None
    wit = prefix_witness(st) or released_witness(st)
    forms = [f for c in found[0] if (f := part_form(c)) is not None]
    if len(forms) != len(found[0]):
        return None
    d = getattr(st, "d", None) or getattr(st, "k", None) or math.prod(f["sizes"][0] for f in forms)
    return {"product": forms, "sizes": [d, 1], **found[1], **({"data": {"product_witness": wit}} if wit else {})}


def product_witness(st) -> dict | None:
    """The lower end of TreeHist's interval as data: inputs x, x' (oriented so that the ratio is Q[y|x] / Q[y|x']),
    per part the seed, the inner indices of x and x' (word: one; fragment: the R prefixes), their buckets and the
    output bucket y; None when no witness was found or a bucket is not ``XXH32``'s (or xxhash is missing)."""
    try:
        import xxhash
    except ImportError:
        return None
    w = st.ratio_bounds(0)[2]
    if w is None:
        return None
    x, xp = (w["x"], w["x_prime"]) if w["direction"] == 1 else (w["x_prime"], w["x"])
    sw = 0 if w["word_seed"] is None else w["word_seed"]     # None: x, x' share the word, any seed (factor 1)
    wi = [st.word_index(x), st.word_index(xp)]
    hw = [int(st.word.hash_fn(i, sw)) for i in wi]
    ui = [list(st.prefixes(x)), list(st.prefixes(xp))]
    parts = [{"seed": sw, "inputs": [[wi[0]], [wi[1]]], "buckets": [[hw[0]], [hw[1]]],
              "y": hw[0] if st.word.a >= st.word.b else hw[1]},
             {"seed": w["frag_seed"], "inputs": ui, "buckets": [[int(st.frag.hash_fn(u, w["frag_seed"])) for u in side]
                                                              for side in ui], "y": int(w["frag_bucket"])}]
    for p, g in zip(parts, (st.word.g, st.frag.g), strict=True):
        if not isinstance(p["seed"], int) or any(
                xxhash.xxh32(str(i).encode("utf-8"), seed=p["seed"] & 0xFFFFFFFF).intdigest() % g != h
                for side, hs in zip(p["inputs"], p["buckets"], strict=True) for i, h in zip(side, hs, strict=True)):
            return None
    return {"hash": XXH32, "parts": parts}


def prefix_witness(st) -> dict | None:
    """TreeHist over GRR or unary-encoding word and fragment reports (:class:`~rldp_verify.structured.treehist.
    PrefixOracle`, pure-ldp's DEClient / UEClient): the lower end's inputs x, x' as a ``product_witness`` with the word
    index and the R prefix indices of x and x' and the output the engine's search chose: GRR, each index its own
    bucket, y the word index of x (resp. x's most frequent prefix index) for a >= b; unary encoding, y the bits
    at these indices (x's hot, x''s cold; the word's at UnaryProduct's worst bits). None for any other structure or
    when the search found no witness. The indices are data: a reader re-checks them with the library's index_mapper."""
    from rldp_verify.structured.channels import Symmetric, UnaryProduct
    from rldp_verify.structured.treehist import PrefixOracle

    if not (isinstance(st, PrefixOracle) and all(isinstance(c, (Symmetric, UnaryProduct)) for c in (st.word, st.frag))):
        return None
    w = st.ratio_bounds(0)[2]
    if w is None:
        return None
    x, xp = w["x"], w["x_prime"]
    wi, ui = [st.word_index(x), st.word_index(xp)], [list(st.prefixes(x)), list(st.prefixes(xp))]
    return {"hash": "TreeHist's word index and prefix indices of x and x' (the library's index_mapper)",
            "parts": [_part_witness(st.word, [[wi[0]], [wi[1]]], wi[0] if getattr(st.word, "a", 0) >= getattr(
                st.word, "b", 0) else wi[1]),
                      _part_witness(st.frag, ui, st._mode(x if getattr(st.frag, "a", 0) >= getattr(st.frag, "b", 0)
                                                          else xp)[1])]}


def released_witness(st) -> dict | None:
    """The lower end of a released row or position over GRR or unary encodings as a ``product_witness``: SFP over
    GRR / unary-encoding clients (:class:`~rldp_verify.structured.sketch.ReleasedProduct`: the fragment and word
    indices of the searched (l, x, x'), each part at its worst output), CMS
    (:class:`~rldp_verify.structured.composite.BloomProduct` with one hot position per input: the row c and the
    positions h_c(x) != h_c(x') of the engine's pair), a sketch (:class:`~rldp_verify.structured.sketch.HashedInput`:
    the first row j with image(j, x) != image(j, x')) and dBitFlipPM with d_bits >= 2
    (:class:`~rldp_verify.structured.composite.SampledBits`: the buckets of x = 0 and x' = k - 1, both among the
    released positions, whose bits are the unary encoding's; the other positions cancel); the inner channel's worst
    output there (GRR: x's value for a >= b; unary: its worst bits). None otherwise. The positions are data: a reader
    re-checks them with the library's hash row or bucket map (named in ``hash``)."""
    from rldp_verify.structured.channels import BitChannel, Symmetric, UnaryProduct
    from rldp_verify.structured.composite import BloomProduct, SampledBits
    from rldp_verify.structured.sketch import HashedInput, ReleasedProduct

    if isinstance(st, ReleasedProduct) and all(isinstance(c, (Symmetric, UnaryProduct)) for c in (st.frag, st.word)):
        w = st._search()[1]                                   # SFP over GRR / unary encoding: both parts at (l, x, x')
        if w is None:
            return None
        x, xp = w["x"], w["x_prime"]
        ins = [[[st.frag_input(w["l"], x)], [st.frag_input(w["l"], xp)]], [[st.word_input(x)], [st.word_input(xp)]]]
        return {"hash": f"the library's fragment and word indices of x = {x}, x' = {xp} at position {w['l']}",
                "parts": [_part_witness(c, u, _worst(c, u)) for c, u in zip((st.frag, st.word), ins, strict=True)]}
    if isinstance(st, BloomProduct) and st.hmax == 1 and (arg := st._solve()[1]) is not None:
        c, x, xp, only_x, only_xp = arg
        inner, u = UnaryProduct(st.m, BitChannel(st.bit.p, st.bit.q)), [only_x, only_xp]
        what = f"the library's hash row {c} at inputs {x} and {xp} (its positions)"
    elif isinstance(st, HashedInput) and (pair := st._pair()) is not None:
        row, x, xp = pair
        inner, u = st.inner, [[st.image(row, x)], [st.image(row, xp)]]
        what = f"the library's hash row {row} at inputs {x} and {xp} (its positions)"
    elif isinstance(st, SampledBits) and st.m >= 2 and st._split():      # any m released positions holding both
        inner, u = UnaryProduct(st.b, BitChannel(st.bit.p, st.bit.q)), [[st.bucket(0)], [st.bucket(st.k - 1)]]
        what = f"the library's buckets of inputs 0 and {st.k - 1}, both among the {st.m} released positions"
    else:
        return None
    if [len(v) for v in u] != [1, 1]:
        return None
    return {"hash": what, "parts": [_part_witness(inner, u, _worst(inner, u))]}


def _worst(c, u: list) -> int:
    """GRR's worst output for inputs u = [[v], [v']]: v for a >= b, else v' (unused by a unary encoding)."""
    from rldp_verify.structured.channels import Symmetric

    return u[0][0] if not isinstance(c, Symmetric) or c.a >= c.b else u[1][0]


def _part_witness(c, inputs: list, y: int) -> dict:
    """One part of :func:`prefix_witness`: GRR (the inputs their own buckets, output y) or a unary encoding (bits)."""
    from rldp_verify.structured.channels import Symmetric

    if isinstance(c, Symmetric):
        return {"seed": None, "inputs": inputs, "y": y}
    if len(inputs[0]) == 1:                                   # the word: UnaryProduct's worst bits at x and x'
        b_x, b_xp = c._best()[:2]
        bits = {inputs[1][0]: b_xp, inputs[0][0]: b_x} if inputs[0] != inputs[1] else {inputs[0][0]: 0}
    else:                                                     # the fragment: x's prefixes hot, x''s cold
        hot = int(c.bit.p >= c.bit.q)
        bits = {**{u: 1 - hot for u in inputs[1]}, **{u: hot for u in inputs[0]}}
    return {"seed": None, "inputs": inputs, "y": {str(i): v for i, v in sorted(bits.items())}}
