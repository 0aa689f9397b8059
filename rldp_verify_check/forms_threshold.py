"""Audit forms of issue 23's second pass: OpenDP's threshold releases, Hadamard response's lower end, a unary encoding
on the whole simplex.

- ``threshold-release`` {noise, scale, threshold} (set ldp): OpenDP's make_laplace_threshold / make_gaussian_threshold
  on maps: each key of the input is released with its value plus noise Z (discrete Laplace or Gaussian of scale > 0:
  positive mass at every point of its lattice) when the noisy value passes the threshold t; a key absent from the
  input is never released.  x = {key: v}, x' = {}: an output holding the key has probability > 0 under x (some
  lattice point of Z lies beyond t - v) and 0 under x' (its key set is empty), so rho = L = U = inf for any scale and
  t: the printed ends must be "inf" and the verdict FAIL (INCONCLUSIVE allowed).
- ``two-level`` {a, b} (Hadamard response, set ldp) with ``hadamard_witness`` {inputs [x, x'], y, supports [[r, o, n],
  [r', o', n']]}: input x's support is {o + j : 0 <= j < n, H_n[r][j] = +1}, H_n[r][j] = (-1)^popcount(r & j) the
  Sylvester-Hadamard matrix of order n = 2^m (r < n), and Q[y|x] = a on it, b elsewhere.  The checker recomputes
  whether y lies in each support: L = Q[y|x] / Q[y|x'] exactly; U = max(a/b, b/a) (:mod:`.audit`).  Which row and
  offset the library gives an input (row x + 1 at offset 0 in the high-privacy encoder, a permuted column in a block in
  the general one) is data, re-checked outside the checker against the library.
- ``unary`` {d, p, q} (0 < q < 1) or ``subsets`` {m, p} under ``{"type": "simplex"}`` (a Rényi ball of radius inf
  is the simplex): unary as on a ball (:mod:`.audit`), every P with two secrets of positive mass has rho =
  h_max/h_min; subsets: P(Y|s) = f(c_s(Y)) with c_s(Y) in [0, 1] and f affine from B to A, so every ratio is at most
  max(A/B, B/A), attained (m < k: an output Y holding the one cell of s in P's support and not that of s').  So U =
  that ratio when |S| >= 2 (else 1); L from the witness table (any distribution is in the simplex): unary the same
  ratio when two of its secrets have positive mass (else 1), subsets its ratio at the witness output as under {P}.
"""

from __future__ import annotations

from rldp_verify_check import CertificateError, q
from rldp_verify_check import audit as A


def check_threshold(st: dict, data: dict) -> str:
    """Check an ``audit`` statement in one of the forms above; returns what was proved."""
    F = st["set"]
    U: object
    L: object
    if "threshold-release" in st:
        f = st["threshold-release"]
        if F["type"] != "ldp" or f["noise"] not in ("laplace", "gaussian") or not q(f["scale"]) > 0:
            raise CertificateError("a threshold release needs laplace or gaussian noise of scale > 0 and the set ldp")
        U, L = A.INF, A.INF
        what = f"threshold release ({f['noise']}, threshold {q(f['threshold'])}): a key released under x only"
    elif F["type"] == "simplex":                       # the structured route of :mod:`.audit`
        if not {"unary", "subsets"} & set(st):
            raise CertificateError("a structured form on the simplex is a unary encoding's or subset selection's")
        U, L = A._structured(st, F, data)
        what = f"{'unary encoding' if 'unary' in st else 'subsets'} on the simplex"
    else:
        U, L, what = _hadamard(st, data["hadamard_witness"])
    return f"{A._conclude(st, U, L)} ({what})"


def _hadamard(st: dict, w: dict):
    """(U, L, message) of Hadamard response with its witness output (module docstring)."""
    kind, _, a, b, top = A._structured_channel(st, st["set"], int(st["sizes"][0]))
    (x, xp), y = (int(v) for v in w["inputs"]), int(w["y"])
    sup = [[int(v) for v in s] for s in w["supports"]]
    if kind != "t" or x == xp or len(sup) != 2 or any(len(s) != 3 or s[2] < 1 or s[2] & (s[2] - 1) or not
                                                      0 <= s[0] < s[2] for s in sup):
        raise CertificateError("the Hadamard witness needs two-level, inputs x != x' and supports [r, o, n] with n a "
                               "power of 2 and 0 <= r < n")
    level = [a if 0 <= y - o < n and bin(r & (y - o)).count("1") % 2 == 0 else b for r, o, n in sup]
    return top, A._ratio(*level), f"Hadamard response, y = {y}: supports {sup} of inputs {x}, {xp} (data)"
