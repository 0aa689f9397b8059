"""Wrong variants of the proof steps that statement-level claims check (issue 30).

Most steps of ``proofs/steps/*.toml`` are checked by their own step claims, whose printed steps are patched by the
mutants of :mod:`mutation.steps_catalogue`. The others are checked by a claim that already checked the statement or
the proof the step belongs to (``claims`` of the step lists no ``<paper>.steps.*`` id): that claim computes the
step's display somewhere in its own code. A :class:`Variant` here is a wrong variant of that display *in the claim's
code*: one source snippet of the module that computes the step (``old``, which must occur exactly once) replaced
by a plausible slip (``new``: a sign, an exponent, a swapped bound, a missing factor, the relation reversed).

Judge (:func:`judge`): the module's source with the snippet replaced is executed as a fresh module under the same
name (its claims re-registered for the run; when the snippet lives in a helper module, the claim's module is
re-executed too so that it binds to the mutated helper), the claim is run with the default :class:`Context`, and
the original module and registry are restored. A variant is *killed* when the claim says REFUTED under it (the claim
is pinned VERIFIED on the paper); INCONCLUSIVE, VERIFIED and ERROR are not kills, and a snippet that is not found
exactly once is *stale* (the table must follow the claim's code). Every variant runs the claim for real.

Steps whose checking claim is REFUTED on the paper (the claim refutes the printed display itself: a misprint or a
false step) cannot be told apart from a wrong variant by this kill rule; :func:`refuted_as_printed` lists them (from
the pins), and they are given no variant.

    python -m mutation.step_variants [--only GLOB] [--out FILE]    # run the table, print the counts

Fast subset: ``tests/proofs/test_step_variants.py`` (a few variants in the test command); the whole table is that
file's ``@pytest.mark.slow`` test (run by the report job and ``pytest -m slow``). The variants are also semantic
mutants (:func:`variant_mutants`, appended to ``mutation/catalogue.py``): ``make mutation-semantic`` runs each in a
fresh interpreter, where :class:`VariantPatch` swaps the code of the one function the snippet changes.
"""

from __future__ import annotations

import argparse
import fnmatch
import importlib
import json
import sys
import time
import types
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Variant:
    """A wrong variant of step ``step`` (``"<paper prefix>:<step id>"``, e.g. ``"000:A.2.A28"``): in ``module``'s
    source, ``old`` (exactly once) becomes ``new``; ``claim`` must then say REFUTED."""

    step: str
    claim: str
    module: str
    old: str
    new: str
    description: str

    @property
    def id(self) -> str:
        return f"{self.step}->{self.claim}"


def v(step: str, claim: str, module: str, old: str, new: str, description: str) -> Variant:
    return Variant(step, claim, module, old, new, description)


# ---------------------------------------------------------------------------------------------------------------
# the judge
# ---------------------------------------------------------------------------------------------------------------


def _exec_module(name: str, source: str, like: types.ModuleType) -> types.ModuleType:
    mod = types.ModuleType(name, like.__doc__)
    mod.__file__ = like.__file__
    mod.__package__ = like.__package__
    mod.__spec__ = like.__spec__
    code = compile(source, f"{like.__file__} [step variant]", "exec")
    old = sys.modules.get(name)
    sys.modules[name] = mod
    try:
        exec(code, mod.__dict__)
    except BaseException:
        if old is not None:
            sys.modules[name] = old
        raise
    return mod


def _changed_functions(orig: types.ModuleType, fresh: types.ModuleType):
    """(attribute path, new function) for each top-level function and class method of ``fresh`` whose code differs
    from ``orig``'s (a changed method is patched on the original class)."""
    def key(f):
        c = f.__code__
        return c.co_code, c.co_consts, c.co_names

    def changed(new, old):
        return isinstance(new, types.FunctionType) and isinstance(old, types.FunctionType) and key(new) != key(old)

    for name, new in vars(fresh).items():
        old = getattr(orig, name, None)
        if changed(new, old):
            yield name, new
        elif isinstance(new, type) and isinstance(old, type):
            for attr, fn in vars(new).items():
                if changed(fn, vars(old).get(attr)):
                    yield f"{name}.{attr}", fn


def judge(var: Variant, ctx=None) -> dict:
    """Run ``var.claim`` with ``var`` applied (in this process) and restore everything; returns
    ``{"variant", "step", "claim", "verdict", "status", "summary", "seconds"}`` with status ``killed`` (REFUTED),
    ``survived`` (VERIFIED or INCONCLUSIVE), ``error`` (ERROR) or ``stale`` (the snippet is not in the source once)."""
    from rldp_verify.claims import Context, discover
    from rldp_verify.claims import core as claims_core
    from rldp_verify.claims.mutants import Mutant, apply, replace, revert
    from rldp_verify.claims.runner import run_claim

    t0 = time.perf_counter()
    out = {"variant": var.id, "step": var.step, "claim": var.claim, "description": var.description}
    claims = {c.id: c for c in discover("proofs")}
    if var.claim not in claims:
        return {**out, "verdict": None, "status": "stale", "summary": f"no claim {var.claim!r}", "seconds": 0.0}
    claim_module = claims[var.claim].module
    target = importlib.import_module(var.module)
    source = Path(target.__file__).read_text()
    if source.count(var.old) != 1:
        return {**out, "verdict": None, "status": "stale", "seconds": 0.0,
                "summary": f"the snippet occurs {source.count(var.old)} times in {var.module}, not once: {var.old!r}"}
    names = [var.module, claim_module]
    saved_modules = {n: sys.modules[n] for n in names}
    registry = claims_core._REGISTRY
    saved_claims = {k: c for k, c in registry.items() if c.module in names}
    for k in saved_claims:
        del registry[k]
    done = None
    try:
        fresh = _exec_module(var.module, source.replace(var.old, var.new), target)
        if claim_module != var.module:
            # a helper: its changed functions are rebound wherever they were imported (as the mutants are)
            sys.modules[var.module] = saved_modules[var.module]
            done = apply(Mutant(var.id, var.module, var.description, tuple(
                replace(f"{var.module}:{name}", new) for name, new in _changed_functions(target, fresh)), ()), {})
        result = run_claim(registry[var.claim] if var.claim in registry else claims[var.claim], ctx or Context())
        verdict = result.verdict.value
        summary = result.summary
    except Exception as exc:   # the variant does not even compile or import: a defect of the table
        verdict, summary = "ERROR", f"{type(exc).__name__}: {exc}"
    finally:
        if done is not None:
            revert(done)
        for k in [k for k, c in registry.items() if c.module in names]:
            del registry[k]
        registry.update(saved_claims)
        sys.modules.update(saved_modules)
    status = {"REFUTED": "killed", "ERROR": "error"}.get(verdict, "survived")
    return {**out, "verdict": verdict, "status": status, "summary": summary[:300],
            "seconds": round(time.perf_counter() - t0, 2)}


def steps_needing_variants() -> dict[str, tuple[str, ...]]:
    """``{"<paper prefix>:<step id>": claims}`` for every checked step whose claims are all statement-level claims."""
    import proofs.steps as st

    return {f"{s.paper[:3]}:{s.id}": s.claims for s in st.steps()
            if s.status == "checked" and not any(".steps." in c for c in s.claims)}


def run(only: Iterable[str] = ("*",)) -> dict:
    """Judge every variant whose step or id matches one of ``only``; the counts and the records."""
    pats = list(only)
    chosen = [x for x in VARIANTS if any(fnmatch.fnmatchcase(x.id, p) or fnmatch.fnmatchcase(x.step, p) for p in pats)]
    records = [judge(x) for x in chosen]
    need = steps_needing_variants()
    with_variant = {x.step for x in VARIANTS}
    killed_steps = {r["step"] for r in records if r["status"] == "killed"}
    return {
        "steps_checked_by_statement_claims": len(need),
        "refuted_as_printed": sorted(refuted_as_printed()),
        "steps_with_a_variant": len(with_variant & set(need)),
        "steps_without": sorted(set(need) - with_variant - set(refuted_as_printed())),
        "variants_run": len(records),
        "killed": sum(r["status"] == "killed" for r in records),
        "steps_killed": len(killed_steps),
        "survived": [r for r in records if r["status"] == "survived"],
        "errors": [r for r in records if r["status"] in ("error", "stale")],
        "records": records,
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m mutation.step_variants", description=__doc__.split("\n")[0])
    ap.add_argument("--only", action="append", help="variant id or step (glob); repeatable")
    ap.add_argument("--out", help="write the JSON record here")
    a = ap.parse_args(argv)
    res = run(a.only or ["*"])
    if a.out:
        Path(a.out).write_text(json.dumps(res, indent=1) + "\n")
    short = {k: v for k, v in res.items() if k != "records"}
    print(json.dumps(short, indent=1))
    undocumented = [r for r in res["survived"] if r["step"] not in SURVIVORS]
    return 0 if not undocumented and not res["errors"] else 1


# ---------------------------------------------------------------------------------------------------------------
# steps whose checking claim refutes the printed display (no killable variant)
# ---------------------------------------------------------------------------------------------------------------

def refuted_as_printed() -> dict[str, tuple[str, ...]]:
    """``{step: claims}`` for the steps checked only by statement-level claims that are all pinned REFUTED (the claim
    refutes the printed display, proofs/pinned_verdicts.json): no variant can be told apart by the kill rule."""
    pins = json.loads((Path(__file__).resolve().parents[1] / "proofs" / "pinned_verdicts.json").read_text())["claims"]
    return {step: claims for step, claims in steps_needing_variants().items()
            if all(pins[c]["verdict"] == "REFUTED" for c in claims)}

#: variants seen to survive, with why (a finding about the check; the slow test requires exactly these to survive).
#: Empty since the last four survivors' steps got direct step claims (proofs/kairouz/steps_sec9_direct.py):
#: 004:9.4.i15 (Claim 4's check never met a superset bound that decides max_A mu(P(A)): mu(P(T)) < mu(P(T^c)) on the
#: whole domain) and 004:9.5.i10, i19, i20 (they broke only the grid route of the 'exists eps*' claim
#: kairouz.thm14.rr-optimal-mi, which said INCONCLUSIVE). Their variants are now mutants of those claims' printed
#: steps in mutation/steps_catalogue.py (steps.kairouz.superset-bound-tc, 130-squared, 138-binary-x0, eps-star-half),
#: each REFUTED.
SURVIVORS: dict[str, str] = {}

# ---------------------------------------------------------------------------------------------------------------
# the table
# ---------------------------------------------------------------------------------------------------------------

L5, L6, L7 = "proofs.rldp.lemA5_extreme_coordinates", "proofs.rldp.lemA6_l1_radius", "proofs.rldp.lemA7_alpha2"
T5, T6, IR = "proofs.rldp.thm5_ir_private", "proofs.rldp.thm6_chain_rule", "rldp_verify.rldp.mechanisms.ir"
T1, S34, P1, P3 = "proofs.rldp.thm1_projection", "proofs.rldp._sec34", "proofs.rldp.prop1_lower_and_rad", "proofs.rldp.prop3_px_rldp"
GU, T2, SRT, L8 = ("rldp_verify.rldp.mechanisms.guarantees", "proofs.rldp.thm2_cone", "rldp_verify.rldp.srr_threshold",
                   "proofs.rldp.lemA8_cone")
T4, INFO = "proofs.rldp.thm4_srr_optimal", "rldp_verify.core.information"
F8, F6, FD = "proofs.falpha.thm8_pinsker", "proofs.falpha.thm6_reverse_pinsker", "rldp_verify.topics.fdiv"
PR, PVS = "rldp_verify.topics.pram", "pram.prop3-2.vertex-set"
K4, K22, K6 = "proofs.kairouz.thm4_staircase_lp", "proofs.kairouz.lem22_polytope", "proofs.kairouz.thm6_tv"
K8 = "proofs.kairouz.thm8_rr_kl"
K24, K14, K14E = ("proofs.kairouz.lem24_binary", "proofs.kairouz.thm14_rr_optimal_mi",
                 "kairouz.thm14.expansions-133-135")
KC4, KC4M = "kairouz.claim4.single-heavy-atom", "proofs.kairouz.claim4_single_heavy_atom"
F8J, F6C, F6I = ("falpha.appA.derivatives-and-jensen", "falpha.thm6.proof-egamma-support-and-chord",
                 "falpha.thm6.integral-closed-form")
A5C, A5X, A6R, A6A = ("rldp.lemma-a5.extreme-coordinates", "rldp.lemma-a6.l1-radius", "rldp.lemma-a6.l1-radius",
                      "rldp.lemma-a6.a47-a50")
K5C, K5M = "kairouz.thm5.binary-optimal-no-ties", "proofs.kairouz.lem24_binary"
K12C, K12M = "kairouz.thm12.binary-optimal-mi", "proofs.kairouz.thm12_mutual_information"
K14C = "kairouz.thm14.rr-optimal-mi"
L8C, T4C, T4M = "rldp.lemmaA8.extreme-ray-coefficients", "rldp.thm4.dual-certificate", "proofs.rldp.thm4_srr_optimal"
_K5T = "uni = universal_binary_threshold(P0, P1)\n            T = binary_set_hypothesis(P0, P1)"
_K12T = "T = binary_set_mi(P)\n        mu, f_mass = mu_mi(P), _f_u"
K21, K22, ITP = "proofs.kairouz.thm4_staircase_lp", "proofs.kairouz.lem22_polytope", "proofs.isit.thm3_joint_projection"
_K21MU = 'for name, mu in (("chi2", mu_chi2(P0, P1)), ("tv", mu_tv(P0, P1))):\n                m = {l: max('
_ISIN = "inner = sum(v * a for v, a in zip(v_syms, a_syms, strict=True)) - f_expr\n    at_b"
PF1 = "pram.fact1.linear-form"
FAB, FDS = "falpha.prop3.appendix-b-limit", "falpha.prop3.disjoint-supports"
FP3 = "proofs.falpha.prop3_no_contraction"
FMC = "falpha.prop3.maximal-correlation-route"
_PX = "px = [(a + b) / 2 for a, b in zip(_point(len(W), i), _point(len(W), j), strict=True)]"
K8T, TAIL = "kairouz.thm8.rr-optimal-kl-distinct-ratios", "rldp_verify.topics.extremal.tail"
_KLM = "        return a * (a / b).log()\n    return m"
_ALPHA = "alpha = [((1 + (k - 2) * s) * ms[i] - s * (tot - ms[i])) / den for i in range(k)]"
_TM = "tm, tp = ball.coordinate_interval(x, dps=30)"
_L1 = "formula = SimplexBall(tuple(center), alpha, B).l1_radius(dps=30, exhaustive=True)"

VARIANTS: list[Variant] = [
    # --- 000, App. A.2-A.3: Lemmas A5-A7 --------------------------------------------------------------------
    v("000:A.2.A28", A5C, L5, _TM, "tm, tp = center[x], ball.coordinate_interval(x, dps=30)[1]",
      "(A28) with sup for inf: xi-(rho) = 1, so min P_x = P^_x"),
    v("000:A.2.A29", A5C, L5, _TM, "tm, tp = ball.coordinate_interval(x, dps=30)[0], center[x]",
      "(A29) with inf for sup: xi+(rho) = 1, so max P_x = P^_x"),
    v("000:A.2.A41", A5C, L5, _TM, "tp, tm = ball.coordinate_interval(x, dps=30)",
      "(A41) with xi+ for xi-: min P_x = P^_x xi+(P^_x) (and the max with xi-)"),
    v("000:A.2.i27", A5C, L5, _TM, "tm, tp = [c * center[x] for c in ball.coordinate_interval(x, dps=30)]",
      "'Either way, we find' min P_x = P^_x^2 xi-(P^_x) (P^_x applied twice)"),
    v("000:A.2.A42", A6R, L6, _L1, _L1 + " / 2", "(A42) without the factor 2"),
    v("000:A.3.A55", A6R, L6, _L1, _L1 + " * 2", "(A55) with 4 max_X1 for 2 max_X1"),
    v("000:A.2.A43", A6A, L6, "(1 - rho) * (1 - psi) - 2", "(1 - rho) * (psi - 1) - 2",
      "(A43) with sum_X2 (P_x - P^_x) for sum_X2 (P^_x - P_x)"),
    v("000:A.2.A47", A6A, L6, "ok = sp.simplify(rho * (xi - 1) + (1 - rho)", "ok = sp.simplify(rho * (xi + 1) + (1 - rho)",
      "(A47) with sum_X1 (P_x + P^_x)"),
    v("000:A.2.A48", A6A, L6, "psi = (1 - rho * xi) / (1 - rho)", "psi = (1 - rho * xi) / (1 + rho)",
      "(A48) with psi = (1 - rho xi+)/(1 + rho)"),
    v("000:A.2.A49", A6A, L6, "(1 - rho) * (1 - psi) - 2", "(1 - rho) ** 2 * (1 - psi) - 2",
      "(A49) with (1 - rho)^2 (1 - psi)"),
    v("000:A.2.A50", A6A, L6, "- 2 * rho * (xi - 1)) == 0", "- rho * (xi - 1)) == 0", "(A50) = rho (xi+ - 1)"),
    v("000:A.3.A51", "rldp.lemma-a7.xi-formula", L7,
      "a7 = [(Bt + 2 * rho + sgn * ROOT)", "a7 = [(Bt + rho + sgn * ROOT)", "(A51) with B~ + rho for B~ + 2 rho"),
    v("000:A.3.i36", "rldp.lemma-a7.xi-formula", L7, "(1 - rho * xi) - Bt - 1) * xi", "(1 - rho * xi) - Bt + 1) * xi",
      "F(rho, xi) = 0 written with + 1 for - 1 (e^B = B~ - 1)"),
    v("000:A.3.i79", "rldp.lemma-a7.xi-formula", L7, "(E - 1) * (E - (2 * rho - 1) ** 2)",
      "(E - 1) * (E + (2 * rho - 1) ** 2)", "the roots of (31) with E + (2 rho - 1)^2 under the root"),
    v("000:A.3.i38", "rldp.lemma-a7.rho-opt", L7, "worst = max(worst, f(b, mpmath.mpf(k) / 50))",
      "worst = max(worst, -f(b, mpmath.mpf(k) / 50))", "'(A53) is concave': (A53)'' of the other sign (convex)"),
    v("000:A.3.i39", "rldp.lemma-a7.point1-condition", L7, "thr = (1 - 2 * to_mpf(pmin)) ** 2",
      "thr = (1 - 2 * to_mpf(pmin)) ** 2 / 4", "the condition B~ >= (1 - 2 P^_min)^2 / 4"),
    v("000:A.3.i40", "rldp.lemma-a7.point1-condition", L7, "vmin = g_alpha2(pmin, Btil)",
      "vmin = g_alpha2(max(c), Btil)", "the maximum of (A6) at X1 = {x_max}"),
    # --- 000, Sec. 7: Theorems 5 and 6 -------------------------------------------------------------------------
    v("000:7.T5.72", "rldp.thm5.ir-private", IR, "return 1 + 2 * (t - 1) / d", "return 1 + 4 * (t - 1) / d",
      "(72) with (e^delta2 - 1)/4 for (e^delta2 - 1)/2: e^delta2 = 1 + 4 (e^eps2 - 1)/d"),
    v("000:7.T5.73", "rldp.thm5.delta2-algebra", T5, "e_delta = 1 + 2 * (E - 1) / d", "e_delta = 1 + 2 * (E - 1) * d",
      "(73) with d(e^delta2 - 1)/2 read as (e^delta2 - 1)/(2 d)"),
    v("000:7.T5.74", "rldp.thm5.delta2-algebra", T5, "inverse = sp.simplify(1 + d * (e_delta - 1) / 2 - E)",
      "inverse = sp.simplify(1 + d * (e_delta - 1) - E)", "(74) = e^eps2 with 1 + d(e^delta2 - 1)"),
    v("000:7.T5.i6", "rldp.thm5.ir-private", IR, "ir_matrix(a1, a2, Fraction(r) / t, exp_delta2(t, d))",
      "ir_matrix(a1, a2, Fraction(r) / t, exp_delta2(t * t, d))", "Lemma 3 applied with 2 eps2 for eps2"),
    v("000:7.T5.76", "rldp.thm5.ir-private", IR, "ir_matrix(a1, a2, Fraction(r) / t, exp_delta2(t, d))",
      "ir_matrix(a1, a2, Fraction(r), exp_delta2(t, d))", "(76) <= e^{eps1 + eps2} with eps1 = eps (not eps - eps2)"),
    v("000:7.T6.78", "rldp.thm6.chain-rule", T6, "for s in range(a1) for u in range(a2)] for y1",
      "for u in range(a2) for s in range(a1)] for y1", "(78): IR(X) with the coordinates (s, u) read U-major"),
    v("000:7.T6.79", "rldp.thm6.chain-rule", T6, "i2_H = hy2_y1 - hy2_uy1", "i2_H = hy2_y1",
      "(79): I(R2(U); U, S | R1(S)) as H(R2(U) | R1(S)) (the conditional entropy given U dropped)"),
    v("000:7.T6.80", "rldp.thm6.chain-rule", T6, "i1 = mutual_information_value(R1, PS)",
      "i1 = mutual_information_value(R1, [Fraction(1, a1)] * a1)", "(80): I(R1(S); S) under the uniform prior on S"),
    v("000:7.T6.i9", "rldp.thm6.chain-rule", T6, "cond = [J[(u, y1)] / PY1[y1] for u in range(a2)]",
      "cond = [sum(to_mpf(P[s * a2 + u]) for s in range(a1)) for u in range(a2)]",
      "the conditional independences read as U independent of R1(S): P_{U | R1(S) = r} = P_U"),
    # --- 000, App. A.1: Theorem 1 -------------------------------------------------------------------------
    v("000:A.1.A21", "rldp.thm1.kl-chain-rule", T1, "abs(kl_divergence(flat(phat), flat(P)) - rhs)",
      "abs(kl_divergence(flat(P), flat(phat)) - rhs)", "(A21) with D_1(P||P^) on the left"),
    v("000:A.1.A22", "rldp.thm1.kl-chain-rule", T1, "+ (1 - to_mpf(phs)) * kl_divergence(rest_h, rest)",
      "+ (1 - to_mpf(ps)) * kl_divergence(rest_h, rest)", "(A22) with the weight 1 - P_s for 1 - P^_s"),
    v("000:A.1.A23", "rldp.thm1.kl-chain-rule", T1, "kl_divergence([phs, 1 - phs], [ps, 1 - ps])",
      "kl_divergence([ps, 1 - ps], [phs, 1 - phs])", "(A23) with D_1(V_{P_s}||V_{P^_s})"),
    v("000:A.1.A27", "rldp.thm1.lift-in-F", S34, "P.append(gamma * to_mpf(R[j]) if i == s",
      "P.append(gamma * (to_mpf(R[j]) + to_mpf(phat[s][j]) / to_mpf(sum(phat[s]))) / 2 if i == s",
      "(A27) with P_{u,s} = P^_s (R_u + P^_{u|s})/2 for P^_s R_u"),
    v("000:A.1.i13", "rldp.thm1.lift-in-F", S34, "gamma, scale = ps, mpmath.mpf(1)",
      "gamma, scale = ps * (1 + (1 - ps) / 2), 1 - ps / 2",
      "a lift whose 'not s' part and Bernoulli term do not vanish (P_s moved half-way to 1)"),
    v("000:A.1.i14", "rldp.thm1.lift-in-F", S34, "P.append(gamma * to_mpf(R[j]) if i == s",
      "P.append(gamma * to_mpf(R[-1 - j]) if i == s", "the lift projects to R reversed, not R"),
    v("000:A.1.i07", "rldp.thm1.projection-in-ball", T1,
      "Bs = ball.conditional_radius(s, dps=ctx.dps + 10)\n                    row = P[s * a2:(s + 1) * a2]",
      "Bs = ball.conditional_radius(s, dps=ctx.dps + 10) / 2\n                    row = P[s * a2:(s + 1) * a2]",
      "(A10) read with the radius B_s/2"),
    v("000:A.2.i34", "rldp.prop1.lower-and-rad", P1, "ball.lower_value(u, s, dps=26)",
      "ball.lower_value(u, s, dps=26) * sum(phat[s])", "Lemma A5 applied to the joint: L_{u|s} = P^_s P^_{u|s} xi-"),
    # --- 000, Sec. 6 and App. A.4-A.6: Proposition 3, Theorems 2-4, Lemma A8 --------------------------------
    v("000:6.P3.i1", "rldp.prop3.iff", P3, 'P[w["s\'"] * a2 + w["u\'"]] += Fraction(1, 2)',
      'P[w["s\'"] * a2:(w["s\'"] + 1) * a2] = [x + Fraction(1, 2 * a2) for x in P[w["s\'"] * a2:(w["s\'"] + 1) * a2]]',
      "the proof's P with a uniform P_{U|s'} instead of a point mass at u'"),
    v("000:6.P3.52", "rldp.prop3.iff", GU, "sum(row[s * a2 + u] * P[s][u] for u in range(a2)) / marg[s]",
      "sum(row[s * a2 + u] for u in range(a2)) / a2", "(52) without the weights P_{u|s} (an unweighted average over u)"),
    v("000:6.P3.53", "rldp.prop3.iff", GU, "sum(row[s * a2 + u] * P[s][u] for u in range(a2)) / marg[s]",
      "sum(row[s * a2 + u] * P[s][u] for u in range(a2))", "(53) with the joint P_{s,u} for P_{u|s}"),
    v("000:6.P3.54", "rldp.prop3.iff", GU, "u = max(range(a2), key=blocks[s].__getitem__)",
      "u = min(range(a2), key=blocks[s].__getitem__)", "(54)'s bound with min_u Q_{y|s,u} for max_u"),
    v("000:6.P3.55", "rldp.prop3.iff", GU, "v = min(range(a2), key=blocks[t].__getitem__)",
      "v = max(range(a2), key=blocks[t].__getitem__)", "(55)'s bound with max_u' Q_{y|s',u'} for min_u'"),
    v("000:6.P3.i3", "rldp.prop3.iff", P3, "sd = check_single_distribution(Q, P, lvl, a1, a2)\n                n_if += 1",
      "sd = check_single_distribution(Q, P, exact_level((1 + r) / 2), a1, a2)\n                n_if += 1",
      "'Hence, Q satisfies (eps, P_X)-RLDP' at a smaller level e^eps' = (1 + e^eps)/2"),
    v("000:A.6.i74", "rldp.prop3.iff", GU, "if s == t:\n                        continue", "pass",
      "the cone C with the pairs s = s' included (each Q_y in C iff RLDP)"),
    v("000:A.4.i51", "rldp.thm2.dual-form", T2, "- r * robust_extreme_lp(b, L[s2], False)",
      "- r * robust_extreme_lp(b, L[s2], True)", "(A82) with the maximum over D_s2 for the minimum"),
    v("000:A.6.A90", "rldp.lemmaA8.cone-spanned", SRT, "if s2 != s and t * min(v[s2 * a2:(s2 + 1) * a2]) < M:",
      "if t * min(v[s2 * a2:(s2 + 1) * a2]) < M:", "(A90) with the pairs s = s' included"),
    v("000:A.6.A91", "rldp.lemmaA8.cone-spanned", SRT, "for pat in itertools.product((1 / t, t), repeat=a2):",
      "for pat in itertools.product((1 / t, Fraction(1)), repeat=a2):", "(A91): V1's block entries in {e^-eps, 1}"),
    v("000:A.6.A92", "rldp.lemmaA8.cone-spanned", SRT, "if k >= 2:", "if k >= 3:", "(A92): e^eps in at least 3 blocks"),
    v("000:A.6.A93", "rldp.lemmaA8.cone-spanned", SRT, "            out.add(tuple(pat))", "            pass",
      "(A93): V = V1 (V2 left out)"),
    v("000:A.6.A94", "rldp.lemmaA8.cone-spanned", SRT, "A, b = cone_c_inequalities(a1, a2, exp_eps)",
      "A, b = cone_c_inequalities(a1, a2, exp_eps * exp_eps)", "(A94): the cone spanned compared with C at 2 eps"),
    v("000:A.6.i73", "rldp.lemmaA8.cone-spanned", SRT, "    t = _check_sizes(a1, a2, exp_eps)\n    if reading",
      "    t = _check_sizes(a1, a2, exp_eps) ** 2\n    if reading", "C = Span(V2 u V1) with V built at e^{2 eps}"),
    v("000:A.6.A110", "rldp.lemmaA8.reduction-steps", L8, "V3p = set(itertools.product((1 / t, Fraction(1)), repeat=a))",
      "V3p = set(itertools.product((1 / t, t), repeat=a))", "(A110) with V'_3 = {e^-eps, e^eps}^X"),
    v("000:A.6.A111", "rldp.lemmaA8.reduction-steps", L8, "V2p = set(itertools.product((Fraction(1), t), repeat=a))",
      "V2p = set(itertools.product((Fraction(1), t * t), repeat=a))", "(A111) with V'_2 = {1, e^{2 eps}}^X"),
    v("000:A.6.A112", "rldp.lemmaA8.cone-spanned", SRT, "for pat in itertools.product((Fraction(1), t), repeat=a):",
      "for pat in itertools.product((Fraction(1), t * t), repeat=a):", "(A112) with V2 in {1, e^{2 eps}}^X"),
    v("000:A.6.A95", "rldp.lemmaA8.extreme-ray-coefficients", L8, "r[i] <= t * t * r[j] and", "r[i] <= t * r[j] and",
      "(A95) with e^eps for e^{2 eps} within a block"),
    v("000:A.6.i59", "rldp.lemmaA8.extreme-ray-coefficients", L8, "(i // a2 == j // a2 or r[i] <= t * r[j])",
      "(i // a2 != j // a2 or r[i] <= t * r[j])", "the factors e^eps (across s) and e^{2 eps} (within s) swapped"),
    v("000:A.6.i60", "rldp.lemmaA8.extreme-ray-coefficients", L8, "allowed = {1 / t, Fraction(1), t}",
      "allowed = {Fraction(1), t}", "C spanned by {1, e^eps}^X n C (e^-eps left out of V')"),
    v("000:A.6.A96", "rldp.lemmaA8.extreme-ray-coefficients", L8, "allowed = {1 / t, Fraction(1), t}",
      "allowed = {1 / (t * t), Fraction(1), t * t}", "(A96) with V' = {e^{-2 eps}, 1, e^{2 eps}}^X n C"),
    v("000:A.6.i63", "rldp.lemmaA8.reduction-steps", L8,
      "for pat in itertools.product((1 / t, Fraction(1), t), repeat=a2):",
      "for pat in itertools.product((1 / t, Fraction(1), t * t), repeat=a2):", "V^s with e^{2 eps} entries ('V^s in C')"),
    v("000:A.6.i66", "rldp.lemmaA8.reduction-steps", L8, "for pat in itertools.product((1 / t, t), repeat=a2):",
      "for pat in itertools.product((1 / t, Fraction(1)), repeat=a2):", "V_s with block entries {e^-eps, 1}"),
    v("000:A.6.A102", "rldp.lemmaA8.reduction-steps", L8, "vp[s * a2 + u] = t", "vp[s * a2 + u] = t * t",
      "(A102)/(A103): v+ raises the 1 entries to e^{2 eps}"),
    v("000:A.6.A107", "rldp.lemmaA8.reduction-steps", L8, "comb = [p / (t + 1) + t * q / (t + 1)",
      "comb = [p / (t + 1) + q / (t + 1)", "(A107)-(A109): v = v+/(e^eps + 1) + v-/(e^eps + 1)"),
    v("000:A.6.i71", "rldp.lemmaA8.reduction-steps", L8, "vm[s * a2 + u] = 1 / t", "vm[s * a2 + u] = Fraction(1)",
      "'This proves (A107)' with v- = v (the 1 entries kept)"),
    v("000:A.6.i72", "rldp.lemmaA8.reduction-steps", L8, "            v[x] = t",
      "            v[x] = t\n            v[(x + 1) % a] = t", "a v in V2' with two e^eps entries treated as a single one"),
    v("000:A.6.A115", "rldp.thm4.dual-certificate", T4, "    Z = t + Fraction(a2 - 1) / t + a - a2\n    col_ok",
      "    Z = t + Fraction(a2 - 1) / t + a\n    col_ok", "(A115)'s A theta = 1_X with Z = e^eps + (a2-1)e^-eps + |X|"),
    v("000:A.6.i76", "rldp.thm4.dual-certificate", T4, "same = all(basis[y][x] / Z == srr[y][x]",
      "same = all(basis[y][x] * Z == srr[y][x]", "the optimal Q's columns theta_y v_y with theta_y = Z"),
    v("000:A.6.A116", "rldp.thm4.dual-certificate", T4, "mu = [mu_arb(v, p) for v in basis]",
      "mu = [-mu_arb(v, p) for v in basis]", "(A116) with A^T alpha >= -m (the dual of a minimisation)"),
    v("000:A.6.A113", "rldp.thm4.utility-as-mu-sum", INFO, "(arb_exact(Fraction(a)) / qa).log()",
      "arb_exact(Fraction(a)).log()", "(A113): mu(C) = sum_x P_x C_x log C_x (the normalisation lost)"),
    v("000:A.6.A114", "rldp.thm4.utility-as-mu-sum", T4, "mus = sum((mu_arb(Q[y], p) for y in range(b)), flint.arb(0))",
      "mus = sum((mu_arb(Q[y], p) for y in range(b - 1)), flint.arb(0))", "(A114)'s sum_y without the last output"),
    # --- 001 (Grosse et al.): App. A and the proof of Theorem 6 ----------------------------------------------
    v("001:A.(66)", F8J, F8, "eq66 = (a * t + p) *", "eq66 = (a * t - p) *", "(66) with (alpha t - p)"),
    v("001:A.(67)", F8J, F8, "eq67 = (a - 1) * a * t**2 *", "eq67 = (a - 1) * a * t *", "(67) with t for t^2"),
    v("001:A.i08", F8J, F8, 'checks["eq67_nonnegative"] = all(sp.N(eq67.subs(s), 50) >= 0 for s in subs_pts)',
      'checks["eq67_nonnegative"] = all(sp.N(eq67.subs(s), 50) <= 0 for s in subs_pts)',
      "'psi_alpha is concave in p' ((67) <= 0)"),
    v("001:A.i05", F8J, F8, "(p + t) ** (a - 1) + (1 - p) ** a / (1 - (p + t)) ** (a - 1) - 1",
      "(p + t) ** (a - 1) + (1 - p) ** a / (1 + (p + t)) ** (a - 1) - 1",
      "d_f_alpha(p||q) at q = p + t with 1 + q for 1 - q (the min over |p - q| = t mis-parametrised)"),
    v("001:A.jensen-1", F8J, F8, "psi = p**a / (p + t) ** (a - 1) + (1 - p) ** a / (1 - p - t) ** (a - 1) - 1",
      "psi = p**a / (p + t) ** (a - 1) + (1 - p) ** a / (1 - p - t) ** (a - 1)",
      "psi_alpha = E_P[(P/Q)^(alpha-1)] (the - 1 dropped)"),
    v("001:A.jensen-2", F8J, F8, ") ** (k - 1) - 1\n        ok_chain", ") ** k - 1\n        ok_chain",
      "Jensen's step with exponent alpha for alpha - 1"),
    v("001:A.jensen-3", F8J, F8, "- (1 + t**2 / (q * (1 - q)))) == 0", "- (1 + t / (q * (1 - q)))) == 0",
      "E_P[P/Q] = 1 + t/((p+t)(1-p-t)) (t for t^2)"),
    v("001:A.jensen-4", F8J, F8, ">= (1 + 4 * tt**2) ** (k - 1) - 1", ">= (1 + 8 * tt**2) ** (k - 1) - 1",
      "the last step with (1 + 8 t^2)^(alpha-1) - 1 (q(1-q) <= 1/8)"),
    v("001:A.i22", "falpha.thm8.pinsker", FD, "return 1 / (1 - t) ** (k - 1) - 1", "return 1 / (1 - t) ** k - 1",
      "the bounds put together with (1 - t)^(-alpha) - 1 for t >= 1/alpha"),
    v("001:V.C11.i16", "falpha.cor11.cross-channel", "proofs.falpha.cor11_amplification",
      "rhs = eta * to_mpf(R) * g_alpha_inverse(", "rhs = eta * eta * to_mpf(R) * g_alpha_inverse(",
      "Corollary 11 assembled with TV(P_Y||Q_Y) <= eta_TV^2 TV(P_X||Q_X)"),
    v("001:IV.T6.(25)", F6C, FD, "return s - max(1 - gamma, 0)", "return s - abs(1 - gamma)",
      "(25) with |1 - gamma| for (1/2)|1 - gamma| (in the positive-part form)"),
    v("001:IV.T6.(26)", F6C, FD, "s = sum(max(x - gamma * y, 0) for", "s = sum(max(gamma * y - x, 0) for",
      "(26) with the sign of P - gamma Q flipped"),
    v("001:IV.T6.(27)", F6C, FD, "return s - max(1 - gamma, 0)", "return s - max(gamma - 1, 0)",
      "(27): the two halves of |1 - gamma| with opposite signs"),
    v("001:IV.T6.i7", F6C, FD, "s = sum(max(x - gamma * y, 0) for", "s = sum(abs(x - gamma * y) for",
      "'if P - gamma Q has one sign' with sum |P - gamma Q| (the 1/2 dropped)"),
    v("001:IV.T6.(28)", F6C, FD, "return min(rs), max(rs)", "return 1 / max(rs), max(rs)",
      "(28) Gamma_min = min_x Q(x)/P(x) (the ratio inverted)"),
    v("001:IV.T6.(29)", F6C, FD, "return min(rs), max(rs)", "return min(rs), 1 / min(rs)",
      "(29) Gamma_max = max_x Q(x)/P(x) (the ratio inverted)"),
    v("001:IV.T6.i6", F6C, F6, "m, M = likelihood_ratio_extremes(p, q)\n        d = total_variation(p, q)\n        pts",
      "m, M = likelihood_ratio_extremes(p, q)[0], (1 + likelihood_ratio_extremes(p, q)[1]) / 2\n"
      "        d = total_variation(p, q)\n        pts",
      "E_gamma non-zero only between Gamma_min and (1 + Gamma_max)/2"),
    v("001:IV.T6.i8", F6C, F6, "if (g <= m or g >= M) and e != 0:", "if (g <= m or g >= (1 + M) / 2) and e != 0:",
      "the sign of P - gamma Q constant already for gamma >= (1 + Gamma_max)/2"),
    v("001:IV.T6.i9", F6C, F6, "if (g <= m or g >= M) and e != 0:", "if (g <= m or g >= 1) and e != 0:",
      "(30) with I = (Gamma_min, 1)"),
    v("001:IV.T6.i10", F6C, F6, "if (g <= m or g >= M) and e != 0:", "if (g <= (1 + m) / 2 or g >= M) and e != 0:",
      "(31) with E_gamma = 0 up to (1 + Gamma_min)/2"),
    v("001:IV.T6.(33)", F6C, F6, "return d * (g - m) / (1 - m)", "return d * (g - m) / (1 + m)",
      "(33)'s first piece with 1 + Gamma_min in the denominator"),
    v("001:IV.T6.(32)", F6C, F6, "return d * (M - g) / (M - 1)", "return d * (M - g) / M",
      "(32) E_gamma <= g with g's second piece over Gamma_max for Gamma_max - 1"),
    v("001:IV.T6.i12", F6C, F6, "d = total_variation(p, q)\n", "d = total_variation(p, q) / 2\n",
      "g maximal at gamma = 1 with E_1 = Delta/2"),
    v("001:IV.T6.(34)", F6I, F6, "total = a * (a - 1) * (left + right)", "total = a * (left + right)",
      "(34) with alpha for alpha(alpha - 1)"),
    v("001:IV.T6.i13", F6I, F6, "(g - m) / (1 - m) * g ** (a - 2)", "(g - m) / (1 - m) * g ** (a - 1)",
      "the f_alpha weight gamma^(alpha-1) for gamma^(alpha-2) (on (Gamma_min, 1))"),
    v("001:IV.T6.i14", F6I, F6, "R = (M**a - 1) / (M - 1) - (1 - m**a) / (1 - m)",
      "R = (M**a - 1) / (M - 1) + (1 - m**a) / (1 - m)", "(22)'s R_alpha with + for -"),
    # --- 003 (ISIT): Apps. B-C ----------------------------------------------------------------------------------
    v("003:B.(45)", "isit.lemma3.affine-conjugate", "proofs.isit.lem3_linear_conjugate",
      'residual = sp.simplify(facts["value_at_v_eq_b"] + c)', 'residual = sp.simplify(facts["value_at_v_eq_b"] - c)',
      "(45) with f_*(b_x, x) = +c_x"),
    v("003:C.(68)", "isit.lemma6.product-support", "proofs.isit.lem6_product_support",
      "for a in A) + max(sum(x * y for x, y in zip(v2, b, strict=True)) for b in B)",
      "for a in A) + min(sum(x * y for x, y in zip(v2, b, strict=True)) for b in B)",
      "(68) with delta*(w2|P_U) read as a minimum"),
    v("003:C.i54", "isit.lemma6.product-support", "proofs.isit.lem6_product_support",
      "for a in A) + max(sum(x * y for x, y in zip(v2, b, strict=True)) for b in B)",
      "for a in A) * max(sum(x * y for x, y in zip(v2, b, strict=True)) for b in B)",
      "'By Lemma 6': the support of a product as the product of the supports"),
    v("003:C.(49)", "isit.lemma5.sublevel-support", "proofs.isit.lem5_sublevel_support",
      "formula = -lam**2 / Tm", "formula = -lam**2 / (2 * Tm)", "(49) evaluated with c T/2 (min_c -2 sqrt(c) lam + 2 c T)"),
    v("003:C.(50)", "isit.lemma7.intersection-support", "proofs.isit.lem7_intersection_support",
      "[[-x for x in bb] + [F(0), F(-1)] for bb in VB]\n    b2 = [F(0)] * nA + [-dot(bb, v) for bb in VB]",
      "[[x for x in bb] + [F(0), F(-1)] for bb in VB]\n    b2 = [F(0)] * nA + [dot(bb, v) for bb in VB]",
      "(50) with the inf-convolution over t - w = v (w = t - v)"),
    v("003:C.i45", "isit.thm2.support-ball", "rldp_verify.topics.chisquare.ball",
      "return -2 * mpmath.sqrt(c) * S + max(w) + c * (1 + _radius(B))",
      "return -2 * mpmath.sqrt(c) * S + max(w) + c * _radius(B)",
      "(55) and (56) combined into (21) with c B for c (B + 1)"),
    # --- 002 (PRAM): App. 5 -----------------------------------------------------------------------------------------
    v("002:5.1.i06", "pram.prop3-1.f-convex", "proofs.pram.prop3_1_vertices",
      "rhs = th * pram.f_simplified(p, q) + (1 - th) * pram.f_simplified(p, q2)",
      "rhs = (1 - th) * pram.f_simplified(p, q) + th * pram.f_simplified(p, q2)",
      "the convexity inequality with the weights theta, 1 - theta swapped"),
    v("002:5.2.i15", "pram.fact1.linear-form", "proofs.pram.fact1_linear_constraints",
      "want = 3 * S * (S - 1) if S >= 3 else 2 * S * (S - 1)", "want = 3 * S * (S - 1) + S if S >= 3 else 2 * S * (S - 1)",
      "3S(S-1) + S linear constraints (the box counted in)"),
    v("002:5.3.V-1", PVS, PR, "out = [(V_ALPHA,) * S, (V_MALPHA,) * S]", "out = [(V_MAX,) * S, (V_MALPHA,) * S]",
      "item 1 of V: all q_k = v_max"),
    v("002:5.3.V-2", PVS, PR, "out = [(V_ALPHA,) * S, (V_MALPHA,) * S]", "out = [(V_ALPHA,) * S, (V_MIN,) * S]",
      "item 2 of V: all q_k = v_min"),
    v("002:5.3.V-3", PVS, PR, "if 2 <= A.count(V_ALPHA) <= S - 2:", "if 1 <= A.count(V_ALPHA) <= S - 1:",
      "item 3 of V with 1 .. S-1 entries v_alpha"),
    v("002:5.3.V-4", PVS, PR, "out.append(tuple(V_MIN if k == i else V_ALPHA for k in range(S)))",
      "out.append(tuple(V_MIN if k == i else V_MALPHA for k in range(S)))", "item 4 of V: q_1 = v_min, others v_-alpha"),
    v("002:5.3.V-5", PVS, PR, "out.append(tuple(V_MAX if k == i else V_MALPHA for k in range(S)))",
      "out.append(tuple(V_MAX if k == i else V_ALPHA for k in range(S)))", "item 5 of V: q_1 = v_max, others v_alpha"),
    v("002:5.3.i34", PVS, PR, "return t * t / (1 + (S - 1) * t)", "return t * t / (1 + (S - 2) * t)",
      "V in T_alpha with v_max = e^{2 alpha}/(1 + (S - 2) e^alpha)"),
    v("002:5.3.i21", "pram.prop3-2.condition", "proofs.pram.prop3_2_vertex_structure",
      "want17 = (S - 1) * (t - 1) * (t**2 - (S - 2) * t + 1)", "want17 = (S - 1) * (t - 1) * (t**2 - (S - 2) * t - 1)",
      "(17) at u_alpha with t^2 - (S-2)t - 1"),
    v("002:5.3.i22", "pram.prop3-2.condition", "proofs.pram.prop3_2_vertex_structure",
      "ok16 = sp.simplify(e16 + (S - 1) * (t - 1) / (S - 2)) == 0", "ok16 = sp.simplify(e16 - (S - 1) * (t - 1) / (S - 2)) == 0",
      "(16) at u_alpha = +(S-1)(t-1)/(S-2) (not redundant)"),
    v("002:5.3.i23", "pram.sec3-3.alpha-range", "proofs.pram.prop3_2_vertex_structure",
      "flint.arb(S * (S - 4)).sqrt()) / 2", "flint.arb(S * (S - 6)).sqrt()) / 2",
      "the bound (S - 2 + sqrt(S(S-6)))/2 at S = 10"),
    v("002:5.3.i28", "pram.sec5-3.vmin-vmax-bounds", PR, "return 1 / (t * (t + S - 1))", "return 1 / (t * (t + S))",
      "q_k >= v_min with v_min = e^-alpha/(e^alpha + S)"),
    v("002:5.3.i43", "pram.lemma5-1.at-most-one", PR, "return t / (t + S - 1)", "return t / (t + S)",
      "the settings of Lemma 5.1 with v_alpha = e^alpha/(e^alpha + S)"),
    v("002:5.3.setting-1", "pram.lemma5-1.at-most-one", PR, "return 1 / (1 + (S - 1) * t)", "return 1 / (1 + (S - 2) * t)",
      "setting 1's lower end v_-alpha = 1/(1 + (S-2) e^alpha)"),
    v("002:5.3.setting-2", "pram.lemma5-1.at-most-one", "proofs.pram.sec5_3_proof_steps",
      "if mx > pram.v_alpha(S, t) or", "if mx > pram.v_malpha(S, t) or",
      "setting 2 with the other coordinates at most v_-alpha"),
    v("002:5.3.setting-3", "pram.lemma5-1.at-most-one", "proofs.pram.sec5_3_proof_steps",
      "or mn < pram.v_malpha(S, t):", "or mn < pram.v_alpha(S, t):", "setting 3 with the other coordinates at least v_alpha"),
    # --- 004 (Kairouz et al.): Secs. 7-9 ---------------------------------------------------------------------------
    v("004:7.(40)", "kairouz.thm21.alphabet-reduction", K4, "small = max(m[l] for l in m if l <= k)",
      "small = max(m[l] for l in m if l <= k - 1)", "(40) with the union over l <= k - 1"),
    v("004:7.i02", "kairouz.thm21.alphabet-reduction", K4, "small = max(m[l] for l in m if l <= k)",
      "small = max(m[l] for l in m if l <= 1)", "'only output alphabets of size l <= 1 need be considered'"),
    v("004:7.1.i01", "kairouz.thm21.alphabet-reduction", K4, "m = {l: max(utility(V, mu) for V in verts[l]) for l in verts}",
      "m = {l: min(utility(V, mu) for V in verts[l]) for l in verts}", "a convex U's extremum at a corner point read as its minimum"),
    v("004:7.i15", "kairouz.thm4.staircase-lp", K4, "and all(vmax[l] == lp_val for l in ls if l >= k)",
      "and all(vmax[l] == lp_val for l in ls if l >= 1)", "the LP (11) value equals the maximum over D_eps,l for every l (also l < k)"),
    v("004:7.i16", "kairouz.thm4.staircase-lp", K4, "                sol = solve_staircase_lp(k, t, mu)\n                lp_val",
      "                sol = solve_staircase_lp(k, t * t, mu)\n                lp_val", "Theorem 4's LP (11) at 2 eps"),
    v("004:7.i21", "kairouz.thm2.optimal-staircase", K4, "ok = nonzero_columns(Q) <= k and is_staircase(Q, t)",
      "ok = nonzero_columns(Q) <= k - 1 and is_staircase(Q, t)", "Theorem 2's staircase mechanism with at most k - 1 columns"),
    v("004:7.i03", "kairouz.lemma22.factorisation", K22, "        th = min(col)\n", "        th = max(col)\n",
      "Q_j = theta_j S_j with theta_j = max_i Q_ij"),
    v("004:7.2.i08", "kairouz.lemma22.factorisation", K22, "(col[i] / th if th > 0 else None)", "(col[i] * th if th > 0 else None)",
      "Q = S Theta with S_ij = Q_ij theta_j"),
    v("004:8.2.i04", "kairouz.lemma22.factorisation", K22, "1 <= S[i][j] <= t for i", "1 <= S[i][j] <= t * t for i",
      "S in [1, e^{2 eps}]^{k x l}"),
    v("004:7.2.i01", "kairouz.claim1.zero-column", K22, "        if not is_ldp(Q, t):\n            continue\n        n += 1\n        if len(certified) < CAP",
      "        if is_ldp(Q, t):\n            continue\n        n += 1\n        if len(certified) < CAP",
      "Claim 1 read for the mechanisms that violate the DP constraint"),
    v("004:7.3.(45)", "kairouz.claim2.pairwise-suffices", K22, "<= t * sum(Q[b][y] for y in S)", "<= t * max(Q[b][y] for y in S)",
      "(45) with max_{y in B} Q(y|x') for sum_{y in B} Q(y|x')"),
    v("004:7.3.i02", "kairouz.claim2.pairwise-suffices", K22,
      "for y in S)\n                      for r in range(1, l + 1) for S in combinations",
      "for y in S)\n                      for r in range(2, l + 1) for S in combinations",
      "Claim 2 without the singletons B = {y}"),
    v("004:7.1.i02", "kairouz.lemma23.corner-points", K22, "if nonzero_columns(Q) > k or", "if nonzero_columns(Q) > k - 1 or",
      "a corner point has at most k - 1 non-zero columns"),
    v("004:7.3.i25", "kairouz.lemma23.corner-points", K22, "if nonzero_columns(Q) > k or", "if nonzero_columns(Q) >= k or",
      "Lemma 23 read with fewer than k non-zero columns"),
    v("004:7.3.i24", "kairouz.lemma23.corner-points", K22, "any(nz and r > k - 1 for nz, r in ranks)",
      "any(nz and r > k - 2 for nz, r in ranks)", "a non-zero column with at most k - 2 tight independent constraints"),
    v("004:9.4.i08", KC4, KC4M, "pp = {A: mass_of(P, A) * (1 - mass_of(P, A)) for A in sets}",
      "pp = {A: mass_of(P, A) * (1 + mass_of(P, A)) for A in sets}", "P(A)P(A^c) read as P(A)(1 + P(A))"),
    v("004:9.4.i09", KC4, KC4M, "            T = frozenset({0})\n", "            T = frozenset({0, 1})\n",
      "T in argmax with T = {x*, x_2}"),
    v("004:9.4.i10", KC4, KC4M, "arg = {A for A in sets if pp[A] == mx}", "arg = {A for A in sets if pp[A] == min(pp.values())}",
      "{T, T^c} = argmin_A P(A)P(A^c)"),
    v("004:9.4.i11", KC4, KC4M, "if to_mpf(P[0]) < 1 - z_star(e_):", "if to_mpf(P[0]) < z_star(e_):",
      "Claim 4's first part under P(x*) >= z*(eps)"),
    v("004:9.4.i13", KC4, KC4M, "m_T = max(mu_z(to_mpf(mass_of(P, T)), e_), mu_z(to_mpf(mass_of(P, Tc)), e_))",
      "m_T = mu_z(to_mpf(mass_of(P, T)), e_)", "the subsets A of T^c bounded by mu(P(T)) (the mu(P(T^c)) term dropped)"),
    v("004:9.4.i16", KC4, KC4M, "m_all = max(mu_z(to_mpf(mass_of(P, A)), e_) for A in sets)",
      "m_all = min(mu_z(to_mpf(mass_of(P, A)), e_) for A in sets)", "max(mu(P(T)), mu(P(T^c))) = min_A mu(P(A))"),
    v("004:9.4.i17", KC4, KC4M, "            T = frozenset({0})\n", "            T = frozenset({k - 1})\n",
      "T of (30) is the lightest atom"),
    v("004:8.3.i02", "kairouz.thm6.binary-optimal-tv", K6, "sol = solve_staircase_lp(k, t, mu)  # exact",
      "sol = solve_staircase_lp(k, t * t, mu)  # exact", "the TV maximisation as LP (68) at 2 eps"),
    v("004:8.3.i21", "kairouz.thm6.binary-optimal-tv", K6, "bin_val = utility(binary_mechanism(P0, P1, t), mu)",
      "bin_val = utility(binary_mechanism(P0, P1, t * t), mu)", "the binary mechanism at 2 eps attains (71)"),
    v("004:8.3.i22", "kairouz.thm6.binary-optimal-tv", K6, "formula = (t - 1) / (t + 1) * _tv(P0, P1)",
      "formula = (t - 1) / t * _tv(P0, P1)", "Theorem 6's value (e^eps - 1)/e^eps TV(P0, P1)"),
    v("004:8.2.(61)", "kairouz.lemma24.eq61-closed-form", K24, "eq61_ok = sp.simplify(root - D / (-C)) == 0",
      "eq61_ok = sp.simplify(root - D / C) == 0", "(61) with the denominator P0(T)P1(T_j) - P1(T)P0(T_j) of the other sign"),
    v("004:9.5.(129)", K14E, K14, "alpha = [((t + k - 2) * m1[i] -", "alpha = [((t + k - 1) * m1[i] -",
      "(129) with (e^eps + k - 1) mu(S_{j_i})"),
    v("004:9.5.(131)", K14E, K14, "direct = sum(m1) / (t + k - 1)", "direct = sum(m1) / (t + k)",
      "(131) divided by e^eps + k"),
    v("004:9.5.(133)", K14E, K14, "lead_ok = sp.simplify(lead + z * sp.log(z)) == 0",
      "lead_ok = sp.simplify(lead - z * sp.log(z)) == 0", "(133)'s leading term +(P(T_j) log P(T_j)) e^eps"),
    v("004:9.5.(134)", K14E, K14, "g = sum((t if i in A else 1) * alpha[i]", "g = sum((1 if i in A else t) * alpha[i]",
      "(134) with e^eps on T_j^c instead of T_j"),
    v("004:9.5.(135)", K14E, K14, "c = zA * mpmath.log(zA) - sum(", "c = -zA * mpmath.log(zA) - sum(",
      "(135)'s coefficient with -P(T_j) log P(T_j)"),
    v("004:9.2.(114)", "kairouz.lemma26.mi-lp-bound", "proofs.kairouz.lem26_mi_lp_bound",
      "bound = mx * arb_exact(Fraction(k) / (tt + k - 1))", "bound = mx * arb_exact(Fraction(k - 1) / (tt + k - 1))",
      "(114) with (k - 1)/(e^eps + k - 1)"),
    v("004:9.2.(116)", "kairouz.lemma27.max-mu", "proofs.kairouz.lem27_max_mu",
      "rhs = mu_z(to_mpf(mass_of(P, T)), e_) + mu_z(to_mpf(1 - mass_of(P, T)), e_)",
      "rhs = mu_z(to_mpf(mass_of(P, T)), e_)", "(116) without the term mu(P(T^c), eps)"),
    v("004:8.4.(82)", "kairouz.thm8.dual-82", K8, "alpha = [((t + k - 2) * m[i] -", "alpha = [((t + k - 1) * m[i] -",
      "(82) with (e^eps + k - 1) mu(S_{j_i})"),
    v("004:8.4.(84)", "kairouz.thm8.dual-82", K8, "for a, b in zip(p0, p1, strict=True)) / (tm + k - 1)",
      "for a, b in zip(p0, p1, strict=True)) / (tm + k)", "(84) divided by e^eps + k"),
    v("004:8.4.(87)", "kairouz.thm8.expansion-87", K8, "claimed = sum(_R(P0[i]) * sp.log(_R(P0[i]) / _R(P1[i])) for i in Tj)",
      "claimed = sum(_R(P1[i]) * sp.log(_R(P0[i]) / _R(P1[i])) for i in Tj)", "(87)'s e^eps coefficient weighted by P1"),
    v("004:8.5.(93)", "kairouz.lemma25.duchi-bound", "proofs.kairouz.thm7_kl_small_eps",
      "bound = arb_exact(4 * (t - 1) ** 2 * _tv(P0, P1) ** 2)", "bound = arb_exact(4 * (t - 1) ** 3 * _tv(P0, P1) ** 2)",
      "(93) with (e^eps - 1)^3"),
    v("004:8.5.i02", "kairouz.lemma25.duchi-bound", "proofs.kairouz.thm7_kl_small_eps",
      "bound = arb_exact(4 * (t - 1) ** 2 * _tv(P0, P1) ** 2)", "bound = arb_exact(4 * (t - 1) ** 2 * _tv(P0, P1) ** 3)",
      "Lemma 25 with ||P0 - P1||_TV^3"),
    v("004:8.5.i06", "kairouz.cor11.tv-contraction", K6, "bound = (t - 1) / (t + 1) * _tv(P0, P1)",
      "bound = (t - 1) / t * _tv(P0, P1)", "||M0 - M1||_TV = (e^eps - 1)/e^eps ||P0 - P1||_TV"),
    v("004:10.i03", "kairouz.prop17.data-processing", "proofs.kairouz.sec5_approximate_dp",
      "a, b = utility(QW, mu), utility(Q, mu)", "a, b = utility(Q, mu), utility(QW, mu)",
      "Proposition 17 reversed: U(Q) <= U(QW)"),
    v("001:III.P3.i3", "falpha.prop3.maximal-correlation-route", "proofs.falpha.prop3_no_contraction",
      "if not eta_tv(W) < 1:", "if not eta_tv(W) < Fraction(1, 2):",
      "rows pairwise intersecting give a contraction coefficient below 1/2 (for 'below 1')"),
    v("004:9.2.d02", "kairouz.thm13.binary-mi-approximation", "proofs.kairouz.thm13_binary_mi_approximation",
      "sol = solve_staircase_lp(k, tt, mu)", "sol = solve_staircase_lp(k, tt * tt, mu)", "OPT as the LP at 2 eps"),
    # --- issue 30 item 2, second round: steps that had no variant ------------------------------------------
    v("004:8.1.i06", K5C, K5M, "for tt in (1 + uni.a_star / 2, 1 + uni.a_star):",
      "for tt in (1 + uni.a_star / 2, 1 + 1000 * uni.a_star):",
      "the slopes of every DP mechanism between the binary mechanism's without eps <= eps* (e^eps = 1 + 1000 a*)"),
    v("004:8.1.i07", K5C, K5M, _K5T, _K5T + "\n            T = frozenset({0}) if T != frozenset({0}) else frozenset({1})",
      "R(M0, M1) inside R(M~0, M~1) for the binary mechanism on a set other than {x : P0(x) >= P1(x)}"),
    v("004:8.1.i11", K5C, K5M, '("tv", mu_tv(P0, P1))', '("tv", (lambda m: lambda c: -m(c))(mu_tv(P0, P1)))',
      "data processing D_f(M~0, M~1) >= D_f(M0, M1) for f = -|t - 1|/2 (not convex)"),
    v("004:9.1.i01", K12C, K12M, _K12T, _K12T.replace("mu_mi(P), _f_u", "(lambda m: lambda c: -m(c))(mu_mi(P)), "
                                                      "(lambda z, u: -_f_u(z, u))"),
      "the MI maximisation as LP (96) with -mu (a minimisation; the grid and the eps-series both with -mu)"),
    v("004:9.1.i10", K12C, K12M, _K12T,
      _K12T.replace("T = binary_set_mi(P)", "T = frozenset({min(range(k), key=lambda x: P[x])})"),
      "alpha* of the binary mechanism on T = {argmin P} (not the maximiser of P(A)P(A^c)) feasible for small eps"),
    v("004:9.5.i01", K14C, K14, "mu, tail = mu_mi(P), mi_tail(P)",
      "mu, tail = (lambda m: lambda c: -m(c))(mu_mi(P)), "
      "(lambda mt: lambda A: (lambda g: lambda lo, hi: -g(lo, hi))(mt(A)))(mi_tail(P))",
      "the MI maximisation as LP (127) with -mu (a minimisation; the grid and the tail's m(s) both with -mu)"),
    v("000:A.6.i61", L8C, L8, "(i // a2 == j // a2 or r[i] <= t * r[j])", "(i // a2 != j // a2 or r[i] <= t * r[j])",
      "e^eps and e^-eps in different blocks (entries of one block within e^eps, of different blocks within e^2eps)"),
    v("000:A.6.A100", L8C, L8, "allowed = {1 / t, Fraction(1), t}", "allowed = {Fraction(1), t}",
      "(A100) V' = V2' u V3' (the blocks V^s with e^-eps dropped: coefficients in {1, e^eps})"),
    v("000:A.6.i65", L8C, L8, "allowed = {1 / t, Fraction(1), t}", "allowed = {1 / t, t}",
      "V' read without the entries 1 (coefficients in {e^-eps, e^eps})"),
    v("000:A.6.i77", T4C, T4M, "mu = [mu_arb(v, p) for v in basis]", "mu = [-mu_arb(v, p) for v in basis]",
      "the dual (A116) of (A115) with A^T alpha >= -m (the objective's sign lost)"),
    v("000:A.6.i78", T4C, T4M, "Z = t + Fraction(a2 - 1) / t + a - a2\n            theta",
      "Z = t + Fraction(a2 - 1) * t + a - a2\n            theta",
      "theta* = 1/Z with Z = e^eps + (|U| - 1) e^eps + |X| - |U| (e^eps for e^-eps)"),
    v("000:A.2.i33", A6R, "rldp_verify.rldp.uncertainty",
      "return t_interval(rho, self.alpha, self.radius, dps=dps)[1] - to_mpf(rho)",
      "return sum(t_interval(rho, self.alpha, self.radius, dps=dps)) / 2 - to_mpf(rho)",
      "the maximum over xi at the midpoint (xi-(rho) + xi+(rho))/2 instead of xi+(rho)"),
    v("000:7.T5.75", "rldp.thm5.ir-private", IR, "return [[R1[y1][s] * R2[y2][u] for s in range(a1)",
      "return [[R1[y1][s] * R2[y2][(u + s) % a2] for s in range(a1)",
      "(75) for an R2 applied to U shifted by S (Y2 depends on S given U): the ratio does not factor"),
    v("000:7.T5.i8", "rldp.thm5.ir-private", IR, "ir_matrix(a1, a2, Fraction(r) / t, exp_delta2(t, d))",
      "ir_matrix(a1, a2, Fraction(r) * 2 / (t + 1), exp_delta2(t, d))",
      "IR (eps1 + eps2, F)-RLDP with e^eps1 = 2 e^eps / (1 + e^eps2) (the budgets not added)"),
    v("004:7.1.(44)", "kairouz.thm21.alphabet-reduction", K21, "small = max(m[l] for l in m if l <= k)",
      "small = max(m[l] for l in m if l <= k - 1)", "(44) with the union of D_{eps,i} over i <= k - 1"),
    v("004:7.1.i04", "kairouz.thm21.alphabet-reduction", K21, _K21MU,
      _K21MU.replace('("tv", mu_tv(P0, P1))', '("tv", (lambda m_: lambda c: m_(c) + 1)(mu_tv(P0, P1)))'),
      "U(Q1) = U(Q2) for a utility that counts every column (TV + 1 per column): Assumption 1 fails"),
    v("004:7.1.i03", "kairouz.lemma23.corner-points", "rldp_verify.topics.extremal.polytope",
      "return sum(1 for y in range(len(Q[0])) if any(Q[x][y] != 0 for x in range(len(Q))))",
      "return sum(1 for y in range(len(Q[0])) for x in range(len(Q)) if Q[x][y] != 0)",
      "at most k non-zero entries (for columns) after deleting the all-zero columns"),
    v("004:7.3.i16", "kairouz.claim1.zero-column", K22, "if not is_ldp(Q, t):\n            continue",
      "if False:\n            continue", "Q_j zero or entrywise positive for any mechanism (the eps-LDP constraint unused)"),
    v("003:A.i13", "isit.thm3.joint-projection", ITP, "C = joint_projection_bound(a1, a2, Bq)",
      "C = joint_projection_bound(a1, a2, 2 * Bq)", "F-bar (with the right side of (28) at 2B) inside F"),
    v("003:A.i20", "isit.thm3.joint-projection", ITP, "C = joint_projection_bound(a1, a2, Bq)",
      "C = joint_projection_bound(a1, a2, Bq / 2)", "F inside F-bar (with the right side of (28) at B/2)"),
    v("003:B.(46)", "isit.lemma3.affine-conjugate", "proofs.isit._common", _ISIN, _ISIN.replace("- f_expr", "+ f_expr"),
      "(46) with inf_a v^T a + f(a, x)"),
    v("003:B.i25", "isit.lemma3.affine-conjugate", "proofs.isit._common", "direction = {a: -t * (v - bb)",
      "direction = {a: t * (v - bb)", "the inner product made arbitrarily negative along a = +t (v - b_x)"),
    v("003:B.i21", "isit.lemma1.utility-conjugate", "proofs.isit.lem1_utility_conjugate",
      "E = sum(P[s, u] * Q[s, u, y] * d[u, y]", "E = sum(P[s, u] ** 2 * Q[s, u, y] * d[u, y]",
      "'E_D is linear in the uncertain variable' for an E_D quadratic in P_SU"),
    v("003:C.i64", "isit.lemma8.conjugate", "rldp_verify.topics.chisquare.ball",
      "    if max(v) > 0:\n        return mpmath.inf", "    if max(v) > 0:\n        return mpmath.mpf(0)",
      "h*(v) bounded (= 0) when some v_i > 0"),
    v("003:C.i61", "isit.thm4.support-projection", "rldp_verify.topics.chisquare.ball",
      "return (-K_LEMMA8() * mpmath.cbrt(c) ** 2", "return (-2 * K_LEMMA8() * mpmath.cbrt(c) ** 2",
      "(29) assembled from Lemma 8 and (67)-(71) with the conjugate counted twice (2 K c^(2/3) sum lambda_i^(2/3))"),
    v("004:8.1.d08", K5C, K5M, _K5T, _K5T + "\n            T = frozenset({0, 1})",
      "R(M0, M1) inside R(M~0, M~1) for the binary mechanism on T = {x_0, x_1}"),
    v("004:8.1.d12", K5C, K5M, '("chi2", mu_chi2(P0, P1))', '("chi2", (lambda m: lambda c: -m(c))(mu_chi2(P0, P1)))',
      "D_f(M~0, M~1) >= D_f(M0, M1) for f = -(t - 1)^2 (not convex)"),
    v("004:8.1.i13", K5C, K5M, '(("kl", mu_kl(P0, P1))', '(("kl", (lambda m: lambda c: -m(c))(mu_kl(P0, P1)))',
      "the binary mechanism maximises -D_kl too (Theorem 5 for f = -t log t, concave)"),
    v("004:9.1.i23", K12C, K12M, _K12T,
      _K12T.replace("T = binary_set_mi(P)", "T = frozenset({max(range(k), key=lambda x: P[x])})"),
      "(100) attained by the binary mechanism on {argmax P} (a set that need not maximise P(A)P(A^c)); issue 24: "
      "'RR attains (100)' broke only the grid route and was INCONCLUSIVE under the sound check"),
    v("004:9.1.i24", K12C, K12M, _K12T, _K12T.replace("binary_set_mi(P)", "binary_set_mi(P[::-1])"),
      "Theorem 12 with T the maximiser of P(A)P(A^c) for P reversed (the utility for P)"),
    v("001:A.i14", "falpha.appA.derivatives-and-jensen", F8,
      "mid = (1 + tt**2 / ((pp + tt) * (1 - pp - tt))) ** (k - 1) - 1",
      "mid = (1 + tt**2 / ((pp + tt) * (1 - pp - tt))) ** k - 1", "Jensen applied to x -> x^alpha for x^(alpha - 1)"),
    v("001:IV.T6.(31)", F6C, F6, "if (g <= m or g >= M) and e != 0:", "if (g <= m or g >= 1) and e != 0:",
      "(31) with E_gamma = 0 for gamma >= 1 (I_{>=0} = (Gamma_min, 1))"),
    v("001:IV.T6.i11", F6C, F6, "if e > _chord(g, d, m, M):", "if e < _chord(g, d, m, M):",
      "concavity for convexity: E_gamma above the chord (32)-(33)"),
    v("002:5.3.setting-4", "pram.lemma5-1.at-most-one", "proofs.pram.sec5_3_proof_steps",
      "if mx > pram.v_alpha(S, t) or mn < pram.v_malpha(S, t):",
      "if mx > pram.v_malpha(S, t) or mn < pram.v_alpha(S, t):",
      "setting 4 with the thresholds swapped (v_-a < q_1, q_2 < v_a)"),
    v("002:5.3.i53", PVS, PR, "if 2 <= A.count(V_ALPHA) <= S - 2:", "if 3 <= A.count(V_ALPHA) <= S - 2:",
      "the points with two coordinates v_alpha taken to be in conv of the others (left out of V)"),
    # PRAM App. 5.2: pram.fact1.linear-form now checks the printed rows (12)-(17) ((15) mirrored) on the DP polytope
    v("002:5.2.(12)", PF1, PR, "12: (s1, t, t),", "12: (S, t, t),", "(12) with S x for (S - 1) x"),
    v("002:5.2.(13)", PF1, PR, "13: (t, s1, t),", "13: (t, S, t),", "(13) with S y for (S - 1) y"),
    v("002:5.2.(14)", PF1, PR, "14: (-1, -s1 * t, -1),", "14: (-1, -s1, -1),", "(14) without the factor e^alpha"),
    v("002:5.2.(15)", PF1, PR, '15: (-s1 * t, 1 if eq15 == "printed" else -1, -1),',
      '15: (-s1, 1 if eq15 == "printed" else -1, -1),', "(15) (mirrored from (14)) without the factor e^alpha"),
    v("002:5.2.(16)", PF1, PR, "16: (-1, t, t - 1),", "16: (-1, t * t, t - 1),", "(16) with e^(2 alpha) y for e^alpha y"),
    v("002:5.2.(17)", PF1, PR, "17: (t, -1, t - 1),", "17: (t * t, -1, t - 1),",
      "(17) with e^(2 alpha) x for e^alpha x"),
    # f_alpha App. B: falpha.prop3.appendix-b-limit now checks the chain (76)-(79) exactly at gamma = 0, and
    # falpha.prop3.disjoint-supports the DPI side exactly at integer orders
    v("001:B.(74)", FAB, FP3, "P = [(1 - g) if x == i else g / (N - 1) for x in range(N)]",
      "P = [(1 - g) / 2 if x in (i, j) else g / (N - 1) for x in range(N)]",
      "(74) with (1 - gamma)/2 (delta_i + delta_j) (copied from (75)): P_X^0 = Q_X^0"),
    v("001:B.(75)", FAB, FP3, "Q = [(1 - g) / 2 if x in (i, j) else g / (N - 2) for x in range(N)]",
      "Q = [(1 - g) / 2 if x in (i, 2) else g / (N - 2) for x in range(N)]",
      "(75) with the mass on i and a row k whose support meets S_i (not the disjoint j)"),
    v("001:B.(76)", FAB, FP3, "P0, Q0 = _appb_inputs(Fraction(0), i, j, N)",
      "P0, Q0 = _appb_inputs(Fraction(1, 2), i, j, N)", "(76) evaluated at gamma = 1/2 instead of the limit gamma -> 0"),
    v("001:B.(77)", FAB, FP3, "eq77 = sum((W[i][y] * q) ** (1 - a) * W[i][y] ** a for y in Si)",
      "eq77 = sum((W[i][y] * q) ** a * W[i][y] ** (1 - a) for y in Si)", "(77) with the exponents alpha, 1 - alpha swapped"),
    v("001:B.(78)", FAB, FP3, "eq78 = q ** (1 - a) * sum(W[i][y] for y in Si)",
      "eq78 = q ** (1 - a) * sum(W[i][y] ** a for y in Si)", "(78) with sum_{S_i} P_{Y|X=i}(y)^alpha"),
    v("001:B.(79)", FAB, FP3, "den = q ** (1 - a)", "den = q ** (-a)",
      "(79) with the denominator log Q_X^0(i)^(-alpha)"),
    v("001:B.i36", FAB, FP3, "eq78 = q ** (1 - a) * sum(W[i][y] for y in Si)",
      "eq78 = q ** (1 - a) * sum(W[x][Si[0]] for x in range(N))",
      "row-stochasticity read as column-stochasticity (a column of P_{Y|X} summed)"),
    v("001:B.(72)", FAB, FP3, "s_in = renyi_power_sum(P0, Q0, a)", "s_in = renyi_power_sum(P0, Q0, a + 1)",
      "the ratio of (71) with its denominator at order alpha + 1"),
    v("001:B.i26", FAB, FP3, "i, j, N = 0, 1, 3", "i, j, N = 0, 2, 3",
      "the construction on a pair of rows whose supports intersect (rows 0 and 2)"),
    v("001:B.i28", FDS, FP3, "s_out = renyi_power_sum(push(W, P), push(W, Q), a)",
      "s_out = renyi_power_sum(push(W, P), push(W[::-1], Q), a)",
      "data processing with P_X and Q_X sent through different channels (rows of P_{Y|X} reversed for Q_X)"),
    v("001:B.i37", FDS, FP3, "if s_out > s_in:", "if s_out < s_in:",
      "the DPI read as D_alpha(P_Y||Q_Y) >= D_alpha(P_X||Q_X)"),
    v("001:III.P3.i5", FDS, FP3,
      "Q = [(a + b) / 2 for a, b in zip(_point(n, i), _point(n, j), strict=True)]\n    return",
      "Q = [Fraction(1, n)] * n\n    return", "eta_alpha = 1 attained at Q_X uniform (not (delta_i + delta_j)/2)"),
    # the maximal-correlation route: rho_m = 1 at the proof's P_X is now decided exactly (double eigenvalue 1)
    v("001:III.P3.(14)", FMC, FP3, "sum((sp.Rational(W[a][y]) * sp.Rational(W[b][y]) / sp.Rational(py[y])",
      "sum((sp.Rational(W[a][y]) * sp.Rational(W[b][y]) / sp.Rational(py[y]) ** 2",
      "(14)'s rho_m with P_Y(y)^2 in the normalisation (diag(P_Y)^-1 for diag(P_Y)^-1/2)"),
    v("001:III.P3.i2", FMC, FP3, _PX, "px = [Fraction(1, len(W))] * len(W)",
      "[2, Thm 33.6(c)]'s sup over P_X read at the uniform P_X"),
    v("001:III.P3.i4", FMC, FP3, _PX, "px = _point(len(W), i)", "eta_chi2 = 1 read at the point mass P_X = delta_i"),
    v("001:III.P3.(15)", FMC, FP3, _PX,
      "px = [(a + 2 * b) / 3 for a, b in zip(_point(len(W), i), _point(len(W), (j + 1) % len(W) if (j + 1) % len(W) "
      "!= i else (j + 2) % len(W)), strict=True)]",
      "(15)'s eta_chi2 = 1 at an input on row i and a row other than its disjoint partner j"),
    v("000:A.5.i56", "rldp.thm3.lp-optimum", "proofs.rldp.thm3_lp",
      "mech, sol = polyopt_from_bounds(ball.phat, L, eps, dps=ctx.dps)",
      "mech, sol = polyopt_from_bounds(ball.phat, L, eps, dps=ctx.dps, include_same_s=False)",
      "the optimum's rows theta_v v taken over V without the vertices with e^eps and e^-eps in one block s"),
    # Kairouz Theorem 8: kairouz.thm8.rr-optimal-kl-distinct-ratios now REFUTES when a reduced cost of RR's basis is
    # certainly negative on a whole tail [0, s0] of s = e^-eps (it could only say INCONCLUSIVE)
    v("004:8.4.i02", K8T, TAIL, _KLM, _KLM.replace("a * (a / b)", "-a * (a / b)"),
      "LP (80) with -D_kl (a minimisation) as the column functional"),
    v("004:8.4.i11", K8T, TAIL, _KLM, _KLM.replace("a * (a / b)", "b * (a / b)"),
      "alpha* feasible for eps >= eps* with the e^eps coefficient P1(T_j) log(P0(T_j)/P1(T_j)) (weight P1 for P0)"),
    v("004:8.4.i20", K8T, TAIL, _ALPHA, _ALPHA.replace("/ den", "/ den / 2"),
      "(82)'s alpha* halved, so RR attains only half of (84)"),
    v("004:8.4.i21", K8T, TAIL, "h = sum(inA[1:], inA[0]) - m_pattern[A](lo, hi)",
      "h = sum(inA[1:], inA[0]) - 2 * m_pattern[A](lo, hi)",
      "Theorem 8's reduced costs with 2 mu(S_j) (the pattern's column counted twice)"),
    v("004:7.i19", "kairouz.thm4.vertex-counts-exhaustive", "rldp_verify.topics.extremal.polytope",
      "return sum(1 for y in range(len(Q[0])) if any(Q[x][y] != 0 for x in range(len(Q))))",
      "return sum(1 for y in range(len(Q[0])) for x in range(len(Q)) if Q[x][y] != 0)",
      "a corner point of D_eps,l with at most k non-zero entries of Q (for k non-zero columns); slow claim, ~6 s"),
]


# ---------------------------------------------------------------------------------------------------------------
# the variants as semantic mutants (mutation/catalogue.py runs them with the other mutants, issue 30)
# ---------------------------------------------------------------------------------------------------------------


def _code_key(code: types.CodeType):
    """What a code object computes (its line numbers left out, nested code objects compared the same way)."""
    return (code.co_code, code.co_names, code.co_varnames,
            tuple(_code_key(c) if isinstance(c, types.CodeType) else c for c in code.co_consts))


def _function_codes(code: types.CodeType, out: dict) -> dict:
    """{qualname: code} of the module's functions and class methods (not nested functions, lambdas, class bodies)."""
    import inspect

    for c in code.co_consts:
        if isinstance(c, types.CodeType) and "<" not in c.co_qualname:
            if c.co_flags & inspect.CO_OPTIMIZED:
                out[c.co_qualname] = c
            else:                              # a class body: its methods
                _function_codes(c, out)
    return out


_ORIGINAL_CODES: dict[tuple[str, str], dict] = {}


def _original_codes(source: str, path: str) -> dict:
    """:func:`_function_codes` of an unmutated module source, compiled once per process (many variants share one)."""
    key = (path, source)
    if key not in _ORIGINAL_CODES:
        _ORIGINAL_CODES[key] = _function_codes(compile(source, path, "exec"), {})
    return _ORIGINAL_CODES[key]


class VariantPatch:
    """The patch of :func:`as_mutant` (read like :class:`rldp_verify.claims.mutants.Patch`: ``target``, ``make``):
    it replaces the ``__code__`` of the one function whose source contains the variant's snippet by the code compiled
    from the module's source with the snippet replaced. The function object stays the same, so the claim registered
    with it (a frozen :class:`~rldp_verify.claims.core.Claim` holding its check function) and every module that
    imported it by name run the variant, with the module's own globals; ``revert`` puts the original code back. The
    target is found (by compiling the source twice) the first time it is asked for, so loading the catalogue stays
    cheap; a snippet that does not occur exactly once, or changes no single function, is a ValueError (the child
    interpreter fails before its first claim: the mutant is recorded as an error, like a stale variant)."""

    def __init__(self, var: Variant):
        self.var = var
        self._found: tuple[str, types.CodeType] | None = None

    def _find(self) -> tuple[str, types.CodeType]:
        if self._found is None:
            import importlib.util

            spec = importlib.util.find_spec(self.var.module)
            if spec is None or spec.origin is None:
                raise ValueError(f"step variant {self.var.id}: no module {self.var.module!r}")
            source = Path(spec.origin).read_text()
            if source.count(self.var.old) != 1:
                raise ValueError(f"step variant {self.var.id}: the snippet occurs {source.count(self.var.old)} times "
                                 f"in {self.var.module}, not once: {self.var.old!r}")
            before = _original_codes(source, spec.origin)
            after = _function_codes(compile(source.replace(self.var.old, self.var.new), spec.origin, "exec"), {})
            changed = [q for q, c in after.items() if q not in before or _code_key(before[q]) != _code_key(c)]
            if len(changed) != 1 or changed[0] not in before:
                raise ValueError(f"step variant {self.var.id}: the snippet changes {changed or 'no function'} of "
                                 f"{self.var.module}, not one existing function")
            # the function object that runs this code: the module's attribute, or the function it wraps
            # (functools.wraps: ``__wrapped__``, e.g. a claim's check below a decorator)
            # (the function defined by this source is recognised by its file and qualified name, not by its code:
            # under pytest the installed package's modules are assertion-rewritten, so their code differs from the
            # source's while being the same function)
            obj, path = importlib.import_module(self.var.module), changed[0]
            for name in path.split("."):
                obj = getattr(obj, name)
            while not (isinstance(obj, types.FunctionType) and obj.__code__.co_qualname == changed[0]
                       and Path(obj.__code__.co_filename).resolve() == Path(spec.origin).resolve()):
                if not hasattr(obj, "__wrapped__"):
                    raise ValueError(f"step variant {self.var.id}: {self.var.module}:{changed[0]} does not run the "
                                     "code of its source")
                obj, path = obj.__wrapped__, path + ".__wrapped__"
            self._found = (path, after[changed[0]])
        return self._found

    @property
    def target(self) -> str:
        return f"{self.var.module}:{self._find()[0]}.__code__"

    def make(self, orig: types.CodeType) -> types.CodeType:
        new = self._find()[1]
        if new.co_freevars != orig.co_freevars:
            raise ValueError(f"step variant {self.var.id}: the variant changes the closure of {self._find()[0]}")
        return new


def as_mutant(var: Variant):
    """``var`` as a semantic mutant (id ``variant.<step>``) that ``var.claim`` must kill (REFUTED), run by
    ``python -m rldp_verify.claims.mutants run --catalogue mutation.catalogue`` in a fresh interpreter like every
    mutant; slow claims (7.i19's) are run too (``include_slow``)."""
    from rldp_verify.claims.mutants import Mutant

    return Mutant(f"variant.{var.step}", var.module, " ".join(f"step {var.step}: {var.description}".split()),
                  (VariantPatch(var),), (var.claim,), None, 600.0, True)  # type: ignore[arg-type]


def variant_mutants() -> list:
    """Every variant of :data:`VARIANTS` as a mutant (appended to ``mutation/catalogue.py``'s ``MUTANTS``)."""
    return [as_mutant(x) for x in VARIANTS]


if __name__ == "__main__":
    raise SystemExit(main())
