"""Print the README's table of certificates per claim (issue 23) from a report written with
``rldp-verify report --certificates DIR``: claims per certificate kind, claims whose certificate failed, and
claims without one grouped by reason.

    .venv/bin/python scripts/certificate_table.py [REPORT.json ...] [--ids N]

``--ids N`` lists at most N claim ids per row (default 12; 0 lists none). With several reports (e.g. the
committed full report and ``--only`` runs with ``--certificates``), a claim's record is taken from the last
report that has it; a record without a certificate status (a report written without ``--certificates``) gets
the reason its method gives (:func:`rldp_verify.certificates.report.default_reason`), counted in a column of
its own.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict


def table(doc: dict, ids: int = 12) -> str:
    from rldp_verify.certificates.report import default_reason

    claims = doc.get("claims", [])
    if not any("certificate" in c for c in claims):
        raise SystemExit("no per-claim certificate status: run `rldp-verify report --certificates DIR` first")
    unrun = {c["id"] for c in claims if "certificate" not in c}
    claims = [c if "certificate" in c else {**c, "certificate": f"no certificate: {default_reason(c)}"}
              for c in claims]
    per_kind: dict[str, list[str]] = defaultdict(list)
    failed, none = [], defaultdict(list)
    for c in claims:
        st = c.get("certificate", "")
        ref = (c.get("evidence") or {}).get("certificates") or {}
        if st == "certificate re-checked":
            for k in ref.get("kinds", []):
                per_kind[k].append(c["id"])
        elif st.startswith("certificate FAILED"):
            failed.append((c["id"], st))
        else:
            none[st.removeprefix("no certificate: ")].append(c["id"])

    def listed(xs):
        if not ids:
            return ""
        shown = ", ".join(f"`{x}`" for x in xs[:ids])
        return shown + (f" and {len(xs) - ids} more" if len(xs) > ids else "")

    n = len(claims)
    ok = len({i for xs in per_kind.values() for i in xs})
    lines = [f"{n} claims: {ok} with certificates the independent checker accepts, {len(failed)} with a certificate "
             f"it rejects, {sum(map(len, none.values()))} without one.", "",
             "| certificate kind | claims | which |", "|---|---|---|"]
    lines += [f"| `{k}` | {len(v)} | {listed(v)} |" for k, v in sorted(per_kind.items())]
    if failed:
        lines += [f"| FAILED | {len(failed)} | " + "; ".join(f"`{i}`: {s}" for i, s in failed[:ids]) + " |"]
    lines += ["", "| no certificate: reason | claims | of them from a report without --certificates | which |",
              "|---|---|---|---|"]
    for reason, xs in sorted(none.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        lines.append(f"| {reason.replace('|', '/')} | {len(xs)} | {sum(x in unrun for x in xs)} | {listed(xs)} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("reports", nargs="*", default=["reports/verification.json"])
    ap.add_argument("--ids", type=int, default=12)
    args = ap.parse_args(argv)
    merged: dict[str, dict] = {}
    for path in args.reports:
        with open(path) as fh:
            for c in json.load(fh).get("claims", []):
                merged.pop(c["id"], None)
                merged[c["id"]] = c
    sys.stdout.write(table({"claims": list(merged.values())}, args.ids))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
