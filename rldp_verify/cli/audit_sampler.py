"""``rldp-verify audit-sampler MODULE:CALLABLE``: a lower bound on eps for a black-box randomiser, holding with
the stated confidence (:func:`rldp_verify.blackbox.audit_sampler`).

    rldp-verify audit-sampler mymod:randomise --inputs 0,1 --trials 100000 --confidence 0.95 --seed 1
    rldp-verify audit-sampler mymod:randomise --inputs 0,1,2,3 --sizes 2,2 --distribution "0.1,0.1;0.2,0.6"
    rldp-verify audit-sampler mymod:olh --inputs 0,1 --feature lh:3      # local hashing: (bucket, seed) outputs
    rldp-verify audit-sampler --adapter multi-freq-ldpy:GRR_Client --param k=4 --param epsilon=1 --inputs 0,3

MODULE is imported (the current directory is on the path); CALLABLE(x) must return a hashable output.
Inputs are JSON values where they parse (0, 1.5, "a") and strings otherwise. Exit code 0; 2 on bad input.
"""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any

from rldp_verify.core.errors import InputError


def register(sub):
    """Register ``rldp-verify audit-sampler`` (a statistical lower bound on eps for a black-box randomiser)."""
    from rldp_verify.cli._help import add_parser

    p = add_parser(
        sub, "audit-sampler", help="statistical lower bound on eps for a black-box randomiser fn(x)",
        description="A lower bound on eps that holds with the stated confidence for a randomiser fn(x): half of the\n"
                    "draws choose the most violating event, the other half certify it (one-sided Clopper-Pearson,\n"
                    "Bonferroni). Outputs with public randomness (local hashing) need a feature map (--feature lh:G);\n"
                    "the result always says how many distinct outputs it saw in how many draws.",
        examples=["rldp-verify audit-sampler mymod:randomise --inputs 0,1 --trials 100000 --seed 1",
                  "rldp-verify audit-sampler --adapter multi-freq-ldpy:GRR_Client --param k=4 --param epsilon=1 "
                  "--inputs 0,3 --trials 20000",
                  "rldp-verify audit-sampler mymod:olh --inputs 0,1 --feature lh:4 --json"],
        exit_codes={0: "a bound was computed (the text output starts with WARNING when the outputs are too many "
                       "distinct values for a meaningful estimate)"})
    p.add_argument("target", nargs="?", default=None, help="MODULE:CALLABLE, e.g. mypkg.mech:randomise (or --adapter)")
    p.add_argument("--adapter", default=None, metavar="LIBRARY:NAME",
                   help="the library's own randomiser instead of MODULE:CALLABLE, e.g. multi-freq-ldpy:LH_Client "
                   "(with --param; local hashing gets the feature lh:g by default)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE", help="a parameter of --adapter")
    p.add_argument("--inputs", required=True, help="comma-separated inputs x (for RLDP: X = S x U in S-major order)")
    p.add_argument("--trials", default="100000", help="draws per input (default 100000; half select, half certify)")
    p.add_argument("--confidence", default="0.95", help="confidence of the bound (default 0.95)")
    p.add_argument("--seed", default="0", help="seed (default 0)")
    p.add_argument("--workers", default=None, help="processes (default: the number of cores)")
    g = p.add_argument_group("(eps, F)-RLDP instead of eps-LDP")
    g.add_argument("--sizes", default=None, help="|S|,|U| (the inputs are X = S x U in S-major order)")
    g.add_argument("--phat", default=None, help="Rényi ball centre 'a,b;c,d' (with --alpha and --radius)")
    g.add_argument("--alpha", default=None, help="Rényi order of the ball (with --phat)")
    g.add_argument("--radius", default=None, help="radius of the Rényi ball (with --phat)")
    g.add_argument("--distribution", default=None, help="F = {P}: 'a,b;c,d'")
    g.add_argument("--full-simplex", action="store_true", help="F = P_X")
    p.add_argument("--feature", default=None, metavar="lh:G|MODULE:CALLABLE",
                   help="map outputs to event keys before counting ('none': count raw outputs): lh:G for local hashing "
                   "with G buckets (the key "
                   "of (bucket, seed) says which inputs hash to the bucket, with the libraries' xxh32 hash), or "
                   "your own MODULE:CALLABLE(output) -> hashable")
    p.add_argument("--json", action="store_true", help="print one JSON object (numbers as decimal strings; schema "
                   "rldp_verify/schemas/audit_sampler.schema.json)")
    p.add_argument("--quiet", action="store_true",
                   help="no progress on stderr (otherwise shown when stderr is a terminal: chunks sampled, "
                   "n/total, ETA)")
    p.set_defaults(func=run)


def _num(text, name, typ):
    try:
        return typ(str(text))
    except ValueError:
        raise InputError(f"--{name} must be {'an integer' if typ is int else 'a number'}, got {text!r}") from None


def _load(target: str):
    if ":" not in target:
        raise InputError(f"the sampler {target!r} must be MODULE:CALLABLE")
    mod_name, attr = target.split(":", 1)
    if "" not in sys.path and "." not in sys.path:
        sys.path.insert(0, "")
    try:
        mod = importlib.import_module(mod_name)
    except ImportError as exc:
        raise InputError(f"cannot import the module {mod_name!r}: {exc}") from None
    obj = mod
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise InputError(f"{mod_name!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise InputError(f"{target!r} is not callable (a {type(obj).__name__})")
    return obj


def _feature(text: str, inputs):
    t = str(text).strip()
    if t.lower().startswith("lh:"):
        from rldp_verify.blackbox import lh_feature

        try:
            g = int(t[3:])
        except ValueError:
            raise InputError(f"--feature {text!r}: lh:G needs an integer number of buckets G") from None
        return lh_feature(inputs, g)
    return _load(t)


def _value(tok: str):
    try:
        return json.loads(tok)
    except ValueError:
        return tok


def run(args) -> int:
    """Run ``rldp-verify audit-sampler`` on ``MODULE:CALLABLE`` and print the
    :class:`~rldp_verify.blackbox.SamplerAudit`."""
    from rldp_verify.blackbox import audit_sampler

    inputs = [_value(t.strip()) for t in str(args.inputs).split(",") if t.strip() != ""]
    default_feature = None
    if args.adapter is not None:
        if args.target is not None:
            raise InputError(f"give either MODULE:CALLABLE ({args.target!r}) or --adapter, not both")
        from rldp_verify.adapters import sampler_spec

        fn, g = sampler_spec(args.adapter, args.param)
        if g is not None:
            from rldp_verify.blackbox import lh_feature

            default_feature = lh_feature(inputs, g)
    elif args.target is None:
        raise InputError("give the sampler as MODULE:CALLABLE or --adapter LIBRARY:NAME")
    else:
        if args.param:
            raise InputError("--param needs --adapter LIBRARY:NAME")
        fn = _load(args.target)
    kw: dict[str, Any] = {}
    if args.sizes is not None:
        parts = str(args.sizes).split(",")
        if len(parts) != 2:
            raise InputError(f"--sizes must be S,U, got {args.sizes!r}")
        kw["sizes"] = tuple(_num(v, "sizes", int) for v in parts)
    for k in ("phat", "alpha", "radius", "distribution"):
        if getattr(args, k) is not None:
            kw[k] = getattr(args, k)
    if args.full_simplex:
        kw["full_simplex"] = True
    if args.feature is not None:
        kw["feature"] = None if args.feature == "none" else _feature(args.feature, inputs)
    elif default_feature is not None:
        kw["feature"] = default_feature
    workers = None if args.workers is None else _num(args.workers, "workers", int)
    res = audit_sampler(fn, inputs, _num(args.trials, "trials", int), _num(args.confidence, "confidence", float),
                        _num(args.seed, "seed", int), workers=workers, progress=not args.quiet, **kw)
    from rldp_verify.blackbox import DIGITS
    from rldp_verify.cli._json import SCHEMA_VERSION

    out = {"schema_version": SCHEMA_VERSION, "digits": DIGITS, **res.to_json()}
    if args.json:
        print(json.dumps(out))
    else:
        if res.warning:
            print(f"WARNING:      {res.warning}")
        print(f"eps >= {out['eps_lower'][:10]}  with confidence {res.confidence}  ({res.mode}); "
              f"{res.outputs_seen} distinct outputs{' (feature keys)' if res.feature else ''} in {res.draws} draws")
        ev = out["event"]
        print(f"event:        {ev[:10]}" + (f" ... ({len(ev)} outputs; all in --json)" if len(ev) > 10 else ""))
        print(f"mixtures:     w1 = {out['weights'].get('w1')}, w2 = {out['weights'].get('w2')}")
        print(f"counts:       {out['counts']} of {res.certification_trials} certification draws per input")
        print(f"bounds:       {out['bounds']}  (one-sided Clopper-Pearson, Bonferroni)")
        print(f"draws:        {res.trials} per input, seed {res.seed}, reproducible: {res.reproducible}; "
              f"{res.seconds:.2f} s")
        if res.feature:
            print(f"feature:      {res.feature} (outputs counted by their key)")
        for n in res.notes:
            print(f"note:         {n}")
    return 0
