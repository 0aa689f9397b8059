"""Issue 23: the audit exposes the pair entries it certified its upper ends with (AuditResult.pair_entries), and
the certificate builder uses them instead of recomputing the dual parameters. The certificates are
checker-equivalent to the recomputed ones (same statement, the same checker verdict and interval), and an entry
the checker does not accept is never written: the builder falls back to recomputing."""

from __future__ import annotations

import copy
import dataclasses
from fractions import Fraction as F

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.audit import audit_certificate
from rldp_verify.rldp.audit import audit
from tests.certificates.test_audit import SETS, Q

BALLS = ["ball-2", "ball-3/2", "ball-1", "ball-3/4", "ball-2/5"]
# a 3x2 GRR-like channel with a P-hat that makes the primal pairs (not Proposition 3) carry the upper end
Q3 = [[F(3, 5), F(1, 4), F(1, 5), F(1, 4), F(1, 5), F(1, 4)], [F(1, 5), F(1, 2), F(3, 5), F(1, 4), F(1, 5), F(1, 4)],
      [F(1, 5), F(1, 4), F(1, 5), F(1, 2), F(3, 5), F(1, 2)]]
PHAT3 = "0.1,0.2;0.15,0.15;0.3,0.1"


def _pairs(cert):
    return {(p["y"], p["s"], p["s_prime"]): p for p in cert["data"]["pairs"]}


@pytest.mark.parametrize("case", BALLS + ["q3-alpha-2", "q3-alpha-1/2"])
def test_entries_give_checker_equivalent_certificates(case):
    if case.startswith("q3"):
        kw, mech, sizes = dict(phat=PHAT3, alpha=F(case.split("-")[-1]), radius="1/5"), Q3, (3, 2)
    else:
        kw, mech, sizes = SETS[case], Q, (2, 2)
    res = audit(mech, "log(4)", sizes=sizes, **kw)
    new = audit_certificate(res, mech, "log(4)", sizes=sizes, **kw)
    old = audit_certificate(dataclasses.replace(res, pair_entries={}), mech, "log(4)", sizes=sizes, **kw)
    a, b = recheck(new), recheck(old)
    assert a.ok, a.message
    # the budget split (alpha <= 1/2) printed as the upper end is re-derived without the audit's entries too: the
    # builder recomputes the split entry (certificates.audit._split_entry) when no single-budget dual proves R
    assert b.ok and new["statement"] == old["statement"] and a.message == b.message, b.message
    used = [k for k, p in _pairs(new).items() if k in res.pair_entries and F(p["r"]) == res.pair_entries[k]["r"]]
    assert all(F(p["r"]) <= res.ratio_upper for p in new["data"]["pairs"])
    if case in ("q3-alpha-2", "q3-alpha-1/2"):
        assert used, "the audit's own entries were not used"


def test_a_wrong_engine_entry_is_not_written():
    """An engine entry corrupted (r far below the pair's witness ratio, as a lenient pair solver would report it):
    the builder does not write it (the checker refuses it), falls back to recomputing, and the certificate is
    accepted; written as is, the checker rejects it."""
    kw = dict(phat=PHAT3, alpha=F(2), radius="1/5")
    res = audit(Q3, "log(4)", sizes=(3, 2), **kw)
    assert res.pair_entries
    a = res.argmax
    key = (a["y"], a["s"], a["s_prime"])
    bad_entries = copy.deepcopy(res.pair_entries)
    bad_entries[key] = {**bad_entries[key], "r": res.ratio_lower / 2}
    cert = audit_certificate(dataclasses.replace(res, pair_entries=bad_entries), Q3, "log(4)", sizes=(3, 2), **kw)
    assert recheck(cert).ok
    assert F(_pairs(cert)[key]["r"]) >= res.ratio_lower
    forced = copy.deepcopy(cert)
    _pairs(forced)[key].update({k: (v if k == "mode" else str(v)) for k, v in bad_entries[key].items()})
    assert "does not prove" in recheck(forced).message or "mu" in recheck(forced).message
