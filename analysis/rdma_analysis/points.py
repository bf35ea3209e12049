"""Running one point of a sweep or a tune with ``rdma-run`` (idempotent:
a point is finished iff its folder has summary.json) and reading its
metrics."""

import os
import re
import shutil
import subprocess
import time

from .metrics import run_metrics
from .runs import RunDataError, load_run
from .values import set_args


def is_done(run_dir):
    """A point is finished iff its folder has summary.json (the simulator
    writes its output folder in one rename)."""
    return os.path.isfile(os.path.join(run_dir, "summary.json"))


def clean_partials(folder, min_age_s=60):
    """Remove ``NAME.partial-PID`` staging folders left behind by killed
    simulator runs: the PID no longer exists here and the folder has not
    changed for *min_age_s* seconds (on a shared file system the PID may
    belong to another machine, whose run keeps writing)."""
    if not os.path.isdir(folder):
        return
    now = time.time()
    for name in os.listdir(folder):
        m = re.fullmatch(r".+\.partial-(\d+)", name)
        if not m:
            continue
        path = os.path.join(folder, name)
        try:
            os.kill(int(m.group(1)), 0)
            continue  # alive
        except ProcessLookupError:
            pass
        except PermissionError:
            continue  # alive, someone else's
        try:
            if now - os.path.getmtime(path) >= min_age_s:
                shutil.rmtree(path, ignore_errors=True)
        except OSError:
            pass


def run_command(runner, base, run_dir, overrides):
    """The rdma-run command line of one point."""
    return [runner, base, "--out", run_dir, "--quiet"] + set_args(overrides)


def run_point(cmd, run_dir, log_path, with_metrics=True):
    """Run one point (unless already done) and compute its metrics.

    Output of the simulator goes to *log_path* (removed when empty).
    Returns ``{'status': 'ok'|'failed', 'rc', 'seconds', 'ran',
    'metrics', 'error'}``.  Runs in a worker process.
    """
    result = {"status": "ok", "rc": 0, "seconds": 0.0, "ran": False,
              "metrics": None, "error": ""}
    if not is_done(run_dir):
        if cmd is None:
            result.update(status="missing", error="not run")
            return result
        if os.path.isdir(run_dir):  # never a finished run: see is_done
            shutil.rmtree(run_dir, ignore_errors=True)
        os.makedirs(os.path.dirname(log_path), exist_ok=True)
        start = time.monotonic()
        try:
            with open(log_path, "w", encoding="utf-8") as log:
                proc = subprocess.run(cmd, stdout=log,
                                      stderr=subprocess.STDOUT,
                                      stdin=subprocess.DEVNULL)
        except OSError as exc:  # e.g. the binary is being rebuilt
            result.update(status="failed", rc=-1, ran=True,
                          error=f"cannot run {cmd[0]}: {exc}")
            return result
        result.update(ran=True, rc=proc.returncode,
                      seconds=time.monotonic() - start)
        if os.path.getsize(log_path) == 0:
            os.remove(log_path)
        if proc.returncode != 0 or not is_done(run_dir):
            last = ""
            if os.path.exists(log_path):
                with open(log_path, encoding="utf-8",
                          errors="replace") as log:
                    lines = log.read().strip().splitlines()
                last = lines[-1] if lines else ""
            result.update(status="failed",
                          error=last or f"exit code {proc.returncode}")
            return result
    if with_metrics:
        result["metrics"] = point_metrics(run_dir)
        if result["metrics"] is None:
            result.update(status="failed", error="unreadable output")
    return result


def point_metrics(run_dir):
    """:func:`rdma_analysis.data.run_metrics` of a finished point (None if its
    files cannot be read)."""
    try:
        return run_metrics(load_run(run_dir))
    except RunDataError:
        return None
