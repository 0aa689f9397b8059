"""rldp.steps.a6.a106-scaling's certificate (V2', V3' in C; the printed image e^-eps V2' in {e^-eps, 1}^X): the checker
accepts the facts of the true sets and rejects those of a wrong image or of a vector outside C."""

from __future__ import annotations

from fractions import Fraction as F

import proofs.rldp.steps_appA6 as a6
from rldp_verify.certificates import instances_rldp as inst
from rldp_verify.certificates import recheck


def _doc(V2, V3, U, t):
    return inst.all_nonneg_certificate("a106", [["min", *a6._scaling_facts(V2, V3, U, t)]])


def test_true_sets_accepted_wrong_image_and_vector_outside_c_rejected(monkeypatch):
    t, S, U = F(2), 2, 2
    V2, V3 = a6._vectors((F(1), t), S, U), a6._vectors((1 / t, F(1)), S, U)
    assert recheck(_doc(V2, V3, U, t)).ok
    # the image written as e^eps v instead of e^-eps v
    monkeypatch.setattr(a6, "printed_V3_from_V2", lambda v, t: [[x * t for x in r] for r in v])
    assert not recheck(_doc(V2, V3, U, t)).ok
    monkeypatch.undo()
    # a vector with an entry e^(2 eps) next to e^-eps: (A90) fails across blocks
    outside = V3 | {((t * t, F(1)), (1 / t, F(1)))}
    assert not recheck(_doc(V2, outside, U, t)).ok
