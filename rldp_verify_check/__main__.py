"""``python -m rldp_verify_check FILE|DIR ...``: check certificates, one line each; exit 1 if any fails."""

from __future__ import annotations

import sys

from rldp_verify_check import check_path


def main(argv=None) -> int:
    """Check every certificate under the given paths; print one line per certificate and a summary."""
    paths = sys.argv[1:] if argv is None else argv
    if not paths:
        sys.stderr.write("usage: python -m rldp_verify_check FILE|DIR ...\n")
        return 2
    results = [r for p in paths for r in check_path(p)]
    for r in results:
        print(r.line())
    bad = sum(not r.ok for r in results)
    print(f"{len(results)} certificates, {len(results) - bad} re-checked, {bad} failed")
    return 1 if bad or not results else 0


if __name__ == "__main__":
    sys.exit(main())
