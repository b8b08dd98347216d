"""The reader against files the Swift CLI wrote: every dataset of the schema, and
agreement with `framelab report --json`."""
import json

import numpy as np
import pytest

import framelab_h5 as fl
from conftest import framelab


def test_runs_lists_every_run_in_recording_order_with_attributes(runs_file):
    ids = fl.run_ids(runs_file)
    assert ids[:3] == ["chain", "dropping", "folder"] and ids[4] == "eval" and ids[3].startswith("bench-")
    runs = fl.runs(runs_file)
    assert list(runs["id"]) == ids
    chain = runs.set_index("id").loc["chain"]
    assert chain["source"] == "synthetic:160x120@200"
    assert chain["policy"] == "keep-all"
    assert chain["status"] == "completed"
    assert chain["stage_names"] == "sepia, hue"
    assert int(chain["cpu_cores"]) >= 1
    assert "framelab run" in chain["command_line"] or "framelab" in chain["command_line"]


def test_frames_of_a_keep_all_run_are_consecutive_and_none_dropped(runs_file):
    frames = fl.frames(runs_file, "chain")
    assert list(frames["index"]) == list(range(40))
    assert not frames["dropped"].any() and not frames["failed"].any()
    assert (np.diff(frames["pts_ns"]) == 5_000_000).all()  # 200 fps


def test_drop_late_run_records_dropped_frames(runs_file):
    frames = fl.frames(runs_file, "dropping")
    processed = frames[~frames["dropped"]]
    assert len(processed) == 30
    assert frames["dropped"].sum() > 0
    # Every source index up to the last processed one is recorded exactly once.
    assert sorted(frames["index"]) == list(range(frames["index"].max() + 1))


def test_timings_carry_stage_names_and_positive_durations(runs_file):
    t = fl.timings(runs_file, "chain")
    assert len(t) == 80
    assert set(t["stage_name"]) == {"sepia", "hue"}
    assert (t["duration_ns"] > 0).all()
    # Within a frame, hue starts after sepia ends.
    wide = t.pivot(index="frame", columns="stage_name", values=["start_ns", "end_ns"])
    assert (wide[("start_ns", "hue")] >= wide[("end_ns", "sepia")]).all()


def test_latency_runs_from_arrival_to_the_last_stage(runs_file):
    lat = fl.latency(runs_file, "chain")
    assert len(lat) == 40
    assert (lat["latency_ms"] > 0).all()


def test_failures_name_the_corrupt_file(runs_file):
    failures = fl.failures(runs_file, "folder")
    assert len(failures) == 1
    row = failures.iloc[0]
    assert row["stage"] == -1 and "img1b.png" in row["reason"]
    assert fl.frames(runs_file, "folder")["failed"].sum() == 1


def test_events_dataset_exists_and_is_empty_for_file_runs(runs_file):
    events = fl.events(runs_file, "chain")
    assert len(events) == 0
    assert {"frame", "time_ns", "kind", "detail"} <= set(events.columns)


def test_stage_summary_agrees_with_framelab_report(runs_file):
    report = json.loads(framelab("report", str(runs_file), "--json").stdout)
    assert [r["id"] for r in report["runs"]] == fl.run_ids(runs_file)
    for run in report["runs"]:
        ours = fl.stage_summary(runs_file, run["id"]).set_index("stage")
        for stage in run["stages"]:
            row = ours.loc[stage["name"]]
            assert row["frames"] == stage["frames"]
            for key in ("p50_ms", "p95_ms", "p99_ms", "max_ms"):
                assert row[key] == pytest.approx(stage[key], rel=1e-9, abs=1e-9)
            for fps in ("24", "30", "60"):
                assert row[f"over_{fps}"] == pytest.approx(stage["over_budget"][fps])


def test_unknown_run_is_a_clear_error(runs_file):
    with pytest.raises(KeyError, match="no run 'nope'"):
        fl.frames(runs_file, "nope")


def test_runs_of_kind_separates_pipeline_bench_and_eval_runs(runs_file):
    assert fl.runs_of_kind(runs_file, "") == ["chain", "dropping", "folder"]
    assert len(fl.runs_of_kind(runs_file, "bench filters")) == 1
    assert fl.runs_of_kind(runs_file, "eval") == ["eval"]


def test_bench_results_hold_every_case_with_ratios(runs_file):
    df = fl.bench_results(runs_file)
    single = df[df["filter"] != "chain4"]
    assert set(single["filter"]) == {"gray", "sepia"}
    assert {"scalar", "simd", "recipe", "opencv"} <= set(single["path"])
    assert (df["min_ms"] > 0).all() and (df["median_ms"] >= df["min_ms"]).all()
    scalar = single[single["path"] == "scalar"]
    assert (scalar["vs_scalar"] == 1).all()
    # The ratio to memcpy is the case's time over memcpy's, measured in the same run.
    assert np.allclose(df["vs_memcpy"], df["min_ms"] / df["memcpy_ms"], rtol=1e-6)
    assert set(df[df["filter"] == "chain4"]["size"]) == {"160x120", "320x240"}


def test_bench_repetitions_match_the_cases(runs_file):
    run = fl.runs_of_kind(runs_file, "bench filters")[0]
    reps = fl.bench_repetitions(runs_file, run)
    results = fl.bench_results(runs_file, run)
    assert len(reps) >= 3 * len(results)
    mins = reps.groupby(["filter", "path", "size", "threads"])["duration_ms"].min()
    for _, r in results.iterrows():
        assert mins[(r["filter"], r["path"], r["size"], r["threads"])] == pytest.approx(r["min_ms"], rel=1e-3)


def test_detection_tables_are_consistent(runs_file):
    metrics = fl.detector_metrics(runs_file, "eval")
    assert list(metrics["detector_name"]) == ["opencv-haar", "opencv-lbp"]
    assert ((metrics["ap"] >= 0) & (metrics["ap"] <= 1)).all()
    gt = fl.ground_truth(runs_file, "eval")
    assert set(gt["frame"].astype(int)) <= set(range(6)) and len(gt) >= 6
    matches = fl.frame_matches(runs_file, "eval")
    assert len(matches) == 6 * 2
    dets = fl.detections(runs_file, "eval")
    for name, group in dets.groupby("detector_name"):
        m = matches[matches["detector_name"] == name]
        assert (group["outcome"] == 1).sum() == m["true_positives"].sum()
        assert (group["outcome"] == 0).sum() == m["false_positives"].sum()
    # Per frame, faces = true positives + misses.
    assert (matches["faces"] == matches["true_positives"] + matches["misses"]).all()
    curves = fl.curves(runs_file, "eval")
    assert set(curves["curve_name"]) == {"precision-recall", "fddb-discrete-roc", "fddb-continuous-roc"}
    pr = curves[curves["curve"] == 0]
    assert pr["x"].between(0, 1).all() and pr["y"].between(0, 1).all()


def test_eval_runs_name_their_images(runs_file):
    paths = fl.image_paths(runs_file, "eval")
    assert len(paths) == 6
    assert all(p.endswith((".png", ".jpg", ".jpeg")) for p in paths)
