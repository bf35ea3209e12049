"""Crafted run folders with hand-computed contents, shared by the tests.

Every number a test expects from these files is worked out by hand in the
comments here or in the test itself, never copied from the program.
"""

import json
import os
import shutil

import pytest

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))
ANALYSIS_DIR = os.path.dirname(TESTS_DIR)
REPO_ROOT = os.path.dirname(ANALYSIS_DIR)
RDMA = os.path.join(REPO_ROOT, "rdma")
RUNNER = os.environ.get("RDMA_RUNNER") or os.path.join(REPO_ROOT, "build", "bin", "rdma-run")
DATA_DIR = os.path.join(TESTS_DIR, "data")
TINY = os.path.join(DATA_DIR, "tiny-incast.json")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

needs_runner = pytest.mark.skipif(
    not os.access(RUNNER, os.X_OK),
    reason="simulator not built: build/bin/rdma-run missing "
           "(run ./rdma build)")

FCT_HEADER = ("flow_id,kind,src,dst,qp,prio,size_bytes,start_ns,end_ns,"
              "fct_ns,ideal_fct_ns,slowdown")

# Foreground kind "flow", ideal FCT 1000 ns so fct_ns = 1000 x slowdown.
# With warmup_end_ns = 1000, cooldown_start_ns = 90000, bdp_bytes = 10000:
#   <=1K   (sizes 1000, 1000, 1000, 1000, 1024): slowdowns 1 2 3 4 10
#   1K-8K  (5000, 5000): 2 6
#   64K-512K (100000): 1.5
#   excluded by the window: start 500 (slowdown 100), start 95000 (50)
#   flow 11 never completed (empty end/fct/slowdown)
#   probes (64 B): 1 5 9
# Hand-computed (nearest rank: ceil(p/100 * n)-th smallest):
#   <=1K: n=5 avg 4, p50 3 (3rd), p95 10 (5th), p99 10, p99.9 10
#   1K-8K: n=2 avg 4, p50 2 (1st), p95 6 (2nd)
#   <=1 BDP (<= 10000 B): [1 2 2 3 4 6 10] avg 4, p50 3 (4th), p95 10
#   >1 BDP: [1.5]
#   all foreground: [1 1.5 2 2 3 4 6 10] avg 3.6875, p50 2 (4th), p99 10
#   probes: [1 5 9] avg 5, p50 5 (2nd), p99 9
FCT_ROWS = [
    (0, "flow", 1, 0, 0, 3, 1000, 1000, 1),
    (1, "flow", 1, 0, 1, 3, 1000, 2000, 2),
    (2, "flow", 2, 0, 0, 3, 1000, 3000, 3),
    (3, "flow", 2, 0, 1, 3, 1000, 4000, 4),
    (4, "flow", 3, 0, 0, 3, 1024, 5000, 10),
    (5, "flow", 3, 0, 1, 3, 5000, 6000, 2),
    (6, "flow", 1, 0, 2, 3, 5000, 90000, 6),   # start == cooldown: kept
    (7, "flow", 2, 0, 2, 3, 100000, 8000, 1.5),
    (8, "flow", 1, 0, 3, 3, 1000, 500, 100),    # before warm-up end
    (9, "flow", 2, 0, 3, 3, 1000, 95000, 50),   # after cool-down start
    (12, "probe", 1, 0, 9, 3, 64, 10000, 1),
    (13, "probe", 1, 0, 9, 3, 64, 20000, 5),
    (14, "probe", 1, 0, 9, 3, 64, 30000, 9),
]
INCOMPLETE_ROW = "11,flow,3,0,3,3,2000,9000,,,1000,"

# Sparse queue samples (a row while non-zero or just drained); priorities
# summed per port:
#   t=100: (1,1)=1500  (2,4)=200   (3,0)=0 (absent)
#   t=200: (1,1)=700   (2,4)=3000  (3,0)=0
#   t=300: (1,1)=0     (2,4)=0     (3,0)=1200
#   t=400: (1,1)=0 (absent) (2,4)=0 (absent) (3,0)=0
QUEUE_ROWS = """\
100,1,1,0,1000
100,1,1,3,500
100,2,4,3,200
200,1,1,0,0
200,1,1,3,700
200,2,4,3,3000
300,1,1,3,0
300,2,4,3,0
300,3,0,0,1200
400,3,0,0,0
"""

# (1,2,3): pause 100, refresh 150, pause 200 (re-send), resume 300,
#          resume 350 (stray, ignored), pause 400 never resumed.
# (5,0,3): pause 200, resume 250.  Rows deliberately not in time order.
PFC_ROWS = """\
400,1,2,3,pause
100,1,2,3,pause
200,5,0,3,pause
150,1,2,3,refresh
200,1,2,3,pause
250,5,0,3,resume
300,1,2,3,resume
350,1,2,3,resume
"""

# Cumulative bytes sent; port (4,0) = switch, (0,0) = host 0.
#   (4,0): 0 -> 125000 @10us -> 187500 @20us -> 250000 @30us
#          rates 100, 50, 50 Gb/s (bytes x 8 / ns)
#   (0,0): first row at 20us: 25000 -> rates 0, 20, then 37500 @30us: 10
PORTS_ROWS = """\
10000,4,0,125000
20000,0,0,25000
20000,4,0,187500
30000,0,0,37500
30000,4,0,250000
"""

# Acknowledged bytes of host 1 QP 0: 0 @0, 62500 @10us, 187500 @20us
#   -> 50 Gb/s then 100 Gb/s; host 2 QP 5 has a window.
CC_ROWS = """\
0,1,0,100000000000,0,0
0,2,5,40000000000,20000,0
10000,1,0,50000000000,0,62500
10000,2,5,40000000000,30000,12500
20000,1,0,100000000000,0,187500
20000,2,5,40000000000,30000,25000
"""

# Leaf-spine: hosts 0..3, leaves 10, 11, spines 20, 21 (100G, 1 us).
LINKS_ROWS = """\
0,0,host,10,0,leaf,100000000000,1000
10,0,leaf,0,0,host,100000000000,1000
10,2,leaf,20,0,spine,100000000000,1000
10,3,leaf,21,0,spine,100000000000,1000
11,2,leaf,20,1,spine,100000000000,1000
11,3,leaf,21,1,spine,100000000000,1000
20,0,spine,10,2,leaf,100000000000,1000
21,1,spine,11,3,leaf,100000000000,1000
"""
# Uplink bytes: leaf 10: 300, 100 (mean 200: max/mean 1.5, CoV 100/200
# = 0.5); leaf 11: 200, 200 (1.0, 0.0).  Spine port (20,0) sent 999: not
# an uplink.
LEAF_PORTS_ROWS = """\
1000,10,2,300
1000,10,3,100
1000,11,2,200
1000,11,3,200
1000,20,0,999
"""

# Phase a: layer 0 takes 10 us, layer 1 30 us; phase b: layer 0 20 us.
# Total 0 .. 60 us.
COLLECTIVE_ROWS = """\
a,0,0,10000,10000,4,4000
a,1,10000,40000,30000,4,4000
b,0,40000,60000,20000,2,8000
"""


def fct_text(rows=FCT_ROWS, extra=(INCOMPLETE_ROW,)):
    lines = [FCT_HEADER]
    for fid, kind, src, dst, qp, prio, size, start, slow in rows:
        fct = int(round(slow * 1000))
        lines.append(f"{fid},{kind},{src},{dst},{qp},{prio},{size},{start},"
                     f"{start + fct},{fct},1000,{slow}")
    lines.extend(extra)
    return "\n".join(lines) + "\n"


def write_run(run_dir, summary=None, config=None, fct=None, queue="",
              pfc="", cc=None, ports=None, links=None, collectives=None,
              skip=()):
    """A run folder; optional CSVs are written only when given (text
    without header), files named in *skip* are not written."""
    os.makedirs(run_dir, exist_ok=True)
    base_summary = {"scenario": "crafted", "sim_time_s": 1e-6, "wall_s": 0.5,
                    "flows_total": 14, "flows_completed": 13,
                    "bytes_sent": 100, "bytes_delivered": 100,
                    "goodput_gbps": 50.0, "drops": 0, "pfc_pause_frames": 6,
                    "pfc_resume_frames": 3, "max_queue_bytes": 3000,
                    "base_rtt_us": 4.0, "cnps": 7}
    base_summary.update(summary or {})
    files = {"summary.json": json.dumps(base_summary),
             "fct.csv": fct if fct is not None else fct_text(),
             "queue.csv": "time_ns,node,port,prio,bytes\n" + queue,
             "pfc.csv": "time_ns,node,port,prio,event\n" + pfc}
    if config is not None:
        files["config.json"] = json.dumps(config)
    if cc is not None:
        files["cc.csv"] = ("time_ns,node,qp,rate_bps,window_bytes,"
                           "acked_bytes\n" + cc)
    if ports is not None:
        files["ports.csv"] = "time_ns,node,port,tx_bytes\n" + ports
    if links is not None:
        files["links.csv"] = ("node,port,node_kind,peer_node,peer_port,"
                              "peer_kind,rate_bps,delay_ns\n" + links)
    if collectives is not None:
        files["collectives.csv"] = ("phase,layer,start_ns,end_ns,"
                                    "duration_ns,flows,bytes\n"
                                    + collectives)
    for name, text in files.items():
        if name not in skip:
            with open(os.path.join(run_dir, name), "w") as handle:
                handle.write(text)
    return str(run_dir)


def config(algorithm="dcqcn", hosts=4, rate=100, sample_us=0.1,
           topo="star"):
    topology = {"type": topo, "hosts": hosts, "host_rate_gbps": rate}
    if topo == "leaf_spine":
        topology.update(leaves=2, hosts_per_leaf=2, spines=2)
    return {"cc": {"algorithm": algorithm}, "topology": topology,
            "output": {"queue_sample_us": sample_us}}


def full_run(run_dir, algorithm="dcqcn", summary=None):
    """Every file, every optional section (leaf-spine so uplinks show);
    *summary* adds or changes summary keys."""
    return write_run(
        run_dir,
        summary={"sim_time_s": 1e-4, "warmup_end_ns": 1000,
                 "cooldown_start_ns": 90000, "bdp_bytes": 10000,
                 **(summary or {})},
        config=config(algorithm, topo="leaf_spine"), queue=QUEUE_ROWS,
        pfc=PFC_ROWS, cc=CC_ROWS, ports=LEAF_PORTS_ROWS, links=LINKS_ROWS,
        collectives=COLLECTIVE_ROWS)


def assert_png(path):
    with open(path, "rb") as handle:
        data = handle.read()
    assert data.startswith(PNG_SIGNATURE), path
    assert len(data) > 1000, path


def copy_tiny(dest_dir, **changes):
    """Copy the tiny scenario into *dest_dir* (optionally changing
    top-level sections) and return its path."""
    with open(TINY) as handle:
        scenario = json.load(handle)
    scenario.update(changes)
    os.makedirs(dest_dir, exist_ok=True)
    path = os.path.join(dest_dir, "tiny.json")
    with open(path, "w") as handle:
        json.dump(scenario, handle)
    return path


def write_json(path, data):
    with open(path, "w") as handle:
        json.dump(data, handle)
    return str(path)


def rmtree(path):
    shutil.rmtree(path, ignore_errors=True)


def write_spec(folder, spec, name="spec.json"):
    """Write a sweep/tune spec as JSON into folder; returns its path."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, name)
    with open(path, "w") as handle:
        json.dump(spec, handle)
    return path


def run_cli(main, capsys, *args):
    """Call a command's main() with args; returns (exit code, stdout, stderr)."""
    capsys.readouterr()
    try:
        rc = main([str(a) for a in args])
    except SystemExit as exc:
        rc = exc.code
    out, err = capsys.readouterr()
    return rc, out, err
