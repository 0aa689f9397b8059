"""symbolic-identity certificates with log and exp atoms (issue 23): wrong certificates are rejected, their correct
twins accepted."""

import copy
import json

import pytest

from rldp_verify.certificates import envelope, recheck
from rldp_verify.certificates.identity import Tree
from rldp_verify.certificates.identity_logs import Atoms, log_identity_certificate

x, y = Tree.var("x"), Tree.var("y")


def _doc(lhs, rhs, variables, points, atoms=None):
    return envelope("symbolic-identity", "t", {"lhs": lhs, "rhs": rhs, "variables": variables, "atoms": atoms or {}},
                    {"points": points})


def _log_product():
    """log(x^2 y / (x + 1)) == 2 log x + log y - log(x + 1), the log of a quotient of atoms' bases."""
    A = Atoms()
    lx, ly, l1 = A.log("Lx", x), A.log("Ly", y), A.log("L1", x + 1)
    return A, A.log_of(x * x * y / (x + 1), {"Lx": 2, "Ly": 1, "L1": -1}), 2 * lx + ly - l1


def test_log_of_a_product_accepted_and_wrong_exponent_rejected():
    A, lhs, rhs = _log_product()
    doc = log_identity_certificate("log", lhs, rhs, A, words="test")
    r = recheck(doc)
    assert r.ok and "1 log/exp nodes wherever the bases of Lx, Ly, L1 are > 0" in r.message, r.message
    bad = copy.deepcopy(doc)
    bad["statement"]["lhs"][2]["Lx"] = 1                       # a wrong exponent n_a
    r = recheck(bad)
    assert not r.ok and "log/exp node 0" in r.message
    bad = copy.deepcopy(doc)                                   # the exponent and the rhs both wrong: still rejected
    bad["statement"]["lhs"][2]["Lx"] = 1
    bad["statement"]["rhs"] = ["-", ["+", "$Lx", "$Ly"], "$L1"]
    assert not recheck(bad).ok


def test_base_whose_product_is_not_the_argument_rejected():
    A, lhs, rhs = _log_product()
    doc = log_identity_certificate("log", lhs, rhs, A, words="test")
    bad = copy.deepcopy(doc)
    bad["statement"]["atoms"]["L1"] = ["log", ["+", "$x", 2]]  # log(x + 2) in place of log(x + 1)
    r = recheck(bad)
    assert not r.ok and "log/exp node 0: its argument - its value" in r.message


def test_identity_true_for_one_value_of_a_log_atom_rejected():
    """x log(x) == x holds at log x = 1 only: with the atom a variable of its own, the grid shows it is no identity;
    with too few points for the atom (the degree in it is 1, one point is given, at which it holds) it is refused."""
    A = Atoms()
    lx = A.log("Lx", x)
    doc = log_identity_certificate("one", x * A.log_of(x, {"Lx": 1}), x, A, words="test")
    r = recheck(doc)
    assert not r.ok and "lhs - rhs" in r.message and "!= 0" in r.message
    doc["data"]["points"]["Lx"] = [1]
    r = recheck(doc)
    assert not r.ok and "variable Lx: 1 distinct points" in r.message and "needs 2" in r.message
    ok = log_identity_certificate("twin", x * A.log_of(x, {"Lx": 1}), lx * x, A, words="test")
    assert recheck(ok).ok


def test_too_few_points_for_a_node_identity_rejected():
    """log(x^3) == 3 log x: the node identity x^3 == x^3 needs 4 points in x, not the 1 of the main identity."""
    A = Atoms()
    lx = A.log("Lx", x)
    doc = log_identity_certificate("cube", A.log_of(x * x * x, {"Lx": 3}), 3 * lx, A, words="test")
    assert recheck(doc).ok and len(doc["data"]["points"]["x"]) == 4
    doc["data"]["points"]["x"] = doc["data"]["points"]["x"][:3]
    r = recheck(doc)
    assert not r.ok and "needs 4" in r.message


def test_powers_as_exp_atoms():
    """(x y)^a = x^a y^a, and x^(1 - a) = x / x^a, with the basis atoms x^a, y^a; a power written with the wrong
    exp-atom exponents is rejected."""
    a = Tree.var("a")
    A = Atoms()
    for n, v in (("x", x), ("y", y)):
        A.exp("E" + n, a * A.log("L" + n, v))
    lhs = A.power(x * y, a, {"Lx": 1, "Ly": 1}, {"Ex": 1, "Ey": 1}) * A.power(x, 1 - a, {"Lx": 1}, {"Lx": 1, "Ex": -1})
    doc = log_identity_certificate("pow", lhs, Tree.var("Ey") * x, A, words="test")
    assert recheck(doc).ok
    bad = json.loads(json.dumps(doc).replace('{"Lx": 1, "Ex": -1}', '{"Ex": -1}'))   # x^(1-a) read as x^(-a)
    r = recheck(bad)
    assert not r.ok and "log/exp node" in r.message


def test_malformed_atoms_rejected():
    good = _doc(["log", ["*", "$x", "$x"], {"L": 2}], ["*", 2, "$L"], ["x"], {"x": [2, 3, 4], "L": [1, 2]},
                atoms={"L": ["log", "$x"]})
    assert recheck(good).ok
    for path, value, words in [(("statement", "lhs"), ["log", "$x", {"M": 1}], "atoms declared before it"),
                               (("statement", "lhs"), ["log", "$x", {"L": "1/2"}], "integers"),
                               (("statement", "lhs"), ["log", "$x", {"L": True}], "integers"),
                               (("statement", "lhs"), ["log", "$x", [["L", 1]]], "integers"),
                               (("statement", "variables"), ["x", "L"], "distinct names"),
                               (("statement", "atoms"), {"L": ["sin", "$x"]}, "not log or exp"),
                               # a definition using itself or a later atom: no order gives the atoms their values
                               (("statement", "atoms"), {"L": ["log", ["+", "$x", "$L"]]}, "$L not among"),
                               (("statement", "atoms"), {"L": ["log", "$E"], "E": ["exp", "$x"]}, "$E not among"),
                               (("statement", "atoms"), {"L": ["log", "$x"], "E": ["exp", ["log", "$x", {"E": 1}]]},
                                "atoms declared before it")]:
        doc = copy.deepcopy(good)
        doc[path[0]][path[1]] = value
        r = recheck(doc)
        assert not r.ok and words in r.message, (value, r.message)


def test_builder_refuses_a_grid_too_large():
    A = Atoms()
    z = [Tree.var(f"z{i}") for i in range(6)]
    big = z[0] ** 9 * z[1] ** 9 * z[2] ** 9 * z[3] ** 9 * z[4] ** 9 * z[5] ** 9
    with pytest.raises(ValueError, match="more than 10000"):
        log_identity_certificate("big", A.log_of(big, {}), 0, A, words="test")


def test_catalogue_mutant_log_atom_dropped_rejected():
    """certificate.identity-log-atom-dropped (mutation/catalogue.py), applied as the mutation runner applies it: the
    certificate of rldp.thm1.factorisation's (25) is rejected by the checker (a log node's argument is not the
    product of its atoms' bases); accepted again after the revert."""
    from mutation.catalogue import MODULES, MUTANTS
    from proofs.rldp.thm1_projection import eq25_certificate
    from rldp_verify.claims.mutants import apply, revert

    assert recheck(eq25_certificate()).ok
    (m,) = [m for m in MUTANTS if m.id == "certificate.identity-log-atom-dropped"]
    done = apply(m, MODULES)
    try:
        r = recheck(eq25_certificate())
    finally:
        revert(done)
    assert not r.ok and "log/exp node 0: its argument - its value" in r.message, r.message
    assert recheck(eq25_certificate()).ok


def _wired(slow: bool):
    """Each wired identity's builder (with ``slow``, also rldp.audit.joint-projection's ten certificates): (name, builder(variant) -> list of certificates, its wrong variants)."""
    from proofs.kairouz.lem27_max_mu import eq122_certificate
    from proofs.kairouz.thm12_mutual_information import eq99_102_certificate
    from proofs.rldp.sec1_9_sentences import power_divergence_certificates
    from proofs.rldp.thm1_joint_projection import joint_projection_certificates
    from proofs.rldp.thm1_projection import eq25_certificate
    from proofs.rldp.thm3_lp import mu_homogeneity_certificate

    return [("(25)", lambda v: [eq25_certificate(v)], ("sign", "factor2")),
            ("(99) = (102)", lambda v: [eq99_102_certificate(v)], ("sign", "factor2")),
            ("(121) at (122)", lambda v: [eq122_certificate(v)], ("sign", "factor2")),
            ("power divergence", power_divergence_certificates, ("alpha", "sign", "factor2")),
            ("mu homogeneity", lambda v: [mu_homogeneity_certificate(2, v)], ("sign", "factor2")),
            ("joint projection", joint_projection_certificates, ("sign", "factor2"))][:None if slow else -1]


def _variants_rejected(slow: bool):
    for name, build, variants in _wired(slow)[-1:] if slow else _wired(slow):
        assert all(recheck(d).ok for d in build(None)), name
        for v in variants:
            bad = [recheck(d) for d in build(v)]
            assert any(not r.ok and "!= 0" in r.message for r in bad), (name, v, [r.message for r in bad])
            assert sum(not r.ok for r in bad) == 1, (name, v)                 # only the identity the variant changes


def test_wrong_variants_of_wired_identities_rejected():
    """Each wired identity is accepted as the claim writes it; with a sign flipped, a factor 2 (or the power
    divergence's wrong normalisation f(t) = (t^alpha - 1)/alpha), one of its certificates is rejected."""
    _variants_rejected(slow=False)


@pytest.mark.slow
def test_wrong_variants_of_the_joint_projection_rejected():
    """The same for rldp.audit.joint-projection (its variants: phi^-1's 1 + beta y read 1 - beta y, the mass step's
    value doubled), about 3.5 s."""
    _variants_rejected(slow=True)
