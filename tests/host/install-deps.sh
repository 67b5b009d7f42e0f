#!/usr/bin/env bash
# scripts/fetch-debian, the riscv64-userland fetch of scripts/install-deps,
# against a stand-in apt-get: a suite whose index is broken (the "Mirror
# sync in progress?" failure) or that does not exist, or that lacks the
# package, is reported and the next suite is tried; the mirror comes from
# the machine's apt sources; when no suite serves the package the fetch
# fails with a message and leaves the destination as it was.  Also: the
# repository names no package host.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A real .deb for the stand-in to hand out.
mkdir -p "$tmp/pkg/DEBIAN" "$tmp/pkg/bin"
printf 'Package: busybox-static\nVersion: 1:9.9-1\nArchitecture: riscv64\nMaintainer: t <t@localhost>\nDescription: t\n' \
	>"$tmp/pkg/DEBIAN/control"
printf '#!/bin/sh\necho stand-in\n' >"$tmp/pkg/bin/busybox"
chmod 755 "$tmp/pkg/bin/busybox"
dpkg-deb -b "$tmp/pkg" "$tmp/busybox-static_9.9-1_riscv64.deb" >/dev/null

# The stand-in: STUB_BROKEN suites fail their index as the mirror did,
# STUB_MISSING suites have no such package, any other suite serves the
# .deb.  It logs every sources line it is given.
mkdir -p "$tmp/bin"
cat >"$tmp/bin/apt-get" <<'STUB'
#!/usr/bin/env bash
list= cmd=
for a in "$@"; do
	case $a in
	Dir::Etc::SourceList=*) list=${a#*=} ;;
	indextargets|update|download) cmd=$a ;;
	esac
done
case $cmd in
indextargets)
	echo "bookworm http://mirror.test/debian/"
	echo "bookworm-security http://security.test/debian-security/"
	exit 0 ;;
esac
line=$(cat "$list")
echo "$cmd $line" >>"$STUB_LOG"
suite=$(echo "$line" | awk '{ print $(NF - 1) }')
case $cmd in
update)
	case " $STUB_BROKEN " in *" $suite "*)
		echo "E: Failed to fetch $suite/main/binary-riscv64/Packages.xz  File has unexpected size (1 != 2). Mirror sync in progress?"
		echo "E: Some index files failed to download. They have been ignored, or old ones used instead."
		exit "${STUB_UPDATE_STATUS:-100}" ;;
	esac
	exit 0 ;;
download)
	case " $STUB_MISSING " in *" $suite "*)
		echo "E: Can't select candidate version from package busybox-static:riscv64 as it has no candidate"
		exit 100 ;;
	esac
	cp "$STUB_DEB" . ;;
esac
STUB
chmod +x "$tmp/bin/apt-get"

# fetch OUT [ENV...] -- ARGS...: run fetch-debian with the stand-in.
fetch() {
	local out=$1
	shift
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	env PATH="$tmp/bin:$PATH" HPM_CACHE="$tmp/cache" STUB_LOG="$tmp/apt.log" \
		STUB_DEB="$tmp/busybox-static_9.9-1_riscv64.deb" "${envs[@]}" \
		"$TOP/scripts/fetch-debian" "$@" >"$out" 2>&1
}

: >"$tmp/apt.log"
fetch "$tmp/out1" STUB_BROKEN="nosuch trixie" STUB_MISSING= -- \
	--suites "nosuch trixie forky sid" busybox-static "$tmp/dest1"
rc=$?
if [ $rc = 0 ] && [ -x "$tmp/dest1/bin/busybox" ] &&
	grep -qx 'busybox-static:riscv64 1:9.9-1 from forky' "$tmp/dest1/.fetched"; then
	ok "fetch-debian: broken first suites (nosuch, trixie), the package comes from forky"
else
	not_ok "fetch-debian: broken first suites (nosuch, trixie), the package comes from forky"
	diag "status $rc" "$(cat "$tmp/out1")"
fi
grep -q 'nosuch: cannot get busybox-static:riscv64' "$tmp/out1" &&
	grep -q 'trixie: cannot get busybox-static:riscv64' "$tmp/out1" &&
	grep -q 'Mirror sync in progress' "$tmp/out1" &&
	grep -q 'using busybox-static:riscv64 1:9.9-1 from forky' "$tmp/out1"
check "fetch-debian names each failed suite, apt's reason, and the suite finally used" [ $? = 0 ]
check "fetch-debian stops at the first suite that works (sid never asked)" \
	bash -c "! grep -q ' sid main' '$tmp/apt.log'"
check "fetch-debian takes the mirror from the machine's apt sources" \
	bash -c "grep -q '^update deb \[arch=riscv64 [^]]*\] http://mirror.test/debian/ forky main$' '$tmp/apt.log'"

# apt-get update that exits 0 yet printed E: lines is a broken suite too.
fetch "$tmp/out2" STUB_BROKEN=trixie STUB_UPDATE_STATUS=0 STUB_MISSING= -- \
	busybox-static "$tmp/dest2"
check "fetch-debian: an index error with update status 0 still moves on (default list: trixie, then forky)" \
	grep -qx 'busybox-static:riscv64 1:9.9-1 from forky' "$tmp/dest2/.fetched"

fetch "$tmp/out3" STUB_BROKEN= STUB_MISSING="trixie forky" -- busybox-static "$tmp/dest3"
if grep -qx 'busybox-static:riscv64 1:9.9-1 from sid' "$tmp/dest3/.fetched" 2>/dev/null &&
	grep -q 'forky: cannot get' "$tmp/out3"; then
	ok "fetch-debian: suites without the package are skipped (trixie, forky), sid serves it"
else
	not_ok "fetch-debian: suites without the package are skipped (trixie, forky), sid serves it"
	diag "$(cat "$tmp/out3")"
fi

mkdir -p "$tmp/dest4" && echo keep >"$tmp/dest4/old"
fetch "$tmp/out4" STUB_BROKEN="trixie forky sid" STUB_MISSING= -- busybox-static "$tmp/dest4"
rc=$?
if [ $rc != 0 ] && grep -q 'is in none of the suites tried: trixie forky sid' "$tmp/out4" &&
	[ "$(cat "$tmp/dest4/old")" = keep ] && [ ! -e "$tmp/dest4/bin" ]; then
	ok "fetch-debian: no suite works: fails, says so, leaves the destination as it was"
else
	not_ok "fetch-debian: no suite works: fails, says so, leaves the destination as it was"
	diag "status $rc" "$(cat "$tmp/out4")"
fi

fetch "$tmp/out5" HPM_DEBIAN_MIRROR=http://override.test/debian STUB_BROKEN= STUB_MISSING= -- \
	busybox-static "$tmp/dest5"
check "fetch-debian: HPM_DEBIAN_MIRROR overrides the machine's mirror" \
	bash -c "tail -n 1 '$tmp/apt.log' | grep -q ' http://override.test/debian trixie main$'"

hosts=$(git -C "$TOP" grep -nIE '(deb|ftp|security|snapshot|archive)\.debian\.org|ubuntu\.com|pypi\.org|registry\.npmjs' -- . ':!tests/host/install-deps.sh' || true)
if [ -z "$hosts" ]; then
	ok "no package host is named in the repository"
else
	not_ok "no package host is named in the repository"
	diag "$hosts"
fi
