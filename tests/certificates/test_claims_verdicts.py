"""Wrong variants of the certificates that the PRAM Sec. 4 claims carry (issue 24, lower priority of the verdicts
helper): each claim's certificates are accepted as built and rejected by the independent checker once perturbed."""

from __future__ import annotations

import copy

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.claims import Context


def _certs(check):
    docs = check(Context()).evidence["certificates"]
    assert docs and all(recheck(d).ok for d in docs)
    return docs


def _rejected(doc):
    r = recheck(doc)
    assert not r.ok, f"a wrong certificate was accepted: {r.message}"


def _swap_exp(e, new):
    """The expression with every e^(1/20) replaced by e^new."""
    if isinstance(e, list):
        if e[:1] == ["exp"] and e[1] == "1/20":
            return ["exp", new]
        return [_swap_exp(x, new) for x in e]
    return e


def test_interval_ends_with_a_wrong_alpha_rejected():
    from proofs.pram.sec4_2_real_data import check_interval

    for doc in _certs(check_interval):
        bad = copy.deepcopy(doc)
        bad["statement"]["expr"] = _swap_exp(bad["statement"]["expr"], "1/10")   # alpha = 0.1: J = [0.475, 0.525]
        _rejected(bad)


def test_grid_outside_j_rejected_when_the_side_is_wrong():
    from proofs.pram.sec4_2_real_data import check_grid

    for doc in _certs(check_grid):
        bad = copy.deepcopy(doc)
        bad["statement"]["expr"] = ["-", 0, bad["statement"]["expr"]]   # the other side of J's end
        _rejected(bad)


@pytest.mark.parametrize("module, name", [("proofs.pram.sec4_2_real_data", "check_boundary"),
                                          ("proofs.pram.sec4_1_tables", "check_four_values")])
def test_strict_inequalities_reversed_rejected(module, name):
    import importlib

    for doc in _certs(getattr(importlib.import_module(module), name)):
        bad = copy.deepcopy(doc)
        bad["statement"]["expr"] = ["-", 0, bad["statement"]["expr"]]
        _rejected(bad)
