#!/bin/sh
# The C++ sources follow ns-3's style (.clang-format at the repository root, ns-3.37's):
# fails listing the files clang-format would change. Fix with:
#   clang-format -i $(git ls-files '*.cc' '*.h')
set -eu
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null 2>&1 || {
  echo "check_format: clang-format not found (./rdma setup installs it)" >&2
  exit 1
}
files=$(find src test scratch bench -name '*.cc' -o -name '*.h' | sort)
# One call for all (fast); on failure clang-format names each file and line.
if ! clang-format --dry-run --Werror $files; then
  echo "check_format: the files above are not in ns-3 style (run clang-format -i on them)" >&2
  exit 1
fi
echo "check_format: $(echo "$files" | wc -l) files in ns-3 style"
