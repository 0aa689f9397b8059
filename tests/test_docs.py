"""Issue 13 item 8: the API reference builds from the docstrings without a warning (``make docs``)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_docs_build_warning_free(tmp_path):
    pytest.importorskip("sphinx", reason="sphinx is a dev dependency (pip install -e '.[dev]')")
    out = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-E", "-b", "html", "docs", str(tmp_path / "html")],
                         cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-4000:]
    page = (tmp_path / "html" / "api.html").read_text()
    for mod in ("rldp_verify.rldp.audit", "rldp_verify.core.rigorous", "rldp_verify.report.model"):
        assert f'id="module-{mod}"' in page, mod


def test_no_internal_notes_in_docs():
    assert not (ROOT / "docs" / "dev").exists()
