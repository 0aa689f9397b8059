"""Shared plumbing: labels, P-hat input and building the immutable :class:`Mechanism` record."""

from __future__ import annotations

from fractions import Fraction

import mpmath

from rldp_verify.core.errors import InputError
from rldp_verify.core.information import entropy_value, mutual_information_value
from rldp_verify.core.numbers import DEFAULT_DPS, fraction_str, working_precision
from rldp_verify.rldp.mechanisms.rounding import PrivacyLevel
from rldp_verify.rldp.mechio import Mechanism, labels
from rldp_verify.rldp.uncertainty import RenyiBall, read_table


def sizes_and_labels(sensitive, public):
    """Labels of S and U from lists or sizes (``s1..``, ``u1..``)."""
    return labels(sensitive, "s"), labels(public, "u")


def phat_table(phat):
    """A P-hat table (|S| x |U|) as Fractions, or the table of a :class:`RenyiBall`."""
    if isinstance(phat, RenyiBall):
        return phat.phat
    return read_table(phat)


def alphabets(phat, sensitive, public, name: str):
    """(P-hat table or None, S labels, U labels) for a mechanism that needs only the alphabets: from P-hat
    when given, else from ``sensitive`` and ``public`` (lists or sizes); ``name`` goes into the error."""
    table = phat_table(phat) if phat is not None else None
    if table is None:
        if sensitive is None or public is None:
            raise InputError(f"{name} needs P-hat or the sensitive and public alphabets")
        S, U = sizes_and_labels(sensitive, public)
    else:
        S, U = labels_for(table, sensitive, public)
    return table, S, U


def labels_for(table, sensitive=None, public=None):
    """Labels of S and U for a |S| x |U| table (given ones must match its shape)."""
    a1, a2 = len(table), len(table[0])
    S = labels(sensitive if sensitive is not None else a1, "s")
    U = labels(public if public is not None else a2, "u")
    if len(S) != a1 or len(U) != a2:
        raise InputError(f"P-hat is {a1} x {a2} but {len(S)} sensitive and {len(U)} public labels are given")
    return S, U


def build(matrix, S, U, Y, *, name: str, level: PrivacyLevel, guarantee: str, parameters: dict,
          phat=None, notes=(), dps: int = DEFAULT_DPS) -> Mechanism:
    """Validate (exact column sums) and attach eps, guarantee, parameters and the utility under P-hat."""
    utility = None
    if phat is not None:
        from rldp_verify.core import progress

        progress.step(f"utility I and NMI of the mechanism ({len(matrix)} outputs)")
        utility = utility_record(matrix, [v for r in phat for v in r], dps=dps)
    params = {"mechanism": name, **level.to_json(), **parameters}
    return Mechanism.from_matrix(matrix, S, U, Y, eps=level.text, guarantee=guarantee, utility=utility,
                                 parameters=params, notes=tuple(notes))


def fstr_table(t):
    """A table of exact numbers as 'p/q' strings (the JSON form)."""
    return [[fraction_str(Fraction(v)) for v in r] for r in t]


def utility_record(matrix, p, *, dps: int = DEFAULT_DPS, digits: int = 12) -> dict:
    """The ``utility`` entry of a mechanism: I_P(X;Y) and the NMI at ``digits`` digits (nats).
    Both values are computed at ``dps`` digits by their functions; nstr reads the mpf itself, so no
    working-precision scope is needed here."""
    with working_precision(dps) as d:          # nmi_value's arithmetic, with I computed once
        i = mutual_information_value(matrix, p, dps=d)
        h = entropy_value(p, dps=d)
        n = i / h if h != 0 else mpmath.mpf(0)
    return {"I": mpmath.nstr(i, digits), "NMI": mpmath.nstr(n, digits), "unit": "nats", "distribution": "P-hat"}
