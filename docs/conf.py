"""Sphinx configuration: the API reference of rldp-verify, built from the docstrings (``make docs``)."""

import os
import sys

sys.path.insert(0, os.path.abspath(".."))

project = "rldp-verify"
author = "rldp-verify developers"
copyright = "rldp-verify developers, GPL-2.0-or-later"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinx.ext.viewcode"]
autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": False,
                           "ignore-module-all": True}  # re-exports are documented where they are defined
autodoc_member_order = "bysource"
autodoc_typehints = "none"  # signatures as written; types are described in the docstrings
napoleon_google_docstring = True
napoleon_numpy_docstring = True
nitpicky = False
exclude_patterns = ["_build"]
html_theme = "alabaster"
html_static_path: list[str] = []
suppress_warnings: list[str] = []  # none: make docs builds with -W (every warning is an error)

GROUPS = [("Core numerics", "rldp_verify.core"), ("The core RLDP paper's machinery", "rldp_verify.rldp"),
          ("Companion papers' numerics", "rldp_verify.topics"), ("Claims", "rldp_verify.claims"),
          ("The report", "rldp_verify.report"), ("Command line", "rldp_verify.cli")]


def _write_api_rst() -> None:
    """docs/api.rst: one automodule per public module, regenerated on every build so that a new module
    is documented (and its docstrings checked) without editing the docs."""
    import pkgutil

    import rldp_verify

    mods = [i.name for i in pkgutil.walk_packages(rldp_verify.__path__, prefix="rldp_verify.")
            if not any(part.startswith("_") for part in i.name.split("."))]
    out = ["API reference", "=============", "",
           "Generated from the docstrings (autodoc + napoleon). Every numeric routine's docstring cites the",
           "paper and says which way it may err.", ""]
    for title, pre in GROUPS:
        out += [title, "-" * len(title), ""]
        out += [line for m in mods if m == pre or m.startswith(pre + ".") for line in (f".. automodule:: {m}", "")]
    text = "\n".join(out)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "api.rst")
    if not os.path.exists(path) or open(path).read() != text:
        with open(path, "w") as fh:
            fh.write(text)


_write_api_rst()


def _ascii_math(app, what, name, obj, options, lines):
    """Docstrings write mathematics in ASCII (|S|, x*y, P^*): escape | and lone * so reST does not read
    them as substitution references or emphasis. ``**bold**``, ``*args`` in code spans and literal
    blocks are left alone."""
    import re

    literal = False
    for i, line in enumerate(lines):
        if line.rstrip().endswith("::"):
            literal = True
            continue
        if literal and line.strip() and not line.startswith((" ", "\t")):
            literal = False
        if literal:
            continue
        bullet = re.match(r"\s*\* ", line)  # a "* " list marker stays a list marker
        head, line = (line[: bullet.end()], line[bullet.end():]) if bullet else ("", line)
        parts = re.split(r"(``[^`]*``)", line)
        for j in range(0, len(parts), 2):
            t = parts[j].replace("|", "\\|")
            t = re.sub(r"(?<!\*)\*(?!\*)", r"\\*", t)
            parts[j] = t
        lines[i] = head + "".join(parts)


def setup(app):
    app.connect("autodoc-process-docstring", _ascii_math)
