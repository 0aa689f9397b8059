"""A cache of claim results for incremental ``rldp-verify report`` runs (issue 28 item 3).

A claim's result is reused only when its **key** is unchanged. The key is a SHA-256 over everything that
determines the result:

- the content of the claim's module and of every first-party module it imports, transitively (imports are
  read statically from the source with :mod:`ast`, at any depth of the module — an import inside a function
  counts — and every parent package's ``__init__`` counts too; first-party means ``rldp_verify`` and the
  proofs package), plus the non-Python files beside the claim's module (data the module may read);
- the run's options that reach a check: ``dps``, ``seed``, ``include_slow``;
- the Python version, the versions of the numeric libraries, and the BLAS/threading environment variables;
- the data files it may read: the paper's seed text (``../shared/seeds/<paper>``) and, when the claim's
  imports reach :mod:`rldp_verify.rldp.data`, the Adult data file.

The key errs towards recomputing: a static import that a check never executes still counts. A claim
whose source cannot be read (no file) has no key and is always recomputed. Artefacts a claim wrote
(:meth:`Context.artefact`) are stored with their SHA-256; a cached result is reused only if each artefact
is still in the output directory with the same content.

Storage: one JSON file per claim and key in ``<out>/.cache/claims/`` (the newest few keys of each claim)
(written after each claim, so an interrupted run
keeps what it finished), and the ``key`` recorded with each claim in ``<out>/verification.json``: a fresh clone
whose committed report is current re-runs nothing.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import os
import sys
from collections.abc import Iterable
from functools import cache, lru_cache
from importlib import metadata
from pathlib import Path

from rldp_verify.claims.catalogue import DEFAULT_SOURCE
from rldp_verify.claims.core import Claim, Context

#: bump when the meaning of a cached entry changes (the key's recipe, the stored fields)
CACHE_FORMAT = 2

#: distributions whose version is part of every key
LIBRARIES = ("numpy", "scipy", "sympy", "mpmath", "pycddlib", "python-flint", "highspy", "cvxpy", "clarabel",
             "pandas", "matplotlib", "distributed", "hypothesis")

#: environment variables that may change floating-point results (BLAS kernels and threads)
ENV_VARS = ("OPENBLAS_CORETYPE", "OPENBLAS_NUM_THREADS", "OPENBLAS_L2_SIZE", "OMP_NUM_THREADS",
            "MKL_NUM_THREADS", "MKL_CBWR", "RLDP_VERIFY_ADULT_DATA")

_DATA_MODULE = "rldp_verify.rldp.data"


def file_digest(path: Path) -> str:
    """SHA-256 of a file's bytes (hex)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _module_file(name: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError, AttributeError):
        return None
    if spec is None or not spec.origin or spec.origin in ("built-in", "frozen"):
        return None
    p = Path(spec.origin)
    return p if p.suffix == ".py" and p.is_file() else None


def _imports(path: Path, name: str) -> set[str]:
    """The module names a source file imports, anywhere in it (relative imports resolved against ``name``);
    for ``from M import n`` both ``M`` and ``M.n`` (the latter is dropped later if it is not a module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_pkg = path.name == "__init__.py"
    base = name.split(".") if is_pkg else name.split(".")[:-1]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = base[: len(base) - (node.level - 1)] if node.level > 1 else list(base)
                mod = ".".join(parts + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if mod:
                out.add(mod)
                out.update(f"{mod}.{a.name}" for a in node.names if a.name != "*")
    return out


def _with_parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


@cache
def _direct(name: str, roots: tuple[str, ...]) -> tuple[tuple[str, ...], str | None]:
    """(first-party modules ``name`` imports directly, its file's digest) — ``None`` digest: no source."""
    path = _module_file(name)
    if path is None:
        return (), None
    deps: set[str] = set()
    for m in _imports(path, name):
        if m.split(".")[0] in roots:
            deps.update(p for p in _with_parents(m) if _module_file(p) is not None)
    deps.discard(name)
    return tuple(sorted(deps)), file_digest(path)


def closure(module: str, roots: Iterable[str]) -> dict[str, str | None]:
    """``{module: digest}`` for ``module``, its parent packages and every first-party module they import,
    transitively (``roots``: the first-party top-level package names)."""
    roots_t = tuple(sorted(set(roots)))
    seen: dict[str, str | None] = {}
    todo = _with_parents(module)
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        deps, digest = _direct(m, roots_t)
        seen[m] = digest
        todo.extend(d for d in deps if d not in seen)
    return dict(sorted(seen.items()))


def clear_memo() -> None:
    """Forget the memoised import graph (after source files changed within one process)."""
    _direct.cache_clear()
    _environment.cache_clear()


@lru_cache(maxsize=1)
def _environment() -> tuple:
    """(Python version, library versions, the ENV_VARS) as they are at the first call in this process.

    Snapshot, not read at each key: starting a Dask LocalCluster sets OMP_NUM_THREADS, MKL_NUM_THREADS and
    OPENBLAS_NUM_THREADS to 1 in this process (for its workers), so keys read after it differed from keys read
    before it (seen: a report with the slow claims on Dask gave its fast claims other keys than a re-run).
    :class:`ResultCache` takes the snapshot when it is created, before any cluster starts."""
    versions: list[tuple[str, str | None]] = []
    for lib in LIBRARIES:
        try:
            versions.append((lib, metadata.version(lib)))
        except metadata.PackageNotFoundError:
            versions.append((lib, None))
    return (sys.version, tuple(versions), tuple((v, os.environ.get(v)) for v in ENV_VARS))


def _seeds_dir() -> Path | None:
    """``shared/seeds`` beside the repository or beside one of its parents (as :func:`adult_data_path` looks)."""
    for d in list(Path(__file__).resolve().parents)[2:6]:
        if (d / "shared" / "seeds").is_dir():
            return d / "shared" / "seeds"
    return None


def _adult_path() -> Path | None:
    from rldp_verify.core.errors import InputError
    from rldp_verify.rldp.data import adult_data_path

    try:
        return adult_data_path()
    except InputError:
        return None


@cache
def _digest_or_none(path: str) -> str | None:
    p = Path(path)
    return file_digest(p) if p.is_file() else None


def key_parts(claim: Claim, ctx: Context, package: str = DEFAULT_SOURCE) -> dict | None:
    """The data a claim's key is the hash of (``None`` when the claim's module has no readable source)."""
    roots = {"rldp_verify", package.split(".")[0]}
    mods = closure(claim.module, roots)
    if not mods or mods.get(claim.module) is None:
        return None
    here = _module_file(claim.module)
    beside = {}
    if here is not None:
        for f in sorted(here.parent.iterdir()):
            if f.is_file() and f.suffix not in (".py", ".pyc"):
                beside[f.name] = _digest_or_none(str(f))
    seeds = _seeds_dir()
    data = {"paper": _digest_or_none(str(seeds / claim.paper)) if seeds else None}
    if _DATA_MODULE in mods:
        adult = _adult_path()
        data["adult"] = _digest_or_none(str(adult)) if adult else None
    py, libs, env = _environment()
    return {
        "format": CACHE_FORMAT,
        "claim": claim.id,
        "modules": mods,
        "beside": beside,
        "data": data,
        "options": {"dps": ctx.dps, "seed": ctx.seed, "include_slow": ctx.include_slow},
        "python": py,
        "libraries": dict(libs),
        "env": dict(env),
    }


def claim_key(claim: Claim, ctx: Context, package: str = DEFAULT_SOURCE) -> str | None:
    """The claim's cache key (hex SHA-256 of :func:`key_parts`), or ``None``: never cached."""
    parts = key_parts(claim, ctx, package)
    if parts is None:
        return None
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


class ResultCache:
    """Cached claim entries (the ``verification.json`` form of a result, with its ``key`` and ``artefacts``)
    under ``<out>/.cache/claims/``, seeded from ``<out>/verification.json``."""

    def __init__(self, out_dir: str | Path):
        self.out = Path(out_dir)
        self.dir = self.out / ".cache" / "claims"
        _environment()  # the environment snapshot of the keys, before a Dask cluster changes it
        self._report: dict[str, dict] = {}
        try:
            doc = json.loads((self.out / "verification.json").read_text())
            self._report = {c["id"]: c for c in doc.get("claims", []) if isinstance(c, dict) and c.get("key")}
        except (OSError, ValueError, TypeError, AttributeError):
            pass

    def key(self, claim: Claim, ctx: Context, package: str = DEFAULT_SOURCE) -> str | None:
        """:func:`claim_key`, memoised per claim and options for the life of this cache object."""
        memo = self.__dict__.setdefault("_keys", {})
        k = (claim.id, ctx.dps, ctx.seed, ctx.include_slow, package)
        if k not in memo:
            memo[k] = claim_key(claim, ctx, package)
        return memo[k]

    def lookup(self, claim: Claim, ctx: Context, package: str = DEFAULT_SOURCE) -> dict | None:
        """The cached entry of ``claim`` under its current key, or None (it must be computed)."""
        return self.get(claim.id, self.key(claim, ctx, package))

    #: entries kept per claim (one per key: e.g. the two BLAS configurations of ``make determinism``)
    KEEP = 4

    def _path(self, cid: str, key: str) -> Path:
        return self.dir / f"{hashlib.sha256(cid.encode()).hexdigest()[:24]}-{key[:24]}.json"

    def get(self, cid: str, key: str | None) -> dict | None:
        """The cached entry for claim ``cid`` if it was computed under ``key`` and its artefacts are intact."""
        if key is None:
            return None
        entry = None
        try:
            cand = json.loads(self._path(cid, key).read_text())
            if cand.get("id") == cid and cand.get("key") == key:
                entry = cand
        except (OSError, ValueError, AttributeError):
            pass
        if entry is None:
            cand = self._report.get(cid)
            if cand is not None and cand.get("key") == key:
                entry = cand
        if entry is None or entry.get("verdict") == "ERROR":
            return None
        for rel, digest in (entry.get("artefacts") or {}).items():
            p = self.out / rel
            if not p.is_file() or file_digest(p) != digest:
                return None
        return entry

    def put(self, entry: dict) -> None:
        """Store an entry (it must carry ``id`` and ``key``); ERROR results are never stored."""
        if not entry.get("key") or entry.get("verdict") == "ERROR":
            return
        self.dir.mkdir(parents=True, exist_ok=True)
        path = self._path(entry["id"], entry["key"])
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(entry, ensure_ascii=False))  # key order kept: a reused entry is byte-identical
        os.replace(tmp, path)
        stem = path.name.split("-")[0]
        older = sorted(self.dir.glob(f"{stem}-*.json"), key=lambda f: f.stat().st_mtime, reverse=True)
        for f in older[self.KEEP:]:
            f.unlink(missing_ok=True)


def artefact_digests(out_dir: str | Path, relatives: Iterable[str]) -> dict[str, str]:
    """``{relative path: sha256}`` of the artefacts a claim wrote (missing files are left out)."""
    out = Path(out_dir)
    return {r: file_digest(out / r) for r in sorted(set(relatives)) if (out / r).is_file()}
