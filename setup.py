"""Which packages the distribution installs (the rest of the metadata is in pyproject.toml).

The engine (``rldp_verify``, ``rldp_verify_check``) installs under its own names. The papers' claims stay in
the source folder ``proofs/`` (imported as ``proofs`` in the repository) but install under the distribution's
name, as ``rldp_verify_papers``: the wheel puts no top-level package called ``proofs`` into site-packages.
The proof modules import each other relatively, so they work under either name; the engine loads them only
through :class:`rldp_verify.claims.catalogue.Catalogue` (``Catalogue.load()`` tries ``proofs``, then
``rldp_verify_papers``). Every subpackage of ``proofs/`` is listed here, so adding a paper (a folder) needs
no edit of this file.
"""

from setuptools import find_namespace_packages, find_packages, setup

SOURCE, INSTALLED = "proofs", "rldp_verify_papers"   # rldp_verify.claims.catalogue.DEFAULT_SOURCE / INSTALLED_SOURCE
DATA = ["*.json", "*.toml", "*.csv", "*.txt"]          # data files beside the proof modules (pins, indexes, tables)

# namespace packages too: rldp_verify.schemas and rldp_verify.report.assets hold data files only
engine = find_namespace_packages(include=["rldp_verify", "rldp_verify.*", "rldp_verify_check", "rldp_verify_check.*"],
                                 exclude=["*.__pycache__"])
papers = [INSTALLED + p[len(SOURCE):] for p in find_packages(include=[SOURCE, SOURCE + ".*"])]

setup(
    packages=engine + papers,
    package_dir={INSTALLED: SOURCE},
    package_data={"rldp_verify": ["schemas/*.schema.json", "report/assets/*"], **{p: DATA for p in papers}},
)
