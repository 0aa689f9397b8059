"""The table of reference quantities and their default grids.

Default grids span orders of magnitude: probabilities from 1e-12 to 1 - 1e-6, Rényi orders alpha from 0.1
to 100, radii from 1e-10 to 10, eps from 1e-6 to 20. Each default grid is sized so that it is produced in
under a minute on a 2-core machine (``benchmarks/bench_reference.py`` measures it).
"""

from __future__ import annotations

import itertools

from rldp_verify.core.errors import InputError
from rldp_verify.reference import quantities as q
from rldp_verify.reference.inputs import Input, parse_value

PROBS = ("1e-12", "1e-9", "1e-6", "1e-3", "0.05", "0.3", "0.5", "0.9", "0.999999")
RHOS = ("1e-12", "1e-6", "1e-3", "0.1", "0.5", "0.9", "0.999999")
ALPHAS = ("0.1", "0.5", "1", "2", "5", "100")
RADII = ("1e-10", "1e-6", "1e-3", "0.1", "1", "10")
EPS = ("1e-6", "1e-3", "0.1", "1", "5", "20")
TABLES = ("0.07,0.10;0.26,0.57", "0.25,0.25;0.25,0.25", "1e-9,0.3;0.2,0.499999999", "0.1,0.2,0.1;0.3,0.05,0.25")

_alpha = Input("alpha", "alpha", "Rényi order alpha > 0")
_B = Input("B", "radius", "radius B >= 0 of the Rényi ball around P-hat")
_p_s = Input("p_s", "prob", "marginal P-hat_s")
_rho = Input("rho", "prob_pos", "rho = P-hat_{u|s} (or P-hat_x) in (0, 1]")
_eps = Input("eps", "nonneg", "eps >= 0")
_phat = Input("phat", "table", "|S| x |U| table P-hat 'a,b;c,d' summing to 1")
_mech = Input("mechanism", "choice", "grr or srr", ("grr", "srr"))


def _grid(**axes) -> list[dict]:
    names = list(axes)
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*axes.values())]


QUANTITIES: dict[str, q.Quantity] = {}


def _add(quantity: q.Quantity) -> None:
    QUANTITIES[quantity.name] = quantity


_add(q.Quantity(
    "B", "B = log(1 + alpha(alpha-1) F^-1_{chi2,a-1}(confidence)/(2n))/(alpha-1) (B = q/(2n) at alpha = 1); "
         "RLDP paper eq. (9)/(11) at alpha = 2, the Cressie-Read calibration otherwise (rldp_verify.rldp.uncertainty."
         "confidence_radius); inf when the log's argument is <= 0",
    (_alpha, Input("confidence", "conf", "confidence level 1 - beta"), Input("n", "int1", "sample size"),
     Input("a", "int2", "alphabet size |X| = |S||U|")),
    q.eval_B,
    lambda: _grid(alpha=ALPHAS, confidence=("0.5", "0.9", "0.95", "0.99", "0.999999"), n=("10", "1000", "1000000"),
                  a=("2", "4", "16")),
))
_add(q.Quantity(
    "B_s", "B_s = alpha/(alpha-1) log((e^{(alpha-1)B/alpha} - (1 - P_s))/P_s) (B/P_s at alpha = 1; inf when the "
           "argument is <= 0 or P_s = 0), RLDP paper Theorem 1, eq. (23)",
    (_p_s, _alpha, _B), q.eval_B_s,
    lambda: _grid(p_s=PROBS, alpha=ALPHAS, B=RADII),
))
for _side, _name in ((-1, "xi_minus"), (1, "xi_plus")):
    _add(q.Quantity(
        _name, f"xi{'-' if _side < 0 else '+'}(rho) = t{'-' if _side < 0 else '+'}/rho, t-+ the ends of "
               "{t in [0,1] : D_alpha(Bern(rho)||Bern(t)) <= B_s}; RLDP paper eqs. (26)-(28) (domain of xi+ "
               "read as [1, 1/rho])",
        (_rho, _alpha, Input("B_s", "radius", "radius B_s >= 0 (or inf)")), q.eval_xi(_side),
        lambda: _grid(rho=RHOS, alpha=ALPHAS, B_s=RADII),
    ))
_add(q.Quantity(
    "L", "L_{u|s}(F) = P-hat_{u|s} xi-(P-hat_{u|s}) with the radius B_s of Theorem 1; RLDP paper Proposition 1, "
         "eq. (29)",
    (_rho, _p_s, _alpha, _B), q.eval_L,
    lambda: _grid(rho=("1e-12", "1e-3", "0.3", "0.9"), p_s=("1e-6", "0.2", "0.9"), alpha=("0.1", "1", "2", "100"),
                  B=("1e-10", "1e-3", "1", "10")),
))
_add(q.Quantity(
    "rad_s", "rad_s(F) = 2 max_{U1 subset U} (t+(P-hat_{U1|s}) - P-hat_{U1|s}) with the radius B_s of Theorem 1; "
             "RLDP paper Proposition 1, eq. (30) (Lemma A6)",
    (Input("cond", "dist", "conditional P-hat_{U|s} 'a,b,c' summing to 1"), _p_s, _alpha, _B), q.eval_rad,
    lambda: _grid(cond=("0.5,0.5", "1e-12,0.999999999999", "0.2,0.3,0.5", "0.1,0.2,0.3,0.4"),
                  p_s=("0.01", "0.5", "1"), alpha=("0.5", "2"), B=("1e-10", "1e-3", "1")),
))
_add(q.Quantity(
    "grr_matrix", "GRR[y|x] = e^eps/(e^eps + a - 1) if y = x else 1/(e^eps + a - 1); RLDP paper eq. (56)",
    (_eps, Input("a", "int1", "alphabet size")), q.eval_matrix,
    lambda: _grid(eps=EPS, a=("2", "5")), "matrix",
))
_add(q.Quantity(
    "srr_matrix", "SRR[(s',u')|(s,u)] = e^eps/C if equal, e^-eps/C if s' = s and u' != u, 1/C if s' != s, "
                  "C = e^eps + e^-eps(a2-1) + a - a2; RLDP paper Definition 4",
    (_eps, Input("a1", "int1", "|S|"), Input("a2", "int1", "|U|")), q.eval_matrix,
    lambda: _grid(eps=EPS, a1=("2", "3"), a2=("2", "3")), "matrix",
))
_add(q.Quantity(
    "ir_matrix", "IR = GRR^{eps1} on S (x) GRR^{delta2} on U (Kronecker product, S-major); RLDP paper "
                 "Definition 5, Theorem 5",
    (Input("eps1", "nonneg", "eps1 >= 0"), Input("delta2", "nonneg", "delta2 >= 0"), Input("a1", "int1", "|S|"),
     Input("a2", "int1", "|U|")), q.eval_matrix,
    lambda: _grid(eps1=("1e-3", "1", "5"), delta2=("1e-3", "1", "5"), a1=("2", "3"), a2=("2",)), "matrix",
))
for _m in ("grr", "srr"):
    _add(q.Quantity(
        f"{_m}_utility", f"I_P(X;Y) in nats of {_m.upper()}^eps under P = P-hat: sum_y mu(Q_y), "
                         "mu(v) = sum_x v_x P_x log(v_x / sum_x' v_x' P_x'); RLDP paper eqs. (44)-(45)",
        (_eps, _phat), (lambda m: (lambda pt, dps: q.eval_utility(dict(pt, mechanism=m), dps)))(_m),
        lambda: _grid(eps=EPS, phat=TABLES),
    ))
_add(q.Quantity(
    "ir_utility", "I_P(X;Y) in nats of GRR^{eps1} (x) GRR^{delta2} under P = P-hat; RLDP paper eqs. (44)-(45), "
                  "Theorem 6",
    (Input("eps1", "nonneg", "eps1 >= 0"), Input("delta2", "nonneg", "delta2 >= 0"), _phat), q.eval_utility,
    lambda: _grid(eps1=("1e-3", "1", "5"), delta2=("1e-3", "1", "5"), phat=TABLES[:3]),
))
_add(q.Quantity(
    "polyopt_utility", "max I_P-hat(X;Y) over Q with every row in Gamma_eps (LP (46)), as rldp-verify builds "
                       "PolyOpt: e^eps = exp_eps exactly, L' = the certified L_{u|s}(F) floored to 10^-12 "
                       "(Theorem 3); the optimum of that LP, bracketed by its dual",
    (Input("exp_eps", "exp_eps", "e^eps (a rational >= 1)"), _phat, _alpha, _B), q.eval_polyopt_utility,
    lambda: _grid(exp_eps=("2", "3"), phat=TABLES[:2], alpha=("2",), B=("0.01", "0.0752")),
))
_add(q.Quantity(
    "polyopt_matrix", "An optimal Q of LP (46) (see polyopt_utility). LP optima need not be unique: compare "
                      "matrices only where the optimum is known to be unique; polyopt_utility is the safe check",
    (Input("exp_eps", "exp_eps", "e^eps (a rational >= 1)"), _phat, _alpha, _B), q.eval_polyopt_matrix,
    lambda: _grid(exp_eps=("2",), phat=TABLES[:2], alpha=("2",), B=("0.0752",)), "matrix",
))
_add(q.Quantity(
    "realized_eps", "eps* = max_{y, s != s'} log(P(y|s)/P(y|s')), P(y|s) = sum_u Q[y|s,u] P_{u|s}, for "
                    "Q = GRR^eps or SRR^eps; RLDP paper Sec. 8.3, eq. (62) (F = {P})",
    (_mech, _eps, Input("p", "table", "the distribution P 'a,b;c,d'")), q.eval_realized_eps,
    lambda: _grid(mechanism=("grr", "srr"), eps=("1e-3", "0.1", "1", "5"), p=TABLES),
))
_add(q.Quantity(
    "audit_ratio", "rho(Q, F) = sup_{P in F, y, s != s'} P(y|s)/P(y|s') for Q = GRR or SRR with e^eps = exp_eps "
                   "and F the Rényi ball (alpha, B) around P-hat; RLDP paper Definition 1 (the certified audit)",
    (_mech, Input("exp_eps", "exp_eps", "e^eps (a rational >= 1)"), _phat, _alpha, _B), q.eval_audit_ratio,
    lambda: _grid(mechanism=("grr", "srr"), exp_eps=("2", "3"), phat=TABLES[:2], alpha=("1", "2", "5"),
                  B=("0.01", "0.0752")),
))
_P01 = (("0.5,0.3,0.2", "0.1,0.4,0.5"), ("0.6,0.4", "0.3,0.7"), ("0.4,0.3,0.2,0.1", "0.1,0.2,0.3,0.4"),
        ("0.25,0.25,0.25,0.25", "0.97,0.01,0.01,0.01"), ("0.999999,0.000001", "0.000001,0.999999"))
_add(q.Quantity(
    "kairouz_f_threshold", "eps* = log(1 + a*) below which the binary mechanism maximises every f-divergence "
                           "between the outputs of P0 and P1; Kairouz, Oh & Viswanath, Lemma 24, eq. (61)",
    (Input("p0", "dist", "P0"), Input("p1", "dist", "P1")), q.eval_kairouz_f,
    lambda: [{"p0": a, "p1": b} for a, b in _P01],
))
_add(q.Quantity(
    "kairouz_kl_rr_threshold", "eps* above which randomized response maximises D_kl(M0||M1) for every larger eps; "
                               "Kairouz, Oh & Viswanath, Theorem 8 (needs pairwise distinct likelihood ratios "
                               "P0(x)/P1(x); certified bracket, bisection to 1e-12)",
    (Input("p0", "dist", "P0"), Input("p1", "dist", "P1")), q.eval_kairouz_kl_rr,
    lambda: [{"p0": a, "p1": b} for a, b in (_P01[0], _P01[2], ("0.7,0.2,0.1", "0.2,0.3,0.5"))],
))


def quantity(name: str) -> q.Quantity:
    """The registered :class:`~rldp_verify.reference.quantities.Quantity` named ``name`` (InputError listing the
    names otherwise)."""
    try:
        return QUANTITIES[name]
    except KeyError:
        raise InputError(f"unknown quantity {name!r}; choose from {', '.join(QUANTITIES)}") from None


def parse_point(qty: q.Quantity, raw: dict, index: int) -> dict:
    """Validate one grid point (a mapping of input names to text or numbers)."""
    if not isinstance(raw, dict):
        raise InputError(f"grid point {index} is not a mapping of inputs: {raw!r}")
    names = {i.name for i in qty.inputs}
    extra = set(raw) - names
    if extra:
        raise InputError(f"grid point {index}: unknown input {sorted(extra)[0]!r} for {qty.name} "
                         f"(inputs: {', '.join(i.name for i in qty.inputs)})")
    out = {}
    for spec in qty.inputs:
        if spec.name not in raw or raw[spec.name] is None or raw[spec.name] == "":
            raise InputError(f"grid point {index}: missing input {spec.name!r} for {qty.name}")
        out[spec.name] = parse_value(spec, raw[spec.name], f"grid point {index}: {spec.name}")
    return out


def default_grid(name: str) -> list[dict]:
    """The default grid of ``name`` as exact points."""
    qty = quantity(name)
    return [parse_point(qty, p, i) for i, p in enumerate(qty.default_grid())]
