"""The papers whose claims live in ``proofs/``: folder name (= claim-id prefix), seed file, title.

The engine (``rldp_verify``) knows no paper; the report and the command line read this table by name
(``importlib.import_module("proofs.papers")``). :data:`PAPERS` is in report order.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Paper:
    """One paper: ``name`` is its folder under ``proofs/`` and the prefix of its claim ids, ``seed`` its file
    under ``../shared/seeds/``; ``thresholds`` names the engine's threshold family that ``rldp-verify
    threshold --paper NAME`` computes (None: the paper has none)."""

    name: str
    seed: str
    title: str
    thresholds: str | None = None


PAPERS: tuple[Paper, ...] = (
    Paper("rldp", "000_aca93ed29ea857ee.txt",
          "Lopuhaä-Zwakenberg & Goseling, Mechanisms for Robust Local Differential Privacy (Entropy 2024)"),
    Paper("isit", "003_726cfd382c041001.txt",
          "Goseling & Lopuhaä-Zwakenberg, Robust Optimization for Local Differential Privacy (ISIT)"),
    Paper("kairouz", "004_3b35ffa09c03afc4.txt",
          "Kairouz, Oh & Viswanath, Extremal Mechanisms for Local Differential Privacy (JMLR)",
          thresholds="extremal"),
    Paper("pram", "002_e8b3078a5cf2ef08.txt",
          "Ayed, Battiston & Camerlenghi, An Information Theoretic approach to Post Randomization Methods under DP"),
    Paper("falpha", "001_29f852b736fc5e16.txt",
          "Grosse, Saeidian, Oechtering & Skoglund, Bounds on the Privacy Amplification of Arbitrary Channels via "
          "f_alpha-Divergence"),
)


def paper(name: str) -> Paper:
    """The paper registered under ``name`` (a folder of ``proofs/``)."""
    for p in PAPERS:
        if p.name == name:
            return p
    raise KeyError(f"no paper named {name!r}; known: {', '.join(p.name for p in PAPERS)}")


def titles() -> dict[str, str]:
    """Seed file -> title, in report order (what :func:`rldp_verify.report.build` takes)."""
    return {p.seed: p.title for p in PAPERS}


def seed_text(name: str) -> str | None:
    """The text of a paper's seed file (``name``: a folder of ``proofs/`` or the seed file name), read from
    ``shared/seeds`` beside the repository or one of its parents; None when it is not there."""
    from pathlib import Path

    seed = name if name.endswith(".txt") else paper(name).seed
    for d in list(Path(__file__).resolve().parents)[1:5]:
        f = d / "shared" / "seeds" / seed
        if f.is_file():
            return f.read_text(encoding="utf-8")
    return None

