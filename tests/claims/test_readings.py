"""search_readings (issue 9 item 6): matches at the printed precision, reports everything tried."""

from fractions import Fraction

import mpmath

from rldp_verify.claims import search_readings


def test_match_and_no_match():
    r = search_readings("0.2804", {"a": mpmath.mpf("0.28039215"), "b": Fraction(37, 100), "c": lambda: 0.28046},
                        label="I")
    assert r.found and r.matches == ("a",)          # 0.28046 rounds to 0.2805 (no extra slack)
    assert set(r.tried) == {"a", "b", "c"} and "reproduced by the reading a" in r.sentence()
    none = search_readings("0.2804", {"b": Fraction(37, 100)}, label="I")
    assert not none.found and none.sentence().startswith("no reading found for I = 0.2804 among 1 tried")
    assert none.to_json()["matches"] == "no reading found"


def test_failing_candidate_is_reported_not_dropped():
    def boom():
        raise ValueError("undefined here")

    r = search_readings("1.5", {"x": boom, "y": None, "z": 1.5})
    assert r.matches == ("z",) and "ValueError" in r.skipped["x"] and r.skipped["y"] == "undefined"
