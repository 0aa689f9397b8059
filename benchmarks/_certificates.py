"""Certificates of the benchmark audits (issue 23): every audit verdict in a benchmark table carries one.

A benchmark builds the certificate of each audit it times with the engine's builders
(:func:`rldp_verify.certificates.audit.audit_certificate`, :func:`~rldp_verify.certificates.audit.structured_certificate`,
or ``rldp-verify audit --certificate FILE`` for the command-line benchmarks), writes it to
``reports/certificates/benchmarks/<table>/<row>.json`` and re-checks the written file with the independent checker
:mod:`rldp_verify_check` (a separate package that imports nothing from ``rldp_verify``), so that
``make check-certificates`` (``python -m rldp_verify_check ... reports/certificates``, which walks the directory
recursively) re-checks them too.  The certificate's seconds (building and writing it, then its re-check) are
timed apart from the audit's: a table's published audit seconds keep their meaning.

Each row gets the cell :meth:`Certifier.certify` returns, for the table's column ``"certificate"``:
``"re-checked (<kind>: <form>, <set>)"``, ``"FAILED: <the checker's reason>"`` (the file is still written: a
certificate we cannot re-derive is shown, never hidden), or ``"none: <one-line reason>"`` (no certificate form for
the structure, named by the builder's own message).  A certificate above :data:`MAX_BYTES` is written gzip-compressed
(``<row>.json.gz``, which the checker and ``make check-certificates`` read) when that is at most :data:`MAX_GZ_BYTES`,
else re-checked in memory and not written; its cell says which, with the sizes.  ``BENCH_CERT_DIR`` moves the directory (tests write to a temporary one).
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: where the benchmark certificates go (one directory per table, emptied when the table is recomputed)
CERT_ROOT = ROOT / "reports" / "certificates" / "benchmarks"
#: certificates larger than this are re-checked in memory but not written (the committed report stays small)
MAX_BYTES = 5 * 10**6
#: above MAX_BYTES a certificate is written as <row>.json.gz when compressed it is at most this
MAX_GZ_BYTES = 15 * 10**6
COLUMN = "certificate"

RECHECKED, FAILED, NONE = "re-checked", "FAILED", "none"


def slug(name: str) -> str:
    """A file-name form of a row name (lowercase letters, digits and hyphens)."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "row"


def _one_line(text: str, limit: int = 320) -> str:
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[:limit - 3] + "..."


#: the keys of an audit statement that are not its channel's form
_STATEMENT = ("Q", "sizes", "set", "eps", "verdict", "ratio_upper", "ratio_lower", "column_sums")


def form(doc: dict) -> str:
    """The certificate's form in a few words: kind, channel form (dense Q, or the structured form's key: unary,
    seeded-grr, subsets, ...), set."""
    st = doc.get("statement", {}) if isinstance(doc, dict) else {}
    channel = next((k for k in st if k not in _STATEMENT), None)      # unary, seeded-grr, subsets, lattice-laplace...
    if channel is None and "Q" in st:
        channel = f"dense Q {len(st['Q'])} x {len(st['Q'][0]) if st['Q'] else 0}"
    kind = {"ldp": "eps-LDP", "distribution": "{P}", "renyi-ball": "Rényi ball", "simplex": "simplex"}
    fset = kind.get(str((st.get("set") or {}).get("type")), str((st.get("set") or {}).get("type")))
    return f"{doc.get('kind', '?')}: " + ", ".join(x for x in (channel, fset) if x)


def _parse(text: str):
    """The certificate JSON as the checker reads a file: JSON floats refused."""
    from rldp_verify_check import CertificateError

    def no_float(s):
        raise CertificateError(f"JSON float {s} in a certificate (numbers must be exact)")
    return json.loads(text, parse_float=no_float, parse_constant=no_float)


class Certifier:
    """The certificates of one benchmark table ``table`` (its directory is emptied first: no stale files)."""

    def __init__(self, table: str, root: str | Path | None = None, max_bytes: int = MAX_BYTES,
                 max_gz_bytes: int = MAX_GZ_BYTES):
        root = Path(os.environ.get("BENCH_CERT_DIR", CERT_ROOT)) if root is None else Path(root)
        self.table, self.dir, self.max_bytes, self.max_gz_bytes = table, root / table, max_bytes, max_gz_bytes
        shutil.rmtree(self.dir, ignore_errors=True)
        self.counts: Counter[str] = Counter()
        self.seconds = 0.0

    def path(self, row: str, suffix: str = ".json") -> Path:
        """The file of row ``row`` (distinct rows, distinct files: a clash, .json or .json.gz, gets a numeric
        suffix)."""
        stem, n = slug(row), 2
        while any((self.dir / f"{stem}{ext}").exists() for ext in (".json", ".json.gz")):
            stem, n = f"{slug(row)}-{n}", n + 1
        return self.dir / f"{stem}{suffix}"

    def certify(self, row: str, build: Callable[[str], dict]) -> tuple[str, float | None, float | None]:
        """Build row ``row``'s certificate (``build(name)``: a document; an :class:`InputError` or
        :class:`CertificationError` is the row's "none: <reason>"), write it and re-check the file.  Returns
        (cell, seconds to build and write, seconds to re-check)."""
        from rldp_verify.core.errors import CertificationError, InputError

        t0 = time.perf_counter()
        try:
            doc = build(f"benchmark {self.table}: {row}")
        except (InputError, CertificationError) as exc:          # no certificate form: the builder says why
            return self.none(str(exc)), None, None
        except (ArithmeticError, ValueError) as exc:               # as write_audit_certificate: no document
            return self.none(f"no certificate built: {type(exc).__name__}: {exc}"), None, None
        text = json.dumps(doc, separators=(",", ":")) + "\n"
        return self._check_text(row, text, t0)

    def adopt(self, row: str, written: Path, t_write: float | None = None) -> tuple[str, float | None, float | None]:
        """Take a certificate file a command wrote (``rldp-verify audit --certificate FILE``) into the table's
        directory and re-check it there; ``t_write``: the seconds it took the command (None: unknown)."""
        written = Path(written)
        if not written.is_file():
            return self.none("the command wrote no certificate"), None, None
        text = written.read_text()
        cell, _, t_check = self._check_text(row, text, time.perf_counter())
        written.unlink()
        self.seconds += t_write or 0.0
        return cell, t_write, t_check

    def none(self, reason: str) -> str:
        """The cell of a row without certificate (``reason``: one line)."""
        self.counts[NONE] += 1
        return f"{NONE}: {_one_line(reason)}"

    def _check_text(self, row: str, text: str, t0: float):
        from rldp_verify_check import CertificateError, Checked, check, check_path  # the independent checker

        size = len(text.encode())
        packed = gzip.compress(text.encode(), mtime=0) if size > self.max_bytes else None   # mtime 0: reproducible
        if packed is None or len(packed) <= self.max_gz_bytes:
            path = self.path(row, ".json" if packed is None else ".json.gz")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text.encode() if packed is None else packed)
            t_build = time.perf_counter() - t0
            t1 = time.perf_counter()
            results = _guarded(lambda: check_path(path), row)  # the file, read back as make check-certificates does
            where = "" if packed is None else f"; written gzipped: {size / 1e6:.1f} MB, {len(packed) / 1e6:.1f} MB as .json.gz"
        else:
            t_build = time.perf_counter() - t0
            t1 = time.perf_counter()
            try:
                results = _guarded(lambda: [check(d) for d in _docs(text)], row)
            except (ValueError, CertificateError) as exc:
                results = [Checked(row, "?", False, f"unreadable: {exc}")]
            where = (f"; not written: {size / 1e6:.1f} MB, gzipped {len(packed) / 1e6:.1f} MB > "
                     f"{self.max_gz_bytes / 1e6:g} MB")
        t_check = time.perf_counter() - t1
        self.seconds += t_build + t_check
        bad = [r for r in results if not r.ok]
        if bad or not results:
            self.counts[FAILED] += 1
            why = bad[0].message if bad else "no certificate in the document"
            return f"{FAILED}: {_one_line(why)}{where}", t_build, t_check
        self.counts[RECHECKED] += 1
        forms = sorted({form(d) for d in _docs(text)})
        return f"{RECHECKED} ({'; '.join(forms)}){where}", t_build, t_check

    @property
    def failed(self) -> int:
        """The number of rows whose certificate the checker rejected."""
        return self.counts[FAILED]

    def note(self) -> str:
        """The table's note on its certificates."""
        c = self.counts
        rel = self.dir.relative_to(ROOT) if self.dir.is_relative_to(ROOT) else self.dir
        return (f"certificate: {c[RECHECKED]} re-checked by the independent checker rldp_verify_check, {c[FAILED]} "
                f"FAILED, {c[NONE]} none (the reason in the row); written to {rel}/ (re-checked again by make "
                f"check-certificates), gzipped (.json.gz) above {self.max_bytes / 1e6:g} MB, re-checked in memory and not "
                f"written when still above {self.max_gz_bytes / 1e6:g} MB gzipped; building, writing and re-checking them took {self.seconds:.1f} s, timed apart from "
                "the audit seconds.")


def _guarded(run: Callable[[], list], row: str) -> list:
    """The checker's results; an exception the checker lets through (it should answer FAIL, never raise) is the
    row's failure, not the benchmark's crash."""
    from rldp_verify_check import Checked

    try:
        return run()
    except (ArithmeticError, RecursionError, MemoryError) as exc:
        return [Checked(row, "?", False, f"the checker raised {type(exc).__name__}: {exc}")]


def _docs(text: str) -> list[dict]:
    docs = _parse(text)
    return docs if isinstance(docs, list) else [docs]


def seconds(t_build: float | None, t_check: float | None) -> str | None:
    """The cell "build / re-check" seconds of a certificate (None without one)."""
    if t_build is None and t_check is None:
        return None
    return " / ".join("?" if t is None else f"{t:.2f}" for t in (t_build, t_check))
