"""Read Framelab's HDF5 runs into pandas DataFrames.

Uses only the documented schema (docs/hdf5-schema.md) through h5py:

    import framelab_h5 as fl
    fl.runs("out/demo.h5")                      # one row per run, attributes as columns
    fl.timings("out/demo.h5", "demo-...")       # one row per stage per frame, with stage names
    fl.stage_summary("out/demo.h5")             # what `framelab report` prints, as a DataFrame

Every table is a compound dataset under /runs/<id>; `table(path, run, name)` reads any of
them, including ones added by later schema versions.
"""
from __future__ import annotations

import json

import h5py
import numpy as np
import pandas as pd

#: Frame budgets every report shows: frames per second -> milliseconds per frame.
BUDGETS_MS = {24: 1000 / 24, 30: 1000 / 30, 60: 1000 / 60}


def _text(value):
    """Attribute values as Python scalars: bytes decoded, arrays as lists of str."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "SOU":
            return [_text(v) for v in value.tolist()]
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


def _decode_columns(df: pd.DataFrame) -> pd.DataFrame:
    for column in df.columns:
        if df[column].dtype == object:
            df[column] = df[column].map(_text)
    return df


def open_file(path: str) -> h5py.File:
    """Opens a Framelab file read-only, also while it is being written or after its writer
    was killed (SWMR read mode; see "Durability and reading safely" in the schema)."""
    try:
        return h5py.File(path, "r", swmr=True)
    except (OSError, ValueError):
        return h5py.File(path, "r")


def run_ids(path: str) -> list[str]:
    """Run ids in the order they were recorded."""
    with open_file(path) as f:
        if "runs" not in f:
            return []
        groups = f["runs"]
        return sorted(groups.keys(), key=lambda k: (int(groups[k].attrs.get("run_index", 0)), k))


def _resolve(path: str, run: str | None) -> str:
    ids = run_ids(path)
    if not ids:
        raise ValueError(f"{path}: holds no runs")
    if run is None:
        return ids[-1]
    if run not in ids:
        raise KeyError(f"{path}: no run {run!r} (runs: {', '.join(ids)})")
    return run


def attributes(path: str, run: str | None = None) -> dict:
    """One run's attributes (the newest run when `run` is None)."""
    run = _resolve(path, run)
    with open_file(path) as f:
        return {k: _text(v) for k, v in f["runs"][run].attrs.items()}


def runs(path: str) -> pd.DataFrame:
    """One row per run: its id and attributes (lists joined with ', ')."""
    rows = []
    for run in run_ids(path):
        attrs = attributes(path, run)
        row = {"id": run}
        for key, value in attrs.items():
            row[key] = ", ".join(map(str, value)) if isinstance(value, list) else value
        rows.append(row)
    return pd.DataFrame(rows)


def table(path: str, run: str | None, name: str) -> pd.DataFrame:
    """Any compound dataset of a run as a DataFrame (strings decoded)."""
    run = _resolve(path, run)
    with open_file(path) as f:
        group = f["runs"][run]
        if name not in group:
            raise KeyError(f"{path}: run {run!r} has no dataset {name!r}")
        data = group[name][()]
    return _decode_columns(pd.DataFrame(data))


def stage_names(path: str, run: str | None = None) -> list[str]:
    names = attributes(path, run).get("stage_names", [])
    return [names] if isinstance(names, str) else list(names)


def frames(path: str, run: str | None = None) -> pd.DataFrame:
    """One row per frame: index, pts_ns, arrival_ns, dropped, failed (as booleans)."""
    df = table(path, run, "frames")
    for flag in ("dropped", "failed"):
        if flag in df:
            df[flag] = df[flag].astype(bool)
    return df


def timings(path: str, run: str | None = None) -> pd.DataFrame:
    """One row per stage per frame, with `stage_name`, `end_ns` and `duration_ms` added."""
    df = table(path, run, "timings")
    names = stage_names(path, run)
    df["stage_name"] = [names[s] if 0 <= s < len(names) else f"stage {s}" for s in df["stage"]]
    df["end_ns"] = df["start_ns"] + df["duration_ns"]
    df["duration_ms"] = df["duration_ns"] / 1e6
    return df


def failures(path: str, run: str | None = None) -> pd.DataFrame:
    """Failed frames: frame, stage (-1 = the source) and reason."""
    return table(path, run, "failures")


def events(path: str, run: str | None = None) -> pd.DataFrame:
    """Run events (device switches, …): frame, time_ns, kind, detail."""
    return table(path, run, "events")


def latency(path: str, run: str | None = None) -> pd.DataFrame:
    """Per processed frame: capture-to-result latency, from arrival to the end of its last stage."""
    fr = frames(path, run)
    t = timings(path, run)
    if t.empty:
        return pd.DataFrame(columns=["index", "pts_ns", "arrival_ns", "done_ns", "latency_ms"])
    done = t.groupby("frame")["end_ns"].max().rename("done_ns")
    df = fr[~fr["dropped"]].merge(done, left_on="index", right_index=True)
    df["latency_ms"] = (df["done_ns"] - df["arrival_ns"]) / 1e6
    return df


def stage_summary(path: str, run: str | None = None) -> pd.DataFrame:
    """Per stage what `framelab report` prints: frames, p50/p95/p99/max ms, mean fps and
    the share of frames over each budget (columns over_24, over_30, over_60)."""
    t = timings(path, run)
    names = stage_names(path, run)
    rows = []
    for i, name in enumerate(names):
        ms = t.loc[t["stage"] == i, "duration_ms"].to_numpy()
        row = {"stage": name, "frames": len(ms)}
        if len(ms):
            p50, p95, p99 = np.percentile(ms, [50, 95, 99])
            row.update(p50_ms=p50, p95_ms=p95, p99_ms=p99, max_ms=ms.max(), mean_fps=1000 / ms.mean())
        for fps, budget in BUDGETS_MS.items():
            row[f"over_{fps}"] = float((ms > budget).mean()) if len(ms) else 0.0
        rows.append(row)
    return pd.DataFrame(rows)


# --- Run kinds --------------------------------------------------------------------------

def runs_of_kind(path: str, kind: str) -> list[str]:
    """Ids of runs whose `kind` attribute is `kind` ("bench filters", "eval"); pipeline runs
    have no `kind`, and `kind=""` selects them."""
    out = []
    for run in run_ids(path):
        if attributes(path, run).get("kind", "") == kind:
            out.append(run)
    return out


# --- Benchmark runs (framelab bench filters) ---------------------------------------------

def bench_results(path: str, run: str | None = None) -> pd.DataFrame:
    """One row per measured case of a `bench filters` run: filter, path, size, threads,
    min_ms, median_ms, runs and the ratios vs_memcpy, vs_opencv, vs_scalar (NaN where absent).
    Also width, height and pixels, parsed from size. The newest bench run when `run` is None."""
    if run is None:
        benches = runs_of_kind(path, "bench filters")
        if not benches:
            raise ValueError(f"{path}: holds no 'bench filters' run")
        run = benches[-1]
    report = json.loads(attributes(path, run)["bench_json"])
    df = pd.DataFrame(report["results"])
    for column in ("vs_memcpy", "vs_opencv", "vs_scalar"):
        if column not in df:
            df[column] = np.nan
    size = df["size"].str.split("x", expand=True).astype(int)
    df["width"], df["height"] = size[0], size[1]
    df["pixels"] = df["width"] * df["height"]
    df["memcpy_ms"] = df["size"].map(report.get("memcpy_ms_by_size", {}))
    return df


def bench_repetitions(path: str, run: str) -> pd.DataFrame:
    """Every timed repetition of a bench run: case columns (filter, path, size, threads) and ms."""
    t = timings(path, run)
    parts = t["stage_name"].str.split("|", expand=True)
    t["filter"], t["path"], t["size"], t["threads"] = parts[0], parts[1], parts[2], parts[3].astype(int)
    return t


# --- Detection tables (framelab eval, framelab run --detector) ---------------------------

def matrix_table(path: str, run: str | None, name: str) -> pd.DataFrame:
    """A 2-D float64 detection table, its columns named by its `columns` attribute."""
    run = _resolve(path, run)
    with open_file(path) as f:
        group = f["runs"][run]
        if name not in group:
            raise KeyError(f"{path}: run {run!r} has no table {name!r}")
        dataset = group[name]
        columns = [_text(c) for c in dataset.attrs["columns"]]
        data = dataset[()]
    return pd.DataFrame(data.reshape(-1, len(columns)), columns=columns)


def _with_detector_names(df: pd.DataFrame, path: str, run: str | None) -> pd.DataFrame:
    names = stage_names(path, run)
    if "detector" in df:
        df["detector_name"] = [names[int(d)] if 0 <= d < len(names) else f"stage {int(d)}" for d in df["detector"]]
    return df


def detector_metrics(path: str, run: str | None = None) -> pd.DataFrame:
    """Per detector: ap, precision, recall, f1, p50_ms, p95_ms, images, faces, … (eval runs)."""
    return _with_detector_names(matrix_table(path, run, "detector_metrics"), path, run)


def detections(path: str, run: str | None = None) -> pd.DataFrame:
    """Every detection: frame, detector, box, score, eye/mouth points, outcome, matched face, iou."""
    return _with_detector_names(matrix_table(path, run, "detections"), path, run)


def ground_truth(path: str, run: str | None = None) -> pd.DataFrame:
    """Every annotated face: frame, face, box, ignore."""
    return matrix_table(path, run, "ground_truth")


def frame_matches(path: str, run: str | None = None) -> pd.DataFrame:
    """Per image and detector: faces, true_positives, false_positives, misses, duration_ms, failed."""
    return _with_detector_names(matrix_table(path, run, "frame_matches"), path, run)


#: Curve kinds in the `curves` table.
CURVES = {0: "precision-recall", 1: "fddb-discrete-roc", 2: "fddb-continuous-roc"}


def curves(path: str, run: str | None = None) -> pd.DataFrame:
    """Curve points per detector: curve (0 PR, 1 FDDB discrete ROC, 2 continuous), threshold, x, y,
    with `curve_name` added."""
    df = _with_detector_names(matrix_table(path, run, "curves"), path, run)
    df["curve_name"] = df["curve"].astype(int).map(CURVES)
    return df


def image_paths(path: str, run: str | None = None) -> list[str]:
    """The dataset image of each frame of an eval run (attribute `image_paths`), in frame order."""
    paths = attributes(path, run).get("image_paths", [])
    return [paths] if isinstance(paths, str) else list(paths)


# --- Sharded evaluations (framelab eval --shard, framelab merge; docs/scale-out.md) ---------

#: Columns that measure time, which differ between any two runs of the same evaluation.
TIMING_COLUMNS = {"frame_matches": ["duration_ms"], "detector_metrics": ["p50_ms", "p95_ms"]}

#: Attributes two runs of the same evaluation share (run context and timings aside).
EVAL_ATTRIBUTES = ["kind", "dataset", "detectors", "stage_names", "match_iou", "image_paths",
                   "dataset_fingerprint", "detector_configs", "dataset_images"]


def compare_eval_runs(path_a: str, run_a: str | None, path_b: str, run_b: str | None) -> list[str]:
    """Differences between two eval runs other than timings: per-frame records (frames,
    failures, which stages were timed), every detection with its match, ground truth,
    per-frame counts, curves and metrics must be equal (exactly; NaN equals NaN). An empty
    list means a merged sharded run equals a single-process run."""
    diffs = []
    attrs_a, attrs_b = attributes(path_a, run_a), attributes(path_b, run_b)
    for key in EVAL_ATTRIBUTES:
        if attrs_a.get(key) != attrs_b.get(key):
            diffs.append(f"attribute {key}: {attrs_a.get(key)!r} != {attrs_b.get(key)!r}")
    fa, fb = frames(path_a, run_a), frames(path_b, run_b)
    if list(fa["index"]) != list(fb["index"]) or list(fa["failed"]) != list(fb["failed"]):
        diffs.append(f"frames differ: {len(fa)} vs {len(fb)} rows")
    key = ["frame", "stage"]
    ta, tb = (timings(p, r)[key].sort_values(key).to_numpy() for p, r in ((path_a, run_a), (path_b, run_b)))
    if not np.array_equal(ta, tb):
        diffs.append("timed (frame, stage) pairs differ")
    fa, fb = (failures(p, r)[["frame", "stage", "reason"]].sort_values(key).values.tolist()
              for p, r in ((path_a, run_a), (path_b, run_b)))
    if fa != fb:
        diffs.append(f"failures differ: {fa} vs {fb}")
    for name in ["detections", "ground_truth", "frame_matches", "curves", "detector_metrics"]:
        a, b = matrix_table(path_a, run_a, name), matrix_table(path_b, run_b, name)
        a = a.drop(columns=TIMING_COLUMNS.get(name, []))
        b = b.drop(columns=TIMING_COLUMNS.get(name, []))
        if list(a.columns) != list(b.columns) or a.shape != b.shape:
            diffs.append(f"{name}: shape {a.shape} vs {b.shape}")
        elif not np.array_equal(a.to_numpy(), b.to_numpy(), equal_nan=True):
            rows = np.where(~((a.to_numpy() == b.to_numpy()) | (np.isnan(a.to_numpy()) & np.isnan(b.to_numpy()))).all(axis=1))[0]
            diffs.append(f"{name}: {len(rows)} rows differ, first {int(rows[0])}: "
                         f"{a.iloc[rows[0]].to_dict()} vs {b.iloc[rows[0]].to_dict()}")
    return diffs
