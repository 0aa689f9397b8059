"""Audit certificates: the raw data behind an :class:`~rldp_verify.rldp.audit.AuditResult`.

The statement is the audited matrix Q (exact), the uncertainty set, e^eps (or eps) and the printed
``verdict`` / ``ratio_upper`` / ``ratio_lower`` of ``rldp-verify audit --json``; the data are the witness P
(exact) and, for a Rényi ball, for every (y, s, s') a pair entry: rational dual parameters (t, mu1, mu2) with a
bound r, or Theorem 1's product / budget-split form (:mod:`rldp_verify_check.audit` states the inequality they
prove).

Per pair the first entry that the independent checker accepts at r <= R = ``result.ratio_upper`` is kept:
Proposition 3's parameters (t = 0, exact), then the entry the audit certified the pair's upper end with
(``result.pair_entries``, see :mod:`rldp_verify.rldp.audit.bounds`), then proposals recomputed from public
pieces of the audit (for the pairs the float screen settled, which keeps no parameters, and for audits that do
not expose entries): the float screen's parameters (its tables, as ``certify_float`` reads them), the
float-optimised dual of ``PairProblem.optimise_dual(R)``, the primal point's multipliers (``solve_primal``,
rounded as ``solve_pair`` rounds them) at R and at r* (1 + delta), and last Theorem 1's product of projections
(``"mode": "product"``, each block's mu optimised at dps + 15 digits).  When none is accepted the pair is
written with the last candidate and the certificate fails the check: an audit bound we cannot re-derive is
reported, never hidden.
"""

from __future__ import annotations

import bisect
import math
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

import mpmath
import numpy as np

from rldp_verify.certificates import audit_product, envelope, qs
from rldp_verify.certificates.audit_product import dyadic as _frac
from rldp_verify.core.errors import CertificationError, InputError
from rldp_verify.rldp.audit import exact_matrix, load_mechanism, parse_eps
from rldp_verify.rldp.audit.pair import PairProblem
from rldp_verify.rldp.uncertainty import RenyiBall, read_table

INF = math.inf


def _table(P):
    return [[qs(v) for v in row] for row in P]


def _qs_entry(entry: dict) -> dict:
    """A pair entry with its numbers (and lists of numbers) as "p/q" strings."""
    return {k: v if k == "mode" else [qs(x) for x in v] if isinstance(v, list) else qs(v) for k, v in entry.items()}


def _accepts(Q_y, a2, s1, s2, phat, alpha, B, entry: dict) -> bool:
    """Does the independent checker accept this pair entry?"""
    from rldp_verify_check import CertificateError
    from rldp_verify_check.audit import pair_bound
    from rldp_verify_check.value import decide

    entry = _qs_entry(entry)

    def claim():
        v = pair_bound(Q_y, a2, s1, s2, phat, alpha, B, entry)
        return True if v <= 0 else (False if v > 0 else None)
    try:
        return decide(claim, 128)
    except CertificateError:
        return False


def _candidates(prob: PairProblem, R: Fraction, dps: int):
    """(r, lambda, mu1, mu2) candidates in the engine's parametrisation (lambda multiplies phi(B))."""
    q1, q2 = prob.q1, prob.q2
    yield R, Fraction(0), max(q1), -R * min(q2)
    try:
        lam, mu1, nu2 = prob.optimise_dual(R)
        yield R, lam, mu1, R * nu2
    except (ValueError, ZeroDivisionError, OverflowError):
        pass
    try:
        with mpmath.workdps(dps + 15):
            sol = prob.solve_primal(dps)
            if sol is None or not all(mpmath.isfinite(v) for v in (sol.r, sol.lam, sol.mu1, sol.nu2)):
                return
            lam = _frac(sol.lam, dps + 10)
            mu1 = max(_frac(sol.mu1, dps + 10), max(q1))
            nu2 = max(_frac(sol.nu2, dps + 10), max(-x for x in q2))
            for m, top in ((mu1, max(q1)), (nu2, max(-x for x in q2))):
                if abs(m - top) <= Fraction(1, 10 ** (dps - 5)) * (1 + abs(top)):
                    mu1, nu2 = (top, nu2) if m is mu1 else (mu1, top)
            rs = [R] + [_frac(sol.r * (1 + mpmath.mpf(10) ** (-(dps - 12) + 3 * k)), dps + 10) for k in range(6)]
            for r in rs:
                if r <= R:
                    yield r, lam, mu1, r * nu2
    except (ValueError, ZeroDivisionError, OverflowError):
        return


def _screen_params(Q, ball: RenyiBall, R: Fraction, keys):
    """Float dual parameters (lambda, mu1, mu2) at r = R for many pairs at once, read off the audit's float
    screen tables like :func:`rldp_verify.rldp.audit.screen.certify_float` does (which keeps none); a proposal
    for the checker."""
    import numpy as np

    from rldp_verify.rldp.audit.dual import phi_np
    from rldp_verify.rldp.audit.screen import _best_lambda, _mu, build_tables

    alpha = float(ball.alpha)
    beta = 1 - 1 / alpha
    Qf = np.array([[float(v) for v in row] for row in Q])
    phat = np.array([[float(v) for v in row] for row in ball.phat])
    Phi = float(phi_np(float(ball.radius), beta))
    tab = build_tables(Qf, phat, alpha, Phi)
    a1, a2 = phat.shape
    pairs = np.array(keys)
    r = float(R)
    q = Qf.reshape(Qf.shape[0], a1, a2)
    mass = phat.sum(axis=1)
    cond = np.where(mass[:, None] > 0, phat / np.where(mass[:, None] > 0, mass[:, None], 1.0), 0.0)
    y, s1, s2 = pairs[:, 0], pairs[:, 1], pairs[:, 2]
    q1, q2 = q[y, s1, :], q[y, s2, :]
    g = np.argmax(tab.U[y, s1, :] - r * tab.L[y, s2, :], axis=-1)
    mu1 = np.maximum(_mu(q1, cond[s1], np.exp(tab.tU[y, s1, g])), q1.max(axis=1))
    mu2 = np.maximum(r * _mu(-q2, cond[s2], np.exp(tab.tL[y, s2, g])), (-r * q2).max(axis=1))
    from rldp_verify.rldp.audit.dual import power_mean_np
    M1 = power_mean_np(mu1[:, None] - q1, cond[s1], beta)
    M2 = power_mean_np(mu2[:, None] + r * q2, cond[s2], beta)
    lam = _best_lambda(M1, M2, mass[s1], mass[s2], beta, Phi)
    out = {}
    for k, key in enumerate(keys):
        if all(np.isfinite(v) for v in (lam[k], mu1[k], mu2[k])):
            yy, a, b = key
            m1 = max(Fraction(float(mu1[k])), max(Q[yy][a * a2:(a + 1) * a2]))
            m2 = max(Fraction(float(mu2[k])), max(-R * v for v in Q[yy][b * a2:(b + 1) * a2]))
            out[key] = (R, Fraction(float(lam[k])), m1, m2)
    return out


#: beyond this many pairs (y, s, s') a Rényi-ball certificate lists only the pairs that Proposition 3 does not settle
#: at the printed upper end R (``"simplex_rest": true``: the checker bounds every unlisted pair by max q1 / min q2
#: itself): the red-team's 240 x 1 audit has 1,376,640 pairs, all settled so, and its certificate lists none
INLINE_PAIRS = 10_000


def _unsettled(rows, R: Fraction) -> list[tuple[int, int, int]]:
    """The pairs (y, s, s') with max q1 > R min q2 (R > 0), those that Proposition 3 does not settle at R: per (y, s)
    the s' whose min q2 is below max q1 / R, by bisection in the row's sorted minima."""
    out = []
    for y, blocks in enumerate(rows):
        lows = sorted((min(b), t) for t, b in enumerate(blocks))
        mins = [m for m, _ in lows]
        for s, b in enumerate(blocks):
            out += [(y, s, t) for _, t in lows[:bisect.bisect_left(mins, max(b) / R)] if t != s]
    return sorted(out)


def ball_pairs(Q, ball: RenyiBall, R, dps: int, entries: dict | None = None, unsettled: bool = False) -> list[dict]:
    """Per-(y, s, s') dual parameters proving P(y|s) <= r P(y|s') on the ball, r <= R where possible;
    ``entries``: the audit's own pair entries ((y, s, s') -> entry), tried before any recomputation; with
    ``unsettled`` only the pairs that Proposition 3 does not settle at R (none when R is infinite: see
    :data:`INLINE_PAIRS`)."""
    a1, a2 = ball.sensitive_size, ball.public_size
    alpha = Fraction(ball.alpha)
    phat = [list(r) for r in ball.phat]
    rows = [[tuple(Q[y][s * a2:(s + 1) * a2]) for s in range(a1)] for y in range(len(Q))]
    if unsettled and (R == INF or R <= 0):
        return []                       # the checker's simplex bound is below an infinite R (R <= 0: no proof)
    keys = _unsettled(rows, Fraction(R)) if unsettled else \
        [(y, s1, s2) for y in range(len(Q)) for s1 in range(a1) for s2 in range(a1) if s1 != s2]
    if R == INF:
        return [{"y": y, "s": s1, "s_prime": s2, "r": "inf"} for y, s1, s2 in keys]
    R = Fraction(R)
    entries = {k: e for k, e in (entries or {}).items() if e["r"] <= R}
    try:                                # the screen only for pairs Proposition 3 does not settle (240 x 1: 1.4M)
        rest = [(y, s1, s2) for y, s1, s2 in keys if (y, s1, s2) not in entries
                and max(rows[y][s1]) > R * min(rows[y][s2])]
        screen = _screen_params(Q, ball, R, rest) if rest and 1 - 1 / alpha > -1 else {}
    except (ValueError, ZeroDivisionError, OverflowError, FloatingPointError):
        screen = {}
    out = []
    for y, s1, s2 in keys:
        entry = _pair_entry(Q, ball, rows, phat, screen, (y, s1, s2), R, dps, entries.get((y, s1, s2)))
        out.append({"y": y, "s": s1, "s_prime": s2, **_qs_entry(entry)})
    return out


def _pair_entry(Q, ball: RenyiBall, rows, phat, screen: dict, key: tuple, R: Fraction, dps: int,
                engine: dict | None = None) -> dict:
    """The entry of pair ``key`` = (y, s, s'): the first candidate (r, t, mu1, mu2) that the checker's test
    accepts (Proposition 3's exact parameters when they prove r = R, returned without a check: the checker's bound
    is then exactly max q1 - R min q2; else the audit's own entry ``engine``,
    the float screen's, then the recomputed ones), else Theorem 1's product entry when accepted (the audit's own,
    then the builder's: :func:`rldp_verify.certificates.audit_product.product_entries`), else the last candidate
    tried."""
    y, s1, s2 = key
    a2 = ball.public_size
    alpha, B = Fraction(ball.alpha), Fraction(ball.radius)
    beta = 1 - 1 / alpha
    q1, q2 = rows[y][s1], rows[y][s2]
    if max(q1) <= R * min(q2):          # Proposition 3 (t = 0): the bound is max q1 - R min q2 <= 0 exactly
        return {"r": R, "t": Fraction(0), "mu1": max(q1), "mu2": -R * min(q2)}
    if engine is not None and _accepts(Q[y], a2, s1, s2, phat, alpha, B, engine):
        return engine
    prob = PairProblem(ball, rows[y], y, s1, s2)
    first = [screen[key]] if key in screen else []
    cands = _chain(first, partial(_candidates, prob, R, dps))
    entry = None
    with np.errstate(all="ignore"):     # float proposals (R beyond float's range: nan), each re-checked exactly
        for r, lam, mu1, mu2 in cands:
            entry = {"r": r, "t": lam if beta == 0 else lam / beta, "mu1": mu1, "mu2": mu2}
            if _accepts(Q[y], a2, s1, s2, phat, alpha, B, entry):
                return entry
    for prod in audit_product.product_entries(prob, R, dps):
        if _accepts(Q[y], a2, s1, s2, phat, alpha, B, prod):
            return prod
    split = _split_entry(prob, R, dps) if alpha <= Fraction(1, 2) else None
    if split is not None and _accepts(Q[y], a2, s1, s2, phat, alpha, B, split):
        return split
    if entry is None:  # pragma: no cover - the engine always proposes at least one candidate
        raise CertificationError(f"no candidate dual parameters for the pair (y={y}, s={s1}, s'={s2})")
    return entry


def _split_entry(prob: PairProblem, R: Fraction, dps: int) -> dict | None:
    """For alpha <= 1/2 (where one budget's dual does not apply): the budget-split entry of
    :func:`rldp_verify.rldp.audit.grid.split_entry` when its bound is at most R (a pair the audit settled without
    keeping an entry, e.g. by the float screen); None otherwise."""
    from rldp_verify.rldp.audit.grid import split_entry

    try:
        r, entry = split_entry(prob, dps)
    except (ValueError, ZeroDivisionError, OverflowError):
        return None
    return entry if entry is not None and r <= R else None


def _chain(first, rest):
    yield from first
    yield from rest()


def audit_certificate(result, mechanism, eps, *, name: str = "audit", ball: RenyiBall | None = None, phat=None,
                      alpha=None, radius=None, confidence=None, samples=None, full_simplex: bool = False,
                      distribution=None, ldp: bool = False, normalize: bool = False, sizes=None, **_ignored) -> dict:
    """The ``audit`` certificate of ``result`` = :func:`rldp_verify.rldp.audit.audit` (``mechanism``, ``eps``,
    ...) called with the same arguments (extra keyword arguments of the audit, e.g. ``dps``, are ignored).  Q is the
    mechanism's exact matrix (float entries read exactly); when its columns sum to 1 only within float rounding the
    statement says ``"column_sums": "inexact"`` (Q as given: the checker's bounds use Q's rows only)."""
    if ball is None and phat is not None:
        if radius is not None:
            ball = RenyiBall.from_radius(phat, alpha, radius)
        else:
            ball = RenyiBall.from_confidence(phat, alpha, confidence, samples, dps=result.dps)
    if ball is not None:
        sizes = (ball.sensitive_size, ball.public_size)
    elif distribution is not None:
        t = read_table(distribution, name="distribution")
        sizes = (len(t), len(t[0]))
    mech = load_mechanism(mechanism, sizes=sizes, normalize=normalize)
    Q = exact_matrix(mech)
    a1, a2 = len(mech.sensitive), len(mech.public)
    target = parse_eps(eps)
    out = result.to_json()
    data: dict = {"witness": None}
    fset: dict[str, Any]
    if ldp:
        fset = {"type": "ldp"}
    elif full_simplex or (ball is not None and ball.radius == INF):
        fset = {"type": "simplex"}
        if result.witness is not None:
            data["witness"] = _table(result.witness)
    elif distribution is not None:
        fset = {"type": "distribution",
                "P": _table(read_table(distribution, name="distribution", normalize_counts=False))}
    elif ball is not None and ball.radius == 0:
        fset = {"type": "distribution", "P": _table(ball.phat)}
    elif ball is not None:
        fset = {"type": "renyi-ball", "phat": _table(ball.phat), "alpha": qs(ball.alpha), "radius": qs(ball.radius)}
        if result.witness is not None:
            data["witness"] = _table(result.witness)
        rest = len(Q) * a1 * (a1 - 1) > INLINE_PAIRS
        data["pairs"] = ball_pairs(Q, ball, result.ratio_upper, result.dps,
                                   getattr(result, "pair_entries", None), rest) if a1 >= 2 else []
        if rest:
            data["simplex_rest"] = True
    else:
        raise InputError("audit_certificate needs the audit's uncertainty set")
    st = {"Q": _table(Q), "sizes": [a1, a2], "set": fset,
          "eps": {"exp_eps": qs(target.exp_exact)} if target.exp_exact is not None else {"eps": qs(target.eps_exact)},
          "verdict": str(result.verdict), "ratio_upper": out["ratio_upper"], "ratio_lower": out["ratio_lower"]}
    if any(sum(row[c] for row in Q) != 1 for c in range(a1 * a2)):
        st["column_sums"] = "inexact"
    return envelope("audit", name, st, data)


def write_audit_certificate(path, result, mechanism, eps, **audit_kwargs):
    """Build the certificate of ``result`` (see :func:`audit_certificate`), write it to ``path`` and return the
    independent checker's answer on it (a :class:`rldp_verify_check.Checked`); when it cannot be built nothing is
    written and the answer says why (the audit's verdict is not affected)."""
    from rldp_verify.certificates import recheck, write
    from rldp_verify_check import Checked

    name = f"audit {Path(str(path)).stem}"
    try:
        doc = audit_certificate(result, mechanism, eps, name=name, **audit_kwargs)
    except (ArithmeticError, ValueError, CertificationError) as exc:  # the verdict stands, without certificate
        return Checked(name, "audit", False, f"no certificate written: {type(exc).__name__}: {exc}")
    write(path, doc)
    return recheck(doc)


# dense eps-LDP certificates of GRR and subset selection up to this many matrix entries (beyond: ``subsets``)
STRUCTURED_DENSE_ENTRIES = 2**16


def structured_certificate(res, adapted, eps, *, name: str = "audit") -> dict:
    """The ``audit`` certificate of a structured audit (:func:`rldp_verify.structured.audit_structured` of
    ``adapted``, an :class:`~rldp_verify.structured.audit.Adapted`) for eps-LDP, for one distribution P
    (``res.distribution``) or for a Rényi ball (``res.ball``: unary encodings, GRR and unordered subset selection,
    :func:`_subsets_ball`), without the channel's outputs:
    a unary encoding as its per-bit channel (``unary`` {d, p, q}); local hashing as its bucket channel
    (``seeded-grr`` {g, a, b}; for eps-LDP with the separating seed and its two buckets as data when the hash is
    xxh32, :func:`~rldp_verify.certificates.audit_forms.hash_witness`, else upper end only, ratio_lower null);
    OpenDP's lattice noise as ``lattice-laplace`` (:func:`~rldp_verify.certificates.audit_forms.lattice_form`);
    OpenDP's Gaussian noise and noisy max / top k as ``lattice-gaussian`` / ``noisy-max``
    (:mod:`~rldp_verify.certificates.audit_more`);
    k-ary randomized response and unordered subset selection as ``subsets`` {m, p} (GRR: m = 1, p = a) with, beyond
    eps-LDP, the output Y attaining the lower end (``data.output``), or for eps-LDP as their exact dense matrix when
    it has at most STRUCTURED_DENSE_ENTRIES entries. Raises :class:`InputError` (one line, naming the structure) where
    no certificate form exists: a FAIL of local hashing whose hash is not xxh32 (under {P}: the witness seed and
    bucket with both secrets' cells' buckets, :func:`~rldp_verify.certificates.audit_more.p_witness`) or an (eps, P)
    upper end below max(a/b, b/a) (the whole seed range searched: it rests on the hash at every seed; any other
    upper end below it is written and rejected by the checker), ordered subsets (m >= 2) beyond eps-LDP, RS+FD
    on a ball (eps-LDP, RS+FD under {P}, the Laplace histogram under any F: :mod:`~rldp_verify.certificates.audit_mfl`),
    a ball of infinite radius, and a FAIL turned into PASS by ``--tolerance``. Local hashing on a Rényi ball:
    :func:`~rldp_verify.certificates.audit_hash.hashing_ball`."""
    from rldp_verify.certificates.audit_hash import upper_only
    from rldp_verify.structured.channels import LaplaceHistogram, PublicMixture, UnaryProduct

    st = adapted.structure
    if res.tolerance is not None and res.verdict == "PASS" and res.excess is not None:
        raise InputError(f"no certificate for {res.adapter}: its PASS was accepted within --tolerance "
                         f"{res.tolerance}, it is not a certified verdict (rerun without --tolerance)")
    target = parse_eps(eps)
    out = res.to_json()
    fset, data, sizes = _structured_set(res)
    if fset["type"] == "renyi-ball" and has_subsets_form(st):
        head, data = _subsets_ball(res, st)
    elif fset["type"] == "renyi-ball" and not isinstance(st, UnaryProduct) and type(st) is not LaplaceHistogram:  # LH
        from rldp_verify.certificates.audit_hash import hashing_ball; head, data = hashing_ball(res, st)  # noqa: E702, I001
    else:
        head = _structured_head(res, st, sizes if fset["type"] != "ldp" else None, target)
    data.update(head.pop("data", {}))
    if "rows" in head:
        head = {"Q": _table(head.pop("rows")), "sizes": head.pop("shape")}
    lower = {"hash_witness", "product_witness", "p_witness", "seed_table"} & set(data) or head.get("coordinates")
    if "p_witness" in data:                                 # under {P} the checker certifies max(a/b, b/a) above
        out["ratio_upper"] = qs(max(Fraction(head["seeded-grr"]["a"]) / Fraction(head["seeded-grr"]["b"]),
                                    Fraction(head["seeded-grr"]["b"]) / Fraction(head["seeded-grr"]["a"])))
    if "product" in head and not lower and res.verdict == "FAIL":    # Hadamard response's witness, else InputError
        from rldp_verify.certificates.audit_more2 import fail_head; head, lower = fail_head(res, st), True  # noqa: E702, I001
        data.update(head.pop("data"))
    if not lower and (isinstance(st, PublicMixture) or "product" in head) or upper_only(head, data, res):
        out["ratio_lower"] = None                           # the certificate supports the upper end only
    elif "subsets" in head and fset["type"] in ("distribution", "simplex") and res.structured_witness is not None:
        data["output"] = _subset_output(res, st, sizes)
    e = {"exp_eps": qs(target.exp_exact)} if target.exp_exact is not None else {"eps": qs(target.eps_exact)}
    return envelope("audit", name, {**head, "set": fset, "eps": e, "verdict": str(res.verdict),
                                    "ratio_upper": out["ratio_upper"], "ratio_lower": out["ratio_lower"]}, data)


def _structured_set(res) -> tuple[dict, dict, tuple | None]:
    """(set, data, (|S|, |U|)) of a structured audit: eps-LDP, {P} or the Rényi ball (witness P^: in F, and
    giving two secrets positive mass whenever the audit printed a lower end); radius 0 is {P^}."""
    ball, P = getattr(res, "ball", None), getattr(res, "distribution", None)
    if ball is not None and ball.radius == 0:
        P = ball.phat
    if P is not None:
        return {"type": "distribution", "P": _table(P)}, {"witness": None}, (len(P), len(P[0]))
    if getattr(res, "simplex", None) is not None:                       # the Laplace histogram on P_X
        return {"type": "simplex"}, {"witness": None if res.witness is None else _table(res.witness)}, res.simplex
    if ball is None:
        if not str(res.uncertainty).startswith("eps-LDP"):
            raise InputError(f"no certificate for {res.adapter}: the result of its {res.uncertainty} audit does not "
                             "expose its uncertainty set (StructuredAudit.ball / .distribution)")
        return {"type": "ldp"}, {"witness": None}, None
    if ball.radius == INF:
        from rldp_verify.certificates.audit_more2 import infinite_ball; return infinite_ball(res)  # noqa: E702, I001
    return ({"type": "renyi-ball", "phat": _table(ball.phat), "alpha": qs(ball.alpha), "radius": qs(ball.radius)},
            {"witness": None if res.ratio_lower is None else _table(ball.phat if res.witness is None else res.witness)},
            (ball.sensitive_size, ball.public_size))


def has_subsets_form(st) -> bool:
    """GRR and unordered subset selection (or m = 1): the checker's ``subsets`` {m, p} form."""
    from rldp_verify.structured.channels import SubsetSelection, Symmetric

    return isinstance(st, Symmetric) or isinstance(st, SubsetSelection) and (not st.ordered or st.m == 1)


def _subsets_ball(res, st) -> tuple[dict, dict]:
    """(head, data) of a Rényi-ball audit of GRR / subset selection in the ``subsets`` {m, p} form at any size: one
    pair entry per (s, s') on the lumped blocks (:mod:`rldp_verify_check.audit`: G = the ``take`` heaviest cells of
    s, G' = the ``rest`` lightest of s' for A >= B, the roles swapped for A < B), the witness P and the output Y at
    the lower end. One block of a pair is constant (take = |U| or rest = 0), so its mu makes x = 0 and the entry of
    the moving block, found once per secret on a two-cell reduced pair (:func:`_pair_entry`), serves every partner.
    alpha <= 1/2 too: with one block constant (x = 0) the whole budget goes to the moving secret, and Theorem 1's
    product entry (:mod:`~rldp_verify.certificates.audit_product`) is that secret's projection, exact up to its mu."""
    from rldp_verify.structured.channels import Symmetric

    ball = res.ball
    a1, a2 = ball.sensitive_size, ball.public_size
    m, p = (1, st.a) if isinstance(st, Symmetric) else (st.m, st.P)
    A, B = p / math.comb(a1 * a2 - 1, m - 1), (1 - p) / math.comb(a1 * a2 - 1, m)
    head = {"subsets": {"m": m, "p": qs(p)}, "sizes": [a1, a2]}
    data: dict = {"witness": None, "pairs": []}
    if res.ratio_lower is not None and res.witness is not None:
        data["witness"] = _table(res.witness)
        if res.structured_witness is not None and a1 >= 2:
            data["output"] = _subset_output(res, st, (a1, a2))
    if a1 < 2:
        return head, data
    R = res.ratio_upper
    if R == INF:
        data["pairs"] = [{"s": s, "s_prime": t, "r": "inf"} for s in range(a1) for t in range(a1) if s != t]
        return head, data
    R = Fraction(R)
    take, rest = min(m, a2), max(0, m - a1 * a2 + a2)
    (n1, h1), (n2, h2) = ((take, True), (rest, False))[::1 if A >= B else -1]
    phat = [list(r) for r in ball.phat]
    lumps = [[_lump(phat[s], n, h, A, B) for s in range(a1)] for n, h in ((n1, h1), (n2, h2))]
    moving = 1 if n1 in (0, a2) else 0                  # n2 in (0, |U|) whenever 0 < n1 < |U| (module docstring)
    const = lumps[1 - moving][0][1][0]
    cache: dict = {}
    for s in range(a1):
        for t in range(a1):
            if s != t:
                key = (s, t)[moving]
                if key not in cache:
                    cache[key] = _moving_entry(lumps[moving][key], const, moving, ball, R, res.dps)
                data["pairs"].append({"s": s, "s_prime": t, **_qs_entry(cache[key])})
    return head, data


def _lump(row, n: int, heavy: bool, A, B):
    """(weights [P^(G), the rest], values [q on G, off G]) of G = the n heaviest (lightest) cells of ``row``."""
    W = sum(sorted(row, reverse=heavy)[:n])
    return [W, sum(row) - W], [A if n else B, B if n < len(row) else A]


def _moving_entry(lump, const, moving: int, ball, R: Fraction, dps: int) -> dict:
    """The entry (r, t, mu1, mu2) of a pair whose block ``moving`` (0: s, 1: s') is the two-cell ``lump`` and the
    other is the constant ``const``: :func:`_pair_entry` on q / max q (subset selection's A and B can be below float
    range; the bound scales with (q, mu1, mu2, t), so mu1, mu2, t are scaled back) and the reduced ball [[lump],
    [the rest of the mass, 0]] (the constant block's mass cancels once its x is 0: t p psi(1) in K and in its sup),
    the constant block's mu then set to x = 0 (never raising the bound: -c z >= -c)."""
    (w, v), other = lump, 1 - sum(lump[0])
    c = max(*v, const)                                   # the bound is homogeneous in (q, mu1, mu2, t): solve at q / c
    v, const = [x / c for x in v], const / c
    rows_m = [tuple(v), (const, const)]
    phat2 = [w, [other, Fraction(0)]] if moving == 0 else [[other, Fraction(0)], w]
    rows = rows_m if moving == 0 else rows_m[::-1]
    small = RenyiBall.from_radius(phat2, ball.alpha, ball.radius)
    Q2 = [list(rows[0]) + list(rows[1])]
    entry = _pair_entry(Q2, small, [rows], phat2, {}, (0, 0, 1), R, dps)
    if "mode" not in entry:
        entry = {**entry, "mu2": -entry["r"] * const} if moving == 0 else {**entry, "mu1": const}
    return {k: x if k in ("mode", "r", "cuts") else [c * y for y in x] if isinstance(x, list) else c * x
            for k, x in entry.items()}


def _structured_head(res, st, sizes, target=None) -> dict:
    """The channel part of a structured statement (``sizes``: (|S|, |U|), None for eps-LDP; ``target``: eps)."""
    from rldp_verify.structured.channels import PublicMixture, SubsetSelection, Symmetric, UnaryProduct

    k = st.d if isinstance(st, (UnaryProduct, PublicMixture)) else getattr(st, "k", None)
    shape = [k, 1] if sizes is None else list(sizes)
    if isinstance(st, UnaryProduct):
        return {"unary": {"d": st.d, "p": qs(st.bit.p), "q": qs(st.bit.q)}, "sizes": shape}
    if isinstance(st, PublicMixture):
        return _hashing_head(res, st, sizes, shape)
    from rldp_verify.certificates.audit_forms import lattice_form, product_form
    from rldp_verify.certificates.audit_hash import hash_form
    from rldp_verify.certificates.audit_mfl import mfl_form, mfl_p_form
    from rldp_verify.certificates.audit_more import more_form

    if sizes is not None and (form := mfl_p_form(st, res, sizes)) is not None:     # RS+FD under {P}
        return form
    for make in (lattice_form, product_form, mfl_form, hash_form, partial(more_form, target=target)):
        if sizes is None and (form := make(st)) is not None:
            return _with_compound_witness(st, form)
    why = _NO_FORM.get(type(st).__name__, "no structured form in rldp_verify_check")
    if isinstance(st, (Symmetric, SubsetSelection)):
        if sizes is None and _dense_entries(st) <= STRUCTURED_DENSE_ENTRIES:
            return {"rows": [r for r in st.dense()[0] if any(r)], "shape": shape}   # impossible outputs dropped
        if isinstance(st, Symmetric) or not st.ordered or st.m == 1:
            m, p = (1, st.a) if isinstance(st, Symmetric) else (st.m, st.P)
            return {"subsets": {"m": m, "p": qs(p)}, "sizes": shape}
        why = "ordered subsets of size m >= 2 (the position of x in the output tuple matters)"
    return _dense_head(res, st, shape, why)


def _hashing_head(res, st, sizes, shape) -> dict:
    """Local hashing as ``seeded-grr`` {g, a, b}: for eps-LDP with the separating seed's ``hash_witness``, under {P}
    a FAIL with the witness output's ``p_witness`` (:func:`~rldp_verify.certificates.audit_more.p_witness`), else, over
    a complete seed range, a FAIL or an upper end below max(a/b, b/a) with its ``seed_table``
    (:func:`~rldp_verify.certificates.audit_hash.seed_table`); InputError (one line) where the checker cannot certify
    the verdict (module docstring of :func:`structured_certificate`)."""
    from rldp_verify.certificates.audit_hash import hashing_refusal, seed_table, seed_witness
    from rldp_verify.certificates.audit_more import p_witness
    from rldp_verify.structured.channels import ratio

    top = max(_key(ratio(st.a, st.b)), _key(ratio(st.b, st.a)))
    wit = seed_witness(st) if sizes is None else None
    pw = p_witness(res, st, sizes) if sizes is not None and res.verdict == "FAIL" else None
    below = sizes is not None and st.complete and _key(res.ratio_upper) < top
    tab = seed_table(st, sizes) if pw is None and (below or sizes is not None and res.verdict == "FAIL") else None
    if res.verdict == "FAIL" and wit is None and pw is None and tab is None or pw is None and tab is None and below:
        raise InputError(hashing_refusal(res, st, top, ""))
    data = {"hash_witness": wit} if wit else {"p_witness": pw} if pw else {"seed_table": tab} if tab else {}
    return {"seeded-grr": {"g": st.g, "a": qs(st.a), "b": qs(st.b)}, "sizes": shape, **({"data": data} if data else {})}


def _with_compound_witness(st, form: dict) -> dict:
    """A ``product`` form without a lower end, given TreeHist's / SFP's witness over compound-seed local hashing
    parts when there is one (:func:`~rldp_verify.certificates.audit_hash.compound_product_witness`)."""
    from rldp_verify.certificates.audit_hash import compound_product_witness

    if "product" in form and "product_witness" not in form.get("data", {}) and not form.get("coordinates") and \
            (wit := compound_product_witness(st)) is not None:
        return {**form, "data": {**form.get("data", {}), "product_witness": wit}}
    return form


def _dense_head(res, st, shape, why: str) -> dict:
    """The exact dense matrix (columns x = s |U| + u, outputs impossible under every input dropped) of a structure
    without a structured form (RS+FD's mixtures over attributes, ordered subsets, ...) when it has at most
    STRUCTURED_DENSE_ENTRIES entries: the checker's dense eps-LDP / {P} route. Else InputError naming ``why`` and the
    count (as "at least 2^j" beyond 30 digits: ordered subsets at k = 2^16 have more than Python's 4300 digits)."""
    from rldp_verify.structured.channels import SubsetSelection, Symmetric

    n = _dense_entries(st) if isinstance(st, (Symmetric, SubsetSelection)) else None
    rows = None
    if hasattr(st, "dense") and (n is None or n <= STRUCTURED_DENSE_ENTRIES):
        try:
            rows = st.dense()[0]
        except InputError:                                  # the structure's own cap on its dense form
            rows = None
    n = n if rows is None else len(rows) * len(rows[0])
    if rows is None or n is None or n > STRUCTURED_DENSE_ENTRIES:
        count = None if n is None else str(n) if n < 10**30 else f"at least 2^{n.bit_length() - 1}"
        raise InputError(f"no certificate form for {res.adapter} ({st.kind}) yet: {why}"
                         + ("" if n is None else f"; its dense matrix has {count} entries "
                                                 f"(at most {STRUCTURED_DENSE_ENTRIES})"))
    return {"rows": [r for r in rows if any(r)], "shape": [len(rows[0]), 1] if shape[0] is None else shape}


def _subset_output(res, st, sizes) -> dict:
    """The output Y attaining the lower end of an (eps, P) audit of subsets (GRR: m = 1): for the witness pair
    (s, s') with A >= B, the likeliest cells of s, then the cells of the other secrets, then the least likely of
    s' (for A < B with s and s' swapped), the first m of them (:func:`rldp_verify.structured.rldp._subsets`)."""
    from rldp_verify.structured.channels import Symmetric

    a1, a2 = sizes
    P, w = res.distribution if res.distribution is not None else res.witness, res.structured_witness
    s, t = int(w["s"]), int(w["s_prime"])
    up = st.a >= st.b if isinstance(st, Symmetric) else st._prob({0}, 0) >= st._prob(set(), 0)
    hot, cold = (s, t) if up else (t, s)
    order = [hot * a2 + u for u in sorted(range(a2), key=lambda u: -P[hot][u])]
    order += [x for x in range(a1 * a2) if x // a2 not in (s, t)]
    order += [cold * a2 + u for u in sorted(range(a2), key=lambda u: P[cold][u])]
    return {"s": s, "s_prime": t, "Y": order[:(1 if isinstance(st, Symmetric) else st.m)]}


def _key(r):
    return math.inf if r == INF else r


_NO_FORM = {"LaplaceHistogram": "continuous outputs with an irrational ratio"}


def _dense_entries(st) -> int:
    """The number of entries of the dense matrix of GRR (k^2) or subset selection (outputs x k)."""
    if not hasattr(st, "m"):
        return st.k * st.k
    return (math.perm(st.k, st.m) if st.ordered else math.comb(st.k, st.m)) * st.k


def write_structured_certificate(path, res, adapted, eps):
    """Build :func:`structured_certificate`, write it to ``path`` and return the checker's answer on it; an
    :class:`InputError` (no certificate form) propagates before anything is written."""
    from rldp_verify.certificates import recheck, write

    doc = structured_certificate(res, adapted, eps, name=f"audit {Path(str(path)).stem}")
    write(path, doc)
    return recheck(doc)
