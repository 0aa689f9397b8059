"""Command-line arguments shared by ``ball``, ``mechanism`` and ``audit``: the estimate P-hat
(``--phat`` or ``--data/--sensitive/--public``) and the Rényi ball F around it (``--alpha`` with
``--radius`` or ``--confidence/--samples``). One place, so the three commands accept and reject
exactly the same inputs with the same messages.
"""

from __future__ import annotations

from dataclasses import dataclass

from rldp_verify.core.errors import InputError


@dataclass(frozen=True)
class Estimate:
    """The estimate P-hat read from ``--phat`` or ``--data``: the table, and from ``--data`` the rows counted
    and the labels of S and U."""

    table: object                 # a '--phat' string or a table of counts
    samples: int | None           # rows counted when read from --data
    sensitive: tuple | None       # labels from --data
    public: tuple | None


def add_estimate_arguments(group) -> None:
    """Add the options that give P-hat: ``--phat``, or ``--data`` with ``--sensitive``/``--public``/
    ``--keep-missing``."""
    group.add_argument("--phat", help='|S| x |U| table "p11,p12;p21,p22" (probabilities or counts), or a file: '
                       '.json (nested list), .csv (one row of S per line), .npy (2-D array)')
    group.add_argument("--data", help="CSV file of records (columns are names from a header row or 0-based indices)")
    group.add_argument("--sensitive", help="column of S in --data")
    group.add_argument("--public", help="column of U in --data")
    group.add_argument("--keep-missing", action="store_true",
                       help="--data: keep '?' as a category (Adult occupation x education: |X| = 240 as the paper "
                            "counts) instead of dropping rows with a missing value (|X| = 224)")


def add_ball_arguments(group, *, alpha_required: bool = False) -> None:
    """Add the options of the Rényi ball F: ``--alpha``, and ``--radius`` or ``--confidence`` with ``--samples``."""
    group.add_argument("--alpha", required=alpha_required, help="Rényi order alpha in (0, inf), e.g. 2, 1, 0.5, 3/2")
    group.add_argument("--radius", help="the radius B (a number >= 0, or inf)")
    group.add_argument("--confidence", help="confidence level 1 - beta in (0, 1) (eq. (11); needs --samples)")
    group.add_argument("--samples", help="number of samples n behind P-hat (default with --data: the rows counted)")


def has_estimate(args) -> bool:
    """True when ``--phat`` or ``--data`` was given."""
    return args.phat is not None or args.data is not None


def read_estimate(args) -> Estimate:
    """The estimate from --phat or --data (exactly one)."""
    if args.phat is not None and args.data is not None:
        raise InputError("give either --phat or --data, not both")
    if args.data is not None:
        from rldp_verify.rldp.data import read_counts

        if args.sensitive is None or args.public is None:
            raise InputError("--data needs --sensitive COL and --public COL")
        ct = read_counts(args.data, args.sensitive, args.public, missing=() if args.keep_missing else ("?",))
        return Estimate(ct.counts, ct.n, ct.sensitive, ct.public)
    if args.sensitive is not None or args.public is not None or getattr(args, "keep_missing", False):
        raise InputError("--sensitive/--public/--keep-missing are only used with --data")
    if args.phat is None or not args.phat.strip():
        raise InputError("give the estimate with --phat TABLE or --data FILE --sensitive COL --public COL")
    return Estimate(args.phat.strip(), None, None, None)


def uses_ball(args) -> bool:
    """True when any option of the ball F (``--radius``, ``--confidence``, ``--samples``) was given."""
    return any(getattr(args, k) is not None for k in ("radius", "confidence", "samples"))


def build_ball(args, est: Estimate, *, dps: int, purpose: str = "the uncertainty set F"):
    """The RenyiBall of --alpha and --radius, or --confidence with --samples (default: rows counted)."""
    from rldp_verify.rldp.uncertainty import RenyiBall

    if args.alpha is None:
        raise InputError(f"{purpose} needs --alpha and --radius, or --confidence with --samples")
    if str(args.alpha).strip().lstrip("+").lower() in ("inf", "infinity"):
        raise InputError(f"alpha = {args.alpha!r} is not allowed: alpha must be finite, in (0, inf)")
    if args.radius is not None:
        if args.confidence is not None or args.samples is not None:
            raise InputError("give either --radius or --confidence/--samples, not both")
        return RenyiBall.from_radius(est.table, args.alpha, args.radius)
    if args.confidence is not None:
        samples = args.samples if args.samples is not None else est.samples
        if samples is None:
            raise InputError("--confidence needs --samples N (the number of records behind --phat)")
        try:
            n = int(str(samples))
        except ValueError:
            raise InputError(f"--samples must be a positive integer, got {samples!r}") from None
        return RenyiBall.from_confidence(est.table, args.alpha, args.confidence, n, dps=dps)
    raise InputError(f"{purpose} needs the radius: --radius B, or --confidence C with --samples N")
