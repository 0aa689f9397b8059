"""Mutual information: Theorems 12-14, Lemmas 26-27 (with Claims 4-5), Corollaries 15-16, eq. (32),
the expansions (101)-(102), (133)-(135) and the set equivalence (105)."""

from fractions import Fraction
from itertools import combinations

import mpmath
import sympy as sp

from proofs.kairouz._common import PAPER, fs, generic_dist, rand_dist
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.numbers import to_mpf, working_precision
from rldp_verify.core.rigorous import arb_exact, arb_precision
from rldp_verify.topics.extremal.staircase import pattern_matrix, solve_staircase_lp
from rldp_verify.topics.extremal.tail import certify_rr_tail, mi_tail
from rldp_verify.topics.extremal.thresholds import (
    binary_status,
    bracket_threshold,
    default_grid,
    rr_status,
    t_from_eps,
)
from rldp_verify.topics.extremal.utilities import (
    binary_mechanism_for_set,
    binary_set_mi,
    mi_maximising_sets,
    mu_mi,
    utility,
)

TIE_P = (Fraction(1, 3), Fraction(1, 6), Fraction(1, 6), Fraction(1, 3))


def _PA(P, A):
    return sum((P[i] for i in A), Fraction(0))


def _mu_z(z, e):
    """mu(z, eps) = z e^eps eps - (z (e^eps - 1) + 1) log(z (e^eps - 1) + 1) (eq. (113)), mpmath."""
    t = mpmath.e ** e
    return z * t * e - (z * (t - 1) + 1) * mpmath.log(z * (t - 1) + 1)


@claim(
    id="kairouz.thm12.binary-optimal-mi",
    paper=PAPER,
    source="Sec. 4.2, Theorem 12; proof Sec. 9.1",
    statement="For any P there is eps* > 0 such that for 0 < eps <= eps* the binary mechanism (29)-(30) maximises I(X;Y).",
    hypotheses=("instances with a unique maximising pair {T, T^c} of P(A)P(A^c) (used by the proof)",),
    method=Method.HIGH_PRECISION,
)
def check(ctx):
    rng = ctx.rng("thm12")
    rows, bad = [], []
    for k in (3, 4, 5):
        P = generic_dist(rng, k)
        T = binary_set_mi(P)
        mu = mu_mi(P)
        br = bracket_threshold(lambda t: binary_status(mu, k, t, T, dps=ctx.dps), "binary",
                               default_grid(0.001, 20.0, 1.5), tol=1e-3)
        lo, hi = br.eps_bracket()
        rows.append({"k": k, "P": fs(P), "T": sorted(T), "bracket": [lo, hi], "kind": br.kind})
        if br.kind not in ("bisected", "above-grid") or not lo > 0:
            bad.append(rows[-1])
    if bad:
        return Outcome.refuted("binary not optimal at the smallest eps", counterexample=bad[0], instances=rows, kind="false")
    return Outcome.verified(f"{len(rows)} generic P: the binary mechanism is certified optimal at every grid eps from "
                            "0.001 up to a positive bisected threshold", instances=rows)


@claim(
    id="kairouz.thm12.tied-maximisers",
    paper=PAPER,
    source="Sec. 9.1, proof of Theorem 12 ('by the uniqueness of the maximizer assumption stated in the theorem')",
    statement="Theorem 12 also holds when argmax_A P(A)P(A^c) is not a single pair {T, T^c} (the theorem states no "
              "uniqueness assumption; its proof uses one).",
    method=Method.HIGH_PRECISION,
)
def check_ties(ctx):
    P = TIE_P
    k = len(P)
    T = binary_set_mi(P)
    rows = []
    with arb_precision(ctx.dps):
        for tt in (1 + Fraction(1, 1000), 1 + Fraction(1, 100), Fraction(11, 10)):
            mu = mu_mi(P)
            st = binary_status(mu, k, tt, T, dps=ctx.dps)
            sol = solve_staircase_lp(k, tt, mu)
            b = utility(binary_mechanism_for_set(T, k, tt), mu)
            rows.append({"t": str(tt), "status": st.status, "OPT_enclosure": sol.value.str(20), "BIN": b.str(20),
                         "enclosure_gap": str(sol.gap)})
    if any(r["status"] == "suboptimal" for r in rows):
        return Outcome.refuted("binary mechanism strictly suboptimal with tied maximisers",
                               counterexample={"P": fs(P), "rows": rows}, kind="false")
    return Outcome.inconclusive(
        f"P = (1/3,1/6,1/6,1/3) has {len(mi_maximising_sets(P))} maximising sets; the LP optimum equals the binary "
        "value to within the certified enclosure (gap <= 1e-25) at every tested eps, but exact ties between "
        "alternative optimal bases cannot be certified with interval arithmetic", instances=rows,
        maximising_sets=[sorted(A) for A in mi_maximising_sets(P)])


@claim(
    id="kairouz.thm12.eq101-expansions",
    paper=PAPER,
    source="Sec. 9.1, eq. (101)",
    statement="e^eps = 1 + eps + (1/2) eps + O(eps^3); log(a + e^eps b) = b eps + b(1-b)/2 eps^2 + O(eps^3) (a + b = 1); "
              "1/(1+e^eps) = 1/2 - eps/4 + O(eps^2).",
    method=Method.SYMBOLIC,
    reading="a + b = 1 in the second expansion (a = P(T_j^c), b = P(T_j), as used in (102))",
)
def check_101(ctx):
    e, b = sp.symbols("e b", positive=True)
    first = sp.series(sp.exp(e) - (1 + e + e / 2), e, 0, 3).removeO()
    second = sp.simplify(sp.series(sp.log(1 - b + sp.exp(e) * b), e, 0, 3).removeO() - (b * e + b * (1 - b) / 2 * e**2))
    third = sp.simplify(sp.series(1 / (1 + sp.exp(e)), e, 0, 2).removeO() - (sp.Rational(1, 2) - e / 4))
    if second == 0 and third == 0 and first != 0:
        return Outcome.refuted(
            f"the first expansion is misprinted: e^eps - (1 + eps + eps/2) = {first} + O(eps^3), not O(eps^3) "
            "(should read 1 + eps + eps^2/2); the other two expansions are correct",
            counterexample={"eps": "1/100", "e^eps": mpmath.nstr(mpmath.e ** mpmath.mpf("0.01"), 15),
                            "printed 1+eps+eps/2": "1.015"}, kind="misprint")
    return Outcome.verified("all three expansions correct") if first == 0 else Outcome.refuted(
        "expansions wrong", counterexample={"first": str(first), "second": str(second), "third": str(third)}, kind="false")


@claim(
    id="kairouz.thm12.eq102-mu-expansion",
    paper=PAPER,
    source="Sec. 9.1, eq. (99), (102), (104); eq. (113)",
    statement="mu_j = P(T_j) e^eps log(e^eps/(P(T_j^c)+e^eps P(T_j))) + P(T_j^c) log(1/(P(T_j^c)+e^eps P(T_j))) "
              "= P(T_j) e^eps eps - (P(T_j)(e^eps-1)+1) log(P(T_j)(e^eps-1)+1) = (1/2) P(T_j) P(T_j^c) eps^2 + O(eps^3).",
    method=Method.SYMBOLIC,
)
def check_102(ctx):
    e, z = sp.symbols("e z", positive=True)
    t = sp.exp(e)
    form99 = z * t * sp.log(t / (1 - z + t * z)) + (1 - z) * sp.log(1 / (1 - z + t * z))
    form102 = z * t * e - (z * (t - 1) + 1) * sp.log(z * (t - 1) + 1)
    same = sp.simplify(sp.expand_log(form99 - form102, force=True)) == 0
    ser = sp.simplify(sp.series(form102, e, 0, 3).removeO() - z * (1 - z) * e**2 / 2)
    if same and ser == 0:
        return Outcome.verified("(99) = (102) identically and the series is z(1-z) eps^2/2 + O(eps^3)")
    return Outcome.refuted("expansion mismatch", counterexample={"same": same, "series_diff": str(ser)}, kind="false")


@claim(
    id="kairouz.sec4.eq105-set-equivalence",
    paper=PAPER,
    source="Sec. 4.2 (text after eq. (30)) and Sec. 9.1, eq. (105)",
    statement="argmin_A |P(A) - 1/2| = argmax_A [-P(A) log P(A) - P(A^c) log P(A^c)] = argmax_A P(A) P(A^c); "
              "the text of Sec. 4.2 writes the first set as argmax_A |P(A) - 1/2|.",
    method=(Method.EXACT, Method.HIGH_PRECISION),
)
def check_105(ctx):
    rng = ctx.rng("e105")
    bad, n = [], 0
    text_misses = []   # P where no A in the text's argmax_A |P(A) - 1/2| is in the (correct) argmin set

    def analyse(P):
        k = len(P)
        sets = [frozenset(A) for r in range(k + 1) for A in combinations(range(k), r)]
        d = {A: abs(_PA(P, A) - Fraction(1, 2)) for A in sets}

        def H(A):
            x = to_mpf(_PA(P, A))
            return -(x * mpmath.log(x) if x > 0 else 0) - ((1 - x) * mpmath.log(1 - x) if x < 1 else 0)
        h = {A: H(A) for A in sets}
        s1 = {A for A in sets if d[A] == min(d.values())}
        s3 = set(mi_maximising_sets(P))          # the engine's argmax_A P(A) P(A^c)
        hm = max(h.values())
        s2 = {A for A in sets if abs(h[A] - hm) < mpmath.mpf(10) ** (-(ctx.dps - 10))}
        T = binary_set_mi(P)                      # the engine's T of eq. (30)
        text = {A for A in sets if d[A] == max(d.values())}
        return s1, s2, s3, T, text, h, hm

    with working_precision(ctx.dps):
        cases = [(Fraction(1, 2), Fraction(1, 4), Fraction(1, 4))]
        for _ in range(60):
            k = rng.randint(2, 6)
            cases.append(tuple(rand_dist(rng, k, rng.choice((12, 20, 60)))))
        for P in cases:
            s1, s2, s3, T, text, h, hm = analyse(P)
            n += 1
            if not (s1 == s2 == s3) or T not in s1:
                bad.append({"P": fs(P), "argmin_|P(A)-1/2|": sorted(sorted(A) for A in s1),
                            "argmax_entropy": sorted(sorted(A) for A in s2),
                            "argmax_P(A)P(A^c)": sorted(sorted(A) for A in s3), "engine_T": sorted(T)})
            if not (text & s1):
                text_misses.append({"P": fs(P), "argmax_|P(A)-1/2|": sorted(sorted(A) for A in text),
                                    "argmin_|P(A)-1/2|": sorted(sorted(A) for A in s1),
                                    "entropy_of_text_sets": [mpmath.nstr(h[A], 6) for A in sorted(text, key=sorted)],
                                    "max_entropy": mpmath.nstr(hm, 10)})
    if bad:
        return Outcome.refuted("eq. (105) fails: the three argmin/argmax sets differ (or the engine's T is not in "
                               "them)", counterexample=bad[0], failures=len(bad), kind="false")
    if text_misses:
        w = text_misses[0]
        return Outcome.refuted(
            f"eq. (105) holds on {n} P (exact / {ctx.dps}-digit), but the Sec. 4.2 text's 'T in argmax_A |P(A) - 1/2|' "
            f"is misprinted (evident reading: argmin, which holds): on {len(text_misses)} of {n} P no set of the "
            f"text's argmax is optimal, e.g. P = {w['P']}: argmax |P(A) - 1/2| = {w['argmax_|P(A)-1/2|']} (binary "
            f"entropy {', '.join(w['entropy_of_text_sets'])}) while the maximum entropy is {w['max_entropy']}",
            counterexample=w, eq105_instances=n, text_misses=len(text_misses), kind="misprint")
    return Outcome.verified(f"eq. (105) holds on {n} P and the text's argmax set is optimal on every one",
                            eq105_instances=n)


@claim(
    id="kairouz.thm12.dual-98",
    paper=PAPER,
    source="Sec. 9.1, eq. (98), (100), (112)",
    statement="alpha* of (98) satisfies 1^T alpha* = (mu(S_j1) + mu(S_j2))/(e^eps + 1) = I(X;Y) of the binary mechanism "
              "(112), and S_j1^T alpha* = mu(S_j1), S_j2^T alpha* = mu(S_j2); (100) prints the sum as mu(S_j1) + mu(S_j1).",
    method=Method.SYMBOLIC,
)
def check_98(ctx):
    t, m1, m2 = sp.symbols("t m1 m2", positive=True)
    ok = True
    for nT, nTc in ((1, 1), (1, 2), (2, 3), (3, 1)):
        aT = (t * m1 - m2) / (nT * (t + 1) * (t - 1))
        aTc = (t * m2 - m1) / (nTc * (t + 1) * (t - 1))
        ok &= sp.simplify(nT * aT + nTc * aTc - (m1 + m2) / (t + 1)) == 0
        ok &= sp.simplify(t * nT * aT + nTc * aTc - m1) == 0
        ok &= sp.simplify(nT * aT + t * nTc * aTc - m2) == 0
    printed = sp.simplify((m1 + m1) / (t + 1) - (m1 + m2) / (t + 1))
    if ok and printed != 0:
        return Outcome.refuted(
            "the identities hold (1^T alpha* = (mu_j1 + mu_j2)/(e^eps+1), complementary slackness on j1, j2), but the third "
            "line of (100) prints mu(S_j1) + mu(S_j1) (a typo for mu(S_j1) + mu(S_j2); the next line uses the right sum)",
            counterexample={"mu_j1": "1", "mu_j2": "2", "t": "2", "printed_line": "2/3", "correct": "1"}, kind="misprint")
    return Outcome.verified("identities hold") if ok else Outcome.refuted("dual (98) identities fail", counterexample=str(ok), kind="false")


@claim(
    id="kairouz.thm13.binary-mi-approximation",
    paper=PAPER,
    source="Sec. 4.2, Theorem 13; proof Sec. 9.2, eq. (117)",
    statement="For eps <= 1 and any P, OPT <= (1 + e^eps) BIN (binary mechanism (29) for mutual information).",
    method=(Method.HIGH_PRECISION, Method.EXACT),
)
def check_13(ctx):
    rng = ctx.rng("thm13")
    rows, bad = [], []
    with arb_precision(ctx.dps):
        for k in (2, 3, 4, 5, 6, 7):
            P = generic_dist(rng, k) if k <= 5 else rand_dist(rng, k, 997)
            T = binary_set_mi(P)
            for tt in (Fraction(101, 100), Fraction(3, 2), Fraction(271828, 100000)):
                mu = mu_mi(P)
                opt = solve_staircase_lp(k, tt, mu).value
                b = utility(binary_mechanism_for_set(T, k, tt), mu)
                r = opt / b
                rows.append({"k": k, "t": str(tt), "OPT/BIN": r.str(10), "1+t": str(float(1 + tt))})
                if not r <= arb_exact(1 + tt):
                    bad.append({**rows[-1], "P": fs(P)})
    if bad:
        return Outcome.refuted("approximation factor exceeded", counterexample=bad[0], kind="false")
    return Outcome.verified(f"{len(rows)} certified LPs (k = 2..7, e^eps in {{1.01, 1.5, 2.71828 < e}}): OPT/BIN <= 1 + e^eps",
                            instances=rows)


@claim(
    id="kairouz.lemma26.mi-lp-bound",
    paper=PAPER,
    source="Sec. 9.2, Lemma 26, eq. (114); proof Sec. 9.3, eq. (118)-(120)",
    statement="For all P and eps, OPT <= (max_j mu_j) k/(e^eps + k - 1); alpha_i = 1/(e^eps + k - 1) is feasible for "
              "S~^T alpha >= 1 (S~ = S^(k) without its all-ones column).",
    method=(Method.HIGH_PRECISION, Method.EXACT),
)
def check_26(ctx):
    rng = ctx.rng("l26")
    rows, bad = [], []
    with arb_precision(ctx.dps):
        for k in (2, 3, 4, 5, 6):
            P = generic_dist(rng, k) if k <= 5 else rand_dist(rng, k, 997)
            for tt in (Fraction(11, 10), Fraction(3), Fraction(50)):
                cols = pattern_matrix(k, tt)
                alpha_ok = all(sum(c) / (tt + k - 1) >= 1 for c in cols[1:])
                mus = [mu_mi(P)(c) for c in cols]
                mx = mus[0]
                for m in mus[1:]:
                    mx = m if float(m.mid()) > float(mx.mid()) else mx
                opt = solve_staircase_lp(k, tt, mus).value
                bound = mx * arb_exact(Fraction(k) / (tt + k - 1))
                rows.append({"k": k, "t": str(tt), "OPT": opt.str(10), "bound": bound.str(10), "alpha_feasible": alpha_ok})
                if not (opt <= bound and alpha_ok):
                    bad.append(rows[-1])
    if bad:
        return Outcome.refuted("Lemma 26 violated", counterexample=bad[0], kind="false")
    return Outcome.verified(f"{len(rows)} certified LPs: OPT <= max_j mu_j k/(e^eps+k-1); alpha feasibility exact", instances=rows)


def _zstar(e):
    t = mpmath.e ** e
    return (mpmath.e ** (t * e / (t - 1) - 1) - 1) / (t - 1)


@claim(
    id="kairouz.lemma27.max-mu",
    paper=PAPER,
    source="Sec. 9.2, Lemma 27, eq. (116); proof Sec. 9.4, eq. (121)-(126), Claims 4 and 5",
    statement="For all P and eps <= 1: max_j mu_j <= mu(P(T), eps) + mu(P(T^c), eps). Along the way: mu'(z, eps) = "
              "e^eps eps - (e^eps - 1) - (e^eps - 1) log(z(e^eps-1)+1) (121), whose root is z*(eps) of (122), z* <= 1/2; "
              "Claim 5: some A has 1/2 - P(x*) <= P(A) <= 1/2; in case 3 (P(x*) <= 1/2) the smallest-P maximiser T of P(A)P(A^c) has 1/4 <= P(T) <= 1/2.",
    method=(Method.SYMBOLIC, Method.HIGH_PRECISION, Method.EXACT),
)
def check_27(ctx):
    z, e = sp.symbols("z e", positive=True)
    t = sp.exp(e)
    mu = z * t * e - (z * (t - 1) + 1) * sp.log(z * (t - 1) + 1)
    d121 = sp.simplify(sp.diff(mu, z) - (t * e - (t - 1) - (t - 1) * sp.log(z * (t - 1) + 1))) == 0
    zs = (sp.exp(t * e / (t - 1) - 1) - 1) / (t - 1)
    dz = sp.diff(mu, z).subs(z, zs)
    root122 = sp.simplify(sp.expand_log(dz, force=True)) == 0 or all(
        abs(sp.N(dz.subs(e, sp.Rational(v, 7)), 60)) < sp.Float("1e-50") for v in (1, 3, 7, 20, 70))
    rng = ctx.rng("l27")
    bad, n = [], 0
    with working_precision(ctx.dps):
        zmax = max(_zstar(mpmath.mpf(i) / 100) for i in range(1, 1001))  # eps in (0, 10]
        for _ in range(120):
            k = rng.randint(2, 7)
            P = rand_dist(rng, k, rng.choice((10, 24, 97)))
            sets = [frozenset(A) for r in range(k + 1) for A in combinations(range(k), r)]
            pp = {A: _PA(P, A) * (1 - _PA(P, A)) for A in sets}
            mx = max(pp.values())
            T = min((A for A in sets if pp[A] == mx), key=lambda A: _PA(P, A))
            n += 1
            if max(P) <= Fraction(1, 2) and not (Fraction(1, 4) <= _PA(P, T) <= Fraction(1, 2)):  # case 3 only
                bad.append({"P": fs(P), "issue": "P(T) outside [1/4, 1/2]"})
            pstar = max(P)
            if not any(Fraction(1, 2) - pstar <= _PA(P, A) <= Fraction(1, 2) for A in sets):
                bad.append({"P": fs(P), "issue": "Claim 5"})
            for e_ in (mpmath.mpf("0.01"), mpmath.mpf("0.3"), mpmath.mpf(1)):
                lhs = max(_mu_z(to_mpf(_PA(P, A)), e_) for A in sets)
                rhs = _mu_z(to_mpf(_PA(P, T)), e_) + _mu_z(to_mpf(1 - _PA(P, T)), e_)
                if lhs > rhs * (1 + mpmath.mpf(10) ** (-(ctx.dps - 10))):
                    bad.append({"P": fs(P), "eps": str(e_), "max_mu": mpmath.nstr(lhs, 12), "rhs": mpmath.nstr(rhs, 12)})
        # case 3 key inequality on a fine grid of eps in (0, 1]
        worst = mpmath.mpf(0)
        for i in range(1, 1001):
            e_ = mpmath.mpf(i) / 1000
            r = _mu_z(_zstar(e_), e_) / (min(_mu_z(mpmath.mpf(1) / 2, e_), _mu_z(mpmath.mpf(1) / 4, e_)) + _mu_z(mpmath.mpf(3) / 4, e_))
            worst = max(worst, r)
    if not (d121 and root122) or bad or zmax > mpmath.mpf(1) / 2 or worst > 1:
        return Outcome.refuted("Lemma 27 chain fails", counterexample=bad[:1] or {"d121": d121, "root122": root122,
                                                                               "zmax": str(zmax), "case3": str(worst)}, kind="false")
    return Outcome.verified(f"(121) symbolic, (122) root of (121) (symbolic or to 50 digits at 5 eps); z*(eps) <= 1/2 on a grid of eps in (0, 10] (max "
                            f"{mpmath.nstr(zmax, 12)}); Claim 5 and 1/4 <= P(T) <= 1/2 exact on {n} random P; "
                            "max_j mu_j <= mu(P(T)) + mu(P(T^c)) at eps = 0.01, 0.3, 1 on the same P; case-3 ratio "
                            f"<= {mpmath.nstr(worst, 8)} on a 1000-point eps grid in (0, 1] (grid evidence, not a proof "
                            "for every eps)")


@claim(
    id="kairouz.claim4.single-heavy-atom",
    paper=PAPER,
    source="Sec. 9.4, Claim 4",
    statement="If P(x*) >= 1 - z*(eps) then T = {x*}: {T, T^c} = argmax_A P(A)P(A^c) and max_A mu(P(A), eps) = "
              "max(mu(P(T), eps), mu(P(T^c), eps)).",
    method=(Method.HIGH_PRECISION, Method.EXACT),
)
def check_c4(ctx):
    rng = ctx.rng("c4")
    n, bad = 0, []
    with working_precision(ctx.dps):
        for _ in range(200):
            k = rng.randint(2, 6)
            e_ = mpmath.mpf(rng.randint(1, 100)) / 100
            P = list(rand_dist(rng, k, 200))
            P.sort(reverse=True)
            if to_mpf(P[0]) < 1 - _zstar(e_):
                continue
            n += 1
            sets = [frozenset(A) for r in range(k + 1) for A in combinations(range(k), r)]
            pp = {A: _PA(P, A) * (1 - _PA(P, A)) for A in sets}
            mx = max(pp.values())
            arg = {A for A in sets if pp[A] == mx}
            T = frozenset({0})
            Tc = frozenset(range(1, k))
            m_all = max(_mu_z(to_mpf(_PA(P, A)), e_) for A in sets)
            m_T = max(_mu_z(to_mpf(_PA(P, T)), e_), _mu_z(to_mpf(_PA(P, Tc)), e_))
            if arg != {T, Tc} or abs(m_all - m_T) > mpmath.mpf(10) ** (-(ctx.dps - 10)):
                bad.append({"P": fs(P), "eps": str(e_)})
    if bad:
        return Outcome.refuted("Claim 4 fails", counterexample=bad[0], kind="false")
    if n == 0:
        return Outcome.inconclusive("no instance met the hypothesis")
    return Outcome.verified(f"{n} random (P, eps) with P(x*) >= 1 - z*(eps): both parts hold")


@claim(
    id="kairouz.thm14.rr-optimal-mi",
    paper=PAPER,
    source="Sec. 4.3, Theorem 14; proof Sec. 9.5, eq. (127)-(139)",
    statement="For any P there is eps* such that for eps >= eps* randomized response maximises I(X;Y).",
    method=Method.HIGH_PRECISION,
)
def check_14(ctx):
    rng = ctx.rng("thm14")
    rows, bad = [], []
    for k in (3, 4, 5, 6):
        P = generic_dist(rng, k) if k <= 5 else rand_dist(rng, k, 997)
        mu = mu_mi(P)
        br = bracket_threshold(lambda t: rr_status(mu, k, t, dps=ctx.dps), "rr", default_grid(0.05, 40.0, 1.3), tol=1e-4,
                               tail_fn=lambda t: certify_rr_tail(k, mi_tail(P), 1 / t))
        lo, hi = br.eps_bracket()
        rows.append({"k": k, "P": fs(P), "bracket": [lo, hi], "kind": br.kind,
                     "optimal_for_all_eps_above_bracket": br.tail_certified})
        if br.kind not in ("bisected", "below-grid"):
            bad.append(rows[-1])
    if bad:
        return Outcome.refuted("RR not optimal at the largest eps", counterexample=bad[0], instances=rows, kind="false")
    if not all(r["optimal_for_all_eps_above_bracket"] for r in rows):
        return Outcome.inconclusive("threshold bracketed but the tail eps >= hi not proved for every instance", instances=rows)
    return Outcome.verified(f"{len(rows)} instances: RR proved optimal for EVERY eps above a bisected threshold "
                            "(arb interval arithmetic on s = e^-eps) and certified not optimal just below it", instances=rows)


@claim(
    id="kairouz.thm14.expansions-133-135",
    paper=PAPER,
    source="Sec. 9.5, eq. (129), (131), (133)-(135)",
    statement="mu_j = -(P(T_j) log P(T_j)) e^eps + O(eps); S_j^T alpha* = -(sum_{T_j} P log P) e^eps + O(eps); hence "
              "S_j^T alpha* - mu_j = (P(T_j) log P(T_j) - sum_{T_j} P log P) e^eps + O(eps), with a positive coefficient "
              "for |T_j| >= 2; 1^T alpha* equals I(X;Y) of randomized response (131) = (139).",
    method=(Method.SYMBOLIC, Method.HIGH_PRECISION),
)
def check_135(ctx):
    z, s = sp.symbols("z s", positive=True)
    e = -sp.log(s)  # t = 1/s
    mu = z / s * e - (z * (1 / s - 1) + 1) * sp.log(z * (1 / s - 1) + 1)
    ser = sp.expand(sp.series(mu, s, 0, 1).removeO())
    lead = sp.simplify(ser.coeff(s, -1))
    lead_ok = sp.simplify(lead + z * sp.log(z)) == 0
    rng = ctx.rng("e135")
    P = generic_dist(rng, 4)
    rows = []
    with working_precision(ctx.dps):
        p = [to_mpf(x) for x in P]
        k = 4
        for eps in (20, 30):
            t = mpmath.e ** eps
            mus = {}
            for r in range(1, k + 1):
                for A in combinations(range(k), r):
                    zA = sum(p[i] for i in A)
                    mus[A] = zA * t * eps - (zA * (t - 1) + 1) * mpmath.log(zA * (t - 1) + 1)
            m1 = [mus[(i,)] for i in range(k)]
            alpha = [((t + k - 2) * m1[i] - sum(m1[l] for l in range(k) if l != i)) / ((t - 1) * (t + k - 1)) for i in range(k)]
            for A in ((0, 1), (1, 2, 3)):
                g = sum((t if i in A else 1) * alpha[i] for i in range(k)) - mus[A]
                zA = sum(p[i] for i in A)
                c = zA * mpmath.log(zA) - sum(p[i] * mpmath.log(p[i]) for i in A)
                rows.append({"eps": eps, "T_j": list(A), "g e^-eps": mpmath.nstr(g / t, 15), "claimed_coefficient": mpmath.nstr(c, 15)})
            total = sum(alpha)
            direct = sum(m1) / (t + k - 1)
            rows.append({"eps": eps, "1^T alpha - (131)": mpmath.nstr(total - direct, 5)})
    ok = lead_ok and all(abs(mpmath.mpf(r["g e^-eps"]) - mpmath.mpf(r["claimed_coefficient"])) < mpmath.mpf("1e-6")
                         for r in rows if "g e^-eps" in r) and all(mpmath.mpf(r["claimed_coefficient"]) > 0 for r in rows if "claimed_coefficient" in r)
    if ok:
        return Outcome.verified("(133) leading term -z log z symbolic; (135) coefficient positive and matched by "
                                "S^T alpha* - mu at eps = 20, 30 (50 digits); (131) identity", rows=rows)
    return Outcome.refuted("expansion mismatch", counterexample=rows, kind="false")


def _mi_rr(p, eps):
    k = len(p)
    t = mpmath.e ** eps
    return sum(pi * t * mpmath.log(t / (pi * (t - 1) + 1)) + (1 - pi) * mpmath.log(1 / (pi * (t - 1) + 1)) for pi in p) / (t + k - 1)


def _H(p):
    return -sum(x * mpmath.log(x) for x in p)


@claim(
    id="kairouz.eq32.rr-mi-expansion",
    paper=PAPER,
    source="Sec. 4.5, eq. (32)",
    statement="Randomized response achieves I(X;Y) = H(X) - (k-1) eps e^-eps + O(e^-2eps).",
    method=(Method.SYMBOLIC, Method.HIGH_PRECISION),
)
def check_32(ctx):
    P = (Fraction(1, 2), Fraction(1, 2))
    rows = []
    with working_precision(ctx.dps):
        p = [to_mpf(x) for x in P]
        k = len(p)
        c = -(k - 1) - sum(mpmath.log(x) for x in p) - k * _H(p)
        for eps in (10, 20, 40):
            rem = (_mi_rr(p, eps) - _H(p) + (k - 1) * eps * mpmath.e ** (-eps)) * mpmath.e ** eps
            rows.append({"eps": eps, "(I - H + (k-1) eps e^-eps) e^eps": mpmath.nstr(rem, 15)})
    if abs(c) > 0 and all(abs(mpmath.mpf(r["(I - H + (k-1) eps e^-eps) e^eps"]) - c) < mpmath.mpf("1e-3") for r in rows):
        return Outcome.refuted(
            "the remainder is Theta(e^-eps), not O(e^-2eps): I = H - (k-1) eps e^-eps + c e^-eps + O(eps e^-2eps) with "
            f"c = -(k-1) - sum_x log P(x) - k H(X); for P = (1/2, 1/2), c = {mpmath.nstr(c, 12)} (= -1) and the scaled "
            "remainder converges to it",
            counterexample={"P": fs(P), "c": mpmath.nstr(c, 15), "high_precision": rows},
            note="Corollary 16's bound only needs the (k-1) eps e^-eps term and is unaffected", kind="false")
    return Outcome.verified("remainder is O(e^-2eps)", rows=rows)


@claim(
    id="kairouz.cor16.mi-bound-large-eps",
    paper=PAPER,
    source="Sec. 4.5, Corollary 16",
    statement="For any delta > 0 there is eps* with: eps >= eps* implies I(X;Y) <= H(X) - (1-delta)(k-1) eps e^-eps for "
              "every eps-LDP Q.",
    method=Method.HIGH_PRECISION,
)
def check_c16(ctx):
    rng = ctx.rng("c16")
    rows, bad = [], []
    with arb_precision(ctx.dps), working_precision(ctx.dps):
        for k in (2, 3, 4):
            P = generic_dist(rng, k)
            p = [to_mpf(x) for x in P]
            for eps in (12, 20, 30):
                tt = t_from_eps(eps)
                st = rr_status(mu_mi(P), k, tt, dps=ctx.dps)
                e_true = mpmath.log(to_mpf(tt))
                opt = _mi_rr(p, e_true)
                bound = _H(p) - (1 - mpmath.mpf(1) / 10) * (k - 1) * e_true * mpmath.e ** (-e_true)
                rows.append({"k": k, "eps": eps, "rr_optimal": st.status, "OPT-bound": mpmath.nstr(opt - bound, 5)})
                if st.status != "optimal" or opt > bound:
                    bad.append(rows[-1])
    if bad:
        return Outcome.inconclusive("RR not certified optimal or bound exceeded", rows=rows)
    return Outcome.verified("with delta = 1/10: RR certified optimal (Theorem 14) and OPT = I_RR <= H - (1-delta)(k-1) eps "
                            "e^-eps at eps = 12, 20, 30 for k = 2, 3, 4", rows=rows)


@claim(
    id="kairouz.cor15.mi-small-eps",
    paper=PAPER,
    source="Sec. 4.5, Corollary 15, eq. (31) and the display after it; Sec. 1.4 ('I(X;Y) <= 0.5 eps^2 max_A P(A)P(A^c) + O(eps^3)')",
    statement="For any delta > 0 there is eps* with I(X;Y) <= (1+delta) (1/2) P(T) P(T^c) eps^2 for eps <= eps* and every "
              "eps-LDP Q; the binary mechanism achieves (1/2) P(T) P(T^c) eps^2 + O(eps^3).",
    method=(Method.SYMBOLIC, Method.HIGH_PRECISION),
)
def check_c15(ctx):
    # in a = e^eps - 1 = eps + O(eps^2): no a^1 term and equal a^2 / eps^2 coefficients suffice
    a, z = sp.symbols("a z", positive=True)
    t = 1 + a
    lt = sp.log(1 + a)
    I_bin = (1 / (t + 1)) * (z * t * (lt - sp.log(1 + a * z)) - (1 - z) * sp.log(1 + a * z)) + \
            (1 / (t + 1)) * ((1 - z) * t * (lt - sp.log(1 + a * (1 - z))) - z * sp.log(1 + a * (1 - z)))
    ser = sp.expand(sp.series(I_bin, a, 0, 3).removeO())
    ser_ok = sp.simplify(ser.coeff(a, 1)) == 0 and sp.simplify(ser.coeff(a, 0)) == 0 and \
        sp.simplify(ser.coeff(a, 2) - z * (1 - z) / 2) == 0
    rng = ctx.rng("c15")
    rows = []
    dev = {}
    with arb_precision(ctx.dps):
        for n, P in enumerate((generic_dist(rng, 3), generic_dist(rng, 4), TIE_P)):
            k = len(P)
            T = binary_set_mi(P)
            c = _PA(P, T) * (1 - _PA(P, T)) / 2
            for eps in ("1/10", "1/100", "1/1000"):
                tt = Fraction(mpmath.nstr(mpmath.exp(mpmath.mpf(Fraction(eps).numerator) / Fraction(eps).denominator), 30))
                opt = solve_staircase_lp(k, tt, mu_mi(P)).value
                e_arb = arb_exact(tt).log()
                r = opt / (arb_exact(c) * e_arb * e_arb)
                rows.append({"instance": n, "eps~": eps, "OPT/(P(T)P(T^c)eps^2/2)": r.str(10)})
                dev[(n, eps)] = abs(float(r.mid()) - 1)
    d = {eps: max(dev[(n, eps)] for n in range(3)) for eps in ("1/10", "1/100", "1/1000")}
    if ser_ok and d["1/1000"] < d["1/100"] < d["1/10"] and d["1/1000"] < 0.01:
        return Outcome.verified("binary MI = P(T)P(T^c) eps^2/2 + O(eps^3) (symbolic); certified LP optimum / "
                                "(P(T)P(T^c) eps^2/2) -> 1 as eps -> 0 (|ratio - 1| = "
                                + ", ".join(f"{v:.2e} at eps={k_}" for k_, v in d.items()) + "), incl. a tied P",
                                instances=rows)
    return Outcome.refuted("small-eps bound not approached", counterexample=rows, kind="false")
