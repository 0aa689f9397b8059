"""Issue 23: ``rldp-verify audit --adapter ... --ldp --certificate FILE`` (the structured eps-LDP route) writes a
certificate the checker accepts -- a unary encoding as its per-bit channel (any d, no 2^d outputs), GRR and subset
selection as their dense matrix -- or refuses in one line with exit 2 (nothing written); wrong certificates are
rejected."""

from __future__ import annotations

import copy
import json
from fractions import Fraction as F

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.audit import structured_certificate
from rldp_verify.core.errors import InputError
from rldp_verify.structured.audit import Adapted, audit_structured
from rldp_verify.structured.channels import BitChannel, PublicMixture, Symmetric, UnaryProduct


def _cert(structure, eps, tolerance=None):
    model = Adapted(structure, "test channel", "exact")
    res = audit_structured(model, eps, tolerance=tolerance)
    return res, structured_certificate(res, model, eps)


@pytest.mark.parametrize(("p", "q", "eps", "verdict"), [
    (F(1, 2), F(1, 4), "log(3)", "PASS"),       # OUE at eps = log 3: ratio (1/2 / 1/4) (3/4 / 1/2) = 3
    (F(1, 2), F(1, 4), "1", "FAIL"),
    (F(1), F(1, 4), "5", "FAIL"),               # Pr[bit x = 1 | x] = 1: ratio inf
    (F(3, 4), F(1, 4), "log(9)", "PASS")])      # SUE
def test_unary_any_d_accepted(p, q, eps, verdict):
    for d in (2, 3, 1 << 20):                   # d = 2^20: no 2^d outputs anywhere
        res, cert = _cert(UnaryProduct(d, BitChannel(p, q)), eps)
        chk = recheck(cert)
        assert chk.ok and chk.message.startswith(verdict) and str(res.verdict) == verdict, chk.message
        assert "Q" not in cert["statement"] and cert["statement"]["unary"]["d"] == d


def test_unary_agrees_with_the_dense_matrix():
    """The checker's product rule and its dense eps-LDP check give the same ratio (d = 4, 16 outputs)."""
    res, cert = _cert(UnaryProduct(4, BitChannel(F(2, 3), F(1, 5))), "2")
    rows, _ = UnaryProduct(4, BitChannel(F(2, 3), F(1, 5))).dense()
    dense = copy.deepcopy(cert)
    del dense["statement"]["unary"]
    dense["statement"].update({"Q": [[str(v) for v in r] for r in rows], "sizes": [4, 1]})
    a, b = recheck(cert), recheck(dense)
    assert a.ok and b.ok and a.message == b.message, (a.message, b.message)


@pytest.mark.parametrize("change", ["p", "q", "upper", "d"])
def test_wrong_unary_certificate_rejected(change):
    """A factor's entry perturbed (p or q moved by 1e-9, the printed ratio no longer the channel's), the upper end
    rounded down, d = 1 (no pair of inputs)."""
    _, cert = _cert(UnaryProduct(10, BitChannel(F(1, 2), F(1, 4))), "log(3)")
    bad = copy.deepcopy(cert)
    u = bad["statement"]["unary"]
    if change in ("p", "q"):
        u[change] = str(F(u[change]) + (1 if change == "p" else -1) * F(1, 10**9))
        msg = "below the certified bound"
    elif change == "upper":
        bad["statement"]["ratio_upper"] = str(F(bad["statement"]["ratio_upper"]) - F(1, 10**20))
        msg = "below the certified bound"
    else:
        u["d"] = 1
        msg = "d = |X| >= 2"
    chk = recheck(bad)
    assert not chk.ok and msg in chk.message, chk.message


def test_dense_grr_accepted_and_a_perturbed_entry_rejected():
    res, cert = _cert(Symmetric(5, F(1, 2), F(1, 8)), "log(4)")
    assert recheck(cert).ok and res.verdict == "PASS"
    bad = copy.deepcopy(cert)
    Q = bad["statement"]["Q"]
    Q[0][0], Q[1][0] = str(F(Q[0][0]) + F(1, 100)), str(F(Q[1][0]) - F(1, 100))   # still a channel, ratio 51/12 > 4
    assert "below the certified bound 4.347826" in recheck(bad).message


def _lh(g, a, b):
    return PublicMixture(1000, g, a, b, separating=lambda x, xp: 7, hash_fn=lambda x, s: x % g)


def test_local_hashing_pass_certified_upper_end_only():
    """Local hashing: a PASS is certified from (g, a, b) alone (every seed's ratios are a/b, b/a or 1), without a
    lower end; the same channel against a smaller eps (FAIL) is refused: its witness seed needs the hash (this one
    is not xxh32, whose buckets a certificate can carry as data)."""
    res, cert = _cert(_lh(4, F(1, 2), F(1, 6)), "log(3)")
    chk = recheck(cert)
    assert res.verdict == "PASS" and chk.ok and chk.message.startswith("PASS: ratio in [None, 3]"), chk.message
    assert cert["statement"]["ratio_lower"] is None and cert["statement"]["seeded-grr"]["g"] == 4
    with pytest.raises(InputError, match="separates two inputs under the library's hash"):
        _cert(_lh(4, F(1, 2), F(1, 6)), "1")


@pytest.mark.parametrize("change", ["a", "not-a-channel", "lower", "verdict"])
def test_wrong_local_hashing_certificate_rejected(change):
    """a perturbed (a/b above the printed upper end), a + (g-1) b != 1, a lower end claimed without a witness, a
    FAIL claimed."""
    _, cert = _cert(_lh(4, F(1, 2), F(1, 6)), "log(3)")
    bad = copy.deepcopy(cert)
    u, st = bad["statement"]["seeded-grr"], bad["statement"]
    if change == "a":
        b = F(1, 6) - F(1, 10**12)                      # still a channel, a/b just above the printed 3
        u["a"], u["b"] = str(1 - 3 * b), str(b)
    elif change == "not-a-channel":
        u["b"] = "1/7"
    elif change == "lower":
        st["ratio_lower"] = st["ratio_upper"]
    else:
        st["verdict"] = "FAIL"
    assert not recheck(bad).ok


def test_refusals_are_one_line():
    """No form: the tolerance-accepted PASS (ordered subsets of size m >= 2 now have the ``ordered-subsets`` form,
    tests/certificates/test_audit_mfl.py)."""
    with pytest.raises(InputError, match="--tolerance") as exc:
        _cert(UnaryProduct(10, BitChannel(F(1, 2), F(1, 4))), "1", tolerance="1")
    assert "\n" not in str(exc.value)


def test_large_grr_as_subsets_form():
    """GRR on k = 1000 values (a dense matrix of 10^6 entries, above the cap) is certified as ``subsets`` {m = 1,
    p = a}; an upper end rounded down is rejected."""
    res, cert = _cert(Symmetric(1000, F(1, 2), F(1, 1998)), "6")
    assert cert["statement"]["subsets"] == {"m": 1, "p": "1/2"} and "Q" not in cert["statement"]
    chk = recheck(cert)
    assert chk.ok and chk.message.startswith("FAIL: ratio in [999, 999]"), chk.message
    res, cert = _cert(Symmetric(1000, F(1, 2), F(1, 1998)), "log(999)")
    assert recheck(cert).ok and res.verdict == "PASS"
    bad = copy.deepcopy(cert)
    bad["statement"]["ratio_upper"] = str(F(998999, 1000))
    assert "below the certified bound 999" in recheck(bad).message


def test_cli_writes_or_refuses(tmp_path, capsys):
    """The command: the unary encoding of pure-ldp (d = 65536) is certified (FAIL, exit 1) and re-checked; local
    hashing's FAIL (float rounding at eps = 1) is certified with its separating seed and buckets (xxh32) as data
    (tests/certificates/test_audit_hash_witness.py); a tolerance-accepted PASS is refused with exit 2 and one line
    on stderr, and no file is written."""
    pytest.importorskip("pure_ldp")
    from rldp_verify.cli import main

    ue, lh = tmp_path / "ue.json", tmp_path / "lh.json"
    assert main(["audit", "--adapter", "pure-ldp:UEClient", "--param", "epsilon=0.25", "--param", "d=65536",
                 "--param", "use_oue=true", "--eps", "0.25", "--ldp", "--certificate", str(ue), "--json"]) == 1
    assert "re-checked" in capsys.readouterr().err
    assert recheck(json.loads(ue.read_text())).ok
    lh_args = ["audit", "--adapter", "pure-ldp:LHClient", "--param", "epsilon=1", "--param", "d=100", "--eps", "1",
               "--ldp", "--certificate", str(lh)]
    assert main(lh_args) == 1 and "re-checked" in capsys.readouterr().err
    assert "hash_witness" in json.loads(lh.read_text())["data"]
    lh.unlink()
    try:
        code = main([*lh_args, "--tolerance", "1e-9"])
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err.strip()
    assert code == 2 and "--tolerance" in err and len(err.splitlines()) == 1
    assert not lh.exists()
