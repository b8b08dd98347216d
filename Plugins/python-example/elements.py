"""Framelab elements written in Python: a filter, a do-nothing filter and a detector.

Run with:  framelab run --plugin-path Plugins/python-example --filter py-vignette …
See docs/plugins.md, "Elements in Python". Frames arrive as numpy arrays that view
Framelab's memory; write into `out` (or return an array of its shape and dtype).
"""

import functools

import numpy as np

import framelab_plugin as fl


@fl.filter("py-vignette", version="1.0",
           description="darkens the corners: each pixel times 1 - strength * (distance from the centre)^2",
           formats=("gray8", "bgr8", "bgra8"),
           params=[fl.Float("strength", 0, 1, 0.6, "0 keeps the image, 1 blackens the corners")])
def vignette(frame, out, params):
    gain = _gain(frame.shape[0], frame.shape[1], frame.ndim, params["strength"])
    out[...] = np.rint(frame * gain)
    if frame.ndim == 3 and frame.shape[2] == 4:
        out[:, :, 3] = frame[:, :, 3]   # alpha kept


@functools.lru_cache(maxsize=8)
def _gain(h, w, ndim, strength):
    """The per-pixel factor, float32, computed once per frame size and strength."""
    y = (np.arange(h, dtype=np.float32) - (h - 1) / 2) / (h / 2)
    x = (np.arange(w, dtype=np.float32) - (w - 1) / 2) / (w / 2)
    gain = np.clip(1 - strength * 0.5 * (y[:, None] ** 2 + x[None, :] ** 2), 0, 1)
    return gain[:, :, None] if ndim == 3 else gain


@fl.filter("py-noop", version="1.0", description="passes the frame through (measures the bridge's cost)",
           formats=("gray8", "bgr8", "bgra8", "grayf32"))
def noop(frame, out, params):
    return frame


@fl.detector("py-bright", version="1.0",
             description="one box around the pixels brighter than a threshold, scored by their share of the image",
             formats=("gray8",),
             params=[fl.Int("threshold", 0, 255, 200, "gray level a pixel must exceed")])
def bright(frame, params):
    ys, xs = np.nonzero(frame > params["threshold"])
    if len(xs) == 0:
        return []
    x0, y0 = int(xs.min()), int(ys.min())
    return [(x0, y0, int(xs.max()) - x0 + 1, int(ys.max()) - y0 + 1, len(xs) / frame.size)]
