"""Optimality thresholds eps* of extremal mechanisms as one summary dict (what ``rldp-verify threshold`` prints).

Numerics of [kairouz-2016] (Kairouz, Oh & Viswanath); the brackets come from
:mod:`rldp_verify.topics.extremal.thresholds` and :mod:`rldp_verify.topics.extremal.tail`.
"""

from __future__ import annotations

import math

from rldp_verify.core.errors import InputError

__all__ = ["optimality_thresholds"]


def _parse_vector(text: str, name: str):
    from rldp_verify.topics.extremal.utilities import distribution

    if text is None:
        raise InputError(f"{name} is required")
    parts = [p for p in str(text).replace(" ", "").split(",") if p != ""]
    return distribution(parts, name)


def _fmt(x):
    if x is None:
        return None
    if isinstance(x, float) and math.isinf(x):
        return None
    return float(f"{x:.12g}")


def optimality_thresholds(utility, mechanism=None, p0=None, p1=None, p=None, eps_min=0.001, eps_max=30.0,
                          tol=1e-6) -> dict:
    """Optimality thresholds eps* of randomized response / the binary mechanism, with certified brackets.

    [kairouz-2016] (Kairouz, Oh & Viswanath): ``utility="kl"`` with ``p0``, ``p1`` (Theorem 8; with
    ``mechanism="binary"`` Theorem 5 for KL), ``utility="mi"`` with ``p`` (Theorems 12 and 14), ``utility="f"``
    (Lemma 24, eq. (61): the closed-form eps* below which the binary mechanism maximises every f-divergence).
    Vectors are comma-separated exact numbers. Bracket ends are certified points of opposite status; the
    status between evaluated grid points is not certified (stated in ``"method"``). Bad input raises
    :class:`InputError` naming the option (``--p0`` ...) as the command line spells it.
    """
    from rldp_verify.topics.extremal.utilities import binary_set_hypothesis, binary_set_mi, mu_kl, mu_mi

    util, mech = _check_options(utility, mechanism, eps_min, eps_max, tol)
    uni_json = None
    if util == "mi":
        P = _mi_input(p, p0, p1)
        k, mu, T = len(P), mu_mi(P), binary_set_mi(P)
        src = "Theorem 14" if mech == "rr" else "Theorem 12"
        tail = ("mi", P)
        inputs = {"p": [_fs(x) for x in P]}
    else:
        P0, P1 = _pair_input(util, p, p0, p1)
        k = len(P0)
        inputs = {"p0": [_fs(x) for x in P0], "p1": [_fs(x) for x in P1]}
        uni, uni_json = _universal(P0, P1)
        if util == "f":
            return _f_summary(k, inputs, uni, uni_json)
        mu, T = mu_kl(P0, P1), binary_set_hypothesis(P0, P1)
        src = "Theorem 8" if mech == "rr" else "Theorem 5 (KL)"
        tail = ("kl", (P0, P1))
    if k > 10:
        raise InputError(f"alphabet size {k} > 10 (the LP has 2^k variables)")
    if mech == "binary" and (len(T) in (0, k)):
        raise InputError("the binary mechanism needs a proper non-empty set T")
    out = {"utility": util, "mechanism": mech, "k": k, **inputs,
           **_bracket_summary(mech, mu, k, T, tail, eps_min, eps_max, tol), "source": src,
           "binary_set_T": sorted(T)}
    if util == "kl":
        out["universal_binary_threshold"] = uni_json
    return out


def _fs(x) -> str:
    from rldp_verify.core.numbers import fraction_str

    return fraction_str(x)


def _check_options(utility, mechanism, eps_min, eps_max, tol) -> tuple[str, str]:
    """(utility, mechanism) after the checks of the options that do not depend on the vectors."""
    if utility is None:
        raise InputError("--utility is required (kl, mi or f)")
    if not (0 < eps_min < eps_max <= 60):
        raise InputError(f"need 0 < --eps-min < --eps-max <= 60, got {eps_min}, {eps_max}")
    if not (0 < tol < 1):
        raise InputError(f"--tol must lie in (0, 1), got {tol}")
    mech = mechanism or ("binary" if utility == "f" else "rr")
    if utility == "f" and mech != "binary":
        raise InputError("--utility f only has a binary-mechanism threshold (Lemma 24)")
    return utility, mech


def _mi_input(p, p0, p1):
    if p0 is not None or p1 is not None:
        raise InputError("--utility mi takes --p, not --p0/--p1")
    return _parse_vector(p, "--p")


def _pair_input(util, p, p0, p1):
    if p is not None:
        raise InputError(f"--utility {util} takes --p0 and --p1, not --p")
    P0 = _parse_vector(p0, "--p0")
    P1 = _parse_vector(p1, "--p1")
    if len(P0) != len(P1):
        raise InputError(f"--p0 has {len(P0)} entries but --p1 has {len(P1)}")
    if P0 == P1:
        raise InputError("--p0 and --p1 are equal: every mechanism has divergence 0")
    return P0, P1


def _universal(P0, P1):
    """Lemma 24's universal threshold and its JSON form."""
    from rldp_verify.topics.extremal.thresholds import universal_binary_threshold

    uni = universal_binary_threshold(P0, P1)
    uni_json = {
        "t_star": None if uni.t_star is None else _fs(uni.t_star),
        "eps_star": None if uni.t_star is None else _fmt(math.log(uni.t_star)),
        "binding": list(uni.binding),
    }
    return uni, uni_json


def _f_summary(k: int, inputs: dict, uni, uni_json: dict) -> dict:
    """The summary of ``utility="f"``: Lemma 24's closed form."""
    from rldp_verify.topics.extremal.thresholds import log_bounds

    if uni.t_star is None:
        thr, br = None, [None, None]
        note = "no pattern constraint binds: binary dominates for every eps"
    else:
        lo, hi = log_bounds(uni.t_star) if uni.t_star > 1 else (0.0, 0.0)
        thr, br = _fmt(math.log(uni.t_star)), [_fmt(lo), _fmt(hi)]
        note = ("eps* = 0: a pattern ties with T = {x: P0(x) >= P1(x)} (e.g. P0(x) = P1(x)), "
                "so the binary mechanism (18) is not optimal for every f at any eps > 0"
                if uni.t_star == 1 else "")
    return {"utility": "f", "mechanism": "binary", "k": k, **inputs,
            "threshold": thr, "bracket": br, "t_star": uni_json["t_star"],
            "method": "closed form, exact: e^eps* - 1 = min over staircase patterns of D/(-C) "
                      "(Lemma 24, eq. (60)/(61) and (65)); log evaluated with arb, rounded outward",
            "source": "Lemma 24, eq. (56), (61)", "binding": uni_json["binding"], "note": note}


def _bracket_summary(mech: str, mu, k: int, T, tail, eps_min, eps_max, tol) -> dict:
    """The certified bracket of eps* (randomized response or the binary mechanism on T) as summary entries."""
    from rldp_verify.topics.extremal.thresholds import binary_status, bracket_threshold, default_grid, rr_status

    grid = default_grid(eps_min, eps_max)
    if mech == "rr":
        from rldp_verify.topics.extremal.tail import certify_rr_tail, kl_tail, mi_tail

        kind, data = tail
        m_of_set = mi_tail(data) if kind == "mi" else kl_tail(*data)
        br = bracket_threshold(lambda t: rr_status(mu, k, t), "rr", grid, tol=tol,
                               tail_fn=lambda t: certify_rr_tail(k, m_of_set, 1 / t))
    else:
        br = bracket_threshold(lambda t: binary_status(mu, k, t, T), "binary", grid, tol=tol)
    lo, hi = br.eps_bracket()
    thr = None
    if br.kind == "bisected":
        thr = _fmt((lo + hi) / 2)
    who = ("randomized response (arb-rigorous reduced costs of its non-degenerate LP basis)" if mech == "rr" else
           "the binary mechanism (a certified optimal LP basis containing its two patterns, or a certified "
           "better feasible mechanism)")
    method = (f"certified status of {who} at rational t = e^eps on a geometric grid of {len(grid)} eps in "
              f"[{eps_min}, {eps_max}], then bisection in t; the bracket ends are certified points of "
              "opposite status")
    if mech == "rr" and br.tail_certified:
        method += ("; RR is moreover proved optimal for EVERY eps >= the upper end (arb interval arithmetic on "
                   "s = e^-eps in (0, e^-hi]), so eps* = inf{eps: RR optimal on [eps, inf)} lies in the bracket")
    else:
        method += "; the status between evaluated points is not certified"
    return {"threshold": thr, "bracket": [_fmt(lo), _fmt(hi)],
            "t_bracket": [None if br.t_lo is None else _fs(br.t_lo), None if br.t_hi is None else _fs(br.t_hi)],
            "kind": br.kind, "note": br.note, "evaluations": len(br.evaluations),
            "tail_certified": br.tail_certified if mech == "rr" else None,
            "method": method}
