"""pure-ldp's sketch response, private count sketch and PEM heavy hitter: the structure's closed form against the
certified audit of the brute-force dense channel, the dense channel against the library's own sampler at a fixed
seed (chi-square), a wrong model rejected by the same fit, deployment sizes exactly and in seconds, and the
refusals (one line)."""

import time

import pytest

from rldp_verify.adapters import adapt, audit_adapted, dense_mechanism
from rldp_verify.cli import main
from rldp_verify.core.errors import InputError
from rldp_verify.rldp.audit import audit
from rldp_verify.structured import Adapted, PublicMixture, SignedSketch
from tests.adapters.test_adapters import _fits, _seed
from tests.adapters.test_adapters import xxhash3 as xxhash3  # noqa: F401  (the fixture)
from tests.adapters.test_pure_ldp_more import xxh64_str as xxh64_str  # noqa: F401  (the fixture)

fo = pytest.importorskip("pure_ldp.frequency_oracles")


def _funcs(k, m):
    from pure_ldp.core import generate_hash_funcs

    return generate_hash_funcs(k, m)


def _sr(eps=1.0, k=3, m=8, lh_k=4, cs=False):
    funcs = list(zip(_funcs(k, m), _funcs(k, 2), strict=True)) if cs else _funcs(k, m)
    return fo.SketchResponseClient(eps, m, funcs, lh_k=lh_k, count_sketch=cs, index_mapper=lambda x: x)


def _pcs(eps=1.0, rows=2, w=3):
    return fo.PCSClient(eps, rows, w, list(zip(_funcs(rows, w), _funcs(rows, 2), strict=True)))


def _pem(eps=1.0, start=1, length=3, frag=1):
    from pure_ldp.heavy_hitters import PEMClient

    return PEMClient(eps, start, length, frag)


SMALL = [
    ("SR cms", lambda: _sr(), {"d": 5}),
    ("SR cms eps 2", lambda: _sr(2.0, k=2, m=6, lh_k=5), {"d": 6}),
    ("SR count sketch", lambda: _sr(1.0, k=2, m=4, lh_k=3, cs=True), {"d": 5}),
    ("SR inner DE", lambda: fo.SketchResponseClient(1.0, 5, _funcs(2, 5), fo_client=fo.DEClient(1.0, 5)), {"d": 6}),
    ("SR inner UE", lambda: fo.SketchResponseClient(0.5, 3, _funcs(2, 3), fo_client=fo.UEClient(0.5, 3)), {"d": 4}),
    ("PCS", lambda: _pcs(), {"d": 4}),
    ("PCS eps 2", lambda: _pcs(2.0, rows=3, w=2), {"d": 5}),
    ("PEM", lambda: _pem(), {}),
    ("PEM 2 groups of 2", lambda: _pem(0.5, 0, 4, 2), {}),
]


@pytest.mark.parametrize("make, params", [s[1:] for s in SMALL], ids=[s[0] for s in SMALL])
def test_structured_ratio_is_the_dense_audit(make, params):
    a = adapt(make(), **params)
    r = audit(dense_mechanism(a), 1, ldp=True)
    assert r.ratio_lower == r.ratio_upper == a.structure.ratio()
    assert audit_adapted(a, 1).ratio_lower == r.ratio_lower


def _sr_label(o):
    (y, s), j = o
    return f"{int(y)}@{(int(j), int(s))}"


def test_sketch_response_sampler(xxhash3, xxh64_str):  # noqa: F811
    for client, d in ((_sr(), 4), (_sr(1.0, k=2, m=4, lh_k=3, cs=True), 4)):
        a = adapt(client, d=d)
        assert isinstance(a.structure, PublicMixture) and a.structure.complete
        _seed(41)
        _fits(dense_mechanism(a), lambda x, c=client: c.privatise(x), n=3000, label=_sr_label)


def test_pcs_sampler(xxh64_str):  # noqa: F811
    pcs = _pcs()
    a = adapt(pcs, d=4)
    assert isinstance(a.structure, SignedSketch)
    _seed(42)
    _fits(dense_mechanism(a), lambda x: pcs.privatise(x), n=3000,
          label=lambda o: ",".join(str(int(v)) for v in o[0]) + f"@{int(o[1])}")


def test_pem_sampler(xxhash3):  # noqa: F811
    """PEM's inner LHClient draws seeds up to sys.maxsize: Pr[bucket = h_seed(prefix index)] = a over fresh seeds, for
    each group (released)."""
    from scipy.stats import chisquare

    from rldp_verify.adapters import _lh_hash

    pem = _pem(1.0, 0, 4, 2)
    a = adapt(pem)
    st, g = a.structure, a.structure.g
    _seed(43)
    for x, s in ((0, "0000"), (6, "0110"), (15, "1111")):
        hits = {0: [0, 0], 1: [0, 0]}
        for _ in range(2000):
            (y, seed), grp = pem.privatise(s)
            prefix = int(s[:2 * (grp + 1)], 2)
            hits[grp][int(y) == _lh_hash(prefix, int(seed), g)] += 1
        for miss, hit in hits.values():
            n = miss + hit
            assert chisquare([hit, miss], [float(st.a) * n, float((g - 1) * st.b) * n]).pvalue > 1e-6
        assert abs(hits[0][1] + hits[0][0] - 1000) < 150          # the group is uniform on {0, 1}
        assert st.hash_fn(x, (1, 7)) == _lh_hash(x, 7, g)        # the last group encodes the whole string


def test_wrong_models_are_rejected(xxhash3, xxh64_str, monkeypatch):  # noqa: F811
    """The fit has power: a model with the wrong seed range, or '<' read as '<=' at a coarse threshold, fails."""
    client = _sr(1.0, k=2, m=4, lh_k=3)
    a = adapt(client, d=4)
    st = a.structure
    wrong = PublicMixture(st.d, st.g, st.a, st.b, st.separating, [(j, s) for j in range(2) for s in range(4)],
                          st.hash_fn, complete=True)
    a.structure = wrong
    _seed(44)
    with pytest.raises(AssertionError):
        _fits(dense_mechanism(a), lambda x: client.privatise(x), n=3000, label=_sr_label)
    # PCS: the hot entry read as a fair coin instead of random.choices with weights [bias, 1 - bias]
    pcs = _pcs(2.0)
    b = adapt(pcs, d=4)
    b.structure = SignedSketch(4, 3, 2, b.structure.cold, b.structure.cold, b.structure.key)
    _seed(45)
    with pytest.raises(AssertionError):
        _fits(dense_mechanism(b), lambda x: pcs.privatise(x), n=3000,
              label=lambda o: ",".join(str(int(v)) for v in o[0]) + f"@{int(o[1])}")
    # a code that draws its public row from a different range is refused, not modelled
    import pure_ldp.frequency_oracles.sketch_response.sketch_response_client as mod

    monkeypatch.setattr(mod.SketchResponseClient, "privatise",
                        lambda self, data: (self.client.privatise(self.hash_funcs[0](data)),
                                            mod.random.randint(0, self.k)))
    with pytest.raises(InputError, match=r"does not draw its public index as random.randint\(0, 1\)"):
        audit_adapted(adapt(_sr(1.0, k=2, m=4), d=4), 1)


@pytest.mark.parametrize("make, eps", [
    (lambda: _sr(1.0, k=256, m=1024, lh_k=100), 1),
    (lambda: _sr(2.0, k=64, m=1024, lh_k=100, cs=True), 2),
    (lambda: _pcs(1.0, rows=256, w=1024), 1),
    (lambda: _pem(1.0, 2, 16, 2), 1),                            # the 2^16 strings of 16 bits, 7 groups
])
def test_deployment_sizes(make, eps):
    t0 = time.perf_counter()
    obj = make()
    r = audit_adapted(adapt(obj) if type(obj).__name__ == "PEMClient" else adapt(obj, d=65536), eps)
    assert time.perf_counter() - t0 < 10
    assert r.ratio_lower == r.ratio_upper and abs(float(r.eps_realised()[0]) - eps) < 1e-12
    assert "sampler model" in " ".join(r.notes)


def test_pcs_ratio_is_the_best_key_pair():
    """The scan stops at the best candidate that occurs: with every input on the same hot position and sign but
    one, the ratio is the same-position one; with a single key for all inputs it is 1."""
    from fractions import Fraction

    hot, cold = Fraction(3, 4), Fraction(1, 2)
    same = SignedSketch(3, 2, 1, hot, cold, lambda j, x: (0, 1 if x else -1))
    assert same.ratio() == 3                                     # max_b L_+(b) / L_-(b) = (3/4) / (1/4)
    assert SignedSketch(3, 2, 1, hot, cold, lambda j, x: (0, 1)).ratio() == 1
    diff = SignedSketch(3, 2, 1, hot, cold, lambda j, x: (x % 2, 1))
    assert diff.ratio() == Fraction(3, 2) * 2                    # max L/C * max C/L = (3/2)(2)
    for st in (same, diff):
        r = audit(dense_mechanism(Adapted(st, "test", "exact")), 1, ldp=True)
        assert r.ratio_lower == r.ratio_upper == st.ratio()


def test_refusals(capsys):
    from pure_ldp.core import generate_hash_funcs
    from pure_ldp.heavy_hitters import SFPClient

    with pytest.raises(InputError, match="does not know the domain size: pass d="):
        adapt(_pcs())
    with pytest.raises(InputError, match=r"SFPClient: the fragment client.s index_mapper\(.*\) raised"):
        adapt(SFPClient(1.0, 2, 4, fo_client=fo.SketchResponseClient(1.0, 8, generate_hash_funcs(2, 8))))
    pem = _pem()
    pem.client = fo.DEClient(1.0, 8)
    with pytest.raises(InputError, match="only local hashing"):
        adapt(pem)
    argv = ["audit", "--adapter", "pure-ldp:PCSClient", "--param", "epsilon=1", "--param", "w=4", "--eps", "1",
            "--ldp"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "pure-ldp:PCSClient needs --param" in err and len(err.splitlines()) == 1


def test_pcs_hot_event_is_the_code_boundary(monkeypatch):
    """hot = K / 2^53: the code's random.choices returns +1 for the uniform (K - 1) / 2^53 and -1 for K / 2^53 (the
    library's own _perturb, run with those uniforms), so the model counts exactly the uniforms that keep the sign."""
    import random

    pcs = _pcs(1.0, rows=1, w=2)
    hot = adapt(pcs, d=3).structure.hot
    K = hot * 2**53
    assert K.denominator == 1
    got = []
    for k in (int(K) - 1, int(K)):
        monkeypatch.setattr(random._inst, "random", lambda k=k: k / 2**53)
        got.append(int(pcs._perturb((0, 1))[0]))
    assert got == [1, -1]


def test_black_box_sampler_spec(xxhash3, xxh64_str):  # noqa: F811
    """The black-box route draws from the library's own sketch response on the indices the adapter audits (no
    local-hashing feature: its outputs are ((bucket, seed), row)); PEM's string inputs are refused."""
    from rldp_verify.adapters import sampler_spec

    params = ["epsilon=1", "m=4", "num_hashes=2", "lh_k=3", "d=4"]
    fn, g = sampler_spec("pure-ldp:SketchResponseClient", params)
    assert g is None
    (y, seed), j = fn(3)
    assert 0 <= y < 4 and 0 <= seed < 3 and j in (0, 1)          # OLH at eps = 1: g = round(e) + 1 = 4
    with pytest.raises(InputError, match="inputs are strings"):
        sampler_spec("pure-ldp:PEMClient", ["epsilon=1", "start_length=1", "max_string_length=3",
                                            "fragment_length=1"])


def test_sketch_response_p_audit_is_the_dense_one():
    """(eps, P)-RLDP of the sketch response over FastLH (every row and seed in the dense form: exact) equals the
    dense (eps, P) audit, on a P with zeros."""
    from fractions import Fraction as Fr

    P = [[Fr(1, 10), Fr(2, 10), Fr(0)], [Fr(3, 10), Fr(0), Fr(4, 10)]]
    a = adapt(_sr(1.0, k=2, m=4, lh_k=3), d=6)
    r = audit_adapted(a, 1, distribution=P)
    dense = audit(dense_mechanism(a, sizes=(2, 3)), 1, distribution=P)
    assert r.ratio_lower == r.ratio_upper == dense.ratio_lower == dense.ratio_upper
