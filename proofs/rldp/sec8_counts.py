"""Sec. 8.1: the printed counts (n of the adult data, size of Gamma-hat for occupation vs. education,
memory of the 57,840 x 57,840 matrix). Paper: 000_aca93ed29ea857ee.txt."""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.certificates.claims import built, no_certificate
from rldp_verify.certificates.value import printed_certificate, value_certificate
from rldp_verify.claims import Method, Outcome, claim, compare_printed, outcome_from_comparisons, search_readings
from rldp_verify.rldp.gamma import gamma_inequalities

from .._consistency import expect
from ._sec8 import ADULT, COLUMNS, PAPER, adult_table


def direct_counts(*columns: str) -> tuple[int, list[set[str]]]:
    """Second route for the Sec. 8.1 counts (issue 24): the adult file read line by line with ``str.split`` (not the
    engine's CSV reader, rldp_verify.rldp.data.read_counts): the number of records (non-blank lines) and the set of
    values of each named column, '?' kept."""
    from rldp_verify.rldp.data import adult_data_path

    n, values = 0, [set() for _ in columns]
    with open(adult_data_path(), encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            n += 1
            fields = [f.strip() for f in line.split(",")]
            for vals, c in zip(values, columns, strict=True):
                vals.add(fields[COLUMNS[c]])
    return n, values


@claim(
    id="rldp.sec8.adult-n",
    paper=PAPER,
    source="Sec. 8.1, first sentence (\"the adult data set (n = 32,561)\")",
    statement="The adult data set has n = 32,561 records.",
    hypotheses=(f"the file {ADULT} (UCI adult.data, no header)",),
    method=Method.EXACT,
)
def check_adult_n(ctx):
    rows = {}
    for s, u in (("sex", "income"), ("occupation", "education")):
        ct = adult_table(s, u, keep_missing=True)
        rows[f"{s} x {u}"] = {"n (missing kept)": ct.n, "dropped": ct.dropped}
    dropped = adult_table("occupation", "education").dropped
    ns = {v["n (missing kept)"] for v in rows.values()}
    n2, _ = direct_counts()
    expect(ns == {n2}, f"the engine's CSV reader counts {sorted(ns)} records, a line count of the file {n2} "
                       "(routes disagree)")
    ev = {"tables": rows, "occupation '?' records": dropped, "second route (line count)": n2,
          **no_certificate("a count of the records of a data file: no certificate kind re-reads a file; the second "
                           "route (a line count beside the engine's CSV reader) checks it")}
    c = compare_printed("n", "32561", ns.pop() if len(ns) == 1 else -1)
    return outcome_from_comparisons([c], what="record counts", **ev)


@claim(
    id="rldp.sec8.occupation-education-size",
    paper=PAPER,
    source="Sec. 8.1, first paragraph (occupation vs. education: \"240-dimensional\", \"57,840 inequality constraints\")",
    statement="For occupation vs. education, Gamma-hat is 240-dimensional and defined by 57,840 inequality constraints.",
    hypotheses=("Sec. 5: Gamma-hat is defined by a^2 + a inequalities (Definition 3's a1^2 a2^2 = a^2 rows and a "
                "non-negativity constraints), a = |S| |U|",),
    method=Method.EXACT,
    reading="|X| counts the missing value '?' of occupation as a category (15 occupations x 16 education levels); "
            "'240-dimensional' is the ambient dimension R^X (Sec. 5: Gamma-hat itself is (a-1)-dimensional).",
)
def check_occ_edu(ctx):
    # the count formula, against the engine's list of Definition 3's inequalities on small shapes
    for a1, a2 in ((2, 2), (2, 3), (3, 2), (3, 4)):
        L = [[Fraction(1, 2 * a2)] * a2 for _ in range(a1)]
        A, _ = gamma_inequalities(L, Fraction(2))      # the a rows v_x >= 0, then Definition 3's rows
        a = a1 * a2
        rows = A[a:]
        if len(rows) + a != a * a + a:
            return Outcome.refuted("Definition 3 does not give a^2 + a constraints",
                                   counterexample={"a1": a1, "a2": a2, "rows": len(rows) + a, "a^2+a": a * a + a}, kind="false")
    with_q = adult_table("occupation", "education", keep_missing=True)
    without = adult_table("occupation", "education")
    a_q = len(with_q.sensitive) * len(with_q.public)
    a_n = len(without.sensitive) * len(without.public)
    _, (occ, edu) = direct_counts("occupation", "education")
    expect((len(occ), len(edu)) == (len(with_q.sensitive), len(with_q.public)),
           f"the engine's table has {len(with_q.sensitive)} x {len(with_q.public)} categories, the file's distinct "
           f"values {len(occ)} x {len(edu)} (routes disagree)")
    ev = {"|occupation| with '?'": len(with_q.sensitive), "|occupation| without '?'": len(without.sensitive),
          "|education|": len(with_q.public), "a with '?'": a_q, "a without '?'": a_n,
          "constraints with '?'": a_q * a_q + a_q, "constraints without '?'": a_n * a_n + a_n,
          "formula check": "len(gamma_inequalities) + a == a^2 + a on shapes 2x2, 2x3, 3x2, 3x4",
          "second route": f"distinct values in the file: {len(occ)} occupations x {len(edu)} education levels"}
    comps = [compare_printed("dimension a", "240", a_q), compare_printed("a^2 + a", "57840", a_q * a_q + a_q)]
    n_s, n_u = len(with_q.sensitive), len(with_q.public)
    ev.update(built(lambda: [
        printed_certificate(f"a = {n_s} x {n_u} against the printed 240", ["*", n_s, n_u], "240", comps[0].agrees),
        printed_certificate(f"a^2 + a, a = {n_s} x {n_u}, against the printed 57840",
                            ["+", ["*", n_s, n_u, n_s, n_u], ["*", n_s, n_u]], "57840", comps[1].agrees)]))
    ev["certificate_covers"] = "the arithmetic from the category counts (read from the file, second route above)"
    return outcome_from_comparisons(comps, what="counts (with '?' as a category)", **ev)


@claim(
    id="rldp.sec8.matrix-size",
    paper=PAPER,
    source="Sec. 8.1, first paragraph (\"a 57,840 x 57,840 matrix, whose size (24.7 GB)\")",
    statement="A 57,840 x 57,840 matrix takes 24.7 GB.",
    hypotheses=("dense matrix of 8-byte doubles (Matlab's default class)",),
    method=Method.EXACT,
    reading="Recomputed as 57,840^2 x 8 bytes in GB (10^9) and in GiB (2^30); other readings tried: "
            "57,600^2 (a^2 rows only, no non-negativity rows) and 57,840 x 57,600.",
)
def check_matrix_size(ctx):
    m = 57840
    b = Fraction(m * m * 8)
    primary = {"bytes": int(b), "GB (1e9)": float(b / 10**9), "GiB (2^30)": float(b / 2**30)}
    readings = {
        "57840^2 doubles in GB": b / 10**9,
        "57840^2 doubles in GiB": b / 2**30,
        "57600^2 doubles in GB": Fraction(57600**2 * 8, 10**9),
        "57600^2 doubles in GiB": Fraction(57600**2 * 8, 2**30),
        "57840 x 57600 doubles in GiB": Fraction(57840 * 57600 * 8, 2**30),
    }
    search = search_readings("24.7", readings, label="matrix size (GB)")
    tried = dict(search.tried)
    matching = list(search.matches)
    comps = [compare_printed("57840^2 x 8 B in GB", "24.7", readings["57840^2 doubles in GB"]),
             compare_printed("57840^2 x 8 B in GiB", "24.7", readings["57840^2 doubles in GiB"])]
    certs = built(lambda: [printed_certificate(f"57840^2 x 8 bytes in {unit} against the printed 24.7", e, "24.7", c.agrees)
                           for unit, e, c in (("GB", ["/", ["*", m, m, 8], 10**9], comps[0]),
                                              ("GiB", ["/", ["*", m, m, 8], 2**30], comps[1]))])
    if any(c.agrees for c in comps):
        return outcome_from_comparisons(comps, what="sizes", recomputed=primary, readings_tried=tried, **certs)
    return Outcome.refuted(
        f"57,840^2 doubles = {primary['bytes']:,} bytes = {primary['GB (1e9)']:.2f} GB = {primary['GiB (2^30)']:.2f} GiB, "
        f"not 24.7; the printed 24.7 is reproduced only by: {', '.join(matching) or 'none of the readings tried'}",
        counterexample={"printed": "24.7 GB", **primary}, readings_tried=tried, readings_reproducing_24_7=matching,
        reading_search=search.to_json(),
        comparisons=[c.to_json() for c in comps], kind="wrong-number", **certs)


@claim(
    id="rldp.sec8.q75-more-than-5-eps",
    paper=PAPER,
    source="Sec. 8.3 (\"the 75%-quantile of eps* of NR was 0.3897, which is more than 5 times the desired privacy "
           "parameter\", eps = 0.075)",
    statement="0.3897 > 5 x 0.075.",
    hypotheses=("the printed values 0.3897 and eps = 0.075 (whether 0.3897 is reproduced: rldp.sec8.realized-eps-q75)",),
    method=Method.EXACT,
)
def check_ratio(ctx):
    # the operands and the factor are read from the paper's sentence, not typed in (issue 24)
    import re

    from ..papers import seed_text

    text = seed_text(PAPER)
    if text is None:
        return Outcome.inconclusive("the paper's seed text is not available (../shared/seeds): nothing to read")
    m = re.search(r"at ε = ([0-9.]+) , the lowest value of ε we tested, the 75%-quantile of ε \* of NR was ([0-9.]+) , "
                  r"which is more than (\d+) times the desired privacy parameter", text)
    if m is None:
        return Outcome.inconclusive("the sentence was not found in the paper's text")
    eps, q, k = Fraction(m.group(1)), Fraction(m.group(2)), int(m.group(3))
    ev = {"sentence": m.group(0), "eps": m.group(1), "quantile": m.group(2), "factor": k,
          "ratio": str(q / eps), "ratio_decimal": float(q / eps)}
    if q > k * eps:
        ev.update(built(lambda: value_certificate(f"{m.group(2)} > {k} x {m.group(1)}", ["-", q, ["*", k, eps]],
                                                 lower=0, strict=True)))
        return Outcome.verified(f"{m.group(2)} / {m.group(1)} = {float(q / eps):.3f} > {k} (operands read from the "
                                "paper's sentence)", **ev)
    return Outcome.refuted(f"{m.group(2)} / {m.group(1)} = {float(q / eps):.3f} <= {k}", counterexample=ev, **ev,
                           kind="false")
