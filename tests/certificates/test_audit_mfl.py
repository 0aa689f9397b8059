"""Issue 23: the eps-LDP audit certificate forms of multi-freq-ldpy's HE (``laplace-histogram``), RS+FD (``rsfd``)
and ordered SS (``ordered-subsets``) clients (rldp_verify_check.forms_mfl): accepted at the audit's verdicts, equal
to the exact dense channel's ratio where it can be listed, and their wrong twins rejected (a scale b loosened, an
upper end rounded down, a witness choice off, a parameter loosened, a verdict flipped)."""

from __future__ import annotations

import copy
import itertools
from fractions import Fraction as F

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.audit import structured_certificate
from rldp_verify.certificates.audit_mfl import best_choice, rsfd_parts
from rldp_verify.structured.audit import Adapted, audit_structured
from rldp_verify.structured.channels import (
    BitChannel,
    FakeDataMixture,
    FakeDataUnary,
    LaplaceHistogram,
    SubsetSelection,
    Symmetric,
    UnaryProduct,
)
from rldp_verify.structured.composite import FakeData


def _cert(st, eps):
    model = Adapted(st, "test multi-freq-ldpy form", "exact")
    res = audit_structured(model, eps)
    return res, structured_certificate(res, model, eps)


def _dense_ratio(st):
    """max over outputs and inputs x != x' of Q(y|x)/Q(y|x') from the exact dense channel (inf when 0 under x')."""
    rows, _ = st.dense()
    best = F(1)
    for row in rows:
        for a, b in itertools.permutations(row, 2):
            if b == 0 and a > 0:
                return float("inf")
            if b > 0:
                best = max(best, a / b)
    return best


# ------------------------------------------------------------------------------------------ laplace-histogram

def test_laplace_histogram_pass_fail_and_wrong_twins():
    """HE at b = 8 (eps_c = 1/4): PASS at eps = 1/4, FAIL just below; b loosened to 9 under a FAIL and to 7 under
    the PASS, the upper end rounded down below e^(1/4) and a verdict flip are rejected."""
    st = LaplaceHistogram(16, 8.0)
    res, good = _cert(st, "1/4")
    assert res.verdict == "PASS" and good["statement"]["laplace-histogram"] == {"d": 16, "b": 8}
    assert recheck(good).ok, recheck(good).message
    res_f, fail = _cert(st, str(F(1, 4) - F(1, 2**40)))
    assert res_f.verdict == "FAIL" and recheck(fail).ok, recheck(fail).message
    for doc, change in ((good, {"b": 7}), (fail, {"b": 9}), (good, {"d": 1})):
        bad = copy.deepcopy(doc)
        bad["statement"]["laplace-histogram"].update(change)
        assert not recheck(bad).ok, change
    bad = copy.deepcopy(good)
    bad["statement"]["ratio_upper"] = "1.284025416687741484"        # e^(1/4) = 1.28402541668774148407...
    assert "does not enclose" in recheck(bad).message
    bad = copy.deepcopy(good)
    bad["statement"]["ratio_lower"] = "1.284025416687741485"
    assert not recheck(bad).ok
    bad = copy.deepcopy(good)
    bad["statement"]["verdict"] = "FAIL"
    assert not recheck(bad).ok
    bad = copy.deepcopy(good)
    bad["statement"]["set"] = {"type": "distribution", "P": [["1"]]}
    assert not recheck(bad).ok


def test_laplace_histogram_exp_eps_target():
    """eps given as e^eps = r (exact): decided in arb."""
    st = LaplaceHistogram(4, 8.0)
    _, cert = _cert(st, "1/4")
    cert["statement"]["eps"] = {"exp_eps": "13/10"}                  # e^(1/4) < 1.3: PASS holds
    assert recheck(cert).ok, recheck(cert).message
    cert["statement"]["eps"] = {"exp_eps": "128/100"}                # e^(1/4) > 1.28: PASS is wrong
    assert not recheck(cert).ok


# ------------------------------------------------------------------------------------------ rsfd

P, Q = F(1, 2), F(1, 3)
RSFD = [
    FakeDataMixture([Symmetric(3, F(1, 2), F(1, 4)), Symmetric(2, F(2, 3), F(1, 3))]),
    FakeDataUnary([UnaryProduct(2, BitChannel(P, Q)), UnaryProduct(3, BitChannel(F(3, 4), F(1, 5)))]),
    FakeData([(UnaryProduct(3, BitChannel(P, Q)), "random"), (UnaryProduct(2, BitChannel(F(3, 4), F(1, 4))),
                                                                "random")]),
    FakeData([(UnaryProduct(2, BitChannel(P, Q)), "random"), (Symmetric(3, F(1, 2), F(1, 4)), "uniform"),
              (UnaryProduct(2, BitChannel(F(2, 3), F(1, 4))), "zero")]),
]


@pytest.mark.parametrize("st", RSFD, ids=["grr-uniform", "ue-zero", "ue-random", "mixed"])
def test_rsfd_matches_dense_and_rejects_wrong_twins(st):
    """The checker accepts exactly the dense channel's max ratio R (as printed upper end and as the witness's
    ratio), rejects R minus 2^-60, a witness choice moved off the maximiser and a fake law's q loosened."""
    R = _dense_ratio(st)
    res, cert = _cert(st, "1/100")
    assert res.verdict == "FAIL" and F(res.ratio_upper) >= R >= F(res.ratio_lower)
    assert recheck(cert).ok, recheck(cert).message
    exact = copy.deepcopy(cert)
    exact["statement"]["ratio_upper"] = exact["statement"]["ratio_lower"] = f"{R.numerator}/{R.denominator}"
    assert recheck(exact).ok, recheck(exact).message
    assert F(cert["data"]["r"]) == R                                        # the exact bound, not the printed decimal
    low = copy.deepcopy(exact)
    low["statement"]["ratio_upper"] = str(R - F(1, 2**60))
    assert "below the certified bound" in recheck(low).message
    low["data"]["r"] = low["statement"]["ratio_upper"]                       # the bound itself rounded down
    assert "is not <=" in recheck(low).message
    off = copy.deepcopy(exact)
    off["data"]["choice"] = [c[:1] * 2 + c[2:] for c in off["data"]["choice"]]   # b2 = b1: ratio 1
    assert "not attained" in recheck(off).message
    loose = copy.deepcopy(exact)
    part = loose["statement"]["rsfd"]["parts"][0]
    if part["fake"] == "uniform":
        part["p"], part["q"] = "3/5", "1/5"                          # k = 3: 3/5 + 2/5 = 1, a wider GRR
    else:
        part["q"] = "1/10"
    assert not recheck(loose).ok


def test_rsfd_choice_out_of_range_and_pass():
    """A random part's n outside its range is refused; a PASS at eps above the ratio is accepted."""
    st = RSFD[2]
    _, cert = _cert(st, "1/100")
    bad = copy.deepcopy(cert)
    bad["data"]["choice"][0][2] = 3                                   # k = 3, b1 != b2: n in [1, 2]
    assert "not an output" in recheck(bad).message
    res, ok = _cert(st, "5")
    assert res.verdict == "PASS" and recheck(ok).ok, recheck(ok).message
    R = F(st.ratio())
    res, tight = _cert(st, f"log({R})")                                    # PASS at e^eps = the exact ratio
    assert res.verdict == "PASS" and recheck(tight).ok, recheck(tight).message
    flip = copy.deepcopy(ok)
    flip["statement"]["eps"] = {"eps": "1/100"}
    assert not recheck(flip).ok


def test_rsfd_builder_pieces():
    parts = rsfd_parts(RSFD[0])
    assert parts[0] == {"fake": "uniform", "k": 3, "p": "1/2", "q": "1/4"}
    assert best_choice(parts[0], F(100)) == [1, 0]                # u - 100 v largest: u = k p, v = k q
    assert rsfd_parts(Symmetric(3, F(1, 2), F(1, 4))) is None


# ------------------------------------------------------------------------------------------ ordered-subsets

@pytest.mark.parametrize(("k", "m", "p"), [(4, 2, F(1, 2)), (5, 3, F(2, 3)), (4, 3, F(1)), (3, 2, F(0))])
def test_ordered_subsets_matches_dense(k, m, p):
    """U = L from the statuses of x and x' equals the dense ordered channel's max ratio (inf here: x later in Y
    has probability 0); a PASS and a printed finite upper end are rejected."""
    st = SubsetSelection(k, m, p, ordered=True)
    res, cert = _cert(st, "1")
    assert cert["statement"]["ordered-subsets"]["m"] == m
    assert _dense_ratio(st) == float("inf") and res.verdict == "FAIL"
    assert recheck(cert).ok, recheck(cert).message
    for key, val in (("verdict", "PASS"), ("ratio_upper", "1000")):
        bad = copy.deepcopy(cert)
        bad["statement"][key] = val
        assert not recheck(bad).ok, key
    bad = copy.deepcopy(cert)
    bad["statement"]["ordered-subsets"]["m"] = 1
    assert "2 <= m" in recheck(bad).message


def test_rsfd_random_instances_match_dense():
    """12 random RS+FD channels (1-3 attributes of 2-3 values, each GRR / UE-zero / UE-random with random rational
    p, q): the certificate is accepted, its r is the dense channel's max ratio, and r lowered by 2^-40 is rejected."""
    import random

    rng = random.Random(23)
    for i in range(12):
        parts = []
        for _ in range(rng.randint(1, 3) if i % 2 else 2):
            k, fake = rng.randint(2, 3), rng.choice(["uniform", "zero", "random"])
            a, b = sorted(F(rng.randint(1, 9), 10) for _ in range(2))
            c = Symmetric(k, 1 - (k - 1) * F(1, 2 * k), F(1, 2 * k)) if fake == "uniform" else \
                UnaryProduct(k, BitChannel(b, a) if rng.random() < 0.5 else BitChannel(a, b))
            parts.append((c, fake))
        st = FakeData(parts)
        R = _dense_ratio(st)
        _, cert = _cert(st, "1/100")
        assert recheck(cert).ok and F(cert["data"]["r"]) == R, (parts, R, cert["data"], recheck(cert).message)
        low = copy.deepcopy(cert)
        low["data"]["r"] = str(R - F(1, 2**40))
        assert not recheck(low).ok
