"""The reader against files the Swift CLI wrote: every dataset of the schema, and
agreement with `framelab report --json`."""
import json

import numpy as np
import pytest

import framelab_h5 as fl
from conftest import framelab


def test_runs_lists_every_run_in_recording_order_with_attributes(runs_file):
    assert fl.run_ids(runs_file) == ["chain", "dropping", "folder"]
    runs = fl.runs(runs_file)
    assert list(runs["id"]) == ["chain", "dropping", "folder"]
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
