"""Fixtures: HDF5 files written by the real `framelab` CLI in this test session."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Notebooks"))


def framelab_binary() -> str:
    binary = os.environ.get("FRAMELAB_BIN", str(ROOT / ".build" / "release" / "framelab"))
    if not Path(binary).exists():
        pytest.fail(f"framelab binary not found at {binary}: run scripts/build.sh first")
    return binary


def framelab(*args: str) -> subprocess.CompletedProcess:
    result = subprocess.run([framelab_binary(), *args], capture_output=True, text=True)
    assert result.returncode == 0, f"framelab {' '.join(args)} failed: {result.stderr}"
    return result


@pytest.fixture(scope="session")
def runs_file(tmp_path_factory) -> Path:
    """Five runs: a keep-all chain, a drop-late run that drops frames, an image folder with a
    corrupt file (a recorded failure), a filter benchmark and a detector evaluation."""
    tmp = tmp_path_factory.mktemp("runs")
    h5 = tmp / "runs.h5"
    framelab("run", "--source", "synthetic:160x120@200", "--frames", "40", "--filter", "sepia",
             "--filter", "hue:angle=0.5", "--policy", "keep-all", "--out", str(h5), "--run-id", "chain", "--quiet")
    # Scalar-path sepia at 1280x720 (~15 ms) cannot keep up with 400 fps: drop-late must drop.
    framelab("run", "--source", "synthetic:1280x720@400", "--frames", "30", "--filter", "sepia", "--path", "scalar",
             "--policy", "drop-late", "--out", str(h5), "--run-id", "dropping", "--quiet")
    folder = tmp / "images"
    folder.mkdir()
    # Tiny PPM images written by hand (a format OpenCV reads), plus one corrupt PNG.
    for i in range(3):
        header = b"P6\n8 6\n255\n"
        (folder / f"img{i}.ppm").write_bytes(header + bytes([i * 40, 100, 200]) * 48)
    (folder / "img1b.png").write_bytes(b"\x89PNG broken")
    framelab("run", "--source", f"images:{folder}", "--filter", "gray", "--out", str(h5), "--run-id", "folder",
             "--quiet")
    # A small filter benchmark and a small evaluation on the bundled face sample.
    framelab("bench", "filters", "--filter", "gray", "--filter", "sepia", "--size", "160x120",
             "--chain-size", "160x120", "--chain-size", "320x240", "--repeats", "3", "--warmup", "1",
             "--out", str(h5), "--quiet")
    framelab("eval", "--dataset", f"csv:{ROOT / 'Datasets' / 'sample' / 'faces.csv'}", "--detector", "opencv-haar",
             "--detector", "opencv-lbp", "--limit", "6", "--out", str(h5), "--run-id", "eval", "--quiet")
    return h5


@pytest.fixture(scope="session")
def faces_file(tmp_path_factory) -> Path:
    """Two eval runs on seeded composites (real face crops on real photographs): "few" on
    the first 6 images with one detector, then "all" on 30 images with two detectors that give
    the same boxes (the same preset, once with its scale spelled out). The newest is "all"."""
    tmp = tmp_path_factory.mktemp("faces")
    images, h5 = tmp / "composites", tmp / "faces.h5"
    framelab("dataset", "compose", "--out", str(images), "--count", "30", "--seed", "7")
    dataset = f"csv:{images / 'faces.csv'}"
    framelab("eval", "--dataset", dataset, "--detector", "opencv-haar:accuracy=low", "--limit", "6", "--out", str(h5),
             "--run-id", "few", "--quiet")
    framelab("eval", "--dataset", dataset, "--detector", "opencv-haar:accuracy=low", "--detector",
             "opencv-haar:accuracy=low,scale=1.25", "--out", str(h5), "--run-id", "all", "--quiet")
    return h5


@pytest.fixture(scope="session")
def executed():
    """Executes a notebook against a file once per session: executed(name, h5) -> notebook."""
    import run_notebooks
    cache = {}

    def run(name: str, h5: Path):
        key = (name, str(h5))
        if key not in cache:
            cache[key] = run_notebooks.run(name, Path(h5))
        return cache[key]
    return run
