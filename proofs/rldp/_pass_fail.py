"""The shared loop of the small audit-form claims (``audit_certificate_noise`` and ``audit_certificate_hash``):
each structure is audited exactly for eps-LDP at the eps where it is private and just below it (eps (1 - 10^-9),
or e^eps (1 - 10^-9) for an eps written ``log(r)``), and the claim holds when every verdict is PASS at and FAIL
below; both results are kept for the certificates the claim writes."""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.claims import Outcome

BELOW = 1 - Fraction(1, 10**9)


def just_below(at: str) -> str:
    """``at`` (``"r"`` or ``"log(r)"``, r rational) scaled by 1 - 10^-9 inside the logarithm if there is one."""
    if at.startswith("log("):
        return f"log({Fraction(at[4:-1]) * BELOW})"
    return str(Fraction(at) * BELOW)


def pass_and_fail_below(cases) -> tuple[list, list, list]:
    """(rows, docs, wrong) for ``cases`` of (name, structure, eps at which it is private): a row per structure
    (both verdicts and the ratio at eps), ``docs`` (result, model, eps, name) at eps and ``name below`` just below,
    ``wrong`` the rows whose verdicts are not PASS at eps and FAIL below."""
    from rldp_verify.structured.audit import Adapted, audit_structured

    rows, docs, wrong = [], [], []
    for name, st, at in cases:
        model, below = Adapted(st, name, "exact"), just_below(at)
        res, res_below = audit_structured(model, at), audit_structured(model, below)
        rows.append({"mechanism": name, "eps": at, "verdict": str(res.verdict), "verdict_below": str(res_below.verdict),
                     "ratio": [str(res.ratio_lower), str(res.ratio_upper)]})
        if str(res.verdict) != "PASS" or str(res_below.verdict) != "FAIL":
            wrong.append(rows[-1])
        docs += [(res, model, at, name), (res_below, model, below, name + " below")]
    return rows, docs, wrong


def outcome(rows: list, wrong: list, ev: dict) -> Outcome:
    """REFUTED (kind false) with the wrong rows as the counterexample, else VERIFIED."""
    if wrong:
        return Outcome.refuted(f"{len(wrong)} of {len(rows)} mechanisms do not have the stated eps",
                               counterexample=wrong, **ev, kind="false")
    return Outcome.verified(f"{len(rows)} mechanisms: PASS at the stated eps and FAIL just below, certified", **ev)
