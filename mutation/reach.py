"""Which fast claims reach which engine functions (a helper for writing the catalogue's claim lists).

    .venv/bin/python -m mutation.reach > /tmp/reach.json

Runs every fast claim once under a profiler and prints {"module:qualname": [claim ids]} for the
functions of ``rldp_verify`` (not the claim engine itself) that each claim calls.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

import rldp_verify
from rldp_verify.claims import Context, discover
from rldp_verify.claims.runner import run_claim

ROOT = str(Path(rldp_verify.__file__).parent)
SKIP = str(Path(rldp_verify.__file__).parent / "claims")


def main() -> int:
    claims = [c for c in discover("proofs") if not c.slow]
    only = set(sys.argv[1:])
    reach: dict[str, set] = defaultdict(set)
    names: dict = {}

    for c in claims:
        if only and not any(c.id.startswith(o) for o in only):
            continue
        seen = set()

        def prof(frame, event, arg, seen=seen):
            if event == "call":
                seen.add(frame.f_code)

        sys.setprofile(prof)
        try:
            run_claim(c, Context())
        finally:
            sys.setprofile(None)
        for code in seen:
            f = code.co_filename
            if f.startswith(ROOT) and not f.startswith(SKIP):
                key = names.get(code)
                if key is None:
                    mod = f[len(ROOT) - len("rldp_verify"):-3].replace("/", ".")
                    key = names[code] = f"{mod}:{code.co_qualname}"
                reach[key].add(c.id)
        print(c.id, len(seen), file=sys.stderr, flush=True)
    json.dump({k: sorted(v) for k, v in sorted(reach.items())}, sys.stdout, indent=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
