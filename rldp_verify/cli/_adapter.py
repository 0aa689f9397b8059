"""``--adapter LIBRARY:NAME --param k=v ...`` for ``rldp-verify audit``: audit a library's mechanism through
its exact channel (:mod:`rldp_verify.adapters`) instead of a mechanism JSON file."""

from __future__ import annotations

from rldp_verify.core.errors import InputError


def add_adapter_arguments(p) -> None:
    """Add ``--adapter LIBRARY:NAME``, ``--param NAME=VALUE`` and ``--sizes S,U`` (a mechanism taken from an
    LDP library instead of a JSON file)."""
    g = p.add_argument_group("a mechanism from an LDP library (instead of MECHANISM.json)")
    g.add_argument("--adapter", default=None, metavar="LIBRARY:NAME",
                   help="e.g. pure-ldp:UEClient, pure-ldp:DEClient, multi-freq-ldpy:GRR_Client, "
                        "multi-freq-ldpy:UE_Client, opendp:make_randomized_response[_bool]")
    g.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a parameter of the adapter (repeat), e.g. --param epsilon=0.25 --param d=2 --param use_oue=true")
    g.add_argument("--sizes", default=None, metavar="S,U", help="read the library's domain as S x U (default d x 1)")


def mechanism_from_args(args):
    """The mechanism to audit: the JSON path, or the adapter's exact channel."""
    if args.adapter is None:
        if args.param or args.sizes:
            raise InputError("--param/--sizes need --adapter LIBRARY:NAME")
        if args.mechanism is None:
            raise InputError("give a mechanism JSON file or --adapter LIBRARY:NAME")
        return args.mechanism
    if args.mechanism is not None:
        raise InputError(f"give either a mechanism file ({args.mechanism!r}) or --adapter, not both")
    from rldp_verify.adapters import from_spec

    sizes = None
    if args.sizes is not None:
        try:
            sizes = tuple(int(v) for v in str(args.sizes).split(","))
        except ValueError:
            raise InputError(f"--sizes must be S,U (two integers), got {args.sizes!r}") from None
        if len(sizes) != 2:
            raise InputError(f"--sizes must be S,U (two integers), got {args.sizes!r}")
    return from_spec(args.adapter, args.param, sizes=sizes)
