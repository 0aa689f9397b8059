"""eps-LDP audit certificate forms of OpenDP's Gaussian noise, noisy max and noisy top k (issue 23), built from the
structures' own fields; :mod:`rldp_verify_check.forms_more` derives what each proves.

- ``lattice-gaussian`` {lower, upper, k, scale, size} with an output index ``y`` as data: integers (k = 0), floats on
  the 2^k lattice and vectors of either plus discrete Gaussian noise
  (:class:`~rldp_verify.structured.noise.UnboundedLoss` with these ``params``, set by the OpenDP adapter); ``y`` is
  the least integer whose log ratio c(y) exceeds a rational upper bound of eps by 1 (so c(y) > eps certainly).
- ``noisy-max`` {scores, scale, noise, negate, k}: :class:`~rldp_verify.structured.noise.NoisyArgmax` (k = 1) and
  :class:`~rldp_verify.structured.noise.NoisyTopK`, the scores and the scale as the exact rationals the structure
  holds (the float scale's binary value); the checker recomputes the output laws in arb.
"""

from __future__ import annotations

import math
from fractions import Fraction

from rldp_verify.certificates import qs


def more_form(st, target=None) -> dict | None:
    """The statement part (and ``data``) of ``st`` in one of the forms above or of
    :mod:`~rldp_verify.certificates.audit_more2`, or None when it is none of them;
    ``target`` (:func:`rldp_verify.rldp.audit.parse_eps`) places the Gaussian witness output."""
    from rldp_verify.certificates.audit_more2 import threshold_form
    from rldp_verify.structured.noise import NoisyArgmax, NoisyTopK, UnboundedLoss

    if (form := threshold_form(st)) is not None:              # OpenDP's threshold releases (audit_more2)
        return form
    if isinstance(st, NoisyArgmax):
        return {"noisy-max": {"scores": [[qs(Fraction(v)) for v in r] for r in st.inputs],
                              "scale": qs(Fraction(st.scale)), "noise": st.noise, "negate": bool(st.negate),
                              "k": st.k if isinstance(st, NoisyTopK) else 1},
                "sizes": [len(st.inputs), 1]}
    if not isinstance(st, UnboundedLoss) or "lattice-gaussian" not in st.params:
        return None
    g = dict(st.params["lattice-gaussian"])
    form = {"lower": qs(Fraction(g["lower"])), "upper": qs(Fraction(g["upper"])), "k": int(g["k"]),
            "scale": qs(Fraction(g["scale"])), "size": int(g["size"])}
    return {"lattice-gaussian": form, "data": {} if st.constant else {"y": witness_output(form, target)}}


def witness_output(form: dict, target) -> int:
    """An integer y whose float's least index y_lo = y - ceil(|y| 2^-52) - 1 (:mod:`rldp_verify_check.forms_more`)
    has c(y_lo) = size (i - i') (2 y_lo - i - i') / (2 sigma^2) >= eps_hi + 1, sigma = scale 2^-k, eps_hi a rational
    upper bound of eps (exp_eps: log rounded up by 1)."""
    k, n = form["k"], form["size"]
    i_lo, i_hi = (math.floor(Fraction(form[x]) / Fraction(2) ** k + Fraction(1, 2)) for x in ("lower", "upper"))
    sigma2 = (Fraction(form["scale"]) / Fraction(2) ** k) ** 2
    if target is None or target.eps_exact is not None:
        eps_hi = Fraction(0 if target is None else target.eps_exact)
    else:
        eps_hi = Fraction(math.ceil(math.log(target.exp_exact)) + 1)
    need = (i_hi + i_lo + 2 * sigma2 * (eps_hi + 1) / (n * (i_hi - i_lo))) / 2
    return math.ceil(need + 3 + abs(need) / 2**51)       # y - ceil(|y| 2^-52) - 1 >= need: the float's least index


def p_witness(res, st, sizes) -> dict | None:
    """Local hashing's lower end under {P} (the checker's ``p_witness``): the seed and bucket of the audit's witness
    output (``res.structured_witness``, "(bucket v, seed h)") with the buckets of every cell of its two secrets under
    that seed, when they are the buckets of ``XXH32`` (as
    :func:`~rldp_verify.certificates.audit_forms.hash_witness`); None otherwise (other hashes, xxhash missing, no
    witness output)."""
    import re

    from rldp_verify.certificates.audit_forms import XXH32

    w = getattr(res, "structured_witness", None) or {}
    hit = re.fullmatch(r"\(bucket (\d+), seed (\d+)\)", str(w.get("y", "")))
    if hit is None or st.hash_fn is None or sizes is None:
        return None
    try:
        import xxhash
    except ImportError:                                       # xxhash not installed: no witness
        return None
    y, seed, a2 = int(hit.group(1)), int(hit.group(2)), int(sizes[1])
    cells = [[int(w[k]) * a2 + u for u in range(a2)] for k in ("s", "s_prime")]
    buckets = [[int(st.hash_fn(x, seed)) for x in row] for row in cells]
    if buckets != [[xxhash.xxh32(str(x).encode("utf-8"), seed=seed & 0xFFFFFFFF).intdigest() % st.g for x in row]
                   for row in cells]:
        return None                                           # the XXH32 expression, evaluated
    return {"seed": seed, "y": y, "s": int(w["s"]), "s_prime": int(w["s_prime"]), "buckets": buckets, "hash": XXH32}
