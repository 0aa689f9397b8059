"""The catalogue of papers: the one object through which the engine reaches the papers' claims.

The engine knows no paper. The papers' claims live in a package of proof modules (``proofs/`` in the
repository, installed as ``rldp_verify_papers`` by the wheel); :meth:`Catalogue.load` imports it by name
here and nowhere else (``tests/test_import_contract.py`` fails when another engine module imports or loads
it). The command line loads the catalogue once and hands it to the code that needs the papers: the runner
(:func:`rldp_verify.claims.runner.run_claims`), the report, ``rldp-verify threshold``, the reference
provenance and the mutant runner.

What a catalogue package provides (each part optional, so a package of bare claim modules is a catalogue):

- ``papers.py`` with ``PAPERS``: the registry, one entry per paper (``name`` = the paper's folder and the
  prefix of its claim ids, ``seed``, ``title``, ``thresholds``, bibliographic data);
- one folder per paper with its claim modules, and optionally beside them ``statements.toml`` (its part of
  the statement index, read by the package's ``statements`` module), ``pins.json`` (its pinned verdicts,
  ``{"claims": {id: {"verdict", ...}}}``) and ``mutants.py`` (``MUTANTS``: its wrong variants of the engine);
- ``pinned_verdicts.json`` beside the package's ``__init__`` (the pins of the papers that keep them there);
- ``reference_claims.py`` with ``REFERENCE_CLAIMS`` (reference quantity -> ids of the claims behind it);
- ``coverage``, ``step_coverage`` and ``claim_order`` functions of the package (the statement index).
"""

from __future__ import annotations

import importlib
import json
import pkgutil
from collections.abc import Collection
from pathlib import Path
from types import ModuleType
from typing import Any

from rldp_verify.claims.core import Claim, registry

#: the import name of the papers' package in the repository (its source folder, ``proofs/``)
DEFAULT_SOURCE = "proofs"
#: its import name in an installed wheel (the source folder shipped under the distribution's own name)
INSTALLED_SOURCE = "rldp_verify_papers"
#: every name the papers' package is imported under (first-party modules for the mutant runner)
SOURCES = (DEFAULT_SOURCE, INSTALLED_SOURCE)

PINS_FILE = "pinned_verdicts.json"   # beside the package's __init__: the pins of every paper kept there
PAPER_PINS_FILE = "pins.json"        # in a paper's folder: that paper's pins
PAPER_MUTANTS = "mutants"            # a paper's module of mutants (``MUTANTS``)


def _import_optional(name: str) -> ModuleType | None:
    """The module ``name``, or None when it does not exist (an import error inside it is raised)."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and (name == exc.name or name.startswith(exc.name + ".")):
            return None
        raise


class Catalogue:
    """The papers and their claims, statement index, pins, reference claims and mutants, read from one
    package of proof modules (:meth:`load`)."""

    def __init__(self, package: ModuleType):
        self.package = package
        self.name: str = package.__name__

    def __repr__(self) -> str:
        return f"Catalogue({self.name!r})"

    @classmethod
    def load(cls, source: str | Catalogue | None = None) -> Catalogue:
        """The catalogue of the package named ``source`` (a catalogue is returned as it is). Without a name:
        ``proofs`` (the repository's folder), else ``rldp_verify_papers`` (an installed wheel).
        ModuleNotFoundError when the package cannot be imported."""
        if isinstance(source, Catalogue):
            return source
        if source is not None:
            return cls(importlib.import_module(source))
        try:
            return cls(importlib.import_module(DEFAULT_SOURCE))
        except ModuleNotFoundError as exc:
            if exc.name != DEFAULT_SOURCE:
                raise
            return cls(importlib.import_module(INSTALLED_SOURCE))

    @staticmethod
    def name_of(source: str | Catalogue) -> str:
        """The name a catalogue is loaded from (a worker process loads it again by this name)."""
        return source.name if isinstance(source, Catalogue) else source

    @property
    def root(self) -> Path | None:
        """The package's folder (None for a namespace package without one)."""
        path = list(getattr(self.package, "__path__", []))
        return Path(path[0]) if path else None

    # --- the registry of papers ------------------------------------------------------------------------
    @property
    def papers(self) -> tuple[Any, ...]:
        """The registry (``PAPERS`` of ``<package>.papers``) in report order; () when the package has none."""
        mod = _import_optional(f"{self.name}.papers")
        return tuple(getattr(mod, "PAPERS", ())) if mod is not None else ()

    def paper(self, name: str) -> Any:
        """The registry entry of the paper whose folder is ``name``; KeyError naming the known ones."""
        for p in self.papers:
            if p.name == name:
                return p
        raise KeyError(f"no paper named {name!r}; known: {', '.join(p.name for p in self.papers)}")

    def titles(self) -> dict[str, str]:
        """Seed file -> title, in report order (what :func:`rldp_verify.report.build` takes)."""
        return {p.seed: p.title for p in self.papers}

    def thresholds(self, families: Collection[str] | None = None) -> dict[str, tuple[str, str]]:
        """Papers with a threshold family (among ``families`` when given): name -> (seed file, family)."""
        return {p.name: (p.seed, p.thresholds) for p in self.papers
                if getattr(p, "thresholds", None) and (families is None or p.thresholds in families)}

    # --- claims ----------------------------------------------------------------------------------------
    def discover(self) -> list[Claim]:
        """Import every module of the package and return the claims they register, sorted by (paper, id)."""
        pkg = self.package
        for info in pkgutil.walk_packages(pkg.__path__, prefix=pkg.__name__ + "."):
            importlib.import_module(info.name)
        return sorted((c for c in registry().values() if self.owns(c.module)), key=lambda c: (c.paper, c.id))

    def owns(self, module: str) -> bool:
        """True when the module ``module`` belongs to this package."""
        return module == self.name or module.startswith(self.name + ".")

    # --- pins ------------------------------------------------------------------------------------------
    def pin_files(self) -> list[Path]:
        """The files that hold pinned verdicts: ``pinned_verdicts.json`` beside the package's ``__init__``
        and each paper folder's ``pins.json`` (those that exist)."""
        root = self.root
        if root is None:
            return []
        files = [root / PINS_FILE] + [root / p.name / PAPER_PINS_FILE for p in self.papers]
        return [f for f in files if f.is_file()]

    def pins(self) -> dict[str, dict]:
        """The pinned verdicts, ``{claim id: {"verdict", "kind"?, "slow"?}}``, of every pin file; ValueError
        when a claim is pinned in two files. Unreadable files raise (OSError, ValueError)."""
        out: dict[str, dict] = {}
        for f in self.pin_files():
            claims = json.loads(f.read_text()).get("claims", {})
            twice = sorted(set(claims) & set(out))
            if twice:
                raise ValueError(f"{f}: claims pinned twice: {twice}")
            out.update(claims)
        return out

    # --- reference claims, statement index, mutants ----------------------------------------------------
    def reference_claims(self) -> dict[str, tuple[str, ...]] | None:
        """``REFERENCE_CLAIMS`` of ``<package>.reference_claims`` (quantity -> claim ids); None without it."""
        mod = _import_optional(f"{self.name}.reference_claims")
        if mod is None:
            return None
        return {q: tuple(ids) for q, ids in getattr(mod, "REFERENCE_CLAIMS", {}).items()}

    def _call(self, function: str, claim_ids: list[str]):
        fn = getattr(self.package, function, None)
        return fn(claim_ids) if callable(fn) else None

    def coverage(self, claim_ids: list[str]):
        """Statement coverage (the report's ``"coverage"`` entry) from the package's ``coverage(claim_ids)``;
        None when the package has no statement index."""
        return self._call("coverage", claim_ids)

    def step_coverage(self, claim_ids: list[str]):
        """Proof-step coverage from the package's ``step_coverage(claim_ids)``; None when it has none."""
        return self._call("step_coverage", claim_ids)

    def claim_order(self, claim_ids: list[str]):
        """``{seed file: [claim ids in the paper's order]}`` from the package's ``claim_order(claim_ids)``;
        None when it has none."""
        return self._call("claim_order", claim_ids)

    def mutants(self) -> list:
        """The mutants kept in the papers' folders (``MUTANTS`` of ``<package>.<paper>.mutants``), in
        registry order (the catalogue ``mutation/catalogue.py`` adds them to its own)."""
        out: list = []
        for p in self.papers:
            mod = _import_optional(f"{self.name}.{p.name}.{PAPER_MUTANTS}")
            if mod is not None:
                out.extend(getattr(mod, "MUTANTS", ()))
        return out
