"""Inputs as users hold them: NumPy arrays, pandas DataFrames, audit(matrix, eps, sizes=...)."""

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from rldp_verify.core.errors import InputError
from rldp_verify.rldp.audit import audit
from rldp_verify.rldp.tables import counts_from_records
from rldp_verify.rldp.uncertainty import RenyiBall

PHAT = [["0.07", "0.10"], ["0.26", "0.57"]]


def test_numpy_phat_reads_like_python_floats():
    a = RenyiBall.from_radius(np.array([[0.07, 0.10], [0.26, 0.57]]), 2, "0.0752")
    b = RenyiBall.from_radius(PHAT, 2, "0.0752")
    assert a == b and a.phat[0][0] == Fraction(7, 100)
    c = RenyiBall.from_radius(np.array([[7, 10], [26, 57]], dtype=np.int64), 2, "0.0752")
    assert c.phat == b.phat


def test_dataframe_table_and_records():
    df = pd.DataFrame([[0.07, 0.10], [0.26, 0.57]], index=["s1", "s2"], columns=["u1", "u2"])
    assert RenyiBall.from_radius(df, 2, "0.0752").phat == RenyiBall.from_radius(PHAT, 2, "0.0752").phat
    rec = pd.DataFrame({"sex": ["F", "M", "M", "F", "M"], "edu": ["a", "b", "a", "a", "b"], "z": range(5)})
    c = counts_from_records(rec, "sex", "edu")
    assert c.counts == [[2, 0], [1, 2]] and c.sensitive == ("F", "M") and c.public == ("a", "b") and c.n == 5
    with pytest.raises(InputError, match="column 'sex' of the DataFrame is not numeric"):
        RenyiBall.from_radius(rec, 2, "0.1")
    with pytest.raises(InputError, match="public column 'nope' is not a column"):
        counts_from_records(rec, "sex", "nope")
    bad = pd.DataFrame([[0.5, np.nan], [0.2, 0.3]])
    with pytest.raises(InputError, match=r"phat\[0\]\[1\] is NaN"):
        RenyiBall.from_radius(bad, 2, "0.1")


def test_audit_numpy_matrix_with_sizes():
    Q = np.array([[0.4, 0.2, 0.2, 0.2], [0.2, 0.4, 0.2, 0.2], [0.2, 0.2, 0.4, 0.2], [0.2, 0.2, 0.2, 0.4]])
    r = audit(Q, "log(2)", sizes=(2, 2), ldp=True)
    assert r.verdict == "PASS" and r.ratio_upper == Fraction(0.4) / Fraction(0.2)
    assert any("binary rationals" in n for n in r.notes)
    r2 = audit(pd.DataFrame(Q), "log(2)", phat=np.array([[0.07, 0.10], [0.26, 0.57]]), alpha=2, radius="0.0752")
    assert r2.verdict == "PASS"
    with pytest.raises(InputError, match=r"sizes = \(2, 3\) but the table is 2 x 2"):
        audit(Q, 1, sizes=(2, 3), phat=PHAT, alpha=2, radius="0.1")
    with pytest.raises(InputError, match="sizes = 'x' must be"):
        audit(Q, 1, sizes="x", ldp=True)
