"""Help-text helpers shared by the subcommands: examples and exit codes in every ``--help``."""

from __future__ import annotations

import argparse

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
