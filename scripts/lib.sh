# Shared settings for the build and run scripts (sourced, not run).
# Everything built lives in a cache outside the clone, keyed by the
# inputs that matter, so a fresh clone reuses earlier builds.
: "${HPM_CACHE:=${XDG_CACHE_HOME:-$HOME/.cache}/riscv-hpm-perf}"
export HPM_CACHE
DEBIAN_OPENSBI_FW=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin
CROSS_COMPILE=riscv64-linux-gnu-
case ${BASH_SOURCE[0]} in */*) TOP=${BASH_SOURCE[0]%/*}/.. ;; *) TOP=.. ;; esac
TOP=$(cd "$TOP" && pwd)

# debian_mirror: the Debian archive the machine's apt sources use (the
# repository serving its own release), or $HPM_DEBIAN_MIRROR.  The
# project names no package host of its own.
debian_mirror() {
	if [ -n "${HPM_DEBIAN_MIRROR:-}" ]; then
		echo "$HPM_DEBIAN_MIRROR"
		return
	fi
	local codename
	codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
	apt-get indextargets --format '$(RELEASE) $(REPO_URI)' 'Created-By: Packages' 2>/dev/null |
		awk -v want="${codename:-bookworm}" '$1 == want { print $2; exit }'
}

log() { printf '[%s] %s\n' "$(basename "$0")" "$*" >&2; }
die() { printf '%s: error: %s\n' "$(basename "$0")" "$*" >&2; exit 1; }

# Debian's linux-source-6.12 package version: the key of the source and
# build caches.
linux_version() {
	dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null ||
		die "package linux-source-6.12 is not installed: run scripts/install-deps"
}

# The guest artifacts of this clone (kernel, perf, initramfs) are copied
# here from the cache, so run-qemu boots what this clone built.
GUEST_OUT="$TOP/build/guest"

# kmake SRC OUT ARGS...: the kernel's make on tree SRC, objects in OUT,
# for riscv with ccache and reproducible build stamps.
kmake() {
	local src=$1 out=$2
	shift 2
	make -C "$src" O="$out" ARCH=riscv CROSS_COMPILE="$CROSS_COMPILE" \
		CC="ccache ${CROSS_COMPILE}gcc" \
		KBUILD_BUILD_TIMESTAMP="2024-01-01" KBUILD_BUILD_USER=hpm \
		KBUILD_BUILD_HOST=hpm "$@"
}

# tree_state SRC: what a build from the git tree SRC depends on in it, as
# a hash: its commit and the contents of its tracked files' changes (each
# hand edit counts, a second edit of a file already changed too).
# A build whose stamp holds the same value (and the same settings) has
# nothing to do, which spares make's walk of the whole tree.
tree_state() {
	{ git -C "$1" rev-parse HEAD; git -C "$1" diff HEAD --binary; } |
		sha256sum | cut -c1-16
}
