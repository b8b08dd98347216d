"""Every notebook executes headless against a file the CLI wrote, and against the committed
version-1 file (fixtures/schema1.h5), and writes its HTML report."""
from pathlib import Path

import pytest

import run_notebooks

SCHEMA1 = Path(__file__).resolve().parent / "fixtures" / "schema1.h5"


def _report_ok(target: Path) -> None:
    html = target.read_text(encoding="utf-8")
    # execute() raises on a failing cell; the report holds no error output either.
    assert "Traceback (most recent call last)" not in html
    # Plots were drawn: matplotlib figures are embedded as PNG images.
    assert html.count("data:image/png;base64") >= 3


@pytest.mark.parametrize("name", run_notebooks.available())
def test_notebook_executes_and_reports(name, runs_file, tmp_path):
    _report_ok(run_notebooks.execute(name, runs_file, tmp_path))


@pytest.mark.parametrize("name", run_notebooks.available())
def test_notebook_reads_schema_version_1(name, tmp_path):
    _report_ok(run_notebooks.execute(name, SCHEMA1, tmp_path))
