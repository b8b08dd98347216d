"""Read Framelab's HDF5 runs into pandas DataFrames.

Uses only the documented schema (docs/hdf5-schema.md) through h5py, and reads files of
schema version 1 and 2 alike: every function returns the same columns for both.

    import framelab_h5 as fl
    fl.schema_version("out/demo.h5")            # 1 or 2
    fl.runs("out/demo.h5")                      # one row per run, attributes as columns
    fl.timings("out/demo.h5", "demo-...")       # one row per stage per frame, with stage names
    fl.stage_summary("out/demo.h5")             # what `framelab report` prints, as a DataFrame

What the two versions differ in (docs/hdf5-schema.md, "Version 1 files") is hidden here:

- stage and detector columns keep their integer positions, and `stage_name` /
  `detector_name` come from the column's HDF5 enumeration (2) or `stage_names` (1);
- detection tables have the same columns in both (version 1 stores them as 2-D float64
  matrices): integer columns as integers, `outcome_name` / `curve_name` added, times both in
  ms and ns (`duration_ms` and `duration_ns`, `p50_ms` and `p50_ns`, ...);
- `frames` has `queue_wait_ns` and `latency_ns` in both (derived from `timings` in 1);
- `image_paths` resolves the `images` table against `dataset_root` (2) or reads the
  `image_paths` attribute (1); `bench_repetitions` reads `bench_results` (2) or the bench
  run's per-case stages (1); `attributes` adds the version-2 names `wall_ns` and `workers`
  to version-1 runs.

`table(path, run, name)` reads any dataset of a run as it is stored, including ones added
by later schema versions.
"""
from __future__ import annotations

import json
import os

import h5py
import numpy as np
import pandas as pd

#: Schema versions this reader knows; it refuses files of any other.
SCHEMA_VERSIONS = (1, 2)

#: Frame budgets every report shows: frames per second -> milliseconds per frame.
BUDGETS_MS = {24: 1000 / 24, 30: 1000 / 30, 60: 1000 / 60}

#: The value of `failures.stage` (and the enumeration member) for a source that failed.
SOURCE_STAGE = -1
SOURCE_STAGE_NAME = "(source)"


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


def _file_version(f: h5py.File, path) -> int:
    if "framelab_schema_version" not in f.attrs:
        raise ValueError(f"{path}: not a Framelab file (no framelab_schema_version attribute)")
    version = int(np.asarray(f.attrs["framelab_schema_version"]).reshape(-1)[0])
    if version not in SCHEMA_VERSIONS:
        raise ValueError(f"{path}: schema version {version}, this reader knows "
                         f"{', '.join(map(str, SCHEMA_VERSIONS))} (update Notebooks/framelab_h5.py)")
    return version


def schema_version(path: str) -> int:
    """The file's `framelab_schema_version` (1 or 2); other versions are refused (ValueError)."""
    with open_file(path) as f:
        return _file_version(f, path)


def run_ids(path: str) -> list[str]:
    """Run ids in the order they were recorded."""
    with open_file(path) as f:
        _file_version(f, path)
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
    """One run's attributes (the newest run when `run` is None). Version-1 runs also get the
    version-2 names: `wall_ns` (from `wall_seconds`) and, for eval runs, `workers` (from
    `threads`)."""
    run = _resolve(path, run)
    with open_file(path) as f:
        attrs = {k: _text(v) for k, v in f["runs"][run].attrs.items()}
    if "wall_ns" not in attrs and isinstance(attrs.get("wall_seconds"), (int, float)):
        attrs["wall_ns"] = int(round(attrs["wall_seconds"] * 1e9))
    if attrs.get("kind") == "eval" and "workers" not in attrs and "threads" in attrs:
        attrs["workers"] = attrs["threads"]
    return attrs


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


def _read(path: str, run: str | None, name: str) -> tuple[pd.DataFrame, dict[str, dict[int, str]], int]:
    """A dataset of a run as a DataFrame (strings decoded), the value -> name maps of its
    enumeration members, and the file's schema version. Compound tables give one column per
    member; version-1 2-D matrices one per entry of their `columns` attribute."""
    run = _resolve(path, run)
    with open_file(path) as f:
        version = _file_version(f, path)
        group = f["runs"][run]
        if name not in group:
            raise KeyError(f"{path}: run {run!r} has no dataset {name!r}")
        dataset = group[name]
        data = dataset[()]
        enums = {}
        if dataset.dtype.names:
            for member in dataset.dtype.names:
                mapping = h5py.check_enum_dtype(dataset.dtype[member])
                if mapping:
                    enums[member] = {int(v): k for k, v in mapping.items()}
            df = pd.DataFrame(data)
        elif "columns" in dataset.attrs:
            columns = [_text(c) for c in dataset.attrs["columns"]]
            df = pd.DataFrame(np.asarray(data).reshape(-1, len(columns)), columns=columns)
        else:
            df = pd.DataFrame(data)
    return _decode_columns(df), enums, version


def table(path: str, run: str | None, name: str) -> pd.DataFrame:
    """Any dataset of a run as stored, as a DataFrame (strings decoded; enumerations as their
    integer values; a version-1 2-D detection table with its `columns` attribute as names)."""
    return _read(path, run, name)[0]


def stage_names(path: str, run: str | None = None) -> list[str]:
    """The run's stages in order, as written on the command line (attribute `stage_names`)."""
    names = attributes(path, run).get("stage_names", [])
    return [names] if isinstance(names, str) else list(names)


def unique_stage_names(names: list[str]) -> list[str]:
    """Stage names made unique the way version 2 names its enumeration members: the second
    and later occurrences of a name get " #2", " #3", …"""
    seen, out = set(), []
    for name in names:
        candidate, n = name, 1
        while candidate in seen:
            n += 1
            candidate = f"{name} #{n}"
        seen.add(candidate)
        out.append(candidate)
    return out


def _stage_lookup(path: str, run: str | None, enums: dict, member: str) -> dict[int, str]:
    """Stage value -> name: the column's enumeration (version 2), else the run's stage names
    by position (version 1), with -1 = `(source)`."""
    if member in enums:
        return enums[member]
    lookup = dict(enumerate(unique_stage_names(stage_names(path, run))))
    lookup[SOURCE_STAGE] = SOURCE_STAGE_NAME
    return lookup


def _named(values, lookup: dict[int, str], fallback: str) -> list[str]:
    return [lookup.get(int(v), f"{fallback} {int(v)}") for v in values]


def _timing_frame(path: str, run: str | None) -> pd.DataFrame:
    df, enums, _ = _read(path, run, "timings")
    df["stage_name"] = _named(df["stage"], _stage_lookup(path, run, enums, "stage"), "stage")
    df["end_ns"] = df["start_ns"] + df["duration_ns"]
    df["duration_ms"] = df["duration_ns"] / 1e6
    return df


def frames(path: str, run: str | None = None) -> pd.DataFrame:
    """One row per frame: index, pts_ns, arrival_ns, dropped, failed (as booleans),
    queue_wait_ns and latency_ns (-1 = not processed; version 1: derived from `timings`,
    arrival to the first stage's start and to the last stage's end)."""
    df, _, version = _read(path, run, "frames")
    for flag in ("dropped", "failed"):
        if flag in df:
            df[flag] = df[flag].astype(bool)
    if "latency_ns" not in df or "queue_wait_ns" not in df:
        t = _timing_frame(path, run)
        first = t.groupby("frame")["start_ns"].min().astype("Int64")
        done = t.groupby("frame")["end_ns"].max().astype("Int64")
        processed = ~df["dropped"] if "dropped" in df else True
        for column, instant in (("queue_wait_ns", first), ("latency_ns", done)):
            if column not in df:
                since = instant.reindex(df["index"]).reset_index(drop=True) - df["arrival_ns"].astype("Int64")
                df[column] = since.where(processed & since.notna(), -1).astype(np.int64)
    return df


def timings(path: str, run: str | None = None) -> pd.DataFrame:
    """One row per stage per frame (frame, stage, start_ns, duration_ns), with `stage_name`,
    `end_ns` and `duration_ms` added. `stage` is the stage's position in the pipeline."""
    return _timing_frame(path, run)


def failures(path: str, run: str | None = None) -> pd.DataFrame:
    """Failed frames: frame, stage (-1 = the source) and reason, with `stage_name` added
    (`(source)` for -1)."""
    df, enums, _ = _read(path, run, "failures")
    df["stage_name"] = _named(df["stage"], _stage_lookup(path, run, enums, "stage"), "stage")
    return df


def events(path: str, run: str | None = None) -> pd.DataFrame:
    """Run events (device switches, …): frame, time_ns, kind, detail."""
    return table(path, run, "events")


ELEMENT_COLUMNS = ["stage", "kind", "element", "params", "origin", "version", "plugin_path",
                   "plugin_sha256", "model_path", "model_sha256", "model_licence", "stage_name"]


def elements(path: str, run: str | None = None) -> pd.DataFrame:
    """What ran, per stage (version 2's `elements` table, with `stage_name`); version-1 runs
    have no such table and give an empty DataFrame with the same columns."""
    run = _resolve(path, run)
    with open_file(path) as f:
        present = "elements" in f["runs"][run]
    if not present:
        return pd.DataFrame(columns=ELEMENT_COLUMNS)
    df, enums, _ = _read(path, run, "elements")
    df["stage_name"] = _named(df["stage"], _stage_lookup(path, run, enums, "stage"), "stage")
    return df


def latency(path: str, run: str | None = None) -> pd.DataFrame:
    """Per processed frame: capture-to-result latency, from arrival to the end of its last
    stage — the frame's columns plus done_ns and latency_ms. Version 2 records `latency_ns`;
    version 1 derives it from `timings`."""
    fr = frames(path, run)
    df = fr[~fr["dropped"] & (fr["latency_ns"] >= 0)].copy()
    df["done_ns"] = df["arrival_ns"] + df["latency_ns"]
    df["latency_ms"] = df["latency_ns"] / 1e6
    return df.reset_index(drop=True)


#: The columns of stage_summary (also when the run has no stages: a version-2 bench run).
SUMMARY_COLUMNS = ["stage", "frames", "p50_ms", "p95_ms", "p99_ms", "max_ms", "capacity_fps",
                   *(f"over_{fps}" for fps in BUDGETS_MS)]


def stage_summary(path: str, run: str | None = None) -> pd.DataFrame:
    """Per stage what `framelab report` prints: frames, p50/p95/p99/max ms, capacity fps
    (1000 / mean ms: what the stage alone could sustain, not the run's rate) and the share of frames over each budget (columns over_24, over_30, over_60); NaN for a
    stage that timed no frame. Version-2 bench runs have no stages (their repetitions are
    in bench_repetitions)."""
    t = timings(path, run)
    names = stage_names(path, run)
    rows = []
    for i, name in enumerate(names):
        ms = t.loc[t["stage"] == i, "duration_ms"].to_numpy()
        row = {"stage": name, "frames": len(ms)}
        if len(ms):
            p50, p95, p99 = np.percentile(ms, [50, 95, 99])
            row.update(p50_ms=p50, p95_ms=p95, p99_ms=p99, max_ms=ms.max(), capacity_fps=1000 / ms.mean())
        for fps, budget in BUDGETS_MS.items():
            row[f"over_{fps}"] = float((ms > budget).mean()) if len(ms) else 0.0
        rows.append(row)
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


# --- Run kinds --------------------------------------------------------------------------

#: The `kind` of pipeline runs (`framelab run`) in version 2; version-1 pipeline runs have none.
PIPELINE_KIND = "run"


def runs_of_kind(path: str, kind: str) -> list[str]:
    """Ids of runs whose `kind` attribute is `kind` ("bench filters", "eval"). `kind="run"`
    and `kind=""` both select pipeline runs (`kind` "run" in version 2, no `kind` in 1)."""
    pipeline = kind in ("", PIPELINE_KIND)
    out = []
    for run in run_ids(path):
        value = attributes(path, run).get("kind", "")
        if value == kind or (pipeline and value in ("", PIPELINE_KIND)):
            out.append(run)
    return out


# --- Benchmark runs (framelab bench filters) ---------------------------------------------

def _newest_bench(path: str, run: str | None) -> str:
    if run is not None:
        return run
    benches = runs_of_kind(path, "bench filters")
    if not benches:
        raise ValueError(f"{path}: holds no 'bench filters' run")
    return benches[-1]


def bench_results(path: str, run: str | None = None) -> pd.DataFrame:
    """One row per measured case of a `bench filters` run: filter, path, size, threads,
    min_ms, median_ms, runs and the ratios vs_memcpy, vs_opencv, vs_scalar (NaN where absent).
    Also width, height and pixels, parsed from size, and memcpy_ms (memcpy at that size).
    The newest bench run when `run` is None. Read from the `bench_json` attribute."""
    run = _newest_bench(path, run)
    report = json.loads(attributes(path, run)["bench_json"])
    df = pd.DataFrame(report["results"])
    for column in ("vs_memcpy", "vs_opencv", "vs_scalar"):
        if column not in df:
            df[column] = np.nan
    size = df["size"].str.split("x", expand=True).astype(int)
    df["width"], df["height"] = size[0], size[1]
    df["pixels"] = df["width"] * df["height"]
    memcpy = report.get("memcpy_ms_by_size")
    if not memcpy:
        reps = bench_repetitions(path, run)
        memcpy = reps[reps["filter"] == "memcpy"].groupby("size")["duration_ms"].min().to_dict()
    df["memcpy_ms"] = df["size"].map(memcpy)
    return df


BENCH_COLUMNS = ["filter", "path", "size", "width", "height", "threads", "isa", "repetition",
                 "duration_ns", "duration_ms", "stage_name"]


def bench_repetitions(path: str, run: str | None = None) -> pd.DataFrame:
    """Every timed repetition of a bench run (warm-up excluded): filter, path, size ("WxH"),
    width, height, threads, isa, repetition, duration_ns, duration_ms, and stage_name, the
    case as "FILTER|PATH|WxH|THREADS". Version 2 reads `bench_results` (with `memcpy` rows);
    version 1 the run's per-case stages (isa "unknown", repetition = the timing's frame)."""
    run = _newest_bench(path, run)
    with open_file(path) as f:
        has_table = "bench_results" in f["runs"][run]
    if has_table:
        df = table(path, run, "bench_results")
        for column in ("width", "height", "threads", "repetition", "duration_ns"):
            df[column] = df[column].astype(np.int64)
        df["size"] = df["width"].astype(str) + "x" + df["height"].astype(str)
    else:
        t = timings(path, run)
        parts = t["stage_name"].str.split("|", expand=True).reindex(columns=range(4))
        size = parts[2].str.split("x", expand=True).reindex(columns=range(2))
        df = pd.DataFrame({
            "filter": parts[0], "path": parts[1], "size": parts[2], "width": size[0].astype(np.int64),
            "height": size[1].astype(np.int64), "threads": parts[3].astype(np.int64), "isa": "unknown",
            "repetition": t["frame"].astype(np.int64), "duration_ns": t["duration_ns"]})
    df["duration_ms"] = df["duration_ns"] / 1e6
    df["stage_name"] = (df["filter"] + "|" + df["path"] + "|" + df["size"] + "|" + df["threads"].astype(str))
    return df[BENCH_COLUMNS + [c for c in df.columns if c not in BENCH_COLUMNS]]


# --- Detection tables (framelab eval, framelab run --detector) ---------------------------

#: Detection outcomes (`detections.outcome`): value -> name, as version 2's enumeration names them.
OUTCOMES = {1: "true_positive", 0: "false_positive", 2: "ignored", -1: "unmatched"}

#: Curve kinds in the `curves` table (`curve_name`); version 2's enumeration calls them
#: precision_recall, roc_discrete, roc_continuous, and for `eval --protocol` wider_easy,
#: wider_medium, wider_hard, wider_all (x recall, y precision), fddb_discrete, fddb_continuous.
CURVES = {0: "precision-recall", 1: "fddb-discrete-roc", 2: "fddb-continuous-roc",
          3: "wider-easy", 4: "wider-medium", 5: "wider-hard", 6: "wider-all",
          7: "fddb-protocol-discrete", 8: "fddb-protocol-continuous"}

#: Codes of `protocol_scores.protocol` (an enumeration in the file).
PROTOCOLS = {0: "framelab", 1: "wider", 2: "fddb"}

#: Columns holding whole numbers in each detection table (integers in version 2, float64 in 1).
INTEGER_COLUMNS = {
    "detections": ["frame", "detector", "index", "outcome", "face"],
    "ground_truth": ["frame", "face", "ignore"],
    "frame_matches": ["frame", "detector", "faces", "true_positives", "false_positives", "misses", "failed"],
    "curves": ["detector", "curve"],
    "detector_metrics": ["detector", "images", "faces", "failed", "true_positives", "false_positives"],
    "images": ["frame"],
}

#: Times given both ways: (milliseconds column, nanoseconds column) per table.
TIME_PAIRS = {"frame_matches": [("duration_ms", "duration_ns")],
              "detector_metrics": [("p50_ms", "p50_ns"), ("p95_ms", "p95_ns")]}


def _as_int(series: pd.Series) -> pd.Series:
    if series.dtype.kind in "iu":
        return series.astype(np.int64)
    if series.isna().any():
        return series
    return series.astype(np.int64)


def _ns_from_ms(ms: pd.Series) -> pd.Series:
    ns = np.rint(ms.to_numpy(dtype=float) * 1e6)
    return pd.Series(ns if np.isnan(ns).any() else ns.astype(np.int64), index=ms.index)


def detection_table(path: str, run: str | None, name: str) -> pd.DataFrame:
    """A detection table (`detections`, `ground_truth`, `frame_matches`, `curves`,
    `detector_metrics`, `images`) with the same columns in both versions: integer columns as
    integers, both ms and ns times, and `detector_name`, `outcome_name`, `curve_name` where
    the table has `detector`, `outcome`, `curve`."""
    df, enums, _ = _read(path, run, name)
    for column in INTEGER_COLUMNS.get(name, []):
        if column in df:
            df[column] = _as_int(df[column])
    for ms, ns in TIME_PAIRS.get(name, []):
        if ms in df and ns not in df:
            df.insert(df.columns.get_loc(ms) + 1, ns, _ns_from_ms(df[ms]))
        elif ns in df and ms not in df:
            # -1 ns means no time (saved predictions, docs/predictions.md): NaN ms, not -0.000001.
            df.insert(df.columns.get_loc(ns), ms, df[ns].where(df[ns] >= 0) / 1e6)
    if "detector" in df:
        df["detector_name"] = _named(df["detector"], _stage_lookup(path, run, enums, "detector"), "stage")
    if "outcome" in df:
        df["outcome_name"] = _named(df["outcome"], {**OUTCOMES, **enums.get("outcome", {})}, "outcome")
    if "curve" in df:
        df["curve_name"] = _named(df["curve"], CURVES, "curve")
    return df


def matrix_table(path: str, run: str | None, name: str) -> pd.DataFrame:
    """A detection table as stored: a version-1 2-D float64 table with its columns named by
    its `columns` attribute, or a version-2 compound table (enumerations as integers)."""
    return table(path, run, name)


def detector_metrics(path: str, run: str | None = None) -> pd.DataFrame:
    """Per detector: ap, precision, recall, f1, p50_ms, p50_ns, p95_ms, p95_ns, images, faces,
    failed, true_positives, false_positives, detector_name (eval runs)."""
    return detection_table(path, run, "detector_metrics")


def detections(path: str, run: str | None = None) -> pd.DataFrame:
    """Every detection: frame, detector, index, box, score, eye/mouth points (NaN where
    none), outcome (1 true positive, 0 false positive, 2 ignored, -1 unmatched), matched face
    (-1 none), iou, detector_name, outcome_name."""
    return detection_table(path, run, "detections")


def ground_truth(path: str, run: str | None = None) -> pd.DataFrame:
    """Every annotated face: frame, face, box, ignore (0/1)."""
    return detection_table(path, run, "ground_truth")


def frame_matches(path: str, run: str | None = None) -> pd.DataFrame:
    """Per image and detector: faces, true_positives, false_positives, misses, duration_ms,
    duration_ns, failed, detector_name."""
    return detection_table(path, run, "frame_matches")


def curves(path: str, run: str | None = None) -> pd.DataFrame:
    """Curve points per detector: curve (0 PR, 1 FDDB discrete ROC, 2 continuous), threshold,
    x, y, with `detector_name` and `curve_name` (values of CURVES) added."""
    return detection_table(path, run, "curves")


def _optional_table(path: str, run: str | None, name: str, columns: list[str]) -> tuple[pd.DataFrame, dict]:
    """A table added after the first version-2 files, or empty with `columns` where the run has none."""
    run = _resolve(path, run)
    with open_file(path) as f:
        present = name in f["runs"][run]
    if not present:
        return pd.DataFrame({c: pd.Series(dtype=float if c == "value" else np.int64) for c in columns}), {}
    df, enums, _ = _read(path, run, name)
    return df, enums


def protocol_scores(path: str, run: str | None = None) -> pd.DataFrame:
    """Official protocol scores of an eval run (`framelab eval --protocol wider`): one row per
    detector, protocol and metric (`ap_easy`, `ap_medium`, `ap_hard`, or `ap_all`; NaN where
    the protocol leaves it undefined), with `detector_name` and `protocol_name`. Their
    curves are in `curves` (curve_name wider-easy, ...). Empty, with the same columns, for
    runs without them (older files, version 1, runs scored with framelab's protocol only)."""
    df, enums = _optional_table(path, run, "protocol_scores", ["detector", "protocol", "metric", "value"])
    df["detector"] = _as_int(df["detector"])
    df["protocol"] = _as_int(df["protocol"])
    df["detector_name"] = _named(df["detector"], _stage_lookup(path, run, enums, "detector"), "stage")
    df["protocol_name"] = _named(df["protocol"], {**PROTOCOLS, **enums.get("protocol", {})}, "protocol")
    return df


def wider_subsets(path: str, run: str | None = None) -> pd.DataFrame:
    """Which WIDER subsets keep each annotated face (ground truth from the WIDER kit's .mat
    files): frame, face, easy, medium, hard (0/1). Empty for other ground truth and older files."""
    return _optional_table(path, run, "wider_subsets", ["frame", "face", "easy", "medium", "hard"])[0]


def image_paths(path: str, run: str | None = None) -> list[str]:
    """The dataset image of each frame of an eval run, as absolute paths in frame order
    (entry i is frame i; "" for a frame the run does not list). Version 2: the `images`
    table, its paths relative to the attribute `dataset_root`; version 1: the attribute
    `image_paths`. Empty when the run records no images."""
    run = _resolve(path, run)
    with open_file(path) as f:
        has_table = "images" in f["runs"][run]
    attrs = attributes(path, run)
    if not has_table:
        paths = attrs.get("image_paths", [])
        return [paths] if isinstance(paths, str) else list(paths)
    images = table(path, run, "images")
    if images.empty:
        return []
    root = attrs.get("dataset_root", "")
    out = [""] * (int(images["frame"].max()) + 1)
    for frame, relative in zip(images["frame"], images["path"]):
        out[int(frame)] = os.path.normpath(os.path.join(root, relative)) if relative else ""
    return out


# --- Sharded evaluations (framelab eval --shard, framelab merge; docs/scale-out.md) ---------

#: Members that measure time, which differ between any two runs of the same evaluation.
TIMING_COLUMNS = {"frame_matches": ["duration_ms", "duration_ns"],
                  "detector_metrics": ["p50_ms", "p95_ms", "p50_ns", "p95_ns"]}

#: Attributes two runs of the same evaluation share (run context and timings aside). The
#: images are compared as resolved paths (`image_paths`), which works for both versions.
EVAL_ATTRIBUTES = ["kind", "dataset", "detectors", "stage_names", "match_iou",
                   "dataset_fingerprint", "detector_configs", "dataset_images"]

#: The tables compare_eval_runs compares member by member.
EVAL_TABLES = ["detections", "ground_truth", "frame_matches", "curves", "detector_metrics"]


def _same(a: pd.Series, b: pd.Series) -> np.ndarray:
    """Element-wise equality, NaN equal to NaN."""
    x, y = a.to_numpy(), b.to_numpy()
    equal = np.asarray(x == y, dtype=bool)
    if x.dtype.kind == "f" or y.dtype.kind == "f":
        equal |= pd.isna(a).to_numpy() & pd.isna(b).to_numpy()
    return equal


def compare_eval_runs(path_a: str, run_a: str | None, path_b: str, run_b: str | None) -> list[str]:
    """Differences between two eval runs other than timings: per-frame records (frames,
    failures, which stages were timed), the images, every detection with its match, ground
    truth, per-frame counts, curves and metrics must be equal (exactly; NaN equals NaN),
    member by member (timing members dropped). An empty list means a merged sharded run
    equals a single-process run. Both runs may be of either schema version."""
    diffs = []
    attrs_a, attrs_b = attributes(path_a, run_a), attributes(path_b, run_b)
    for key in EVAL_ATTRIBUTES:
        if attrs_a.get(key) != attrs_b.get(key):
            diffs.append(f"attribute {key}: {attrs_a.get(key)!r} != {attrs_b.get(key)!r}")
    ia, ib = image_paths(path_a, run_a), image_paths(path_b, run_b)
    if ia != ib:
        diffs.append(f"images differ: {len(ia)} vs {len(ib)} paths, "
                     f"first different: {next(((x, y) for x, y in zip(ia, ib) if x != y), None)}")
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
    for name, read in (("protocol_scores", protocol_scores), ("wider_subsets", wider_subsets)):
        a, b = read(path_a, run_a), read(path_b, run_b)
        if (len(a) or len(b)) and not (a.shape == b.shape and all(_same(a[c], b[c]).all() for c in a.columns)):
            diffs.append(f"{name}: {a.to_dict('records')[:3]} vs {b.to_dict('records')[:3]}")
    for name in EVAL_TABLES:
        a, b = table(path_a, run_a, name), table(path_b, run_b, name)
        a = a.drop(columns=[c for c in TIMING_COLUMNS.get(name, []) if c in a])
        b = b.drop(columns=[c for c in TIMING_COLUMNS.get(name, []) if c in b])
        if list(a.columns) != list(b.columns) or a.shape != b.shape:
            diffs.append(f"{name}: columns {list(a.columns)} shape {a.shape} vs "
                         f"columns {list(b.columns)} shape {b.shape}")
            continue
        same = np.ones(len(a), dtype=bool)
        for column in a.columns:
            same &= _same(a[column], b[column])
        rows = np.where(~same)[0]
        if len(rows):
            diffs.append(f"{name}: {len(rows)} rows differ, first {int(rows[0])}: "
                         f"{a.iloc[rows[0]].to_dict()} vs {b.iloc[rows[0]].to_dict()}")
    return diffs
