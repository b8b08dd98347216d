"""The HTML reports answer their question: a verdict line computed from the data (checked
against `framelab report --json`), no code unless asked, nothing written to standard error,
identical curves named, and bootstrap intervals that hold the estimate and narrow with
more images. The notebooks run on files the CLI wrote (conftest.py)."""
import html
import json

import numpy as np
import pytest

import framelab_h5 as fl
import framelab_report as fr
import run_notebooks
from conftest import ROOT, framelab


def _report_json(path, run):
    return json.loads(framelab("report", str(path), "--run", run, "--json").stdout)["runs"][0]


def _text(nb) -> str:
    """Every text output of an executed notebook (streams, plain text, HTML)."""
    parts = []
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            parts.append(output.get("text", ""))
            parts.extend(str(v) for k, v in output.get("data", {}).items() if k.startswith("text/"))
    return "\n".join(parts)


# --- Verdict lines --------------------------------------------------------------------------

def test_timings_verdict_is_the_newest_pipeline_runs_end_to_end_p95_and_budget(runs_file, executed):
    report = _report_json(runs_file, "folder")
    e2e = report["end_to_end"]
    expected = (f"folder: end-to-end p95 {fr.ms_text(e2e['p95_ms'])} ms, fits {max(report['fits_fps'])} fps; "
                f"{report['failed']} failed of {report['frames']} frames; newest of 3 pipeline runs")
    assert report["failed"] == 1 and report["frames"] == 4
    assert fr.timings_verdict(runs_file) == expected
    nb = executed("timings", runs_file)
    assert run_notebooks.verdict(nb) == expected
    assert html.escape(expected) in run_notebooks.html(nb)


def test_timings_report_shows_pipeline_runs_only(runs_file, executed):
    page = run_notebooks.html(executed("timings", runs_file))
    bench = fl.runs_of_kind(runs_file, "bench filters")[0]
    assert fr.pipeline_runs(runs_file) == ["chain", "dropping", "folder"]
    for run in ("chain", "dropping", "folder"):
        assert f">{run}<" in page
    assert bench not in page and ">eval<" not in page


def test_filters_verdict_names_each_filters_fastest_path_and_budget(runs_file, executed):
    bench = fl.runs_of_kind(runs_file, "bench filters")[0]
    cases = [c for c in _report_json(runs_file, bench)["bench_cases"] if c["threads"] == 1 and c["filter"] != "memcpy"]
    verdict = fr.filters_verdict(runs_file)
    for name in ("gray", "sepia", "chain4"):
        mine = [c for c in cases if c["filter"] == name]
        pixels = max(int(c["size"].split("x")[0]) * int(c["size"].split("x")[1]) for c in mine)
        at = [c for c in mine if int(c["size"].split("x")[0]) * int(c["size"].split("x")[1]) == pixels]
        best = min(at, key=lambda c: c["median_ms"])
        assert f"{name} {best['path']} {fr.ms_text(best['median_ms'])} ms" in verdict, (verdict, best)
    # 160x120 and 320x240 take well under a millisecond on any path.
    assert "all fit 60 fps" in verdict
    assert "(bgra8 frames, one thread, " in verdict, verdict
    assert run_notebooks.verdict(executed("filters", runs_file)) == verdict


def test_filters_verdict_names_the_runs_pixel_format(runs_file, tmp_path):
    """A bgr8 bench run reads as one; a run recorded before `--format` (no attribute) timed
    BGRA frames."""
    import shutil

    import h5py
    bench = fl.runs_of_kind(runs_file, "bench filters")[-1]
    copy = tmp_path / "formats.h5"
    shutil.copy(runs_file, copy)
    assert fl.attributes(copy, bench)["pixel_format"] == "bgra8"
    with h5py.File(copy, "r+") as f:
        f["runs"][bench].attrs["pixel_format"] = "bgr8"
    assert "(bgr8 frames, one thread, " in fr.filters_verdict(copy)
    with h5py.File(copy, "r+") as f:
        del f["runs"][bench].attrs["pixel_format"]
    assert "(bgra8 frames, one thread, " in fr.filters_verdict(copy)


def test_detectors_verdict_names_the_best_ap_with_its_interval_and_the_fastest(faces_file, executed):
    detectors = _report_json(faces_file, "all")["detectors"]
    verdict = fr.detectors_verdict(faces_file)
    best, other = detectors
    assert best["ap"] == other["ap"]   # the same boxes: a tie, the first named
    ci = fr.detector_intervals(faces_file, "all").set_index("detector_name").loc[best["name"]]
    assert verdict.startswith(f"all (30 images, {best['faces']} faces): best AP {best['name']} {best['ap']:.3f} "
                              f"[{ci['ap_low']:.3f}, {ci['ap_high']:.3f}] (tied with {other['name']})"), verdict
    fastest = min(detectors, key=lambda d: d["p50_ms"])
    assert f"fastest {fastest['name']} p50 {fr.ms_text(fastest['p50_ms'])} ms/image" in verdict
    assert run_notebooks.verdict(executed("detectors", faces_file)) == verdict


def test_detectors_verdict_names_the_fastest_that_finds_faces_when_the_fastest_finds_none(tmp_path):
    # A min-size no image reaches: no window is scanned, so it is the fastest, with AP 0.
    h5 = tmp_path / "blind.h5"
    framelab("eval", "--dataset", f"csv:{ROOT / 'Datasets' / 'sample' / 'faces.csv'}", "--detector",
             "opencv-haar:accuracy=low", "--detector", "opencv-haar:min-size=100000", "--limit", "6",
             "--out", str(h5), "--run-id", "blind", "--quiet")
    metrics = fl.detector_metrics(str(h5), "blind").set_index("detector_name")
    blind, seeing = metrics.loc["opencv-haar:min-size=100000"], metrics.loc["opencv-haar:accuracy=low"]
    assert blind["ap"] == 0 and seeing["ap"] > 0 and blind["p50_ms"] < seeing["p50_ms"]
    verdict = fr.detectors_verdict(str(h5))
    assert "fastest opencv-haar:min-size=100000 " in verdict, verdict
    assert (f"fastest with AP > 0 opencv-haar:accuracy=low p50 {fr.ms_text(seeing['p50_ms'])} ms/image"
            in verdict), verdict
    # No "best AP within the budget" that is a detector finding nothing.
    assert "best AP within" not in verdict, verdict


def test_curves_get_twenty_distinct_styles_before_one_repeats():
    styles = [(d["linestyle"], d["color"]) for d in fr.line_cycle()]
    assert len(styles) == 20 and len(set(styles)) == 20


def test_a_file_without_the_reports_runs_says_so(faces_file):
    assert fr.timings_verdict(faces_file).startswith("no pipeline runs in this file")
    assert fr.filters_verdict(faces_file).startswith("no 'bench filters' run in this file")


# --- Code, warnings ---------------------------------------------------------------------------

def test_reports_hide_code_unless_asked(runs_file, executed):
    nb = executed("timings", runs_file)
    hidden, shown = run_notebooks.html(nb), run_notebooks.html(nb, with_code=True)
    for marker in ('class="highlight', "budget_lines", "show_verdict", "SHOWN"):
        assert marker not in hidden and marker in shown, marker
    # The text and the results stay.
    assert "Stage timings against the frame budgets" in hidden and "data:image/png;base64" in hidden


@pytest.mark.parametrize("name", run_notebooks.NOTEBOOKS)
def test_reports_write_nothing_to_standard_error(name, runs_file, faces_file, executed):
    for h5 in (runs_file, faces_file):
        nb = executed(name, h5)
        assert run_notebooks.stderr_outputs(nb) == []
        assert "Warning" not in _text(nb)


# --- Detectors: identical curves, per-image table, intervals ----------------------------------

def test_identical_curves_are_named_and_different_ones_are_not(faces_file, runs_file, executed):
    pairs = fr.identical_curves(faces_file, "all")
    assert pairs == [("opencv-haar:accuracy=low", "opencv-haar:accuracy=low,scale=1.25")]
    mark = "opencv-haar:accuracy=low's curve is identical to opencv-haar:accuracy=low,scale=1.25's and hidden under it"
    assert fr.identical_curves_text(pairs) == mark
    # Haar and LBP cascades find different boxes: nothing is marked.
    assert fr.identical_curves(runs_file, "eval") == []


def test_the_detectors_report_marks_the_hidden_curve(faces_file, executed):
    nb = executed("detectors", faces_file)
    assert "opencv-haar:accuracy=low's curve is identical to opencv-haar:accuracy=low,scale=1.25's and hidden under it" \
        in _text(nb)


def test_per_image_table_counts_match_the_frame_matches(faces_file):
    table = fr.per_image_table(faces_file, "all")
    fm = fl.frame_matches(faces_file, "all")
    assert len(table) == 30
    for name in ("opencv-haar:accuracy=low", "opencv-haar:accuracy=low,scale=1.25"):
        m = fm[fm["detector_name"] == name]
        assert table[(name, "TP")].sum() == m["true_positives"].sum()
        assert table[(name, "FP")].sum() == m["false_positives"].sum()
        assert table[(name, "misses")].sum() == m["misses"].sum()
    assert table[("", "faces")].sum() == fl.detector_metrics(faces_file, "all")["faces"].iloc[0]


def test_bootstrap_intervals_hold_the_estimate_and_narrow_with_more_images(faces_file):
    wide = fr.detector_intervals(faces_file, "few").set_index("detector_name").loc["opencv-haar:accuracy=low"]
    narrow = fr.detector_intervals(faces_file, "all").set_index("detector_name").loc["opencv-haar:accuracy=low"]
    for ci, run in ((wide, "few"), (narrow, "all")):
        recorded = fl.detector_metrics(faces_file, run).set_index("detector_name").loc["opencv-haar:accuracy=low"]
        # The point estimate is the AP eval recorded, recomputed from the detections.
        assert abs(ci["ap"] - recorded["ap"]) < 1e-12
        assert ci["ap_low"] <= ci["ap"] <= ci["ap_high"]
        assert ci["p50_low"] <= ci["p50_ms"] <= ci["p50_high"]
    assert wide["images"] == 6 and narrow["images"] == 30
    assert narrow["ap_high"] - narrow["ap_low"] < wide["ap_high"] - wide["ap_low"]
    # p50 ms comes from measured times, so how wide its interval is depends on the machine;
    # what holds on any machine: a median of resampled times lies within the times measured.
    for ci, run in ((wide, "few"), (narrow, "all")):
        fm = fl.frame_matches(faces_file, run)
        ms = fm[(fm["detector_name"] == "opencv-haar:accuracy=low") & ~fm["failed"].astype(bool)]["duration_ns"] / 1e6
        assert ms.min() <= ci["p50_low"] <= ci["p50_high"] <= ms.max()
    # Seeded: the same every time.
    again = fr.detector_intervals(faces_file, "all").set_index("detector_name").loc["opencv-haar:accuracy=low"]
    assert again.equals(narrow)


def test_average_precision_counts_equal_scores_together_and_weights_as_repeats():
    scores = np.array([0.9, 0.8, 0.8, 0.5, 0.3])
    tp = np.array([True, False, True, True, False])
    # Points: (r 1/4, p 1), (r 2/4, p 2/3), (r 3/4, p 3/4), (r 3/4, p 3/5): envelope 1, 3/4, 3/4.
    assert fr.average_precision(scores, tp, 4) == pytest.approx(0.25 * 1 + 0.25 * 0.75 + 0.25 * 0.75)
    weights = np.array([2, 0, 1, 1, 3])
    repeated = np.repeat(np.arange(5), weights)
    assert fr.average_precision(scores, tp, 7, weights) == pytest.approx(fr.average_precision(scores[repeated], tp[repeated], 7))


def test_budget_lines_keep_the_axis_near_the_data():
    # 2 ms of data: 16.7 ms (60 fps) is more than twice as high, so no line is drawn, and
    # the note names the most demanding budget every case fits.
    drawn, note = fr.budget_lines(2.0)
    assert drawn == {} and note == "every case fits 60 fps (16.7 ms, above the axis)"
    # 25 ms: the 60 fps line is below the top, 30 and 24 fps within twice the top: all drawn.
    drawn, note = fr.budget_lines(25.0)
    assert sorted(drawn) == [24, 30, 60] and note == ""
    drawn, note = fr.budget_lines(20.0)
    assert sorted(drawn) == [30, 60] and note == "every case fits 24 fps (41.7 ms, above the axis)"
    drawn, note = fr.budget_lines(10.0)
    assert sorted(drawn) == [60] and note == "every case fits 30 fps (33.3 ms, above the axis)"
