"""rldp_verify.core.polytope: every backend (cdd, lrs, Normaliz) on polyhedra whose vertices and rays are known by
hand (fractional vertices, rays, equalities, lineality), cdd's canonicalisation, and the lrs reader's errors
(issue 9: generic mutants of core/polytope.py)."""

import subprocess
from fractions import Fraction

import pytest

from rldp_verify.core import polytope
from rldp_verify.core.polytope import generators_of_rows, irredundant_rows, vertices, vertices_lrs, vertices_normaliz

F = Fraction
BACKENDS = [vertices, vertices_lrs]
try:                                    # optional dependency
    import PyNormaliz  # noqa: F401
    BACKENDS.append(vertices_normaliz)
except ImportError:                     # pragma: no cover - PyNormaliz not installed
    pass


def _direction(r):
    """A ray up to positive scaling: divided by its largest absolute coordinate."""
    s = max(abs(v) for v in r)
    return tuple(F(v) / s for v in r)


@pytest.mark.parametrize("backend", BACKENDS)
def test_triangle_with_fractional_vertices(backend):
    # x >= 0, y >= 0, 2x + 3y <= 1: vertices (0, 0), (1/2, 0), (0, 1/3)
    v, r = backend([[-1, 0], [0, -1], [2, 3]], [0, 0, 1])
    assert set(v) == {(0, 0), (F(1, 2), 0), (0, F(1, 3))} and len(v) == 3 and not r
    assert all(isinstance(t, Fraction) for p in v for t in p)


@pytest.mark.parametrize("backend", BACKENDS)
def test_simplex_by_an_equality(backend):
    # x, y, z >= 0, x + y + z = 1/2: vertices (1/2) e_i
    A = [[-1, 0, 0], [0, -1, 0], [0, 0, -1]]
    v, r = backend(A, [0, 0, 0], [[1, 1, 1]], [F(1, 2)])
    assert set(v) == {(F(1, 2), 0, 0), (0, F(1, 2), 0), (0, 0, F(1, 2))} and not r
    # two equalities: x + y + z = 1 and x - y = 0 leave the segment from (0, 0, 1) to (1/2, 1/2, 0)
    v, r = backend(A, [0, 0, 0], [[1, 1, 1], [1, -1, 0]], [1, 0])
    assert set(v) == {(0, 0, 1), (F(1, 2), F(1, 2), 0)} and not r


@pytest.mark.parametrize("backend", BACKENDS)
def test_unbounded_polyhedron_has_rays(backend):
    # y >= 0, x >= 1, x - y >= 1/2: vertices (1, 0) and (1, 1/2), rays (1, 0) and (1, 1)
    v, r = backend([[0, -1], [-1, 0], [-1, 1]], [0, -1, F(-1, 2)])
    assert set(v) == {(1, 0), (1, F(1, 2))}
    assert {_direction(t) for t in r} == {(1, 0), (1, 1)}


@pytest.mark.parametrize("backend", BACKENDS)
def test_pointed_cone_has_the_origin_as_vertex(backend):
    # x >= 0, y >= 0 (all right-hand sides 0): the cone's apex (0, 0) is its one vertex; cdd leaves it
    # implicit for a homogeneous system, so vertices() used to return the rays only
    v, r = backend([[-1, 0], [0, -1]], [0, 0])
    assert v == [(0, 0)] and {_direction(t) for t in r} == {(1, 0), (0, 1)}
    # x <= 2y, y <= x (a cone strictly inside the quadrant): apex (0, 0), rays (1, 1) and (2, 1)
    v, r = backend([[1, -2], [-1, 1]], [0, 0])
    assert v == [(0, 0)] and {_direction(t) for t in r} == {(1, 1), (1, F(1, 2))}


def test_cone_with_a_line_has_no_vertex():
    # x = 0 as two inequalities, y free: a line, no vertex (generators_of_rows says lineality)
    verts, rays, lin = generators_of_rows([[0, 1, 0], [0, -1, 0]])
    assert verts == [] and lin and {_direction(t) for t in rays} <= {(0, 1), (0, -1)}


def test_cdd_rows_lineality_and_canonicalisation():
    # {x : x1 >= 0} in the plane: the x2 axis is a lineality space
    verts, rays, lin = generators_of_rows([[0, 1, 0]])
    assert lin is True
    # x1 >= 1, x2 >= 0 (pointed): vertex (1, 0), no lineality
    verts, rays, lin = generators_of_rows([[-1, 1, 0], [0, 0, 1]])
    assert lin is False and verts == [(1, 0)] and {_direction(t) for t in rays} == {(1, 0), (0, 1)}
    # the same with the row x1 >= 1 given as an equality (lin): the ray (1, 0) goes
    verts, rays, lin = generators_of_rows([[-1, 1, 0], [0, 0, 1]], [0])
    assert lin is False and verts == [(1, 0)] and {_direction(t) for t in rays} == {(0, 1)}
    # a redundant row (x1 >= -5) and an implicit equality (x2 >= 0, x2 <= 0) in a bounded segment 0 <= x1 <= 2:
    # canonicalised or not, the generators are the same two points
    rows = [[0, 1, 0], [2, -1, 0], [5, 1, 0], [0, 0, 1], [0, 0, -1]]
    for canon in (False, True):
        verts, rays, lin = generators_of_rows(rows, canonicalize=canon)
        assert set(verts) == {(0, 0), (2, 0)} and not rays and lin is False


def test_irredundant_rows_implicit_equalities_and_equality_rows():
    # x1 <= 0 and -x1 <= 0 are an implicit equality (neither is a facet); x2 <= 1 is, x2 <= 2 is implied
    assert irredundant_rows([[-1, 0], [1, 0], [0, 1], [0, 1]], [0, 0, 1, 2]) == [2]
    # an equality row is never listed (indices are those of A only)
    assert irredundant_rows([[0, 1], [0, -1]], [1, 0], [[1, 0]], [0]) == [0, 1]


def test_lrs_rational_input_and_timeout(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)          # the lrs input file lives in a temporary directory, not in the cwd
    # x >= 1/6, y >= 0, 3x + 5y <= 7/3 (lrs input 'p/q'): vertices (1/6, 0), (1/6, 11/30), (7/9, 0)
    v, r = vertices_lrs([[-3, 0], [0, -1], [3, 5]], [F(-1, 2), 0, F(7, 3)])
    assert set(v) == {(F(1, 6), 0), (F(1, 6), F(11, 30)), (F(7, 9), 0)} and not r
    with pytest.raises(subprocess.TimeoutExpired):
        vertices_lrs([[-1, 0], [0, -1], [2, 3]], [0, 0, 1], timeout=1e-9)
    assert list(tmp_path.iterdir()) == []


def test_lrs_reports_lineality_and_missing_binary(monkeypatch):
    with pytest.raises(RuntimeError, match="lineality space"):
        vertices_lrs([[-1, 0]], [0])                       # x1 >= 0 in the plane
    monkeypatch.setattr("shutil.which", lambda name: None)
    with pytest.raises(FileNotFoundError, match=r"^lrs \(Debian package lrslib\) is not installed$"):
        vertices_lrs([[-1]], [0])


def _fake_lrs(monkeypatch, stdout):
    monkeypatch.setattr("shutil.which", lambda name: "/bin/lrs-fake")
    monkeypatch.setattr(subprocess, "run",
                        lambda *a, **k: subprocess.CompletedProcess(a, 0, stdout=stdout, stderr=""))


def test_lrs_reader(monkeypatch):
    # lrs restarts on overflow and prints a second block: only the last complete block counts; comment lines
    # ('*...') and blank lines inside it are skipped
    out = ("V-representation\nbegin\n***** 3 rational\n 1 9 9\nend\n*restart\nV-representation\nbegin\n"
           "***** 3 rational\n\n 1 1/2 0\n*comment\n 0 1 -1\nend\n*Totals\n")
    _fake_lrs(monkeypatch, out)
    assert vertices_lrs([[-1]], [0]) == ([(F(1, 2), F(0))], [(F(1), F(-1))])
    _fake_lrs(monkeypatch, "V-representation\nno feasible point\n")
    with pytest.raises(RuntimeError, match=r"^lrs produced no V-representation$"):
        vertices_lrs([[-1]], [0])
    _fake_lrs(monkeypatch, "end\n")
    with pytest.raises(RuntimeError, match=r"^lrs produced no V-representation$"):
        vertices_lrs([[-1]], [0])
    _fake_lrs(monkeypatch, "begin\n 2 1 1\nend\n")
    with pytest.raises(RuntimeError, match="unexpected lrs output line: '2 1 1'"):
        vertices_lrs([[-1]], [0])


def test_integer_row():
    assert polytope._integer_row([F(1, 2), F(-2, 3), F(0), F(5)]) == [3, -4, 0, 30]
    assert polytope._integer_row([F(2), F(-7)]) == [2, -7]


def test_lrs_input_file(monkeypatch):
    """The H-representation written for lrs (lrslib's format: rows [b, -A], 1-based linearity indices)."""
    seen = []

    def run(cmd, **kw):
        with open(cmd[1]) as fh:
            seen.append(fh.read())
        return subprocess.CompletedProcess(cmd, 0, stdout="begin\n 1 0 0\nend\n", stderr="")

    monkeypatch.setattr("shutil.which", lambda name: "/bin/lrs-fake")
    monkeypatch.setattr(subprocess, "run", run)
    vertices_lrs([[-1, 0], [0, -1]], [0, F(1, 2)], [[1, 1]], [F(1, 3)])
    assert seen == ["rldp\nH-representation\nlinearity 1 3\nbegin\n3 3 rational\n0 1 0\n1/2 0 1\n1/3 -1 -1\nend\n"]
    vertices_lrs([[2, 0]], [-3])
    assert seen[1] == "rldp\nH-representation\nbegin\n1 3 rational\n-3 -2 0\nend\n"
