#!/usr/bin/env python3
"""Rewrite old ``rldp_verify`` / ``proofs`` module paths to the layout of issue 10.

Usage::

    .venv/bin/python scripts/migrate_imports.py FILE [FILE ...]      # rewrite in place
    .venv/bin/python scripts/migrate_imports.py --check FILE ...     # list what would change, exit 1 if any

It rewrites every dotted reference to a moved module (``import`` and ``from`` lines, and the same dotted
name in strings, docstrings and comments, e.g. ``sys.modules["rldp_verify.mechanisms.polyopt"]``), and
``from rldp_verify import pram, polytope`` style lines (split by new parent package). Idempotent: a
rewritten file is left unchanged by a second run. ``MOVED`` below is the full old -> new table.
Afterwards run ``.venv/bin/ruff check --fix FILE ...`` to re-sort the rewritten imports (``make test`` lints).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

#: old module path -> new module path (submodules follow their package).
MOVED: dict[str, str] = {
    # core numerics: import nothing above them
    "rldp_verify.numbers": "rldp_verify.core.numbers",
    "rldp_verify.rigorous": "rldp_verify.core.rigorous",
    "rldp_verify.errors": "rldp_verify.core.errors",
    "rldp_verify.divergence": "rldp_verify.core.divergence",
    "rldp_verify.stats": "rldp_verify.core.stats",
    "rldp_verify.polytope": "rldp_verify.core.polytope",
    "rldp_verify.lp": "rldp_verify.core.lp",
    # the core RLDP paper's machinery
    "rldp_verify.uncertainty": "rldp_verify.rldp.uncertainty",
    "rldp_verify.gamma": "rldp_verify.rldp.gamma",
    "rldp_verify.mechanisms": "rldp_verify.rldp.mechanisms",
    "rldp_verify.mechanisms.utility": "rldp_verify.core.information",
    "rldp_verify.rldp.mechanisms.utility": "rldp_verify.core.information",
    "rldp_verify.audit": "rldp_verify.rldp.audit",
    "rldp_verify.audit.projection": "rldp_verify.rldp.projection",
    "rldp_verify.rldp.audit.projection": "rldp_verify.rldp.projection",
    "rldp_verify.srr_threshold": "rldp_verify.rldp.srr_threshold",
    "rldp_verify.experiments": "rldp_verify.rldp.experiments",
    "rldp_verify.mechio": "rldp_verify.rldp.mechio",
    "rldp_verify.data": "rldp_verify.rldp.data",
    # numerics of the companion papers, named by concept
    "rldp_verify.falpha": "rldp_verify.topics.fdiv",
    "rldp_verify.pram": "rldp_verify.topics.pram",
    "rldp_verify.chisquare_projection": "rldp_verify.topics.chisquare.ball",
    "rldp_verify.robust_problems": "rldp_verify.topics.chisquare.protocols",
    "rldp_verify.staircase": "rldp_verify.topics.extremal.staircase",
    "rldp_verify.extremal_utilities": "rldp_verify.topics.extremal.utilities",
    "rldp_verify.extremal_polytope": "rldp_verify.topics.extremal.polytope",
    "rldp_verify.extremal_thresholds": "rldp_verify.topics.extremal.thresholds",
    "rldp_verify.extremal_tail": "rldp_verify.topics.extremal.tail",
}

#: proof modules renamed to ``<kind><n>_<topic>`` (claim ids unchanged).
PROOFS_MOVED: dict[str, str] = {
    "proofs.falpha.cor11_sec6": "proofs.falpha.cor11_amplification",
    "proofs.falpha.def1_eq4": "proofs.falpha.def1_renyi_transform",
    "proofs.falpha.def2_eq6_egamma": "proofs.falpha.def2_egamma",
    "proofs.isit.general_projection": "proofs.isit.sec4_general_renyi",
    "proofs.isit.lemma1_utility_conjugate": "proofs.isit.lem1_utility_conjugate",
    "proofs.isit.lemma2_privacy_conjugate": "proofs.isit.lem2_privacy_conjugate",
    "proofs.isit.lemma3_linear_conjugate": "proofs.isit.lem3_linear_conjugate",
    "proofs.isit.lemma4_conjugate_shift": "proofs.isit.lem4_conjugate_shift",
    "proofs.isit.lemma5_sublevel_support": "proofs.isit.lem5_sublevel_support",
    "proofs.isit.lemma6_product_support": "proofs.isit.lem6_product_support",
    "proofs.isit.lemma7_intersection_support": "proofs.isit.lem7_intersection_support",
    "proofs.isit.lemma8_conjugate": "proofs.isit.lem8_conjugate",
    "proofs.kairouz.lemma22_23_polytope": "proofs.kairouz.lem22_polytope",
    "proofs.kairouz.lemma24_thm5_binary": "proofs.kairouz.lem24_binary",
    "proofs.kairouz.thm12_14_mutual_information": "proofs.kairouz.thm12_mutual_information",
    "proofs.kairouz.thm6_cor11_tv": "proofs.kairouz.thm6_tv",
    "proofs.kairouz.thm7_cor9_kl_small_eps": "proofs.kairouz.thm7_kl_small_eps",
    "proofs.kairouz.thm8_cor10_rr_kl": "proofs.kairouz.thm8_rr_kl",
    "proofs.kairouz.thresholds_cli": "proofs.kairouz.thm8_thresholds",
    "proofs.pram.eq09_marginal": "proofs.pram.eq9_marginal",
    "proofs.pram.ex3_2_binary_symmetric": "proofs.pram.sec3_2_binary_symmetric",
    "proofs.pram.tables_sec4_1": "proofs.pram.sec4_1_tables",
    "proofs.rldp.audit_example3": "proofs.rldp.ex3_audit",
    "proofs.rldp.audit_joint_projection": "proofs.rldp.thm1_joint_projection",
    "proofs.rldp.audit_pair_ratio": "proofs.rldp.def1_audit_pair",
    "proofs.rldp.example1": "proofs.rldp.ex1_confidence_ball",
    "proofs.rldp.example2": "proofs.rldp.ex2_projections",
    "proofs.rldp.example3": "proofs.rldp.ex3_polyopt",
    "proofs.rldp.example4": "proofs.rldp.ex4_grr_srr",
    "proofs.rldp.example5": "proofs.rldp.ex5_ir",
    "proofs.rldp.lemma1": "proofs.rldp.lem1_xi_alpha2",
    "proofs.rldp.lemma2": "proofs.rldp.lem2_srr_private",
    "proofs.rldp.lemma3": "proofs.rldp.lem3_ratio_bound",
    "proofs.rldp.lemma_a5": "proofs.rldp.lemA5_extreme_coordinates",
    "proofs.rldp.lemma_a6": "proofs.rldp.lemA6_l1_radius",
    "proofs.rldp.lemma_a7": "proofs.rldp.lemA7_alpha2",
    "proofs.rldp.lemma_a8": "proofs.rldp.lemA8_cone",
    "proofs.rldp.polyopt_complexity": "proofs.rldp.sec5_complexity",
    "proofs.rldp.proposition1": "proofs.rldp.prop1_lower_and_rad",
    "proofs.rldp.proposition2": "proofs.rldp.prop2_alpha2",
    "proofs.rldp.proposition3": "proofs.rldp.prop3_px_rldp",
    "proofs.rldp.relaxed_polyopt": "proofs.rldp.def3_relaxed_polyopt",
    "proofs.rldp.sec4_extremal": "proofs.rldp.sec4_1_projection",
    "proofs.rldp.sec4_phi": "proofs.rldp.sec4_2_phi",
    "proofs.rldp.sec8_common": "proofs.rldp._sec8",
    "proofs.rldp.theorem1": "proofs.rldp.thm1_projection",
    "proofs.rldp.theorem2": "proofs.rldp.thm2_cone",
    "proofs.rldp.theorem3": "proofs.rldp.thm3_lp",
    "proofs.rldp.theorem4": "proofs.rldp.thm4_srr_optimal",
    "proofs.rldp.theorem5": "proofs.rldp.thm5_ir_private",
    "proofs.rldp.theorem6": "proofs.rldp.thm6_chain_rule",
    "proofs.rldp.utility_orderings": "proofs.rldp.sec8_orderings",
}

#: test modules moved so that tests/ mirrors the package.
TESTS_MOVED: dict[str, str] = {}


def table() -> dict[str, str]:
    return {**MOVED, **PROOFS_MOVED, **TESTS_MOVED}


def _dotted_pattern(old_names):
    alts = "|".join(re.escape(o) for o in sorted(old_names, key=len, reverse=True))
    # not preceded by a word character or a dot (so the new, longer paths never match again)
    return re.compile(rf"(?<![\w.])({alts})(?![\w])")


_FROM_PKG = re.compile(r"^(?P<indent>\s*)from (?P<pkg>rldp_verify|proofs\.\w+|tests) import (?P<names>[^()#\\]+?)(?P<comment>\s*#.*)?$")


def _rewrite_from_package(line: str, moved: dict[str, str]) -> str:
    """``from rldp_verify import pram, report`` -> ``from rldp_verify.topics import pram`` + ``from rldp_verify import report``."""
    m = _FROM_PKG.match(line.rstrip("\n"))
    if not m:
        return line
    pkg = m.group("pkg")
    groups: dict[str, list[str]] = {}
    changed = False
    for item in m.group("names").split(","):
        item = item.strip()
        if not item:
            continue
        name, _, alias = item.partition(" as ")
        name, alias = name.strip(), alias.strip()
        new = moved.get(f"{pkg}.{name}")
        if new is None:
            groups.setdefault(pkg, []).append(item)
            continue
        changed = True
        parent, _, leaf = new.rpartition(".")
        if alias:
            text = f"{leaf} as {alias}" if leaf != alias else leaf
        else:
            text = leaf if leaf == name else f"{leaf} as {name}"
        groups.setdefault(parent, []).append(text)
    if not changed:
        return line
    indent = m.group("indent")
    comment = m.group("comment") or ""
    nl = "\n" if line.endswith("\n") else ""
    out = [f"{indent}from {parent} import {', '.join(names)}" for parent, names in groups.items()]
    out[-1] += comment
    return "\n".join(out) + nl


def rewrite(text: str, moved: dict[str, str] | None = None) -> str:
    moved = table() if moved is None else moved
    lines = [_rewrite_from_package(line, moved) for line in text.splitlines(keepends=True)]
    text = "".join(lines)
    pat = _dotted_pattern(moved)
    return pat.sub(lambda m: moved[m.group(1)], text)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--check", action="store_true", help="only list the files that would change")
    args = ap.parse_args(argv)
    changed = []
    for f in args.files:
        if f.is_dir() or f.suffix not in {".py", ".md", ".txt", ".toml", ".cfg", ".ini", ".json", ""}:
            continue
        old = f.read_text(encoding="utf-8")
        new = rewrite(old)
        if new != old:
            changed.append(f)
            if not args.check:
                f.write_text(new, encoding="utf-8")
    for f in changed:
        print(("would rewrite " if args.check else "rewrote ") + str(f))
    return 1 if (args.check and changed) else 0


if __name__ == "__main__":
    sys.exit(main())
