"""Claim, Outcome, Verdict and the registry (see :mod:`rldp_verify.claims`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rldp_verify.core.numbers import DEFAULT_DPS


class Verdict(StrEnum):
    """The verdict of a claim: VERIFIED, REFUTED (with a counterexample), INCONCLUSIVE, or ERROR (the check
    itself failed: a bug, never a verdict). A ``str`` equal to its value."""

    VERIFIED = "VERIFIED"
    REFUTED = "REFUTED"
    INCONCLUSIVE = "INCONCLUSIVE"
    ERROR = "ERROR"


class Method(StrEnum):
    """How a claim is checked: symbolic (sympy), exact (rationals), high-precision (mpmath / arb) or property
    (randomised instances). A ``str`` equal to its value."""

    SYMBOLIC = "symbolic"
    EXACT = "exact"
    HIGH_PRECISION = "high-precision"
    PROPERTY = "property"


#: The kinds of finding a REFUTED claim carries (issue 9 item 5):
#:
#: - ``misprint``: a typo whose evident reading holds (the reading is checked too);
#: - ``missing-hypothesis``: false only in a case the paper did not exclude (the summary says which case);
#: - ``wrong-number``: a printed value not reproduced;
#: - ``false``: fails under its evident hypotheses;
#: - ``proof-gap``: the statement holds, a step of its proof does not (issue 30; the summary names the step,
#:   the point where it fails and, where one exists, the step that holds);
#: - ``reading-dependent``: false under the literal reading but true under a charitable one a careful reader
#:   could take (issue 24: a degenerate case, rounded numbers read literally, a tolerance or an instance
#:   distribution we chose); the summary shows both readings side by side.
KINDS = ("misprint", "missing-hypothesis", "wrong-number", "false", "proof-gap", "reading-dependent")


class ConsistencyFailure(AssertionError):
    """What a check expects of its own computation failed (two routes to one value disagree, an identity or an
    ordering it relies on does not hold): the engine or the check is wrong, not the paper. The runner reports
    ERROR; the mutant judge (:mod:`rldp_verify.claims.mutants`) counts it as a detection when the unmutated
    engine gives a verdict for the same claim (issue 24)."""


@dataclass(frozen=True)
class Outcome:
    """What a check found. ``evidence`` holds JSON-serialisable values (str, int, float, lists, dicts).

    For REFUTED, ``evidence`` must contain a ``counterexample`` and the recomputed values, and ``kind``
    one of :data:`KINDS` (the runner turns a REFUTED without a kind into ERROR).
    """

    verdict: Verdict
    summary: str
    evidence: Mapping[str, Any] = field(default_factory=dict)
    kind: str | None = None

    def __post_init__(self):
        if self.kind is not None and self.kind not in KINDS:
            raise ValueError(f"finding kind must be one of {KINDS}, got {self.kind!r}")
        if self.kind is not None and self.verdict is not Verdict.REFUTED:
            raise ValueError(f"only a REFUTED outcome carries a finding kind (got {self.verdict.value})")

    @classmethod
    def verified(cls, summary: str, **evidence) -> Outcome:
        """A VERIFIED outcome with its one-line ``summary`` and the evidence as keyword arguments."""
        return cls(Verdict.VERIFIED, summary, evidence)

    @classmethod
    def refuted(cls, summary: str, counterexample, *, kind: str | None = None, **evidence) -> Outcome:
        """A finding. ``kind``: one of :data:`KINDS` (required by the runner)."""
        return cls(Verdict.REFUTED, summary, {"counterexample": counterexample, **evidence}, kind)

    @classmethod
    def inconclusive(cls, summary: str, **evidence) -> Outcome:
        """An INCONCLUSIVE outcome (the evidence does not decide the claim) with its summary and evidence."""
        return cls(Verdict.INCONCLUSIVE, summary, evidence)


@dataclass
class Context:
    """What a check may use: the working precision, a seed, seeded generators, the output directory
    and :meth:`map`.

    ``out_dir`` is the report's directory (``report --out``); checks write artefacts such as figures
    only below it, through :meth:`artefact`. Generators depend only on the context seed and the salt
    (use the claim id or a task id), never on which claims ran before: a claim's result is the same
    whether claims run one after another or in parallel processes. ``scheduler`` is the address of a
    Dask scheduler for :meth:`map` (``None``: tasks run in this process).
    """

    dps: int = DEFAULT_DPS
    seed: int = 20240306
    include_slow: bool = False
    out_dir: str = "reports"
    scheduler: str | None = None
    #: artefacts (paths relative to ``out_dir``) requested through :meth:`artefact` by the running check;
    #: the runner resets it per claim and records it with the result (the result cache checks them)
    written: list = field(default_factory=list, repr=False, compare=False)

    def artefact(self, relative: str):
        """``(path, relative)``: where to write an artefact named ``relative`` (e.g.
        ``"figures/x.png"``) under :attr:`out_dir` (parent directories created), and the name to put
        in the evidence (relative to the report, so the report's links work wherever it is moved)."""
        from pathlib import Path

        path = Path(self.out_dir) / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        self.written.append(str(relative))
        return path, relative

    def rng(self, salt: str = "") -> random.Random:
        """A ``random.Random`` seeded from the context seed and ``salt`` (e.g. the claim id)."""
        return random.Random(f"{self.seed}:{salt}")

    def np_rng(self, salt: str = ""):
        """A NumPy generator seeded by the run's seed and ``salt`` only (the same draws with ``--jobs N``)."""
        import numpy as np

        return np.random.default_rng(_stable_seed(self.seed, salt))

    def map(self, fn: Callable[[Any], Any], tasks) -> list:
        """``[fn(t) for t in tasks]`` in the order of ``tasks``, fanned out over the Dask cluster at
        ``self.scheduler`` when there is one (:func:`rldp_verify.core.distributed.map_tasks`).
        Each task must carry its own seed, so that results do not depend on the number of workers."""
        from rldp_verify.core.distributed import map_tasks

        return map_tasks(fn, tasks, scheduler=self.scheduler)


def _stable_seed(seed: int, salt: str) -> int:
    import hashlib

    h = hashlib.sha256(f"{seed}:{salt}".encode()).digest()
    return int.from_bytes(h[:8], "little")


@dataclass(frozen=True)
class Claim:
    """A registered statement of a paper (made by :func:`claim`): id, paper seed file, source (section,
    equation), statement, hypotheses, the check that computes its verdict, the methods it uses, and whether it is
    slow; ``group`` names claims that share cached computations (run in one worker)."""

    id: str
    paper: str
    source: str
    statement: str
    check: Callable[[Context], Outcome]
    method: tuple[Method, ...]
    hypotheses: tuple[str, ...] = ()
    reading: str | None = None
    slow: bool = False
    module: str = ""
    group: str = ""
    root: str | None = None   # issue 24: the id of the claim stating the finding this one follows from


@dataclass
class Result:
    """A claim after its check ran: verdict, summary, evidence, the finding kind of a REFUTED claim, seconds.

    ``key``: the result-cache key it was computed under (:mod:`rldp_verify.claims.cache`; None: not cached);
    ``artefacts``: the files it wrote below the report directory (relative path -> SHA-256, or a list of
    relative paths before they are hashed); ``reused``: taken from the cache in this run, not recomputed."""

    claim: Claim
    verdict: Verdict
    summary: str
    evidence: dict
    seconds: float
    kind: str | None = None
    key: str | None = None
    artefacts: dict | list = field(default_factory=dict)
    reused: bool = False

    def to_json(self) -> dict:
        """The claim's entry of ``verification.json`` (schema ``report.schema.json``), with its source file and line."""
        c = self.claim
        file, line = source_location(c)
        return {
            "id": c.id,
            "paper": c.paper,
            "source": c.source,
            "statement": c.statement,
            "hypotheses": list(c.hypotheses),
            "reading": c.reading,
            "method": "+".join(m.value for m in c.method),
            "slow": c.slow,
            "module": c.module,
            "file": file,
            "line": line,
            "verdict": self.verdict.value,
            "kind": self.kind,
            "summary": self.summary,
            "evidence": self.evidence,
            "seconds": round(self.seconds, 3),
            **({"root": c.root} if c.root and self.verdict is Verdict.REFUTED else {}),
            **({"key": self.key} if self.key else {}),
            **({"artefacts": self.artefacts} if self.key and isinstance(self.artefacts, dict) and self.artefacts
               else {}),
        }


def source_location(c: Claim) -> tuple[str | None, int | None]:
    """(file relative to the directory holding the claim's top-level package, e.g.
    ``proofs/rldp/example1.py``; the line of its ``@claim`` decorator), or (None, None)."""
    import inspect
    from pathlib import Path

    try:
        path = Path(inspect.getsourcefile(c.check) or "")
        line = inspect.getsourcelines(c.check)[1]
    except (OSError, TypeError):
        return None, None
    depth = len(c.module.split(".")) if c.module else 1
    parts = path.parts[-depth:] if path.name != "__init__.py" else path.parts[-depth - 1:]
    return "/".join(parts), line


_REGISTRY: dict[str, Claim] = {}


def registry() -> dict[str, Claim]:
    """All claims registered so far (by id)."""
    return dict(_REGISTRY)


def claim(
    *,
    id: str,
    paper: str,
    source: str,
    statement: str,
    method,
    hypotheses=(),
    reading: str | None = None,
    slow: bool = False,
    group: str | None = None,
    root: str | None = None,
):
    """Register the decorated ``check(ctx) -> Outcome`` as a claim.

    Ids must be unique: a second registration of an id (from another module, or from the same module)
    raises ``ValueError`` at import, so a copy-pasted claim can never silently replace another.

    ``group``: claims that share cached computations (default: the claim's module); when claims
    run in parallel processes (``report --jobs N``), a group runs in one process, in id order.

    ``root`` (issue 24): the id of the claim that states the finding this claim follows from (one finding,
    counted once); a REFUTED result carries it as ``"root"`` in its JSON entry.
    """
    methods = tuple(Method(m) for m in (method if isinstance(method, (tuple, list)) else (method,)))
    if not methods:
        raise ValueError(f"claim {id!r}: at least one method")
    if not paper.endswith(".txt"):
        raise ValueError(f"claim {id!r}: paper must be the seed file name, got {paper!r}")

    def deco(fn: Callable[[Context], Outcome]):
        c = Claim(
            id=id,
            paper=paper,
            source=source,
            statement=" ".join(statement.split()),
            check=fn,
            method=methods,
            hypotheses=tuple(hypotheses),
            reading=reading,
            slow=slow,
            module=fn.__module__,
            group=group or fn.__module__,
            root=root,
        )
        old = _REGISTRY.get(id)
        if old is not None:
            where = old.module if old.module == c.module else f"{old.module} and {c.module}"
            raise ValueError(f"duplicate claim id {id!r} in {where}")
        _REGISTRY[id] = c
        fn.claim = c  # type: ignore[attr-defined]  # the registered claim, on its check function
        return fn

    return deco
