"""Execute Framelab's notebooks headless against one HDF5 file and write HTML reports.

    python Notebooks/run_notebooks.py FILE.h5 [--out DIR] [--only NAME ...] [--with-code]

Each notebook reads the file named by FRAMELAB_H5. A report opens with a verdict line,
which this command prints too; the code that made it is hidden unless --with-code is given.
A failing cell fails the command (exit 1) with the notebook and cell named; anything a cell
wrote to standard error (a library warning) is named on standard error and fails it too.
"""
from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from nbconvert import HTMLExporter

NOTEBOOK_DIR = Path(__file__).resolve().parent
NOTEBOOKS = ["timings", "filters", "detectors"]
#: The plain-text form of a report's verdict line starts with this.
VERDICT_PREFIX = "Verdict: "


def available() -> list[str]:
    return [name for name in NOTEBOOKS if (NOTEBOOK_DIR / f"{name}.ipynb").exists()]


def run(name: str, h5: Path, timeout: int = 600) -> nbformat.NotebookNode:
    """Executes one notebook against `h5` and returns it with its outputs."""
    nb = nbformat.read(NOTEBOOK_DIR / f"{name}.ipynb", as_version=4)
    os.environ["FRAMELAB_H5"] = str(h5)
    os.environ["FRAMELAB_NOTEBOOK_DIR"] = str(NOTEBOOK_DIR)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK_DIR)}})
    client.execute()
    return nb


def html(nb: nbformat.NotebookNode, with_code: bool = False) -> str:
    """The report as HTML: outputs and text, code cells' source only when `with_code`."""
    exporter = HTMLExporter(exclude_input=not with_code, exclude_input_prompt=not with_code,
                            exclude_output_prompt=not with_code)
    exporter.log.addFilter(_NoAltTextNotice())
    return exporter.from_notebook_node(nb)[0]


class _NoAltTextNotice(logging.Filter):
    """nbconvert logs a warning for every plot (matplotlib's PNGs carry no alt text); the
    reports' figures are described by their headings, so that notice is noise here."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Alternative text is missing")


def verdict(nb: nbformat.NotebookNode) -> str | None:
    """The report's verdict line (without the "Verdict: " prefix), or None."""
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            text = output.get("data", {}).get("text/plain", "")
            if text.startswith(VERDICT_PREFIX):
                return text[len(VERDICT_PREFIX):]
    return None


def stderr_outputs(nb: nbformat.NotebookNode) -> list[str]:
    """What cells wrote to standard error (warnings), one entry per cell output."""
    return [output.get("text", "").strip() for cell in nb.cells for output in cell.get("outputs", [])
            if output.get("output_type") == "stream" and output.get("name") == "stderr"]


def execute(name: str, h5: Path, out_dir: Path | None, timeout: int = 600, with_code: bool = False) -> Path | None:
    """Runs one notebook against `h5`; writes NAME.html into `out_dir` when given."""
    nb = run(name, h5, timeout)
    if out_dir is None:
        return None
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{name}.html"
    target.write_text(html(nb, with_code), encoding="utf-8")
    return target


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("h5", type=Path, help="a Framelab HDF5 file (for example out/demo.h5)")
    parser.add_argument("--out", type=Path, default=Path("out/reports"), help="where HTML reports go")
    parser.add_argument("--only", nargs="*", default=None, help="notebook names to run (default: all)")
    parser.add_argument("--with-code", action="store_true", help="show the code cells in the HTML reports")
    args = parser.parse_args()
    if not args.h5.is_file():
        print(f"run_notebooks: error: '{args.h5}': no such file", file=sys.stderr)
        return 1
    names = args.only or available()
    for name in names:
        if name not in available():
            print(f"run_notebooks: error: no notebook '{name}' (have: {', '.join(available())})", file=sys.stderr)
            return 1
    failed = False
    for name in names:
        started = time.monotonic()
        print(f"run_notebooks: executing {name}.ipynb on {args.h5} …", file=sys.stderr, flush=True)
        try:
            nb = run(name, args.h5.resolve())
        except CellExecutionError as error:
            first = str(error).strip().splitlines()[-1] if str(error).strip() else "cell failed"
            print(f"run_notebooks: error: {name}.ipynb failed on {args.h5}: {first}", file=sys.stderr)
            return 1
        args.out.mkdir(parents=True, exist_ok=True)
        target = args.out / f"{name}.html"
        target.write_text(html(nb, args.with_code), encoding="utf-8")
        print(f"{name}: {verdict(nb) or '(no verdict line)'}")
        for text in stderr_outputs(nb):
            failed = True
            print(f"run_notebooks: error: {name}.ipynb wrote to standard error: {text.splitlines()[0] if text else ''}",
                  file=sys.stderr)
        print(f"run_notebooks: wrote {target} ({time.monotonic() - started:.1f} s)", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
