"""Writes the MATLAB 5 files MAT5FileTests reads (python mat5_samples.py DIR).

scipy.io.savemat writes samples.mat (zlib-compressed elements) and samples_plain.mat (not
compressed). matlab_style_le.mat and matlab_style_be.mat are built byte by byte the way
MATLAB itself writes (scipy cannot): a char array as uint16 code units, a double array
stored as uint8 values, small data elements, an empty cell entry of zero bytes, both byte
orders.
"""
import os
import struct
import sys

import numpy as np
from scipy.io import savemat


def cell(items, shape=None):
    out = np.empty(len(items), dtype=object)
    for i, item in enumerate(items):
        out[i] = item
    return out.reshape(shape or (len(items), 1))


def scipy_samples(folder):
    values = {
        "matrix": np.array([[1.5, 2, 3], [4, 5, -6.25]]),
        "ints": np.array([[-3, 0, 70000]], dtype=np.int32),
        "bytes": np.array([[0, 7, 255]], dtype=np.uint8),
        "singles": np.array([[0.5, -1.25]], dtype=np.float32),
        "big": np.array([[2**40 + 1]], dtype=np.int64),
        "flags": np.array([[True, False]]),
        "empty": np.zeros((0, 4)),
        "name": "0--Parade",
        "words": np.array(["ab", "cd"]),
        "unicode": "Zoë",
        "mixed": cell([np.array([[1.0, 2.0]]), "text", np.zeros((0, 0))]),
        # Like the kit's face_bbx_list{event}{image}: cells of cells of n×4 matrices.
        "nested": cell([cell([np.array([[1, 2, 3, 4], [5, 6, 7, 8]], dtype=float), np.zeros((0, 4))]),
                        cell([np.array([[9, 10, 11, 12]], dtype=float)])]),
    }
    savemat(os.path.join(folder, "samples.mat"), values, do_compression=True)
    savemat(os.path.join(folder, "samples_plain.mat"), values, do_compression=False)


def matlab_style(folder, order):
    """One file in `order` ("<" or ">") with variables `title` (uint16 chars) and `boxes`
    (a 1×2 cell: a 2×2 double stored as uint8, and an empty entry)."""
    def tag(kind, data):
        if len(data) <= 4:  # small element: size and type share one word, data in the next 4 bytes
            return struct.pack(order + "I", (len(data) << 16) | kind) + data.ljust(4, b"\0")
        pad = (-len(data)) % 8
        return struct.pack(order + "II", kind, len(data)) + data + b"\0" * pad

    def matrix(cls, dims, name, *parts):
        flags = tag(6, struct.pack(order + "II", cls, 0))
        body = flags + tag(5, struct.pack(order + "%di" % len(dims), *dims)) + tag(1, name.encode()) + b"".join(parts)
        return tag(14, body)

    title = "Wide"
    chars = matrix(4, (1, len(title)), "title", tag(4, struct.pack(order + "%dH" % len(title), *map(ord, title))))
    double_as_uint8 = matrix(6, (2, 2), "", tag(2, bytes([1, 2, 3, 4])))
    empty_entry = struct.pack(order + "II", 14, 0)
    boxes = matrix(1, (1, 2), "boxes", double_as_uint8, empty_entry)
    header = b"MATLAB 5.0 MAT-file, written by hand for Framelab's tests".ljust(116, b" ")
    header += b"\0" * 8 + struct.pack(order + "H", 0x0100) + (b"IM" if order == "<" else b"MI")
    name = "matlab_style_le.mat" if order == "<" else "matlab_style_be.mat"
    with open(os.path.join(folder, name), "wb") as f:
        f.write(header + chars + boxes)


if __name__ == "__main__":
    scipy_samples(sys.argv[1])
    matlab_style(sys.argv[1], "<")
    matlab_style(sys.argv[1], ">")
