"""Issue 23, second pass over multi-freq-ldpy: RS+FD under {P} (the ``rsfd`` form with the set ``distribution``,
rldp_verify_check.forms_mfl) at any size, equal to the dense (eps, P) ratio of eq. (62) where the dense channel can
be listed, its wrong twins rejected (r or the printed upper end rounded down, the printed lower end raised, a
fake law loosened, P moved); and the all-zero report of UE-r fake data, whose term is the fake law's average."""

from __future__ import annotations

import copy
import random
from fractions import Fraction as F

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.audit import structured_certificate
from rldp_verify.structured.audit import Adapted, audit_structured
from rldp_verify.structured.channels import BitChannel, Symmetric, UnaryProduct
from rldp_verify.structured.composite import FakeData


def _cert(st, eps, P, sizes):
    model = Adapted(st, "test multi-freq-ldpy RS+FD", "exact")
    res = audit_structured(model, eps, distribution=P, sizes=sizes)
    return res, structured_certificate(res, model, eps)


def _dense_p_ratio(st, P, a1, a2, skip=lambda label: False):
    """rho(P) of eq. (62) from the exact dense channel (columns: tuples, lexicographic, x = s |U| + u)."""
    rows, labels = st.dense()
    secrets = [s for s in range(a1) if sum(P[s])]
    best = F(1)
    for row, label in zip(rows, labels, strict=True):
        if skip(label):
            continue
        py = {s: sum(row[s * a2 + u] * P[s][u] for u in range(a2)) / sum(P[s]) for s in secrets}
        best = max([best] + [py[s] / py[t] for s in secrets for t in secrets if s != t and py[t] > 0])
    return best


def _random_instance(rng):
    """1-2 attributes of 2-3 values (GRR with uniform fake values, UE with zero-vector or random fake data; p < q
    too), a split of the tuples into S (first attributes) x U and a random exact P with some zero cells."""
    parts = []
    for _ in range(rng.randint(1, 2)):
        k, fake = rng.randint(2, 3), rng.choice(["uniform", "zero", "random"])
        a, b = sorted(F(rng.randint(1, 9), 10) for _ in range(2))
        b = b if a != b else a + F(1, 20)
        c = Symmetric(k, 1 - (k - 1) * F(1, 2 * k), F(1, 2 * k)) if fake == "uniform" else \
            UnaryProduct(k, BitChannel(b, a) if rng.random() < 0.5 else BitChannel(a, b))
        parts.append((c, fake))
    ks = [c.k if fake == "uniform" else c.d for c, fake in parts]
    a1 = ks[0] if len(ks) == 2 and rng.random() < 0.5 else ks[0] * (ks[1] if len(ks) == 2 else 1)
    a2 = (ks[0] * (ks[1] if len(ks) == 2 else 1)) // a1
    P = [[F(rng.randint(0, 4)) for _ in range(a2)] for _ in range(a1)]
    P[0][0] += 1
    tot = sum(map(sum, P))
    return FakeData(parts), [[v / tot for v in r] for r in P], (a1, a2)


def test_rsfd_p_matches_dense_on_random_instances():
    """14 random RS+FD channels and P: the certificate is accepted, its r is the dense (eps, P) ratio exactly, and
    r lowered by 2^-40 is rejected (checker variants seen to fail this: the UE-r prefixes without w(n), the order
    by pi(.|s) alone, the GRR candidates over all prefix sizes)."""
    rng = random.Random(2023)
    for _ in range(14):
        st, P, (a1, a2) = _random_instance(rng)
        R = _dense_p_ratio(st, P, a1, a2)
        res, cert = _cert(st, "1/100", P, (a1, a2))
        assert cert["statement"]["set"]["type"] == "distribution" and "rsfd" in cert["statement"]
        assert recheck(cert).ok and F(cert["data"]["r"]) == R, (st, P, R, cert["data"], recheck(cert).message)
        low = copy.deepcopy(cert)
        low["data"]["r"] = str(R - F(1, 2**40))
        assert R == 1 or "is not <= R" in recheck(low).message


P2 = [[F(1, 12), F(1, 12)], [F(1, 6), F(1, 12)], [F(1, 4), F(1, 3)]]
ST2 = FakeData([(UnaryProduct(3, BitChannel(F(1, 2), F(1, 3))), "random"),
                (UnaryProduct(2, BitChannel(F(3, 4), F(1, 4))), "random")])


def test_rsfd_p_wrong_twins_rejected():
    """At e^eps = the exact ratio (PASS), the printed upper end rounded down, the lower end raised, the PASS read
    at a smaller eps, a fake law's q loosened, P moved (another distribution: the claimed r no longer bounds it)
    and a part's k that does not multiply to |S| |U| are rejected."""
    R = _dense_p_ratio(ST2, P2, 3, 2)
    res, cert = _cert(ST2, f"log({R})", P2, (3, 2))
    assert res.verdict == "PASS" and recheck(cert).ok, recheck(cert).message
    exact = copy.deepcopy(cert)
    exact["statement"]["ratio_upper"] = exact["statement"]["ratio_lower"] = f"{R.numerator}/{R.denominator}"
    assert recheck(exact).ok, recheck(exact).message
    wrong = {"ratio_upper": str(R - F(1, 2**60)), "ratio_lower": str(R + F(1, 2**60)),
             "eps": {"exp_eps": str(R - F(1, 2**60))}}
    for key, val in wrong.items():
        bad = copy.deepcopy(exact)
        bad["statement"][key] = val
        assert not recheck(bad).ok, key
    bad = copy.deepcopy(exact)
    bad["statement"]["rsfd"]["parts"][1]["q"] = "1/8"                  # a wider bit: a larger ratio
    assert not recheck(bad).ok
    moved = copy.deepcopy(exact)
    moved["statement"]["set"]["P"] = [["1/3", "0"], ["0", "1/3"], ["1/6", "1/6"]]
    assert _dense_p_ratio(ST2, [[F(1, 3), 0], [0, F(1, 3)], [F(1, 6), F(1, 6)]], 3, 2) > R
    assert "is not <= R" in recheck(moved).message
    bad = copy.deepcopy(exact)
    bad["statement"]["rsfd"]["parts"][0]["k"] = 2
    assert "k_0" in recheck(bad).message


def test_rsfd_p_beyond_the_dense_channel():
    """Two UE-r attributes of 10 values (2^20 outputs: no dense channel) under a random P on 10 x 10: certified in
    well under a second; one secret of positive mass: U = L = 1."""
    rng = random.Random(7)
    bit = BitChannel(F(1, 2), F(1, 5))
    st = FakeData([(UnaryProduct(10, bit), "random"), (UnaryProduct(10, bit), "random")])
    P = [[F(rng.randint(0, 9)) for _ in range(10)] for _ in range(10)]
    tot = sum(map(sum, P))
    P = [[v / tot for v in r] for r in P]
    res, cert = _cert(st, "1", P, (10, 10))
    assert res.verdict == "FAIL" and recheck(cert).ok, recheck(cert).message
    one = [[F(1, 10)] * 10] + [[F(0)] * 10 for _ in range(9)]
    res, cert = _cert(st, "0", one, (10, 10))
    assert res.verdict == "PASS" and F(cert["data"]["r"]) == 1 and recheck(cert).ok, recheck(cert).message


@pytest.mark.parametrize("fake", ["random", "zero"])
def test_ue_all_zero_report(fake):
    """The test gap of the last stop (dropping UE-r's all-zero report went unseen by the dense comparisons) closed
    both ways. The all-zero report y_j = 0 has L_j/F_j = w(0) h(0) = 1 at every t_j, as the all-ones report
    (w(k) h(1) = 1): its term is (1, 1), the average of the terms under the fake law F_j (E_F[L_j/F_j] = 1), so it
    is never the only maximiser and no ratio can see it dropped: the dense (eps, P) ratio without the outputs whose
    UE-r part is constant (all zeros or all ones) equals the full one. What can see it is the law: the dense channel
    lists the all-zero report with positive probability and every column sums to 1 (a model dropping it fails)."""
    rng = random.Random(11)
    for _ in range(6):
        bit = BitChannel(*sorted((F(rng.randint(1, 9), 10), F(rng.randint(1, 9), 10) + F(1, 40)),
                                 reverse=rng.random() < 0.5))
        st = FakeData([(UnaryProduct(3, bit), fake), (Symmetric(2, F(2, 3), F(1, 3)), "uniform")])
        P = [[F(rng.randint(0, 3)) for _ in range(2)] for _ in range(3)]
        P[0][0] += 1
        tot = sum(map(sum, P))
        P = [[v / tot for v in r] for r in P]
        rows, labels = st.dense()
        zero = [i for i, lab in enumerate(labels) if lab.split(",")[0] == "000"]
        assert len(zero) == 2 and all(rows[i][x] > 0 for i in zero for x in range(6))
        assert all(sum(r[x] for r in rows) == 1 for x in range(6))
        full = _dense_p_ratio(st, P, 3, 2)
        _, cert = _cert(st, "1/100", P, (3, 2))
        assert F(cert["data"]["r"]) == full and recheck(cert).ok
        if fake == "random":
            assert _dense_p_ratio(st, P, 3, 2, skip=lambda lab: lab.split(",")[0] in ("000", "111")) == full


def test_rsfd_p_empty_report_and_a_loose_r():
    """GRR on the secret attribute, UE with zero-vector fake data on the public one, both secrets with the same
    public marginal: the UE part's best report is all zeros (every (h1 - h0)(pi(v|s) - R pi(v|s')) < 0), so a
    checker leaving out the empty set of ones accepts r below the ratio (rejected here). A loose r (above the
    ratio) still bounds it, but a printed lower end above the ratio is not attained by the maximisers at that r."""
    st = FakeData([(Symmetric(2, F(3, 4), F(1, 4)), "uniform"), (UnaryProduct(2, BitChannel(F(3, 4), F(1, 4))), "zero")])
    P = [[F(1, 4), F(1, 4)], [F(1, 4), F(1, 4)]]
    R = _dense_p_ratio(st, P, 2, 2)
    _, cert = _cert(st, "1/100", P, (2, 2))
    assert F(cert["data"]["r"]) == R and recheck(cert).ok, recheck(cert).message
    low = copy.deepcopy(cert)
    low["data"]["r"] = str(R - F(1, 2**40))
    assert "is not <= R" in recheck(low).message
    loose = copy.deepcopy(cert)
    loose["data"]["r"] = loose["statement"]["ratio_upper"] = str(R + 1)
    assert recheck(loose).ok, recheck(loose).message
    loose["statement"]["ratio_lower"] = str(R + F(1, 2))
    assert "not attained" in recheck(loose).message


def test_cli_ordered_ss_under_p_dense_or_one_line(tmp_path):
    """``audit --adapter multi-freq-ldpy:SS_Client --distribution`` for ordered subsets (m >= 2), which have no
    structured (eps, P) audit: the CLI takes the dense channel (a verdict with a dense certificate the checker
    accepts) where it can be listed, else one line naming the refusal (exit 2), no verdict and nothing written; on
    a Rényi ball without --certificate the dense route too (a verdict, as with --certificate)."""
    pytest.importorskip("multi_freq_ldpy")
    from tests._cli_runner import run

    cert = tmp_path / "c.json"
    base = ["audit", "--adapter", "multi-freq-ldpy:SS_Client", "--param", "epsilon=0.3", "--eps", "1"]
    out = run(*base, "--param", "k=4", "--distribution", "0.1,0.2;0.3,0.4", "--sizes", "2,2", "--certificate", cert)
    assert out.returncode == 1 and "FAIL" in out.stdout and "(re-checked)" in out.stderr, out.stderr
    ok = run("check-certificates", cert)
    assert ok.returncode == 0 and "(distribution)" in ok.stdout, ok.stdout
    cert.unlink()
    big = ";".join(",".join(["0.0625"] * 4) for _ in range(4))
    out = run(*base, "--param", "k=16", "--distribution", big, "--sizes", "4,4", "--certificate", cert)
    assert out.returncode == 2 and out.stdout == "" and not cert.exists()
    assert out.stderr.count("\n") == 1 and "too many ordered subsets for a dense channel" in out.stderr, out.stderr
    ball = run(*base, "--param", "k=4", "--phat", "1,2;3,4", "--alpha", "2", "--radius", "1/10", "--sizes", "2,2")
    assert ball.returncode == 1 and "FAIL" in ball.stdout, ball.stderr              # was: refused without --certificate


def test_rsfd_p_builder_refuses_what_it_cannot_state():
    """The builder writes the exact finite ratio only: an infinite or non-exact (eps, P) bracket is refused in one
    line naming the structure; other structures are not its business (None)."""
    from types import SimpleNamespace

    from rldp_verify.certificates.audit_mfl import mfl_p_form
    from rldp_verify.core.errors import InputError

    for lo, hi in ((float("inf"), float("inf")), (F(2), F(3))):
        res = SimpleNamespace(ratio_upper=hi, ratio_lower=lo, adapter="test")
        with pytest.raises(InputError, match="exact finite ratio") as err:
            mfl_p_form(ST2, res, (3, 2))
        assert "\n" not in str(err.value)
    assert mfl_p_form(Symmetric(4, F(1, 2), F(1, 6)), None, (2, 2)) is None
