"""The ``rldp-verify`` command line.

Each subcommand is a module in this package with ``register(subparsers)``; it adds its parser and
sets ``func=run(args) -> int``. Bad input raises :class:`~rldp_verify.core.errors.InputError`, which is
printed as one line ``rldp-verify: error: ...`` with exit code 2.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from rldp_verify.core.errors import InputError


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit code 2
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rldp-verify", description="A theorem checker for robust local differential privacy.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    pkg = importlib.import_module(__name__)
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(mod, "register"):
            mod.register(sub)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except InputError as exc:
        sys.stderr.write(f"rldp-verify: error: {exc}\n")
        return 2
    except (FileNotFoundError, IsADirectoryError, PermissionError) as exc:
        sys.stderr.write(f"rldp-verify: error: cannot read {exc.filename!r}: {exc.strerror}\n")
        return 2
