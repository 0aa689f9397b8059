"""Engine mutants (issue 23 item 4), one per certificate kind: an engine error that loosens a bound, drops a
vertex or rounds the wrong way makes a certificate the independent checker rejects, whatever the claims say.
Each test first shows the unmutated engine's certificate accepted."""

import flint

from rldp_verify.certificates import recheck
from rldp_verify.certificates.audit import audit_certificate
from rldp_verify.certificates.lp import solve_with_certificate
from rldp_verify.certificates.value import value_certificate
from rldp_verify.certificates.vertices import vertices_with_certificate
from rldp_verify.core import rigorous
from rldp_verify.rldp.audit import audit
from tests.certificates.test_audit import SETS, Q

BALL = SETS["ball-2"]


def _audit_cert():
    res = audit(Q, "log(4)", sizes=(2, 2), **BALL)
    return audit_certificate(res, Q, "log(4)", sizes=(2, 2), **BALL)


def test_audit_upper_end_rounded_down(monkeypatch):
    """rldp-verify audit --json's ratio_upper rounded the wrong way (the issue's first finding)."""
    import rldp_verify.rldp.audit.core as core

    assert recheck(_audit_cert()).ok
    real = core._dec
    monkeypatch.setattr(core, "_dec", lambda x, digits, down: real(x, digits, True if down is False else down))
    r = recheck(_audit_cert())
    assert not r.ok and "below the certified bound" in r.message


def test_audit_lenient_dual(monkeypatch):
    """A dual check that accepts every bound: the audit's upper end becomes P^'s ratio, below the true sup."""
    from rldp_verify.rldp.audit.pair import PairProblem

    monkeypatch.setattr(PairProblem, "certify", lambda self, r, params, dps: True)
    res = audit(Q, "log(4)", sizes=(2, 2), **BALL)
    assert not recheck(audit_certificate(res, Q, "log(4)", sizes=(2, 2), **BALL)).ok


def test_lp_wrong_dual(monkeypatch):
    """The exact basis re-solve returns a dual off by 10^-9 and the engine's own re-check is switched off."""
    import rldp_verify.core.lp as lp

    c, A, b = [3, 2], [[1, 1], [1, 3], [1, 0], [-1, 0], [0, -1]], [4, 6, 3, 0, 0]
    assert recheck(solve_with_certificate("lp", c, A, b)[1]).ok
    real = lp._exact_simplex

    def wrong(*args, **kw):
        out = real(*args, **kw)
        if out is None:
            return out
        x, y, d = out
        return x, [v + lp.Fraction(1, 10**9) for v in y], d
    monkeypatch.setattr(lp, "_exact_simplex", wrong)
    monkeypatch.setattr(lp, "_recheck_bounded", lambda *a, **k: None)
    res, cert = solve_with_certificate("lp", c, A, b)
    assert res.method == "highs+exact-basis"
    assert not recheck(cert).ok


def test_vertex_enumeration_drops_a_vertex(monkeypatch):
    import rldp_verify.core.polytope as polytope

    P = ([[1, 0, 0], [0, 1, 0], [0, 0, 1], [-1, 0, 0], [0, -1, 0], [0, 0, -1], [1, 1, 1]], [1, 1, 1, 0, 0, 0, 2])
    assert recheck(vertices_with_certificate("cube-cut", *P)[1]).ok
    real = polytope.generators_of_rows
    monkeypatch.setattr(polytope, "generators_of_rows", lambda *a, **k: (lambda v, r, lin: (v[:-1], r, lin))(*real(*a, **k)))
    V, cert = vertices_with_certificate("cube-cut", *P)
    assert len(V) == 6 and not recheck(cert).ok


def test_rigorous_upper_rounded_down(monkeypatch):
    """rigorous.upper returning the lower end of the ball: the 'upper bound' of ln 2 is below ln 2."""
    with flint.ctx.workprec(60):
        ball = flint.arb(2).log()
        assert recheck(value_certificate("ln2", ["log", 2], upper=rigorous.upper(ball))).ok
        monkeypatch.setattr(rigorous, "upper", rigorous.lower)
        assert not recheck(value_certificate("ln2", ["log", 2], upper=rigorous.upper(ball))).ok
