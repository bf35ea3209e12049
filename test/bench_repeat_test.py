"""bench.py --repeat N: each scenario runs N times, its row is the run with the least CPU
time (median beside it), and runs that write different fct.csv files fail the scenario.
A fake runner stands in for rdma-run: it burns a given CPU time per run and writes a
summary naming the run. Before the scenarios bench.py measures the machine's memory
latency with rdma-memprobe (a fake one here) and writes it beside the table."""
import csv
import json
import importlib.util
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

FAKE_RUNNER = textwrap.dedent("""\
    #!/usr/bin/python3
    import json, os, sys, time
    out = sys.argv[sys.argv.index("--out") + 1]
    counter = os.environ["FAKE_COUNTER"]
    run = int(open(counter).read()) if os.path.exists(counter) else 0
    open(counter, "w").write(str(run + 1))
    burn = float(os.environ["FAKE_BURN"].split(",")[run])
    end = time.process_time() + burn
    while time.process_time() < end:
        pass
    os.makedirs(out)
    fct = "flow,fct_ns\\n1,%d\\n" % (run if os.environ.get("FAKE_VARY") else 7)
    open(os.path.join(out, "fct.csv"), "w").write(fct)
    json.dump({"events": run, "packets_forwarded": 10, "sim_time_s": 0.001,
               "flows_completed": 1, "flows_total": 1, "peak_rss_mb": 1.0, "cpu_s": burn},
              open(os.path.join(out, "summary.json"), "w"))
    """)


@pytest.fixture
def bench(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("bench", ROOT / "bench" / "bench.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    runner = tmp_path / "fake-runner"
    runner.write_text(FAKE_RUNNER)
    runner.chmod(0o755)
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    (scenarios / "tiny.json").write_text("{}")
    monkeypatch.setattr(module, "RUNNER", runner)
    monkeypatch.setattr(module, "MEMPROBE", tmp_path / "no-memprobe")
    monkeypatch.setattr(module, "SCENARIO_DIR", scenarios)
    monkeypatch.setattr(module, "OUT_DIR", tmp_path / "out")
    monkeypatch.setattr(module, "ROOT", tmp_path)
    monkeypatch.setenv("FAKE_COUNTER", str(tmp_path / "counter"))
    return module


def results(bench):
    with open(bench.OUT_DIR / "results.csv") as f:
        return list(csv.DictReader(f))


def test_repeat_keeps_the_run_with_the_least_cpu(bench, monkeypatch):
    monkeypatch.setenv("FAKE_BURN", "0.6,0.1,0.35")
    assert bench.main(["--repeat", "3"]) == 0
    [row] = results(bench)
    assert int((bench.ROOT / "counter").read_text()) == 3  # three runs
    assert row["repeats"] == "3"
    assert row["events"] == "1"  # the second run burned the least CPU
    assert float(row["cpu_s"]) < float(row["cpu_s_median"])
    assert 0.3 <= float(row["cpu_s_median"]) < 0.6  # the median run's 0.35 s, plus start-up


def test_repeat_fails_runs_that_write_different_fct(bench, monkeypatch, capsys):
    monkeypatch.setenv("FAKE_BURN", "0,0,0")
    monkeypatch.setenv("FAKE_VARY", "1")
    assert bench.main(["--repeat", "2"]) == 1
    assert "run 2 of 2 wrote a different fct.csv" in capsys.readouterr().err
    assert results(bench)[0]["status"] == "FAIL"


def test_one_run_by_default(bench, monkeypatch):
    monkeypatch.setenv("FAKE_BURN", "0,0,0")
    monkeypatch.setenv("FAKE_VARY", "1")  # one run: nothing to compare
    assert bench.main([]) == 0
    assert int((bench.ROOT / "counter").read_text()) == 1
    assert results(bench)[0]["repeats"] == "1"


@pytest.mark.parametrize("value", ["0", "-2", "x"])
def test_repeat_rejects_a_bad_count(bench, value, capsys):
    with pytest.raises(SystemExit) as e:
        bench.main(["--repeat", value])
    assert e.value.code == 2
    assert "--repeat" in capsys.readouterr().err


FAKE_PROBE = textwrap.dedent("""\
    #!/bin/sh
    [ "$1" = --json ] || exit 9
    echo '{"working_set_kb": 256, "lines": 4096, "ns_per_load": 4.25}'
    echo '{"working_set_kb": 4096, "lines": 65536, "ns_per_load": 150.0}'
    """)


def test_memory_latency_is_written_beside_the_table(bench, monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("FAKE_BURN", "0")
    probe = tmp_path / "fake-probe"
    probe.write_text(FAKE_PROBE)
    probe.chmod(0o755)
    monkeypatch.setattr(bench, "MEMPROBE", probe)
    assert bench.main([]) == 0
    line = "256 KB 4.2 ns, 4 MB 150.0 ns"
    assert line in capsys.readouterr().out
    assert line in (bench.OUT_DIR / "results.md").read_text()
    saved = json.loads((bench.OUT_DIR / "memprobe.json").read_text())
    assert [p["working_set_kb"] for p in saved] == [256, 4096]


@pytest.mark.parametrize("script", ["#!/bin/sh\nexit 3\n", "#!/bin/sh\necho nonsense\n"])
def test_a_failed_memory_probe_is_reported_and_the_scenarios_still_run(
        bench, monkeypatch, tmp_path, capsys, script):
    monkeypatch.setenv("FAKE_BURN", "0")
    probe = tmp_path / "fake-probe"
    probe.write_text(script)
    probe.chmod(0o755)
    monkeypatch.setattr(bench, "MEMPROBE", probe)
    bench.OUT_DIR.mkdir()
    (bench.OUT_DIR / "memprobe.json").write_text("[]")  # an earlier run's
    assert bench.main([]) == 0
    assert "memory latency not measured" in capsys.readouterr().err
    assert "Memory latency" not in (bench.OUT_DIR / "results.md").read_text()
    assert not (bench.OUT_DIR / "memprobe.json").exists()
    assert results(bench)[0]["status"] == "ok"


def test_no_memprobe_skips_it(bench, monkeypatch, tmp_path):
    monkeypatch.setenv("FAKE_BURN", "0")
    probe = tmp_path / "fake-probe"
    probe.write_text("#!/bin/sh\ntouch " + str(tmp_path / "probed") + "\n")
    probe.chmod(0o755)
    monkeypatch.setattr(bench, "MEMPROBE", probe)
    bench.OUT_DIR.mkdir()
    (bench.OUT_DIR / "memprobe.json").write_text("[]")  # an earlier run's
    assert bench.main(["--no-memprobe"]) == 0
    assert not (tmp_path / "probed").exists()
    assert not (bench.OUT_DIR / "memprobe.json").exists()
