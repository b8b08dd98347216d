"""Every notebook executes headless against a file the CLI wrote, and writes its HTML report."""
import pytest

import run_notebooks


@pytest.mark.parametrize("name", run_notebooks.available())
def test_notebook_executes_and_reports(name, runs_file, tmp_path):
    target = run_notebooks.execute(name, runs_file, tmp_path)
    html = target.read_text(encoding="utf-8")
    # execute() raises on a failing cell; the report holds no error output either.
    assert "Traceback (most recent call last)" not in html
    # Plots were drawn: matplotlib figures are embedded as PNG images.
    assert html.count("data:image/png;base64") >= 3
