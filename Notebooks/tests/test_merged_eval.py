"""A merged sharded evaluation (framelab eval --shard, framelab merge) reads like a single
run: the reader's tables, the comparison helper, and the detectors notebook."""
from __future__ import annotations

from pathlib import Path

import pytest

import framelab_h5 as fl
import run_notebooks
from conftest import ROOT, framelab

SAMPLE = f"csv:{ROOT / 'Datasets' / 'sample' / 'faces.csv'}"
DETECTORS = ["--detector", "opencv-haar", "--detector", "cascade"]


@pytest.fixture(scope="session")
def merged(tmp_path_factory) -> tuple[Path, Path]:
    """(single.h5, merged.h5): the sample evaluated in one process, and in three shards merged."""
    tmp = tmp_path_factory.mktemp("merged")
    single, out = tmp / "single.h5", tmp / "merged.h5"
    framelab("eval", "--dataset", SAMPLE, *DETECTORS, "--out", str(single), "--run-id", "single", "--quiet")
    shards = [tmp / f"shard-{k}.h5" for k in range(3)]
    for k, shard in enumerate(shards):
        framelab("eval", "--dataset", SAMPLE, *DETECTORS, "--shard", f"{k}/3", "--out", str(shard), "--quiet")
    framelab("merge", str(out), *map(str, reversed(shards)), "--run-id", "merged")
    return single, out


def test_merged_run_equals_the_single_run_apart_from_timings(merged):
    single, out = merged
    assert fl.compare_eval_runs(single, "single", out, "merged") == []


def test_reader_tables_of_a_merged_run_are_a_single_runs(merged):
    single, out = merged
    assert fl.runs_of_kind(out, "eval") == ["merged"]
    a, b = fl.detector_metrics(single, "single"), fl.detector_metrics(out, "merged")
    assert list(a["detector_name"]) == list(b["detector_name"]) == ["opencv-haar", "cascade"]
    assert (a[["ap", "precision", "recall", "f1", "images", "faces"]].to_numpy()
            == b[["ap", "precision", "recall", "f1", "images", "faces"]].to_numpy()).all()
    assert fl.image_paths(out, "merged") == fl.image_paths(single, "single")
    frames = fl.frames(out, "merged")
    assert list(frames["index"]) == list(range(len(fl.image_paths(out, "merged"))))
    attrs = fl.attributes(out, "merged")
    assert attrs["merged_shards"] == ["0/3", "1/3", "2/3"] and "missing_shards" not in attrs
    assert list(fl.events(out, "merged")["kind"]) == ["merge"]


def test_comparison_reports_a_real_difference(merged, tmp_path):
    single, _ = merged
    other = tmp_path / "other.h5"
    framelab("eval", "--dataset", SAMPLE, "--detector", "opencv-haar", "--detector", "cascade:scale=1.3",
             "--out", str(other), "--run-id", "other", "--quiet")
    diffs = fl.compare_eval_runs(single, "single", other, "other")
    assert any(d.startswith("attribute detector_configs") for d in diffs)


def test_detectors_notebook_reads_the_merged_file(merged, tmp_path):
    _, out = merged
    html = run_notebooks.execute("detectors", out, tmp_path).read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" not in html
    assert html.count("data:image/png;base64") >= 3
