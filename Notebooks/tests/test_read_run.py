"""`read_run`: one run as one object, one DataFrame per table, on files the real CLI wrote;
and the reader installed in the venv, importable from anywhere."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import framelab_h5 as fl
from framelab_run import Run, read_run, read_runs

ROOT = Path(__file__).resolve().parents[2]


def test_a_pipeline_run_has_its_tables_and_no_detection_tables(runs_file):
    run = read_run(runs_file, "chain")
    assert isinstance(run, Run) and (run.id, run.kind, run.status) == ("chain", "run", "completed")
    assert len(run.frames) == 40 and run.frames["index"].tolist() == list(range(40))
    pd.testing.assert_frame_equal(run.timings, fl.timings(runs_file, "chain"))
    assert sorted(run.timings["stage_name"].unique()) == ["hue", "sepia"]
    assert run.detections.empty and run.bench_results.empty
    assert set(run.tables()) >= {"frames", "timings", "elements", "stage_summary"}
    assert "detections" not in run.tables()


def test_the_newest_run_by_default_and_every_kind(runs_file):
    runs = read_runs(runs_file)
    assert [r.id for r in runs] == fl.run_ids(runs_file)
    assert read_run(runs_file).id == runs[-1].id == "eval"
    kinds = {r.id: r.kind for r in runs}
    assert kinds["chain"] == "run" and kinds["eval"] == "eval" and "bench filters" in kinds.values()


def test_an_eval_run_has_its_detections_and_metrics(runs_file):
    run = read_run(runs_file, "eval")
    assert not run.detections.empty and not run.detector_metrics.empty
    assert set(run.detector_metrics["detector_name"]) == {"opencv-haar", "opencv-lbp"}
    assert len(run.ground_truth) == len(fl.ground_truth(runs_file, "eval"))


def test_a_bench_run_has_its_cases(runs_file):
    bench = fl.runs_of_kind(runs_file, "bench filters")[0]
    cases = read_run(runs_file, bench).bench_results
    assert {"gray", "sepia", "chain4"} <= set(cases["filter"])
    assert (cases["median_ms"] > 0).all()


def test_a_failure_is_a_row_of_the_failures_table(runs_file):
    run = read_run(runs_file, "folder")
    assert len(run.failures) == 1 and "img1b.png" in run.failures["reason"].iloc[0]


def test_an_unknown_run_names_the_runs_there(runs_file):
    with pytest.raises(KeyError, match="runs: chain, dropping, folder"):
        read_run(runs_file, "nope")


def test_the_reader_is_installed_in_the_venv():
    # From another folder, with no path set up: the editable install of this checkout.
    code = "import framelab_h5, framelab_run, framelab_report; print(framelab_run.__file__)"
    out = subprocess.run([sys.executable, "-c", code], cwd="/", capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert Path(out.stdout.strip()).resolve() == (ROOT / "Notebooks" / "framelab_run.py").resolve()
