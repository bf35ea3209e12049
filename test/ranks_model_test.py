"""bench/ranks_model.py: fitted to a serial and a 2-rank run, the model gives back both
measured wall times exactly; ranks split the events and the spread setup, never the
part every rank repeats; more windows cost more; a larger layer costs more; and without
the runs it says which command makes them (exit 2)."""
import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def model():
    spec = importlib.util.spec_from_file_location("ranks_model", ROOT / "bench" / "ranks_model.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_runs(out, serial_wall=100.0, ranks_wall=45.0, events=(50_000_000, 50_000_000),
               wait=4.0):
    """A serial run of 100 s (90 s simulating 100 M events) and a 2-rank run of 45 s whose
    ranks simulate 40 s each over 1,000 windows, `wait` s of it waiting in them."""
    name = "moe-1024-deepseek"
    (out / "ranks" / f"{name}-serial").mkdir(parents=True)
    (out / "ranks" / f"{name}-ranks2").mkdir(parents=True)
    (out / "ranks.csv").write_text(
        "scenario,ranks,serial_wall_s,ranks_wall_s\n"
        f"{name},2,{serial_wall},{ranks_wall}\n")
    (out / "ranks" / f"{name}-serial" / "summary.json").write_text(json.dumps(
        {"wall_s": 90.0, "cpu_s": 90.0, "events": sum(events), "peak_rss_mb": 300}))
    per = [{"events": e, "windows": 1000, "wall_s": 40.0, "window_wait_s": wait,
            "peak_rss_mb": 160} for e in events]
    (out / "ranks" / f"{name}-ranks2" / "summary.json").write_text(json.dumps(
        {"ranks": {"per_rank": per}}))


def test_the_fit_gives_back_what_was_measured(model, tmp_path):
    write_runs(tmp_path)
    m = model.load("moe-1024-deepseek", tmp_path)
    assert model.project(m, 1, 1, 0) == pytest.approx(100.0)
    assert model.project(m, 2, 1, 0) == pytest.approx(45.0)
    # 36 s for 50 M events on a rank, the other 4 s over 1,000 windows.
    assert m["t_event"] == pytest.approx(36 / 50e6)
    assert m["window"] == pytest.approx(4e-3)
    # Setup: 10 s serially, 5 s on 2 ranks: all of it is split.
    assert (m["fixed"], m["spread"]) == (pytest.approx(0), pytest.approx(10))


def test_ranks_split_events_and_spread_setup_only(model, tmp_path):
    write_runs(tmp_path, events=(60_000_000, 40_000_000), wait=0.4)
    m = model.load("moe-1024-deepseek", tmp_path)
    assert m["imbalance"] == pytest.approx(1.2)
    walls = [model.project(m, r, 1, 0) for r in model.RANKS]
    assert walls == sorted(walls, reverse=True), "cheap windows: more ranks cost less"
    # The windows' part grows as log2 R: at 64 ranks, 6 x (1,000 windows x their cost).
    no_windows = dict(m, window=0.0)
    assert model.project(m, 64, 1, 0) - model.project(no_windows, 64, 1, 0) == \
        pytest.approx(6 * 1000 * m["window"])
    # No rank can go below what every rank repeats.
    assert walls[-1] >= m["fixed"]
    # Windows between machines add time; a 4x layer costs more than 4x the events alone.
    assert model.project(m, 64, 1, 20) > model.project(m, 64, 1, 0)
    assert model.project(m, 64, 4, 0) > model.project(m, 64, 1, 0)


def test_without_runs_it_names_the_command(model, tmp_path, capsys):
    assert model.main(["--out", str(tmp_path), "--plot", str(tmp_path / "p.png")]) == 2
    assert "./rdma bench --ranks 2" in capsys.readouterr().err


def test_it_writes_the_table_and_the_plot(model, tmp_path):
    write_runs(tmp_path)
    assert model.main(["--out", str(tmp_path), "--plot", str(tmp_path / "p.png")]) == 0
    rows = (tmp_path / "ranks-projection.csv").read_text().splitlines()
    assert rows[0] == "layer,ranks,projected_wall_s"
    assert len(rows) == 1 + 2 * len(model.RANKS)
    assert (tmp_path / "p.png").stat().st_size > 1000
