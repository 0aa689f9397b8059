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


def _replace(e, old, new):
    if isinstance(e, list):
        return [_replace(x, old, new) for x in e]
    return new if e == old else e


def test_sec8_counts_certificates_with_a_wrong_operand_rejected():
    from proofs.rldp.sec8_counts import check_matrix_size, check_occ_edu, check_ratio

    for doc in _certs(check_matrix_size):   # 57,600^2 doubles are 24.7 GiB: the 'disagrees' side fails
        bad = copy.deepcopy(doc)
        bad["statement"]["expr"] = _replace(bad["statement"]["expr"], 57840, 57600)
        if "GiB" in doc["name"]:
            _rejected(bad)
    for doc in _certs(check_occ_edu):        # 15 x 15 categories: neither 240 nor 57840
        bad = copy.deepcopy(doc)
        bad["statement"]["expr"] = _replace(bad["statement"]["expr"], 16, 15)
        _rejected(bad)
    (doc,) = _certs(check_ratio)            # 0.3897 is not more than 6 x 0.075
    bad = copy.deepcopy(doc)
    bad["statement"]["expr"] = _replace(bad["statement"]["expr"], 5, 6)
    _rejected(bad)


def test_geometric_prefactor_sign_reversed_rejected():
    from proofs.kairouz.sec3_4_experiments import check_geo

    doc = _certs(check_geo)[0]              # the prefactor's sign (the corrected reading's audits follow it)
    bad = copy.deepcopy(doc)
    bad["statement"]["expr"] = ["-", 0, bad["statement"]["expr"]]
    _rejected(bad)
