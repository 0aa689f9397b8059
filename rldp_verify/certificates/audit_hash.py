"""Witnesses over compound public seeds (issue 23): the lower end, and so a FAIL, of local hashing whose bucket is
not xxh32(str(x), seed) % g alone, written as data the checker takes and a reader re-checks outside it.

- The Hadamard mechanism (pure-ldp ``HadamardMechClient``): the released seed is the tuple of t rows (j_1, ..., j_t)
  and the bucket of x is the index of the sign tuple ((-1)^popcount(x & j_i))_i in itertools.product((-1, 1),
  repeat=t) (the library's ``hashes`` list; its ``_count_bin_ones`` is popcount(x & j)): :data:`HM_SIGNS`.
- A sketch or prefix in front of local hashing (:class:`~rldp_verify.structured.sketch.SketchMixture`: pure-ldp's
  ``SketchResponseClient`` over FastLH, ``PEMClient`` over LH): the released seed is (j, s), the inner client hashes
  the image u = h_j(x) (the library's sketch row j, count sketch's cs_map, PEM's prefix index at group j), and the
  bucket is xxh32(str(u), s) % g: :data:`SKETCH_XXH32`. The images are data too (read by running the library's
  ``privatise``), re-checked with the library's row j; the buckets re-checked from them with xxhash.

Each bucket is computed from its recipe here (xxhash, or the sign tuple) and compared with the audit's own bucket
(the library's hash as the adapter runs it); on any mismatch no witness is written (the FAIL stays refused).
:func:`compound_witness` gives the ``seeded-grr`` form's ``hash_witness``; :func:`compound_product_witness` the
``product_witness`` of TreeHist and SFP over these parts (:mod:`rldp_verify_check.audit` states what both prove).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from rldp_verify.certificates.audit_forms import XXH32

HM_SIGNS = ("[*itertools.product((-1, 1), repeat=len(seed))].index(tuple((-1) ** bin(x & j).count('1') for j in "
            "seed)) (pure-ldp HadamardMechClient: the signs at the released rows seed = [j_1, ..., j_t])")
SKETCH_XXH32 = ("xxh32(str(u).encode('utf-8'), seed=s & 0xFFFFFFFF) % g of the images u of x at seed = [j, s] (u: the "
                "library's sketch row j / prefix index of group j, as its privatise passes it to the inner client)")


def _free(fn, name: str):
    """The closure variable ``name`` of the function ``fn`` (None when it has none)."""
    names = getattr(getattr(fn, "__code__", None), "co_freevars", ())
    return fn.__closure__[names.index(name)].cell_contents if name in names else None


def _xxh32(v, s: int, g: int) -> int:
    import xxhash

    return xxhash.xxh32(str(v).encode("utf-8"), seed=s & 0xFFFFFFFF).intdigest() % g


def _hm_bucket(x: int, rows) -> int:
    return list(itertools.product((-1, 1), repeat=len(rows))).index(tuple((-1) ** bin(x & j).count("1") for j in rows))


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _recipe(pm, u: int, seed):
    """(bucket, image or None, recipe) of input u at ``seed`` by the recipe of ``pm``'s hash (module docstring), or
    None when none applies or it differs from the audit's bucket ``pm.hash_fn(u, seed)``."""
    from rldp_verify.structured.sketch import SketchMixture

    try:
        import xxhash  # noqa: F401
    except ImportError:
        return None
    image, inner = _free(pm.hash_fn, "image"), _free(pm.hash_fn, "pm")
    if isinstance(pm, SketchMixture) and image is not None and inner is not None and isinstance(seed, tuple) \
            and len(seed) == 2 and _is_int(seed[1]):
        v = image(seed[0], u)
        got = (_xxh32(v, seed[1], pm.g), v, SKETCH_XXH32) if _is_int(v) else None
    elif isinstance(seed, tuple) and seed and all(_is_int(j) and j >= 0 for j in seed) and pm.g == 2 ** len(seed):
        got = (_hm_bucket(u, seed), None, HM_SIGNS)
    elif _is_int(seed):
        got = (_xxh32(u, seed, pm.g), None, XXH32)
    else:
        return None
    return got if got is not None and got[0] == int(pm.hash_fn(u, seed)) else None


def part_data(pm, inputs: list, seed) -> dict | None:
    """{seed, inputs, buckets[, images], hash} of a local-hashing part at ``seed`` for ``inputs`` [[u_r(x)],
    [u_r(x')]], every bucket by its recipe (:func:`_recipe`); None when one is not reproduced."""
    got = [[_recipe(pm, u, seed) for u in side] for side in inputs]
    if any(r is None for side in got for r in side) or not all(_is_int(u) for side in inputs for u in side) or \
            len({r[2] for side in got for r in side}) != 1:
        return None
    out = {"seed": list(seed) if isinstance(seed, tuple) else seed, "inputs": inputs,
           "buckets": [[r[0] for r in side] for side in got]}
    if got[0][0][1] is not None:
        out["images"] = [[r[1] for r in side] for side in got]
    return {**out, "hash": got[0][0][2]}


def compound_witness(st) -> dict | None:
    """The ``hash_witness`` {seed, inputs [x, x'], buckets [h, h'] (h != h')[, images], hash} of local hashing over a
    compound seed (module docstring): the Hadamard mechanism's separating rows of inputs 0 and 1, a sketch's
    separating (j, s) of input 0 and the x' the audit found; None when there is none or a bucket is not reproduced."""
    from rldp_verify.structured.channels import PublicMixture
    from rldp_verify.structured.sketch import SketchMixture

    if not isinstance(st, PublicMixture) or st.hash_fn is None:
        return None
    xp, seed = st._pair() if isinstance(st, SketchMixture) else (1, st.separating(0, 1))
    if seed is None or _is_int(seed):
        return None                                  # an int seed: xxh32 alone (audit_forms.hash_witness)
    part = part_data(st, [[0], [xp]], tuple(seed) if isinstance(seed, (tuple, list)) else seed)
    if part is None or part["buckets"][0] == part["buckets"][1]:
        return None
    flat = {k: [v[0][0], v[1][0]] for k, v in part.items() if k in ("inputs", "buckets", "images")}
    return {"seed": part["seed"], **flat, "hash": part["hash"]}


def seed_witness(st) -> dict | None:
    """Local hashing's ``hash_witness``: xxh32 at an int seed (:func:`~rldp_verify.certificates.audit_forms.
    hash_witness`), else over a compound seed (:func:`compound_witness`); None when neither applies."""
    from rldp_verify.certificates.audit_forms import hash_witness

    return hash_witness(st) or compound_witness(st)


def _default_seed(pm):
    """Any seed of ``pm`` (for a part whose two inputs are equal: its factor is 1 at every seed)."""
    from rldp_verify.structured.sketch import SketchMixture

    first = next(iter(pm.seeds)) if pm.seeds is not None else 0
    return tuple(first) if isinstance(pm, SketchMixture) or isinstance(first, (tuple, list)) else first


def _part_at(pm, u: list, up: list, seed, y_of_x: bool | None = None, y=None) -> dict | None:
    """A product witness part over local hashing: data at ``seed`` (any seed when the inputs are equal), the output
    bucket y (given, else x's bucket when a >= b and x''s otherwise)."""
    if seed is None:
        if u != up:
            return None
        seed = _default_seed(pm)
    part = part_data(pm, [u, up], tuple(seed) if isinstance(seed, list) else seed)
    if part is None:
        return None
    if y is None:
        y = part["buckets"][0 if (pm.a >= pm.b if y_of_x is None else y_of_x) else 1][0]
    return {**part, "y": int(y)}


def compound_product_witness(st) -> dict | None:
    """The ``product_witness`` of TreeHist (:class:`~rldp_verify.structured.treehist.PrefixMixture`, parts [word,
    fragment]) or SFP (:class:`~rldp_verify.structured.sketch.ReleasedProduct`, parts [fragment, word]) over local
    hashing parts (TreeHist: compound seeds, its int seeds being :func:`~rldp_verify.certificates.audit_forms.
    product_witness`'s; SFP: compound or int), each part's buckets by its recipe (:func:`part_data`), at the engine's
    searched inputs and seeds; None when there is no searched witness or a bucket is not reproduced."""
    from rldp_verify.structured.channels import PublicMixture
    from rldp_verify.structured.sketch import ReleasedProduct
    from rldp_verify.structured.treehist import PrefixMixture

    if not (isinstance(st, (PrefixMixture, ReleasedProduct)) and all(isinstance(c, PublicMixture) for c in
                                                                     (st.word, st.frag))):
        return None
    if isinstance(st, PrefixMixture):
        w = st.ratio_bounds(0)[2]
        if w is None or _is_int(w["frag_seed"]) and (w["word_seed"] is None or _is_int(w["word_seed"])):
            return None                              # int seeds: xxh32 alone (audit_forms.product_witness)
        x, xp = (w["x"], w["x_prime"]) if w["direction"] == 1 else (w["x_prime"], w["x"])
        wi, ui = [st.word_index(x), st.word_index(xp)], [list(st.prefixes(x)), list(st.prefixes(xp))]
        parts = [_part_at(st.word, [wi[0]], [wi[1]], w["word_seed"]),
                 _part_at(st.frag, ui[0], ui[1], w["frag_seed"], y=w["frag_bucket"])]
        what = "TreeHist's word index and prefix indices of x and x' (the library's index_mapper)"
    else:
        w = st._search()[1]
        if w is None:
            return None
        x, xp, pos = w["x"], w["x_prime"], w["l"]
        ins = [([st.frag_input(pos, x)], [st.frag_input(pos, xp)]), ([st.word_input(x)], [st.word_input(xp)])]
        parts = [_part_at(c, u, up, c.separating(u[0], up[0]) if u != up else None)
                 for c, (u, up) in zip((st.frag, st.word), ins, strict=True)]
        what = f"the library's fragment and word indices of x = {x}, x' = {xp} at position {pos}"
    if any(p is None for p in parts):
        return None
    return {"hash": f"{what}; per part its buckets' recipe (hash)", "parts": parts}


def composed_form(st) -> dict | None:
    """The ``product`` form of a composition whose parts' channels have checker forms but which
    :func:`~rldp_verify.certificates.audit_forms.product_form` does not list: SFP over CMS
    (:class:`~rldp_verify.structured.sketch.ReleasedProduct`, parts [fragment, word]) and TreeHist over CMS
    (:class:`~rldp_verify.structured.treehist.RowPrefix`, parts [word, fragment]), a CMS report being a released row j
    then a unary encoding of h_j(u) on m positions (``unary`` {m, p, q}); TreeHist over Hadamard response
    (:class:`~rldp_verify.structured.treehist.PrefixTwoLevel`, ``two-level`` parts). Upper end only (the product of the
    parts' ratios); only when the structure's own upper end is that product. None otherwise."""
    from rldp_verify.certificates.audit_forms import part_form
    from rldp_verify.structured.channels import BitChannel, UnaryProduct
    from rldp_verify.structured.composite import BloomProduct, TwoLevel
    from rldp_verify.structured.sketch import ReleasedProduct, _part_max, _times
    from rldp_verify.structured.treehist import PrefixTwoLevel, RowPrefix

    def cms(c):
        ok = isinstance(c, BloomProduct) and c.hmax == 1 and c.m >= 2
        return UnaryProduct(c.m, BitChannel(c.bit.p, c.bit.q)) if ok else None
    if isinstance(st, ReleasedProduct):
        parts = [cms(st.frag), cms(st.word)]
    elif isinstance(st, RowPrefix):
        parts = [cms(st.word), cms(st.frag)]
    elif isinstance(st, PrefixTwoLevel) and all(isinstance(c, TwoLevel) for c in (st.word, st.frag)):
        parts = [st.word, st.frag]
    else:
        return None
    forms = [None if c is None else part_form(c) for c in parts]
    if None in forms or st.upper() != _times(*(_part_max(c) for c in parts)):
        return None
    return {"product": forms, "sizes": [st.d, 1]}


def hash_form(st) -> dict | None:
    """The eps-LDP statement (with its ``data``) of pure-ldp's RAPPOR (``bloom`` {m, h, p, q}, h = the hash functions
    per cohort: a :class:`~rldp_verify.structured.composite.BloomProduct` with hmax >= 2; the witness cohort, inputs
    and their filter sets as data), private count sketch (``signed-sketch`` {w, hot, cold},
    :class:`~rldp_verify.structured.sketch.SignedSketch`; the witness row, inputs and keys (h, s) as data), TreeHist /
    SFP over histogram encoding (``laplace-reports`` {b: [b_F, b_W]},
    :class:`~rldp_verify.structured.sketch.LaplaceReports`: upper end only) or a composition of
    :func:`composed_form`; None for anything else (:mod:`rldp_verify_check.forms_hash` states what each proves)."""
    from rldp_verify.certificates import qs
    from rldp_verify.structured.composite import BloomProduct
    from rldp_verify.structured.sketch import LaplaceReports, SignedSketch

    if isinstance(st, LaplaceReports):
        return {"laplace-reports": {"b": [qs(Fraction(st.frag_scale)), qs(Fraction(st.word_scale))]},
                "sizes": [st.d, 1]}
    if isinstance(st, BloomProduct) and st.hmax is not None and st.hmax >= 2 and st.m >= 2 and _top(st):
        form = {"bloom": {"m": st.m, "h": st.hmax, "p": qs(st.bit.p), "q": qs(st.bit.q)}, "sizes": [st.d, 1]}
        arg = st._solve()[1]
        if arg is None:
            return form
        c, x, xp = arg[:3]
        sets = [sorted(int(i) for i in st.sets(c, v)) for v in (x, xp)]
        return {**form, "data": {"bloom_witness": {"cohort": c, "inputs": [x, xp], "sets": sets, "hash": (
            f"the library's hash functions of cohort {c} at inputs {x}, {xp} (its positions, then {xp}'s)")}}}
    if isinstance(st, SignedSketch) and _top(st):
        form = {"signed-sketch": {"w": st.w, "hot": qs(st.hot), "cold": qs(st.cold)}, "sizes": [st.d, 1]}
        where = st._scan()[1]
        if where is None:
            return form
        j, x, xp = where
        return {**form, "data": {"sketch_witness": {"row": j, "inputs": [x, xp], "keys": [list(st.key(j, v)) for v in (
            x, xp)], "hash": f"the library's hash pair {j} (h onto w, s = 2 g - 1) at inputs {x}, {xp}"}}}
    return composed_form(st)


def _top(st) -> bool:
    """Is the structure's exact ratio the bound the checker derives for any hash (``bloom``: (r1 r2)^h;
    ``signed-sketch``: the max over all key pairs)? Else its form would print an upper end below that bound."""
    from rldp_verify.structured.composite import BloomProduct

    INF = float("inf")
    if isinstance(st, BloomProduct):
        r1, r2 = st._r()
        top = INF if INF in (r1, r2) else (r1 * r2) ** st.hmax
    else:
        top = max(st._value(t) for t in st._types())
    return st.ratio() == top


def upper_only(head: dict, data: dict, res) -> bool:
    """Does the statement ``head`` certify its upper end only (no witness for its lower end)? Raises InputError (one
    line) for a FAIL of such a statement: a FAIL needs a certified lower end."""
    from rldp_verify.core.errors import InputError

    only = "laplace-reports" in head or "bloom" in head and "bloom_witness" not in data or \
        "signed-sketch" in head and "sketch_witness" not in data
    if only and str(res.verdict) == "FAIL":
        raise InputError(f"no certificate for the FAIL of {res.adapter}: its form certifies the upper end only (no "
                         "searched witness of the lower end)")
    return only


def hashing_ball(res, st) -> tuple[dict, dict]:
    """(head, data) of a Rényi-ball audit of local hashing (a :class:`~rldp_verify.structured.channels.PublicMixture`)
    as ``seeded-grr`` {g, a, b}: its upper end max(a/b, b/a) holds for every P (each P(y|s) is a convex combination of
    the row's entries w_h a, w_h b: :mod:`rldp_verify_check.audit`), so on the ball; its lower end at the audit's
    witness P (certified in F, re-checked by the checker) and output (seed, bucket), the buckets of both secrets' cells
    as ``p_witness`` data (:func:`~rldp_verify.certificates.audit_more.p_witness`: xxh32 only), else upper end only.
    InputError (one line) for another structure, for a FAIL without such a witness, and for an upper end below
    max(a/b, b/a) of a complete seed range (it rests on the library's hash at every seed) unless the verdict is a FAIL
    with a witness (its certificate then states the upper end max(a/b, b/a)); any other upper end below max(a/b, b/a)
    is written, and rejected by the checker."""
    from rldp_verify.certificates import qs
    from rldp_verify.certificates.audit import _key, _table
    from rldp_verify.certificates.audit_more import p_witness
    from rldp_verify.core.errors import InputError
    from rldp_verify.structured.channels import PublicMixture, ratio

    if not isinstance(st, PublicMixture):
        raise InputError(f"no certificate form for {res.adapter} ({st.kind}) on a Rényi ball: no structured form in "
                         "rldp_verify_check")
    sizes = (res.ball.sensitive_size, res.ball.public_size)
    top = max(_key(ratio(st.a, st.b)), _key(ratio(st.b, st.a)))
    pw = p_witness(res, st, sizes) if res.witness is not None and res.ratio_lower is not None else None
    if res.verdict == "FAIL" and pw is None or \
            st.complete and _key(res.ratio_upper) < top and (pw is None or res.verdict == "PASS"):
        raise InputError(hashing_refusal(res, st, top, " on a Rényi ball"))
    head = {"seeded-grr": {"g": st.g, "a": qs(st.a), "b": qs(st.b)}, "sizes": list(sizes)}
    return head, ({"witness": _table(res.witness), "p_witness": pw} if pw else {"witness": None})


def hashing_refusal(res, st, top, where: str) -> str:
    """The one-line reason why local hashing's verdict ``res`` has no certificate (``top`` = max(a/b, b/a)): a FAIL
    whose lower end rests on a hash other than xxh32 (its buckets are not reproduced), or an upper end below ``top``
    (a complete seed range: the exact maximum over every seed and bucket) whose :func:`seed_table` is too large (under
    {P}) or which has no form (on a Rényi ball, ``where``: its upper end is the decoupled projection bound)."""
    from rldp_verify.certificates.audit import _key

    head = f"no certificate for the {res.verdict} of {res.adapter} ({st.kind}){where}: "
    if res.verdict == "FAIL" or _key(res.ratio_upper) >= top:
        return head + ("its lower end rests on a seed that separates two inputs under the library's hash, which is "
                       "not xxh32(str(x), seed) % g (a PASS is certified from g, a, b alone)")
    n = len(st.seeds)
    return head + f"its upper end {float(res.ratio_upper):.9g} < max(a/b, b/a) = {float(top):.9g} " + (
        f"is the maximum over all {n} seeds of the library's hash, and its seed table ({n} x |X| buckets) has more "
        f"than {SEED_TABLE_ENTRIES} entries" if not where else f"is Theorem 1's decoupled bound over all {n} seeds of "
        "the library's hash, which has no form in rldp_verify_check (the dense route certifies small domains)")


#: the largest ``seed_table`` (seeds x |X| buckets) a certificate writes
SEED_TABLE_ENTRIES = 2**21


def seed_table(st, sizes) -> dict | None:
    """The ``seed_table`` {seeds, buckets, hash} of local hashing over its whole seed range (``st.complete``) under
    {P}: the bucket of every input x = s |U| + u at every seed, from which the checker recomputes rho(P) exactly
    (:mod:`rldp_verify_check.forms_hash`); the hash named xxh32 when every bucket is reproduced so, else the library's.
    None for a seed range not searched whole, or beyond SEED_TABLE_ENTRIES buckets."""
    from rldp_verify.certificates.audit_forms import XXH32

    seeds, k = list(st.seeds) if st.seeds is not None else [], int(sizes[0]) * int(sizes[1])
    if not st.complete or not seeds or len(seeds) * k > SEED_TABLE_ENTRIES:
        return None
    buckets = [[int(st.hash_fn(x, h)) for x in range(k)] for h in seeds]
    try:
        xxh = all(_is_int(h) for h in seeds) and buckets == [[_xxh32(x, h, st.g) for x in range(k)] for h in seeds]
    except ImportError:                                       # xxhash missing: named as the library's hash
        xxh = False
    return {"seeds": [list(h) if isinstance(h, tuple) else h for h in seeds], "buckets": buckets,
            "hash": XXH32 if xxh else f"the library's hash of {st.kind} at each listed seed (its whole range)"}
