#!/usr/bin/env python3
"""Benchmark: exact adapter audit and black-box sampler audit vs. the ldp-audit protocol (issue 11 item 6).

ldp-audit (Arcolezi & Gambs, "Revealing the True Cost of Local Privacy: An Auditing Perspective", PETS 2024;
github.com/hharcolezi/ldp-audit) is not on the package index. Read from its ``ldp_audit/base_auditor.py`` and
``attacks.py`` (not copied) and re-implemented here as the baseline, per protocol:

* inputs v1 = 0 and v2 = k - 1; ``nb_trials`` draws of the client on each;
* the distinguishing event "the attack outputs v1": GRR -- the report itself; unary encodings (SUE, OUE and
  pure-ldp's UEClient) -- ``attack_ue``: a uniformly random index among the bits set to 1, or a uniformly
  random value in [0, k) when no bit is set;
* TP = #event under v1, FP = #event under v2; Clopper-Pearson intervals ``proportion_confint(., nb_trials,
  alpha/2, 'beta')`` (statsmodels, as ldp-audit) with its default alpha = 0.01; eps_emp = log(TPR_lo / FPR_hi).

What differs: ldp-audit parallelises with ray and seeds each core with xxhash(protocol) + seed + core; here
the baseline runs in one process, seeded with numpy (Python, NumPy and numba generators). The clients are the
ones ldp-audit audits: multi-freq-ldpy's GRR_Client / UE_Client and pure-ldp 1.1.2's UEClient (OUE).

Ours, same protocols and trial budget (10^5 per input):
* exact: ``rldp_verify.adapters.channel`` + ``audit(..., ldp=True)``: the realised eps of the channel the code
  implements (its float probabilities as binary rationals), certified;
* black-box: ``rldp_verify.blackbox.audit_sampler`` at 95 % confidence (half the draws choose the most
  violating event, half certify it with Clopper-Pearson), 2 worker processes.

Setting: k = 2, claimed eps = 0.25 (ldp-audit's defaults). pure-ldp 1.1.2's OUE really has
eps = ln(e^0.25 + 2) = 1.18907. Wall-clock seconds on the shared 2-core machine (other jobs running).
"""

from __future__ import annotations

import json
import math
import os
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._certificates import COLUMN, Certifier, seconds  # noqa: E402
from rldp_verify.adapters import channel  # noqa: E402
from rldp_verify.blackbox import audit_sampler  # noqa: E402
from rldp_verify.rldp.audit import audit  # noqa: E402

EPS = 0.25
K = 2
TRIALS = int(os.environ.get("BENCH_LDP_AUDIT_TRIALS", "100000"))
ALPHA = 0.01        # ldp-audit's default significance level
SEED = 42


def _numba_seed():
    from numba import njit

    @njit
    def seed(s):
        np.random.seed(s)
    return seed


def protocols():
    from multi_freq_ldpy.pure_frequency_oracles.GRR import GRR_Client
    from multi_freq_ldpy.pure_frequency_oracles.UE import UE_Client
    from pure_ldp.frequency_oracles import UEClient

    pure_oue = UEClient(EPS, K, use_oue=True, index_mapper=lambda x: x)

    def bits(a):
        return tuple(int(b) for b in a)

    return [
        # name, sampler (hashable output), the library object for the adapter, adapter params, is unary
        ("GRR (multi-freq-ldpy)", lambda v: int(GRR_Client(v, K, EPS)), GRR_Client, {"k": K, "epsilon": EPS}, False),
        ("SUE (multi-freq-ldpy)", lambda v: bits(UE_Client(v, K, EPS, False)), UE_Client,
         {"k": K, "epsilon": EPS, "optimal": False}, True),
        ("OUE (multi-freq-ldpy)", lambda v: bits(UE_Client(v, K, EPS, True)), UE_Client,
         {"k": K, "epsilon": EPS, "optimal": True}, True),
        ("OUE (pure-ldp 1.1.2 UEClient)", lambda v: bits(pure_oue.privatise(v)), pure_oue, {}, True),
    ]


def attack(report, unary: bool) -> int:
    """ldp-audit's inference of the true value from a report (see the module docstring)."""
    if not unary:
        return report
    ones = [i for i, b in enumerate(report) if b == 1]
    if not ones:
        return int(np.random.randint(K))
    return int(np.random.choice(ones))


def baseline(sample, unary: bool, seed: int) -> tuple[float, int, int]:
    from statsmodels.stats.proportion import proportion_confint

    v1, v2 = 0, K - 1
    counts = []
    for j, v in enumerate((v1, v2)):
        s = seed + j
        random.seed(s)
        np.random.seed(s)
        _numba_seed()(s)
        counts.append(sum(attack(sample(v), unary) == v1 for _ in range(TRIALS)))
    TP, FP = counts
    tpr = proportion_confint(TP, TRIALS, ALPHA / 2, "beta")[0]
    fpr = proportion_confint(FP, TRIALS, ALPHA / 2, "beta")[1]
    return float(np.log(tpr / fpr)), TP, FP


def main() -> int:
    from rldp_verify.certificates.audit import audit_certificate

    rows = []
    certs = Certifier("ldp_audit")
    _numba_seed()(0)   # compile numba once, outside the timings
    for name, sample, obj, params, unary in protocols():
        sample(0)
        t0 = time.perf_counter()
        mech = channel(obj, **params)
        r = audit(mech, EPS, ldp=True)
        t_exact = time.perf_counter() - t0
        exact_lo, exact_hi = r.eps_realised(12)
        cert = certs.certify(name, lambda n, r=r, mech=mech: audit_certificate(r, mech, EPS, ldp=True, name=n))
        t0 = time.perf_counter()
        b_eps, TP, FP = baseline(sample, unary, SEED)
        t_base = time.perf_counter() - t0
        t0 = time.perf_counter()
        bb = audit_sampler(sample, list(range(K)), TRIALS, 0.95, seed=SEED, workers=2, progress=False)
        t_bb = time.perf_counter() - t0
        rows.append([name, EPS, f"[{exact_lo}, {exact_hi}]", f"{t_exact:.3f}", f"{b_eps:.4f}", f"{t_base:.1f}",
                     f"{bb.eps_lower:.4f}", f"{t_bb:.1f}",
                     f"E = {[repr(y) for y in bb.event]}, counts {dict((repr(k), v) for k, v in bb.counts.items())}"
                     f" of {bb.certification_trials}", cert[0], seconds(*cert[1:])])
        print(rows[-1], flush=True)
    target = math.log(math.exp(EPS) + 2)
    out = {
        "title": f"Exact adapter audit and black-box audit vs. the ldp-audit protocol (k = {K}, claimed eps = {EPS}, "
                 f"{TRIALS:,} trials per input)",
        "columns": ["protocol", "claimed eps", "exact eps (adapter + certified audit)", "exact s",
                    "ldp-audit protocol eps_emp (alpha = 0.01)", "ldp-audit s (1 process)",
                    "black-box 95 % lower bound", "black-box s (2 processes)", "black-box evidence", COLUMN,
                    "certificate s (build and write / re-check)"],
        "rows": rows,
        "notes": [f"pure-ldp 1.1.2's OUE: ln(e^0.25 + 2) = {target:.12f}; the exact audit gives the realised eps of "
                  "the float probabilities the code uses (equal to it within float rounding).",
                  "Exact eps above 0.25 by ~1e-16 for the other protocols is real: float64 rounding of e^eps in the "
                  "libraries' probabilities.",
                  "Baseline: ldp-audit's events (report == v1; random set bit == v1), Monte Carlo and Clopper-Pearson "
                  "(statsmodels proportion_confint, alpha/2 = 0.005 two-sided) re-implemented from its source; "
                  "single process with NumPy/numba seeding instead of ray/xxhash.",
                  "Black-box: rldp_verify.blackbox.audit_sampler, half of the draws select the event (likelihood-ratio "
                  "prefix with the best Clopper-Pearson bound), the other half certify it (one-sided, Bonferroni).",
                  "Wall-clock seconds on the shared 2-core machine with other jobs running (noisy).",
                  "The exact audit's " + certs.note()],
    }
    dest = ROOT / "reports" / "benchmarks" / "ldp_audit.json"
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(json.dumps(out, indent=1) + "\n")
    return 0   # a FAILED certificate shows in its row; a non-zero exit would replace the table (run.py)


if __name__ == "__main__":
    raise SystemExit(main())
