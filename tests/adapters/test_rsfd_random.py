"""(eps, P)-RLDP of RS+FD with random fake data (multi-freq-ldpy's ``RSpFD_UE_rnd_Client``, UE-r; issue 26 item 2,
:mod:`rldp_verify.structured.rsfd`): the ratio of sums whose fake-data factor w(n) couples an attribute's bits,
maximised with the best set of ones of each size, equals eq. (62) on the dense channel exactly on random P (with
zeros) at small sizes; two wrong models (the zero-vector fake law, the ones chosen by pi(.|s) alone) fail that
comparison; the CLI route and the refusal of a bit channel with p in {0, 1}."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction

import pytest

from rldp_verify.cli import main
from rldp_verify.core.errors import InputError
from rldp_verify.rldp.audit import audit
from rldp_verify.structured import rsfd
from rldp_verify.structured.channels import BitChannel, UnaryProduct
from rldp_verify.structured.composite import FakeData
from rldp_verify.structured.rldp import p_ratio

pytest.importorskip("multi_freq_ldpy")

SPEC = "multi-freq-ldpy:RSpFD_UE_rnd_Client"


def _random_P(rng, a1, a2):
    w = [[rng.choice([0, 0, 1, 2, 5]) for _ in range(a2)] for _ in range(a1)]
    if sum(map(sum, w)) == 0:
        w[0][0] = 1
    tot = sum(map(sum, w))
    return [[Fraction(v, tot) for v in r] for r in w]


def _instance(seed):
    """lst_k of 2 or 3 attributes of sizes 2..3 (at most 2^8 outputs x 18 inputs densely), a prefix split, P."""
    rng = random.Random(seed)
    lst = [rng.randint(2, 3) for _ in range(2)] + ([2] if seed % 3 == 0 else [])
    r = rng.randint(1, len(lst) - 1)
    sizes = (math.prod(lst[:r]), math.prod(lst[r:]))
    eps = rng.choice(["0.5", "1", "2"])
    return lst, eps, sizes, _random_P(rng, *sizes)


def _cases():
    from rldp_verify.adapters import adapt_spec, dense_mechanism

    out = []
    for seed in range(10):
        lst, eps, sizes, P = _instance(seed)
        a = adapt_spec(SPEC, [f"lst_k={','.join(map(str, lst))}", f"epsilon={eps}"], model="code")
        d = audit(dense_mechanism(a, sizes), 1, distribution=P)
        assert d.ratio_lower == d.ratio_upper
        out.append((a.structure, P, sizes, d.ratio_lower))
    return out


@pytest.fixture(scope="module")
def cases():
    return _cases()


def test_rsfd_random_p_audit_is_the_dense_route(cases):
    """Exact equality with eq. (62) on the dense channel (2^(sum k_j) outputs), on ten random instances."""
    for st, P, sizes, dense in cases:
        assert p_ratio(st, P, sizes) == dense, (sizes, P)
    assert len({dense for *_, dense in cases}) >= 5          # the instances are not all alike


def test_rsfd_random_wrong_models_are_rejected(cases, monkeypatch):
    """Two wrong models each disagree with the dense route on some instance (and the right one on none, above):
    the zero-vector fake law (w(n) dropped), and the ones of each size chosen by pi(.|s) alone (not by
    pi(.|s) - lambda pi(.|s'))."""
    real_pair = rsfd._pair
    monkeypatch.setattr(rsfd, "_pair", lambda parts, pis, pjs: real_pair(
        [(c, "zero" if f == "random" else f) for c, f in parts], pis, pjs))
    assert any(p_ratio(st, P, s) != d for st, P, s, d in cases)
    monkeypatch.undo()

    def by_pi(c, pi, pj, j):
        h0, h1 = rsfd._h(c, "random")
        k, dh = c.d, h1 - h0
        w = [Fraction(k) / (n * h1 + (k - n) * h0) for n in range(k + 1)]
        order = sorted(range(k), key=lambda v: -dh * pi[v])
        cands = [(w[n] * (h0 + dh * sum(pi[v] for v in order[:n])), w[n] * (h0 + dh * sum(pj[v] for v in order[:n])))
                 for n in range(k + 1)]
        return lambda lam: (max(cands, key=lambda e: e[0] - lam * e[1]), "wrong")

    monkeypatch.setattr(rsfd, "_random_oracle", by_pi)
    assert any(p_ratio(st, P, s) != d for st, P, s, d in cases)


def test_rsfd_random_witness_and_size():
    """The witness names the pair and each attribute's number of ones; d = 8 x 8 (2^16 outputs) in well under a
    second, and one secret with mass gives 1."""
    from rldp_verify.adapters import adapt_spec
    from rldp_verify.structured.rldp import p_audit

    a = adapt_spec(SPEC, ["lst_k=8,8", "epsilon=1"], model="code")
    rng = random.Random(5)
    P = _random_P(rng, 8, 8)
    rho, wit = p_audit(a.structure, P, (8, 8))
    assert rho > 1 and wit["s"] != wit["s_prime"] and "ones, at values" in wit["y"]
    one = [[Fraction(1, 8)] * 8] + [[0] * 8] * 7
    assert p_ratio(a.structure, one, (8, 8)) == 1


def test_rsfd_random_refuses_a_deterministic_bit():
    """p = 1 (a hot bit always 1): some outputs impossible under the fake law; refused with the reason."""
    st = FakeData([(UnaryProduct(2, BitChannel(Fraction(1), Fraction(1, 3))), "random"),
                   (UnaryProduct(2, BitChannel(Fraction(1, 2), Fraction(1, 3))), "random")])
    with pytest.raises(InputError, match="0 < p < 1"):
        p_ratio(st, [[Fraction(1, 4)] * 2] * 2, (2, 2))


def test_cli_rsfd_random_distribution(capsys):
    """The CLI route: structured (eps, P) audit of RSpFD_UE_rnd_Client equals the dense route (--certificate forces
    the dense channel, --sizes)."""
    base = ["audit", "--adapter", SPEC, "--param", "lst_k=2,3", "--param", "epsilon=1", "--eps", "1",
            "--distribution", "0.1,0.2,0;0.3,0,0.4", "--json"]
    rc = main(base)
    o = json.loads(capsys.readouterr().out)
    assert o["uncertainty"].startswith("F = {P}") and o["structure"].startswith("RS+FD")
    assert rc == {"PASS": 0, "FAIL": 1}[o["verdict"]]
    from rldp_verify.adapters import adapt_spec, dense_mechanism

    a = adapt_spec(SPEC, ["lst_k=2,3", "epsilon=1"], model="code")
    P = [[Fraction(1, 10), Fraction(2, 10), 0], [Fraction(3, 10), 0, Fraction(4, 10)]]
    d = audit(dense_mechanism(a, (2, 3)), 1, distribution=P)
    lo, hi = Fraction(o["ratio_lower"]), Fraction(o["ratio_upper"])      # the exact ratio printed to 20 digits
    assert lo <= d.ratio_lower <= hi and hi - lo < Fraction(1, 10**18) and o["verdict"] == "FAIL"
    assert "ones, at values" in o["structured_witness"]["y"]
