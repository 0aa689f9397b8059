"""Issue 23: local hashing (``seeded-grr`` {g, a, b}) on a Rényi ball. The checker's upper end max(a/b, b/a) holds
for every P (each P(y|s) is a convex combination of the entries w_h a, w_h b of row y); the lower end is the exact
ratio, at the output (seed, bucket) of the ``p_witness``, of the witness P that the checker re-checks in the ball.
Accepted: PASS and FAIL of a hash reproduced as xxh32 (witness written), a PASS of any other hash (upper end only),
through ``rldp-verify audit --phat ... --certificate``. Rejected: an upper end below max(a/b, b/a) (and the builder
variant writing a/b only, for a < b), a witness just outside the ball, a witness whose ratio is below the printed
lower end, a channel that is not local hashing presented as ``seeded-grr``; refused (one line): a FAIL without a
reproduced hash, and a PASS whose upper end is below max(a/b, b/a) (complete seed range: it rests on the hash)."""

from __future__ import annotations

import copy
import json
from fractions import Fraction as F

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.audit import structured_certificate
from rldp_verify.core.errors import InputError
from rldp_verify.rldp.uncertainty import RenyiBall
from rldp_verify.structured.audit import Adapted, audit_structured
from rldp_verify.structured.channels import PublicMixture

xxhash = pytest.importorskip("xxhash")

PHAT = [[F(v, 40) for v in r] for r in ([1, 2, 3, 4, 1, 2, 3, 4], [4, 3, 2, 1, 4, 3, 2, 1])]


def _xxh(g):
    return lambda x, s: xxhash.xxh32(str(x).encode("utf-8"), seed=s & 0xFFFFFFFF).intdigest() % g


def _lh(a=F(1, 2), g=4, hash_fn=None, seeds=range(3), complete=False):
    b = (1 - a) / (g - 1)
    return PublicMixture(16, g, a, b, separating=lambda x, xp: 0, hash_fn=hash_fn or _xxh(g), seeds=seeds,
                         complete=complete)


def _cert(st, eps, radius=F(1, 10)):
    model = Adapted(st, "LH test", "exact")
    res = audit_structured(model, eps, ball=RenyiBall.from_radius(PHAT, 2, radius))
    return res, structured_certificate(res, model, eps)


def test_lh_ball_certificates_accepted():
    """PASS (log 3 = log(a/b)) and FAIL (log 2) of OLH (g = 4, a = 1/2, three xxh32 seeds) on the ball: the witness P
    is re-checked in F and its exact ratio at the witness output is the printed lower end; the upper end is 3."""
    for eps, verdict in (("log(3)", "PASS"), ("log(2)", "FAIL")):
        res, cert = _cert(_lh(), eps)
        st, data = cert["statement"], cert["data"]
        assert str(res.verdict) == verdict and st["set"]["type"] == "renyi-ball" and F(st["ratio_upper"]) == 3
        assert "p_witness" in data and data["witness"] is not None and 2 < F(st["ratio_lower"]) < 3
        chk = recheck(cert)
        assert chk.ok and chk.message.startswith(f"{verdict}: ratio in [2.") and "ball witness" in chk.message, chk


def test_lh_ball_other_hash_upper_end_only():
    """A hash that is not xxh32: the PASS is certified from g, a, b alone (no lower end); its FAIL is refused."""
    st = _lh(hash_fn=lambda x, s: (x + s * x) % 4)
    res, cert = _cert(st, "log(3)")
    assert cert["statement"]["ratio_lower"] is None and "p_witness" not in cert["data"] and recheck(cert).ok
    with pytest.raises(InputError, match=r"^no certificate for the FAIL .* on a Rényi ball: its lower end rests"):
        _cert(st, "1/10")


def test_lh_ball_complete_range_below_top_refused():
    """A complete seed range whose exact upper end is below max(a/b, b/a): the PASS is refused, naming both ends."""
    st = _lh(hash_fn=lambda x, s: (x + s) % 4, seeds=range(4), complete=True)
    res = audit_structured(Adapted(st, "LH test", "exact"), "log(3)", ball=RenyiBall.from_radius(PHAT, 2, F(1, 10)))
    assert str(res.verdict) == "PASS" and res.ratio_upper < 3
    with pytest.raises(InputError, match=r"its upper end [0-9.]+ < max\(a/b, b/a\) = 3 is Theorem 1's decoupled bound "
                                         r"over all 4 seeds"):
        structured_certificate(res, Adapted(st, "LH test", "exact"), "log(3)")


def _just_outside(phat, alpha, radius):
    """W = (1 - t) P^ + t e_00 with D_alpha(P^||W) just above the radius (float bisection, then t + 10^-9)."""
    import math

    a, B = float(alpha), float(radius)

    def W(t):
        return [[(1 - t) * v + (t if (i, j) == (0, 0) else 0) for j, v in enumerate(r)] for i, r in enumerate(phat)]

    def D(t):
        s = sum(float(h) ** a * float(w) ** (1 - a) for rh, rw in zip(phat, W(F(t)), strict=True)
                for h, w in zip(rh, rw, strict=True) if h)
        return math.log(s) / (a - 1)
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if D(mid) <= B else (lo, mid)
    return W(F(hi) + F(1, 10**9)), W(F(lo))


@pytest.mark.parametrize("change", ["upper", "upper-a-over-b", "witness-outside", "witness-ratio", "bucket",
                                    "not-a-channel", "one-bucket"])
def test_wrong_lh_ball_certificate_rejected(change):
    a = F(1, 10) if change == "upper-a-over-b" else F(1, 2)
    res, cert = _cert(_lh(a=a), "log(3)" if a > F(1, 4) else "log(4)")
    assert recheck(cert).ok
    bad = copy.deepcopy(cert)
    st, data, g = bad["statement"], bad["data"], bad["statement"]["seeded-grr"]
    if change == "upper":                          # one part in 10^12 below max(a/b, b/a) = 3
        st["ratio_upper"], why = str(3 - F(1, 10**12)), "below the certified bound"
    elif change == "upper-a-over-b":              # the builder's U as a/b only: for a < b it is 1/3, not b/a = 3
        assert F(st["ratio_upper"]) == F(g["b"]) / F(g["a"]) == 3
        st["ratio_upper"], why = str(F(g["a"]) / F(g["b"])), "below the certified bound"
    elif change == "witness-outside":
        out, inside = _just_outside(PHAT, 2, F(1, 10))
        assert recheck({**cert, "data": {**data, "witness": [[str(v) for v in r] for r in inside]}}).message.find(
            "not certainly in F") < 0
        data["witness"], why = [[str(v) for v in r] for r in out], "not certainly in F"
    elif change == "witness-ratio":                # the printed lower end just above the witness's exact ratio
        st["ratio_lower"], why = str(F(st["ratio_lower"]) + F(1, 10**15)), "not attained by a witness"
    elif change == "bucket":                       # a bucket of the witness secret's cell moved off the output
        w = data["p_witness"]
        u = w["buckets"][0].index(w["y"])
        w["buckets"][0][u], why = (w["y"] + 1) % 4, "not attained by a witness"
    elif change == "not-a-channel":                # a + (g - 1) b = 1 fails: not GRR on the buckets
        g["b"], why = str(F(g["b"]) + F(1, 100)), "a + (g-1) b = 1"
    else:                                          # g = 1: no local hashing
        g.update(g=1, a="1", b="0")
        why = "g >= 2"
    chk = recheck(bad)
    assert not chk.ok and why in chk.message, chk.message


def test_lh_channel_without_p_witness_on_a_ball_needs_no_lower_end():
    """Without p_witness the statement is upper-end only: a printed lower end is rejected (no witness attains it)."""
    _, cert = _cert(_lh(), "log(3)")
    bad = copy.deepcopy(cert)
    del bad["data"]["p_witness"]
    chk = recheck(bad)
    assert not chk.ok and "not attained by a witness" in chk.message, chk.message
    bad["statement"]["ratio_lower"] = None
    assert recheck(bad).ok


_FAST = ["pure-ldp:FastLHClient", "--param", "epsilon=1", "--param", "d=16", "--param", "k=4", "--param", "use_olh=true",
         "--sizes", "2,8", "--phat", "1,1,1,1,1,1,1,1;1,1,1,1,1,1,1,1", "--eps", "3"]


@pytest.mark.parametrize(("module", "argv", "verdict", "form"), [
    ("multi_freq_ldpy", ["multi-freq-ldpy:LH_Client", "--param", "k=16", "--param", "epsilon=1", "--phat",
                         "1,2,3,4,1,2,3,4;4,3,2,1,4,3,2,1", "--eps", "1.01"], "PASS", "seeded-grr"),
    pytest.param("pure_ldp", ["pure-ldp:LHClient", "--param", "d=4", "--param", "epsilon=1", "--sizes", "2,2", "--phat",
                              "1,1;1,1", "--eps", "1/10"], "FAIL", "seeded-grr", marks=pytest.mark.slow),  # 4 s: import
    pytest.param("pure_ldp", _FAST, "PASS", "Q", marks=pytest.mark.slow)])
def test_cli_lh_ball_certificate(tmp_path, capsys, module, argv, verdict, form):
    """``rldp-verify audit --adapter ... --phat ... --certificate FILE`` of local hashing (multi-freq-ldpy's OLH,
    pure-ldp's LH) writes a certificate (before: refused, the dense route) that ``check-certificates`` re-checks; a
    complete seed range (FastLH, k = 4 seeds: exact upper end 2.03 < max(a/b, b/a) = e, which the structured form
    cannot certify) keeps the dense route and its dense certificate."""
    pytest.importorskip(module)
    from rldp_verify.cli import main

    path = tmp_path / "lh-ball.json"
    rc = main(["audit", "--adapter", *argv, "--alpha", "2", "--radius", "0.05", "--json", "--certificate", str(path)])
    out = capsys.readouterr()
    assert rc == {"PASS": 0, "FAIL": 1}[verdict] and "re-checked" in out.err and json.loads(out.out)["verdict"] == verdict
    doc = json.loads(path.read_text())
    assert form in doc["statement"] and doc["statement"]["set"]["type"] == "renyi-ball"
    assert main(["check-certificates", str(path)]) == 0


@pytest.mark.parametrize(("mid", "name", "why"), [
    ("certificate.seeded-grr-ball-upper-at-witness", "structured-OLH ball", "below the certified bound 3"),
    ("certificate.seed-table-hashes-u-only", "structured-OLH complete", "not attained by a witness")])
def test_catalogue_mutant_rejected(mid, name, why):
    """mutation/catalogue.py ``certificate.seeded-grr-ball-upper-at-witness`` (the engine's ball upper end lowered to
    the witness's ratio) and ``certificate.seed-table-hashes-u-only`` (the seed table at the public index u alone),
    applied as the mutation runner applies them: the certificate of rldp.audit.structured-p-and-ball's route is
    accepted on the unmutated engine and rejected by the checker under the mutant."""
    from mutation.catalogue import MODULES, MUTANTS
    from proofs.rldp.audit_certificate_structured import check_structured_p_and_ball
    from rldp_verify.claims.mutants import apply, revert

    class Ctx:
        dps = 30

    def docs():
        fn = getattr(check_structured_p_and_ball, "__wrapped__", check_structured_p_and_ball)
        return {d["name"]: d for d in fn(Ctx()).evidence["certificates"]}

    good = docs()[name]
    assert recheck(good).ok and "seeded-grr" in good["statement"]
    (m,) = [m for m in MUTANTS if m.id == mid]
    done = apply(m, MODULES)
    try:
        bad = docs()[name]
    finally:
        revert(done)
    chk = recheck(bad)
    assert not chk.ok and why in chk.message, chk.message


def _p_cert(st, eps):
    model = Adapted(st, "LH test", "exact")
    res = audit_structured(model, eps, distribution=PHAT)
    return res, structured_certificate(res, model, eps)


@pytest.mark.parametrize("hash_fn", [None, lambda x, s: (x * (s + 1) + s) % 4])
def test_seed_table_certifies_complete_range_under_p(hash_fn):
    """Item 2: over a complete seed range (four seeds) the (eps, P) ratio is exact and below max(a/b, b/a) = 3; the
    ``seed_table`` (every input's bucket at every seed) lets the checker recompute it: PASS and FAIL accepted, the
    ratio the dense audit's (rldp_verify.rldp.audit on the whole mixture's matrix); xxh32 named when reproduced (its
    FAIL then carries the witness output's p_witness instead)."""
    from rldp_verify.rldp.audit import audit
    from rldp_verify.rldp.mechio import Mechanism

    st = _lh(hash_fn=hash_fn, seeds=range(4), complete=True)
    rows, _ = st.dense()
    ref = audit(Mechanism.from_matrix(rows, ["s1", "s2"], [f"u{i}" for i in range(8)]), "1", distribution=PHAT)
    for eps, verdict in (("log(3)", "PASS"), ("1/10", "FAIL")):
        res, cert = _p_cert(st, eps)
        assert str(res.verdict) == verdict and res.ratio_lower == res.ratio_upper == ref.ratio_upper < 3
        chk = recheck(cert)
        assert chk.ok and chk.message.startswith(f"{verdict}: ratio in ["), chk.message
        if verdict == "FAIL" and hash_fn is None:  # xxh32: the witness output's buckets suffice (p_witness)
            assert "p_witness" in cert["data"]
            continue
        tab = cert["data"]["seed_table"]
        assert len(tab["buckets"]) == 4 and ("xxh32" in tab["hash"]) == (hash_fn is None)
        assert "seed table of 4 seeds" in chk.message
        for k in range(1, 4):                      # the seeds' order is irrelevant: every rotation is accepted
            rot = copy.deepcopy(cert)
            rot["data"]["seed_table"].update(seeds=tab["seeds"][k:] + tab["seeds"][:k],
                                             buckets=tab["buckets"][k:] + tab["buckets"][:k])
            assert recheck(rot).ok


@pytest.mark.parametrize("change", ["upper", "bucket", "seed-dropped", "bucket-range", "ball"])
def test_wrong_seed_table_rejected(change):
    res, cert = _p_cert(_lh(seeds=range(4), complete=True), "log(3)")
    bad = copy.deepcopy(cert)
    st, tab = bad["statement"], bad["data"]["seed_table"]
    if change == "upper":                          # 10^-12 below the exact ratio
        st["ratio_upper"], why = str(res.ratio_upper - F(1, 10**12)), "below the certified bound"
    elif change == "bucket":                       # every input in bucket 0 at every seed: ratio 1 < the printed lower
        tab["buckets"], why = [[0] * 16 for _ in tab["buckets"]], "not attained by a witness"
    elif change == "seed-dropped":
        tab["buckets"], why = tab["buckets"][1:], "a seed table needs"
    elif change == "bucket-range":
        tab["buckets"][0][3], why = 4, "a seed table needs"
    else:                                          # a seed table is an (eps, P) form
        st["set"] = {"type": "renyi-ball", "phat": st["set"]["P"], "alpha": "2", "radius": "1/10"}
        why = "a seed table needs"
    chk = recheck(bad)
    assert not chk.ok and why in chk.message, chk.message
