"""(eps, P)-RLDP of structured channels wired into the audit (issue 26 item 1, RLDP part): subset selection's
p_ratio against the dense eq. (62) on random P (with zeros), audit_structured / audit_adapted / the CLI with
``--adapter ... --distribution`` against the dense route, wrong variants rejected, refusals (local hashing over a
seed range, a Rényi ball of a structure too large for the dense channel) one line and exit 2."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from rldp_verify.cli import main
from rldp_verify.core.errors import InputError
from rldp_verify.rldp.audit import audit
from rldp_verify.rldp.mechio import Mechanism
from rldp_verify.structured import SubsetSelection, Symmetric
from rldp_verify.structured.channels import INF, ratio
from rldp_verify.structured.rldp import p_audit, p_ratio

pytest.importorskip("multi_freq_ldpy")
pytest.importorskip("pure_ldp.frequency_oracles")


def _random_P(rng, a1, a2):
    w = [[rng.choice([0, 0, 1, 2, 5]) for _ in range(a2)] for _ in range(a1)]
    if sum(map(sum, w)) == 0:
        w[0][0] = 1
    tot = sum(map(sum, w))
    return [[Fraction(v, tot) for v in r] for r in w]


def _dense_rho(st, P, a1, a2):
    rows, outs = st.dense()
    keep = [i for i, r in enumerate(rows) if any(r)]
    mech = Mechanism.from_matrix([rows[i] for i in keep], a1, a2, [outs[i] for i in keep])
    res = audit(mech, 1, distribution=P)
    assert res.ratio_lower == res.ratio_upper
    return res.ratio_lower


def _instance(seed):
    rng = random.Random(seed)
    a1, a2 = rng.randint(2, 3), rng.randint(1, 3)
    if a1 * a2 < 3:
        a2 += 1
    k = a1 * a2
    st = SubsetSelection(k, rng.randint(1, k - 1), Fraction(rng.randint(0, 10), 10))
    return st, _random_P(rng, a1, a2), a1, a2


@pytest.mark.parametrize("seed", range(40))
def test_subset_selection_p_ratio_is_the_dense_route(seed):
    """Subset selection on S x U (any m, Pr[x in S] from 0 to 1, so A > B, A = B and A < B) equals eq. (62)."""
    st, P, a1, a2 = _instance(seed)
    assert p_ratio(st, P, (a1, a2)) == _dense_rho(st, P, a1, a2), (st, P)


@pytest.mark.parametrize("seed", range(24))
def test_subset_selection_many_secrets_is_the_dense_route(seed):
    """|S| = 4..6 secrets (the best pair is picked among the two best rows of each side, not all pairs)."""
    rng = random.Random(1000 + seed)
    a1, a2 = rng.randint(4, 5), rng.randint(2, 3)
    k = a1 * a2
    # A >= B iff Pr[x in S] >= m / k. Regimes: any; A >= B with s' forced into every subset (the lightest cells of
    # s' matter); A < B with a subset smaller than a row (the heaviest cells of s' matter)
    regime = seed % 3
    m = [rng.randint(1, k - 1), rng.randint(k - a2 + 1, k - 1), rng.randint(1, a2 - 1)][regime]
    tenths = [range(0, 11), range(-(-10 * m // k), 11), range(0, 10 * m // k + 1)][regime]
    st = SubsetSelection(k, m, Fraction(rng.choice(tenths), 10))
    P = _random_P(rng, a1, a2)
    assert p_ratio(st, P, (a1, a2)) == _dense_rho(st, P, a1, a2), (st, P)


def _variant(st, P, a1, a2, *, joint=False, fill_others=True):
    """A wrong variant of the greedy: the joint P(s, u) for the conditional, or row s' filled before the rows of
    the other secrets."""
    A, B = st._prob({0}, 0), st._prob(set(), 0)
    rows = [list(r) if joint else [v / sum(r) for v in r] for r in P if sum(r) > 0]
    best = Fraction(1)                                           # fewer than two secrets: ratio 1
    for i, si in enumerate(rows):
        for j, sj in enumerate(rows):
            if i == j:
                continue
            hi, lo = (si, sj) if A >= B else (sj, si)
            take = min(st.m, a2)
            others = (a1 - 2) * a2 if fill_others else 0
            rest = max(0, st.m - take - others)
            x, z = sum(sorted(hi, reverse=True)[:take]), sum(sorted(lo)[:rest])
            mi, mj = (x, z) if A >= B else (z, x)
            r = ratio(B + (A - B) * mi, B + (A - B) * mj)
            r = Fraction(1) if r is None else r
            best = max(best, r, key=lambda v: float("inf") if v == INF else v)
    return best


def test_subset_selection_wrong_variants_are_rejected():
    """The joint-for-conditional variant and the 'row s' before the other rows' variant disagree with the dense
    route on some random instance, while the right one agrees on all (the test above)."""
    wrong_joint = wrong_fill = 0
    for seed in range(40):
        st, P, a1, a2 = _instance(seed)
        want = _dense_rho(st, P, a1, a2)
        assert _variant(st, P, a1, a2) == want                   # the variant code reproduces the right one
        wrong_joint += _variant(st, P, a1, a2, joint=True) != want
        wrong_fill += _variant(st, P, a1, a2, fill_others=False) != want
    assert wrong_joint >= 5 and wrong_fill >= 3, (wrong_joint, wrong_fill)


def test_p_audit_witness_and_refusals():
    st = Symmetric(4, Fraction(1, 2), Fraction(1, 6))
    P = [[Fraction(1, 8), Fraction(1, 8)], [Fraction(3, 4), 0]]
    rho, wit = p_audit(st, P, (2, 2))
    assert rho == 3 and wit["s"] == 1 and wit["s_prime"] == 0 and "(1, 0)" in wit["y"]
    assert p_audit(st, [[Fraction(1, 2), Fraction(1, 2)], [0, 0]], (2, 2)) == (1, None)   # one secret
    with pytest.raises(InputError, match="ordered subset selection"):
        p_audit(SubsetSelection(4, 2, Fraction(1, 2), ordered=True), P, (2, 2))
    with pytest.raises(InputError, match="not a channel on"):
        p_audit(SubsetSelection(6, 2, Fraction(1, 2)), P, (2, 2))


# ------------------------------------------------------------------------------ audit_structured vs dense


ADAPTERS = [("multi-freq-ldpy:GRR_Client", ["epsilon=1"], "k"),
            ("pure-ldp:DEClient", ["epsilon=0.5"], "d"),
            ("pure-ldp:UEClient", ["epsilon=1"], "d"),                      # 1.1.2: the bit-not-cleared bug
            ("pure-ldp:UEClient", ["epsilon=1", "use_oue=true"], "d"),
            ("multi-freq-ldpy:UE_Client", ["epsilon=1", "optimal=true"], "k"),
            ("multi-freq-ldpy:SS_Client", ["epsilon=0.5", "as_set=true"], "k"),
            ("multi-freq-ldpy:L_GRR_Client", ["eps_perm=2", "eps_1=1"], "k")]


@pytest.mark.parametrize("spec, params, dname", ADAPTERS)
def test_audit_adapted_distribution_is_the_dense_route(spec, params, dname):
    """audit_adapted(..., distribution=P) equals the dense (eps, P) audit of the same adapted channel: ratio,
    verdict (eps below, at and above the ratio), on random P at |S| x |U| = 2 x 2, 2 x 3, 3 x 2."""
    from rldp_verify.adapters import adapt_spec, audit_adapted, dense_mechanism

    rng = random.Random(spec + str(params))
    for a1, a2 in ((2, 2), (2, 3), (3, 2)):
        a = adapt_spec(spec, params + [f"{dname}={a1 * a2}"], model="code")
        mech = dense_mechanism(a, (a1, a2))
        for _ in range(3):
            P = _random_P(rng, a1, a2)
            dense = audit(mech, 1, distribution=P)
            rho = dense.ratio_lower
            for eps in ("0.1", "log(" + str(rho) + ")", "3"):
                d = audit(mech, eps, distribution=P)
                s = audit_adapted(a, eps, distribution=P)
                assert (s.ratio_lower, s.ratio_upper, s.verdict) == (rho, rho, d.verdict), (spec, P, eps)
                assert s.uncertainty == d.uncertainty and s.witness == tuple(tuple(r) for r in P)


def test_audit_structured_distribution_fail_is_explained_and_sizes_checked():
    from rldp_verify.adapters import adapt_spec, audit_adapted

    a = adapt_spec("pure-ldp:UEClient", ["epsilon=1", "d=4"], model="code")
    P = [[Fraction(1, 4), Fraction(1, 4)], [Fraction(1, 2), 0]]
    r = audit_adapted(a, 1, distribution=P)
    assert r.verdict == "FAIL" and r.excess is not None and r.excess > Fraction(1, 2)
    assert "not float64 rounding" in r.notes[0]
    assert r.to_json()["excess"] == "0.681"
    with pytest.raises(InputError, match=r"sizes = \(4, 1\) but the distribution is 2 x 2"):
        audit_adapted(a, 1, distribution=P, sizes=(4, 1))
    lh = adapt_spec("pure-ldp:LHClient", ["epsilon=1", "d=4", "g=2"], model="code")
    with pytest.raises(InputError, match="use p_interval"):
        p_audit(lh.structure, P, (2, 2))


# ------------------------------------------------------------------------------------------ local hashing


def _lh_case(seed):
    rng = random.Random(seed)
    a1, a2 = rng.randint(2, 3), rng.randint(2, 5)
    P = _random_P(rng, a1, a2)
    if sum(P[0]) == 0 or sum(map(sum, P[1:])) == 0:                    # two secrets with mass: a real pair
        P = [[Fraction(1, a1 * a2)] * a2 for _ in range(a1)]
    return P, a1, a2


LH = [("pure-ldp:LHClient", ["epsilon=1", "g=2"], "d"), ("pure-ldp:LHClient", ["epsilon=2", "use_olh=true"], "d"),
      ("pure-ldp:FastLHClient", ["epsilon=1", "k=5", "g=3"], "d"), ("multi-freq-ldpy:LH_Client", ["epsilon=1"], "k")]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("spec, params, dname", LH)
def test_local_hashing_interval_against_the_dense_route(seed, spec, params, dname):
    """Local hashing (eps, P): the lower end is the dense (eps, P) audit of the mixture over the searched seeds
    (exact: each has positive probability), the upper end max(a/b, b/a); FastLHClient's k = 5 seeds are the
    whole range, so there lower == upper == the dense audit of the whole channel."""
    from rldp_verify.adapters import adapt_spec, audit_adapted, dense_mechanism
    from rldp_verify.structured.rldp import p_interval

    P, a1, a2 = _lh_case(seed)
    a = adapt_spec(spec, params + [f"{dname}={a1 * a2}"], model="code")
    lo, hi, wit = p_interval(a.structure, P, (a1, a2))
    dense = audit(dense_mechanism(a, (a1, a2)), 1, distribution=P).ratio_lower
    st = a.structure
    assert lo == dense and hi == (lo if st.complete else max(st.a / st.b, st.b / st.a)), (lo, hi, dense)
    res = audit_adapted(a, "log(" + str(hi) + ")", distribution=P)
    assert res.verdict == "PASS" and (res.ratio_lower, res.ratio_upper) == (lo, hi)
    if lo > 1:
        assert audit_adapted(a, 0, distribution=P).verdict == "FAIL"
    if lo < hi:
        mid = audit_adapted(a, "log(" + str((lo + hi) / 2) + ")", distribution=P)
        assert mid.verdict == "INCONCLUSIVE" and any("searched seeds" in n for n in mid.notes)


def test_local_hashing_wrong_variant_is_rejected():
    """The joint P(s, u) in place of the conditional P(u | s) in the bucket masses disagrees with the dense route."""
    from rldp_verify.adapters import adapt_spec, dense_mechanism

    wrong = 0
    for seed in range(6):
        P, a1, a2 = _lh_case(seed)
        st = adapt_spec("pure-ldp:LHClient", ["epsilon=1", "g=2", f"d={a1 * a2}"], model="code").structure
        dense = audit(dense_mechanism(adapt_spec("pure-ldp:LHClient", ["epsilon=1", "g=2", f"d={a1 * a2}"]),
                                      (a1, a2)), 1, distribution=P).ratio_lower
        best = Fraction(1)
        for h in st.seeds:
            for v in range(st.g):
                f = [st.b + (st.a - st.b) * sum(c for u, c in enumerate(r) if st.hash_fn(s * a2 + u, h) == v)
                     for s, r in enumerate(P) if sum(r) > 0]
                best = max(best, max(f) / min(f))
        wrong += best != dense
    assert wrong >= 3, wrong


# ------------------------------------------------------------------------------------------------ CLI


def _cli(capsys, argv):
    rc = main(argv)
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def test_cli_distribution_structured_equals_dense(capsys, tmp_path):
    """--adapter ... --distribution: the structured route (no --certificate) and the dense route (--certificate
    forces it; --sizes) print the same verdict and ratio; the structured route needs no --sizes and scales."""
    base = ["audit", "--adapter", "multi-freq-ldpy:GRR_Client", "--param", "k=6", "--param", "epsilon=1",
            "--eps", "0.5", "--distribution", "0.1,0.2,0;0.3,0,0.4", "--json"]
    rc, out, _ = _cli(capsys, base)
    s = json.loads(out)
    rc2, out2, err2 = _cli(capsys, base + ["--sizes", "2,3", "--certificate", str(tmp_path / "c.json")])
    d = json.loads(out2)
    assert rc == rc2 == 1 and "re-checked" in err2
    for key in ("verdict", "ratio_lower", "ratio_upper", "eps_realised", "uncertainty", "witness"):
        assert s[key] == d[key], key
    assert s["structure"].startswith("k-ary randomized response") and s["excess"] is not None
    row = ",".join(["0"] * 63)
    big = ";".join(["0.5," + row] * 2 + ["0," + row] * 62)                     # 64 x 64, d = 4096
    rc, out, _ = _cli(capsys, ["audit", "--adapter", "pure-ldp:UEClient", "--param", "d=4096", "--param",
                               "epsilon=1", "--param", "use_oue=true", "--eps", "1", "--distribution", big, "--json"])
    o = json.loads(out)
    assert o["uncertainty"].startswith("F = {P}") and o["structure"].startswith("product of d")
    assert rc == {"PASS": 0, "FAIL": 1}[o["verdict"]]


@pytest.mark.parametrize("argv, msg", [
    (["--adapter", "pure-ldp:LHClient", "--param", "d=4", "--param", "g=2", "--param", "epsilon=1",
      "--sizes", "2,2", "--full-simplex"], "local hashing)): this uncertainty set is not audited exactly"),
    (["--adapter", "pure-ldp:UEClient", "--param", "d=4", "--param", "epsilon=1", "--phat", "1,1;1,1", "--alpha",
      "2", "--radius", "0.1", "--tolerance", "0.1"], "--tolerance applies to --ldp and --distribution"),
    (["--adapter", "pure-ldp:UEClient", "--param", "d=4", "--param", "epsilon=1", "--ldp",
      "--distribution", "0.1,0.4;0.5,0"], "choose exactly one of"),
    (["--adapter", "pure-ldp:UEClient", "--param", "d=4", "--param", "epsilon=1",
      "--distribution", "0.1,0.4;0.5,0.1"], "distribution sums to"),
])
def test_cli_refusals_one_line_exit_2(capsys, argv, msg):
    rc, out, err = _cli(capsys, ["audit", "--eps", "1"] + argv)
    assert rc == 2 and out == "" and msg in err and len(err.strip().splitlines()) == 1, err


def test_cli_fast_lh_complete_seed_range_uses_the_dense_route(capsys):
    """FastLHClient with k <= 64 seeds: the dense form is the whole mixture, so (eps, P) is exact there."""
    rc, out, err = _cli(capsys, ["audit", "--adapter", "pure-ldp:FastLHClient", "--param", "epsilon=1", "--param",
                                 "d=4", "--param", "k=4", "--param", "use_olh=true", "--sizes", "2,2", "--eps", "3",
                                 "--distribution", "0.1,0.4;0.5,0", "--json"])
    assert rc == 0, err
    assert json.loads(out)["uncertainty"].startswith("F = {P}")


def test_cli_local_hashing_distribution_interval(capsys):
    """pure-ldp's LHClient over its seed range: an interval (lower from the searched seeds), INCONCLUSIVE (exit 3)
    between its ends, PASS at the upper end; the text output says which end is which."""
    P = ";".join([",".join(["0.015625"] * 32)] * 2)          # uniform on 2 x 32: no bucket takes a whole row
    argv = ["audit", "--adapter", "pure-ldp:LHClient", "--param", "d=64", "--param", "epsilon=1", "--param",
            "use_olh=true", "--distribution", P]
    rc, out, _ = _cli(capsys, argv + ["--eps", "1.01", "--json"])
    o = json.loads(out)
    assert rc == 0 and o["verdict"] == "PASS" and o["ratio_lower"] < o["ratio_upper"]
    rc, out, _ = _cli(capsys, argv + ["--eps", "0.3"])
    assert rc == 3 and "lower: attained at a searched output; upper: certified" in out


# ------------------------------------------------------------------------------------- Rényi ball (eps, F)

BALLS = [((2, 2), "3,1;2,2", 2, "0.05"), ((2, 2), "1,0;0,0", 2, "0.1"), ((3, 1), "1;1;0", "0.5", "0.2"),
         ((2, 3), "1,1,1;0,0,0", 3, "0.01"), ((1, 4), "1,2,3,4", 2, "0.1")]


@pytest.mark.parametrize("params", [["epsilon=1"], ["epsilon=1", "use_oue=true"]])
@pytest.mark.parametrize("sizes, phat, alpha, radius", BALLS)
def test_unary_renyi_ball_is_the_dense_route(params, sizes, phat, alpha, radius):
    """A unary encoding over a Rényi ball: the structured audit's interval, verdict and uncertainty equal the
    dense audit's (exact h_max/h_min when P^ gives two secrets mass; lower end open with one; 1 when |S| = 1)."""
    from rldp_verify.adapters import adapt_spec, dense_mechanism
    from rldp_verify.rldp.uncertainty import RenyiBall, read_table
    from rldp_verify.structured import audit_structured

    a1, a2 = sizes
    a = adapt_spec("pure-ldp:UEClient", params + [f"d={a1 * a2}"], model="code")
    ball = RenyiBall.from_radius(read_table(phat), Fraction(str(alpha)), Fraction(radius))
    for eps in ("1", "2"):
        d = audit(dense_mechanism(a, sizes), eps, phat=phat, alpha=alpha, radius=radius, time_limit=60)
        s = audit_structured(a, eps, ball=ball)
        assert (s.ratio_lower, s.ratio_upper, s.verdict) == (d.ratio_lower, d.ratio_upper, d.verdict)
        assert s.uncertainty == d.uncertainty


def test_renyi_ball_wrong_variant_and_refusals(capsys):
    """Reading F as {P^} (ratio 1 when P^ gives one secret mass) would PASS what the dense audit cannot: its
    upper end is h_max/h_min > e^1 there. GRR over a ball at k = 4096 is structured now (tests/adapters/
    test_structured_ball.py); a structure without a ball route (the ideal Laplace histogram) is refused."""
    from rldp_verify.adapters import adapt_spec, dense_mechanism

    a = adapt_spec("pure-ldp:UEClient", ["epsilon=1", "d=4"], model="code")
    d = audit(dense_mechanism(a, (2, 2)), 1, phat="1,0;0,0", alpha=2, radius="0.1", time_limit=60)
    assert d.verdict != "PASS" and d.ratio_upper > 2
    table = ";".join([",".join(["1"] * 64)] * 64)
    rc, out, err = _cli(capsys, ["audit", "--adapter", "multi-freq-ldpy:GRR_Client", "--param", "k=4096", "--param",
                                 "epsilon=1", "--phat", table, "--alpha", "2", "--radius", "0.1", "--eps", "1"])
    assert rc == 0 and "certified interval of the (eps, F)-RLDP ratio for the Rényi ball" in out, err
    from rldp_verify.rldp.uncertainty import RenyiBall, read_table
    from rldp_verify.structured import audit_structured

    g = adapt_spec("multi-freq-ldpy:HE_Client", ["epsilon=1", "k=4"], model="code")   # e^(2/b) = e for any F
    res = audit_structured(g, 1, ball=RenyiBall.from_radius(read_table("1,1;1,1"), Fraction(2), Fraction(1, 10)))
    assert res.verdict == "PASS" and Fraction(2718281828, 10**9) < res.ratio_lower < res.ratio_upper < Fraction(
        2718281829, 10**9)


def test_cli_unary_renyi_ball_at_d_4096(capsys):
    """OUE at d = 4096 = 64 x 64 over Theorem 1's ball: exact, no dense channel (2^4096 outputs)."""
    table = ";".join([",".join(["1"] * 64)] * 64)
    rc, out, err = _cli(capsys, ["audit", "--adapter", "pure-ldp:UEClient", "--param", "d=4096", "--param",
                                 "epsilon=1", "--param", "use_oue=true", "--phat", table, "--alpha", "2",
                                 "--confidence", "0.95", "--samples", "100000", "--eps", "1", "--json"])
    o = json.loads(out)
    assert rc == 1 and o["verdict"] == "FAIL" and o["uncertainty"].startswith("Rényi ball alpha = 2")
    assert o["eps_realised"][0].startswith("1.5514447139320511")          # ln(e + 2): pure-ldp 1.1.2's OUE bug


# ------------------------------------------------------------------------------------- RS+FD (eps, P)

def _rsfd_instance(seed):
    import math

    rng = random.Random(seed)
    lst = [rng.randint(2, 3) for _ in range(rng.randint(2, 3))]
    spec = ["multi-freq-ldpy:RSpFD_GRR_Client", "multi-freq-ldpy:RSpFD_UE_zero_Client"][seed % 2]
    if seed % 2:
        lst = lst[:2]                          # UE outputs: 2^(sum k_j) of them in the dense channel
    r = rng.randint(1, len(lst) - 1)
    sizes = (math.prod(lst[:r]), math.prod(lst[r:]))
    return spec, lst, sizes, _random_P(rng, *sizes)


@pytest.mark.parametrize("seed", range(12))
def test_rsfd_p_audit_is_the_dense_route(seed):
    """RS+FD (GRR, UE with zero-vector fake data) with S = the first attributes: the ratio of sums per pair of
    secrets equals eq. (62) on the dense channel, exactly."""
    from rldp_verify.adapters import adapt_spec, dense_mechanism

    spec, lst, sizes, P = _rsfd_instance(seed)
    a = adapt_spec(spec, [f"lst_k={','.join(map(str, lst))}", "epsilon=1"], model="code")
    d = audit(dense_mechanism(a, sizes), 1, distribution=P)
    assert d.ratio_lower == d.ratio_upper == p_ratio(a.structure, P, sizes), (spec, lst, sizes, P)


def test_rsfd_wrong_variant_and_refusals(monkeypatch):
    """Reading U's tuples with the last attribute most significant (a wrong S x U mapping) breaks the equality;
    a split that is not a prefix of the attributes is refused (random fake data: tests/adapters/test_rsfd_random.py)."""
    from rldp_verify.adapters import adapt_spec, dense_mechanism
    from rldp_verify.structured import rsfd

    sizes = (2, 6)                              # lst_k = 2, 2, 3: S = attribute 0, U = attributes 1, 2
    a = adapt_spec("multi-freq-ldpy:RSpFD_GRR_Client", ["lst_k=2,2,3", "epsilon=1"], model="code")
    P = [[Fraction(1, 4), 0, 0, 0, 0, Fraction(1, 4)], [0, Fraction(1, 2), 0, 0, 0, 0]]
    d = audit(dense_mechanism(a, sizes), 1, distribution=P)
    assert p_ratio(a.structure, P, sizes) == d.ratio_lower
    rng = random.Random(3)
    tables = [_random_P(rng, *sizes) for _ in range(6)]
    dense = [audit(dense_mechanism(a, sizes), 1, distribution=T).ratio_lower for T in tables]
    assert [p_ratio(a.structure, T, sizes) for T in tables] == dense
    real = rsfd._marginals
    monkeypatch.setattr(rsfd, "_marginals", lambda row, ks, r, s: real(row, ks[:r] + ks[r:][::-1], r, s)[:r]
                        + real(row, ks[:r] + ks[r:][::-1], r, s)[r:][::-1])
    assert [p_ratio(a.structure, T, sizes) for T in tables] != dense
    monkeypatch.undo()
    with pytest.raises(InputError, match="is not a split into the first attributes"):
        p_ratio(a.structure, [[Fraction(1, 12)] * 4] * 3, (3, 4))


def test_cli_rsfd_distribution(capsys):
    rc, out, err = _cli(capsys, ["audit", "--adapter", "multi-freq-ldpy:RSpFD_GRR_Client", "--param", "lst_k=2,3",
                                 "--param", "epsilon=1", "--eps", "1", "--distribution",
                                 "0.1,0.2,0;0.3,0,0.4", "--json"])
    o = json.loads(out)
    assert o["uncertainty"].startswith("F = {P}") and o["structure"].startswith("RS+FD"), err
    assert rc == {"PASS": 0, "FAIL": 1}[o["verdict"]]
    with pytest.raises(SystemExit):
        main(["audit", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "RS+FD" in out and "S = the first attributes" in out
