"""framelab_h5 reads schema version 1 and version 2 alike (docs/hdf5-schema.md, "Version 1
files"): every function on the committed version-1 file fixtures/schema1.h5 (made with
fixtures/make_schema1.sh by Framelab at commit a7e151a) and on a version-2 file the current
CLI writes with the same commands; both must give the same columns and the same contents
where the contents do not depend on timing."""
from __future__ import annotations

import shutil
from pathlib import Path

import h5py
import numpy as np
import pandas as pd
import pytest

import framelab_h5 as fl
from conftest import ROOT, framelab

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "schema1.h5"
SAMPLE_CSV = ROOT / "Datasets" / "sample" / "faces.csv"
#: The first four images of the bundled sample (--limit 4) and their annotated faces.
SAMPLE_IMAGES = ["astronaut.png", "camera.png", "t1.jpg", "tom_hanks.png"]
SAMPLE_FACES = [1, 1, 6, 1]
DETECTORS = ["opencv-haar", "opencv-lbp"]
BENCH_FILTERS = {"gray", "sepia"}


@pytest.fixture(scope="session")
def schema2_file(tmp_path_factory) -> Path:
    """The runs of make_schema1.sh, recorded by the current CLI (FRAMELAB_BIN)."""
    tmp = tmp_path_factory.mktemp("schema2")
    h5 = tmp / "schema2.h5"
    framelab("run", "--source", "synthetic:160x120@200", "--frames", "20", "--filter", "sepia",
             "--filter", "hue:angle=0.5", "--policy", "keep-all", "--out", str(h5), "--run-id", "chain", "--quiet")
    framelab("run", "--source", "synthetic:1280x720@400", "--frames", "12", "--filter", "sepia", "--path", "scalar",
             "--policy", "drop-late", "--out", str(h5), "--run-id", "dropping", "--quiet")
    folder = tmp / "images"
    folder.mkdir()
    for i in range(2):
        (folder / f"img{i}.ppm").write_bytes(b"P6\n8 6\n255\n" + bytes([i * 40, 100, 200]) * 48)
    (folder / "img1b.png").write_bytes(b"\x89PNG broken")
    framelab("run", "--source", f"images:{folder}", "--filter", "gray", "--out", str(h5), "--run-id", "folder",
             "--quiet")
    framelab("bench", "filters", "--filter", "gray", "--filter", "sepia", "--size", "160x120",
             "--chain-size", "160x120", "--repeats", "2", "--warmup", "1", "--out", str(h5), "--quiet")
    framelab("eval", "--dataset", f"csv:{SAMPLE_CSV}", "--detector", "opencv-haar", "--detector", "opencv-lbp",
             "--limit", "4", "--out", str(h5), "--run-id", "eval", "--quiet")
    return h5


@pytest.fixture(scope="session", params=[1, 2], ids=["schema1", "schema2"])
def recording(request) -> tuple[int, Path]:
    """(version, file): the committed version-1 fixture, and the version-2 file."""
    return request.param, (FIXTURE if request.param == 1 else request.getfixturevalue("schema2_file"))


def bench_run(path: Path) -> str:
    benches = fl.runs_of_kind(path, "bench filters")
    assert len(benches) == 1
    return benches[0]


# --- The file and its runs --------------------------------------------------------------

def test_fixture_is_small_and_version_1():
    assert FIXTURE.stat().st_size < 1_500_000
    assert fl.schema_version(FIXTURE) == 1


def test_the_cli_writes_version_2(schema2_file):
    assert fl.schema_version(schema2_file) == 2


def test_unknown_versions_and_foreign_files_are_refused(tmp_path):
    newer, foreign = tmp_path / "newer.h5", tmp_path / "foreign.h5"
    shutil.copy(FIXTURE, newer)
    with h5py.File(newer, "a") as f:
        f.attrs["framelab_schema_version"] = np.int64(3)
    h5py.File(foreign, "w").close()
    for path, message in ((newer, "schema version 3"), (foreign, "not a Framelab file")):
        with pytest.raises(ValueError, match=message):
            fl.schema_version(path)
        with pytest.raises(ValueError, match=message):
            fl.run_ids(path)


def test_runs_and_kinds(recording):
    version, path = recording
    ids = fl.run_ids(path)
    assert ids[:3] == ["chain", "dropping", "folder"] and ids[3].startswith("bench-") and ids[4] == "eval"
    assert list(fl.runs(path)["id"]) == ids
    assert fl.runs_of_kind(path, "") == fl.runs_of_kind(path, "run") == ["chain", "dropping", "folder"]
    assert fl.runs_of_kind(path, "eval") == ["eval"]
    assert fl.runs_of_kind(path, "bench filters") == [ids[3]]
    kinds = [fl.attributes(path, run).get("kind") for run in ids]
    assert kinds == ([None, None, None, "bench filters", "eval"] if version == 1
                     else ["run", "run", "run", "bench filters", "eval"])


def test_attributes_have_the_version_2_names(recording):
    version, path = recording
    attrs = fl.attributes(path, "eval")
    assert attrs["workers"] == 1
    assert 0 < attrs["wall_ns"] < 600e9
    if version == 1:
        assert attrs["wall_ns"] == round(attrs["wall_seconds"] * 1e9) and attrs["workers"] == attrs["threads"]
    assert fl.attributes(path, "chain")["stage_names"] == ["sepia", "hue"]
    assert fl.stage_names(path, "eval") == DETECTORS


# --- Frames, timings, failures, latency --------------------------------------------------

def test_frames_of_the_keep_all_run(recording):
    _, path = recording
    frames = fl.frames(path, "chain")
    assert list(frames.columns[:7]) == ["index", "pts_ns", "arrival_ns", "dropped", "failed",
                                        "queue_wait_ns", "latency_ns"]
    assert list(frames["index"]) == list(range(20))
    assert (np.diff(frames["pts_ns"]) == 5_000_000).all()  # 200 fps
    assert not frames["dropped"].any() and not frames["failed"].any()
    assert (frames["queue_wait_ns"] >= 0).all() and (frames["latency_ns"] > frames["queue_wait_ns"]).all()


def test_timings_name_their_stages(recording):
    _, path = recording
    t = fl.timings(path, "chain")
    assert list(t.columns) == ["frame", "stage", "start_ns", "duration_ns", "stage_name", "end_ns", "duration_ms"]
    assert len(t) == 40
    assert t.groupby("stage")["stage_name"].unique().map(list).to_dict() == {0: ["sepia"], 1: ["hue"]}
    assert (t["duration_ns"] > 0).all()
    assert np.allclose(t["duration_ms"] * 1e6, t["duration_ns"])
    summary = fl.stage_summary(path, "chain")
    assert list(summary["stage"]) == ["sepia", "hue"] and list(summary["frames"]) == [20, 20]


def test_latency_ends_with_the_last_stage(recording):
    _, path = recording
    lat = fl.latency(path, "chain")
    assert {"index", "pts_ns", "arrival_ns", "done_ns", "latency_ms"} <= set(lat.columns)
    assert list(lat["index"]) == list(range(20))
    done = fl.timings(path, "chain").groupby("frame")["end_ns"].max()
    # Version 1 derives the end from timings; version 2 records it (the writer's clock reading
    # at the end of the last stage, so it may be a little later).
    assert (lat["done_ns"].to_numpy() >= done.loc[lat["index"]].to_numpy()).all()
    assert np.allclose(lat["latency_ms"], (lat["done_ns"] - lat["arrival_ns"]) / 1e6)
    assert (lat["latency_ms"] > 0).all()


def test_drop_late_run_drops_and_dropped_frames_have_no_latency(recording):
    _, path = recording
    frames = fl.frames(path, "dropping")
    assert (~frames["dropped"]).sum() == 12 and frames["dropped"].sum() > 0
    assert sorted(frames["index"]) == list(range(frames["index"].max() + 1))
    assert (frames.loc[frames["dropped"], ["queue_wait_ns", "latency_ns"]] == -1).all().all()
    assert set(fl.latency(path, "dropping")["index"]) == set(frames.loc[~frames["dropped"], "index"])


def test_failures_of_the_source(recording):
    _, path = recording
    failures = fl.failures(path, "folder")
    assert list(failures.columns) == ["frame", "stage", "reason", "stage_name"]
    assert len(failures) == 1
    row = failures.iloc[0]
    assert row["stage"] == -1 and row["stage_name"] == "(source)" and "img1b.png" in row["reason"]
    frames = fl.frames(path, "folder")
    assert frames["failed"].sum() == 1
    assert int(frames.loc[frames["failed"], "latency_ns"].iloc[0]) == -1
    assert fl.events(path, "folder").empty


def test_elements(recording):
    version, path = recording
    elements = fl.elements(path, "chain")
    assert list(elements.columns[:1]) == ["stage"] and "stage_name" in elements
    if version == 1:
        assert elements.empty
    else:
        assert list(elements["stage_name"]) == ["sepia", "hue"]
        assert list(elements["element"]) == ["sepia", "hue"] and set(elements["kind"]) == {"filter"}


def test_unique_stage_names_follow_the_version_2_enumeration():
    assert fl.unique_stage_names(["gray", "sepia", "gray", "gray"]) == ["gray", "sepia", "gray #2", "gray #3"]


# --- Benchmarks ----------------------------------------------------------------------------

def test_bench_repetitions(recording):
    version, path = recording
    run = bench_run(path)
    reps = fl.bench_repetitions(path, run)
    assert list(reps.columns[:10]) == ["filter", "path", "size", "width", "height", "threads", "isa",
                                       "repetition", "duration_ns", "duration_ms"]
    cases = reps[reps["filter"] != "memcpy"]
    assert set(cases["filter"]) == BENCH_FILTERS | {"chain4"}
    assert set(cases["size"]) == {"160x120"} and set(cases["width"]) == {160} and set(cases["height"]) == {120}
    assert {"scalar", "simd", "recipe", "opencv"} <= set(cases.loc[cases["filter"] == "gray", "path"])
    assert set(cases["threads"]) == {1, 2}
    # Two timed repetitions per case, numbered 0 and 1.
    per_case = cases.groupby(["filter", "path", "size", "threads"])["repetition"].apply(sorted)
    assert all(r == [0, 1] for r in per_case)
    assert np.allclose(reps["duration_ms"] * 1e6, reps["duration_ns"]) and (reps["duration_ns"] > 0).all()
    assert (reps["stage_name"] == reps["filter"] + "|" + reps["path"] + "|" + reps["size"] + "|"
            + reps["threads"].astype(str)).all()
    if version == 1:
        assert set(reps["isa"]) == {"unknown"} and len(reps) == 30
    else:
        assert "unknown" not in set(reps["isa"])
        assert (reps["filter"] == "memcpy").any() and set(reps.loc[reps["filter"] == "memcpy", "path"]) == {"memcpy"}
    # The newest bench run by default.
    pd.testing.assert_frame_equal(fl.bench_repetitions(path), reps)


def test_bench_results_agree_with_the_repetitions(recording):
    _, path = recording
    run = bench_run(path)
    results = fl.bench_results(path)
    assert len(results) == 15
    assert set(results["filter"]) == BENCH_FILTERS | {"chain4"} and (results["runs"] == 2).all()
    assert (results["pixels"] == 160 * 120).all() and (results["memcpy_ms"] > 0).all()
    mins = fl.bench_repetitions(path, run).groupby(["filter", "path", "size", "threads"])["duration_ms"].min()
    for _, r in results.iterrows():
        assert mins[(r["filter"], r["path"], r["size"], r["threads"])] == pytest.approx(r["min_ms"], rel=1e-3)


# --- Detection tables ----------------------------------------------------------------------

DETECTION_COLUMNS = {
    "detections": ["frame", "detector", "index", "x", "y", "width", "height", "score", "left_eye_x",
                   "left_eye_y", "right_eye_x", "right_eye_y", "mouth_x", "mouth_y", "outcome", "face", "iou",
                   "detector_name", "outcome_name"],
    "ground_truth": ["frame", "face", "x", "y", "width", "height", "ignore"],
    "frame_matches": ["frame", "detector", "faces", "true_positives", "false_positives", "misses",
                      "duration_ms", "duration_ns", "failed", "detector_name"],
    "curves": ["detector", "curve", "threshold", "x", "y", "detector_name", "curve_name"],
    "detector_metrics": ["detector", "ap", "precision", "recall", "f1", "p50_ms", "p50_ns", "p95_ms", "p95_ns",
                         "images", "faces", "failed", "true_positives", "false_positives", "detector_name"],
}


@pytest.mark.parametrize("name", list(DETECTION_COLUMNS))
def test_detection_tables_have_the_same_columns_and_integer_types(recording, name):
    _, path = recording
    df = getattr(fl, name)(path, "eval")
    assert list(df.columns) == DETECTION_COLUMNS[name]
    for column in fl.INTEGER_COLUMNS[name]:
        assert df[column].dtype == np.int64, column


def test_eval_tables_agree_with_each_other(recording):
    version, path = recording
    metrics = fl.detector_metrics(path, "eval")
    assert list(metrics["detector"]) == [0, 1] and list(metrics["detector_name"]) == DETECTORS
    assert (metrics["images"] == 4).all()
    assert np.allclose(metrics["p50_ms"] * 1e6, metrics["p50_ns"], atol=1)
    assert np.allclose(metrics["p95_ms"] * 1e6, metrics["p95_ns"], atol=1)
    gt = fl.ground_truth(path, "eval")
    assert gt.groupby("frame").size().reindex(range(4), fill_value=0).tolist() == SAMPLE_FACES
    assert (gt["ignore"] == 0).all()
    matches = fl.frame_matches(path, "eval")
    assert len(matches) == 4 * 2
    assert sorted(zip(matches["frame"], matches["detector_name"])) == [(f, d) for f in range(4) for d in DETECTORS]
    assert np.allclose(matches["duration_ms"] * 1e6, matches["duration_ns"], atol=1)
    assert (matches["faces"] == matches["true_positives"] + matches["misses"]).all()
    assert matches.groupby("detector_name")["faces"].sum().tolist() == [sum(SAMPLE_FACES)] * 2
    dets = fl.detections(path, "eval")
    assert set(dets["outcome_name"]) <= set(fl.OUTCOMES.values())
    assert (dets["outcome"].map(fl.OUTCOMES) == dets["outcome_name"]).all()
    assert set(dets["detector_name"]) <= set(DETECTORS)
    for name in DETECTORS:
        d, m = dets[dets["detector_name"] == name], matches[matches["detector_name"] == name]
        row = metrics.set_index("detector_name").loc[name]
        assert (d["outcome_name"] == "true_positive").sum() == m["true_positives"].sum() == row["true_positives"]
        assert (d["outcome_name"] == "false_positive").sum() == m["false_positives"].sum() == row["false_positives"]
    matched = dets[dets["outcome"] == 1]
    assert (matched["face"] >= 0).all() and (matched["iou"] >= 0.5).all()
    assert (dets.loc[dets["outcome"] == 0, "face"] == -1).all()
    curves = fl.curves(path, "eval")
    assert set(curves["detector_name"]) <= set(DETECTORS)
    assert (curves["curve"].map(fl.CURVES) == curves["curve_name"]).all()
    if matches["failed"].any():
        # The sample's images are not there (scripts/fetch-sample.sh): every image failed,
        # and the failures name the detector stages.
        failures = fl.failures(path, "eval")
        assert version == 2 and matches["failed"].all() and dets.empty
        assert set(failures["stage_name"]) <= set(DETECTORS) | {"(source)"} and len(failures) >= 4
    else:
        assert (metrics["failed"] == 0).all() and len(dets) > 0 and (metrics["true_positives"] > 0).all()
        # Framelab's own curves (the official protocols' appear only with eval --protocol).
        assert set(curves["curve_name"]) == {fl.CURVES[k] for k in (0, 1, 2)}
        pr = curves[curves["curve"] == 0]
        assert pr["x"].between(0, 1).all() and pr["y"].between(0, 1).all()


def test_image_paths_are_absolute_in_frame_order(recording):
    version, path = recording
    paths = fl.image_paths(path, "eval")
    assert [Path(p).name for p in paths] == SAMPLE_IMAGES
    assert all(Path(p).is_absolute() and Path(p).parent.name == "images" for p in paths)
    if version == 1:
        assert paths == fl.attributes(path, "eval")["image_paths"]
    else:
        root = fl.attributes(path, "eval")["dataset_root"]
        images = fl.table(path, "eval", "images")
        assert list(images["frame"]) == [0, 1, 2, 3]
        assert not any(Path(p).is_absolute() for p in images["path"])
        assert paths == [str(Path(root, p)) for p in images["path"]]
        assert paths == [str(SAMPLE_CSV.parent / "images" / name) for name in SAMPLE_IMAGES]
    assert fl.image_paths(path, "chain") == []


def test_version_2_stores_stages_as_enumerations(schema2_file):
    with h5py.File(schema2_file, "r") as f:
        chain, run = f["runs"]["chain"], f["runs"]["eval"]
        assert {"sepia": 0, "hue": 1}.items() <= h5py.check_enum_dtype(chain["timings"].dtype["stage"]).items()
        assert h5py.check_enum_dtype(f["runs"]["folder"]["failures"].dtype["stage"])["(source)"] == -1
        assert {"opencv-haar": 0, "opencv-lbp": 1}.items() <= \
            h5py.check_enum_dtype(run["detections"].dtype["detector"]).items()
        assert h5py.check_enum_dtype(run["detections"].dtype["outcome"]) == \
            {"true_positive": 1, "false_positive": 0, "ignored": 2, "unmatched": -1}
        assert set(h5py.check_enum_dtype(run["curves"].dtype["curve"]).values()) == set(fl.CURVES)
        assert "image_paths" not in run.attrs and "dataset_root" in run.attrs


# --- Comparing eval runs ---------------------------------------------------------------------

def _first_detection_moved(path: Path, version: int) -> None:
    with h5py.File(path, "a") as f:
        dets = f["runs"]["eval"]["detections"]
        if version == 1:
            columns = [c.decode() if isinstance(c, bytes) else c for c in dets.attrs["columns"]]
            dets[0, columns.index("x")] += 1
        else:
            row = dets[0]
            row["x"] += 1
            dets[0] = row


def test_compare_eval_runs_finds_a_changed_detection(recording, tmp_path):
    version, path = recording
    assert fl.compare_eval_runs(path, "eval", path, "eval") == []
    if fl.detections(path, "eval").empty:
        pytest.fail("the eval run has no detections to change (fetch the sample: scripts/fetch-sample.sh)")
    other = tmp_path / "other.h5"
    shutil.copy(path, other)
    _first_detection_moved(other, version)
    diffs = fl.compare_eval_runs(path, "eval", other, "eval")
    assert len(diffs) == 1 and diffs[0].startswith("detections: 1 rows differ, first 0")


def test_compare_eval_runs_ignores_timings_but_not_images(recording, tmp_path):
    version, path = recording
    other = tmp_path / "other.h5"
    shutil.copy(path, other)
    with h5py.File(other, "a") as f:
        run = f["runs"]["eval"]
        matches = run["frame_matches"]
        if version == 1:
            matches[:, -2] += 1.0  # duration_ms
            paths = [p.decode() if isinstance(p, bytes) else p for p in run.attrs["image_paths"]]
            run.attrs["image_paths"] = np.array(paths[:-1] + ["/elsewhere/x.png"], dtype=h5py.string_dtype())
        else:
            rows = matches[()]
            rows["duration_ns"] += 1000
            matches[:] = rows
            run.attrs["dataset_root"] = "/elsewhere"
    diffs = fl.compare_eval_runs(path, "eval", other, "eval")
    assert len(diffs) == 1 and diffs[0].startswith("images differ"), diffs
