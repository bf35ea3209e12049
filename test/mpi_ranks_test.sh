#!/usr/bin/env bash
# The distributed run against the serial one, flow by flow: rdma-ranks-check (a
# leaf-spine incast with PFC and DCQCN, 27 flows) serially and under mpirun at 1, 2 and
# 4 ranks, with both of ns-3's engines (granted-time windows, null messages). Every rank
# count must complete the same flows, each within 0.1% of its serial completion time,
# with no drop. Needs the MPI build of ./rdma setup --mpi (its record in
# $RDMA_NS3_CACHE/mpi/RUNNER); exit 77 (skipped) without it.
set -euo pipefail
ROOT="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)"
CACHE="${RDMA_NS3_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ns3-rdma}"
record="$CACHE/mpi/RUNNER"
[[ -f "$record" ]] || { echo "mpi-ranks: SKIPPED: no MPI build (./rdma setup --mpi)"; exit 77; }
# The build must be this checkout's (setup --mpi records the source it linked).
[[ "$(sed -n 's/^source=//p' "$record")" == "$ROOT/src/rdma" ]] \
  || { echo "mpi-ranks: SKIPPED: the MPI build is another checkout's (./rdma setup --mpi here)"; exit 77; }
check="$(sed -n 's/^check=//p' "$record")"
[[ -n "$check" && -x "$check" ]] \
  || { echo "mpi-ranks: SKIPPED: the MPI build has no rdma-ranks-check (rerun ./rdma setup --mpi)"; exit 77; }
command -v mpirun >/dev/null || { echo "mpi-ranks: SKIPPED: no mpirun"; exit 77; }
mpi=(mpirun --oversubscribe)
((EUID == 0)) && mpi+=(--allow-run-as-root)
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

"$check" --out="$tmp/serial" >"$tmp/serial.log"
for engine in granted null; do
  for n in 1 2 4; do
    "${mpi[@]}" -np "$n" "$check" --ranks --engine="$engine" --out="$tmp/$engine-$n" \
      >"$tmp/$engine-$n.log" 2>&1 || { cat "$tmp/$engine-$n.log"; exit 1; }
    grep -q " 0 drops" "$tmp/$engine-$n.log" || { cat "$tmp/$engine-$n.log"; exit 1; }
    /usr/bin/python3 - "$tmp/serial.csv" "$tmp/$engine-$n" "$n" "$engine" <<'PY'
import csv, glob, sys
serial, prefix, n, engine = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
def fcts(paths):
    out = {}
    for p in paths:
        for r in csv.DictReader(open(p)):
            assert r["flow_id"] not in out, f"flow {r['flow_id']} completed on two ranks"
            out[r["flow_id"]] = int(r["end_ns"]) - int(r["start_ns"])
    return out
ref = fcts([serial])
got = fcts(sorted(glob.glob(prefix + ".rank*.csv")))
assert len(glob.glob(prefix + ".rank*.csv")) == n, f"{n} ranks, one file each"
assert len(ref) == 27, f"serial: {len(ref)} of 27 flows"
assert set(got) == set(ref), f"{engine} x {n}: flows {sorted(set(ref) ^ set(got))} differ"
worst = max(abs(got[f] - ref[f]) / ref[f] for f in ref)
assert worst <= 1e-3, f"{engine} x {n}: an FCT {worst:.2%} off the serial run's"
print(f"mpi-ranks: {engine} x {n}: 27 flows, largest FCT difference {worst:.4%}")
PY
  done
done
