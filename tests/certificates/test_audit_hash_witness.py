"""Issue 23: local hashing's eps-LDP lower end in the ``seeded-grr`` form: the separating seed the audit found and
the two buckets of its inputs (data, from xxh32) give the checker L = max(a/b, b/a), so a FAIL (and a PASS's lower
end) is certified; its wrong twins are rejected (buckets equal, out of range, inputs equal, the witness dropped), a
hash other than xxh32 is refused in one line, and a reader re-checks the buckets with xxhash as the README shows."""

from __future__ import annotations

import copy
import re
from fractions import Fraction as F
from pathlib import Path

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.audit import structured_certificate
from rldp_verify.core.errors import InputError
from rldp_verify.structured.audit import Adapted, audit_structured
from rldp_verify.structured.channels import PublicMixture

xxhash = pytest.importorskip("xxhash")


def _olh(g=4, a=F(1, 2), b=F(1, 6), d=1000):
    from rldp_verify.adapters._common import _lh_hash, _separating

    return PublicMixture(d, g, a, b, _separating(g, range(64)), hash_fn=lambda x, s: _lh_hash(x, s, g))


def _cert(st, eps):
    model = Adapted(st, "test local hashing", "exact")
    res = audit_structured(model, eps)
    return res, structured_certificate(res, model, eps)


@pytest.mark.parametrize(("eps", "verdict"), [("log(3)", "PASS"), ("1", "FAIL"), ("log(299/100)", "FAIL")])
def test_hash_witness_accepted(eps, verdict):
    res, cert = _cert(_olh(), eps)
    chk = recheck(cert)
    w = cert["data"]["hash_witness"]
    assert str(res.verdict) == verdict and chk.ok and chk.message.startswith(f"{verdict}: ratio in [3, 3]"), chk.message
    assert w["buckets"][0] != w["buckets"][1] and f"at seed {w['seed']}" in chk.message


@pytest.mark.parametrize("change", ["buckets-equal", "bucket-out-of-range", "inputs-equal", "input-out-of-range",
                                    "witness-dropped", "eps-rounded-down"])
def test_wrong_hash_witness_rejected(change):
    _, cert = _cert(_olh(), "1")                         # FAIL: ratio 3 > e
    assert recheck(cert).ok
    bad = copy.deepcopy(cert)
    w = bad["data"]["hash_witness"]
    if change == "buckets-equal":
        w["buckets"][1] = w["buckets"][0]
    elif change == "bucket-out-of-range":
        w["buckets"][1] = 4                              # g = 4 buckets: 0..3
    elif change == "inputs-equal":
        w["inputs"][1] = w["inputs"][0]
    elif change == "input-out-of-range":
        w["inputs"][1] = 1000
    elif change == "witness-dropped":
        del bad["data"]["hash_witness"]
    else:
        bad["statement"]["eps"] = {"exp_eps": 3}         # e^eps = 3 = the ratio: not a FAIL
    assert not recheck(bad).ok, change


def test_other_hash_fail_refused_pass_upper_end_only():
    """A hash that is not xxh32 (its buckets no reader can re-check with xxhash): FAIL refused in one line, PASS
    certified from (g, a, b) with no lower end."""
    st = PublicMixture(1000, 4, F(1, 2), F(1, 6), separating=lambda x, xp: 7, hash_fn=lambda x, s: x % 4)
    with pytest.raises(InputError, match="not xxh32") as exc:
        _cert(st, "1")
    assert "\n" not in str(exc.value)
    _, cert = _cert(st, "log(3)")
    assert "hash_witness" not in cert["data"] and cert["statement"]["ratio_lower"] is None and recheck(cert).ok


def test_reader_rechecks_the_buckets_with_xxhash_as_the_readme_shows(tmp_path):
    """The README's snippet, run on a written certificate, prints the stated buckets twice (equal); on a certificate
    whose buckets were tampered with (still different, so the checker accepts them) it shows the mismatch."""
    import json

    _, cert = _cert(_olh(), "1")
    readme = Path(__file__).resolve().parents[2] / "README.md"
    code = re.search(r"```python\n(# re-check a hash witness.*?)```", readme.read_text(), re.S).group(1)
    path = tmp_path / "lh.json"
    path.write_text(json.dumps(cert))
    env: dict = {"__name__": "readme"}
    exec(compile(code.replace("cert.json", str(path)), "README", "exec"), env)  # noqa: S102
    assert env["ok"] is True
    w = cert["data"]["hash_witness"]
    w["buckets"] = [w["buckets"][1], w["buckets"][0]]                 # swapped: the checker cannot tell
    assert recheck(cert).ok
    path.write_text(json.dumps(cert))
    env = {"__name__": "readme"}
    exec(compile(code.replace("cert.json", str(path)), "README", "exec"), env)  # noqa: S102
    assert env["ok"] is False
