"""Issue 23: TreeHist's audit certificate in the ``product`` form (word x fragment local hashing, the upper end the
product of the parts' upper ends, the lower end the exact ratio at the witness's xxh32 buckets): accepted at PASS and
FAIL, its wrong twins rejected (a part loosened above the printed end, an index mapped to two buckets, the witness's
buckets moved, uneven mixtures, eps rounded down), and written by ``rldp-verify audit --adapter
pure-ldp:TreeHistClient --ldp --certificate`` in place of a dense matrix restricted to a few seeds."""

from __future__ import annotations

import copy
import json
from fractions import Fraction as F

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.audit import structured_certificate
from rldp_verify.core.errors import InputError
from rldp_verify.structured.audit import Adapted, audit_structured

pytest.importorskip("xxhash")


def _cert(eps):
    from proofs.rldp.audit_certificate_noise import _treehist

    model = Adapted(_treehist(), "test TreeHist", "exact")
    res = audit_structured(model, eps)
    return res, structured_certificate(res, model, eps)


@pytest.mark.parametrize(("eps", "verdict"), [("log(9)", "PASS"), ("2", "FAIL"), ("log(8)", "FAIL")])
def test_product_accepted(eps, verdict):
    res, cert = _cert(eps)
    chk = recheck(cert)
    assert str(res.verdict) == verdict and chk.ok and chk.message.startswith(f"{verdict}: ratio in [9, 9]"), chk.message
    assert len(cert["statement"]["product"]) == 2 and "Q" not in cert["statement"]


def _twin(cert, change):
    bad = copy.deepcopy(cert)
    st, parts = bad["statement"], bad["data"]["product_witness"]["parts"]
    if change == "part-loosened":                       # fragment a/b just above 3: U above the printed 9
        b = F(1, 6) - F(1, 10**12)
        st["product"][1]["seeded-grr"].update({"a": str(1 - 3 * b), "b": str(b)})
    elif change == "index-two-buckets":                 # x's prefix index listed again with another bucket
        parts[1]["inputs"][0].append(parts[1]["inputs"][0][0])
        parts[1]["buckets"][0].append((parts[1]["buckets"][0][0] + 1) % 4)
        parts[1]["inputs"][1].append(parts[1]["inputs"][1][0])
        parts[1]["buckets"][1].append(parts[1]["buckets"][1][0])
    elif change == "buckets-moved":                     # x''s fragment buckets all set to y: the ratio falls to 3
        parts[1]["buckets"][1] = [parts[1]["y"]] * len(parts[1]["buckets"][1])
        parts[1]["inputs"][1] = [100 + i for i in range(len(parts[1]["inputs"][1]))]
    elif change == "uneven":
        parts[1]["inputs"][1], parts[1]["buckets"][1] = parts[1]["inputs"][1][:-1], parts[1]["buckets"][1][:-1]
    elif change == "bucket-out-of-range":
        parts[0]["buckets"][0] = [4]
    elif change == "witness-dropped":
        del bad["data"]["product_witness"]
    else:
        st["eps"] = {"exp_eps": 9}                       # e^eps = 9 = the ratio: not a FAIL
    return recheck(bad)


@pytest.mark.parametrize("change", ["part-loosened", "index-two-buckets", "buckets-moved", "uneven",
                                    "bucket-out-of-range", "witness-dropped", "eps-rounded-down"])
def test_wrong_product_rejected(change):
    _, cert = _cert("2")                                 # FAIL: ratio 9 > e^2
    assert recheck(cert).ok
    assert not _twin(cert, change).ok, change


def test_pass_without_a_witness_is_upper_end_only_and_fail_is_refused(monkeypatch):
    """Buckets that are not xxh32's (here: no witness at all): a PASS keeps the parts' upper end with no lower end, a
    FAIL is refused in one line."""
    import rldp_verify.certificates.audit_forms as af

    monkeypatch.setattr(af, "product_witness", lambda st: None)
    _, cert = _cert("log(9)")
    assert cert["statement"]["ratio_lower"] is None and recheck(cert).ok
    with pytest.raises(InputError, match="not xxh32") as exc:
        _cert("2")
    assert "\n" not in str(exc.value)


def test_cli_writes_the_product_certificate(tmp_path, capsys):
    pytest.importorskip("pure_ldp")
    from rldp_verify.cli import main

    cert = tmp_path / "th.json"
    assert main(["audit", "--adapter", "pure-ldp:TreeHistClient", "--param", "epsilon=2", "--param",
                 "fragment_length=1", "--param", "max_string_length=3", "--eps", "2.1", "--ldp", "--certificate",
                 str(cert)]) == 0
    assert "re-checked" in capsys.readouterr().err
    doc = json.loads(cert.read_text())
    assert "product" in doc["statement"] and "Q" not in doc["statement"] and recheck(doc).ok
