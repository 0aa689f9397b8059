"""Helpers shared by the subcommands: examples and exit codes in every ``--help``; bounded integer options."""

from __future__ import annotations

import argparse

from rldp_verify.core.errors import InputError

BAD_INPUT = "bad input (one line 'rldp-verify: error: ...' on stderr, naming the bad value)"


def epilog(examples: list[str], exit_codes: dict[int, str]) -> str:
    """The text after the options in ``--help``: the examples, then the exit codes."""
    lines = ["examples:"] + [f"  {e}" for e in examples] + ["", "exit codes:"]
    lines += [f"  {code}  {what}" for code, what in sorted(exit_codes.items())]
    return "\n".join(lines)


def add_parser(sub, name: str, *, help: str, description: str, examples: list[str], exit_codes: dict[int, str]):
    """``sub.add_parser`` with the description kept as written and the examples and exit codes appended."""
    codes = dict(exit_codes)
    codes.setdefault(2, BAD_INPUT)
    return sub.add_parser(name, help=help, description=description, epilog=epilog(examples, codes),
                          formatter_class=argparse.RawDescriptionHelpFormatter)


def int_option(text, option: str, lo: int, hi: int) -> int:
    """The integer value of ``option`` (e.g. ``"--dps"``) in [lo, hi]; :class:`InputError` naming the option and
    the value otherwise (exit 2 on the command line)."""
    try:
        v = int(str(text))
    except ValueError:
        raise InputError(f"{option} must be an integer, got {text!r}") from None
    if not lo <= v <= hi:
        raise InputError(f"{option} must be in [{lo}, {hi}], got {v}")
    return v
