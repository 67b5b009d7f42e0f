# Shared settings for the build and run scripts (sourced, not run).
# Everything built lives in a cache outside the clone, keyed by the
# inputs that matter, so a fresh clone reuses earlier builds.
: "${HPM_CACHE:=${XDG_CACHE_HOME:-$HOME/.cache}/riscv-hpm-perf}"
export HPM_CACHE
OPENSBI_FW=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin
CROSS_COMPILE=riscv64-linux-gnu-
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

log() { printf '[%s] %s\n' "$(basename "$0")" "$*" >&2; }
die() { printf '%s: error: %s\n' "$(basename "$0")" "$*" >&2; exit 1; }
