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

# update_file FILE: standard input becomes FILE's content, only when it
# differs, and whole (written to a file of this process's own, then
# renamed): builds side by side read such files without a lock, and one
# that saw it empty or half-written would configure its kernel again.
update_file() {
	cat >"$1.$$"
	if cmp -s "$1.$$" "$1"; then
		rm -f "$1.$$"
	else
		mv "$1.$$" "$1"
	fi
}

# The Linux the series are built on and the guests boot: 7.2 (mainline,
# the primary series, linux-patches/7.2) or 6.12 (Debian stable's kernel,
# the backport, linux-patches/6.12).  Every script that builds or boots a
# kernel follows $HPM_LINUX.
: "${HPM_LINUX:=7.2}"
export HPM_LINUX
LINUX_VERSIONS="7.2 6.12"

# linux_check [VER]: die unless VER (default $HPM_LINUX) has a series.
linux_check() {
	case ${1:-$HPM_LINUX} in
	7.2 | 6.12) ;;
	*) die "no series for Linux '${1:-$HPM_LINUX}': 7.2 (mainline) or 6.12 (Debian stable)" ;;
	esac
}

# The Debian source package of each: 6.12 is installed from
# bookworm-backports into /usr/src; 7.2 (arch all) is fetched from sid,
# or forky when sid's index cannot be read, into the cache
# (scripts/fetch-linux-source).
linux_package() { echo "linux-source-${1:-$HPM_LINUX}"; }
linux_fetched_dir() { echo "$HPM_CACHE/downloads/$(linux_package "$@")"; }

# linux_tarball [VER]: the source tarball's path.
linux_tarball() {
	local ver=${1:-$HPM_LINUX}
	linux_check "$ver"
	case $ver in
	6.12) echo "/usr/src/linux-source-6.12.tar.xz" ;;
	*) ls "$(linux_fetched_dir "$ver")"/linux-source-*.tar.* 2>/dev/null | head -n 1 ;;
	esac
}

# linux_version [VER]: the Debian package's version, the key of the
# source and build caches.
linux_version() {
	local ver=${1:-$HPM_LINUX}
	linux_check "$ver"
	case $ver in
	6.12)
		dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null ||
			die "package linux-source-6.12 is not installed: run scripts/install-deps" ;;
	*)
		awk '{ print $2 }' "$(linux_fetched_dir "$ver")/.fetched" 2>/dev/null | grep . ||
			die "linux-source-$ver is not fetched: run scripts/install-deps" ;;
	esac
}

# linux_series [VER]: the series directories of VER's patches, in the
# order they apply (linux-patches/<VER>/<N>-<name>).
linux_series() {
	local d
	for d in "$TOP/linux-patches/${1:-$HPM_LINUX}"/[0-9]*-*/; do
		[ -d "$d" ] && echo "${d%/}"
	done | sort -V
}

# linux_series_patches [VER]: every patch of VER's series, in git am
# order; a series' cover letter (0000-cover-letter.patch) is not a patch.
linux_series_patches() {
	local d p
	for d in $(linux_series "$@"); do
		for p in "$d"/[0-9][0-9][0-9][0-9]-*.patch; do
			[ -e "$p" ] && [ "${p##*/}" != 0000-cover-letter.patch ] && echo "$p"
		done
	done
	return 0
}

# The guest artifacts of this clone (kernel, perf, initramfs) are copied
# here from the cache, so run-qemu boots what this clone built.  The
# workloads, the RV32 guest and the KVM kernel live in GUEST_OUT; the
# Image and initramfs of a kernel in its KERNEL_OUT: GUEST_OUT itself for
# 7.2, GUEST_OUT/linux-6.12 for the backport.
GUEST_OUT="$TOP/build/guest"
# kernel_out [VER]
kernel_out() {
	case ${1:-$HPM_LINUX} in
	7.2) echo "$GUEST_OUT" ;;
	*) echo "$GUEST_OUT/linux-${1:-$HPM_LINUX}" ;;
	esac
}

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
