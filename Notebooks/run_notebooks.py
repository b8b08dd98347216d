"""Execute Framelab's notebooks headless against one HDF5 file and write HTML reports.

    python Notebooks/run_notebooks.py FILE.h5 [--out DIR] [--only NAME ...]

Each notebook reads the file named by FRAMELAB_H5; a failing cell fails the command
(exit 1) with the notebook and cell named.
"""
from __future__ import annotations

import argparse
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


def available() -> list[str]:
    return [name for name in NOTEBOOKS if (NOTEBOOK_DIR / f"{name}.ipynb").exists()]


def execute(name: str, h5: Path, out_dir: Path | None, timeout: int = 600) -> Path | None:
    """Runs one notebook against `h5`; writes NAME.html into `out_dir` when given."""
    nb = nbformat.read(NOTEBOOK_DIR / f"{name}.ipynb", as_version=4)
    os.environ["FRAMELAB_H5"] = str(h5)
    os.environ["FRAMELAB_NOTEBOOK_DIR"] = str(NOTEBOOK_DIR)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK_DIR)}})
    client.execute()
    if out_dir is None:
        return None
    out_dir.mkdir(parents=True, exist_ok=True)
    html, _ = HTMLExporter().from_notebook_node(nb)
    target = out_dir / f"{name}.html"
    target.write_text(html, encoding="utf-8")
    return target


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("h5", type=Path, help="a Framelab HDF5 file (for example out/demo.h5)")
    parser.add_argument("--out", type=Path, default=Path("out/reports"), help="where HTML reports go")
    parser.add_argument("--only", nargs="*", default=None, help="notebook names to run (default: all)")
    args = parser.parse_args()
    if not args.h5.is_file():
        print(f"run_notebooks: error: '{args.h5}': no such file", file=sys.stderr)
        return 1
    names = args.only or available()
    for name in names:
        if name not in available():
            print(f"run_notebooks: error: no notebook '{name}' (have: {', '.join(available())})", file=sys.stderr)
            return 1
        started = time.monotonic()
        print(f"run_notebooks: executing {name}.ipynb on {args.h5} …", file=sys.stderr, flush=True)
        try:
            target = execute(name, args.h5.resolve(), args.out)
        except CellExecutionError as error:
            first = str(error).strip().splitlines()[-1] if str(error).strip() else "cell failed"
            print(f"run_notebooks: error: {name}.ipynb failed on {args.h5}: {first}", file=sys.stderr)
            return 1
        print(f"run_notebooks: wrote {target} ({time.monotonic() - started:.1f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
