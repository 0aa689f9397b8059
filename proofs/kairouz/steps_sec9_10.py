"""Proof steps of Kairouz, Oh & Viswanath (004_3b35ffa09c03afc4.txt), Secs. 8.4-10 (issue 30; the index is
proofs/steps/kairouz.toml): the closed forms of the column utilities and of the mechanisms' utilities, the duals of
Theorems 12 and 14, Lemmas 26-27 and Proposition 17.

As in :mod:`proofs.kairouz.steps_sec7_8`, each printed step is a module-level ``printed_*`` function looked up when
the check runs (``mutation/steps_catalogue.py`` replaces it by a wrong variant, which the claim must REFUTE), and
every value it is compared with is computed from the definitions (mpmath at ``ctx.dps`` digits, Fractions where the
step is rational).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import sympy as sp

from rldp_verify.certificates.claims import no_certificate
from rldp_verify.claims import Method, claim

from ..rldp._steps import Tally, mp
from . import _step_certs
from ._common import PAPER, fs, generic_dist, rand_dist, rand_pair


def _subsets(k: int):
    return [frozenset(i for i in range(k) if m >> i & 1) for m in range(2**k)]


def _mass(P, A):
    return sum((P[i] for i in A), Fraction(0))


def _col(A, k, t):
    return [t if i in A else 1 for i in range(k)]


def _mu_kl(P0, P1, col):
    col = [mp(c) for c in col]
    a = sum(mp(p) * c for p, c in zip(P0, col, strict=True))
    b = sum(mp(p) * c for p, c in zip(P1, col, strict=True))
    return a * mpmath.log(a / b)


def _mu_mi(P, col):
    col = [mp(c) for c in col]
    m = sum(mp(p) * c for p, c in zip(P, col, strict=True))
    return sum(mp(p) * c * mpmath.log(c / m) for p, c in zip(P, col, strict=True) if c != 0)


def _mi(P, Q):
    """I(X;Y) of the mechanism Q (rows x, columns y) under the prior P, from the definition."""
    k, l = len(Q), len(Q[0])
    M = [sum(mp(P[x]) * Q[x][y] for x in range(k)) for y in range(l)]
    return sum(mp(P[x]) * Q[x][y] * mpmath.log(Q[x][y] / M[y]) for x in range(k) for y in range(l) if Q[x][y] != 0)


def _kl(p, q):
    return sum(a * mpmath.log(a / b) for a, b in zip(p, q, strict=True) if a != 0)


def _rr(k, t):
    return [[t / (k - 1 + t) if y == x else 1 / (k - 1 + t) for y in range(k)] for x in range(k)]


def _binary(T_, k, t):
    return [[t / (1 + t), 1 / (1 + t)] if x in T_ else [1 / (1 + t), t / (1 + t)] for x in range(k)]


def _argmax_sets(P):
    k = len(P)
    vals = {A: _mass(P, A) * (1 - _mass(P, A)) for A in _subsets(k)}
    best = max(vals.values())
    return [A for A, v in vals.items() if v == best]


# --- closed forms -----------------------------------------------------------------------------------------------


def _log(x):
    """log in mpmath, or in sympy for a sympy argument (the closed forms' certificates call the printed steps on
    symbols, issue 23)."""
    return sp.log(x) if isinstance(x, sp.Basic) else mpmath.log(x)


def printed_83(t, p0, p1):
    """(83): mu_j = (P0(T_j)(e^eps-1)+1) log((P0(T_j)(e^eps-1)+1)/(P1(T_j)(e^eps-1)+1))."""
    return (p0 * (t - 1) + 1) * _log((p0 * (t - 1) + 1) / (p1 * (t - 1) + 1))


def printed_92(t, P0, P1):
    """(92)/(84): D_kl of randomized response = (1/(e^eps+k-1)) sum_i (P0(x_i)(e^eps-1)+1) log(...)."""
    return sum(printed_83(t, a, b) for a, b in zip(P0, P1, strict=True)) / (t + len(P0) - 1)


def printed_99(t, eps, p):
    """(99)/(130): mu_j = P(T_j) e^eps log(e^eps/(P(T_j^c) + e^eps P(T_j))) + P(T_j^c) log(1/(P(T_j^c) + e^eps P(T_j)))."""
    d = (1 - p) + t * p
    return p * t * _log(t / d) + (1 - p) * _log(1 / d)


def printed_113(t, eps, p):
    """(102)/(113)/(133): mu_j = P(T_j) e^eps eps - (P(T_j)(e^eps-1)+1) log(P(T_j)(e^eps-1)+1)."""
    return p * t * eps - (p * (t - 1) + 1) * _log(p * (t - 1) + 1)


def printed_112(t, eps, pT):
    """(112): I(X;Y) of the binary mechanism on T = (mu(P(T)) + mu(P(T^c)))/(e^eps+1) written out."""
    return (printed_99(t, eps, pT) + printed_99(t, eps, 1 - pT)) / (t + 1)


def printed_139(t, eps, P):
    """(139)/(131): I(X;Y) of randomized response = (1/(e^eps+k-1)) sum_i {P e^eps log(e^eps/(P(e^eps-1)+1)) + (1-P) log(1/(...))}."""
    return sum(p * t * _log(t / (p * (t - 1) + 1)) + (1 - p) * _log(1 / (p * (t - 1) + 1)) for p in P) / (t + len(P) - 1)


@claim(
    id="kairouz.steps.mu-closed-forms",
    paper=PAPER,
    source="Secs. 8.4, 9.1, 9.2, 9.5: KL as the f-divergence with f(x) = x log x, the column utilities of (80) and (96), "
           "(83), (92), (99), (102) second line, (112), (113), (130), (139), and 'P_nu(T_{j_i}) = P_nu(x_i)'",
    statement="At a staircase pattern T_j the KL column utility is (83) and the MI column utility is (99) = (113); "
              "randomized response has D_kl (92) and I(X;Y) (139); the binary mechanism on T has I(X;Y) (112); D_kl is "
              "sum_y M1 f(M0/M1) with f(x) = x log x.",
    hypotheses=("k in {2..5}", "P, P0, P1 positive rational", "eps in (0, 8) random"),
    method=(Method.HIGH_PRECISION,),
)
def check_mu_closed_forms(ctx):
    rng = ctx.rng("kairouz.steps.mu-closed-forms")
    T = Tally(ctx.dps)
    with mpmath.workdps(ctx.dps):
        for _n in range(30):
            k = rng.choice((2, 3, 4, 5))
            P0, P1 = rand_pair(rng, k)
            P = rand_dist(rng, k, 60)
            eps = mp(Fraction(rng.randint(1, 800), 100))
            t = mpmath.exp(eps)
            pt = {"k": k, "P0": fs(P0), "P1": fs(P1), "P": fs(P), "eps": str(eps)}
            for A in _subsets(k):
                c = _col(A, k, t)
                pa = {**pt, "T_j": sorted(A)}
                T.equal("(83)", printed_83(t, mp(_mass(P0, A)), mp(_mass(P1, A))), _mu_kl(P0, P1, c), pa)
                T.equal("(99)/(130)", printed_99(t, eps, mp(_mass(P, A))), _mu_mi(P, c), pa)
                T.equal("(113)", printed_113(t, eps, mp(_mass(P, A))), _mu_mi(P, c), pa)
            Q = _rr(k, t)
            M0 = [sum(mp(P0[x]) * Q[x][y] for x in range(k)) for y in range(k)]
            M1 = [sum(mp(P1[x]) * Q[x][y] for x in range(k)) for y in range(k)]
            T.equal("D_kl = D_f, f(x) = x log x", sum(b * (a / b) * mpmath.log(a / b) for a, b in zip(M0, M1, strict=True)), _kl(M0, M1), pt)
            T.equal("(92)", printed_92(t, [mp(x) for x in P0], [mp(x) for x in P1]), _kl(M0, M1), pt)
            T.equal("(139)", printed_139(t, eps, [mp(x) for x in P]), _mi(P, Q), pt)
            A = rng.choice(_subsets(k))
            T.equal("(112)", printed_112(t, eps, mp(_mass(P, A))), _mi(P, _binary(A, k, t)), {**pt, "T": sorted(A)})
            T.points += 1
    certs = (_step_certs.closed_form_evidence("kairouz.steps.mu-closed-forms", {
        "83": printed_83, "92": printed_92, "99": printed_99, "112": printed_112, "113": printed_113,
        "139": printed_139}) if T.failure is None else no_certificate(
        "REFUTED at a sampled point (the counterexample in the evidence); no certificate is built for a refuted step "
        "of this claim"))
    return T.outcome("the closed forms (83), (92), (99), (112), (113), (130), (139)",
                     statement_claims=("kairouz.thm8.dual-82", "kairouz.thm12.dual-98"), **certs)


# --- Sec. 9.1: (103)-(106) -----------------------------------------------------------------------------------------


def printed_103(t, mu1, mu2, n_jT, n_jcT, n_jTc, n_jcTc, nT, nTc):
    """(103), third line: ((e mu1 - mu2)(|Tj cap T| e + |Tj^c cap T|)/|T| + (e mu2 - mu1)(|Tj cap Tc| e + |Tj^c cap Tc|)/|Tc|)/((e+1)(e-1))."""
    return ((t * mu1 - mu2) * (n_jT * t + n_jcT) / nT + (t * mu2 - mu1) * (n_jTc * t + n_jcTc) / nTc) / ((t + 1) * (t - 1))


def _o3(f, what, T, pt):
    """Record that f(eps) = O(eps^3) as eps -> 0: |f(eps)|/eps^3 does not grow from eps = 10^-2 to 10^-5."""
    r = [abs(f(mp(10) ** -m)) / (mp(10) ** (-3 * m)) for m in (2, 3, 4, 5)]
    T.truth(what, all(x <= 2 * r[0] + mp(10) ** -6 for x in r), pt, scaled_remainders=[mpmath.nstr(x, 6) for x in r])


@claim(
    id="kairouz.steps.s9-1.dual-103-106",
    paper=PAPER,
    source="Sec. 9.1, proof of Theorem 12: (103), (104), the monotonicity of f, g, h before (105), 'Since the set T was "
           "chosen so that it maximizes P(T)P(T^c)', (106) and 'If j = {j1, j2} ... (S^T alpha*)_j - mu_j = 0'",
    statement="With alpha* of (98) and the MI column utilities: (S^T alpha*)_j equals (103)'s third line exactly and "
              "P(T)P(T^c) eps^2/2 + O(eps^3); mu(S_{j1}), mu(S_{j2}) = P(T)P(T^c) eps^2/2 + O(eps^3) (104); (S^T alpha*)_j "
              "- mu_j = (P(T)P(T^c) - P(T_j)P(T_j^c)) eps^2/2 + O(eps^3) (106) and = 0 at j1, j2 for every eps; g, h increase "
              "and f = |z - 1/2| decreases on [0, 1/2] (the reverse on [1/2, 1]).",
    hypotheses=("k in {2, 3, 4}", "P positive rational with distinct subset sums", "T in argmax P(A)P(A^c)"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
)
def check_dual_103_106(ctx):
    rng = ctx.rng("kairouz.steps.s9-1")
    T = Tally(ctx.dps)
    configs: set = set()
    zs: list = []
    with mpmath.workdps(max(ctx.dps, 60)):
        for _n in range(12):
            k = rng.choice((2, 3, 4))
            P = generic_dist(rng, k, 97)
            Tset = _argmax_sets(P)[0]
            Tc = frozenset(range(k)) - Tset
            pT = _mass(P, Tset)
            pt = {"k": k, "P": fs(P), "T": sorted(Tset)}

            def sta(eps, A):
                t = mpmath.exp(eps)
                mu1, mu2 = _mu_mi(P, _col(Tset, k, t)), _mu_mi(P, _col(Tc, k, t))
                alpha = [((t * mu1 - mu2) / len(Tset) if i in Tset else (t * mu2 - mu1) / len(Tc)) / ((t + 1) * (t - 1))
                         for i in range(k)]
                return sum(a * c for a, c in zip(alpha, _col(A, k, t), strict=True)), mu1, mu2, t

            for A in _subsets(k):
                pa = {**pt, "T_j": sorted(A)}
                eps = mp(Fraction(rng.randint(1, 200), 100))
                s, mu1, mu2, t = sta(eps, A)
                T.equal("(103) third line", printed_103(t, mu1, mu2, len(A & Tset), len(Tset - A), len(A & Tc), len(Tc - A),
                                                         len(Tset), len(Tc)), s, {**pa, "eps": str(eps)})
                configs.add((k, len(Tset), (len(A & Tset), len(Tset - A), len(A & Tc), len(Tc - A))))
                _o3(lambda e, A=A: sta(e, A)[0] - mp(pT * (1 - pT)) * e**2 / 2, "(103) = P(T)P(T^c) eps^2/2 + O(eps^3)", T, pa)
                pA = _mass(P, A)
                _o3(lambda e, A=A, pA=pA: sta(e, A)[0] - _mu_mi(P, _col(A, k, mpmath.exp(e)))
                    - mp(pT * (1 - pT) - pA * (1 - pA)) * e**2 / 2, "(106)", T, pa)
                T.truth("P(T)P(T^c) >= P(T_j)P(T_j^c)", pT * (1 - pT) >= pA * (1 - pA), pa)
                if A in (Tset, Tc):
                    T.equal("(S^T alpha*)_j - mu_j = 0 at j1, j2", s, _mu_mi(P, _col(A, k, t)), pa)
            _o3(lambda e: _mu_mi(P, _col(Tset, k, mpmath.exp(e))) - mp(pT * (1 - pT)) * e**2 / 2, "(104)", T, pt)
            T.points += 1
        for _n in range(40):
            z1, z2 = sorted(Fraction(rng.randint(1, 99), 200) for _ in range(2))
            if z1 == z2:
                continue
            def g(z):
                return -mp(z) * mpmath.log(z) - mp(1 - z) * mpmath.log(1 - z)
            ok = g(z1) < g(z2) and z1 * (1 - z1) < z2 * (1 - z2) and abs(z1 - Fraction(1, 2)) > abs(z2 - Fraction(1, 2))
            ok &= g(1 - z1) < g(1 - z2) and abs(Fraction(1, 2) - z1) == abs(Fraction(1, 2) - (1 - z1))
            T.truth("monotonicity of f, g, h", ok, {"z1": str(z1), "z2": str(z2)})
            zs.append((z1, z2))
    return T.outcome("(103)-(106)", statement_claims=("kairouz.thm12.binary-optimal-mi",),
                     **(_dual_103_evidence(configs, zs) if T.failure is None else {}))


def dual_103_certificates(configs, zs) -> list[dict]:
    """``symbolic-identity`` certificates in t = e^eps and mu1 = mu(S_T), mu2 = mu(S_T^c) (variables), alpha* of (98)
    ((t mu1 - mu2)/|T| on T, (t mu2 - mu1)/|T^c| off it, over (t + 1)(t - 1)): for each (k, |T|) and each pattern's
    counts (|T_j cap T|, |T_j^c cap T|, |T_j cap T^c|, |T_j^c cap T^c|) of ``configs``, (S_j^T alpha*) = (103)'s third
    line (printed_103 on Tree variables), and (S_T^T alpha*) = mu1, (S_Tc^T alpha*) = mu2; and at the sampled z1 < z2
    in (0, 1/2): g(z2) - g(z1) > 0 (g the binary entropy, arb), z2 (1 - z2) - z1 (1 - z1) > 0 and |z1 - 1/2| - |z2 -
    1/2| > 0 (exact), and g(1 - z2) - g(1 - z1) > 0 (g decreasing on (1/2, 1): 1 - z2 < 1 - z1), as the check states
    them."""
    from rldp_verify.certificates.identity import Tree, tree_identity_certificate
    from rldp_verify.certificates.instances_other import all_nonneg
    from rldp_verify.certificates.value import abs_expr

    t, mu1, mu2 = Tree.var("t"), Tree.var("mu1"), Tree.var("mu2")
    words = "t = e^eps, mu1 = mu(S_T), mu2 = mu(S_T^c) (the MI column utilities of the patterns T, T^c)"
    docs = []
    for k, nT, (a, b, c, d) in sorted(configs):
        nTc = k - nT
        aT, aTc = (t * mu1 - mu2) / nT / ((t + 1) * (t - 1)), (t * mu2 - mu1) / nTc / ((t + 1) * (t - 1))
        s_j = aT * (a * t + b) + aTc * (c * t + d)     # sum_i alpha_i S_ij: t on T_j, 1 off it
        docs.append(tree_identity_certificate(
            f"(103) third line, k = {k}, |T| = {nT}, |T_j cap T| = {a}, |T_j^c cap T| = {b}, |T_j cap T^c| = {c}, "
            f"|T_j^c cap T^c| = {d}", s_j, printed_103(t, mu1, mu2, a, b, c, d, nT, nTc), words=words))
    for k, nT in sorted({(k, nT) for k, nT, _ in configs}):
        nTc = k - nT
        aT, aTc = (t * mu1 - mu2) / nT / ((t + 1) * (t - 1)), (t * mu2 - mu1) / nTc / ((t + 1) * (t - 1))
        docs += [tree_identity_certificate(f"(S_T^T alpha*) = mu(S_T), k = {k}, |T| = {nT}", aT * nT * t + aTc * nTc,
                                           mu1, words=words),
                 tree_identity_certificate(f"(S_Tc^T alpha*) = mu(S_Tc), k = {k}, |T| = {nT}", aT * nT + aTc * nTc * t,
                                           mu2, words=words)]

    def g(z):
        return ["-", 0, ["+", ["*", z, ["log", z]], ["*", 1 - z, ["log", 1 - z]]]]
    terms = [t_ for z1, z2 in zs for t_ in (["-", g(z2), g(z1)], ["-", g(1 - z2), g(1 - z1)])]
    exact_terms = [t_ for z1, z2 in zs for t_ in (["-", z2 * (1 - z2), z1 * (1 - z1)],
                                                   ["-", abs_expr(z1 - Fraction(1, 2)), abs_expr(z2 - Fraction(1, 2))])]
    docs += [all_nonneg(f"g increasing on (0, 1/2) and decreasing on (1/2, 1) at {len(zs)} sampled z1 < z2", terms,
                        strict=True, exact=False),
             all_nonneg(f"h = z(1 - z) increasing and f = |z - 1/2| decreasing on (0, 1/2) at {len(zs)} sampled z1 < z2",
                        exact_terms, strict=True)]
    return docs


def _dual_103_evidence(configs, zs) -> dict:
    from rldp_verify.certificates.claims import built

    return {"certificate_covers": f"(103)'s third line and (S^T alpha*)_j = mu_j at j1, j2 as rational identities in "
                                  f"e^eps, mu(S_T), mu(S_T^c) for the {len(configs)} (k, |T|, pattern counts) met in "
                                  f"the sample (every eps, every P with those counts); the monotonicity of f, g, h at "
                                  f"the {len(zs)} sampled z1 < z2; not (103)'s, (104)'s and (106)'s O(eps^3) "
                                  "statements (asymptotic: the check compares scaled remainders at four eps) nor "
                                  "P(T)P(T^c) >= P(T_j)P(T_j^c) (exact comparisons in the check)",
            **built(dual_103_certificates, configs, zs)}


# --- Sec. 9.2: (115)-(117) ---------------------------------------------------------------------------------------


def printed_115(t, mu_T, mu_Tc):
    """(115): BIN = (mu(P(T), eps) + mu(P(T^c), eps))/(e^eps + 1)."""
    return (mu_T + mu_Tc) / (t + 1)


def printed_117_last(t):
    """(117), last line: e^eps + 1."""
    return t + 1


@claim(
    id="kairouz.steps.s9-2.chain-115-117",
    paper=PAPER,
    source="Sec. 9.2, proof of Theorem 13: 'It is easy to check that the binary mechanism given in (29) achieves' (115), "
           "'Combining the results of lemmas 26 and 27' and (117)",
    statement="The binary mechanism on T in argmax P(A)P(A^c) has I(X;Y) = (115); dividing Lemma 26's bound by (115) gives "
              "(117)'s first line exactly; the first line is <= the second by Lemma 27 (the ratio <= 1 for eps <= 1) and "
              "k(e^eps+1)/(e^eps+k-1) <= e^eps + 1.",
    hypotheses=("k in {2..5}", "P positive rational", "eps in (0, 1]"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
)
def check_chain_115_117(ctx):
    rng = ctx.rng("kairouz.steps.s9-2")
    T = Tally(ctx.dps)
    cases: list = []
    with mpmath.workdps(ctx.dps):
        for _n in range(40):
            k = rng.choice((2, 3, 4, 5))
            P = rand_dist(rng, k, 60)
            eps_q = Fraction(rng.randint(1, 100), 100)
            eps = mp(eps_q)
            t = mpmath.exp(eps)
            Tset = _argmax_sets(P)[0]
            Tc = frozenset(range(k)) - Tset
            pt = {"k": k, "P": fs(P), "eps": str(eps), "T": sorted(Tset)}
            mu_T, mu_Tc = _mu_mi(P, _col(Tset, k, t)), _mu_mi(P, _col(Tc, k, t))
            b = printed_115(t, mu_T, mu_Tc)
            T.equal("(115)", b, _mi(P, _binary(Tset, k, t)), pt)
            mx = max(_mu_mi(P, _col(A, k, t)) for A in _subsets(k))
            ratio = mx / (mu_T + mu_Tc)
            T.equal("(117) first line", (mx * k / (t + k - 1)) / b, ratio * k / (t + k - 1) * (t + 1), pt)
            T.leq("(117) first <= second (Lemma 27)", ratio, 1, pt)
            T.leq("(117) second <= third", k / (t + k - 1) * (t + 1), printed_117_last(t), pt)
            if len(cases) < CAP_115:
                cases.append((P, eps_q, Tset, 1 - ratio > mp(10) ** -30))
            T.points += 1
    return T.outcome("(115)-(117)", statement_claims=("kairouz.thm13.binary-mi-approximation",),
                     **(_chain_115_evidence(cases, T.points) if T.failure is None else {}))


CAP_115 = 10   # each instance writes its 2^k column utilities: about 45 KB


def chain_115_terms(P, eps, Tset) -> tuple[list, list]:
    """(max |.| of [(115) - I(X;Y) of the binary mechanism, (117)'s first line - its rewriting] -- 0 --, [1 - ratio
    (Lemma 27), (e^eps + 1) - k (e^eps + 1)/(e^eps + k - 1)] -- both > 0 --) at (P, eps, T), t = e^eps and the column
    utilities bound by "let", mu the
    MI column utility of the staircase columns (t on A, 1 off it) and I(X;Y) of the binary mechanism (29) from the
    definition; printed_115 and printed_117_last called on the expressions (a wrong printed step, a wrong
    certificate)."""
    from rldp_verify.certificates.divergence import mi_expr
    from rldp_verify.certificates.instances_other import mu_expr
    from rldp_verify.certificates.series import Formula
    from rldp_verify.certificates.value import abs_expr

    k = len(P)
    t = Formula("$t")
    Tc = frozenset(range(k)) - Tset

    subsets = _subsets(k)
    let = [["t", ["exp", eps]]] + [[f"m{j}", mu_expr("mi", [t.node if i in A else 1 for i in range(k)], P=P,
                                                      vals=[1] * k)] for j, A in enumerate(subsets)]

    def mu(A):
        return Formula(f"$m{subsets.index(A)}")     # each column utility written once ("let")
    mu_T, mu_Tc = mu(Tset), mu(Tc)
    b = printed_115(t, mu_T, mu_Tc)
    binary = [[(t / (1 + t)).node, (1 / (1 + t)).node] if x in Tset else [(1 / (1 + t)).node, (t / (1 + t)).node]
              for x in range(k)]
    mi_bin = Formula(mi_expr([[1] * k, [1] * k], P, [[binary[x][y] for x in range(k)] for y in range(2)]))
    mx = Formula(["max", *[mu(A).node for A in subsets]])
    ratio = mx / (mu_T + mu_Tc)
    eqs = [b - mi_bin, (mx * k / (t + k - 1)) / b - ratio * k / (t + k - 1) * (t + 1)]
    ineqs = [1 - ratio, printed_117_last(t) - k / (t + k - 1) * (t + 1)]
    return ["let", let, ["max", *[abs_expr(e.node) for e in eqs]]], [["let", let, e.node] for e in ineqs]


def _chain_115_evidence(cases, total: int) -> dict:
    from rldp_verify.certificates.claims import built
    from rldp_verify.certificates.instances_other import all_nonneg, covers, near_zero

    def docs():
        parts = [(chain_115_terms(P, eps, Tset), sep) for P, eps, Tset, sep in cases]
        return [near_zero(f"(115) and (117)'s first line within 1e-30 at {len(cases)} sampled (P, eps)",
                          [eqs for (eqs, _), _ in parts]),
                all_nonneg(f"(117): Lemma 27's ratio < 1 and k (e^eps + 1)/(e^eps + k - 1) < e^eps + 1 at {len(cases)} "
                           "sampled (P, eps)", [e for (_, ineqs), sep in parts for e in (ineqs if sep else ineqs[1:])],
                           strict=True, exact=False)]
    ties = sum(1 for c in cases if not c[-1])
    return {"certificate_covers": covers(len(cases), total, "(115) and (117)'s first line within 1e-30 (not the "
                                         "equalities), Lemma 27's ratio < 1 and (117)'s last inequality strictly "
                                         f"({ties} ratios within 1e-30 of 1 left out)"), **built(docs)}


# --- Sec. 9.3: (118)-(120) -----------------------------------------------------------------------------------------


def printed_120(n, k, t):
    """(120): (S~^T alpha*)_j = (|T_j|(e^eps - 1) + k)/(e^eps + k - 1)."""
    return (n * (t - 1) + k) / (t + k - 1)


@claim(
    id="kairouz.steps.s9-3.lp-118-120",
    paper=PAPER,
    source="Sec. 9.3, proof of Lemma 26: 'since S_1 = 1 = S_{2^k}/e^eps and mu is homogenous', (118), 'using the fact that "
           "max mu~ <= max mu and weak duality' (119), (120), 'the last inequality holds since |T_j| >= 1' and 'Therefore, "
           "OPT <= (max_j mu_j) 1^T alpha*'",
    statement="mu_1 = e^-eps mu_{2^k} (both 0 for MI) and mu(cS) = c mu(S); the LP without the all-ones column has the same "
              "value (118); each inequality of (119) holds; (S~^T alpha*)_j = (|T_j| e^eps + k - |T_j|)/(e^eps+k-1) = (120) "
              ">= 1 for |T_j| >= 1; OPT <= (max mu) k/(e^eps+k-1).",
    hypotheses=("k in {2, 3, 4}", "P positive rational", "e^eps rational in (1, 9]"),
    method=(Method.EXACT, Method.HIGH_PRECISION, Method.PROPERTY),
)
def check_lp_118_120(ctx):
    from scipy.optimize import linprog

    rng = ctx.rng("kairouz.steps.s9-3")
    T = Tally(ctx.dps)
    points = []   # issue 23: (k, e^eps)
    with mpmath.workdps(ctx.dps):
        for _n in range(30):
            k = rng.choice((2, 3, 4))
            P = rand_dist(rng, k, 60)
            t = 1 + Fraction(rng.randint(1, 80), 10)
            pt = {"k": k, "P": fs(P), "e^eps": str(t)}
            cols = [_col(A, k, t) for A in _subsets(k)]
            mus = [_mu_mi(P, c) for c in cols]
            T.equal("mu_1 = e^-eps mu_{2^k}", mus[0], mus[-1] / mp(t), pt)
            c3 = Fraction(rng.randint(1, 30), 7)
            T.equal("mu homogeneous", _mu_mi(P, [c3 * x for x in cols[3 % len(cols)]]), c3 * mus[3 % len(cols)], pt)
            fm = [float(m) for m in mus]

            def lp(obj, cs):
                r = linprog([-o for o in obj], A_eq=[[float(c[i]) for c in cs] for i in range(k)], b_eq=[1.0] * k,
                            bounds=[(0, None)] * len(cs), method="highs")
                return -r.fun
            full, cut = lp(fm, cols), lp(fm[1:], cols[1:])
            ones = lp([1.0] * (len(cols) - 1), cols[1:])
            dual = linprog([1.0] * k, A_ub=[[-float(c[i]) for i in range(k)] for c in cols[1:]], b_ub=[-1.0] * (len(cols) - 1),
                           bounds=[(None, None)] * k, method="highs").fun
            tol = 1e-9
            T.truth("(118)", abs(full - cut) <= tol, pt, full=full, without_first_column=cut)
            T.truth("(119) first", cut <= max(fm[1:]) * ones + tol, pt)
            T.truth("(119) second", max(fm[1:]) * ones <= max(fm) * dual + tol, pt)
            for A, c in zip(_subsets(k)[1:], cols[1:], strict=True):
                n = len(A)
                line1 = (n * t + (k - n)) / (t + k - 1)
                T.truth("(120) = S~_j^T alpha*", sum(c) / (t + k - 1) == line1 == printed_120(n, k, t), {**pt, "T_j": sorted(A)},
                        printed=str(printed_120(n, k, t)), recomputed=str(line1))
                T.truth("(120) >= 1", printed_120(n, k, t) >= 1, {**pt, "T_j": sorted(A)})
            T.truth("OPT <= max mu k/(e^eps+k-1)", full <= max(fm) * k / float(t + k - 1) + tol, pt)
            points.append((k, t))
            T.points += 1
    return T.outcome("(118)-(120)", statement_claims=("kairouz.lemma26.mi-lp-bound",),
                     **(_s9_3_evidence(points) if T.failure is None else {}))


def _s9_3_evidence(points) -> dict:
    """Exact, at every point (k, e^eps) and non-empty T_j: S~_j^T alpha* (alpha* = 1/(e^eps + k - 1), the column
    S~_j written from T_j) = (|T_j| e^eps + k - |T_j|)/(e^eps + k - 1) = (120), and (120) >= 1."""
    from rldp_verify.certificates.claims import built
    from rldp_verify.certificates.instances_other import all_nonneg, all_zero, covers

    def docs():
        zero, nonneg = [], []
        for k, t in points:
            for A in _subsets(k)[1:]:
                n, d = len(A), ["+", t, k - 1]
                col = _col(A, k, t)
                eq120 = ["/", ["+", ["*", n, ["-", t, 1]], k], d]
                zero += [["-", ["+", *[["/", x, d] for x in col]], ["/", ["+", ["*", n, t], k - n], d]],
                         ["-", ["/", ["+", ["*", n, t], k - n], d], eq120]]
                nonneg.append(["-", eq120, 1])
        return [all_zero(f"(120) at {len(points)} sampled (k, e^eps), every T_j", zero),
                all_nonneg(f"(120) >= 1 at {len(points)} sampled (k, e^eps), every T_j", nonneg)]
    return {"certificate_covers": covers(len(points), len(points), "(120) identities and (120) >= 1, exactly; the "
                                         "LP steps (118)-(119) and OPT's bound (float linprog) and the MI equalities "
                                         "(arb cannot decide an equality) carry none"), **built(docs)}


# --- Sec. 9.4: (121)-(126), Claims 4-5 ---------------------------------------------------------------------------


def printed_121(z, eps):
    """(121): mu'(z, eps) = e^eps eps - (e^eps - 1) - (e^eps - 1) log(z(e^eps - 1) + 1)."""
    t = sp.exp(eps) if isinstance(eps, sp.Basic) else mpmath.exp(eps)
    log = sp.log if isinstance(eps, sp.Basic) else mpmath.log
    return t * eps - (t - 1) - (t - 1) * log(z * (t - 1) + 1)


def printed_122(eps):
    """(122): z*(eps) = (exp(e^eps eps/(e^eps - 1) - 1) - 1)/(e^eps - 1)."""
    t = mpmath.exp(eps)
    return (mpmath.exp(t * eps / (t - 1) - 1) - 1) / (t - 1)


def _muz(z, eps):
    t = mpmath.exp(eps)
    return z * t * eps - (z * (t - 1) + 1) * mpmath.log(z * (t - 1) + 1)


def _case_checks(T, rng, eps, zs, k):
    """Cases 1-3 of Lemma 27's proof at one eps <= 1 and one random P of each case."""
    pt = {"eps": str(eps), "k": k}
    # case 2 (P(x*) in [1/2, 1 - z*]) and case 1 (P(x*) in [1 - z*, 1]): {x*} and its complement are the argmax
    for lo, hi, case in ((mp(0.5), 1 - zs, 2), (1 - zs, mp(1), 1)):
        ps = lo + (hi - lo) * mp(rng.randint(1, 99)) / 100
        rest = [mp(rng.randint(1, 9)) for _ in range(k - 1)]
        P = [ps] + [(1 - ps) * r / sum(rest) for r in rest]
        vals = {A: sum(P[i] for i in A) * (1 - sum(P[i] for i in A)) for A in _subsets(k)}
        best = max(vals.values())
        pc = {**pt, "case": case, "P": [mpmath.nstr(x, 8) for x in P]}
        T.truth(f"case {case}: {{T, T^c}} = argmax P(A)P(A^c)", {A for A, v in vals.items() if best - v <= mp(10) ** -30}
                == {frozenset([0]), frozenset(range(1, k))}, pc)
        mx = max(_muz(sum(P[i] for i in A), eps) for A in _subsets(k))
        den = _muz(ps, eps) + _muz(1 - ps, eps)
        T.leq(f"case {case}: (123)/(124) ratio <= 1", mx / den, 1, pc)
        if case == 2:
            T.leq("(124) second line", mx, _muz(zs, eps), pc)
            T.leq("(124) third line", _muz(zs, eps) / den, 1, pc)
        else:
            T.equal("Claim 4: max_A mu(P(A)) = max(mu(P(T)), mu(P(T^c)))", mx, max(_muz(ps, eps), _muz(1 - ps, eps)), pc)
    # case 3 (P(x*) <= 1/2): Claim 5 and (125)
    while True:
        P = rand_dist(rng, k, 40)
        if max(P) <= Fraction(1, 2):
            break
    xs = max(P)
    srt = sorted(P)
    lstar = next(m for m in range(1, k + 1) if sum(srt[:m]) >= Fraction(1, 2))
    A = sum(srt[:lstar - 1], Fraction(0))
    pc = {**pt, "case": 3, "P": fs(P)}
    T.truth("Claim 5", Fraction(1, 2) - xs <= A <= Fraction(1, 2) and srt[lstar - 1] <= xs and sum(srt[:lstar]) >= Fraction(1, 2), pc)
    pT = min(_mass(P, B) for B in _argmax_sets(P))
    T.truth("(125) and 1/4 <= P(T) <= 1/2", pT >= max(xs, A) >= max(xs, Fraction(1, 2) - xs) >= Fraction(1, 4) and pT <= Fraction(1, 2),
            pc, P_T=str(pT))
    T.truth("1/2 <= P(T^c) <= 3/4", Fraction(1, 2) <= 1 - pT <= Fraction(3, 4), pc)
    T.leq("mu(P(T^c)) >= mu(3/4)", _muz(mp(Fraction(3, 4)), eps), _muz(mp(1 - pT), eps), pc)
    T.leq("mu(P(T)) >= min(mu(1/2), mu(1/4))", min(_muz(mp(0.5), eps), _muz(mp(0.25), eps)), _muz(mp(pT), eps), pc)
    T.leq("(126)", _muz(zs, eps) / (min(_muz(mp(0.5), eps), _muz(mp(0.25), eps)) + _muz(mp(0.75), eps)), 1, pt)


@claim(
    id="kairouz.steps.s9-4.mu-shape-121-126",
    paper=PAPER,
    source="Sec. 9.4, proof of Lemma 27: (121), (122), the signs of mu', mu(0) = mu(1) = 0, z* <= 1/2, the monotonicity "
           "phrases of Claim 4's proof, (123)-(126), Claim 5's proof and the bounds 1/4 <= P(T) <= 1/2 <= P(T^c) <= 3/4",
    statement="d mu/dz is (121) (symbolically); mu' vanishes at z* of (122), is > 0 below and < 0 above; mu(0) = mu(1) = 0; "
              "z*(eps) <= 1/2 for all eps and >= 1/4 for eps <= 1; in each of the three cases (eps <= 1) the argmax sets, "
              "Claim 5's set and the inequalities of (123)-(126) hold.",
    hypotheses=("eps in (0, 1] for the cases, (0, 40] for z* <= 1/2", "k in {2..5}", "P random rational / mpmath"),
    method=(Method.SYMBOLIC, Method.HIGH_PRECISION, Method.PROPERTY),
)
def check_mu_shape(ctx):
    rng = ctx.rng("kairouz.steps.s9-4")
    T = Tally(ctx.dps)
    z, e = sp.symbols("z epsilon", positive=True)
    mu_sym = z * sp.exp(e) * e - (z * (sp.exp(e) - 1) + 1) * sp.log(z * (sp.exp(e) - 1) + 1)
    T.truth("(121) = d mu/dz", sp.simplify(sp.diff(mu_sym, z) - printed_121(z, e)) == 0, {})
    shape_points = []   # issue 23: (eps, r1, r2) of the first loop
    with mpmath.workdps(ctx.dps):
        for _n in range(25):
            eps_q = Fraction(rng.randint(1, 4000), 100)
            eps = mp(eps_q)
            zs = printed_122(eps)
            pt = {"eps": str(eps)}
            if not T.truth("0 < z* < 1", 0 < zs < 1, pt, z_star=zs):
                continue
            T.truth("mu'(z*) = 0", abs(printed_121(zs, eps)) <= mp(10) ** (12 - ctx.dps) * (1 + mpmath.exp(eps)), pt,
                    derivative=printed_121(zs, eps))
            r1 = rng.randint(1, 99)
            r2 = rng.randint(1, 99)
            zl, zh = zs * mp(r1) / 100, zs + (1 - zs) * mp(r2) / 100
            shape_points.append((eps_q, r1, r2))
            T.truth("mu' > 0 below z*, < 0 above", printed_121(zl, eps) > 0 > printed_121(zh, eps), pt)
            T.leq("z* <= 1/2", zs, mp(0.5), pt)
            T.truth("mu(0) = mu(1) = 0", abs(_muz(mp(0), eps)) + abs(_muz(mp(1), eps)) <= mp(10) ** (12 - ctx.dps) * mpmath.exp(eps) * (eps + 1), pt)
            T.points += 1
        for _n in range(25):
            eps = mp(Fraction(rng.randint(1, 100), 100))
            zs = printed_122(eps)
            if not T.truth("1/4 <= z* <= 1/2 (eps <= 1)", mp(0.25) <= zs <= mp(0.5), {"eps": str(eps)}, z_star=zs):
                continue
            _case_checks(T, rng, eps, zs, rng.choice((2, 3, 4, 5)))
            T.points += 1
    return T.outcome("(121)-(126)", statement_claims=("kairouz.lemma27.max-mu", "kairouz.claim4.single-heavy-atom"),
                     **(_mu_shape_evidence(shape_points, T.points) if T.failure is None else {}))


def _mu_shape_evidence(points, total: int) -> dict:
    """One arb certificate over the first loop's points (eps, r1, r2): with t = e^eps, z* of (122) and mu' of
    (121) written out, z* > 0, 1 - z* > 0, 1/2 - z* >= 0, mu'(z* r1/100) > 0 > mu'(z* + (1 - z*) r2/100),
    |mu'(z*)| <= 1e-30 and |mu(0)| + |mu(1)| <= 1e-30 (arb cannot decide an equality: an enclosure)."""
    from rldp_verify.certificates.claims import built
    from rldp_verify.certificates.instances_other import all_nonneg, covers
    from rldp_verify.certificates.value import abs_expr

    tol = Fraction(1, 10**30)
    t, zs = "$t", "$zs"

    def d_mu(z, eps):   # (121)
        return ["-", ["-", ["*", t, eps], ["-", t, 1]], ["*", ["-", t, 1], ["log", ["+", ["*", z, ["-", t, 1]], 1]]]]

    def mu(z, eps):
        inner = ["+", ["*", z, ["-", t, 1]], 1]
        return ["-", ["*", z, t, eps], ["*", inner, ["log", inner]]]

    def terms():
        out = []
        for eps, r1, r2 in points:
            binds = [["t", ["exp", eps]],
                     ["zs", ["/", ["-", ["exp", ["-", ["/", ["*", t, eps], ["-", t, 1]], 1]], 1], ["-", t, 1]]]]
            zl, zh = ["*", zs, Fraction(r1, 100)], ["+", zs, ["*", ["-", 1, zs], Fraction(r2, 100)]]
            out.append(["let", binds, ["min", zs, ["-", 1, zs], ["-", Fraction(1, 2), zs], d_mu(zl, eps),
                                       ["-", d_mu(zh, eps)], ["-", tol, abs_expr(d_mu(zs, eps))],
                                       ["-", tol, ["+", abs_expr(mu(0, eps)), abs_expr(mu(1, eps))]]]])
        return all_nonneg(f"(121)-(122): the shape of mu at {len(points)} sampled eps", out, exact=False)
    return {"certificate_covers": covers(len(points), total, "steps of the first loop (0 < z* <= 1/2, mu' "
                                         "> 0 below z* and < 0 above at the sampled points, mu'(z*) and mu(0), "
                                         "mu(1) within 1e-30 of 0), in arb; (121) = d mu/dz (sympy) and the "
                                         "cases of Lemma 27 (the second loop) carry none", chosen=True),
            **built(terms)}


# --- Secs. 8.4, 9.5: the randomized-response duals at the singleton patterns ------------------------------------------


def printed_rr_alpha(t, k, singles, i):
    """(82)/(129): alpha*_i = {(e^eps+k-2) mu(S_{j_i}) - sum_{l != i} mu(S_{j_l})}/((e^eps-1)(e^eps+k-1))."""
    return ((t + k - 2) * singles[i] - sum(s for m, s in enumerate(singles) if m != i)) / ((t - 1) * (t + k - 1))


@claim(
    id="kairouz.steps.rr-dual-singletons",
    paper=PAPER,
    source="Sec. 8.4 ('If j in {j1, ..., jk}, it is not hard to check that S_j^T alpha* - mu_j = 0 for all eps') and Sec. 9.5 "
           "(the same sentence, (131) fourth line, and 'Notice that for j != {j1, ..., jk}, P(T_j) log P(T_j) > sum_{T_j} "
           "P(x_i) log P(x_i)')",
    statement="With alpha* of (82) (KL) or (129) (MI): S_{j_i}^T alpha* = mu_{j_i} at every singleton pattern and every eps, "
              "and 1^T alpha* = sum_i mu(S_{j_i})/(e^eps+k-1); P(T_j) log P(T_j) > sum_{T_j} P log P when |T_j| >= 2.",
    hypotheses=("k in {2..5}", "P, P0, P1 positive rational", "eps in (0, 8)", "the strict inequality for |T_j| >= 2 "
                "(reading of 'j not a singleton pattern': the empty pattern gives 0 = 0)"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
)
def check_rr_dual_singletons(ctx):
    rng = ctx.rng("kairouz.steps.rr-dual")
    T = Tally(ctx.dps)
    laws = []
    with mpmath.workdps(ctx.dps):
        for _n in range(30):
            k = rng.choice((2, 3, 4, 5))
            P0, P1 = rand_pair(rng, k)
            P = rand_dist(rng, k, 60)
            laws.append(P)
            eps = mp(Fraction(rng.randint(1, 800), 100))
            t = mpmath.exp(eps)
            pt = {"k": k, "P0": fs(P0), "P1": fs(P1), "P": fs(P), "eps": str(eps)}
            for name, mu in (("KL", lambda c: _mu_kl(P0, P1, c)), ("MI", lambda c: _mu_mi(P, c))):
                singles = [mu(_col({i}, k, t)) for i in range(k)]
                alpha = [printed_rr_alpha(t, k, singles, i) for i in range(k)]
                for i in range(k):
                    T.equal(f"{name}: S_(j_i)^T alpha* = mu_(j_i)", sum(a * c for a, c in zip(alpha, _col({i}, k, t), strict=True)),
                            singles[i], {**pt, "i": i})
                T.equal(f"{name}: 1^T alpha* = sum mu(S_(j_i))/(e^eps+k-1)", sum(alpha), sum(singles) / (t + k - 1), pt)
            for A in _subsets(k):
                if len(A) >= 2:
                    pa = mp(_mass(P, A))
                    T.truth("P(T_j) log P(T_j) > sum P log P", pa * mpmath.log(pa) > sum(mp(P[i]) * mpmath.log(mp(P[i])) for i in A),
                            {**pt, "T_j": sorted(A)})
            T.points += 1
    return T.outcome("the randomized-response duals at the singleton patterns",
                     statement_claims=("kairouz.thm8.rr-optimal-kl-distinct-ratios", "kairouz.thm14.rr-optimal-mi"),
                     **(_rr_dual_evidence(laws) if T.failure is None else {}))


def rr_dual_certificates(laws, ks=(2, 3, 4, 5)) -> list[dict]:
    """For each k of ``ks``, ``symbolic-identity`` certificates in t = e^eps and the singleton utilities mu_0..mu_{k-1}
    (variables), with alpha* built by printed_rr_alpha on Tree variables: t alpha*_i + sum_{l != i} alpha*_l = mu_i
    (S_{j_i}^T alpha* = mu_{j_i}) for each i, and sum_i alpha*_i = sum_i mu_i/(t + k - 1) -- for every eps and every
    utility, KL and MI alike; and, in arb, P(T_j) log P(T_j) - sum_{T_j} P log P > 0 for |T_j| >= 2 at each sampled P."""
    from rldp_verify.certificates.identity import Tree, tree_identity_certificate
    from rldp_verify.certificates.instances_other import all_nonneg

    docs = []
    t = Tree.var("t")
    for k in ks:
        mu = [Tree.var(f"mu{i}") for i in range(k)]
        alpha = [printed_rr_alpha(t, k, mu, i) for i in range(k)]
        words = "t = e^eps, mu<i> = mu(S_{j_i}) the singleton patterns' utilities (KL or MI)"
        for i in range(k):
            s_ji = sum((alpha[m] for m in range(k) if m != i), alpha[i] * t)
            docs.append(tree_identity_certificate(f"(82)/(129), k = {k}: S_(j_{i})^T alpha* = mu_(j_{i})", s_ji, mu[i],
                                                  words=words))
        docs.append(tree_identity_certificate(f"(82)/(129), k = {k}: 1^T alpha* = sum_i mu_(j_i)/(e^eps + k - 1)",
                                              sum(alpha[1:], alpha[0]), sum(mu[1:], mu[0]) / (t + k - 1), words=words))
    terms = []
    for P in laws:
        for A in _subsets(len(P)):
            if len(A) >= 2:
                pa = _mass(P, A)
                terms.append(["-", ["*", pa, ["log", pa]], ["+", *[["*", P[i], ["log", P[i]]] for i in sorted(A)]]])
    docs.append(all_nonneg(f"P(T_j) log P(T_j) > sum_(T_j) P log P for |T_j| >= 2 at {len(laws)} sampled P", terms,
                           strict=True, exact=False))
    return docs


def _rr_dual_evidence(laws) -> dict:
    from rldp_verify.certificates.claims import built
    from rldp_verify.certificates.instances_other import covers

    return {"certificate_covers": "S_(j_i)^T alpha* = mu_(j_i) and 1^T alpha* = sum_i mu_(j_i)/(e^eps + k - 1) as "
                                  "rational identities in e^eps and the singleton utilities for k = 2..5 (every eps, "
                                  "KL and MI; not the utilities' own formulas); and " +
                                  covers(len(laws), len(laws), "strict inequalities P(T_j) log P(T_j) > sum P log P "
                                         "(|T_j| >= 2)"),
            **built(rr_dual_certificates, laws)}


# --- Sec. 10: (140) --------------------------------------------------------------------------------------------


def printed_140_line3(W, mu_Q):
    """(140), third line: sum_{y,z} W_{y,z} mu(Q_y)."""
    return sum(W[y][z] * mu_Q[y] for y in range(len(W)) for z in range(len(W[0])))


@claim(
    id="kairouz.steps.s10.chain-140",
    paper=PAPER,
    source="Sec. 10, proof of Proposition 17: (140) and 'the inequality follows from sublinearity and the second to last "
           "equality follows from the row stochastic property of W'",
    statement="For U(Q) = sum_y mu(Q_y) with mu sublinear (KL and MI column utilities) and W row-stochastic: U(QW) = sum_z "
              "mu(sum_y Q_y W_yz) <= sum_{y,z} W_yz mu(Q_y) = sum_y mu(Q_y) = U(Q).",
    hypotheses=("k in {2, 3, 4}", "Q k x l, W l x m random rational stochastic", "P, P0, P1 positive rational"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
)
def check_chain_140(ctx):
    rng = ctx.rng("kairouz.steps.s10")
    T = Tally(ctx.dps)
    cases: list = []

    def stoch(r, c):
        M = [[Fraction(rng.randint(0, 6)) for _ in range(c)] for _ in range(r)]
        for row in M:
            if sum(row) == 0:
                row[0] = Fraction(1)
        return [[x / sum(row) for x in row] for row in M]

    with mpmath.workdps(ctx.dps):
        for _n in range(40):
            k, l, m = rng.choice((2, 3, 4)), rng.choice((2, 3, 4)), rng.choice((2, 3, 5))
            Q, W = stoch(k, l), stoch(l, m)
            P0, P1 = rand_pair(rng, k)
            P = rand_dist(rng, k, 40)
            QW = [[sum(Q[x][y] * W[y][z] for y in range(l)) for z in range(m)] for x in range(k)]
            pt = {"Q": [fs(r) for r in Q], "W": [fs(r) for r in W]}
            for name, mu in (("KL", lambda c: _mu_kl(P0, P1, c) if any(c) else mp(0)),
                             ("MI", lambda c: _mu_mi(P, c) if any(c) else mp(0))):
                cols_q = [[Q[x][y] for x in range(k)] for y in range(l)]
                mu_q = [mu(c) for c in cols_q]
                line1 = sum(mu([QW[x][z] for x in range(k)]) for z in range(m))
                line2 = sum(mu([sum(cols_q[y][x] * W[y][z] for y in range(l)) for x in range(k)]) for z in range(m))
                line3 = printed_140_line3(W, mu_q)
                T.equal(f"{name}: (140) lines 1-2", line1, line2, pt)
                T.leq(f"{name}: (140) line 2 <= line 3", line2, line3, pt)
                T.equal(f"{name}: (140) line 3 = line 4", line3, sum(mu_q), pt)
                if len(cases) < CAP_140:
                    cases.append((name, Q, W, P0, P1, P, line3 - line2 > mp(10) ** -30))
            T.points += 1
    return T.outcome("(140)", statement_claims=("kairouz.prop17.data-processing",),
                     **(_chain_140_evidence(cases, 2 * T.points) if T.failure is None else {}))


CAP_140 = 30


def chain_140_certificates(cases) -> list[dict]:
    """(140) at each (utility, Q, W, P0, P1, P): exactly, the entries of QW (line 1's columns) equal sum_y Q_{x,y}
    W_{y,z} (line 2's) and each row of W sums to 1 (so line 3 = line 4: sum_z W_yz mu(Q_y) = mu(Q_y)); in arb, line 3 -
    line 2 = sum_{y,z} W_yz mu(Q_y) - sum_z mu(sum_y W_yz Q_y) > 0 where the check found it above 1e-30 (at the others
    a tie, e.g. each output z fed by one y, which arb cannot decide), mu the KL or MI column utility written out."""
    from rldp_verify.certificates.instances_other import all_nonneg, all_zero, mu_expr

    exact_terms, slack_terms = [], []
    for name, Q, W, P0, P1, P, separated in cases:
        k, l, m = len(Q), len(W), len(W[0])
        QW = [[sum(Q[x][y] * W[y][z] for y in range(l)) for z in range(m)] for x in range(k)]
        exact_terms += [["-", ["+", 0, *[["*", Q[x][y], W[y][z]] for y in range(l)]], QW[x][z]]
                        for x in range(k) for z in range(m)]
        exact_terms += [["-", ["+", *W[y]], 1] for y in range(l)]
        if not separated:
            continue

        def mu(vals, exprs, name=name, P0=P0, P1=P1, P=P):
            if not any(vals):
                return 0
            return mu_expr("kl", exprs, P0=P0, P1=P1) if name == "KL" else mu_expr("mi", exprs, P=P, vals=vals)
        cols_q = [[Q[x][y] for x in range(k)] for y in range(l)]
        line3 = ["+", 0, *[["*", W[y][z], mu(cols_q[y], cols_q[y])] for y in range(l) for z in range(m) if W[y][z]]]
        line2 = ["+", 0, *[mu([QW[x][z] for x in range(k)],
                              [["+", 0, *[["*", cols_q[y][x], W[y][z]] for y in range(l)]] for x in range(k)])
                           for z in range(m)]]
        slack_terms.append(["-", line3, line2])
    docs = [all_zero(f"(140): the columns of QW and W's row sums, exactly, at {len(cases)} sampled cases", exact_terms)]
    if slack_terms:
        docs.append(all_nonneg(f"(140) line 2 < line 3 (sublinearity) at {len(slack_terms)} sampled cases", slack_terms,
                               strict=True, exact=False))
    return docs


def _chain_140_evidence(cases, total: int) -> dict:
    from rldp_verify.certificates.claims import built
    from rldp_verify.certificates.instances_other import covers

    ties = sum(1 for c in cases if not c[-1])
    return {"certificate_covers": covers(len(cases), total, "(140): lines 1 = 2 and 3 = 4 through exact rational facts "
                                         "(QW's entries, W's row sums) and line 2 < line 3 in arb (the KL and MI "
                                         f"column utilities written out; {ties} ties within 1e-30 left out)"),
            **built(chain_140_certificates, cases)}



