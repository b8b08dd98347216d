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
