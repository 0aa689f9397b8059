"""``rigorous-value``: an inequality or enclosure of a real number given as an expression, checked in arb.

Statement: ``expr`` and at least one of ``lower`` / ``upper`` (exact numbers; with ``"strict": true``
the inequalities are strict); optional ``prec`` (starting bits, default 128).  The claim is
lower <= expr <= upper.  The checker evaluates expr in arb balls, doubling the precision up to 16384 bits
until the ball lies inside [lower, upper] (accepted) or outside it (rejected); a ball that still straddles
an end at 16384 bits is rejected ("not decided").  With ``"exact": true`` it evaluates expr in exact rationals
(fmpq) instead, with + * - / min max let and pow with an integer exponent only, and compares exactly (lower =
upper: an exact equality).

The expression language (JSON): a number (int or exact string: "p/q", "0.07"), or a list
``[op, arg, ...]`` with op one of

    "+" (any number of args), "*" (any number), "-" (one arg: negation; two: difference), "/",
    "log" (argument certainly > 0), "exp", "sqrt" (argument certainly >= 0), "erf" (the error function
    erf(x) = (2/sqrt(pi)) int_0^x e^{-t^2} dt, arb's), "pi" (no argument: the constant),
    "pow" [x, y] (x^y: y an integer, or x certainly > 0), "min", "max" (any number of args),
    "let" [[[name, expr], ...], body] and a string "$name" (a value bound by an enclosing "let"),
    "xlogx" [x] (x log x for x > 0, 0 for x <= 0).

An interval variable: with ``"forall": [name, a, b]`` (a <= b exact) the claim is lower <= expr <= upper for every
``$name`` in [a, b]; ``data["boxes"]`` is a list [[lo, hi], ...] of exact boxes that must cover [a, b] exactly (first
lo = a, each hi = the next lo, last hi = b, lo <= hi), and on each box ``$name`` is the arb ball
arb(lo).union(arb(hi)), which contains the whole box, so the inequality holds on it for every point (arb only).
"""

from __future__ import annotations

from fractions import Fraction

import flint

from rldp_verify_check import CertificateError, q

MAX_PREC = 16384


def fq(x: Fraction) -> flint.fmpq:
    """A rational as flint's fmpq."""
    return flint.fmpq(x.numerator, x.denominator)


def num(x: Fraction) -> flint.arb:
    """The exact ball of a rational."""
    return flint.arb(fq(x))


def sure(yes, no):
    """True when certainly yes, False when certainly no, else None (undecided)."""
    return True if yes else (False if no else None)


def inside(v, lo, hi, strict: bool = False, conv=num):
    """Is the ball (or exact number) v certainly in [lo, hi] (open with ``strict``; an end None is absent)?  True,
    False (certainly not), or None (undecided); ``conv`` turns an end into v's type."""
    ds = [sign * (v - conv(end)) for end, sign in ((lo, 1), (hi, -1)) if end is not None]
    return sure(all(d > 0 if strict else d >= 0 for d in ds), any(d <= 0 if strict else d < 0 for d in ds))


def evaluate(e, env=None, exact: bool = False) -> flint.arb | flint.fmpq:
    """An arb ball containing the value of expression ``e`` (at flint's current precision); with ``exact``, its
    exact value (an fmpq)."""
    env = env or {}
    if isinstance(e, str) and e.startswith("$"):
        if e not in env:
            raise CertificateError(f"unbound name {e}")
        return env[e]
    if not isinstance(e, list):
        return fq(q(e)) if exact else num(q(e))
    if not e:
        raise CertificateError("empty expression")
    op, args = e[0], e[1:]
    if op == "let":
        return _let(args, env, exact)
    xs = [evaluate(a, env, exact) for a in args]
    rule = (EXACT_OPS if exact else OPS).get(op) if isinstance(op, str) else None
    if rule is None:
        raise CertificateError(f"unknown operation {op!r}{' in exact evaluation' if exact else ''}")
    return rule(xs, args)


def _let(args, env, exact: bool) -> flint.arb | flint.fmpq:
    """``["let", [[name, expr], ...], body]``: each expr sees the names bound before it, body sees all."""
    inner = dict(env)
    for name, sub in args[0]:
        inner["$" + name] = evaluate(sub, inner, exact)
    return evaluate(args[1], inner, exact)


# One function per operation, called with the balls xs of the arguments (and the arguments args themselves);
# each checks its operation's domain on the balls.
def _fold(op):
    """The operation of any number of arguments that applies the binary ``op`` from the left (+, *, min, max)."""
    def fold(xs, args):
        out = xs[0]
        for x in xs[1:]:
            out = op(out, x)
        return out
    return fold


_add, _multiply = _fold(lambda a, b: a + b), _fold(lambda a, b: a * b)
_min, _max = _fold(lambda a, b: a.min(b)), _fold(lambda a, b: a.max(b))


def _minus(xs, args):
    return -xs[0] if len(xs) == 1 else xs[0] - xs[1]


def _guard(f, test, what: str, i: int = 0):
    """The operation f(xs) on the domain where test(xs[i]) certainly holds; elsewhere refused with ``what``."""
    def rule(xs, args):
        if not test(xs[i]):
            raise CertificateError(what)
        return f(xs)
    return rule


_divide = _guard(lambda xs: xs[0] / xs[1], lambda x: x > 0 or x < 0, "division by a ball that contains 0", 1)
_log = _guard(lambda xs: xs[0].log(), lambda x: x > 0, "log of a ball not certainly positive")
_sqrt = _guard(lambda xs: xs[0].sqrt(), lambda x: x >= 0, "sqrt of a ball not certainly non-negative")


def _pow(xs, args):
    if not isinstance(args[1], list) and q(args[1]).denominator == 1:
        k = int(q(args[1]))
        if k < 0 and not (xs[0] > 0 or xs[0] < 0):
            raise CertificateError("negative power of a ball that contains 0")
        return xs[0] ** k
    if not xs[0] > 0:
        raise CertificateError("non-integer power of a ball not certainly positive")
    return (xs[1] * xs[0].log()).exp()


def _power(xs, args):
    if isinstance(args[1], list) or q(args[1]).denominator != 1:
        raise CertificateError("exact evaluation: pow needs an integer exponent")
    return _pow(xs, args)


def _xlogx(xs, args):
    x, e1 = xs[0], flint.arb(-1).exp()  # on [0, u]: x log x falls to -1/e at 1/e, then rises; <= max(0, u log u)
    if x > 0:
        return x * x.log()
    u = x.upper()
    if not u > 0:
        return flint.arb(0).union(-e1)
    out = (u * u.log()).union(flint.arb(0))
    return out if u < e1 else out.union(-e1)


OPS = {"+": _add, "*": _multiply, "-": _minus, "/": _divide, "log": _log, "exp": lambda xs, a: xs[0].exp(),
       "sqrt": _sqrt, "erf": lambda xs, a: xs[0].erf(), "pi": lambda xs, a: flint.arb.pi(), "pow": _pow, "min": _min,
       "max": _max, "xlogx": _xlogx}
EXACT_OPS = {**{k: OPS[k] for k in "+*-/"}, "pow": _power, "min": lambda xs, a: min(xs), "max": lambda xs, a: max(xs)}


def decide(claim, prec: int = 128) -> bool:
    """Evaluate ``claim(prec) -> True | False | None`` (None: undecided) at doubling precision."""
    while prec <= MAX_PREC:
        with flint.ctx.workprec(prec):
            r = claim()
        if r is not None:
            return r
        prec *= 2
    return False


def check(st: dict, data: dict) -> str:
    """Check a ``rigorous-value`` certificate; returns what was proved or raises CertificateError."""
    lo, hi = (None if st.get(k) is None else q(st[k]) for k in ("lower", "upper"))
    strict, exact = bool(st.get("strict", False)), bool(st.get("exact", False))
    if lo is None and hi is None:
        raise CertificateError("neither lower nor upper is stated")
    claim = lambda env=None: inside(evaluate(st["expr"], env, exact), lo, hi, strict, fq if exact else num)  # noqa: E731
    ends, rel, prec = ("-inf" if lo is None else lo, "inf" if hi is None else hi), "<" if strict else "<=", int(
        st.get("prec", 128))
    if st.get("forall") is None:
        if not decide(claim, prec):
            how = "exactly" if exact else f"in arb up to {MAX_PREC} bits"
            raise CertificateError(f"the value is not certainly in [{ends[0]}, {ends[1]}] (evaluated {how})")
        return f"{ends[0]} {rel} value {rel} {ends[1]} ({'exact' if exact else 'arb'})"
    name, a, b = st["forall"][0], q(st["forall"][1]), q(st["forall"][2])    # every point of [a, b], box by box
    boxes = [(q(x), q(y)) for x, y in data["boxes"]]
    if exact or not boxes or not a <= b:
        raise CertificateError("forall needs arb evaluation, a <= b and at least one box")
    if boxes[0][0] != a or boxes[-1][1] != b:
        raise CertificateError(f"the boxes cover [{boxes[0][0]}, {boxes[-1][1]}], not [{a}, {b}]")
    for (x, y), nxt in zip(boxes, boxes[1:] + [(b, b)], strict=True):
        if not x <= y or y != nxt[0]:
            raise CertificateError(f"box [{x}, {y}] is empty or not followed by a box starting at {y}")
    for x, y in boxes:
        try:
            ok = decide(lambda x=x, y=y: claim({"$" + name: num(x).union(num(y))}), prec)
        except CertificateError as exc:
            raise CertificateError(f"on the box [{x}, {y}]: {exc}") from None
        if not ok:
            raise CertificateError(f"the value is not certainly in [{ends[0]}, {ends[1]}] on the box [{x}, {y}]")
    return f"{ends[0]} {rel} value {rel} {ends[1]} for every {name} in [{a}, {b}] ({len(boxes)} boxes, arb)"
