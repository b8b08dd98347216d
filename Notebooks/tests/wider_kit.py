"""Writes WIDER FACE evaluation-kit ground truth (MATLAB 5 files, as eval_tools/ground_truth
has them) with scipy, and synthetic sets of faces, subsets and predictions for tests.

    python wider_kit.py synth DIR [--images N] [--seed S] [--photo PNG [--face X,Y,W,H]] [--uncompressed]

writes DIR/ground_truth/wider_face_val.mat, wider_{easy,medium,hard}_val.mat and
DIR/predictions.txt ("event/file.jpg x y w h score" per line, repr floats); with --photo,
also DIR/WIDER_val/images/<event>/<file>.jpg copies of that photo (a detector can run on
them), and with --face that photo's face, first in every image and kept by every subset.
"""
import argparse
import os
import shutil

import numpy as np
from scipy.io import savemat

SUBSETS = ("easy", "medium", "hard")


def cell(items):
    """A MATLAB n×1 cell array of `items`."""
    out = np.empty((len(items), 1), dtype=object)
    for i, item in enumerate(items):
        out[i, 0] = item
    return out


def write_kit(folder, events, files, boxes, keep=None, compressed=True):
    """events[e]: name; files[e][i]: image name without .jpg; boxes[e][i]: (n, 4) x y w h;
    keep[subset][e][i]: 1-based indices of the faces the subset keeps (None: no subset files)."""
    os.makedirs(folder, exist_ok=True)
    main = {
        "event_list": cell(list(events)),
        "file_list": cell([cell(list(f)) for f in files]),
        "face_bbx_list": cell([cell([np.asarray(b, dtype=float).reshape(-1, 4) for b in e]) for e in boxes]),
    }
    savemat(os.path.join(folder, "wider_face_val.mat"), main, do_compression=compressed)
    for subset in SUBSETS if keep is not None else ():
        gt = cell([cell([np.asarray(k, dtype=float).reshape(-1, 1) for k in e]) for e in keep[subset]])
        savemat(os.path.join(folder, f"wider_{subset}_val.mat"), {**main, "gt_list": gt}, do_compression=compressed)


def synth(rng, images, face=None):
    """A random set: events of images with 0..9 faces, nested subsets, and predictions
    (jittered hits, duplicates, false positives, tied scores, scores outside [0, 1])."""
    events, files, boxes, preds = [], [], [], []
    keep = {s: [] for s in SUBSETS}
    n_events = max(1, images // 40)
    for e in range(n_events):
        name = f"{e}--Event{e}"
        count = images // n_events + (1 if e < images % n_events else 0)
        events.append(name)
        files.append([f"{e}_Event{e}_img_{i}" for i in range(count)])
        ev_boxes, ev_keep = [], {s: [] for s in SUBSETS}
        for i in range(count):
            n = int(rng.integers(0, 10)) if rng.random() > 0.1 else 0
            xy = rng.integers(0, 900, size=(n, 2)).astype(float)
            wh = rng.integers(6, 160, size=(n, 2)).astype(float)
            b = np.hstack([xy, wh])
            if face is not None:
                b = np.vstack([np.asarray(face, dtype=float).reshape(1, 4), b])
                n += 1
            ev_boxes.append(b)
            hard = [k + 1 for k in range(n) if (face is not None and k == 0) or rng.random() < 0.85]
            medium = [k for k in hard if (face is not None and k == 1) or rng.random() < 0.7]
            easy = [k for k in medium if (face is not None and k == 1) or rng.random() < 0.6]
            for s, lst in zip(SUBSETS, (easy, medium, hard)):
                ev_keep[s].append(lst)
            p = []
            if rng.random() > 0.08:
                for box in b:
                    for _ in range(int(rng.integers(0, 3))):  # 0, 1 or 2 (a duplicate) predictions per face
                        jitter = rng.normal(0, 0.18, size=4) * np.array([box[2], box[3], box[2], box[3]])
                        q = box + jitter
                        q[2:] = np.maximum(q[2:], 1)
                        if rng.random() < 0.5:
                            q = np.round(q)
                        p.append([*q, round(float(rng.normal(1.0, 1.2)), 2)])
                for _ in range(int(rng.integers(0, 5))):  # false positives
                    p.append([*rng.integers(0, 900, 2).astype(float), *rng.integers(8, 120, 2).astype(float),
                              round(float(rng.normal(-0.5, 1.0)), 2)])
            preds.append((f"{name}/{files[-1][i]}.jpg", p))
        boxes.append(ev_boxes)
        for s in SUBSETS:
            keep[s].append(ev_keep[s])
    return events, files, boxes, keep, preds


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("command", choices=["synth"])
    ap.add_argument("dir")
    ap.add_argument("--images", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--photo")
    ap.add_argument("--face")
    ap.add_argument("--uncompressed", action="store_true")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    face = [float(v) for v in args.face.split(",")] if args.face else None
    events, files, boxes, keep, preds = synth(rng, args.images, face)
    write_kit(os.path.join(args.dir, "ground_truth"), events, files, boxes, keep, compressed=not args.uncompressed)
    with open(os.path.join(args.dir, "predictions.txt"), "w") as f:
        for name, p in preds:
            for row in p:
                f.write(name + " " + " ".join(repr(float(v)) for v in row) + "\n")
    if args.photo:
        for name, _ in preds:
            target = os.path.join(args.dir, "WIDER_val", "images", name)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(args.photo, target)


if __name__ == "__main__":
    main()
