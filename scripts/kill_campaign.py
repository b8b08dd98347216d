"""kill -9 at random points of `framelab run` and `framelab eval` (driven by kill-campaign.sh).

Each point: copy a file holding one finished run ("before"), start a writer adding run
"killed" to it, wait a random time, read what a SWMR reader sees (flushed rows), kill -9
at once, `framelab recover`, then open the file with plain h5py (no swmr=True) and check:
the earlier run is unchanged, the killed run (if it was created) is `interrupted` and
holds at least every row the reader saw before the kill, its frames a prefix 0, 1, 2, …
"""
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import h5py

N = int(sys.argv[1]) if len(sys.argv) > 1 else 200
SEED = int(os.environ.get("KILL_SEED", "17"))
BIN = os.environ["FRAMELAB_BIN"]
SAMPLE = os.environ["FRAMELAB_SAMPLE_IMAGES"]
rng = random.Random(SEED)


def framelab(*args, check=True):
    r = subprocess.run([BIN, *args], capture_output=True, text=True)
    if check and r.returncode != 0:
        sys.exit(f"kill-campaign: framelab {' '.join(args)} failed ({r.returncode}): {r.stderr.strip()}")
    return r


def fingerprint(run):
    return (str(run.attrs["status"]), len(run["frames"]), len(run["timings"]),
            int(run["frames"]["index"].sum()) if len(run["frames"]) else 0)


def seen_rows(path):
    """Rows a SWMR reader sees now (what was flushed), or None before the run exists."""
    try:
        with h5py.File(path, "r", swmr=True) as f:
            r = f["runs"].get("killed")
            return None if r is None else {t: len(r[t]) for t in ("frames", "timings")}
    except Exception:
        return None  # the file is being restructured (run creation): nothing promised yet


work = tempfile.mkdtemp(prefix="framelab-kill-")
try:
    framelab("dataset", "compose", "--out", work + "/faces", "--count", "40", "--sample-images", SAMPLE)
    dataset = "csv:" + work + "/faces/faces.csv"
    commands = {
        "run": ["run", "--source", "synthetic:320x240@1000", "--filter", "sepia", "--policy", "keep-all", "--frames", "10000000"],
        "eval": ["eval", "--dataset", dataset, "--detector", "opencv-haar"],
    }
    bases = {}
    for kind in commands:
        base = f"{work}/base-{kind}.h5"
        framelab("run", "--source", "synthetic:64x48@30", "--frames", "30", "--out", base, "--run-id", "before", "--quiet")
        with h5py.File(base, "r") as f:
            bases[kind] = (base, fingerprint(f["runs"]["before"]))

    totals = {k: {"points": 0, "bad": 0, "before_run": 0, "kept": 0, "seen": 0, "ended": 0} for k in commands}
    for i in range(N * len(commands)):
        kind = list(commands)[i % len(commands)]
        base, before = bases[kind]
        path = f"{work}/point.h5"
        shutil.copyfile(base, path)
        # One kill in five lands anywhere from the start (start-up, the run's creation);
        # the others a random time after the run appeared in the file (its records).
        early = rng.random() < 0.2
        delay = rng.uniform(0.0, 1.0) if early else rng.uniform(0.0, 2.5)
        p = subprocess.Popen([BIN, *commands[kind], "--out", path, "--run-id", "killed", "--quiet"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not early:
            deadline = time.monotonic() + 120
            while seen_rows(path) is None and p.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
        time.sleep(delay)
        seen = seen_rows(path)
        p.send_signal(signal.SIGKILL)
        p.wait()
        killed = p.returncode == -signal.SIGKILL
        problems = []
        r = framelab("recover", path, check=False)
        if r.returncode != 0:
            problems.append("recover failed: " + r.stderr.strip())
        kept = 0
        try:
            with h5py.File(path, "r") as f:
                if fingerprint(f["runs"]["before"]) != before:
                    problems.append("the earlier run changed")
                run = f["runs"].get("killed")
                if run is not None:
                    status = str(run.attrs["status"])
                    if killed and status != "interrupted":
                        problems.append(f"the killed run's status is {status!r}")
                    frames = run["frames"][:]
                    kept = len(frames)
                    if list(frames["index"]) != list(range(kept)):
                        problems.append("frames are not a prefix")
                    for table, n in (seen or {}).items():
                        if len(run[table]) < n:
                            problems.append(f"{table}: {len(run[table])} rows, {n} were flushed before the kill")
                elif seen is not None:
                    problems.append("the run a reader saw is gone")
        except Exception as e:
            problems.append("plain h5py cannot open it: " + str(e).splitlines()[0])
        t = totals[kind]
        t["points"] += 1
        t["ended"] += 0 if killed else 1
        t["before_run"] += 1 if seen is None else 0
        t["kept"] += kept
        t["seen"] += (seen or {}).get("frames", 0)
        if problems:
            t["bad"] += 1
            print(f"{kind} point {t['points']} (kill at {delay:.2f} s): FAIL: {'; '.join(problems)}", flush=True)
        else:
            print(f"{kind} point {t['points']} (kill at {delay:.2f} s): ok: {kept} frames kept, "
                  f"{(seen or {}).get('frames', 0)} seen flushed before the kill", flush=True)
    bad = 0
    for kind, t in totals.items():
        bad += t["bad"]
        print(f"kill-campaign {kind}: {t['points']} kills, {t['points'] - t['bad']} kept every promise, "
              f"{t['bad']} broke one ({t['before_run']} before the run could be seen, {t['ended']} had already ended; "
              f"{t['kept']} frames kept of {t['seen']} seen flushed)")
    sys.exit(1 if bad else 0)
finally:
    shutil.rmtree(work, ignore_errors=True)
