#!/usr/bin/env bash
# The drop-in check: the module copied into an ns-3 source tree builds with ./ns3 and its
# tests pass under ./test.py, as a user would do it.
#
#   test/ns3_tree_check.sh [TREE] [--profile debug|default|release]
#
# TREE (default: both of these, as CI runs them):
#   debian    Debian's ns-3 source (apt-get source ns3, 3.37; needs deb-src in the apt
#             sources, added when missing and run as root), release profile
#   FILE.tar.* an ns-3 release tarball, e.g. ../shared/ns-3/ns-3.48-subset.tar.xz (see
#             its README), debug profile
#   DIR       an unpacked ns-3 (>= 3.36, CMake) source tree; also $RDMA_NS3_TREE
# Trees are unpacked once into $RDMA_NS3_CACHE (default ~/.cache/ns3-rdma) and reused with
# their build (incremental), never needed: a clean machine fetches and builds all.
# Then, per tree:
#   1. src/rdma is copied to <tree>/contrib/rdma (replacing an earlier copy);
#   2. ./ns3 configure --enable-modules=rdma --enable-examples --enable-tests
#      --filter-module-examples-and-tests=rdma (core and network come with rdma);
#   3. the build of what the check runs, by CMake on every core: ns-3's test-runner
#      (core, network and rdma with the module's test library) and the module's four
#      examples (ns-3.37's ./ns3 build runs one job less than the cores, whatever -j
#      says);
#   4. ./test.py --no-build -s rdma, the example rdma-run --list-keys, and
#      rdma-ranks-check serially (its 27 flows complete);
# each step's time is printed. The profiles: debug (asserts, logs, and from ns-3.42
# -Wpedantic -Werror) without debug info or optimisation, since -O0 -g0 compiles in
# about half the time of -O2 -g; release (-O3), where test-order bugs showed that debug
# hid; default (-O2 -g).
# Exit 0 when all pass, 77 when no tree can be had (all SKIPPED, with the reason), 1 else.
set -euo pipefail
ROOT="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)"
CACHE="${RDMA_NS3_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ns3-rdma}"
say() { printf '==> ns3-tree: %s\n' "$*"; }
skip() { echo "ns3-tree: SKIPPED: $*" >&2; exit 77; }

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

# The ns-3 tree (a folder holding ./ns3) below $1, newest version last.
find_tree() {
  find "$1" -maxdepth 3 -name ns3 -path '*ns-3.*/ns3' -printf '%h\n' 2>/dev/null | sort -V | tail -n 1
}

# Prints the tree of Debian's ns-3 source, fetching and unpacking it when not cached.
debian_tree() {
  local dir="$CACHE/debian" tree tarball
  tree="$(find_tree "$dir")"
  if [[ -z "$tree" ]]; then
    mkdir -p "$dir/src"
    enable_deb_src >&2 || true
    say "fetching Debian's ns-3 source into $dir (apt-get source ns3)" >&2
    (cd "$dir/src" && apt-get source --download-only ns3 >/dev/null 2>&1) \
      || skip "'apt-get source ns3' failed (enable deb-src in /etc/apt/sources.list.d, then apt-get update)"
    tarball="$(ls "$dir"/src/ns3_*.orig.tar.* | head -n 1)"
    say "unpacking $(basename "$tarball")" >&2
    tar -C "$dir" -xf "$tarball"
    tree="$(find_tree "$dir")"
  fi
  echo "$tree"
}

# Prints the tree of the tarball $1, unpacking it when not cached.
tarball_tree() {
  local file="$1" dir tree
  [[ -f "$file" ]] || skip "$file not found (CI keeps ns-3 releases in ../shared/ns-3)"
  dir="$CACHE/$(basename "$file" | sed -E 's/\.tar(\.[a-z0-9]+)?$//')"
  tree="$(find_tree "$dir")"
  if [[ -z "$tree" ]]; then
    say "unpacking $(basename "$file") into $dir" >&2
    mkdir -p "$dir"
    tar -C "$dir" -xf "$file"
    tree="$(find_tree "$dir")"
  fi
  echo "$tree"
}

# check TREE PROFILE: steps 1 to 4 in TREE.
check() {
  local tree="$1" profile="$2" version t0 t_conf t_build t_test t_example
  local -a flags=(--build-profile="$profile")
  [[ -x "$tree/ns3" ]] || { echo "ns3-tree: $tree is not an ns-3 (CMake) source tree" >&2; return 1; }
  version="$(cat "$tree/VERSION" 2>/dev/null || echo '?')"
  say "ns-3 $version in $tree, $profile profile"
  # -O0 without -g: see above. Every profile passes the flag; only debug reads it.
  rm -rf "$tree/contrib/rdma"
  cp -a "$ROOT/src/rdma" "$tree/contrib/rdma"
  # ns-3's configure writes a forwarding header (build/include/ns3/x.h) per module header
  # but leaves one whose header moved to another folder pointing at the old path: drop
  # the module's, configure writes them again.
  if [[ -d "$tree/build/include/ns3" ]]; then
    grep -l "contrib/rdma/" "$tree"/build/include/ns3/*.h 2>/dev/null | xargs -r rm -f
  fi
  cd "$tree"
  t0=$SECONDS
  ./ns3 configure "${flags[@]}" --enable-modules=rdma --enable-examples --enable-tests \
    --filter-module-examples-and-tests=rdma -- -DCMAKE_CXX_FLAGS_DEBUG=-O0 \
    >"$tree/rdma-configure.log" 2>&1 \
    || { tail -n 30 "$tree/rdma-configure.log"; return 1; }
  t_conf=$((SECONDS - t0))
  say "ns-3 $version: configured ($t_conf s); building"
  t0=$SECONDS
  # ./ns3 build runs one job less than the cores (one on CI's two): CMake directly uses all.
  nice cmake --build cmake-cache -j "$(nproc)" \
    --target test-runner rdma-run hpcc-flows-to-trace moe-alltoall rdma-ranks-check \
    >"$tree/rdma-build.log" 2>&1 \
    || { tail -n 40 "$tree/rdma-build.log"; return 1; }
  t_build=$((SECONDS - t0))
  say "ns-3 $version: built ($t_build s); ./test.py -s rdma"
  t0=$SECONDS
  # test.py colours its verdicts even into a pipe: the log is kept without the colours.
  ./test.py --no-build -s rdma --verbose 2>&1 | sed 's/\x1b\[[0-9;]*m//g' >"$tree/rdma-test.log" || true
  t_test=$((SECONDS - t0))
  grep -E '^(\[[0-9]+/[0-9]+\] )?(PASS|FAIL|CRASH|SKIP)|^[0-9]+ of [0-9]+ tests' "$tree/rdma-test.log" || true
  grep -qE '^(\[[0-9]+/[0-9]+\] )?PASS: TestSuite rdma$' "$tree/rdma-test.log" \
    || { echo "ns3-tree: ns-3 $version: ./test.py -s rdma did not pass (log: $tree/rdma-test.log)" >&2; return 1; }
  t0=$SECONDS
  ./ns3 run --no-build "rdma-run --list-keys" >"$tree/rdma-keys.md" 2>/dev/null \
    || { echo "ns3-tree: ns-3 $version: the example rdma-run did not run" >&2; return 1; }
  ./ns3 run --no-build "rdma-ranks-check --out=$tree/rdma-ranks" 2>/dev/null \
    | grep -q "27 flows completed, 0 drops" \
    || { echo "ns3-tree: ns-3 $version: rdma-ranks-check did not complete its 27 flows" >&2; return 1; }
  t_example=$((SECONDS - t0))
  diff -q "$tree/rdma-keys.md" "$ROOT/docs/scenario-keys.md" >/dev/null \
    || { echo "ns3-tree: ns-3 $version: rdma-run --list-keys differs from docs/scenario-keys.md" >&2; return 1; }
  say "ns-3 $version ($profile): passed; configure $t_conf s, build $t_build s, test.py $t_test s, example $t_example s"
}

# Sourced (./rdma setup --mpi unpacks its tree with tarball_tree): the functions only.
[[ "${BASH_SOURCE[0]}" != "$0" ]] && return 0

trees=()
profile=""
while (($#)); do
  case "$1" in
    --profile) profile="${2:?--profile needs debug, default or release}"; shift 2 ;;
    *) trees+=("$1"); shift ;;
  esac
done
if [[ -n "${RDMA_NS3_TREE:-}" ]]; then
  trees=("$RDMA_NS3_TREE")
elif ((${#trees[@]} == 0)); then
  trees=(debian "$ROOT/../shared/ns-3/ns-3.48-subset.tar.xz")
fi

passed=0 failed=0 skipped=0
for spec in "${trees[@]}"; do
  # Each tree in a subshell: a SKIPPED (77) or a failure in one leaves the others to run.
  set +e
  (
    set -e
    if [[ "$spec" == debian ]]; then
      tree="$(debian_tree)"; default_profile=release
    elif [[ -f "$spec" || "$spec" == *.tar.* ]]; then
      tree="$(tarball_tree "$spec")"; default_profile=debug
    else
      tree="$spec"; default_profile=debug
    fi
    check "$tree" "${profile:-$default_profile}"
  )
  rc=$?
  set -e
  case $rc in
    0) passed=$((passed + 1)) ;;
    77) skipped=$((skipped + 1)) ;;
    *) failed=$((failed + 1)) ;;
  esac
done
echo "ns3-tree: $passed passed, $failed failed, $skipped skipped"
((failed == 0)) || exit 1
((passed > 0)) || exit 77
