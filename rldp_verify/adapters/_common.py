"""What the library adapters share: parameter checks, the sampler model of an event (:class:`_Events`), the
installed versions, the local-hashing hash as the libraries call it, and reading a traced run of the library's
code (:mod:`rldp_verify.structured.trace`)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction

from rldp_verify.core.errors import InputError
from rldp_verify.structured import samplers as sm
from rldp_verify.structured.trace import tracing

MODELS = ("code", "ideal")
SEED_SEARCH = 256
# the comparison operators a traced draw is compared with
COMPARISONS = ("<", "<=", ">", ">=")


def _prob(x, what: str) -> float:
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise InputError(f"{what} = {x!r} is not a number") from None
    if not math.isfinite(v) or not 0 <= v <= 1:
        raise InputError(f"{what} = {x!r} is not a probability")
    return v


def _lst_k(params: dict, label: str) -> list[int]:
    """The ``lst_k`` parameter of the multidimensional protocols (SMP, RS+FD): the attributes' domain sizes."""
    lst_k = params.pop("lst_k", None)
    try:
        return [_size(int(v) if isinstance(v, str) and v.strip().isdigit() else v, "lst_k entry") for v in lst_k]
    except TypeError:
        raise InputError(f"{label} needs lst_k = the list of the attributes' domain sizes") from None


def _size(d, what: str) -> int:
    if isinstance(d, bool) or not (isinstance(d, int) or hasattr(d, "__index__")):
        raise InputError(f"{what} = {d!r} is not an integer")
    d = int(d)
    if d < 2:
        raise InputError(f"{what} = {d} must be at least 2")
    return d


def _d_param(params: dict, label: str) -> int:
    """The domain size ``d`` of a library object that does not carry it (the only parameter it takes; the caller's
    dict is not changed)."""
    params = dict(params)
    if "d" not in params:
        raise InputError(f"{label} does not know the domain size: pass d=...")
    d = _size(params.pop("d"), "d")
    if params:
        raise InputError(f"unexpected parameter(s) {', '.join(sorted(params))} for {label}")
    return d


def _index_string(alphabet: list, length: int):
    """Input index x -> the string of ``length`` letters of ``alphabet`` it numbers (base |alphabet|, most significant
    letter first): the inputs of pure-ldp's heavy-hitter clients (PEM, TreeHist)."""
    def string(x: int) -> str:
        digits = []
        for _ in range(length):
            x, r = divmod(x, len(alphabet))
            digits.append(alphabet[r])
        return "".join(reversed(digits))
    return string


def _eps(eps, name="epsilon") -> float:
    try:
        v = float(eps)
    except (TypeError, ValueError):
        raise InputError(f"{name} = {eps!r} is not a number") from None
    if not math.isfinite(v) or not v > 0:
        raise InputError(f"{name} = {eps!r} must be a number > 0")
    return eps


def _left(params, label):
    if params:
        raise InputError(f"unexpected parameter(s) {', '.join(sorted(params))} for {label}")


class _Events:
    """Event probabilities under the chosen sampler model."""

    def __init__(self, model: str):
        if model not in MODELS:
            raise InputError(f"model = {model!r} must be one of {', '.join(MODELS)}")
        self.model = model

    def __call__(self, kind: str, c):
        if self.model == "ideal":
            v = Fraction(c) if not isinstance(c, Fraction) else c
            return 1 - v if kind == "gt" else v
        if kind == "lt":
            return sm.prob_lt(c)
        if kind == "le":
            return sm.prob_le(c)
        if kind == "gt":
            return 1 - sm.prob_le(c)
        if kind == "choices":            # random.choices([a, b], weights=[c, 1 - c]) gives a
            return sm.prob_choices_first([c, 1 - float(c)])
        if kind in ("binomial-numpy", "binomial-numba"):
            return sm.prob_binomial1(c, kind.split("-")[1]) if not isinstance(c, Fraction) else c
        raise ValueError(kind)


def _version(dist: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return None


def xxhash_problem() -> str | None:
    """None when ``xxhash.xxh32(str, seed)`` works as the libraries call it; else the explanation."""
    import xxhash

    try:
        xxhash.xxh32("0", seed=0)  # type: ignore[arg-type]  # the libraries' own call, with a str
        return None
    except TypeError as exc:
        return (f"with xxhash {_version('xxhash')} the library's own call xxhash.xxh32(str(v), seed=...) raises "
                f"TypeError ({exc}): the code as written cannot run; it works with xxhash<4 (pip install "
                f"'xxhash<4'), which hashes the UTF-8 bytes of str(v) with the seed mod 2^32; the channel "
                "audited is that of the working combination")


def _lh_hash(x: int, seed: int, g: int) -> int:
    import xxhash

    return xxhash.xxh32(str(x).encode("utf-8"), seed=int(seed) & 0xFFFFFFFF).intdigest() % g


def _separating(g, seeds):
    def sep(x, xp):
        for s in seeds:
            if _lh_hash(x, s, g) != _lh_hash(xp, s, g):
                return s
        return None
    return sep


def _never(i, op, c) -> bool:
    """A traced draw's comparison answered False."""
    return False


def _always(i, op, c) -> bool:
    """A traced draw's comparison answered True."""
    return True


def _trace(fn, *args, decide=_never, unjit=()):
    from rldp_verify.structured.trace import as_compiled

    target = as_compiled(fn)
    with tracing(decide, unjit) as log:
        out = target(*args)
    return log, out


def _comparisons(log) -> list:
    """The comparisons of the traced draws, in order: (op, threshold, draw number)."""
    return [e for e in log if len(e) == 3 and e[0] in COMPARISONS]


def _cmp(log, i):
    """The (op, threshold) of probe i in the log."""
    for e in log:
        if len(e) == 3 and e[2] == i and e[0] in COMPARISONS:
            return e[0], e[1]
    raise InputError(f"the traced code made no comparison with its draw number {i}; unsupported library version")


_OPS = {"<": "lt", "<=": "le", ">": "gt"}


def _ev_of(ev, op, c):
    if op not in _OPS:
        raise InputError(f"the traced code compares its uniform with {op!r}; no model for it")
    return ev(_OPS[op], c)


def _laplace_scales(log) -> list:
    """The scales b of the Laplace draws in a traced run."""
    return [e[2] for e in log if e[0] == "laplace"]


@contextmanager
def xxhash_accepting_str(name: str, bits: int) -> Iterator[None]:
    """``xxhash.<name>`` (xxh32 / xxh64) made to accept the libraries' str argument as xxhash < 4 does (its UTF-8
    bytes, the seed reduced to ``bits`` bits) while a trace or a hash computation runs; restored afterwards."""
    import xxhash

    orig = getattr(xxhash, name)
    mask = (1 << bits) - 1

    def shim(s, seed=0):
        return orig(s.encode() if isinstance(s, str) else s, seed=int(seed) & mask)
    setattr(xxhash, name, shim)
    try:
        yield
    finally:
        setattr(xxhash, name, orig)


def rappor_family_lost(client, label: str, what: str) -> None:
    """pure-ldp's ``RAPPORClient.update_params`` sets ``hash_family = hash_funcs if hash_funcs is not None else
    hash_funcs`` (None when not passed), and the heavy hitters call it with epsilon / index_mapper only: the code as
    written raises TypeError in ``privatise``. Refused, naming it (nothing silently repaired)."""
    if type(client).__name__ == "RAPPORClient" and getattr(client, "hash_family", None) is None:
        raise InputError(f"{label}: the {what} RAPPORClient has hash_family = None (pure-ldp's update_params drops it "
                         "when hash_funcs is not passed, and the heavy hitter calls update_params), so its privatise "
                         "raises TypeError: nothing to audit (set its hash_family again to audit the repaired client)")


class _Rec:
    """A stand-in inner client that records what the heavy hitter passes to ``privatise`` (SFP's fragment and word
    strings, TreeHist's word and prefixes), so the adapters read the arguments from the library's own code."""

    def __init__(self):
        self.seen: list = []

    def privatise(self, v):
        self.seen.append(v)
        return None
