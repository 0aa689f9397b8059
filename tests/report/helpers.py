"""A small generated report: two papers, every verdict, finding kinds, a figure cited twice, benchmarks (one of
them wide and long, with nested lists, like the Adult table of the real report), prose with TeX-style groups,
evidence with nested records, and a mutation-testing section."""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

from rldp_verify import report
from rldp_verify.claims import Context, Outcome
from rldp_verify.claims.core import Claim, Method
from rldp_verify.claims.runner import run_claims

P0, P1 = "000_aca93ed29ea857ee.txt", "004_3b35ffa09c03afc4.txt"
TITLES = {P0: "Paper Zero: robust LDP", P1: "Paper One: extremal mechanisms"}
# the papers' own order of these claims (what proofs.claim_order reads from the statement index);
# rldp.sec8.figure-again is left out on purpose: unlisted claims follow the listed ones
ORDER = {P0: ["rldp.example1.ok", "rldp.thm1.false", "rldp.example2.number", "rldp.audit.dual", "rldp.sec8.figure"],
         P1: ["kairouz.lemma2.ok", "kairouz.thm8.boom"]}


def png(path: Path, w: int = 40, h: int = 20) -> None:
    """A tiny valid RGB PNG."""
    raw = b"".join(b"\x00" + bytes([200, 80, 80]) * w for _ in range(h))

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)

    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def claims() -> list[Claim]:
    def fig(ctx):
        p, rel = ctx.artefact("figures/demo.png")
        png(p)
        return Outcome.verified("figure drawn", figure=rel, points=[1, 2, 3])

    def fig2(ctx):
        return Outcome.inconclusive("the figure does not decide eps >= 1", figure="figures/demo.png")

    def false_(ctx):
        return Outcome.refuted("the inequality fails for alpha = 3",
                               counterexample={"alpha": "3", "P": [["1/2", "1/2"]]}, kind="false")

    def number(ctx):
        return Outcome.refuted("printed 0.3782, ours 0.4067", kind="wrong-number", counterexample=[
            {"label": "B_s1", "printed": "0.3782", "ours": "0.406733474224", "agrees": False}],
            comparisons=[{"label": "B_s1", "printed": "0.3782", "ours": "0.406733474224", "agrees": False}])

    def boom(ctx):
        raise ZeroDivisionError("division by zero in a check")

    long = "x" * 3000
    nested = [{"alpha": "3", "phat": [["12/115", "47/230"], ["11/115", "14/115"]], "status": "agrees",
               "tried": {f"reading {j} with a long name e^(B_s) - 1 = (e^B - 1)/P^_s": f"0.{j}" for j in range(5)}}
              for _ in range(30)]
    ok = lambda ctx: Outcome.verified("fine <b>bold</b>", matrix=[["1/3"] * 16] * 4, note=long,  # noqa: E731
                                      records=nested,
                                      brackets={"0.5": {"PolyOpt": ["0.1", "0.2"], "NR": ["0.3", "0.4"]},
                                                "1": {"PolyOpt": ["0.5", "0.6"], "NR": ["0.7", "0.8"]}})
    mk = lambda i, p, src, st, fn: Claim(i, p, src, st, fn, (Method.EXACT,), module=__name__)  # noqa: E731
    return [
        mk("rldp.sec8.figure", P0, "Sec. 8.2, Figure 3", "the NMI curves (Figure 3)", fig),
        mk("rldp.sec8.figure-again", P0, "Sec. 8.3", "eps* is at most 1", fig2),
        mk("rldp.thm1.false", P0, "Sec. 4.1, Theorem 1, eq. (23)", "D_alpha(P||Q) <= B for all alpha", false_),
        mk("rldp.example2.number", P0, "Sec. 4.3, Example 2 (L_{u|s})",
           "B_s1 = 0.3782 and L_{u1|s1} >= F^{-1}_{chi2,a-1}(1-beta)", number),
        mk("rldp.example1.ok", P0, "Sec. 3, Example 1, eq. (12)", "B = 0.0752 <script>alert(1)</script>", ok),
        mk("rldp.audit.dual", P0, "Sec. 3 eq. (8); derived for the audit", "strong duality", ok),
        mk("kairouz.thm8.boom", P1, "Sec. 5, Theorem 8", "RR is optimal for eps >= eps*", boom),
        mk("kairouz.lemma2.ok", P1, "Sec. 2.1, Lemma 2", "staircase patterns", ok),
    ]


def make_report(out: Path) -> dict:
    res = run_claims(claims(), Context(out_dir=str(out)))
    bench = [{"title": "Bench", "columns": [f"column {i}" for i in range(14)], "rows": [list(range(14))],
              "notes": ["a note"]},
             {"title": "Wide and long", "columns": ["pair", "|X|", "certified", "final bracket", "relative width"]
              + [f"measure {i}" for i in range(14)],
              "rows": [["occupation x education", 224, [[60.066, 1.914804598517661, 1.9150366742381946, 1.2e-4]] * 3,
                        [1.9148073549234714, 1.914894005065099], 4.5250620346849934e-05]
                       + [f"value {i} of row {r}" for i in range(14)] for r in range(43)],
              "notes": ["the full table is collapsed"]}]
    (out / "benchmarks").mkdir(parents=True, exist_ok=True)
    for i, b in enumerate(bench):
        (out / "benchmarks" / f"bench{i}.json").write_text(json.dumps(b))
    (out / "mutation.json").write_text(json.dumps({"semantic": {
        "total": 25, "killed": 25, "survived": 0, "equivalent": 0, "error": 0, "kill_rate": 1.0,
        "mutants": [{"id": f"m{i}", "module": "uncertainty", "description": "B_s with e^{(alpha-1)B} | a slip",
                     "status": "killed", "killed_by": ["rldp.thm1.false"]} for i in range(25)]}}))
    doc = report.build(res, report.environment(50, 1, False), report.load_benchmarks(out / "benchmarks"), TITLES,
                       order=ORDER)
    report.write(doc, out)
    return doc
