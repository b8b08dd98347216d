"""One run of a Framelab HDF5 file as one typed object: `read_run(path, run)`.

    from framelab_run import read_run
    run = read_run("out/demo.h5")          # the newest run; read_run(path, "demo-1") for another
    run.kind, run.status                   # "run", "complete"
    run.frames                             # one DataFrame per table, read when first used
    run.timings.groupby("stage_name")["duration_ns"].median()

Each table property returns what the function of the same name in `framelab_h5` returns
(the same columns for schema versions 1 and 2), read once and kept; a table the run does
not have (detections of a pipeline run, bench results of an eval) is an empty DataFrame.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable

import pandas as pd

import framelab_h5 as fl


@dataclass(frozen=True)
class Run:
    """A run of a recording file; tables are read on first use."""

    path: str
    id: str
    attributes: dict[str, Any] = field(repr=False)

    @property
    def kind(self) -> str:
        """"run" (a pipeline run), "eval", "bench filters", "bench detectors", "merged", …"""
        return str(self.attributes.get("kind", fl.PIPELINE_KIND) or fl.PIPELINE_KIND)

    @property
    def status(self) -> str:
        """"completed", "running", "interrupted", "failed: …"."""
        return str(self.attributes.get("status", ""))

    def _table(self, read: Callable[[str, str], pd.DataFrame]) -> pd.DataFrame:
        try:
            return read(self.path, self.id)
        except (KeyError, ValueError):  # the run has no such table
            return pd.DataFrame()

    # cached_property needs a writable __dict__: a frozen dataclass still has one.
    @cached_property
    def frames(self) -> pd.DataFrame:
        return self._table(fl.frames)

    @cached_property
    def timings(self) -> pd.DataFrame:
        return self._table(fl.timings)

    @cached_property
    def failures(self) -> pd.DataFrame:
        return self._table(fl.failures)

    @cached_property
    def events(self) -> pd.DataFrame:
        return self._table(fl.events)

    @cached_property
    def elements(self) -> pd.DataFrame:
        return self._table(fl.elements)

    @cached_property
    def stage_summary(self) -> pd.DataFrame:
        return self._table(fl.stage_summary)

    @cached_property
    def detections(self) -> pd.DataFrame:
        return self._table(fl.detections)

    @cached_property
    def ground_truth(self) -> pd.DataFrame:
        return self._table(fl.ground_truth)

    @cached_property
    def frame_matches(self) -> pd.DataFrame:
        return self._table(fl.frame_matches)

    @cached_property
    def curves(self) -> pd.DataFrame:
        return self._table(fl.curves)

    @cached_property
    def detector_metrics(self) -> pd.DataFrame:
        return self._table(fl.detector_metrics)

    @cached_property
    def protocol_scores(self) -> pd.DataFrame:
        return self._table(fl.protocol_scores)

    @cached_property
    def wider_subsets(self) -> pd.DataFrame:
        return self._table(fl.wider_subsets)

    @cached_property
    def bench_results(self) -> pd.DataFrame:
        return self._table(fl.bench_results) if self.kind == "bench filters" else pd.DataFrame()

    #: The table properties, in the order `tables()` returns them.
    TABLES = ("frames", "timings", "failures", "events", "elements", "stage_summary", "detections",
              "ground_truth", "frame_matches", "curves", "detector_metrics", "protocol_scores",
              "wider_subsets", "bench_results")

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every table that is not empty, by name."""
        return {name: df for name in self.TABLES if not (df := getattr(self, name)).empty}


def read_run(path: str, run: str | None = None) -> Run:
    """The run `run` of the file at `path` (the newest when None). Raises KeyError naming the
    runs there for an unknown id, ValueError for a file without runs or of an unknown schema."""
    run_id = fl._resolve(path, run)
    return Run(path=str(path), id=run_id, attributes=fl.attributes(path, run_id))


def read_runs(path: str) -> list[Run]:
    """Every run of the file, oldest first."""
    return [read_run(path, run_id) for run_id in fl.run_ids(path)]
