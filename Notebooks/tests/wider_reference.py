"""An independent numpy implementation of the WIDER FACE kit's evaluation (the rules of
eval_tools/evaluation.m and its Python port), to check Framelab's Swift `WiderProtocol`.

    python wider_reference.py GROUND_TRUTH_DIR PREDICTIONS.txt   -> JSON on stdout

PREDICTIONS.txt: "event/file.jpg x y w h score" per line (wider_kit.py writes it). Output:
{"ap_easy": …, "ap_medium": …, "ap_hard": …, "curves": {"easy": [[threshold, recall, precision], …], …}}
(NaN as null).
"""
import json
import os
import sys

import numpy as np
from scipy.io import loadmat

THRESHOLDS = 1000
IOU = 0.5
SUBSETS = ("easy", "medium", "hard")


def load_ground_truth(folder):
    """Image names, (n, 4) boxes per image, and per subset the 1-based kept indices per image."""
    main = loadmat(os.path.join(folder, "wider_face_val.mat"))
    names, boxes = [], []
    for e in range(main["event_list"].shape[0]):
        event = str(main["event_list"][e, 0][0])
        files, faces = main["file_list"][e, 0], main["face_bbx_list"][e, 0]
        for i in range(files.shape[0]):
            names.append(f"{event}/{files[i, 0][0]}.jpg")
            boxes.append(np.asarray(faces[i, 0], dtype=float).reshape(-1, 4))
    keep = {}
    for s in SUBSETS:
        gt = loadmat(os.path.join(folder, f"wider_{s}_val.mat"))["gt_list"]
        keep[s] = [np.asarray(gt[e, 0][i, 0], dtype=int).ravel()
                   for e in range(gt.shape[0]) for i in range(gt[e, 0].shape[0])]
    return names, boxes, keep


def load_predictions(path, names):
    by_name = {n: [] for n in names}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if parts:
                by_name[parts[0]].append([float(v) for v in parts[1:6]])
    return [np.asarray(by_name[n], dtype=float).reshape(-1, 5) for n in names]


def sort_and_normalise(preds):
    """Per image by score, descending and stable; scores to (s - lo) / (hi - lo), hi from 0, lo from 1."""
    scores = np.concatenate([p[:, 4] for p in preds] + [np.zeros(0)])
    hi = max(0.0, float(scores.max())) if scores.size else 0.0
    lo = min(1.0, float(scores.min())) if scores.size else 1.0
    out = []
    for p in preds:
        p = p[np.argsort(-p[:, 4], kind="stable")].copy()
        with np.errstate(invalid="ignore", divide="ignore"):
            p[:, 4] = (p[:, 4] - lo) / (hi - lo)
        out.append(p)
    return out


def overlaps(pred, gt):
    """IoU matrix (predictions × faces), corners with +1 pixel, 0 where a side is <= 0."""
    p = pred[:, :4].copy()
    p[:, 2:] += p[:, :2]
    g = gt.copy()
    g[:, 2:] += g[:, :2]
    iw = np.minimum(p[:, None, 2], g[None, :, 2]) - np.maximum(p[:, None, 0], g[None, :, 0]) + 1
    ih = np.minimum(p[:, None, 3], g[None, :, 3]) - np.maximum(p[:, None, 1], g[None, :, 1]) + 1
    inter = iw * ih
    area_p = (p[:, 2] - p[:, 0] + 1) * (p[:, 3] - p[:, 1] + 1)
    area_g = (g[:, 2] - g[:, 0] + 1) * (g[:, 3] - g[:, 1] + 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        o = inter / (area_g[None, :] + area_p[:, None] - inter)
    o[(iw <= 0) | (ih <= 0)] = 0
    return o


def image_counts(pred, gt, kept):
    """Per threshold: counted proposals and matched kept faces, from one image."""
    o = overlaps(pred, gt)
    face_state = np.zeros(len(gt))        # 1 matched
    counted = np.ones(len(pred), dtype=bool)
    matched_after = np.zeros(len(pred), dtype=int)
    for h in range(len(pred)):
        j = int(np.argmax(o[h]))
        if o[h, j] >= IOU:
            if not kept[j]:
                counted[h] = False
            elif face_state[j] == 0:
                face_state[j] = 1
        matched_after[h] = int((face_state == 1).sum())
    out = np.zeros((THRESHOLDS, 2))
    for t in range(1, THRESHOLDS + 1):
        passing = np.nonzero(pred[:, 4] >= 1 - t / THRESHOLDS)[0]
        if passing.size:
            last = passing[-1]
            out[t - 1] = counted[: last + 1].sum(), matched_after[last]
    return out


def voc_ap(recall, precision):
    r = np.concatenate(([0.0], recall, [1.0]))
    p = np.concatenate(([0.0], precision, [0.0]))
    for i in range(p.size - 1, 0, -1):
        p[i - 1] = np.fmax(p[i - 1], p[i])   # fmax: NaN (no proposal yet) loses, as MATLAB's max
    steps = np.nonzero(r[1:] != r[:-1])[0]
    return float(np.sum((r[steps + 1] - r[steps]) * p[steps + 1]))


def evaluate(boxes, keep, preds):
    preds = sort_and_normalise(preds)
    result = {"curves": {}}
    for s in SUBSETS:
        totals = np.zeros((THRESHOLDS, 2))
        faces = 0
        for gt, idx, pred in zip(boxes, keep[s], preds):
            kept = np.zeros(len(gt), dtype=bool)
            kept[idx - 1] = True
            faces += int(kept.sum())
            if len(gt) == 0 or len(pred) == 0:
                continue
            totals += image_counts(pred, gt, kept)
        with np.errstate(invalid="ignore", divide="ignore"):
            precision = totals[:, 1] / totals[:, 0]
            recall = totals[:, 1] / faces
        result[f"ap_{s}"] = voc_ap(recall, precision) if faces else float("nan")
        result["curves"][s] = [[1 - t / THRESHOLDS, float(r), float(p)]
                               for t, r, p in zip(range(1, THRESHOLDS + 1), recall, precision)]
    return result


def to_json(value):
    if isinstance(value, float):
        return None if np.isnan(value) else value
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [to_json(v) for v in value]
    return value


if __name__ == "__main__":
    names, boxes, keep = load_ground_truth(sys.argv[1])
    print(json.dumps(to_json(evaluate(boxes, keep, load_predictions(sys.argv[2], names)))))
