#!/usr/bin/env bash
# The drop-in check: the module copied into an ns-3 source tree builds with ./ns3 and its
# tests pass under ./test.py, as a user would do it.
#
#   test/ns3_tree_check.sh          (./rdma test --ns3-tree runs it)
#
# The ns-3 tree: $RDMA_NS3_TREE if set (an unpacked ns-3 >= 3.36 source tree), else
# Debian's ns-3 source (apt-get source ns3, needs deb-src in the apt sources) unpacked
# once into $RDMA_NS3_CACHE (default ~/.cache/ns3-rdma) and reused. Then:
#   1. src/rdma is copied to <tree>/contrib/rdma (replacing an earlier copy);
#   2. ./ns3 configure --build-profile=debug --enable-modules=rdma --enable-examples
#      --enable-tests --filter-module-examples-and-tests=rdma (core and network come with
#      rdma), without debug info (-O0 only);
#   3. the build of what the check runs, by CMake on every core: ns-3's test-runner
#      (core, network and rdma with the module's test library) and the module's three
#      examples (ns-3.37's ./ns3 build runs one job less than the cores, whatever -j
#      says);
#   4. ./test.py --no-build -s rdma, and the example rdma-run --list-keys.
# Exit 0 when all pass, 77 when no ns-3 tree can be had (no deb-src, no network), 1 else.
set -euo pipefail
ROOT="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)"
CACHE="${RDMA_NS3_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ns3-rdma}"
say() { printf '==> ns3-tree: %s\n' "$*"; }

tree="${RDMA_NS3_TREE:-}"
if [[ -z "$tree" ]]; then
  tree="$(find "$CACHE" -maxdepth 3 -name ns3 -path '*ns-3.*/ns3' -printf '%h\n' 2>/dev/null | sort | tail -n 1 || true)"
fi
# Debian's source packages: add a deb-src entry (the same archive as the binary packages,
# /etc/apt/sources.list.d/debian.sources) when apt has none and we are root.
enable_deb_src() {
  local list=/etc/apt/sources.list.d/ns3-rdma-deb-src.sources
  grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/ && return 0
  ((EUID == 0)) && [[ -f /etc/apt/sources.list.d/debian.sources ]] || return 1
  say "adding deb-src entries ($list) and running apt-get update"
  sed -E 's/^Types:.*/Types: deb-src/' /etc/apt/sources.list.d/debian.sources >"$list"
  apt-get update -q >/dev/null 2>&1
}

if [[ -z "$tree" ]]; then
  mkdir -p "$CACHE/src"
  enable_deb_src || true
  say "fetching Debian's ns-3 source into $CACHE (apt-get source ns3)"
  if ! (cd "$CACHE/src" && apt-get source --download-only ns3 >/dev/null 2>&1); then
    echo "ns3-tree: SKIPPED: 'apt-get source ns3' failed (enable deb-src in /etc/apt/sources.list.d, then apt-get update), or set RDMA_NS3_TREE" >&2
    exit 77
  fi
  tarball="$(ls "$CACHE"/src/ns3_*.orig.tar.* | head -n 1)"
  say "unpacking $(basename "$tarball")"
  tar -C "$CACHE" -xf "$tarball"
  tree="$(find "$CACHE" -maxdepth 3 -name ns3 -path '*ns-3.*/ns3' -printf '%h\n' | sort | tail -n 1)"
fi
[[ -x "$tree/ns3" ]] || { echo "ns3-tree: $tree is not an ns-3 (CMake) source tree" >&2; exit 1; }
say "tree $tree ($(cat "$tree/VERSION" 2>/dev/null || echo '?'))"

rm -rf "$tree/contrib/rdma"
cp -a "$ROOT/src/rdma" "$tree/contrib/rdma"
cd "$tree"
t0=$SECONDS
# The debug profile (asserts and logs on, warnings as errors) without debug info or
# optimisation: the check is about building and passing, and -O0 -g0 compiles in about
# half the time of the default profile's -O2 -g.
./ns3 configure --build-profile=debug --enable-modules=rdma --enable-examples --enable-tests \
  --filter-module-examples-and-tests=rdma -- -DCMAKE_CXX_FLAGS_DEBUG=-O0 \
  >"$tree/rdma-configure.log" 2>&1 \
  || { tail -n 30 "$tree/rdma-configure.log"; exit 1; }
say "configured ($((SECONDS - t0)) s); building"
t0=$SECONDS
# ./ns3 build runs one job less than the cores (one on CI's two): CMake directly uses all.
nice cmake --build cmake-cache -j "$(nproc)" \
  --target test-runner rdma-run hpcc-flows-to-trace moe-alltoall \
  >"$tree/rdma-build.log" 2>&1 \
  || { tail -n 40 "$tree/rdma-build.log"; exit 1; }
say "built ($((SECONDS - t0)) s)"
# test.py colours its verdicts even into a pipe: the log is kept without the colours.
./test.py --no-build -s rdma --verbose 2>&1 | sed 's/\x1b\[[0-9;]*m//g' >"$tree/rdma-test.log" || true
grep -E '^(\[[0-9]+/[0-9]+\] )?(PASS|FAIL|CRASH|SKIP)|^[0-9]+ of [0-9]+ tests' "$tree/rdma-test.log" || true
grep -qE '^(\[[0-9]+/[0-9]+\] )?PASS: TestSuite rdma$' "$tree/rdma-test.log" \
  || { echo "ns3-tree: ./test.py -s rdma did not pass (log: $tree/rdma-test.log)" >&2; exit 1; }
./ns3 run --no-build "rdma-run --list-keys" >"$tree/rdma-keys.md" 2>/dev/null \
  || { echo "ns3-tree: the example rdma-run did not run" >&2; exit 1; }
diff -q "$tree/rdma-keys.md" "$ROOT/docs/scenario-keys.md" >/dev/null \
  || { echo "ns3-tree: rdma-run --list-keys differs from docs/scenario-keys.md" >&2; exit 1; }
echo "ns3-tree: 1 passed, 0 failed"
