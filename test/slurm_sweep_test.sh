#!/usr/bin/env bash
# A real Slurm, once: start a single-node Slurm (Debian slurm-wlm + munge) in a temporary
# folder, submit the job array `./rdma sweep --emit` writes, cancel it midway, submit it
# again, and check that every point was done exactly once and nothing partial is left.
#
#   test/slurm_sweep_test.sh [RDMA_RUN]      (ctest: slurm-sweep)
#
# Exit 0 passed, 1 failed, 77 skipped (no slurmctld/slurmd/munged/sbatch, not root, or
# the daemons would not start here). Install the packages with:
#   apt-get install slurm-wlm munge
set -uo pipefail

ROOT="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)"
RUNNER="${1:-$ROOT/build/bin/rdma-run}"
PY=/usr/bin/python3
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

for tool in slurmctld slurmd munged sbatch squeue scancel; do
  command -v "$tool" >/dev/null 2>&1 || skip "$tool not installed (apt-get install slurm-wlm munge)"
done
((EUID == 0)) || skip "starting slurmd and munged needs root"
[[ -x "$RUNNER" ]] || fail "no runner at $RUNNER"

WORK="$(mktemp -d /tmp/rdma-slurm-XXXXXX)"
PIDS=()
cleanup() {
  local p
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
  sleep 1
  for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
  rm -rf "$WORK"
}
trap cleanup EXIT

# ---------------------------------------------------------------- munge
mkdir -p "$WORK/munge" "$WORK/munge-run" "$WORK/munge-log"
dd if=/dev/urandom of="$WORK/munge/munge.key" bs=1024 count=1 status=none
chmod 700 "$WORK/munge" "$WORK/munge-run"
chmod 400 "$WORK/munge/munge.key"
SOCKET="$WORK/munge-run/munge.socket"
munged --force --key-file="$WORK/munge/munge.key" --socket="$SOCKET" \
  --pid-file="$WORK/munge-run/munged.pid" --log-file="$WORK/munge-log/munged.log" \
  --seed-file="$WORK/munge/seed" || skip "munged would not start"
sleep 1
PIDS+=("$(cat "$WORK/munge-run/munged.pid")")

# ---------------------------------------------------------------- slurm
HOST="$(hostname -s)"
CPUS="$(nproc)"
mkdir -p "$WORK/state" "$WORK/spool" "$WORK/log"
export SLURM_CONF="$WORK/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=rdmatest
SlurmctldHost=$HOST
SlurmUser=root
SlurmctldPort=46817
SlurmdPort=46818
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCKET
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/log/slurmctld.log
SlurmdLogFile=$WORK/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$HOST CPUs=$CPUS RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -f "$SLURM_CONF" -i || skip "slurmctld would not start (see $WORK/log)"
slurmd -f "$SLURM_CONF" || skip "slurmd would not start"
for _ in $(seq 1 30); do
  [[ -f "$WORK/slurmctld.pid" ]] && [[ -f "$WORK/slurmd.pid" ]] && break
  sleep 1
done
[[ -f "$WORK/slurmctld.pid" ]] && PIDS+=("$(cat "$WORK/slurmctld.pid")")
[[ -f "$WORK/slurmd.pid" ]] && PIDS+=("$(cat "$WORK/slurmd.pid")")
ready=0
for _ in $(seq 1 30); do
  if sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then ready=1; break; fi
  sleep 1
done
((ready)) || { tail -5 "$WORK/log/slurmctld.log" "$WORK/log/slurmd.log" 2>/dev/null; skip "the Slurm node never came up"; }
echo "slurm up on $HOST ($CPUS CPUs)"

# ---------------------------------------------------------------- the sweep
# 8 points of the demo, each run through a wrapper that logs every start and every
# completion, so a point run twice (or never) shows.
LOG="$WORK/runs.log"
cat >"$WORK/runner.sh" <<EOF
#!/bin/bash
out=""; prev=""
for a in "\$@"; do [[ "\$prev" == --out ]] && out="\$a"; prev="\$a"; done
echo "start \$out" >> "$LOG"
sleep 0.5  # slow enough that the cancel lands mid-array
"$RUNNER" "\$@"; rc=\$?
[[ \$rc == 0 ]] && echo "done \$out" >> "$LOG"
exit \$rc
EOF
chmod +x "$WORK/runner.sh"
cat >"$WORK/spec.json" <<EOF
{
  "base": "$ROOT/scenarios/demo.json",
  "out": "$WORK/sweep",
  "grid": {"switch.ecn.kmin_kb": [50, 100, 200, 400]},
  "set": {"stop_time_ms": 5},
  "seeds": [1, 2],
  "metrics": ["slowdown_p99"],
  "slurm": {"time": "00:05:00", "max_parallel": 1}
}
EOF
cd "$ROOT" || fail "no $ROOT"
PYTHONPATH="$ROOT/analysis" "$PY" -m rdma_analysis sweep "$WORK/spec.json" --emit \
  --runner "$WORK/runner.sh" >/dev/null || fail "sweep --emit failed"
SCRIPT="$WORK/sweep/slurm.sh"
[[ -f "$SCRIPT" ]] || fail "no slurm.sh"
POINTS="$(wc -l <"$WORK/sweep/commands.txt")"
echo "$POINTS points"

job="$(sbatch --parsable "$SCRIPT")" || fail "sbatch refused the job array"
# Cancel once some points are done and others are not.
for _ in $(seq 1 120); do
  n="$(grep -c '^done' "$LOG" 2>/dev/null || true)"
  ((n >= 2)) && break
  sleep 0.5
done
scancel "$job"
for _ in $(seq 1 60); do
  [[ -z "$(squeue -h -j "$job" 2>/dev/null)" ]] && break
  sleep 1
done
first="$(grep -c '^done' "$LOG" || true)"
echo "cancelled after $first of $POINTS points"
((first < POINTS)) || fail "the array finished before it could be cancelled"

job2="$(sbatch --parsable "$SCRIPT")" || fail "resubmission refused"
for _ in $(seq 1 600); do
  [[ -z "$(squeue -h -j "$job2" 2>/dev/null)" ]] && break
  sleep 1
done

# ---------------------------------------------------------------- checks
status=0
mapfile -t dirs < <(find "$WORK/sweep/runs" -mindepth 1 -maxdepth 1 -type d ! -name '*.partial-*')
((${#dirs[@]} == POINTS)) || { echo "expected $POINTS run folders, found ${#dirs[@]}"; status=1; }
for d in "${dirs[@]}"; do
  [[ -f "$d/summary.json" ]] || { echo "point not done: $d"; status=1; }
  n="$(grep -cx "done $d" "$LOG" || true)"
  ((n == 1)) || { echo "point $d done $n times"; status=1; }
done
left="$(find "$WORK/sweep/runs" -maxdepth 1 -name '*.partial-*' | wc -l)"
((left == 0)) || { echo "$left partial folders left"; status=1; }
PYTHONPATH="$ROOT/analysis" "$PY" -m rdma_analysis sweep "$WORK/spec.json" --collect \
  >/dev/null || { echo "collect failed"; status=1; }
((status == 0)) && echo "PASS: $POINTS points, each done once ($first before the cancel)"
exit $status
