"""Declarations for Framelab elements written in Python.

A `.py` file on Framelab's plugin path that imports this module declares filters and
detectors with the `filter` and `detector` decorators; Framelab runs them through its
Python bridge (`libframelab-python.so`, built by scripts/build-plugins.sh), in process or
in a plugin worker, like the elements of a shared-library plugin. See docs/plugins.md.

    import numpy as np
    import framelab_plugin as fl

    @fl.filter("py-negative", version="1.0", description="255 minus each channel",
               formats=("gray8", "bgr8", "bgra8"),
               params=[fl.Int("amount", 0, 255, 255, "how far towards the negative")])
    def negative(frame, out, params):
        np.subtract(params["amount"], frame, out=out)   # frame, out: numpy views of the host's memory

A filter receives the input frame (read-only) and the output image as numpy arrays that view
Framelab's memory (no copy): shape (height, width, channels) uint8 for bgr8/bgra8,
(height, width) uint8 for gray8, (height, width) float32 for grayf32, rows as far apart as
the host's stride. It writes `out` and returns None, or returns an array of `out`'s shape and
dtype (copied into `out`), or returns `frame` itself to pass the frame through.
A detector receives the frame and returns boxes: an iterable of (x, y, width, height, score)
or an (n, 5) array. `params` is a dict of the parameters' values, already checked against
their declared type and range; a change during a run (`run --tune`) updates it in place.
The arrays are valid only during the call: do not keep them.

This file is also the bridge's own: it imports it to load an element file. Nothing here runs
per frame except what the bridge calls.
"""

import importlib.util
import sys
import traceback

__all__ = ["filter", "detector", "Float", "Int", "Bool", "Choice", "String", "FORMATS"]

# Pixel formats by name, with the plugin ABI's numbers (framelab_plugin.h).
FORMATS = {"gray8": 1, "bgr8": 2, "bgra8": 3, "grayf32": 4}
_KINDS = {"filter": 1, "detector": 2}
_INF = float("inf")

# The elements declared by the file being loaded (the bridge loads one file at a time).
_declared = []


class _Param:
    """One parameter: the fields of the ABI's fl_plugin_param."""

    type_code = 0

    def __init__(self, name, minimum, maximum, default, description, choices=None):
        if not isinstance(name, str) or not name:
            raise ValueError("a parameter name must be a non-empty string")
        if not isinstance(description, str):
            raise ValueError(f"parameter '{name}': description must be a string")
        self.name = name
        self.minimum = float(minimum)
        self.maximum = float(maximum)
        self.default = default
        self.description = description
        self.choices = choices


class Float(_Param):
    """A float in [minimum, maximum] (use float('inf') for unbounded); the value is a Python float."""

    type_code = 1

    def __init__(self, name, minimum, maximum, default, description=""):
        super().__init__(name, minimum, maximum, float(default), description)


class Int(_Param):
    """An integer in [minimum, maximum]; the value is a Python int."""

    type_code = 2

    def __init__(self, name, minimum, maximum, default, description=""):
        if int(default) != default:
            raise ValueError(f"parameter '{name}': default {default!r} is not an integer")
        super().__init__(name, minimum, maximum, int(default), description)


class Bool(_Param):
    """True or false; the value is a Python bool."""

    type_code = 3

    def __init__(self, name, default, description=""):
        super().__init__(name, 0, 1, bool(default), description)


class Choice(_Param):
    """One of a list of names; the value is the chosen str."""

    type_code = 4

    def __init__(self, name, choices, default, description=""):
        choices = list(choices)
        if not choices or not all(isinstance(c, str) and c and "|" not in c for c in choices):
            raise ValueError(f"parameter '{name}': choices must be non-empty strings without '|'")
        super().__init__(name, -_INF, _INF, str(default), description, "|".join(choices))


class String(_Param):
    """Any text; the value is a str."""

    type_code = 5

    def __init__(self, name, default="", description=""):
        super().__init__(name, -_INF, _INF, str(default), description)


def _declare(kind, name, version, description, formats, params, output_format):
    if not isinstance(name, str) or not isinstance(version, str) or not isinstance(description, str):
        raise ValueError(f"{kind} {name!r}: name, version and description must be strings")
    codes = []
    for f in formats:
        if f not in FORMATS:
            raise ValueError(f"{kind} '{name}': unknown format {f!r} (known: {', '.join(FORMATS)})")
        codes.append(FORMATS[f])
    params = list(params)
    for p in params:
        if not isinstance(p, _Param):
            raise ValueError(f"{kind} '{name}': parameters must be fl.Float, fl.Int, fl.Bool, fl.Choice or fl.String")
    if output_format is not None and output_format not in FORMATS:
        raise ValueError(f"{kind} '{name}': unknown output_format {output_format!r}")
    out = FORMATS[output_format] if output_format is not None else 0

    def register(function):
        if not callable(function):
            raise ValueError(f"{kind} '{name}': decorate a function")
        _declared.append((_KINDS[kind], name, version, description, tuple(codes), params, function, out))
        return function

    return register


def filter(name, version="1.0", description="", formats=("gray8", "bgr8", "bgra8"), params=(), output_format=None):
    """Declares `function(frame, out, params)` as a filter element. `output_format` (a name
    from FORMATS) fixes the output's format; by default it is the input's."""
    return _declare("filter", name, version, description, formats, params, output_format)


def detector(name, version="1.0", description="", formats=("gray8", "bgr8", "bgra8"), params=()):
    """Declares `function(frame, params)` -> boxes [(x, y, width, height, score), …] as a detector element."""
    return _declare("detector", name, version, description, formats, params, None)


# ---- used by the bridge (libframelab-python.so) ----

def _load(path):
    """Runs the element file at `path` as a module and returns what it declared."""
    del _declared[:]
    module_name = "framelab_element_" + str(abs(hash(path)))
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path} as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    found = list(_declared)
    del _declared[:]
    return found


def _one_line(exc_type, exc, tb, path):
    """An exception as one line: 'Type: message (file.py:LINE in function)', naming the
    innermost frame of the element file when there is one."""
    text = " ".join(str(exc).split())
    where = ""
    if isinstance(exc, SyntaxError) and exc.lineno is not None:
        text = " ".join(str(exc.msg).split())
        where = f" (line {exc.lineno})"
    else:
        frames = traceback.extract_tb(tb)
        own = [f for f in frames if f.filename == path] or frames
        if own:
            f = own[-1]
            inner = f" in {f.name}" if f.name != "<module>" else ""
            where = f" (line {f.lineno}{inner})" if f.filename == path else f" ({f.filename}:{f.lineno}{inner})"
    name = exc_type.__name__ if exc_type is not None else "error"
    return f"{name}: {text}{where}" if text else f"{name}{where}"
