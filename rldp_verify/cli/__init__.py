"""The ``rldp-verify`` command line.

Each subcommand is a module in this package with ``register(subparsers)``; it adds its parser (with
examples and exit codes in its ``--help``, see :mod:`rldp_verify.cli._help`) and sets
``func=run(args) -> int``. Bad input raises :class:`~rldp_verify.core.errors.InputError`, which is
printed as one line ``rldp-verify: error: ...`` with exit code 2. Wherever a file is read, ``-``
means standard input. Standard output carries only the command's own output (results, JSON);
progress and notes go to standard error.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from rldp_verify.cli._help import epilog
from rldp_verify.core.errors import CertificationError, InputError


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit code 2
        sys.stderr.write(f"{self.prog}: error: {' '.join(str(message).split())}\n")
        raise SystemExit(2)


def version() -> str:
    """The installed package version (or ``rldp_verify.__version__`` when run from a source tree)."""
    from importlib import metadata

    try:
        return metadata.version("rldp-verify")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a source tree
        from rldp_verify import __version__

        return __version__


def build_parser() -> argparse.ArgumentParser:
    """The ``rldp-verify`` argument parser with every subcommand registered."""
    parser = _Parser(
        prog="rldp-verify", description="A theorem checker for robust local differential privacy.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=epilog(["rldp-verify report --only rldp.example1 --out /tmp/r",
                       'rldp-verify ball --phat "7,10;26,57" --alpha 2 --radius 0.0752 --json',
                       'rldp-verify mechanism grr --eps 0.5 --phat "7,10;26,57" | rldp-verify audit - --eps 0.5 --ldp',
                       "rldp-verify SUBCOMMAND --help"],
                      {0: "success (audit: PASS)",
                       1: "report: a claim ended in ERROR; audit: FAIL; check-certificates: a certificate failed",
                       2: "bad input (one line 'rldp-verify: error: ...')", 3: "audit: INCONCLUSIVE",
                       4: "audit: internal error (one line 'rldp-verify: internal error: ...')",
                       130: "interrupted (Ctrl-C; report: the completed claims in OUT/verification-interrupted.json)"}))
    parser.add_argument("--version", action="version", version=f"rldp-verify {version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    pkg = importlib.import_module(__name__)
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(mod, "register"):
            mod.register(sub)
    for p in sub.choices.values():  # `rldp-verify SUBCOMMAND --version` too, before any required argument
        if "--version" not in p._option_string_actions:
            p.add_argument("--version", action="version", version=f"rldp-verify {version()}",
                           help="print the version and exit")
    return parser


def main(argv=None) -> int:
    """Entry point of ``rldp-verify``: run the subcommand; bad input prints one line ``rldp-verify: error: ...``
    and returns 2."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except InputError as exc:
        sys.stderr.write(f"rldp-verify: error: {exc}\n")
        return 2
    except CertificationError as exc:  # a bound could not be certified: never a silent verdict
        sys.stderr.write(f"rldp-verify: error: cannot certify: {exc}\n")
        return 2
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, FileExistsError, PermissionError) as exc:
        sys.stderr.write(f"rldp-verify: error: cannot {_verb(args, exc.filename)} {exc.filename!r}: {exc.strerror}\n")
        return 2
    except BrokenPipeError:  # the reader of stdout went away (e.g. `| head`): not an error of ours
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt as exc:  # a command may say what it kept (report: the partial JSON)
        sys.stderr.write(f"rldp-verify: interrupted{': ' + str(exc) if str(exc) else ''}\n")
        return 130


def _verb(args, filename) -> str:
    """'write' when the file that failed is an output of the command (``-o``, ``--certificate``, ``--out``,
    ``--certificates``) or a folder on its way, else 'read' (issue 29: an unwritable --certificate said
    'cannot read')."""
    from pathlib import Path

    if filename is None:
        return "read"
    failed = Path(str(filename)).absolute()
    for key in ("output", "certificate", "out", "certificates"):
        target = getattr(args, key, None)
        if target and str(target) != "-":
            t = Path(str(target)).absolute()
            if failed == t or failed in t.parents:
                return "write"
    return "read"
