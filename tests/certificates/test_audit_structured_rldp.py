"""Issue 23: certificates of the structured (eps, P)-RLDP audits (GRR, unary encodings, subset selection, local
hashing; :func:`rldp_verify.structured.rldp.p_interval`) and of the Rényi-ball audit of unary encodings
(:func:`rldp_verify.structured.audit._audit_ball`), written without the channel's outputs and re-derived by
:mod:`rldp_verify_check.audit` from Definition 3's ratio: accepted, equal to the checker's own dense route where the
dense matrix is small, and wrong twins (an upper end rounded down, a perturbed P or P-hat, a witness just outside the
ball, a dropped bit or subset element) rejected."""

from __future__ import annotations

import copy
import json
import random
from fractions import Fraction as F

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.audit import structured_certificate
from rldp_verify.core.errors import InputError
from rldp_verify.rldp.uncertainty import RenyiBall
from rldp_verify.structured.audit import Adapted, audit_structured
from rldp_verify.structured.channels import BitChannel, PublicMixture, SubsetSelection, Symmetric, UnaryProduct

P23 = [[F(1, 10), F(2, 10), F(1, 20)], [F(3, 10), F(1, 20), F(3, 10)]]          # |S| = 2, |U| = 3


def _p_cert(st, eps, P=P23):
    model = Adapted(st, "test channel", "exact")
    res = audit_structured(model, eps, distribution=P)
    return res, structured_certificate(res, model, eps)


def _ball_cert(st, eps, phat=P23, alpha="3/2", radius="1/10"):
    model = Adapted(st, "test channel", "exact")
    res = audit_structured(model, eps, ball=RenyiBall.from_radius(phat, alpha, radius))
    return res, structured_certificate(res, model, eps)


def _random_P(rng, a1, a2, zero_row=False):
    w = [[rng.randint(0 if zero_row else 1, 9) for _ in range(a2)] for _ in range(a1)]
    if zero_row:
        w[rng.randrange(a1)] = [0] * a2
        w[0] = [v + 1 for v in w[0]] if not any(w[0]) and a1 == 1 else w[0]
    tot = sum(map(sum, w))
    return [[F(v, tot) for v in r] for r in w]


def _dense_twin(cert, st):
    """The same statement with the channel's dense matrix Q (the checker's rho_of route)."""
    rows, _ = st.dense()
    dense = copy.deepcopy(cert)
    for key in ("unary", "subsets", "seeded-grr"):
        dense["statement"].pop(key, None)
    dense["statement"]["Q"] = [[str(v) for v in r] for r in rows]
    dense["data"] = {"witness": None}
    return dense


def _structures(k):
    return [Symmetric(k, F(1, 2), F(1, 2 * (k - 1))), Symmetric(k, F(1, 20), F(19, 20 * (k - 1))),
            SubsetSelection(k, 2, F(3, 5)), SubsetSelection(k, k - 2, F(1, 7)), SubsetSelection(k, 1, F(1, 20)),
            UnaryProduct(k, BitChannel(F(1, 2), F(1, 4))), UnaryProduct(k, BitChannel(F(1, 5), F(2, 3)))]


@pytest.mark.parametrize("sizes", [(2, 2), (2, 3), (3, 2), (4, 1)])
def test_p_certificates_agree_with_the_dense_route(sizes):
    """For random P (some with a secret of mass 0), the structured certificate is accepted, its verdict is the
    audit's, and the checker's ratio is the one it derives from the dense matrix (rho_of, Definition 3)."""
    rng = random.Random(23 + sizes[0] * 10 + sizes[1])
    k = sizes[0] * sizes[1]
    for trial in range(4):
        P = _random_P(rng, *sizes, zero_row=trial == 3 and sizes[0] > 2)
        for st in _structures(k):
            res, cert = _p_cert(st, "log(2)", P)
            a, b = recheck(cert), recheck(_dense_twin(cert, st))
            assert a.ok and b.ok, (st, P, a.message, b.message)
            assert a.message.split(" (")[0] == b.message.split(" (")[0], (st, P, a.message, b.message)
            assert a.message.startswith(str(res.verdict)), a.message
            assert "Q" not in cert["statement"]


def test_local_hashing_p_pass_upper_end_only():
    lh = PublicMixture(6, 4, F(1, 2), F(1, 6), separating=lambda x, xp: 1, hash_fn=lambda x, s: (x + s) % 4,
                       seeds=range(3))
    res, cert = _p_cert(lh, "log(3)")
    chk = recheck(cert)
    assert res.verdict == "PASS" and chk.ok and chk.message.startswith("PASS: ratio in [None, 3]"), chk.message
    assert cert["statement"]["ratio_lower"] is None and cert["statement"]["set"]["type"] == "distribution"
    bad = copy.deepcopy(cert)                           # a below max(a/b, b/a): the printed upper end is too low
    b = F(1, 6) - F(1, 10**12)
    bad["statement"]["seeded-grr"].update({"a": str(1 - 3 * b), "b": str(b)})
    assert "below the certified bound" in recheck(bad).message
    bad = copy.deepcopy(cert)                           # the stated P is not a distribution
    bad["statement"]["set"]["P"][0][0] = "1/2"
    assert "not a probability distribution" in recheck(bad).message
    with pytest.raises(InputError, match="library's hash"):
        _p_cert(lh, "1/2")                              # a FAIL needs the hash


@pytest.mark.parametrize("change", ["upper", "P", "Y-dropped", "Y-other", "s-equal", "m"])
def test_wrong_subsets_p_certificate_rejected(change):
    """Subset selection (m = 2 of 6) under P: beside the accepted certificate, each wrong twin is rejected."""
    res, cert = _p_cert(SubsetSelection(6, 2, F(3, 5)), "log(3)")
    assert recheck(cert).ok and res.verdict == "PASS" and cert["data"]["output"]["Y"]
    bad = copy.deepcopy(cert)
    st, out = bad["statement"], bad["data"]["output"]
    if change == "upper":
        st["ratio_upper"] = str(F(st["ratio_upper"]) - F(1, 10**20))
        msg = "below the certified bound"
    elif change == "P":                                 # mass moved within secret 0: its heaviest cell gets heavier
        Pt = st["set"]["P"]
        Pt[0][1], Pt[0][2] = str(F(Pt[0][1]) + F(1, 20)), str(F(Pt[0][2]) - F(1, 20))
        msg = "below the certified bound"
    elif change == "Y-dropped":
        out["Y"] = out["Y"][:-1]
        msg = "m distinct inputs"
    elif change == "Y-other":                           # a valid output, but not the worst one
        out["Y"] = [x for x in range(6) if x not in out["Y"]][:2]
        msg = "not attained by a witness"
    elif change == "s-equal":
        out["s_prime"] = out["s"]
        msg = "s != s'"
    else:                                               # the subset size changed: the witness no longer fits
        st["subsets"]["m"] = 1
        msg = "m distinct inputs"
    chk = recheck(bad)
    assert not chk.ok and msg in chk.message, chk.message


def test_grr_p_certificate_and_a_perturbed_a():
    res, cert = _p_cert(Symmetric(6, F(1, 2), F(1, 10)), "2")
    assert recheck(cert).ok and cert["statement"]["subsets"] == {"m": 1, "p": "1/2"}
    assert len(cert["data"]["output"]["Y"]) == 1
    bad = copy.deepcopy(cert)
    bad["statement"]["subsets"]["p"] = str(F(1, 2) + F(1, 10**9))
    assert "below the certified bound" in recheck(bad).message


@pytest.mark.parametrize("change", ["upper", "d", "q-zero", "one-secret"])
def test_wrong_unary_p_certificate_rejected(change):
    res, cert = _p_cert(UnaryProduct(6, BitChannel(F(1, 2), F(1, 4))), "log(3)")
    assert recheck(cert).ok and res.ratio_upper == 3
    bad = copy.deepcopy(cert)
    st = bad["statement"]
    if change == "upper":
        st["ratio_upper"] = str(F(3) - F(1, 10**20))
        msg = "below the certified bound"
    elif change == "d":                                 # a bit dropped: d = 5 is not a channel on |S||U| = 6
        st["unary"]["d"] = 5
        msg = "d = |X|"
    elif change == "q-zero":
        st["unary"]["q"] = "0"
        msg = "0 < q < 1"
    else:                                               # P with one secret: the ratio is 1, not the printed 3
        st["set"]["P"] = [["1/3", "1/3", "1/3"], ["0", "0", "0"]]
        msg = "not attained"
    chk = recheck(bad)
    assert not chk.ok and msg in chk.message, chk.message


def test_unary_ball_certificate():
    """The Rényi-ball audit of a unary encoding: PASS and FAIL accepted with the witness P-hat re-checked in the
    ball; radius 0 is written as {P-hat}; one secret of positive mass leaves the lower end open."""
    ue = UnaryProduct(6, BitChannel(F(1, 2), F(1, 4)))
    for eps, verdict in (("log(3)", "PASS"), ("1", "FAIL")):
        res, cert = _ball_cert(ue, eps)
        chk = recheck(cert)
        assert str(res.verdict) == verdict and chk.ok and chk.message.startswith(verdict), chk.message
        assert "witness re-checked" in chk.message and cert["statement"]["set"]["type"] == "renyi-ball"
    for alpha in ("1", "2", "1/2"):
        assert recheck(_ball_cert(ue, "1", alpha=alpha)[1]).ok
    res, cert = _ball_cert(ue, "1", radius="0")
    assert recheck(cert).ok and cert["statement"]["set"]["type"] == "distribution"
    res, cert = _ball_cert(ue, "log(3)", phat=[[F(1, 2), F(1, 2), F(0)], [F(0), F(0), F(0)]])
    chk = recheck(cert)
    assert chk.ok and res.ratio_lower is None and cert["data"]["witness"] is None, chk.message


@pytest.mark.parametrize("change", ["upper", "phat", "witness-outside", "subsets-ball", "alpha"])
def test_wrong_unary_ball_certificate_rejected(change):
    res, cert = _ball_cert(UnaryProduct(6, BitChannel(F(1, 2), F(1, 4))), "1")
    assert recheck(cert).ok and res.verdict == "FAIL"
    bad = copy.deepcopy(cert)
    st, F_ = bad["statement"], bad["statement"]["set"]
    if change == "upper":
        st["ratio_upper"] = str(F(3) - F(1, 10**20))
        msg = "below the certified bound"
    elif change == "phat":                              # P-hat moved by 1/4 between secrets: the witness leaves F
        F_["phat"][0][1], F_["phat"][1][0] = str(F(F_["phat"][0][1]) + F(1, 4)), str(F(F_["phat"][1][0]) - F(1, 4))
        msg = "not certainly in F"
    elif change == "witness-outside":                   # a witness just outside: D_alpha(P^||W) > B
        W = _just_outside(F_)
        bad["data"]["witness"] = [[str(v) for v in r] for r in W]
        msg = "not certainly in F"
    elif change == "subsets-ball":                      # subsets on a ball need a pair entry per (s, s')
        st.pop("unary")
        st["subsets"] = {"m": 2, "p": "1/2"}
        msg = "have no certificate"
    else:
        F_["alpha"] = "0"
        msg = "alpha must be > 0"
    chk = recheck(bad)
    assert not chk.ok and msg in chk.message, chk.message


def _just_outside(ball):
    """A table W = (1 - t) P^ + t e_00 with D_{3/2}(P^||W) just above the radius (bisection on t in floats, then
    checked in exact arithmetic both ways: inside at the smaller t, outside at the larger)."""
    import math

    phat = [[F(v) for v in r] for r in ball["phat"]]
    a, B = float(F(ball["alpha"])), float(F(ball["radius"]))

    def W(t):
        return [[(1 - t) * v + (t if (i, j) == (0, 0) else 0) for j, v in enumerate(r)] for i, r in enumerate(phat)]

    def D(t):
        s = sum(float(h) ** a * float(w) ** (1 - a)
                for rh, rw in zip(phat, W(F(t)), strict=True) for h, w in zip(rh, rw, strict=True) if h)
        return math.log(s) / (a - 1)
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if D(mid) <= B else (lo, mid)
    return W(F(hi) + F(1, 10**9))


def test_cli_distribution_and_ball_write_certificates(tmp_path, capsys):
    """``rldp-verify audit --adapter ... --distribution ... --certificate FILE`` (and the ball with --phat) write
    certificates that ``rldp-verify check-certificates`` re-checks."""
    pytest.importorskip("pure_ldp")
    from rldp_verify.cli import main

    ue, ball = tmp_path / "ue-p.json", tmp_path / "ue-ball.json"
    base = ["audit", "--adapter", "pure-ldp:UEClient", "--param", "epsilon=1", "--param", "d=4",
            "--param", "use_oue=true", "--eps", "1", "--sizes", "2,2"]
    main(base + ["--distribution", "0.1,0.2;0.3,0.4", "--certificate", str(ue), "--json"])
    assert "re-checked" in capsys.readouterr().err
    main(base + ["--phat", "1,2;3,4", "--alpha", "2", "--radius", "1/10", "--certificate", str(ball), "--json"])
    assert "re-checked" in capsys.readouterr().err
    for f, kind in ((ue, "distribution"), (ball, "renyi-ball")):
        doc = json.loads(f.read_text())
        assert doc["statement"]["set"]["type"] == kind and "unary" in doc["statement"]
    assert main(["check-certificates", str(tmp_path)]) == 0
    assert "2 certificates, 2 re-checked, 0 failed" in capsys.readouterr().out


def _sets_ball_result(st, ball, eps="log(3)"):
    """A Rényi-ball result of GRR / subset selection: the structured route's (rldp_verify.structured.ball) when
    it exists, else the dense audit's interval and witness in a StructuredAudit (what the builder reads: verdict,
    ends, witness, ball)."""
    from rldp_verify.rldp.audit import audit
    from rldp_verify.rldp.mechio import Mechanism
    from rldp_verify.structured.audit import StructuredAudit

    model = Adapted(st, "test channel", "exact")
    try:
        import rldp_verify.structured.ball  # noqa: F401
        res = audit_structured(model, eps, ball=ball)
        if getattr(res, "ball", None) is not None:
            return res, model
    except ImportError:
        pass
    a1, a2 = ball.sensitive_size, ball.public_size
    mech = Mechanism.from_matrix(st.dense()[0], [f"s{i}" for i in range(a1)], [f"u{j}" for j in range(a2)])
    d = audit(mech, eps, ball=ball)
    return StructuredAudit(d.verdict, d.ratio_lower, d.ratio_upper, None, d.witness, d.dps, 0.0, "F", eps, [],
                           structure=st.kind, adapter="test channel", ball=ball), model


@pytest.mark.parametrize("st", [Symmetric(4, F(1, 2), F(1, 6)), SubsetSelection(4, 2, F(3, 4))],
                         ids=["GRR", "subsets"])
def test_sets_ball_certificate_structured(st):
    """GRR / subset selection on a Rényi ball: the ``subsets`` form with one pair entry per (s, s') proving the
    printed upper end and the audit's witness re-checked in F (wrong twins:
    tests/certificates/test_audit_structured_ball.py), at alpha = 2 and at alpha = 1/2 (Theorem 1's product entries)."""
    ball = RenyiBall.from_radius([[F(7, 100), F(1, 10)], [F(26, 100), F(57, 100)]], "2", "1/10")
    res, model = _sets_ball_result(st, ball)
    cert = structured_certificate(res, model, "log(3)")
    chk = recheck(cert)
    assert chk.ok and "witness re-checked" in chk.message and cert["statement"]["set"]["type"] == "renyi-ball", \
        chk.message
    assert "subsets" in cert["statement"] and len(cert["data"]["pairs"]) == 2
    r2, m2 = _sets_ball_result(st, RenyiBall.from_radius(ball.phat, "1/2", "1/100"))
    chk = recheck(structured_certificate(r2, m2, "log(3)"))
    assert chk.ok and "witness re-checked" in chk.message, chk.message


def test_a_result_without_its_set_is_refused():
    """A ball result that does not expose its ball is refused in one line, never certified as eps-LDP."""
    from rldp_verify.structured.audit import StructuredAudit

    res = StructuredAudit("PASS", F(2), F(2), None, None, 30, 0.0, "F = Rényi ball ...", "1", [], adapter="x")
    with pytest.raises(InputError, match="does not expose its uncertainty set"):
        structured_certificate(res, Adapted(Symmetric(4, F(1, 2), F(1, 6)), "x", "exact"), "1")


@pytest.mark.parametrize("seed", range(4))
def test_rsfd_p_certificate_dense_matrix(seed):
    """RS+FD (no structured form in the checker) under {P}: its exact dense matrix, re-checked with Definition 3's
    ratio (rho_of), the audit's exact ratio accepted; an upper end rounded down rejected. eps-LDP likewise."""
    pytest.importorskip("multi_freq_ldpy")
    import math

    from rldp_verify.adapters import adapt_spec

    rng = random.Random(seed)
    lst = [rng.randint(2, 3) for _ in range(2)]
    spec = ["multi-freq-ldpy:RSpFD_GRR_Client", "multi-freq-ldpy:RSpFD_UE_zero_Client"][seed % 2]
    sizes = (lst[0], math.prod(lst[1:]))
    a = adapt_spec(spec, [f"lst_k={','.join(map(str, lst))}", "epsilon=1"], model="code")
    P = _random_P(rng, *sizes)
    res = audit_structured(a, "1", distribution=P)
    cert = structured_certificate(res, a, "1")
    chk = recheck(cert)
    assert chk.ok and chk.message.startswith(str(res.verdict)) and cert["statement"]["sizes"] == list(sizes), \
        chk.message
    bad = copy.deepcopy(cert)
    bad["statement"]["ratio_upper"] = str(F(res.ratio_upper) - F(1, 10**20))
    assert "below the certified bound" in recheck(bad).message
    res = audit_structured(a, "1")
    assert recheck(structured_certificate(res, a, "1")).ok
