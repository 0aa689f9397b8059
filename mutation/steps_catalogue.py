"""Semantic mutants of the proof steps (issue 30): wrong variants of the printed steps of the papers' proofs.

A step claim (``proofs/rldp/steps_appA*.py``) compares a step *as the paper writes it* -- a module-level
function ``printed_<label>`` of its module, looked up when the check runs -- with a value computed from the
definitions. Each mutant below replaces one printed step by a plausible slip (a sign, an exponent, a swapped
max/min, a missing factor, the converted text read literally) and names the step claims that must then say
REFUTED: a step check's VERIFIED is trusted only once it has been seen to refute a wrong variant of its step.

Targets are dotted module paths (``proofs.rldp.steps_appA1:printed_A8``). The catalogue runs on its own
(``python -m rldp_verify.claims.mutants run --catalogue mutation.steps_catalogue --out FILE``) or as part of
``mutation/catalogue.py`` (which appends :data:`STEP_MUTANTS`). The step claims that are REFUTED on the
unmutated paper (``rldp.steps.a2.xi-domain``, ``rldp.steps.a4.w-extreme-value``, ``kairouz.steps.s8-2.eps-star``,
``kairouz.steps.s8-2.strict-gap-fact``, ...) cannot be killed; the proof gaps' repairs are tested to turn them
VERIFIED in ``tests/proofs/test_steps.py``.
"""

from __future__ import annotations

import mpmath

from rldp_verify.claims.mutants import mutant, replace, wrap

A1, A2, A3 = "proofs.rldp.steps_appA1", "proofs.rldp.steps_appA2", "proofs.rldp.steps_appA3"
A4, A5, A6 = "proofs.rldp.steps_appA4", "proofs.rldp.steps_appA5", "proofs.rldp.steps_appA6"
ISIT = "proofs.isit.steps_appA_C"
FALPHA = "proofs.falpha.steps_appA_B"
PRAM = "proofs.pram.steps_app5"
K78, K910 = "proofs.kairouz.steps_sec7_8", "proofs.kairouz.steps_sec9_10"
K9D = "proofs.kairouz.steps_sec9_direct"
BODY = "proofs.rldp.steps_sec6_7"
S1, S2, S3, S4, S5, S6 = (f"rldp.steps.a{k}.*" for k in range(1, 7))


# --- App. A.1 -------------------------------------------------------------------------------------------


def _a1_c_sign(alpha, B):
    from proofs.rldp._steps import mp

    return mpmath.exp(mp(B) * (1 - mp(alpha))), (">=" if alpha < 1 else "<=")     # e^{B(1-alpha)}


def _a2_swapped_exponents(a, phat_s, p_s, inner):
    return phat_s ** (1 - a) * p_s**a * inner


def _a4_missing_conditional_power(a, phat_s, p_s, inner_not_s):
    return (1 - phat_s) ** a * (1 - p_s) ** (1 - a)           # the power sum of the conditionals dropped


def _a5_reversed(alpha):
    return ">=" if alpha < 1 else "<="


def _a8_without_alpha_minus_1(a, C, phat_s, x):
    return x ** (a - 2) * (1 - phat_s) ** a / phat_s**a * (C / (1 - phat_s) ** a - 1 / (1 - x) ** a)


def _stationary_plus_exponent(a, C, phat_s):
    return 1 - C ** (1 / a) * (1 - phat_s)                     # the converted text with C^{+1/alpha}


def _a9_exponent(a, C, phat_s):
    return (C ** (1 / a) - (1 - phat_s)) ** (a - 1) / phat_s**a


def _a18_c_power(a, C, gamma, phat_s, inner):
    return phat_s**a * gamma ** (1 - a) * inner + C ** (1 / a) * (1 - phat_s)


def _a24_times_phat(phat_s, d_joint, d_not_s, d_bern):
    return (d_joint - (1 - phat_s) * d_not_s - d_bern) * phat_s


# --- App. A.2 -------------------------------------------------------------------------------------------


def _a34_sign(a, lam, mu, phat_x, p_x):
    return 1 + (a - 1) * lam * phat_x**a * p_x ** (-a) + mu


def _xi_mu_minus_1(a, lam, mu):
    return ((a - 1) * lam / (mu - 1)) ** (1 / a), ((a - 1) * lam / mu) ** (1 / a)


def _psi_no_denominator(rho, xi):
    return 1 - rho * xi


def _f_at_1_flipped(C):
    return C - 1


def _a44_sides_swapped(a, lam, mu, side):
    return ((a - 1) * lam / (mu - side)) ** (1 / a)


def _x1_strict(P, phat):
    return [i for i in range(len(P)) if P[i] > phat[i]]


# --- App. A.3 -------------------------------------------------------------------------------------------


def _a52_unsquared(Bt, rho, xi):
    return rho / xi + (1 - rho) / (1 - rho * xi) - Bt - 1


def _a53_half_linear_term(Bt, rho):
    return (Bt - Bt * rho + mpmath.sqrt(Bt**2 + 4 * Bt * rho - 4 * Bt * rho**2)) / (Bt + 1)


def _a54_factor(Bt, rho):
    return -2 * Bt / (Bt + 1) + (2 * Bt - 2 * Bt * rho) / ((Bt + 1) * mpmath.sqrt(Bt**2 + 4 * Bt * rho - 4 * Bt * rho**2))


def _rho_opt_no_sqrt(Bt):
    return (1 - Bt) / 2


def _a58_literal(Bt):
    return Bt                                                  # '(A58) = B~' read literally


# --- App. A.4 -------------------------------------------------------------------------------------------


def _a71_without_eps(Q_y, s1, s2, t, S, U):
    from fractions import Fraction

    return [[Q_y[s][u] if s == s1 else (-Q_y[s][u] if s == s2 else Fraction(0)) for u in range(U)] for s in range(S)]


def _a80_min_max_swapped(L, Q_y, s1, s2, t):
    return ((1 - sum(L[s1])) * min(Q_y[s1]) - t * (1 - sum(L[s2])) * max(Q_y[s2])
            + sum(q * x for q, x in zip(Q_y[s1], L[s1], strict=True)) - t * sum(q * x for q, x in zip(Q_y[s2], L[s2], strict=True)))


def _a82_without_s2_term(L, Q_y, s1, s2, t):
    U = len(L[0])
    return max(Q_y[s1][u1] - t * Q_y[s2][u2] + sum(L[s1][u] * (Q_y[s1][u] - Q_y[s1][u1]) for u in range(U))
               for u1 in range(U) for u2 in range(U))


def _a75_plus_sign(Q_y, s1, s2, t, S):
    from fractions import Fraction

    return [max(Q_y[s1]) if s == s1 else (t * min(Q_y[s2]) if s == s2 else Fraction(0)) for s in range(S)]


# --- App. A.5 -------------------------------------------------------------------------------------------


def _a86_without_theta(orig):
    def printed_A86(P, theta, V):
        from proofs.rldp.steps_appA5 import mu

        return mpmath.fsum(mu(P, v) for v in V)
    return printed_A86


def _support_a_minus_1(a):
    return a - 1


# --- App. A.6 -------------------------------------------------------------------------------------------


def _v_plus_all(v, s, t):
    from fractions import Fraction

    return [[t if i == s else Fraction(1) for _ in r] for i, r in enumerate(v)]   # every s-entry to e^eps


def _a105_swapped_weights(vp, vm, t):
    return [[t * a / (t + 1) + b / (t + 1) for a, b in zip(ra, rb, strict=True)] for ra, rb in zip(vp, vm, strict=True)]


def _v3_times_t(v2, t):
    return [[x * t for x in r] for r in v2]


# --- ISIT, Apps. A and C -----------------------------------------------------------------------------------


def _isit_38_without_square(k):
    return k[0] + k[1] + k[2]


def _isit_44_without_sqrt(phat, P, s1, s2):
    import mpmath as m

    out = 1 - m.fsum(phat[s1]) - m.fsum(phat[s2])
    for s in (s1, s2):
        ph_s, p_s = m.fsum(phat[s]), m.fsum(P[s])
        out += ph_s * m.fsum((h / ph_s) ** 2 / (p / p_s) for h, p in zip(phat[s], P[s], strict=True))   # the square root dropped
    return out


def _isit_77_exponent(lam):
    return mpmath.mpf(2) ** (-mpmath.mpf(2) / 3) * lam ** (-mpmath.mpf(2) / 3)


def _isit_56_min(w):
    return min(w)


def _isit_66_plus_one(B, ps1, ps2):
    return mpmath.sqrt(B + 1) + 1 + ps1 + ps2


def _isit_57_unsquared(t, phat, B):
    S = mpmath.fsum(h * mpmath.sqrt(-x) for h, x in zip(phat, t, strict=True))
    return -S / (B + 1)


# --- Grosse et al., App. A --------------------------------------------------------------------------------


def _falpha_68_without_minus_1(a, p, t):
    return (a * t + p) * (1 - p) ** (a - 1) / (1 - p - t) ** a


def _falpha_69_factor_4(a, tv):
    return mpmath.exp(4 * (a - 1) * tv**2) - 1


# --- PRAM, App. 5 ---------------------------------------------------------------------------------------------


def _pram_offdiagonal_over_S(theta, qk, qk2, S_):
    return (theta * (1 - qk) + (1 - theta) * (1 - qk2)) / S_


def _pram_lemma51_bound_S(S_, t_, sign):
    return t_**sign / (S_ + t_**sign)


def _pram_theta_wrong_denominator(q1, v_a, v_max):
    return (q1 - v_a) / (v_max + v_a)


# --- the core paper's body proofs ------------------------------------------------------------------------------


def _body_67_without_minus_1(t, qmin, l1):
    return (t - 2) * qmin * l1 / 2            # (e^eps - 2) for (e^eps - 1)


def _body_70_one_radius(ds, ds2, l1_hat):
    return ds + l1_hat                        # d_s' forgotten


# --- Kairouz et al., Secs. 7-10 ------------------------------------------------------------------------------------


def _k41_weights_swapped(lam, u1, u2):
    return (1 - lam) * u1 + lam * u2


def _k42_sign(theta_star, mu_mix, lam_mu):
    return sum(th * (b - a) for th, a, b in zip(theta_star, mu_mix, lam_mu, strict=True))


def _k_s_by_max(Q, theta, i, j):
    return Q[i][j] / max(Q[m][j] for m in range(len(Q)))      # the column's maximum for its minimum


def _k47_plus(t):
    return [[1, -t, 0, 0], [-t, 1, 0, 0], [0, 0, 1, -t], [0, 0, t, 1]]


def _k_count_plus_one(ell, lpos, k):
    return -lpos + (ell + 1) * k + 1


def _k57_minus(t, p_nu_T):
    return ((t - 1) * p_nu_T + 1) / t


def _k59_plus(t, P0, P1, T_, S):
    a, b = sum(P0[i] for i in T_), sum(P1[i] for i in T_)
    return ((t - 1) * (a - b) + (t - 1) * sum((S[i] - 1) * (a * P1[i] - b * P0[i]) for i in range(len(S)))
            + sum((S[i] - 1) * (P0[i] - P1[i]) for i in range(len(S))))


def _k65_without_t(t, a, b, aj, bj):
    return (t - 1) * ((a - b) + (aj - bj)) + (t - 1) ** 2 * (a * bj - b * aj)


def _k70_over_t(t, d):
    return (t - 1) / t * abs(d) / 2


def _k72_sign(t, A, B):
    return (2 * A - 2 * t * B) / (t + 1)


def _k_constant_square(t):
    return 1 / (t + 1) ** 2


def _k85_log_a_plus_b(a, b, eps):
    import mpmath

    return eps + mpmath.log(a + b)


def _k83_p1_prefactor(t, p0, p1):
    import mpmath

    return (p1 * (t - 1) + 1) * mpmath.log((p0 * (t - 1) + 1) / (p1 * (t - 1) + 1))


def _k99_swapped(t, eps, p):
    import mpmath

    d = (1 - p) + t * p
    return (1 - p) * t * mpmath.log(t / d) + p * mpmath.log(1 / d)


def _k139_k(t, eps, P):
    import mpmath

    return sum(p * t * mpmath.log(t / (p * (t - 1) + 1)) + (1 - p) * mpmath.log(1 / (p * (t - 1) + 1)) for p in P) / (t + len(P))


def _k103_weights_swapped(t, mu1, mu2, n_jT, n_jcT, n_jTc, n_jcTc, nT, nTc):
    return ((t * mu1 - mu2) * (n_jcT * t + n_jT) / nT + (t * mu2 - mu1) * (n_jcTc * t + n_jTc) / nTc) / ((t + 1) * (t - 1))


def _k115_minus(t, mu_T, mu_Tc):
    return (mu_T + mu_Tc) / (t - 1)


def _k117_last_t(t):
    return t


def _k120_denominator(n, k, t):
    return (n * (t - 1) + k) / (t + k)


def _k122_without_minus_1(eps):
    import mpmath

    t = mpmath.exp(eps)
    return (mpmath.exp(t * eps / (t - 1)) - 1) / (t - 1)


def _k_rr_alpha_k_minus_1(t, k, singles, i):
    return ((t + k - 1) * singles[i] - sum(s for m, s in enumerate(singles) if m != i)) / ((t - 1) * (t + k - 1))


def _k140_without_w(W, mu_Q):
    return sum(mu_Q[y] for y in range(len(W)) for _z in range(len(W[0])))


# --- the steps checked last (issue 30's remaining five) ---------------------------------------------------


def _falpha_63_at_p0(a, t):
    from proofs.falpha.steps_appA_B import psi

    return psi(a, mpmath.mpf(0), t), mpmath.mpf(0)              # the minimum read at p = 0 ("achieved at p = 0")


def _falpha_63_pinsker(orig):
    def printed_63_rhs(a, t):
        return mpmath.exp(2 * (a - 1) * t**2) - 1, orig(a, t)[1]  # Pinsker's bound (69) for the minimum
    return printed_63_rhs


def _pram_cube_min_alpha(S_, t_):
    from rldp_verify.topics.pram import v_alpha, v_min

    return v_min(S_, t_), v_alpha(S_, t_)                         # the cube [v_min, v_alpha]^S


def _a6_columns_srr_only(a1, a2, t):
    from rldp_verify.rldp.srr_threshold import srr_vectors

    return srr_vectors(a1, a2, t)                                 # d_y among SRR's basis vectors only



# --- Kairouz Secs. 9.4-9.5, the steps checked directly (proofs/kairouz/steps_sec9_direct.py) ---------------------


def _k_superset_bound_tc(p_T, p_Tc, eps):
    from proofs.kairouz.steps_sec9_direct import _mu_z

    return _mu_z(p_Tc, eps)                       # 9.4.i15's supersets of T bounded by mu(P(T^c))


def _k130_squared(t, eps, p):
    d = (1 - p) + t * p
    return (p * t * (t / d).log() + (1 - p) * (1 / d).log()) ** 2 if not hasattr(t, "free_symbols") else (
        p * t * __import__("sympy").log(t / d) + (1 - p) * __import__("sympy").log(1 / d)) ** 2


def _k138_binary_x0(k, t):
    return [[t / (1 + t), 1 / (1 + t)] if x == 0 else [1 / (1 + t), t / (1 + t)] for x in range(k)]


def _k_eps_star_half(P):
    from fractions import Fraction

    return Fraction(1, 2)

STEP_MUTANTS = [
    mutant("steps.a1.a1-c-sign", A1, "(A1) with C = e^{B(1-alpha)} instead of e^{B(alpha-1)}",
           replace(f"{A1}:printed_A1", _a1_c_sign), ("rldp.steps.a1.a1-a4-decomposition",)),
    mutant("steps.a1.a2-swapped-exponents", A1, "(A2) with P^_s^(1-alpha) P_s^alpha instead of P^_s^alpha P_s^(1-alpha)",
           replace(f"{A1}:printed_A2", _a2_swapped_exponents), ("rldp.steps.a1.a1-a4-decomposition",)),
    mutant("steps.a1.a4-without-conditional-sum", A1, "(A4) without the power sum of the conditionals given 'not s'",
           replace(f"{A1}:printed_A4", _a4_missing_conditional_power), ("rldp.steps.a1.a1-a4-decomposition",)),
    mutant("steps.a1.a5-reversed", A1, "(A5) with the relation reversed (>= 1 for alpha < 1)",
           replace(f"{A1}:printed_A5", _a5_reversed), ("rldp.steps.a1.a5-a6-direction",)),
    mutant("steps.a1.a8-without-alpha-minus-1", A1, "(A8) without its factor (alpha - 1)",
           replace(f"{A1}:printed_A8", _a8_without_alpha_minus_1), ("rldp.steps.a1.a8-derivative",)),
    mutant("steps.a1.stationary-plus-exponent", A1,
           "the stationary point 1 - C^{+1/alpha}(1 - P^_s), the converted text read with the minus sign lost",
           replace(f"{A1}:printed_stationary", _stationary_plus_exponent),
           ("rldp.steps.a1.a8-derivative", "rldp.steps.a1.a7-a10-extremum")),
    mutant("steps.a1.a9-exponent", A1, "(A9) with the exponent alpha - 1 instead of alpha",
           replace(f"{A1}:printed_A9", _a9_exponent), ("rldp.steps.a1.a7-a10-extremum",)),
    mutant("steps.a1.a18-c-power", A1, "(A18) with C^{1/alpha} instead of C^{(alpha-1)/alpha} in the second term",
           replace(f"{A1}:printed_A18", _a18_c_power), ("rldp.steps.a1.a13-a20-lift",)),
    mutant("steps.a1.a24-times-phat", A1, "(A24) multiplied by P^_s instead of divided",
           replace(f"{A1}:printed_A24", _a24_times_phat), ("rldp.steps.a1.a24-a26-kl-bound",)),
    mutant("steps.a2.a34-sign", A2, "(A34) with (alpha - 1) lambda instead of (1 - alpha) lambda",
           replace(f"{A2}:printed_A34", _a34_sign), ("rldp.steps.a2.a34-a35-lagrangian",)),
    mutant("steps.a2.xi-mu-minus-1", A2, "P_x = ((alpha-1) lambda/(mu - 1))^(1/alpha) P^_x (the other sign of 'mu 1')",
           replace(f"{A2}:printed_xi_psi", _xi_mu_minus_1), ("rldp.steps.a2.a34-a35-lagrangian",)),
    mutant("steps.a2.psi-without-denominator", A2, "psi = 1 - rho xi (the division by 1 - rho forgotten)",
           replace(f"{A2}:printed_psi", _psi_no_denominator), ("rldp.steps.a2.a36-a40-psi",)),
    mutant("steps.a2.f-at-1-flipped", A2, "F(rho, 1) = C - 1 instead of 1 - C",
           replace(f"{A2}:printed_F_at_1", _f_at_1_flipped), ("rldp.steps.a2.f-sign-and-convexity",)),
    mutant("steps.a2.a44-sides-swapped", A2, "the zeros of (A44)'s derivative with mu - 1 on X1 and mu + 1 on X2",
           replace(f"{A2}:printed_A44_ratio", _a44_sides_swapped), ("rldp.steps.a2.a44-lagrangian",)),
    mutant("steps.a2.x1-strict", A2, "X1 = {x : P_x > P^_x} (strict), which is empty at P = P^",
           replace(f"{A2}:printed_X1", _x1_strict), ("rldp.steps.a2.boundary-and-partition",)),
    mutant("steps.a3.a52-unsquared", A3, "(A52) with (1 - rho) instead of (1 - rho)^2",
           replace(f"{A3}:printed_A52", _a52_unsquared), ("rldp.steps.a3.a52-a53",)),
    mutant("steps.a3.a53-half-linear-term", A3, "(A53) with B~ rho instead of 2 B~ rho",
           replace(f"{A3}:printed_A53", _a53_half_linear_term), ("rldp.steps.a3.a52-a53",)),
    mutant("steps.a3.a54-factor", A3, "(A54) with 2 B~ rho instead of 4 B~ rho in the numerator",
           replace(f"{A3}:printed_A54", _a54_factor), ("rldp.steps.a3.a54-derivative",)),
    mutant("steps.a3.rho-opt-no-sqrt", A3, "rho_opt = (1 - B~)/2, the radical lost as in the conversion",
           replace(f"{A3}:printed_rho_opt", _rho_opt_no_sqrt), ("rldp.steps.a3.a54-derivative", "rldp.steps.a3.a56-a58")),
    mutant("steps.a3.a58-literal", A3, "(A58) = B~ as the converted text reads (radical lost)",
           replace(f"{A3}:printed_A58", _a58_literal), ("rldp.steps.a3.a56-a58",)),
    mutant("steps.a4.a71-without-eps", A4, "(A71) without the factor e^eps on block s2",
           replace(f"{A4}:printed_A71", _a71_without_eps), ("rldp.steps.a4.a67-a82-dual", "rldp.steps.a4.a74-a79-feasibility")),
    mutant("steps.a4.a80-min-max-swapped", A4, "(A80) with min_u Q_{y|s1,u} and max_u Q_{y|s2,u}",
           replace(f"{A4}:printed_A80", _a80_min_max_swapped), ("rldp.steps.a4.a67-a82-dual",)),
    mutant("steps.a4.a82-without-s2-term", A4, "(A82) without the term - e^eps sum_u L_{u|s2}(Q_{y|s2,u} - Q_{y|s2,u2})",
           replace(f"{A4}:printed_A82", _a82_without_s2_term), ("rldp.steps.a4.a67-a82-dual",)),
    mutant("steps.a4.a75-plus-sign", A4, "(A75)/(A78): w_{s2} >= +e^eps min_u Q_{y|s2,u}",
           replace(f"{A4}:printed_A75_lower", _a75_plus_sign), ("rldp.steps.a4.a74-a79-feasibility",)),
    mutant("steps.a5.a88-reversed", A5, "(A88) with '<=' (concavity instead of convexity of mu)",
           replace(f"{A5}:PRINTED_A88_RELATION", "<="), ("rldp.steps.a5.a83-a89-convexity",)),
    mutant("steps.a5.a86-without-theta", A5, "(A86) without the weights theta_v",
           wrap(f"{A5}:printed_A86", _a86_without_theta), ("rldp.steps.a5.a83-a89-convexity",)),
    mutant("steps.a5.support-a-minus-1", A5, "vertices of (46) with at most a - 1 nonzero coordinates",
           replace(f"{A5}:printed_support_bound", _support_a_minus_1), ("rldp.steps.a5.vertex-support",)),
    mutant("steps.a6.v-plus-all-entries", A6, "v+ of (A103) raising every entry of block s (also the e^-eps ones)",
           replace(f"{A6}:printed_v_plus", _v_plus_all), ("rldp.steps.a6.a105-a109-combination",)),
    mutant("steps.a6.a105-swapped-weights", A6, "(A105) with the weights of v+ and v- swapped",
           replace(f"{A6}:printed_A105", _a105_swapped_weights), ("rldp.steps.a6.a105-a109-combination",)),
    mutant("steps.isit.38-without-square", ISIT, "ISIT (38): sum P^^2/P = kappa_1 + kappa_2 + kappa_3 (the square dropped)",
           replace(f"{ISIT}:printed_38", _isit_38_without_square), ("isit.steps.appa.lift-33-41",)),
    mutant("steps.isit.44-without-sqrt", ISIT, "ISIT (43)-(44) without the square roots of the conditional sums",
           replace(f"{ISIT}:printed_44_lhs", _isit_44_without_sqrt), ("isit.steps.appa.cauchy-schwarz-42-44",)),
    mutant("steps.isit.77-exponent", ISIT, "ISIT (77): c = 2^{-2/3} lambda^{-2/3}",
           replace(f"{ISIT}:printed_77", _isit_77_exponent), ("isit.steps.appc.lemma8-74-77",)),
    mutant("steps.isit.56-min", ISIT, "ISIT (56)/(70): the support function of the simplex as min_i w_i",
           replace(f"{ISIT}:printed_56", _isit_56_min), ("isit.steps.appc.simplex-support-56-70",)),
    mutant("steps.isit.66-plus-one", ISIT, "ISIT (66): C = sqrt(B + 1) + 1 + P^_{s1} + P^_{s2}",
           replace(f"{ISIT}:printed_66", _isit_66_plus_one), ("isit.steps.appc.rewritings-51-67",)),
    mutant("steps.isit.57-unsquared", ISIT, "ISIT (57) evaluated as -(sum P^ sqrt(-t))/(B + 1) (the square dropped)",
           replace(f"{ISIT}:printed_57", _isit_57_unsquared), ("isit.steps.appc.rewritings-51-67",)),
    mutant("steps.falpha.68-without-minus-1", FALPHA, "Grosse et al. (68) with (alpha t + p) instead of (alpha t + p - 1)",
           replace(f"{FALPHA}:printed_68", _falpha_68_without_minus_1), ("falpha.steps.appa.eq68-eq69",)),
    mutant("steps.falpha.69-factor-4", FALPHA, "Grosse et al. (69) with exp(4 (alpha-1) TV^2)",
           replace(f"{FALPHA}:printed_69", _falpha_69_factor_4), ("falpha.steps.appa.eq68-eq69",)),
    mutant("steps.pram.offdiagonal-over-S", PRAM, "PRAM App. 5.1: the off-diagonal entries divided by S instead of S - 1",
           replace(f"{PRAM}:printed_A1_offdiagonal", _pram_offdiagonal_over_S), ("pram.steps.app5-1.q-affine",)),
    mutant("steps.pram.lemma51-bound-S", PRAM, "PRAM Lemma 5.1: the bounds e^(+-a)/(S + e^(+-a)) instead of /(S - 1 + e^(+-a))",
           replace(f"{PRAM}:printed_lemma51_bound", _pram_lemma51_bound_S), ("pram.steps.app5-3.lemma5-1-algebra",)),
    mutant("steps.pram.theta-denominator", PRAM, "PRAM settings 2/4: theta = (q_1 - v_a)/(v_max + v_a)",
           replace(f"{PRAM}:printed_theta", _pram_theta_wrong_denominator), ("pram.steps.app5-3.settings-2-4",)),
    mutant("steps.body.67-e-eps-minus-2", BODY, "Lemma 3's (67) with (e^eps - 2) Q_y^min instead of (e^eps - 1)",
           replace(f"{BODY}:printed_67", _body_67_without_minus_1), ("rldp.steps.body.lemma3-64-68",)),
    mutant("steps.body.70-one-radius", BODY, "Theorem 5's (70) without d_s'",
           replace(f"{BODY}:printed_70", _body_70_one_radius), ("rldp.steps.body.thm5-69-71",)),
    mutant("steps.a6.v3-times-e-eps", A6, "V3' = e^{+eps} V2' instead of e^-eps V2'",
           replace(f"{A6}:printed_V3_from_V2", _v3_times_t), ("rldp.steps.a6.a106-scaling",)),
    mutant("steps.kairouz.41-weights-swapped", K78, "Kairouz (41) with (1 - lambda) U(Q1) + lambda U(Q2)",
           replace(f"{K78}:printed_41_rhs", _k41_weights_swapped), ("kairouz.steps.s7.convexity-41-43",)),
    mutant("steps.kairouz.42-sign", K78, "Kairouz (42) with the braces reversed (sum lambda mu(S_i) - mu(sum lambda S_i))",
           replace(f"{K78}:printed_42_line3", _k42_sign), ("kairouz.steps.s7.convexity-41-43",)),
    mutant("steps.kairouz.lemma22-max", K78, "Lemma 22's proof with S_ij = Q_ij / max_i Q_ij",
           replace(f"{K78}:printed_S_entry", _k_s_by_max), ("kairouz.steps.s7-2.lemma22-construction",)),
    mutant("steps.kairouz.47-sign", K78, "Kairouz (47) with +e^eps in the last row",
           replace(f"{K78}:PRINTED_47", _k47_plus), ("kairouz.steps.s7-3.constraints-46-50",)),
    mutant("steps.kairouz.corner-count", K78, "Sec. 7.3's count -l_{>0} + (l+1)k + 1",
           replace(f"{K78}:printed_corner_count", _k_count_plus_one), ("kairouz.steps.s7-3.constraints-46-50",)),
    mutant("steps.kairouz.57-denominator", K78, "Kairouz (57) divided by e^eps instead of e^eps + 1",
           replace(f"{K78}:printed_57", _k57_minus), ("kairouz.steps.s8-2.algebra-57-67",)),
    mutant("steps.kairouz.59-sign", K78, "Kairouz (59) with + sum (S_ij - 1)(P0 - P1)",
           replace(f"{K78}:printed_59", _k59_plus), ("kairouz.steps.s8-2.algebra-57-67",)),
    mutant("steps.kairouz.65-without-e-eps", K78, "Kairouz (65) without the factor e^eps on P0(T_j) - P1(T_j)",
           replace(f"{K78}:printed_65", _k65_without_t), ("kairouz.steps.s8-2.algebra-57-67",)),
    mutant("steps.kairouz.70-over-e-eps", K78, "Kairouz (70) with (e^eps - 1)/e^eps",
           replace(f"{K78}:printed_70", _k70_over_t), ("kairouz.steps.s8-3.tv-dual-70-79",)),
    mutant("steps.kairouz.72-sign", K78, "the display after Kairouz (73) with 2A - 2 e^eps B",
           replace(f"{K78}:printed_72_final", _k72_sign), ("kairouz.steps.s8-3.tv-dual-70-79",)),
    mutant("steps.kairouz.bin-constant", K78, "Theorem 7's constant 1/(e^eps + 1)^2 instead of 1/(2(e^eps + 1)^2)",
           replace(f"{K78}:printed_bin_constant", _k_constant_square), ("kairouz.steps.s8-5.constant-94-95",)),
    mutant("steps.kairouz.dual-sense", K78, "the dual LP with S^T alpha <= mu",
           replace(f"{K78}:PRINTED_DUAL_SENSE", "<="), ("kairouz.steps.lp-duality",)),
    mutant("steps.kairouz.85-log-a-plus-b", K78, "Kairouz (85) log(a + e^eps b) = eps + log(a + b)",
           replace(f"{K78}:printed_85_log", _k85_log_a_plus_b), ("kairouz.steps.large-eps-expansions",)),
    mutant("steps.kairouz.83-p1-prefactor", K910, "Kairouz (83) with P1(T_j) in the prefactor",
           replace(f"{K910}:printed_83", _k83_p1_prefactor), ("kairouz.steps.mu-closed-forms",)),
    mutant("steps.kairouz.99-swapped", K910, "Kairouz (99) with P(T_j) and P(T_j^c) swapped in the weights",
           replace(f"{K910}:printed_99", _k99_swapped), ("kairouz.steps.mu-closed-forms",)),
    mutant("steps.kairouz.139-k", K910, "Kairouz (139) divided by e^eps + k",
           replace(f"{K910}:printed_139", _k139_k), ("kairouz.steps.mu-closed-forms",)),
    mutant("steps.kairouz.103-weights", K910, "Kairouz (103) with |T_j cap T| and |T_j^c cap T| swapped",
           replace(f"{K910}:printed_103", _k103_weights_swapped), ("kairouz.steps.s9-1.dual-103-106",)),
    mutant("steps.kairouz.115-minus", K910, "Kairouz (115) divided by e^eps - 1",
           replace(f"{K910}:printed_115", _k115_minus), ("kairouz.steps.s9-2.chain-115-117",)),
    mutant("steps.kairouz.117-last", K910, "Kairouz (117) ending in e^eps instead of e^eps + 1",
           replace(f"{K910}:printed_117_last", _k117_last_t), ("kairouz.steps.s9-2.chain-115-117",)),
    mutant("steps.kairouz.120-denominator", K910, "Kairouz (120) over e^eps + k",
           replace(f"{K910}:printed_120", _k120_denominator), ("kairouz.steps.s9-3.lp-118-120",)),
    mutant("steps.kairouz.122-without-minus-1", K910, "Kairouz (122) with exponent e^eps eps/(e^eps - 1) (the - 1 lost)",
           replace(f"{K910}:printed_122", _k122_without_minus_1), ("kairouz.steps.s9-4.mu-shape-121-126",)),
    mutant("steps.kairouz.rr-alpha", K910, "Kairouz (82)/(129) with (e^eps + k - 1) mu(S_{j_i})",
           replace(f"{K910}:printed_rr_alpha", _k_rr_alpha_k_minus_1), ("kairouz.steps.rr-dual-singletons",)),
    mutant("steps.kairouz.140-without-w", K910, "Kairouz (140) third line without W_{y,z}",
           replace(f"{K910}:printed_140_line3", _k140_without_w), ("kairouz.steps.s10.chain-140",)),
    mutant("steps.kairouz.superset-bound-tc", K9D, "Claim 4's proof: the supersets A of T bounded by mu(P(T^c)) "
           "instead of mu(P(T)) (step 9.4.i15; a true but different bound, never attained on the supersets)",
           replace(f"{K9D}:printed_superset_bound", _k_superset_bound_tc), ("kairouz.steps.s9-4.superset-bound",)),
    mutant("steps.kairouz.130-squared", K9D, "alpha* of (129) built on mu(S_j)^2 for mu(S_j) (step 9.5.i10: the column "
           "utilities of LP (127) squared)", replace(f"{K9D}:printed_130", _k130_squared),
           ("kairouz.steps.s9-5.rr-dual-tail",)),
    mutant("steps.kairouz.138-binary-x0", K9D, "(131) attained by the binary mechanism on {x_0} instead of randomized "
           "response (138) (step 9.5.i19)", replace(f"{K9D}:printed_138", _k138_binary_x0),
           ("kairouz.steps.s9-5.rr-dual-tail",)),
    mutant("steps.kairouz.eps-star-half", K9D, "Theorem 14 read with eps* = 1/2: RR optimal for every eps >= 1/2 "
           "(step 9.5.i20)", replace(f"{K9D}:printed_eps_star", _k_eps_star_half), ("kairouz.steps.s9-5.rr-dual-tail",)),
    mutant("steps.falpha.63-at-p0", FALPHA, "Grosse et al. (63)'s binary minimum taken at p = 0",
           replace(f"{FALPHA}:printed_63_rhs", _falpha_63_at_p0), ("falpha.steps.appa.eq63-binary-reduction",)),
    mutant("steps.falpha.63-pinsker", FALPHA, "Grosse et al. (63)'s right-hand side replaced by Pinsker's bound (69)",
           wrap(f"{FALPHA}:printed_63_rhs", _falpha_63_pinsker), ("falpha.steps.appa.eq63-binary-reduction",)),
    mutant("steps.falpha.renyi-decreasing", FALPHA, "'the Renyi-divergence is decreasing in alpha'",
           replace(f"{FALPHA}:PRINTED_RENYI_MONOTONE", "decreasing"), ("falpha.steps.appa.renyi-monotone",)),
    mutant("steps.pram.cube-v-min", PRAM, "PRAM setting 1 with the cube [v_min, v_alpha]^S",
           replace(f"{PRAM}:printed_cube_ends", _pram_cube_min_alpha), ("pram.steps.app5-3.setting-1-cube",)),
    mutant("steps.a6.columns-srr-only", A6, "Theorem 4's proof taking d_y among SRR's basis vectors instead of V",
           replace(f"{A6}:printed_column_set", _a6_columns_srr_only), ("rldp.steps.a6.columns-in-v",)),
]

#: the catalogue protocol of :func:`rldp_verify.claims.mutants.load_catalogue` (run on its own)
MUTANTS = STEP_MUTANTS
MODULES: dict[str, str] = {}
