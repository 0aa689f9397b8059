"""Symbolic-identity certificates (issue 23): a sympy identity lhs == rhs as a rational identity in named variables,
which the independent checker (:mod:`rldp_verify_check.identity`) proves by exact evaluation on a grid of
points (c_{x,alpha_x}) for the exponent vectors alpha of the numerator's degree bounds, which the checker computes
itself.

Identities in exp, log, roots: :func:`rationalize` substitutes algebraic variables where the identity is
rational in them -- exp(c eps) = t^(c L) with t = e^(eps/L) (L the least common denominator of eps's
coefficients), a positive symbol x with a rational power x^(p/q) written as u^q, and any other non-rational
atom (log(x), sqrt(1 + x), x^alpha, pi) as an independent variable A_j (a rational identity that holds for every
value of A_j holds at its actual value).  When the identity needs a root's relation A^q = b^p (A = b^(p/q), b
rational), the builder divides the numerator of lhs - rhs by A^q - b^p and certifies instead lhs == rhs +
(A^q - b^p) K with the quotient K: rational in A, and equal to the claim's identity at A = b^(p/q).
The certificate states the substitution in words; when the
substituted identity is not rational (it rests on a relation between the atoms, e.g. log(xy) = log x + log y),
or its grid would exceed :data:`MAX_POINTS` evaluations, the builder raises ``ValueError`` saying so, which
:func:`rldp_verify.certificates.claims.built` turns into the claim's no-certificate reason.

A REFUTED identity carries instead a ``rigorous-value`` certificate (:func:`refutation_certificate`): lhs - rhs
at a rational point, certainly non-zero.
"""

from __future__ import annotations

import math
from fractions import Fraction

import sympy

from rldp_verify.certificates import envelope, qs
from rldp_verify.certificates.arith import Arithmetic

MAX_POINTS = 10**4    # the builder's limit (the checker accepts up to 10^5): about 5 s of checking for a large tree


def to_tree(e: sympy.Expr):
    """A rational sympy expression (symbols, rationals, + * and integer powers) as the checker's JSON tree."""
    if e.is_Symbol:
        return "$" + e.name
    if e.is_Rational:
        return qs(Fraction(int(e.p), int(e.q)))
    if e.is_Add or e.is_Mul:
        return ["+" if e.is_Add else "*", *(to_tree(a) for a in e.args)]
    if e.is_Pow and e.exp.is_Integer:
        return ["pow", to_tree(e.base), int(e.exp)]
    raise ValueError(f"not a rational expression: {str(e)[:120]} (a {type(e).__name__})")


def _exp_substitution(es: list, notes: list) -> list:
    """exp(c_1 s_1 + ... ) -> prod t_s^(c_s L_s), t_s = e^(s/L_s), for rational c_s (no constant term)."""
    exps = sorted({a for e in es for a in e.atoms(sympy.exp)}, key=sympy.default_sort_key)
    lin: dict = {}
    for a in exps:
        arg = sympy.expand(a.args[0])
        coeffs = arg.as_coefficients_dict()
        if all(k.is_Symbol and c.is_Rational for k, c in coeffs.items()):
            lin[a] = coeffs
    L: dict = {}
    for coeffs in lin.values():
        for s, c in coeffs.items():
            L[s] = math.lcm(L.get(s, 1), int(sympy.Rational(c).q))
    ts = {s: sympy.Symbol(f"t_{s.name}", positive=True) for s in L}
    rep = {a: sympy.Mul(*(ts[s] ** int(c * L[s]) for s, c in coeffs.items())) for a, coeffs in lin.items()}
    for s, t in ts.items():
        notes.append(f"{t.name} = exp({s.name}/{L[s]})" if L[s] != 1 else f"{t.name} = exp({s.name})")
    return [e.xreplace(rep) for e in es]


def _root_substitution(es: list, notes: list) -> list:
    """A positive symbol x with rational powers x^(p/q): x = u^Q (Q the lcm of the q's)."""
    Q: dict = {}
    for e in es:
        # in sympy's sort order, not a set's: the certificate must not depend on Python's hash seed
        for p in sorted(e.atoms(sympy.Pow), key=sympy.default_sort_key):
            if p.base.is_Symbol and p.base.is_positive and p.exp.is_Rational and not p.exp.is_Integer:
                Q[p.base] = math.lcm(Q.get(p.base, 1), int(p.exp.q))
    if not Q:
        return es
    Q = dict(sorted(Q.items(), key=lambda kv: kv[0].name))
    rep = {x: sympy.Symbol(f"{x.name}_root{k}", positive=True) ** k for x, k in Q.items()}
    for x, k in Q.items():
        notes.append(f"{x.name} = {x.name}_root{k}^{k}")
    return [sympy.expand_power_base(e.xreplace(rep), force=False) for e in es]


def _atom_substitution(es: list, notes: list, relations: list, merged: list) -> list:
    """Every remaining non-rational sub-expression (functions, non-integer powers, transcendental constants) as an
    independent variable (b^(p/q) as A^p with A = b^(1/q)); for a root A = b^(1/q) of a rational b, the relation
    A^q - b (= 0) goes to ``relations``.  Atoms whose arguments sympy.cancel brings to one form share a variable;
    their arguments go to ``merged`` as pairs (first, other), to be certified equal themselves."""
    rep: dict = {}
    canon: dict = {}    # an atom in a canonical form (its arguments through sympy.cancel) -> its variable
    first: dict = {}

    def walk(e):
        if e.is_Symbol or e.is_Rational:
            return
        if (e.is_Add or e.is_Mul) or (e.is_Pow and e.exp.is_Integer):
            for a in e.args:
                walk(a)
            return
        root = e.is_Pow and e.exp.is_Rational
        key = (sympy.cancel(e.base), int(e.exp.q)) if root else e.func(*(sympy.cancel(a) for a in e.args))
        if root and (_perfect_power(e, key, notes, merged, rep) or _split_root(e, key, notes, merged, rep, walk)):
            return
        if key in first and first[key] != e:
            pairs = [(first[key].base, e.base)] if root else zip(first[key].args, e.args, strict=True)
            merged.extend((x, y) for x, y in pairs if x != y)
        if key not in canon:
            first[key] = e
            canon[key] = _new_atom(f"A{len(canon)}", e, key if root else None, notes, relations)
        rep[e] = canon[key] ** int(e.exp.p) if root else canon[key]

    for e in es:
        if e.atoms(sympy.Float):
            raise ValueError(f"a float in the identity: {sorted(map(str, e.atoms(sympy.Float)))[:3]}")
        walk(e)
    return [e.xreplace(rep) for e in es]


def _new_atom(name: str, e, root_key, notes: list, relations: list) -> sympy.Symbol:
    """The variable of a new atom, its note, and for a root b^(1/q) of a rational b the relation A^q - b."""
    a = sympy.Symbol(name)
    base = root_key[0] if root_key else None
    notes.append(f"{name} = {sympy.sstr(e if base is None else base ** sympy.Rational(1, root_key[1]))}")
    if base is not None and not base.atoms(sympy.Function) and all(p.exp.is_Integer for p in base.atoms(sympy.Pow)):
        relations.append((a, a ** root_key[1] - base))
    return a


def _perfect_power(e, key, notes: list, merged: list, rep: dict) -> bool:
    """A root b^(p/q) whose base, brought to one factored fraction b' (= b, certified as an identified atom's
    argument), sympy evaluates as an exact q-th power of a positive rational expression: replaced by it^p."""
    base = sympy.factor(key[0])
    val = base ** sympy.Rational(1, key[1])
    if any(not p.exp.is_Integer for p in val.atoms(sympy.Pow)) or val.atoms(sympy.Function):
        return False
    if e.base != base:
        merged.append((e.base, base))
    notes.append(f"({sympy.sstr(base)})^(1/{key[1]}) = {sympy.sstr(val)}")
    rep[e] = val ** int(e.exp.p)
    return True


def _split_root(e, key, notes: list, merged: list, rep: dict, walk) -> bool:
    """b^(p/q) with b = N / D (one fraction, that equality certified) and D a q-th power of a positive expression
    that sympy evaluates: written (N^(1/q))^p / (D^(1/q))^p, the root of N an atom of its own."""
    num, den = sympy.fraction(key[0])
    dq = den ** sympy.Rational(1, key[1])
    if den == 1 or any(not p.exp.is_Integer for p in dq.atoms(sympy.Pow)) or dq.atoms(sympy.Function):
        return False
    if e.base != key[0]:
        merged.append((e.base, key[0]))
    new = num ** e.exp / dq ** int(e.exp.p)
    notes.append(f"({sympy.sstr(key[0])})^(1/{key[1]}) = ({sympy.sstr(num)})^(1/{key[1]}) / ({sympy.sstr(dq)})")
    walk(new)
    rep[e] = new.xreplace(rep)
    return True


def _reduce(es: list, relations: list, notes: list) -> list:
    """lhs - rhs = sum_j R_j K_j with R_j = A_j^q - b_j^p the roots' relations (polynomial division in A_j of the
    numerator of lhs - rhs): the identity lhs == rhs + sum_j R_j K_j is rational, and R_j = 0 at the roots' values."""
    num, den = sympy.fraction(sympy.together(es[0] - es[1]))
    num, extra = sympy.expand(num), []
    for a, rel in relations:
        quo, num = sympy.div(num, sympy.expand(rel), a)
        if quo != 0:
            extra.append(rel * quo / den)
            notes.append(f"rhs + ({sympy.sstr(rel)}) * K, K a rational function (0 since {a.name} is that root)")
    if sympy.expand(num) != 0:
        return es
    return [es[0], es[1] + sympy.Add(*extra)]


def rationalize(lhs, rhs, merged: list | None = None) -> tuple[sympy.Expr, sympy.Expr, str]:
    """(lhs', rhs', words): the identity as a rational one in new variables, and the substitution in words.
    Raises ValueError when lhs' - rhs' is not 0 as a rational function.  ``merged`` receives the pairs of
    arguments of atoms identified as one variable (each must be certified equal, see :func:`identity_certificate`).
    When the identity is not rational as written, it is tried once more with the powers of products of factors
    that sympy knows to be positive split (``sympy.expand_power_base`` without force: sqrt(x / c^2) = sqrt(x) / c
    for positive x, c), which the words then state."""
    es = [sympy.sympify(lhs), sympy.sympify(rhs)]
    try:
        return _rationalize(es, [], merged)
    except ValueError as exc:
        if "not a rational identity" not in str(exc):
            raise
        split = [sympy.expand_power_exp(sympy.expand_power_base(e, force=False)) for e in es]
        if split == es:
            raise
        more: list = []
        out = _rationalize(split, ["powers of products of positive factors and powers x^(a + b) split "
                                   "(sympy.expand_power_base, expand_power_exp)"], more)
        if merged is not None:
            merged.extend(more)
        return out


def _rationalize(es: list, notes: list[str], merged: list | None) -> tuple[sympy.Expr, sympy.Expr, str]:
    hyperbolic = (sympy.sinh, sympy.cosh, sympy.tanh, sympy.coth)
    if any(e.has(*hyperbolic) for e in es):
        es = [e.rewrite(sympy.exp) for e in es]
        notes.append("sinh, cosh, tanh, coth written with exp")
    relations: list = []
    merged = [] if merged is None else merged
    es = _atom_substitution(_root_substitution(_exp_substitution(es, notes), notes), notes, relations, merged)
    _grid_size(es[0], es[1])     # too large a grid is refused before sympy expands anything
    if relations and sympy.cancel(sympy.together(es[0] - es[1])) != 0:
        es = _reduce(es, relations, notes)
    if sympy.cancel(sympy.together(es[0] - es[1])) != 0:
        raise ValueError("not a rational identity after substituting " + ("; ".join(notes) or "nothing")
                         + ": it rests on relations that sympy used between its atoms (e.g. log or root rules)")
    return es[0], es[1], "; ".join(notes)


def _grid_size(lhs_, rhs_) -> tuple[dict, list, dict]:
    """(statement trees, variables, the checker's numerator degree bounds) of the rational identity lhs_ == rhs_;
    ValueError when its grid exceeds MAX_POINTS."""
    names = sorted(str(s) for s in lhs_.free_symbols | rhs_.free_symbols)
    return _tree_grid_size(to_tree(lhs_), to_tree(rhs_), names)


def _tree_grid_size(lhs, rhs, names: list[str]) -> tuple[dict, list, dict]:
    """:func:`_grid_size` for expression trees of the checker's language and their variables."""
    from rldp_verify_check.identity import degrees

    st = {"lhs": lhs, "rhs": rhs, "variables": names}
    degree, _ = degrees(["-", st["lhs"], st["rhs"]], names)
    ways = [1] + [0] * degree[""]     # ways[s]: exponent vectors of the variables so far with sum s (the checker's L)
    for x in names:
        ways = [sum(ways[s - k] for k in range(min(degree[x], s) + 1)) for s in range(degree[""] + 1)]
    size = sum(ways)
    if size > MAX_POINTS:
        raise ValueError(f"the grid would have {size} points (numerator degrees {degree}), more than {MAX_POINTS}")
    return st, names, degree


def _grid(names: list[str], degree: dict, attempt: int) -> dict:
    """d_x + 1 distinct points per variable x: j + 2 + 1/(3 + 2i + 7 attempt), fractional parts distinct across
    variables (so differences of variables do not vanish)."""
    return {x: [qs(j + 2 + Fraction(1, 3 + 2 * i + 7 * attempt)) for j in range(degree[x] + 1)]
            for i, x in enumerate(names)}


def identity_certificate(name: str, lhs, rhs=0, *, substitution: str | None = None) -> dict | list[dict]:
    """The ``symbolic-identity`` certificate of lhs == rhs (sympy expressions or numbers); ``substitution``: extra
    words about how the claim's identity was brought to this form (prepended to the builder's own).  When atoms
    with different arguments were identified as one variable (log(1 + x/p) and log((p + x)/p)), a list: this
    certificate and those of the arguments' equalities.  ValueError when both sides are one expression (sympy's
    automatic evaluation decided the identity when it built them, e.g. (xy)^a = x^a y^a: a certificate would
    prove nothing; build such sides unevaluated, ``sympy.Add(..., evaluate=False)``)."""
    merged: list = []
    lhs_, rhs_, words = rationalize(lhs, rhs, merged)
    if lhs_ == rhs_ and not merged:
        raise ValueError("both sides are one expression as sympy builds them (its automatic evaluation decided the "
                         f"identity, e.g. by a power rule): nothing to certify: {sympy.sstr(lhs_)[:100]}")
    doc = _certificate(name, lhs_, rhs_, "; ".join(w for w in (substitution, words) if w))
    docs = [doc]
    for k, (x, y) in enumerate(merged):
        more = identity_certificate(f"{name}: argument {k} of an identified atom", x, y)
        docs.extend(more if isinstance(more, list) else [more])
    return doc if len(docs) == 1 else docs


def _certificate(name: str, lhs_, rhs_, words: str) -> dict:
    """The certificate of the rational identity lhs_ == rhs_ with its grid."""
    return _grid_certificate(name, *_grid_size(lhs_, rhs_), words)


def _grid_certificate(name: str, st: dict, names: list, degree: dict, words: str) -> dict:
    """The certificate of the statement ``st`` (trees and variables) with a grid on which no denominator vanishes."""
    from rldp_verify_check import CertificateError
    from rldp_verify_check.identity import check

    st["substitution"] = words
    for attempt in range(4):
        data = {"points": _grid(names, degree, attempt)}
        try:
            check(st, data)
        except CertificateError as exc:
            if "denominator vanishes" in str(exc):
                continue
        return envelope("symbolic-identity", name, st, data)
    raise ValueError("a denominator vanishes on every grid tried")


def identity_certificates(name: str, identities: dict) -> list[dict]:
    """One certificate per identity of ``identities`` ({label: (lhs, rhs)}), named "<name>: <label>"; a
    ValueError names the identity that could not be certified."""
    out = []
    for label, (lhs, rhs) in identities.items():
        try:
            doc = identity_certificate(f"{name}: {label}", lhs, rhs)
            out.extend(doc if isinstance(doc, list) else [doc])
        except ValueError as exc:
            raise ValueError(f"{label}: {exc}") from None
    return out


def value_tree(e: sympy.Expr):
    """A sympy expression without free symbols in the ``rigorous-value`` language (+ * pow exp log)."""
    if e.is_Rational:
        return qs(Fraction(int(e.p), int(e.q)))
    if e is sympy.E:
        return ["exp", 1]
    if e.is_Add or e.is_Mul:
        return ["+" if e.is_Add else "*", *(value_tree(a) for a in e.args)]
    if e.is_Pow and e.exp.is_Rational:
        return ["pow", value_tree(e.base), qs(Fraction(int(e.exp.p), int(e.exp.q)))]
    if isinstance(e, (sympy.exp, sympy.log)):
        return [type(e).__name__, value_tree(e.args[0])]
    raise ValueError(f"no rigorous-value form for {str(e)[:120]} (a {type(e).__name__})")


def refutation_certificate(name: str, lhs, rhs, point: dict) -> dict:
    """The ``rigorous-value`` certificate that lhs - rhs != 0 at ``point`` ({symbol: exact number}): the side is
    the one sympy's numerical value is on (the checker decides; a wrong side or a zero difference fails)."""
    from rldp_verify.certificates.value import value_certificate

    subs = {sympy.sympify(k): sympy.Rational(Fraction(v).numerator, Fraction(v).denominator)
            for k, v in point.items()}
    diff = (sympy.sympify(lhs) - sympy.sympify(rhs)).xreplace(subs)
    tree = ["-", value_tree(sympy.sympify(lhs).xreplace(subs)), value_tree(sympy.sympify(rhs).xreplace(subs))]
    above = sympy.N(diff, 50) > 0
    return value_certificate(name, tree, lower=0, strict=True) if above else \
        value_certificate(name, tree, upper=0, strict=True)


def identity_evidence(claim_id: str, identities: dict, *, uncovered: str | None = None,
                      substitutions: dict | None = None) -> dict:
    """Evidence entries for a claim: the certificates of those of its identities that can be certified, with
    ``certificate_covers`` naming the rest -- identities sympy's automatic evaluation already decided as it built
    them (both sides one expression: nothing to certify), identities the builder cannot certify (with its reason)
    and ``uncovered``, the part of the verdict no certificate covers (e.g. a sampled numeric check); a
    ``no_certificate`` reason when none can be certified.  ``substitutions``: {label: words} prepended to an
    identity's stated substitution (how the claim's identity was brought to the certified form).  Never raises."""
    from rldp_verify.certificates.claims import evidence, no_certificate

    docs: list[dict] = []
    trivial: list[str] = []
    failed: list[str] = []
    for label, (lhs, rhs) in identities.items():
        try:
            doc = identity_certificate(f"{claim_id}: {label}", lhs, rhs,
                                       substitution=(substitutions or {}).get(label))
        except Exception as exc:  # noqa: BLE001 - reported per claim, never hidden
            if isinstance(exc, ValueError) and "nothing to certify" in str(exc):
                trivial.append(label)
            else:
                failed.append(f"{label} ({type(exc).__name__}: {str(exc)[:200]})")
            continue
        docs.extend(doc if isinstance(doc, list) else [doc])
    gaps = ([f"{', '.join(trivial)} (sympy's own evaluation as it builds the expressions: nothing to certify)"]
            if trivial else []) + ([f"{'; '.join(failed)}"] if failed else []) + ([uncovered] if uncovered else [])
    if not docs:
        return no_certificate("no identity could be certified: " + "; ".join(gaps[:2]))
    out = evidence(*docs)
    if gaps:
        certified = [label for label in identities if label not in trivial and not any(
            f.startswith(f"{label} (") for f in failed)]
        out["certificate_covers"] = f"the symbolic identities ({', '.join(certified)}); not {'; not '.join(gaps)}"
    return out


def exact_equality_certificate(name: str, lhs, rhs, *, words: str = "") -> dict:
    """The ``symbolic-identity`` certificate, without variables, of an equality of two rational numbers given as
    expression trees over exact numbers (+ - * / and integer pow; ints, Fractions or "p/q" strings): the checker
    evaluates both trees itself in exact rationals (one grid point, no variables), so it proves lhs == rhs exactly
    where arb could only show that two balls overlap. The trees are written as given (no sympy evaluation), so the
    certificate carries the data and the formula, not the number. A false equality is still written (the
    checker rejects it: nothing is decided here)."""
    from rldp_verify.certificates.value import expr

    st = {"lhs": expr(lhs), "rhs": expr(rhs), "variables": [],
          "substitution": words or "none: an equality of exact rational numbers"}
    return envelope("symbolic-identity", name, st, {"points": {}})


class Tree(Arithmetic):
    """An expression tree of the checker's rational language, built by ordinary arithmetic: a printed step written
    as a Python function of its arguments (``(t - 1) / (t + 1) * abs(d) / 2``) called with ``Tree`` variables
    returns its own formula as a tree, unevaluated (no sympy simplification decides anything on the way).
    ``abs`` of a variable declared non-negative is the variable; any other ``abs`` raises ValueError.
    :func:`tree_identity_certificate` certifies an identity between two such trees."""

    def __init__(self, node, nonneg: bool = False):
        super().__init__(node)
        self.nonneg = nonneg

    @staticmethod
    def var(name: str, *, nonneg: bool = False) -> Tree:
        """The variable ``name`` ("$name" in the tree)."""
        return Tree("$" + name, nonneg)

    @classmethod
    def _leaf(cls, x):
        """An int or a Fraction (floats are refused)."""
        if isinstance(x, bool) or not isinstance(x, (int, Fraction)):
            raise TypeError(f"not an exact number or a Tree: {x!r}")
        return qs(x)

    def __pow__(self, k):
        if not isinstance(k, int) or isinstance(k, bool):
            raise ValueError(f"a non-integer power {k!r} in a rational identity")
        return Tree(["pow", self.node, k])

    def __abs__(self):
        if not self.nonneg:
            raise ValueError(f"abs of {str(self.node)[:80]}: its sign is not known (declare a variable non-negative)")
        return self


def tree_variables(tree) -> list[str]:
    """The variables of a tree, sorted."""
    if isinstance(tree, str) and tree.startswith("$"):
        return [tree[1:]]
    if isinstance(tree, list):
        return sorted({v for a in tree[1:] for v in tree_variables(a)})
    return []


def tree_identity_certificate(name: str, lhs, rhs, *, words: str = "") -> dict:
    """The ``symbolic-identity`` certificate of lhs == rhs for :class:`Tree` objects or trees (with their grid).
    The identity is not decided here: a false one is written and the checker rejects it."""
    lt, rt = Tree.of(lhs) if not isinstance(lhs, list) else lhs, Tree.of(rhs) if not isinstance(rhs, list) else rhs
    names = sorted(set(tree_variables(lt)) | set(tree_variables(rt)))
    return _grid_certificate(name, *_tree_grid_size(lt, rt, names), words)
