"""`framelab eval --protocol wider` end to end: the CLI records WIDER scores that the
independent numpy reference (wider_reference.py) recomputes from the recorded detections
and the kit's .mat files; framelab_h5 reads protocol_scores, and older files still read."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import ROOT, framelab

sys.path.insert(0, str(Path(__file__).resolve().parent))
import framelab_h5 as fl  # noqa: E402
import wider_reference  # noqa: E402

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="module")
def wider_run(tmp_path_factory):
    """Eight copies of the sample astronaut in a kit-format set (its face kept by every subset,
    random extra faces), evaluated with --protocol wider."""
    tmp = tmp_path_factory.mktemp("wider")
    subprocess.run([sys.executable, str(Path(__file__).resolve().parent / "wider_kit.py"), "synth", str(tmp),
                    "--images", "8", "--seed", "4", "--photo", str(ROOT / "Datasets/sample/images/astronaut.png"),
                    "--face", "180,70,90,100"], check=True)
    h5 = tmp / "wider.h5"
    out = framelab("eval", "--dataset", f"wider:{tmp / 'ground_truth'}", "--detector", "cascade:accuracy=low",
                   "--detector", "opencv-haar:scale=1.3", "--protocol", "wider", "--out", str(h5),
                   "--run-id", "w", "--json", "--quiet")
    return tmp, h5, json.loads(out.stdout)


def test_protocol_scores_match_the_json_and_the_numpy_reference(wider_run):
    tmp, h5, printed = wider_run
    scores = fl.protocol_scores(str(h5), "w")
    assert list(scores["protocol_name"].unique()) == ["wider"]
    assert sorted(scores["metric"].unique()) == ["ap_easy", "ap_hard", "ap_medium"]
    names, boxes, keep = wider_reference.load_ground_truth(str(tmp / "ground_truth"))
    detections = fl.detections(str(h5), "w")
    curves = fl.curves(str(h5), "w")
    for k, detector in enumerate(printed["detectors"]):
        mine = detections[detections["detector"] == k].sort_values(["frame", "index"])
        preds = [mine[mine["frame"] == i][["x", "y", "width", "height", "score"]].to_numpy(dtype=float).reshape(-1, 5)
                 for i in range(len(names))]
        reference = wider_reference.evaluate(boxes, keep, preds)
        rows = scores[scores["detector"] == k].set_index("metric")["value"]
        for setting in ("easy", "medium", "hard"):
            assert abs(rows[f"ap_{setting}"] - reference[f"ap_{setting}"]) < 1e-9
            assert detector["protocols"]["wider"]["metrics"][f"ap_{setting}"] == rows[f"ap_{setting}"]
            points = curves[(curves["detector"] == k) & (curves["curve_name"] == f"wider-{setting}")]
            assert len(points) == 1000
            expected = np.array(reference["curves"][setting], dtype=float)
            np.testing.assert_allclose(points[["threshold", "x", "y"]].to_numpy(), expected, atol=1e-9, equal_nan=True)
        assert rows["ap_easy"] > 0.3  # the astronaut's face is found in every image


def test_wider_subsets_are_recorded_per_face(wider_run):
    tmp, h5, _ = wider_run
    subsets = fl.wider_subsets(str(h5), "w")
    truth = fl.ground_truth(str(h5), "w")
    assert len(subsets) == len(truth) > 8
    names, boxes, keep = wider_reference.load_ground_truth(str(tmp / "ground_truth"))
    for setting in ("easy", "medium", "hard"):
        recorded = sorted(zip(subsets.loc[subsets[setting] == 1, "frame"], subsets.loc[subsets[setting] == 1, "face"]))
        assert recorded == sorted((i, int(k) - 1) for i, kept in enumerate(keep[setting]) for k in kept)


def test_runs_without_protocol_scores_read_as_empty(runs_file):
    old = FIXTURES / "schema1.h5"
    for path in (str(old), str(runs_file)):
        evals = fl.runs_of_kind(path, "eval")
        assert evals
        for run in evals:
            scores = fl.protocol_scores(path, run)
            assert scores.empty
            assert {"detector", "protocol", "metric", "value", "detector_name", "protocol_name"} <= set(scores.columns)
            assert fl.wider_subsets(path, run).empty
