"""pure-ldp's RAPPOR, count-mean sketch (CMS, HCMS) and Hadamard mechanism: the structure's closed form against the
certified audit of the brute-force dense channel, the dense channel against the library's own sampler at a fixed
seed (chi-square), deployment sizes exactly, and RAPPOR's never-cleared bit."""

import math
from fractions import Fraction

import pytest

from rldp_verify.adapters import adapt, adapt_spec, audit_adapted, dense_mechanism
from rldp_verify.cli import main
from rldp_verify.core.errors import InputError
from rldp_verify.rldp.audit import audit
from tests.adapters.test_adapters import _fits, _seed
from tests.adapters.test_adapters import xxhash3 as xxhash3  # noqa: F401  (the fixture)

fo = pytest.importorskip("pure_ldp.frequency_oracles")


@pytest.fixture
def xxh64_str(monkeypatch):
    """xxhash < 4 behaviour (str hashed as its UTF-8 bytes) for pure-ldp's own hash functions."""
    import xxhash

    orig = xxhash.xxh64
    monkeypatch.setattr(xxhash, "xxh64", lambda s, seed=0: orig(s.encode() if isinstance(s, str) else s, seed=seed))


SMALL = [
    ("pure-ldp:RAPPORClient", ["f=0.5", "m=4", "num_hashes=2", "num_of_cohorts=2", "d=3"]),
    ("pure-ldp:RAPPORClient", ["f=0.2", "m=3", "num_hashes=1", "num_of_cohorts=3", "d=4"]),
    ("pure-ldp:CMSClient", ["epsilon=1", "m=4", "num_hashes=2", "d=3"]),
    ("pure-ldp:CMSClient", ["epsilon=2", "m=8", "num_hashes=4", "d=4", "is_hadamard=true"]),
    ("pure-ldp:HadamardMechClient", ["epsilon=1", "d=4", "t=2"]),
    ("pure-ldp:HadamardMechClient", ["epsilon=0.5", "d=5", "t=1"]),
    ("pure-ldp:FastLHClient", ["epsilon=1", "d=4", "k=4", "use_olh=true"]),
    ("pure-ldp:FastLHClient", ["epsilon=2", "d=3", "k=8", "g=3"]),
]


@pytest.mark.parametrize("spec, params", SMALL, ids=[f"{s}:{','.join(p)}" for s, p in SMALL])
def test_structured_ratio_is_the_dense_audit(spec, params):
    a = adapt_spec(spec, params)
    r = audit(dense_mechanism(a), 1, ldp=True)
    assert r.ratio_lower == r.ratio_upper == a.structure.ratio()
    assert audit_adapted(a, 1).ratio_lower == r.ratio_lower


def _rappor(f=0.5, m=4, h=2, n=2, im=True):
    from pure_ldp.core import generate_hash

    fam = [[generate_hash(m, c * h + i) for i in range(h)] for c in range(n)]
    return fo.RAPPORClient(f, m, fam, num_of_cohorts=n, index_mapper=(lambda x: x) if im else None)


def test_rappor_bit_never_cleared(xxh64_str):
    """pure-ldp's _perturb leaves a 1 bit set when its draw fails: Pr[1 | 1] = 1, eps = inf; the sampler agrees
    (no report ever has a 0 where the input's Bloom filter has a 1)."""
    client = _rappor()
    a = adapt(client, d=3)
    assert a.structure.bit.p == 1 and "never cleared" in " ".join(a.notes)
    r = audit_adapted(a, 8)
    assert r.verdict == "FAIL" and r.ratio_lower == math.inf
    _seed(31)
    _fits(dense_mechanism(a), lambda x: client.privatise(x), n=3000,
          label=lambda o: ",".join(str(int(b)) for b in o[0]) + f"@{o[1]}")


def test_cms_samplers(xxh64_str):
    from pure_ldp.core import generate_hash_funcs

    cms = fo.CMSClient(1.0, generate_hash_funcs(2, 4), 4)
    a = adapt(cms, d=3)
    assert abs(float(audit_adapted(a, 1).eps_realised()[0]) - 1) < 1e-12
    _seed(32)
    _fits(dense_mechanism(a), lambda x: cms.privatise(x), n=3000,
          label=lambda o: ",".join(str(int(b)) for b in o[0]) + f"@{o[1]}")
    hcms = fo.CMSClient(2.0, generate_hash_funcs(4, 8), 8, is_hadamard=True)
    h = adapt(hcms, d=4)
    _fits(dense_mechanism(h), lambda x: hcms.privatise(x), n=4000,
          label=lambda o: f"{0 if o[0] == 1 else 1}@{(int(o[1]), int(o[2]))}")


def test_hadamard_mechanism_sampler():
    hm = fo.HadamardMechClient(1.0, 4, 2, index_mapper=lambda x: x)
    a = adapt(hm)
    index = {h: i for i, h in enumerate(hm.hashes)}

    def label(out):
        js, cs = zip(*list(out), strict=True)
        return f"{index[tuple(int(c) for c in cs)]}@{tuple(int(j) for j in js)}"
    _seed(33)
    _fits(dense_mechanism(a), lambda x: hm.privatise(x), n=4000, label=label)


@pytest.mark.parametrize("spec, params, eps", [
    ("pure-ldp:RAPPORClient", ["f=0.5", "m=128", "num_hashes=2", "num_of_cohorts=8", "d=65536"], math.inf),
    ("pure-ldp:CMSClient", ["epsilon=1", "m=1024", "num_hashes=256", "d=65536"], 1),
    ("pure-ldp:CMSClient", ["epsilon=1", "m=1024", "num_hashes=256", "d=65536", "is_hadamard=true"], 1),
    ("pure-ldp:HadamardMechClient", ["epsilon=1", "d=65536", "t=3"], 1),
    ("pure-ldp:HadamardResponseClient", ["epsilon=1", "d=65536"], 1),
    ("pure-ldp:HadamardResponseClient", ["epsilon=3", "d=65536"], 3),
])
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_deployment_sizes_exactly(spec, params, eps):
    r = audit_adapted(adapt_spec(spec, params), 1)
    assert r.ratio_lower == r.ratio_upper
    assert (r.ratio_lower == math.inf) if eps == math.inf else abs(float(r.eps_realised()[0]) - eps) < 1e-9
    assert "sampler model" in " ".join(r.notes)


def test_bad_input(capsys):
    with pytest.raises(InputError, match="does not know the domain size: pass d="):
        adapt(_rappor())
    argv = ["audit", "--adapter", "pure-ldp:CMSClient", "--param", "epsilon=1", "--param", "m=4", "--eps", "1",
            "--ldp"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "pure-ldp:CMSClient needs --param num_hashes=..." in err and len(err.splitlines()) == 1


def test_prob_choices_first_is_the_boundary_count():
    """random.choices' first outcome: U total < cum[0]; the count n has k = n - 1 inside and k = n outside."""
    from fractions import Fraction

    from rldp_verify.structured import samplers as sm

    for w in ([0.1, 0.9], [1 / 3, 2 / 3], [0.2689414213699951, 0.7310585786300049], [1e-9, 1 - 1e-9], [0.1, 0.2],
              [1 / 3, 0.1, 0.7]):
        total, prob = sum(w), w[0]            # [0.1, 0.2] and the three weights: total != 1 (the bisection)
        n = sm.prob_choices_first(w) * sm.TWO53
        assert n.denominator == 1
        n = int(n)
        assert ((n - 1) / sm.TWO53) * total < prob and not (n / sm.TWO53) * total < prob
        if total == 1.0:
            assert sm.prob_choices_first(w) == sm.prob_lt(prob)
        else:
            assert sm.prob_choices_first(w) != Fraction(prob) and abs(sm.prob_choices_first(w) - Fraction(prob) /
                                                                      Fraction(total)) < Fraction(1, 2**50)


def _hr_client(eps, d, seed=0):
    import numpy as np

    return fo.HadamardResponseClient(eps, d, np.random.RandomState(seed).permutation(d), index_mapper=lambda x: x)


def _enumerated(client, d, monkeypatch):
    """The exact channel of the client's code, by running it with every value of its integer draw and both answers
    of its uniform comparison forced (weights: 1/K and the comparison's event probability)."""
    import random as pyrandom

    import numpy as np

    from rldp_verify.structured import samplers as sm

    hr = client.hr
    K, high = int(hr.outsz), type(hr).__name__ == "Hadamard_Rand_high_priv"
    p_true = 1 - sm.prob_le(hr.pri_para) if high else sm.prob_lt((2 * hr.part) / (2 * hr.part - 1 + hr.exp))
    top = 1 - 2.0**-53
    rows = [[Fraction(0)] * d for _ in range(K)]
    for x in range(d):
        for v in range(K):
            for branch in (True, False):
                monkeypatch.setattr(pyrandom, "randint", lambda a, b, v=v: v)
                monkeypatch.setattr(np.random, "randint", lambda a, b=None, v=v: v)
                u = (top if high else 0.0) if branch else (0.0 if high else top)
                monkeypatch.setattr(pyrandom, "random", lambda u=u: u)
                y = int(client._perturb(x))
                rows[y][x] += Fraction(1, K) * (p_true if branch else 1 - p_true)
    monkeypatch.undo()
    return rows


@pytest.mark.parametrize("eps, d", [(0.5, 5), (1.0, 6), (2.0, 6), (3.0, 10), (5.0, 4)])
def test_hadamard_response_is_the_code_enumerated(eps, d, monkeypatch):
    """The closed-form channel equals the code's channel obtained by forcing each of its draws (an independent route:
    it does not use the structure's supports), and its ratio is the certified dense audit's."""
    import warnings

    client = _hr_client(eps, d)
    a = adapt(client)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)    # randint(0, float) in pure-ldp's encoder
        assert a.structure.dense()[0] == _enumerated(client, d, monkeypatch)
    assert audit(dense_mechanism(a), 1, ldp=True).ratio_lower == a.structure.ratio()
    assert abs(float(audit_adapted(a, eps).eps_realised()[0]) - eps) < 1e-12


def test_hadamard_response_sampler():
    import warnings

    for eps, d in ((0.5, 5), (2.0, 6)):
        client = _hr_client(eps, d, seed=4)
        _seed(34)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            _fits(dense_mechanism(adapt(client)), lambda x, c=client: c.privatise(x), n=4000, label=lambda o: str(int(o)))


def test_fast_lh_is_the_whole_seed_mixture(xxhash3):  # noqa: F811
    """FastLHClient draws its seed from range(k): the dense channel over (bucket, seed) is the whole mixture, and the
    library's sampler fits it (the data item is hashed as given)."""
    client = fo.FastLHClient(1.0, 4, 4, use_olh=True, index_mapper=lambda x: x)
    a = adapt(client)
    assert list(a.structure.seeds) == [0, 1, 2, 3] and "FastLHClient" in a.name
    _seed(35)
    _fits(dense_mechanism(a), lambda x: client.privatise(x), n=4000, label=lambda o: f"{int(o[0])}@{int(o[1])}")


def test_hash_family_not_reproducible():
    import itertools

    counter = itertools.count()
    for fam, msg in (([[lambda s: next(counter) % 4]], "not reproducible"),
                     ([[lambda s: 1 / 0]], "raised ZeroDivisionError: division by zero; the hash family cannot be")):
        client = fo.RAPPORClient(0.5, 4, fam, num_of_cohorts=1, index_mapper=lambda x: x)
        with pytest.raises(InputError, match=msg):
            audit_adapted(adapt(client, d=3), 1)
