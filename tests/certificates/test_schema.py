"""Every kind of certificate the engine writes validates against rldp_verify/schemas/certificate.schema.json."""

import json
from fractions import Fraction as F
from importlib import resources

import jsonschema
import pytest

from rldp_verify.certificates.audit import audit_certificate
from rldp_verify.certificates.lp import solve_with_certificate
from rldp_verify.certificates.value import value_certificate
from rldp_verify.certificates.vertices import vertices_with_certificate
from rldp_verify.rldp.audit import audit
from tests.certificates.test_audit import SETS, Q


@pytest.fixture(scope="module")
def schema():
    s = json.loads(resources.files("rldp_verify").joinpath("schemas", "certificate.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(s)
    return s


def _docs():
    yield solve_with_certificate("lp", [3, 2], [[1, 1], [1, 3], [-1, 0], [0, -1]], [4, 6, 0, 0])[1]
    yield vertices_with_certificate("v", [[-1, 0], [0, -1], [1, 1]], [0, 0, 1])[1]
    yield value_certificate("ln2", ["let", [["x", 2]], ["log", "$x"]], lower=F(69, 100), upper=F(7, 10))
    for kind in ("ldp", "simplex", "distribution", "ball-2"):
        res = audit(Q, "log(4)", sizes=(2, 2), **SETS[kind])
        yield audit_certificate(res, Q, "log(4)", sizes=(2, 2), **SETS[kind])


def test_certificates_validate(schema):
    for doc in _docs():
        jsonschema.validate(json.loads(json.dumps(doc)), schema)


def test_a_float_does_not_validate(schema):
    doc = value_certificate("ln2", ["log", 2], upper=1)
    doc["statement"]["upper"] = 0.7
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, schema)
