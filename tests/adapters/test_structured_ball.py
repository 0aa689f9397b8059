"""(eps, F)-RLDP over a Rényi ball for GRR and subset selection without enumerating outputs
(:mod:`rldp_verify.structured.ball`, issue 26 item 1), against the dense route (the engine's ball audit on the
materialised channel) on random balls: zeros in P^, alpha in {1/2, 1, 3/2, 2, 3}, radii from 0 to inf."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from rldp_verify.cli import main
from rldp_verify.core.errors import CertificationError, InputError
from rldp_verify.rldp.audit import audit
from rldp_verify.rldp.mechio import Mechanism
from rldp_verify.rldp.uncertainty import RenyiBall
from rldp_verify.structured import SubsetSelection, Symmetric
from rldp_verify.structured import ball as ball_mod
from rldp_verify.structured.ball import ball_interval

ALPHAS = [Fraction(1, 2), Fraction(1), Fraction(3, 2), Fraction(2), Fraction(3)]
RADII = [Fraction(0), Fraction(1, 100), Fraction(1, 10), Fraction(1, 2), Fraction(2), float("inf")]


def _random_P(rng, a1, a2):
    w = [[rng.choice([0, 0, 1, 2, 5]) for _ in range(a2)] for _ in range(a1)]
    if sum(map(sum, w)) == 0:
        w[0][0] = 1
    tot = sum(map(sum, w))
    return [[Fraction(v, tot) for v in r] for r in w]


def _instance(seed):
    rng = random.Random(seed)
    a1, a2 = rng.randint(2, 3), rng.randint(1, 3)
    if a1 * a2 < 3:
        a2 += 1
    k = a1 * a2
    if seed % 2 == 0:
        r = Fraction(rng.randint(1, 8))
        st = Symmetric(k, r / (r + k - 1), Fraction(1) / (r + k - 1))
    else:
        st = SubsetSelection(k, rng.randint(1, k - 1), Fraction(rng.randint(0, 10), 10))
    P = _random_P(rng, a1, a2)
    ball = RenyiBall.from_radius(P, rng.choice(ALPHAS), RADII[seed % len(RADII)])
    return st, ball, a1, a2


_DENSE: dict = {}


def _dense_of(seed):
    """The dense route's audit of case ``seed``, computed once per test process: it does not depend on the structured
    module that the wrong-variant test patches (rldp_verify.structured.ball), so every test reads the same result."""
    if seed not in _DENSE:
        _DENSE[seed] = _dense(*_instance(seed))
    return _DENSE[seed]


def _dense(st, ball, a1, a2):
    rows, outs = st.dense()
    keep = [i for i, r in enumerate(rows) if any(r)]
    mech = Mechanism.from_matrix([rows[i] for i in keep], a1, a2, [outs[i] for i in keep])
    return audit(mech, 1, ball=ball, time_limit=60)


def _agrees(s, d, exact: bool = True) -> str | None:
    """None when the structured interval contains the dense route's value: the two certified intervals meet,
    and (``exact``) the structured one equals the dense one where the dense one is exact (or 1e-30-tight)."""
    lo, hi = d.ratio_lower, d.ratio_upper
    s_lo, s_hi = (s.ratio_lower, s.ratio_upper) if hasattr(s, "ratio_lower") else (s.lower, s.upper)
    inf = float("inf")
    if (lo is not None and s_hi < lo) or (hi is not None and s_lo is not None and s_lo > hi):
        return f"disjoint: structured [{s_lo}, {s_hi}], dense [{lo}, {hi}]"
    if exact and lo is not None and hi is not None and (lo == hi or (hi != inf and hi - lo <= Fraction(1, 10**30))):
        if inf in (lo, hi, s_lo, s_hi):
            return None if (s_lo, s_hi) == (lo, hi) else f"not equal where exact: [{s_lo}, {s_hi}], [{lo}, {hi}]"
        if not (abs(s_lo - lo) <= Fraction(1, 10**25) * hi and abs(s_hi - hi) <= Fraction(1, 10**25) * hi):
            return f"not equal where exact: structured [{s_lo}, {s_hi}], dense [{lo}, {hi}]"
    return None


CASES = range(36)


@pytest.mark.parametrize("seed", CASES)
def test_ball_interval_contains_the_dense_value(seed):
    st, ball, a1, a2 = _instance(seed)
    s = ball_interval(st, ball)
    assert s.lower <= s.upper
    if s.witness is not None and ball.radius != float("inf") and s.witness != [list(r) for r in ball.phat]:
        assert ball.contains(s.witness) is True                      # the lower end's witness is in F
    msg = _agrees(s, _dense_of(seed))
    assert msg is None, (seed, st, ball, msg)


def _failures(monkeypatch_ctx, seeds):
    bad = 0
    for seed in seeds:
        st, ball, a1, a2 = _instance(seed)
        try:
            s = ball_interval(st, ball)
        except Exception:  # noqa: BLE001 - a variant may also break the witness's re-check: that is a failure
            bad += 1
            continue
        bad += _agrees(s, _dense_of(seed)) is not None
    return bad


def test_wrong_variants_fail_the_comparison(monkeypatch):
    """Reading the ball as {P^} (t+ = P^(G|s): no Theorem 1) and filling the set with the lightest cells of s
    instead of the heaviest both make the structured interval miss the dense value on some of the balls."""
    seeds = [s for s in CASES if RADII[s % len(RADII)] not in (0, float("inf"))][:10]
    assert _failures(None, seeds) == 0
    with monkeypatch.context() as m:
        m.setattr(ball_mod, "_certified_end", lambda ball, rows, masses, up, dps: (
            max(masses) if up else min(masses), rows[0]))
        m.setattr(ball_mod, "_witness", lambda ball, phat, *a: phat)
        assert _failures(m, seeds) >= 3
    with monkeypatch.context() as m:
        m.setattr(ball_mod, "_order", lambda row, up: sorted(range(len(row)), key=lambda u: row[u], reverse=not up))
        assert _failures(m, seeds) >= 1


@pytest.mark.parametrize("spec, params", [
    ("multi-freq-ldpy:GRR_Client", ["k=6", "epsilon=1"]),
    ("multi-freq-ldpy:L_GRR_Client", ["k=6", "eps_perm=2", "eps_1=1"]),
    ("multi-freq-ldpy:SS_Client", ["k=6", "epsilon=1", "as_set=true"]),
    ("pure-ldp:DEClient", ["d=6", "epsilon=1"]),
])
@pytest.mark.parametrize("phat, alpha, radius", [("3,1,0;2,2,1", 2, "0.05"), ("1,0,0;0,0,0", "1/2", "0.1"),
                                                 ("1,1,1;0,2,0", 1, "0.3")])
def test_adapted_ball_audit_agrees_with_the_dense_route(spec, params, phat, alpha, radius):
    pytest.importorskip("multi_freq_ldpy")
    pytest.importorskip("pure_ldp.frequency_oracles")
    from rldp_verify.adapters import adapt_spec, dense_mechanism
    from rldp_verify.rldp.uncertainty import read_table
    from rldp_verify.structured import audit_structured

    a = adapt_spec(spec, params, model="code")
    ball = RenyiBall.from_radius(read_table(phat), Fraction(str(alpha)), Fraction(radius))
    s = audit_structured(a, "0.5", ball=ball)
    d = audit(dense_mechanism(a, (2, 3)), "0.5", ball=ball, time_limit=60)
    assert _agrees(s, d) is None
    assert s.uncertainty == d.uncertainty
    if d.verdict != "INCONCLUSIVE":
        assert s.verdict == d.verdict


def test_refusals():
    with pytest.raises(InputError, match="ordered subset selection"):
        ball_interval(SubsetSelection(4, 2, Fraction(1, 2), ordered=True),
                      RenyiBall.from_radius([[1, 1], [1, 1]], 2, Fraction(1, 10)))
    with pytest.raises(InputError, match="not a channel on the 2 x 2 = 4 inputs"):
        ball_interval(Symmetric(6, Fraction(1, 2), Fraction(1, 10)),
                      RenyiBall.from_radius([[1, 1], [1, 1]], 2, Fraction(1, 10)))


def _cli(capsys, argv):
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


# deployment sizes: slow marker (make test-slow), not the test command; their times are measured, not asserted
@pytest.mark.slow
@pytest.mark.parametrize("adapter, params, shape, eps", [
    ("multi-freq-ldpy:GRR_Client", ["k=65536", "epsilon=1"], (256, 256), "1"),
    ("multi-freq-ldpy:SS_Client", ["k=65536", "epsilon=5", "as_set=true"], (16, 4096), "5"),   # m = 437 < |U|
])
def test_cli_ball_at_d_65536(capsys, tmp_path, adapter, params, shape, eps):
    """d = 65,536 from a .npy P^ (a heavier row 0): certified, a witness in F, no dense channel."""
    np = pytest.importorskip("numpy")
    pytest.importorskip("multi_freq_ldpy")
    P = np.full(shape, 1.0)
    P[0, :8] = 40.0                        # counts: normalised
    path = str(tmp_path / "phat.npy")
    np.save(path, P)
    argv = ["audit", "--adapter", adapter, *[x for p in params for x in ("--param", p)], "--phat", path,
            "--alpha", "2", "--radius", "0.05", "--json"]
    rc, out, err = _cli(capsys, argv + ["--eps", eps])
    o = json.loads(out)
    assert o["uncertainty"].startswith("Rényi ball alpha = 2"), err
    lo, hi = Fraction(o["ratio_lower"]), Fraction(o["ratio_upper"])
    assert 1 < lo <= hi and hi - lo < Fraction(1, 10**15)
    assert rc == 0 and o["verdict"] == "PASS"               # the ball's ratio is below the protocol's e^1
    rc, out, _ = _cli(capsys, argv + ["--eps", "0.01"])
    assert rc == 1 and json.loads(out)["verdict"] == "FAIL"


# ------------------------------------------------------------------------------------- local hashing

def _lh_instance(seed):
    from rldp_verify.adapters import adapt_spec

    rng = random.Random(seed)
    a1, a2 = rng.randint(2, 3), rng.randint(2, 3)
    a = adapt_spec("pure-ldp:FastLHClient", [f"d={a1 * a2}", "epsilon=1", f"k={rng.randint(2, 6)}",
                                             f"g={rng.choice([2, 3])}"], model="code")
    P = _random_P(rng, a1, a2)
    ball = RenyiBall.from_radius(P, rng.choice(ALPHAS), rng.choice(RADII[:5]))
    return a, ball, a1, a2


def _lh_failures(seeds):
    from rldp_verify.adapters import dense_mechanism
    from rldp_verify.structured.ball_hashing import hashing_ball_interval

    bad = []
    for seed in seeds:
        a, ball, a1, a2 = _lh_instance(seed)
        try:
            s = hashing_ball_interval(a.structure, ball)
        except CertificationError:           # the witness's exact ratio above the certified upper end
            bad.append(seed)
            continue
        d = audit(dense_mechanism(a, (a1, a2)), 1, ball=ball, time_limit=60)
        if _agrees(s, d, exact=False) is not None or not s.lower <= s.upper:
            bad.append(seed)
    return bad


def test_local_hashing_ball_interval_contains_the_dense_value():
    """FastLHClient (k <= 6 seeds: the whole public range, so the dense channel is the whole mixture): the
    certified interval (decoupled upper end, witness lower end) contains the dense audit's interval."""
    assert _lh_failures(range(16)) == []


def test_local_hashing_ball_wrong_variants(monkeypatch):
    """Reading each conditional's ball as {P^} in the upper end, or giving both rows their whole radius in the
    witness without the membership check (outside the joint projection), misses the dense value."""
    from rldp_verify.structured import ball_hashing as bh

    with monkeypatch.context() as m:
        m.setattr(bh, "_certified_ends", lambda ball, s, x, dps: (x, x))
        assert len(_lh_failures(range(16))) >= 2
    with monkeypatch.context() as m:
        def decoupled(st, ball, x1, x2, s1, s2):
            alpha, B = float(ball.alpha), float(ball.radius)
            r = [ball_mod._float_radius(alpha, B, float(ball.marginal(s))) for s in (s1, s2)]
            up = st.a >= st.b
            return (float(ball_mod._float_ends([float(x1)], [r[0]], alpha, up)[0]),
                    float(ball_mod._float_ends([float(x2)], [r[1]], alpha, not up)[0]))
        m.setattr(bh, "_split", decoupled)
        m.setattr(RenyiBall, "contains", lambda self, W, dps=50: True)
        assert len(_lh_failures(range(16))) >= 1


@pytest.mark.slow
def test_cli_local_hashing_ball_at_d_65536(capsys, tmp_path):
    """OLH (multi-freq-ldpy LH_Client) at d = 65,536 = 256 x 256 over a ball: a certified interval, no outputs."""
    np = pytest.importorskip("numpy")
    pytest.importorskip("multi_freq_ldpy")
    P = np.full((256, 256), 1.0)
    P[0, :8] = 40.0
    path = str(tmp_path / "phat.npy")
    np.save(path, P)
    argv = ["audit", "--adapter", "multi-freq-ldpy:LH_Client", "--param", "k=65536", "--param", "epsilon=1",
            "--phat", path, "--alpha", "2", "--radius", "0.05", "--json"]
    rc, out, err = _cli(capsys, argv + ["--eps", "1.01"])
    o = json.loads(out)
    assert rc == 0 and o["verdict"] == "PASS", err
    lo, hi = Fraction(o["ratio_lower"]), Fraction(o["ratio_upper"])
    assert 1 < lo < hi and "witness: P in F" in " ".join(o["notes"])
    rc, out, _ = _cli(capsys, argv + ["--eps", "0.5"])
    assert rc == 1
