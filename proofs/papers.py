"""The registry of the papers whose claims live in ``proofs/``: one :class:`Paper` entry per paper, with its
folder (= claim-id prefix), seed file, title and bibliographic data.

The engine (``rldp_verify``) knows no paper; it reads this table through the catalogue of papers
(:class:`rldp_verify.claims.catalogue.Catalogue`, ``Catalogue.load().papers``). :data:`PAPERS` is in report
order. Adding a paper is one folder ``proofs/<name>/`` and one entry here (README, "Adding a paper").

In code, a paper is cited by its :attr:`Paper.key` (e.g. ``[kairouz-2016, Thm. 8]``); :func:`by_key` resolves it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Paper:
    """One paper: ``name`` is its folder under ``proofs/`` and the prefix of its claim ids, ``seed`` its file
    under ``../shared/seeds/``; ``thresholds`` names the engine's threshold family that ``rldp-verify
    threshold --paper NAME`` computes (None: the paper has none).

    Bibliographic data: ``key`` (the citation key used in code), ``authors``, ``venue``, ``year``, and the
    ``arxiv`` id and ``doi`` where the paper has one (None where it has none or none is known)."""

    name: str
    seed: str
    title: str
    thresholds: str | None = None
    key: str = ""
    authors: str = ""
    venue: str = ""
    year: int | None = None
    arxiv: str | None = None
    doi: str | None = None

    def citation(self) -> str:
        """``authors, "title", venue, year`` plus the arXiv id / DOI where there is one."""
        ids = [f"arXiv:{self.arxiv}" if self.arxiv else "", f"doi:{self.doi}" if self.doi else ""]
        return ", ".join(x for x in (self.authors, f'"{self.title}"', self.venue, str(self.year or ""), *ids) if x)


PAPERS: tuple[Paper, ...] = (
    Paper("rldp", "000_aca93ed29ea857ee.txt",
          "Lopuhaä-Zwakenberg & Goseling, Mechanisms for Robust Local Differential Privacy (Entropy 2024)",
          key="lopuhaa-2024", authors="M. Lopuhaä-Zwakenberg, J. Goseling", venue="Entropy 26(3):233", year=2024,
          doi="10.3390/e26030233"),
    Paper("isit", "003_726cfd382c041001.txt",
          "Goseling & Lopuhaä-Zwakenberg, Robust Optimization for Local Differential Privacy (ISIT)",
          key="goseling-2021", authors="J. Goseling, M. Lopuhaä-Zwakenberg",
          venue="IEEE International Symposium on Information Theory (ISIT)", year=2021),
    Paper("kairouz", "004_3b35ffa09c03afc4.txt",
          "Kairouz, Oh & Viswanath, Extremal Mechanisms for Local Differential Privacy (JMLR)",
          thresholds="extremal",
          key="kairouz-2016", authors="P. Kairouz, S. Oh, P. Viswanath",
          venue="Journal of Machine Learning Research 17(17):1-51", year=2016, arxiv="1407.1338"),
    Paper("pram", "002_e8b3078a5cf2ef08.txt",
          "Ayed, Battiston & Camerlenghi, An Information Theoretic approach to Post Randomization Methods under DP",
          key="ayed-2020", authors="F. Ayed, M. Battiston, F. Camerlenghi", venue="arXiv preprint", year=2020,
          arxiv="2009.11257"),
    Paper("falpha", "001_29f852b736fc5e16.txt",
          "Grosse, Saeidian, Oechtering & Skoglund, Bounds on the Privacy Amplification of Arbitrary Channels via "
          "f_alpha-Divergence",
          key="grosse-2025", authors="L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund", venue="arXiv preprint",
          year=2025, arxiv="2501.11473"),
)


def paper(name: str) -> Paper:
    """The paper registered under ``name`` (a folder of ``proofs/``)."""
    for p in PAPERS:
        if p.name == name:
            return p
    raise KeyError(f"no paper named {name!r}; known: {', '.join(p.name for p in PAPERS)}")


def by_key(key: str) -> Paper:
    """The paper whose citation key is ``key`` (e.g. ``"kairouz-2016"``)."""
    for p in PAPERS:
        if p.key == key:
            return p
    raise KeyError(f"no paper with citation key {key!r}; known: {', '.join(p.key for p in PAPERS)}")


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
