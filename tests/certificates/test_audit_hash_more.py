"""Issue 23: FAILs of local hashing over compound seeds (rldp_verify/certificates/audit_hash.py) carry a witness the
checker accepts -- the Hadamard mechanism (rows j_1..j_t), sketch response over FastLH (count-mean and count sketch,
seed (j, s)), PEM over LH, TreeHist and SFP over the Hadamard mechanism, SFP over sketch response -- and the reader's
re-check (the README's snippet) recomputes their buckets with xxhash / the sign tuple, the sketch images with the
library's own hash rows. Wrong twins beside them: buckets made equal, a bucket changed (the checker cannot tell, the
re-check does), inputs equal, the output bucket moved (witness off), the upper end rounded down, a part loosened."""

from __future__ import annotations

import copy
import functools
import json
import re
from fractions import Fraction as F
from pathlib import Path

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.audit import structured_certificate
from rldp_verify.core.errors import InputError
from rldp_verify.structured.audit import audit_structured

xxhash = pytest.importorskip("xxhash")
pytest.importorskip("pure_ldp")

EPS = "1/2"                                          # every instance below has ratio e^1 > e^(1/2): FAIL
SPECS = {
    "HM": ("pure-ldp:HadamardMechClient", ["epsilon=1", "d=32", "t=3"]),
    "SR_CMS": ("pure-ldp:SketchResponseClient", ["epsilon=1", "m=16", "num_hashes=4", "lh_k=8", "d=16"]),
    "SR_CS": ("pure-ldp:SketchResponseClient", ["epsilon=1", "m=16", "num_hashes=4", "lh_k=8", "count_sketch=true",
                                                "d=16"]),
    "PEM": ("pure-ldp:PEMClient", ["epsilon=1", "start_length=2", "max_string_length=4", "fragment_length=2"]),
}


@functools.cache
def _adapted(name):
    from rldp_verify.adapters import adapt
    from rldp_verify.adapters.specs import _lookup, adapt_spec

    if name in SPECS:
        return adapt_spec(*SPECS[name])
    if name == "SFP_SR":
        from pure_ldp.core import generate_hash_funcs
        from pure_ldp.frequency_oracles import SketchResponseClient
        from pure_ldp.heavy_hitters import SFPClient

        return adapt(SFPClient(1.0, 2, 4, index_mapper=lambda s: s,
                               fo_client=SketchResponseClient(1.0, 16, generate_hash_funcs(4, 16), lh_k=8)))
    cls = {"TH_HM": "TreeHistClient", "SFP_HM": "SFPClient"}[name]
    return adapt(_lookup(f"pure-ldp:{cls}")[2](epsilon=1.0, fragment_length=2, max_string_length=4,
                                               fo="HadamardMechClient", fo_params=["t=3"])[0])


@functools.cache
def _cert_json(name):
    a = _adapted(name)
    return json.dumps(structured_certificate(audit_structured(a, EPS), a, EPS))


def _cert(name):
    return json.loads(_cert_json(name))


def _reader_ok(cert, tmp_path) -> bool:
    """The README's re-check snippet run on ``cert`` (its ``ok``)."""
    readme = Path(__file__).resolve().parents[2] / "README.md"
    code = re.search(r"```python\n(# re-check a hash witness.*?)```", readme.read_text(), re.S).group(1)
    path = tmp_path / "cert.json"
    path.write_text(json.dumps(cert))
    env: dict = {"__name__": "readme"}
    exec(compile(code.replace("cert.json", str(path)), "README", "exec"), env)  # noqa: S102
    return env["ok"]


ALL = ["HM", "SR_CMS", "SR_CS", "PEM", "TH_HM", "SFP_HM", "SFP_SR"]


@pytest.mark.parametrize("name", ALL)
def test_compound_fail_accepted_and_buckets_rechecked(name, tmp_path):
    cert = _cert(name)
    chk = recheck(cert)
    assert cert["statement"]["verdict"] == "FAIL" and chk.ok and chk.message.startswith("FAIL"), chk.message
    assert ("hash_witness" in cert["data"]) == (name in SPECS)
    assert _reader_ok(cert, tmp_path)


def _xxh64_row(x, j, m):
    return xxhash.xxh64(str(x).encode("utf-8"), seed=j).intdigest() % m


@pytest.mark.parametrize("name", ["SR_CMS", "SR_CS", "PEM"])
def test_images_are_the_librarys_rows(name):
    """The images u = h_j(x) written as data, recomputed from the library's hash family as the spec builds it
    (generate_hash_funcs(k, m): xxh64(str(x), seed=j) % m; count sketch's cs_map((h + 1)(2 g - 1)); PEM's prefix
    index of group j: the first 2 + 2 (j + 1) of the 4 bits of x)."""
    w = _cert(name)["data"]["hash_witness"]
    j = w["seed"][0]
    if name == "SR_CMS":
        want = [_xxh64_row(x, j, 16) for x in w["inputs"]]
    elif name == "SR_CS":
        v = [(_xxh64_row(x, j, 16) + 1) * (2 * _xxh64_row(x, j, 2) - 1) for x in w["inputs"]]
        want = [u - 1 if u > 0 else 32 - abs(u) for u in v]
    else:
        want = [x >> (4 - min(2 + 2 * (j + 1), 4)) for x in w["inputs"]]
    assert w["images"] == want


def _parts(cert):
    d = cert["data"]
    return [d["hash_witness"]] if "hash_witness" in d else d["product_witness"]["parts"]


@pytest.mark.parametrize("name", ["HM", "SR_CMS", "TH_HM", "SFP_SR"])
@pytest.mark.parametrize("change", ["buckets-equal", "bucket-swapped", "inputs-equal", "witness-off",
                                    "upper-rounded-down", "part-loosened", "lower-raised"])
def test_wrong_twin_rejected(name, change, tmp_path):
    good = _cert(name)
    assert recheck(good).ok
    bad = copy.deepcopy(good)
    st, w = bad["statement"], _parts(bad)[-1]
    flat = (lambda v: v) if name in SPECS else (lambda v: [s[0] for s in v])
    if change == "buckets-equal":
        if name in SPECS:
            w["buckets"][1] = w["buckets"][0]
        else:
            w["buckets"][1] = [w["buckets"][0][0]] * len(w["buckets"][1])
            w["inputs"][1] = list(w["inputs"][0])   # the same index must keep its bucket: x' made x
    elif change == "bucket-swapped":                # still different: only the reader's re-check can tell
        w["buckets"] = w["buckets"][::-1]
        if "y" in w:
            w["y"] = flat(w["buckets"])[0]
        assert recheck(bad).ok and not _reader_ok(bad, tmp_path)
        return
    elif change == "inputs-equal":
        w["inputs"][1] = w["inputs"][0]
    elif change == "witness-off":                   # the output bucket of x' (a hash witness: a bucket past g - 1)
        if "y" in w:
            w["y"] = flat(w["buckets"])[1] if flat(w["buckets"])[1] != w["y"] else flat(w["buckets"])[0]
        else:
            w["buckets"][1] = st["seeded-grr"]["g"]
    elif change == "upper-rounded-down":
        st["ratio_upper"] = "1.6487"                # below e^(1/2) < the certified a/b
    elif change == "part-loosened":                 # a part's a raised: its a/b grows above the printed upper end
        form = st["product"][-1] if "product" in st else st
        from fractions import Fraction as F
        g = form["seeded-grr"]["g"]
        a = F(form["seeded-grr"]["a"]) + F(1, 100)
        form["seeded-grr"].update(a=str(a), b=str((1 - a) / (g - 1)))
    else:
        st["ratio_lower"] = str(float(st["ratio_upper"]) * 1.001)
    assert not recheck(bad).ok, change


def test_bucket_not_reproduced_refused():
    """A hash that is not the recipe (the audit's bucket differs from the sign tuple / xxh32 of the images): no
    witness, the FAIL refused in one line, as before."""
    import dataclasses

    a = _adapted("HM")
    st = dataclasses.replace(a.structure, hash_fn=lambda x, s: (a.structure.hash_fn(x, s) + 1) % 8)
    model = dataclasses.replace(a, structure=st)
    with pytest.raises(InputError, match="no certificate for the FAIL") as exc:
        structured_certificate(audit_structured(model, EPS), model, EPS)
    assert "\n" not in str(exc.value)


# --------------------------------------------------------------------------- bloom, signed-sketch, laplace-reports


def _bloom(p=F(3, 4), q=F(1, 4)):
    """A Bloom filter on d = 4 inputs, m = 8 positions, h = 2 (disjoint sets {2x, 2x + 1}), 2 cohorts: ratio
    (r1 r2)^2 = 81 for (3/4, 1/4); inf when a set bit is never cleared (p = 1, RAPPOR 1.1.2)."""
    from rldp_verify.structured.channels import BitChannel
    from rldp_verify.structured.composite import BloomProduct

    return BloomProduct(4, 8, 2, BitChannel(p, q), lambda c, x: frozenset({(2 * x + c) % 8, (2 * x + 1 + c) % 8}),
                        hmax=2)


def _sketch(cold=F(2, 5)):
    """A signed sketch on d = 4 inputs, w = 8, 2 rows, keys (x // 2, +-1), hot 9/10: every key pair occurs; the
    top is r(1, 0) r(0, 1) = 9/4 * 6 = 27/2 at cold = 2/5."""
    from rldp_verify.structured.sketch import SignedSketch

    return SignedSketch(4, 8, 2, F(9, 10), cold, lambda j, x: ((x // 2 + j) % 8, 1 if x % 2 == 0 else -1))


def _reports():
    from rldp_verify.structured.sketch import LaplaceReports

    return LaplaceReports(4, 1.0, frag_scale=4.0, word_scale=8.0, pieces=lambda x: [[x]], word_index=lambda x: x)


def _model_cert(st, eps):
    from rldp_verify.structured.audit import Adapted

    model = Adapted(st, "test", "exact")
    return structured_certificate(audit_structured(model, eps), model, eps)


FORMS = {"bloom": (_bloom, "log(81)", "log(80)"), "bloom-inf": (lambda: _bloom(F(1), F(1, 4)), None, "log(80)"),
         "signed-sketch": (_sketch, "log(27/2)", "log(13)"), "laplace-reports": (_reports, "3/4", None)}


@pytest.mark.parametrize("name", list(FORMS))
def test_new_forms_accepted(name):
    make, at, below = FORMS[name]
    for eps, verdict in ((at, "PASS"), (below, "FAIL")):
        if eps is None:
            continue
        cert = _model_cert(make(), eps)
        chk = recheck(cert)
        assert cert["statement"]["verdict"] == verdict and chk.ok and chk.message.startswith(verdict), chk.message
        assert name.split("-inf")[0] in cert["statement"]


def test_laplace_reports_fail_refused():
    with pytest.raises(InputError, match="upper end only") as exc:
        _model_cert(_reports(), "1/2")
    assert "\n" not in str(exc.value)


def test_form_only_where_any_hash_bound_is_attained():
    """A Bloom filter whose sets always overlap (the exact ratio below (r1 r2)^h) gets no bloom form."""
    from rldp_verify.certificates.audit_hash import hash_form

    st = _bloom()
    st.sets = lambda c, x: frozenset({0, x + 1})
    assert hash_form(st) is None and hash_form(_bloom()) is not None


def _wrong(name, change, cert):
    st, data = cert["statement"], cert["data"]
    form = st[name.split("-inf")[0]]
    w = data.get("bloom_witness") or data.get("sketch_witness")
    if change == "upper-rounded-down":
        st["ratio_upper"] = str(float(st["ratio_upper"]) * 0.999) if st["ratio_upper"] != "inf" else "1e300"
    elif change == "part-loosened":              # a parameter that makes the certified bound larger than printed
        key, val = {"bloom": ("h", 3), "bloom-inf": ("m", 1), "signed-sketch": ("hot", "19/20"),
                    "laplace-reports": ("b", ["4", "7"])}[name]
        form[key] = val
    elif change == "witness-off":
        if name == "laplace-reports":
            st["ratio_lower"] = st["ratio_upper"]    # a lower end it does not certify
        elif "sets" in w:
            w["sets"][1] = list(w["sets"][0])        # x' given x's positions: ratio 1
        else:
            w["keys"][1] = list(w["keys"][0])
    elif change == "inputs-equal":
        if w is None:
            st["verdict"] = "FAIL"
        else:
            w["inputs"][1] = w["inputs"][0]
    else:                                            # data out of range
        if w is None:
            form["b"] = ["0", "8"]
        elif "sets" in w:
            w["sets"][0] = [0, 1, 2]                 # more than h positions
        else:
            w["keys"][0] = [8, 1]                    # h outside [0, w)


@pytest.mark.parametrize("name", list(FORMS))
@pytest.mark.parametrize("change", ["upper-rounded-down", "part-loosened", "witness-off", "inputs-equal",
                                    "out-of-range"])
def test_new_forms_wrong_twin_rejected(name, change):
    make, at, below = FORMS[name]
    good = _model_cert(make(), below or at)
    assert recheck(good).ok
    bad = copy.deepcopy(good)
    _wrong(name, change, bad)
    assert not recheck(bad).ok, (name, change)


def test_rappor_and_pcs_witness_data_are_the_librarys_hashes():
    """pure-ldp's RAPPOR (a 1 bit never cleared: FAIL, ratio inf) and private count sketch, as the spec builds them
    (cohort c's hash i: generate_hash(m, c h + i); PCS row j: generate_hash(w, j), generate_hash(2, j)): both FAILs
    certified, and the witness's filter sets / keys recomputed from xxh64(str(x), seed) % m, as the library hashes."""
    from rldp_verify.adapters.specs import adapt_spec

    rappor = adapt_spec("pure-ldp:RAPPORClient", ["f=0.5", "m=16", "num_hashes=2", "num_of_cohorts=2", "d=8"])
    pcs = adapt_spec("pure-ldp:PCSClient", ["epsilon=1", "l=4", "w=16", "d=8"])
    for a in (rappor, pcs):
        cert = json.loads(json.dumps(structured_certificate(audit_structured(a, EPS), a, EPS)))
        chk = recheck(cert)
        assert cert["statement"]["verdict"] == "FAIL" and chk.ok, chk.message
        if a is rappor:
            w = cert["data"]["bloom_witness"]
            c = w["cohort"]
            assert w["sets"] == [sorted({_xxh64_row(x, 2 * c + i, 16) for i in range(2)}) for x in w["inputs"]]
            assert cert["statement"]["ratio_upper"] == "inf"
        else:
            w = cert["data"]["sketch_witness"]
            j = w["row"]
            assert w["keys"] == [[_xxh64_row(x, j, 16), 2 * _xxh64_row(x, j, 2) - 1] for x in w["inputs"]]
