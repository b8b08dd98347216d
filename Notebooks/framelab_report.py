"""What Framelab's HTML reports conclude, computed from a recording file.

The notebooks open with these verdict lines and draw these tables; the tests check them
against the file and against `framelab report --json`. Everything is read through
`framelab_h5`, so files of schema version 1 and 2 give the same answers.

    import framelab_report as fr
    fr.timings_verdict("out/demo.h5")      # "demo-…: end-to-end p95 0.95 ms, fits 60 fps; …"
    fr.detectors_verdict("out/demo.h5")    # best AP with its 95 % interval, the fastest detector
    fr.filters_verdict("out/demo.h5")      # the fastest path of each filter against the budgets
    fr.detector_intervals(path, run)       # bootstrap 95 % intervals of AP and p50 ms per detector
    fr.identical_curves(path, run)         # detectors whose precision-recall curve another one hides
    fr.per_image_table(path, run)          # per image and detector: TP, FP, misses

Intervals are percentile bootstrap intervals over images: `BOOTSTRAP_RESAMPLES` resamples of
the run's images drawn with replacement by numpy's generator seeded with `BOOTSTRAP_SEED`, the
same resamples for every detector, so a report says the same every time it is made.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

import framelab_h5 as fl

#: Resamples per bootstrap interval, and the seed that makes them repeatable.
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 0
#: The intervals' coverage.
CONFIDENCE = 0.95

#: Frame rates from the most demanding budget to the least.
RATES = sorted(fl.BUDGETS_MS, reverse=True)


# --- Formatting ----------------------------------------------------------------------------

def ms_text(ms: float) -> str:
    """Milliseconds with three significant digits, never in exponent form: 0.952, 12.3, 1234."""
    if ms is None or not np.isfinite(ms):
        return "—"
    return f"{ms:.0f}" if ms >= 100 else f"{ms:.3g}"


def fits(ms: float) -> list[int]:
    """The frame rates (of 24, 30, 60) whose per-frame budget `ms` is within."""
    return [fps for fps in sorted(fl.BUDGETS_MS) if np.isfinite(ms) and ms <= fl.BUDGETS_MS[fps]]


def fits_text(ms: float) -> str:
    """"fits 60 fps" (and so every budget), "fits 24 fps", or "fits no budget" (over 41.7 ms)."""
    rates = fits(ms)
    return f"fits {max(rates)} fps" if rates else "fits no budget"


def budget_lines(top_ms: float, headroom: float = 2.0) -> tuple[dict[int, float], str]:
    """The frame budgets worth drawing on a plot whose largest value is `top_ms`, and a note for
    the rest: a 41.7 ms line over data of 2 ms would squeeze the data into the bottom of a log
    axis. A budget more than `headroom` times the largest value is left out, and the note says
    every case fits it (it lies above all of them)."""
    drawn = {fps: ms for fps, ms in fl.BUDGETS_MS.items() if np.isfinite(top_ms) and ms <= top_ms * headroom}
    above = [fps for fps in sorted(fl.BUDGETS_MS, reverse=True) if fps not in drawn]
    if not above or not np.isfinite(top_ms):
        return drawn, ""
    best = max(above)
    return drawn, f"every case fits {best} fps ({ms_text(fl.BUDGETS_MS[best])} ms, above the axis)"


# --- Timings: pipeline runs ------------------------------------------------------------------

def pipeline_runs(path: str) -> list[str]:
    """The pipeline runs (`framelab run`) of a file, oldest first: not bench or eval runs."""
    return fl.runs_of_kind(path, fl.PIPELINE_KIND)


def end_to_end(path: str, run: str) -> dict:
    """A pipeline run's capture-to-result latency: frames, processed, dropped, failed, and
    p50/p95/max ms over processed frames (as `framelab report` computes them)."""
    fr = fl.frames(path, run)
    lat = fl.latency(path, run)["latency_ms"].to_numpy()
    p50, p95 = (np.percentile(lat, [50, 95]) if len(lat) else (np.nan, np.nan))
    return {"frames": len(fr), "processed": len(lat), "dropped": int(fr["dropped"].sum()),
            "failed": int(fr["failed"].sum()), "p50_ms": float(p50), "p95_ms": float(p95),
            "max_ms": float(lat.max()) if len(lat) else np.nan}


def timings_verdict(path: str) -> str:
    """One line about the newest pipeline run: its end-to-end p95 and the budget it fits,
    its slowest stage, and dropped or failed frames."""
    runs = pipeline_runs(path)
    if not runs:
        return "no pipeline runs in this file (record one with framelab run --out FILE)"
    run = runs[-1]
    e = end_to_end(path, run)
    if e["processed"] == 0:
        return f"{run}: no frame was processed ({e['frames']} frames, {e['failed']} failed, {e['dropped']} dropped)"
    parts = [f"{run}: end-to-end p95 {ms_text(e['p95_ms'])} ms, {fits_text(e['p95_ms'])}"]
    summary = fl.stage_summary(path, run).dropna(subset=["p95_ms"])
    if len(summary) > 1:
        slowest = summary.loc[summary["p95_ms"].idxmax()]
        parts.append(f"slowest stage {slowest['stage']} (p95 {ms_text(slowest['p95_ms'])} ms)")
    lost = [f"{e[k]} {k}" for k in ("dropped", "failed") if e[k]]
    if lost:
        parts.append(f"{' and '.join(lost)} of {e['frames']} frames")
    if len(runs) > 1:
        parts.append(f"newest of {len(runs)} pipeline runs")
    return "; ".join(parts)


# --- Filters: bench filters runs ---------------------------------------------------------

def fastest_paths(path: str, run: str | None = None) -> pd.DataFrame:
    """Per filter, at the largest frame size measured on one thread: the fastest path by
    median ms, its median and min ms, and the frame rates it fits. The chain of four
    (`chain4`) is a filter here too. Empty when the file has no bench run."""
    if run is None:
        benches = fl.runs_of_kind(path, "bench filters")
        if not benches:
            return pd.DataFrame(columns=["filter", "path", "size", "median_ms", "min_ms", "fits"])
        run = benches[-1]
    r = fl.bench_results(path, run)
    r = r[(r["threads"] == 1) & (r["filter"] != "memcpy")]
    rows = []
    for name, g in r.groupby("filter", sort=False):
        at = g[g["pixels"] == g["pixels"].max()]
        best = at.loc[at["median_ms"].idxmin()]
        rows.append({"filter": name, "path": best["path"], "size": best["size"], "median_ms": best["median_ms"],
                     "min_ms": best["min_ms"], "fits": fits(best["median_ms"])})
    return pd.DataFrame(rows, columns=["filter", "path", "size", "median_ms", "min_ms", "fits"])


def filters_verdict(path: str) -> str:
    """One line about the newest bench run: each filter's fastest path at its largest size,
    and which budget it fits (by median ms), naming the frames' pixel format and the kernel
    level."""
    benches = fl.runs_of_kind(path, "bench filters")
    if not benches:
        return "no 'bench filters' run in this file (record one with framelab bench filters --out FILE)"
    run = benches[-1]
    best = fastest_paths(path, run)
    if best.empty:
        return f"{run}: no single-thread measurements"
    isa = ", ".join(sorted(set(fl.bench_repetitions(path, run)["isa"]) - {"", "unknown"}))
    # Runs recorded before `bench filters --format` have no attribute: they timed BGRA frames.
    pixel_format = fl.attributes(path, run).get("pixel_format") or "bgra8"
    parts = []
    for size, g in best.groupby("size", sort=False):
        cases = ", ".join(f"{r['filter']} {r['path']} {ms_text(r['median_ms'])} ms" for _, r in g.iterrows())
        verdicts = {fits_text(ms) for ms in g["median_ms"]}
        tail = f"all {verdicts.pop().replace('fits', 'fit')}" if len(verdicts) == 1 else \
            "; ".join(f"{r['filter']} {fits_text(r['median_ms'])}" for _, r in g.iterrows())
        parts.append(f"at {size}: {cases} — {tail}")
    where = f"{pixel_format} frames, one thread{', ' + isa if isa else ''}"
    return f"{run}, fastest path per filter ({where}, median): " + "; ".join(parts)


# --- Detectors: eval runs ----------------------------------------------------------------

def newest_eval(path: str) -> str | None:
    evals = fl.runs_of_kind(path, "eval")
    return evals[-1] if evals else None


def average_precision(scores: np.ndarray, true_positive: np.ndarray, faces: float,
                      weights: np.ndarray | None = None) -> float:
    """All-point interpolated AP (what `framelab eval` records): detections in decreasing
    score order, equal scores entering together; `weights` counts a detection that many
    times (a bootstrap resample's multiplicity of its image)."""
    w = np.ones(len(scores)) if weights is None else np.asarray(weights, dtype=float)
    if len(scores) == 0 or faces <= 0:
        return 0.0
    order = np.argsort(-np.asarray(scores, dtype=float), kind="stable")
    s, tp_w = np.asarray(scores, dtype=float)[order], (np.asarray(true_positive, dtype=bool)[order] * w[order])
    tp, seen = np.cumsum(tp_w), np.cumsum(w[order])
    last = np.r_[s[1:] != s[:-1], True]          # the end of each run of equal scores
    tp, seen = tp[last], seen[last]
    keep = seen > 0                              # thresholds no drawn detection passes yet
    tp, seen = tp[keep], seen[keep]
    if len(tp) == 0:
        return 0.0
    precision, recall = tp / seen, tp / faces
    envelope = np.maximum.accumulate(precision[::-1])[::-1]
    return float(np.sum(np.diff(np.r_[0.0, recall]) * envelope))


def _detector_images(path: str, run: str) -> tuple[list[str], np.ndarray, dict]:
    """The run's images (frame numbers, sorted), and per detector: faces per image, and the
    scored detections (image position, score, true positive) that count for AP."""
    fm = fl.frame_matches(path, run)
    det = fl.detections(path, run)
    names = list(dict.fromkeys(fl.detector_metrics(path, run)["detector_name"]))
    frames = np.array(sorted(fm["frame"].unique()))
    position = {int(f): i for i, f in enumerate(frames)}
    data = {}
    for name in names:
        m = fm[fm["detector_name"] == name]
        faces = np.zeros(len(frames))
        durations = np.full(len(frames), np.nan)
        for f, n, ns, failed in zip(m["frame"], m["faces"], m["duration_ns"], m["failed"]):
            faces[position[int(f)]] = n
            if not failed and ns > 0:
                durations[position[int(f)]] = ns / 1e6
        d = det[(det["detector_name"] == name) & det["outcome"].isin([0, 1])]
        data[name] = {"faces": faces, "ms": durations,
                      "image": np.array([position[int(f)] for f in d["frame"]], dtype=int),
                      "score": d["score"].to_numpy(dtype=float), "tp": (d["outcome"] == 1).to_numpy()}
    return names, frames, data


def detector_intervals(path: str, run: str | None = None, resamples: int = BOOTSTRAP_RESAMPLES,
                       seed: int = BOOTSTRAP_SEED) -> pd.DataFrame:
    """Per detector: AP and p50 ms per image with percentile bootstrap 95 % intervals over
    the run's images (`resamples` resamples, numpy generator seeded with `seed`; the same
    resamples for every detector). Columns: detector_name, images, ap, ap_low, ap_high,
    p50_ms, p50_low, p50_high (NaN for saved predictions, which have no times)."""
    run = run or newest_eval(path)
    names, frames, data = _detector_images(path, run)
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, len(frames), size=(resamples, len(frames))) if len(frames) else np.zeros((0, 0), int)
    counts = np.stack([np.bincount(d, minlength=len(frames)) for d in draws]) if len(frames) else draws
    tail = (1 - CONFIDENCE) / 2 * 100
    rows = []
    for name in names:
        d = data[name]
        ap = average_precision(d["score"], d["tp"], d["faces"].sum())
        aps = [average_precision(d["score"], d["tp"], float(c @ d["faces"]), c[d["image"]]) for c in counts]
        timed = ~np.isnan(d["ms"])
        p50 = float(np.median(d["ms"][timed])) if timed.any() else np.nan
        p50s = [np.median(np.repeat(d["ms"][timed], c[timed])) for c in counts if c[timed].sum() > 0] if timed.any() else []
        ap_low, ap_high = np.percentile(aps, [tail, 100 - tail]) if aps else (np.nan, np.nan)
        p50_low, p50_high = np.percentile(p50s, [tail, 100 - tail]) if p50s else (np.nan, np.nan)
        rows.append({"detector_name": name, "images": len(frames), "ap": ap, "ap_low": ap_low, "ap_high": ap_high,
                     "p50_ms": p50, "p50_low": p50_low, "p50_high": p50_high})
    return pd.DataFrame(rows, columns=["detector_name", "images", "ap", "ap_low", "ap_high", "p50_ms", "p50_low",
                                       "p50_high"])


def identical_curves(path: str, run: str | None = None, curve: str = "precision-recall") -> list[tuple[str, str]]:
    """Pairs (hidden, covering): detectors whose curve of kind `curve` has exactly the same
    points as a detector drawn after it, which hides it. Each hidden detector once, paired
    with the last detector of its group (the one drawn on top)."""
    run = run or newest_eval(path)
    c = fl.curves(path, run)
    c = c[c["curve_name"] == curve]
    order = list(dict.fromkeys(c["detector_name"]))
    points = {name: g[["x", "y"]].to_numpy() for name, g in c.groupby("detector_name", sort=False)}
    pairs, placed = [], set()
    for i, name in enumerate(order):
        if name in placed:
            continue
        group = [name] + [other for other in order[i + 1:]
                          if points[other].shape == points[name].shape and np.array_equal(points[other], points[name])]
        placed.update(group)
        pairs.extend((hidden, group[-1]) for hidden in group[:-1])
    return pairs


def identical_curves_text(pairs: list[tuple[str, str]]) -> str:
    """"opencv-haar's curve is identical to cascade's and hidden under it", one clause a pair."""
    return "; ".join(f"{hidden}'s curve is identical to {top}'s and hidden under it" for hidden, top in pairs)


def per_image_table(path: str, run: str | None = None) -> pd.DataFrame:
    """One row per image, one column group per detector: TP, FP, misses (and `faces`, the
    annotated faces that count). A failed image shows its faces as misses."""
    run = run or newest_eval(path)
    fm = fl.frame_matches(path, run)
    paths = fl.image_paths(path, run)
    fm = fm.assign(image=[paths[int(f)].rsplit("/", 1)[-1] if int(f) < len(paths) and paths[int(f)] else f"frame {int(f)}"
                          for f in fm["frame"]])
    fm = fm.rename(columns={"true_positives": "TP", "false_positives": "FP"})
    order = list(dict.fromkeys(fm["detector_name"]))
    table = fm.pivot_table(index=["frame", "image"], columns="detector_name", values=["TP", "FP", "misses"], aggfunc="sum")
    table = table.swaplevel(0, 1, axis=1).reindex(columns=pd.MultiIndex.from_product([order, ["TP", "FP", "misses"]]))
    faces = fm.groupby(["frame", "image"])["faces"].max()
    table.insert(0, ("", "faces"), faces)
    return table.reset_index(level=0, drop=True).astype(int)


def line_cycle():
    """Ten colours, then the same ten dash-dotted: twenty curves told apart. Matplotlib's
    default cycle repeats its ten colours, so an eleventh detector drew in the first one's."""
    import matplotlib.pyplot as plt
    from cycler import cycler
    return cycler(linestyle=["-", "-."]) * cycler(color=list(plt.get_cmap("tab10").colors))


def detectors_verdict(path: str, resamples: int = BOOTSTRAP_RESAMPLES, seed: int = BOOTSTRAP_SEED) -> str:
    """One line about the newest eval run: the best AP with its 95 % interval, and the
    fastest timed detector with its AP and the budget its p95 ms per image fits (and, when
    that one's AP is 0, also the fastest with AP > 0)."""
    run = newest_eval(path)
    if run is None:
        return "no eval run in this file (record one with framelab eval --out FILE)"
    metrics = fl.detector_metrics(path, run)
    if metrics.empty:
        return f"{run}: no detector metrics"
    ci = detector_intervals(path, run, resamples, seed).set_index("detector_name")
    faces = int(metrics["faces"].max())
    head = f"{run} ({int(ci['images'].iloc[0]) if len(ci) else 0} images, {faces} faces)"
    top = metrics["ap"].max()
    best = metrics[metrics["ap"] == top]["detector_name"].tolist()
    b = best[0]
    tied = f" (tied with {', '.join(best[1:])})" if len(best) > 1 else ""
    parts = [f"best AP {b} {top:.3f} [{ci.loc[b, 'ap_low']:.3f}, {ci.loc[b, 'ap_high']:.3f}]{tied}"]
    timed = metrics[metrics["p50_ms"].notna() & (metrics["p50_ms"] > 0)]
    if not timed.empty:
        f = timed.loc[timed["p50_ms"].idxmin()]
        parts.append(f"fastest {f['detector_name']} p50 {ms_text(f['p50_ms'])} ms/image "
                     f"(p95 {ms_text(f['p95_ms'])} ms, {fits_text(f['p95_ms'])}), AP {f['ap']:.3f}")
        if not f["ap"] > 0:
            # A detector that finds nothing is fast and says nothing: name the fastest that finds faces.
            useful = timed[timed["ap"] > 0]
            if not useful.empty:
                u = useful.loc[useful["p50_ms"].idxmin()]
                parts.append(f"fastest with AP > 0 {u['detector_name']} p50 {ms_text(u['p50_ms'])} ms/image "
                             f"(p95 {ms_text(u['p95_ms'])} ms, {fits_text(u['p95_ms'])}), AP {u['ap']:.3f}")
        meeting = timed[timed["p95_ms"] <= fl.BUDGETS_MS[30]]
        if not meeting.empty and b not in set(meeting["detector_name"]) and meeting["ap"].max() > 0:
            m = meeting.loc[meeting["ap"].idxmax()]
            parts.append(f"best AP within 33.3 ms (30 fps) {m['detector_name']} {m['ap']:.3f}")
    return f"{head}: " + "; ".join(parts)
