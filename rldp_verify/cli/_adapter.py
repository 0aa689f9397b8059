"""``--adapter LIBRARY:NAME --param k=v ...`` for ``rldp-verify audit``: audit a library's mechanism through
its exact channel (:mod:`rldp_verify.adapters`) instead of a mechanism JSON file.

With ``--ldp`` the audit is the structured one (:func:`rldp_verify.adapters.audit_adapted`: any domain size,
no enumeration of outputs, the sampler model stated, float-rounding excesses explained, ``--tolerance``):
:func:`add_adapter_arguments` wraps the command's ``func`` (set after it by ``parser.set_defaults``) so that
``--adapter ... --ldp`` runs :func:`run_structured`, which prints in the format of ``rldp-verify audit`` and
returns its exit code (0 PASS, 1 FAIL, 3 INCONCLUSIVE). ``--distribution P`` takes the same structured route
for GRR, unary encodings, subset selection and local hashing ((eps, P)-RLDP, :mod:`rldp_verify.structured.rldp`),
and a Rényi ball (``--phat``/``--data``) for unary encodings, GRR / L-GRR, subset selection and local hashing
(:mod:`rldp_verify.structured.ball`, :mod:`rldp_verify.structured.ball_hashing`), with ``--certificate`` too
for unary encodings, GRR, unordered subset selection and local hashing over a seed range not searched whole (the
structured certificate forms; the others, and local hashing's complete seed ranges, take the dense route then).
Ordered subset selection (m >= 2) has neither an (eps, P) nor a ball audit: it takes the dense route.
The ideal Laplace histogram (HE) takes the structured route under {P}, a Rényi ball and ``--full-simplex``
(:mod:`rldp_verify.structured.laplace_rldp`, with ``--certificate`` too). Local hashing over a complete seed range
under {P} with ``--certificate`` takes the dense route while its dense channel fits, else the structured one (its
``seed_table`` certificate).
Other uncertainty sets and structures use the dense channel (small domains); local hashing over a large seed
range is refused there (its dense form keeps a few seeds), and a dense channel too large is refused naming the
structure.
"""

from __future__ import annotations

import json
import sys

from rldp_verify.core.errors import InputError


def add_adapter_arguments(p) -> None:
    """Add ``--adapter LIBRARY:NAME``, ``--param NAME=VALUE``, ``--sizes S,U``, ``--sampler-model`` and
    ``--tolerance`` (a mechanism taken from an LDP library instead of a JSON file)."""
    g = p.add_argument_group("a mechanism from an LDP library (instead of MECHANISM.json)")
    g.add_argument("--adapter", default=None, metavar="LIBRARY:NAME",
                   help="e.g. pure-ldp:UEClient, pure-ldp:LHClient, multi-freq-ldpy:LH_Client, pure-ldp:SFPClient (its "
                        "inner client: --param fo=DEClient --param fo.KEY=VALUE), "
                        "multi-freq-ldpy:L_OUE_Client, opendp:make_randomized_response (README: the table)")
    g.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a parameter of the adapter (repeat), e.g. --param epsilon=0.25 --param d=2 "
                        "--param use_oue=true")
    g.add_argument("--sizes", default=None, metavar="S,U", help="read the library's domain as S x U (default d x 1)")
    g.add_argument("--sampler-model", default="code", choices=("code", "ideal"),
                   help="code (default): the events the library's float sampler draws; ideal: exact Bernoulli(p)")
    g.add_argument("--tolerance", default=None, metavar="T",
                   help="with --ldp: accept (PASS, noted) a certified eps exceeding --eps by at most T")
    set_defaults = p.set_defaults

    def wrapped_set_defaults(**kw):
        if callable(kw.get("func")):
            kw["func"] = _structured_first(kw["func"])
        return set_defaults(**kw)
    p.set_defaults = wrapped_set_defaults


def _structured_first(run):
    def func(args):
        try:
            return route(args)
        except InputError as exc:            # a table file of the wrong size: the message names the file
            from rldp_verify.cli.audit import with_table_file

            msg = with_table_file(args, str(exc))
            if msg == str(exc):
                raise
            raise InputError(msg) from None

    def route(args):
        ldp, dist = getattr(args, "ldp", False), getattr(args, "distribution", None)
        simplex = getattr(args, "full_simplex", False)
        if getattr(args, "adapter", None) is not None and (ldp or dist is not None or simplex):
            adapted = _structured_p(args, ldp, dist)
            if adapted is not None:
                return run_structured(args, adapted)
        if getattr(args, "adapter", None) is not None and has_ball(args):
            adapted = _structured_ball(args)
            if adapted is not None:
                return run_structured(args, adapted)
        return run(args)
    func.__doc__ = run.__doc__
    return func


def _adapted(args):
    if args.mechanism is not None:
        raise InputError(f"give either a mechanism file ({args.mechanism!r}) or --adapter, not both")
    from rldp_verify.adapters import adapt_spec

    return adapt_spec(args.adapter, args.param, model=args.sampler_model)


def _structured_p(args, ldp, dist):
    """The adapted mechanism when ``--ldp``, ``--distribution`` or ``--full-simplex`` takes the structured route
    (eps-LDP; {P} for the structures of :mod:`rldp_verify.structured.rldp` but ordered subsets and, with
    ``--certificate``, complete local hashing whose dense channel fits; the Laplace histogram under both and on the
    simplex), else None (the dense route)."""
    from rldp_verify.structured.laplace_rldp import is_laplace_histogram
    from rldp_verify.structured.rldp import SUPPORTED

    adapted = _adapted(args)
    st = adapted.structure
    ordered = getattr(st, "ordered", False) and st.m >= 2   # {P}: dense only
    dense = getattr(args, "certificate", None) and getattr(st, "complete", False) and _dense_fits(st)
    if _exclusive(args) and (ldp or is_laplace_histogram(st) or dist is not None and (
            isinstance(st, SUPPORTED) and not ordered and not dense)):
        return adapted
    return None


def _structured_ball(args):
    """The adapted mechanism when a Rényi ball takes the structured route (unary encodings, the Laplace histogram;
    without ``--certificate`` GRR / subset selection and local hashing; with it the checker's forms only), else
    None (the dense route)."""
    from rldp_verify.certificates.audit import has_subsets_form
    from rldp_verify.structured import UnaryProduct
    from rldp_verify.structured.ball import SUPPORTED_BALL
    from rldp_verify.structured.channels import PublicMixture
    from rldp_verify.structured.laplace_rldp import is_laplace_histogram

    adapted = _adapted(args)
    st, cert = adapted.structure, getattr(args, "certificate", None)
    lh = isinstance(st, PublicMixture) and not st.complete       # a complete seed range: the exact dense route
    sets = () if cert else (*SUPPORTED_BALL, PublicMixture)   # with a certificate: the checker's forms only
    sets = () if getattr(st, "ordered", False) and st.m >= 2 else sets   # ordered SS: no ball audit, dense
    if (isinstance(st, (UnaryProduct, *sets)) or is_laplace_histogram(st) or cert and (has_subsets_form(st) or lh)) \
            and _exclusive(args, ball=True):
        return adapted
    return None


def _dense_fits(st) -> bool:
    """Local hashing over a complete seed range: does its dense channel (seeds x g x d entries) fit? Then
    ``--certificate`` under {P} takes the exact dense route (its dense certificate); beyond, the structured one,
    whose certificate carries the ``seed_table`` (at most 2^21 buckets) or refuses in one line naming its size."""
    from rldp_verify.structured.channels import MAX_DENSE_ENTRIES

    return len(list(st.seeds)) * st.g * st.d <= MAX_DENSE_ENTRIES


def _exclusive(args, ball: bool = False) -> bool:
    """Exactly one uncertainty set and no option of a Rényi ball (otherwise the dense route reports the
    conflict, before any channel is built)."""
    from rldp_verify.cli._uncertainty import uses_ball

    chosen = [args.phat is not None, args.data is not None, args.full_simplex, args.distribution is not None,
              args.ldp]
    return sum(chosen) == 1 and (ball or (not uses_ball(args) and getattr(args, "alpha", None) is None))


def _sizes(args):
    if args.sizes is None:
        return None
    try:
        sizes = tuple(int(v) for v in str(args.sizes).split(","))
    except ValueError:
        raise InputError(f"--sizes must be S,U (two integers), got {args.sizes!r}") from None
    if len(sizes) != 2:
        raise InputError(f"--sizes must be S,U (two integers), got {args.sizes!r}")
    return sizes


def has_ball(args) -> bool:
    """A Rényi ball (--phat or --data) is the uncertainty set."""
    return getattr(args, "phat", None) is not None or getattr(args, "data", None) is not None


def mechanism_from_args(args):
    """The mechanism to audit: the JSON path, or the adapter's exact dense channel (small domains)."""
    model = getattr(args, "sampler_model", "code")
    tol = getattr(args, "tolerance", None)
    if args.adapter is None:
        if args.param or args.sizes or tol is not None or model != "code":
            raise InputError("--param/--sizes/--sampler-model/--tolerance need --adapter LIBRARY:NAME")
        if args.mechanism is None:
            raise InputError("give a mechanism JSON file or --adapter LIBRARY:NAME")
        return args.mechanism
    if args.mechanism is not None:
        raise InputError(f"give either a mechanism file ({args.mechanism!r}) or --adapter, not both")
    from rldp_verify.adapters import adapt_spec, dense_mechanism
    from rldp_verify.structured import PublicMixture

    adapted = adapt_spec(args.adapter, args.param, model=model)
    if tol is not None:
        raise InputError("--tolerance applies to the structured audits: use it with --ldp, or with --distribution "
                         "for GRR, unary encodings and subset selection (without --certificate)")
    st = adapted.structure
    what = "(eps, F)-RLDP for a Rényi ball" if has_ball(args) else "this uncertainty set"
    if isinstance(st, PublicMixture) and not st.complete:   # a few seeds of the range: exact for eps-LDP only
        raise InputError(f"{adapted.name} ({st.kind}): {what} is not audited exactly: the ratio depends on the "
                         "library's hash over every public seed, and the dense form keeps only a few seeds")
    try:
        return dense_mechanism(adapted, _sizes(args))
    except InputError as exc:
        raise InputError(f"{adapted.name} ({st.kind}): {what} needs the dense channel (no structured audit of it "
                         f"yet), which is refused: {exc}") from None


def run_structured(args, adapted) -> int:
    """Audit ``adapted`` for eps-LDP, print the result like ``rldp-verify audit`` and return the exit code."""
    from rldp_verify.cli._json import dumps
    from rldp_verify.cli.audit import EXIT, json_document
    from rldp_verify.structured import audit_structured

    sizes = _sizes(args)
    dist = getattr(args, "distribution", None)
    if dist is not None and not getattr(args, "ldp", False):
        res = audit_structured(adapted, args.eps, tolerance=getattr(args, "tolerance", None),
                               distribution=dist, sizes=sizes)
    elif has_ball(args):
        from rldp_verify.cli._uncertainty import build_ball, read_estimate

        if getattr(args, "tolerance", None) is not None:
            raise InputError("--tolerance applies to --ldp and --distribution, not to a Rényi ball")
        ball = build_ball(args, read_estimate(args), dps=args.dps, purpose="a Rényi ball")
        res = audit_structured(adapted, args.eps, ball=ball, sizes=sizes)
    elif getattr(args, "full_simplex", False) and not getattr(args, "ldp", False):
        res = audit_structured(adapted, args.eps, tolerance=getattr(args, "tolerance", None), simplex=True,
                               sizes=sizes)
    else:
        res = audit_structured(adapted, args.eps, tolerance=getattr(args, "tolerance", None))
    if getattr(args, "certificate", None):  # no certificate form: InputError (exit 2) before anything is printed
        from rldp_verify.certificates.audit import write_structured_certificate

        chk = write_structured_certificate(args.certificate, res, adapted, args.eps)
        sys.stderr.write(f"certificate: {args.certificate} ({'re-checked' if chk.ok else 'FAILED: ' + chk.message})\n")
    out = json_document(res)
    if args.json:
        sys.stdout.write(dumps(out, indent=None))
    else:
        print(f"verdict:      {res.verdict}  (target eps = {res.eps})")
        print(f"adapter:      {res.adapter}")
        print(f"structure:    {res.structure}")
        print(f"sampler:      {res.sampler}")
        print(f"uncertainty:  {res.uncertainty}")
        how = ("exact for the modelled channel" if res.ratio_lower == res.ratio_upper else
               "lower: attained at a searched output; upper: certified")
        print(f"worst ratio:  [{out['ratio_lower']}, {out['ratio_upper']}]  ({how})")
        print(f"eps:          [{out['eps_realised'][0]}, {out['eps_realised'][1]}]")
        if out["excess"] is not None:
            print(f"excess:       {out['excess']}  (over the claimed eps, rounded up; rounding budget "
                  f"{out['rounding_budget']})")
        if out["witness"] is not None:
            print("P:            " + ("\n              ".join(json.dumps(r) for r in out["witness"])))
        print(f"witness:      {json.dumps(out['structured_witness'])}")
        print(f"time:         {res.seconds:.3f} s")
        for n in out["notes"]:
            print(f"note:         {n}")
    sys.stdout.flush()
    return EXIT[res.verdict]
