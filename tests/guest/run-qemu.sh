#!/usr/bin/env bash
# scripts/run-qemu's interface, which the other tools and tests rely on:
# the command's exit status comes back, arguments keep their quoting,
# --extra lands at /extra, --smp gives harts, a hung guest is killed
# with a message, OpenSBI's test suspend device is there only with
# --suspend-test, and bad options are refused with one.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One boot for the interface of a command that finishes: its status,
# its arguments, --extra, --smp, and no suspend without --suspend-test.
mkdir -p "$tmp/extra/sub"
echo "payload-$$" >"$tmp/extra/sub/file"
"$RUN_QEMU" --profile virt --smp 4 --extra "$tmp/extra" -- sh -c '
	echo "== args"; printf "[%s]\n" "$@"
	echo "== extra"; pwd; cat sub/file
	echo "== harts"; grep -c ^processor /proc/cpuinfo
	echo "== mem_sleep"; cat /sys/power/mem_sleep; echo "status=$?"
	exit 7' sh "a b" "it's" '$HOME' >"$tmp/out" 2>&1
rc=$?
check "the guest command's exit status (7) is run-qemu's" [ "$rc" = 7 ]

if [ "$(section args "$tmp/out")" = $'[a b]\n[it\'s]\n[$HOME]' ]; then
	ok "arguments reach the guest command unchanged"
else
	not_ok "arguments reach the guest command unchanged"
	diag "$(cat "$tmp/out")"
fi

if [ "$(section extra "$tmp/out")" = $'/extra\npayload-'$$ ]; then
	ok "--extra DIR appears at /extra, the command's working directory"
else
	not_ok "--extra DIR appears at /extra, the command's working directory"
	diag "$(cat "$tmp/out")"
fi

check "--smp 4 boots four harts" [ "$(section harts "$tmp/out")" = 4 ]

# Only --suspend-test gives OpenSBI its test system-suspend device: the
# other guests have no suspend to RAM.
sec=$(section mem_sleep "$tmp/out")
if grep -qx 'status=0' <<<"$sec" && ! grep -q deep <<<"$sec"; then
	ok "without --suspend-test the firmware offers no system suspend (mem_sleep: $(head -n 1 <<<"$sec"))"
else
	not_ok "without --suspend-test the firmware offers no system suspend"
	diag "$(cat "$tmp/out")"
fi

"$RUN_QEMU" --profile virt --timeout 3 -- sleep 600 >"$tmp/out" 2>&1
rc=$?
if [ "$rc" = 124 ] && grep -q 'did not finish within 3s' "$tmp/out"; then
	ok "a guest that does not finish is killed after --timeout with a message"
else
	not_ok "a guest that does not finish is killed after --timeout with a message"
	diag "status $rc" "$(tail -n 5 "$tmp/out")"
fi

"$RUN_QEMU" --profile nosuch -- true >"$tmp/out" 2>&1
rc=$?
if [ "$rc" != 0 ] && grep -q "unknown profile 'nosuch'" "$tmp/out" &&
	grep -q 'cva6' "$tmp/out"; then
	ok "an unknown profile is refused, naming the profiles there are"
else
	not_ok "an unknown profile is refused, naming the profiles there are"
	diag "status $rc" "$(cat "$tmp/out")"
fi

# make run, as a newcomer first types it, counts guest instructions
# exactly (QEMU -icount by default; without it QEMU's instret follows the
# host clock: 52 and 93 million "instructions" for this loop of 2
# million in two runs on 2026-11-28) and says so.  The loop process
# also runs its start-up (the dynamic loader is not there: knownloop is
# static) and the kernel's exec and exit: about 8 % of 2 * 10^6 on
# Linux 6.12, 17 to 22 % on 7.2 (its kernel preempts, PREEMPT_LAZY).
make -s -C "$TOP" run CMD='perf stat -x";" -o /tmp/s -e instructions knownloop 1000000; cat /tmp/s' \
	>"$tmp/make-run" 2>&1
n=$(field 1 instructions <"$tmp/make-run")
if is_number "$n" && [ "$n" -ge 2000000 ] && within_pct "$n" 2000000 25 &&
	grep -q '^make run: virt, Linux 7.2, exact counts (QEMU -icount' "$tmp/make-run"; then
	ok "make run CMD='perf stat -e instructions knownloop 1000000': $n instructions for a 2 * 10^6-instruction loop, and it says the counts are exact"
else
	not_ok "make run CMD='perf stat -e instructions knownloop 1000000': about 2 * 10^6 instructions, and it says the counts are exact (got '$n')"
	diag "$(tail -n 15 "$tmp/make-run")"
fi

# make run CMD='...' hands the command to the guest's shell as typed,
# through none of make's expansion (which made $i, $? and $HOME of
# "for i in 1 2; do echo "i=$i"; done; echo "status=$?"; echo
# "home=$HOME"" print i=, i=, status=build and home=OME): shell
# variables, $?, $(...), $((...)), quotes, backslashes, %, # and commas,
# and text that make would take for its own ($(CMD), $(shell ...)).
read -r -d '' cmd <<'EOF'
echo "== cmd"; for i in 1 2; do echo "i=$i"; done; false; echo "status=$?"; echo "home=$HOME"; printf '[%s]\n' "$(echo sub)" 'it'\''s' "back\\slash" 'a\nb' '%' '#' "$((6 * 7))" ',' '$(CMD)' '$(shell echo host)'
EOF
make -s -C "$TOP" run CMD="$cmd" >"$tmp/make-cmd" 2>&1
rc=$?
want=$(printf '%s\n' i=1 i=2 status=1 home=/root '[sub]' "[it's]" '[back\slash]' '[a\nb]' '[%]' '[#]' '[42]' '[,]' '[$(CMD)]' '[$(shell echo host)]')
got=$(section cmd "$tmp/make-cmd")
if [ "$rc" = 0 ] && [ "$got" = "$want" ]; then
	ok "make run CMD='for i in 1 2; do echo \"i=\$i\"; done; ...' reaches the guest's shell as typed (i=1, i=2, \$?, \$HOME, \$(...), quotes, backslashes)"
else
	not_ok "make run CMD='for i in 1 2; do echo \"i=\$i\"; done; ...' reaches the guest's shell as typed"
	diag "status $rc" "command: $cmd" "want:" "$want" "got:" "$got" "$(tail -n 5 "$tmp/make-cmd")"
fi

# The kernel: 7.2 by default, the 6.12 backport with LINUX=6.12; a
# kernel with no series is refused.
make -s -C "$TOP" run CMD='uname -r' >"$tmp/uname-default" 2>&1
make -s -C "$TOP" run LINUX=6.12 CMD='uname -r' >"$tmp/uname-6.12" 2>&1
r72=$(grep -E '^[0-9]+\.[0-9]+' "$tmp/uname-default" | tail -n 1)
r612=$(grep -E '^[0-9]+\.[0-9]+' "$tmp/uname-6.12" | tail -n 1)
if [[ $r72 == 7.2.* ]] && grep -q '^make run: virt, Linux 7.2,' "$tmp/uname-default"; then
	ok "make run CMD='uname -r' boots Linux 7.2 ($r72)"
else
	not_ok "make run CMD='uname -r' boots Linux 7.2"
	diag "$(tail -n 5 "$tmp/uname-default")"
fi
if [[ $r612 == 6.12.* ]] && grep -q '^make run: virt, Linux 6.12,' "$tmp/uname-6.12"; then
	ok "make run LINUX=6.12 CMD='uname -r' boots the 6.12 backport ($r612)"
else
	not_ok "make run LINUX=6.12 CMD='uname -r' boots the 6.12 backport"
	diag "$(tail -n 5 "$tmp/uname-6.12")"
fi
# make run's first line says what runs, and a build with nothing to
# rebuild (these runs come after the ones above) prints nothing: no
# [build] lines before the command's output.
first=$(head -n 1 "$tmp/uname-default")
if [[ $first == "make run: virt, Linux 7.2, exact counts"* ]] &&
	! grep -Eq '^\[[a-z0-9-]+\] ' "$tmp/uname-default"; then
	ok "make run CMD='uname -r': its first line is '$first', and the build, with nothing to rebuild, prints nothing"
else
	not_ok "make run CMD='uname -r': its first line says what runs, and the build, with nothing to rebuild, prints nothing"
	diag "$(head -n 30 "$tmp/uname-default")"
fi
# The same without the CVA6 tarballs, as a newcomer who did not set them
# runs it: the model is not built, and make run says nothing of it.
env -u CVA6_TARBALL -u SPIKE_TARBALL make -s -C "$TOP" run CMD='uname -r' >"$tmp/uname-nortl" 2>&1
if [[ $(head -n 1 "$tmp/uname-nortl") == "make run: virt, Linux 7.2, exact counts"* ]] &&
	grep -q '^7\.2\.' "$tmp/uname-nortl" && ! grep -Eq '^\[[a-z0-9-]+\] ' "$tmp/uname-nortl"; then
	ok "make run CMD='uname -r' without CVA6_TARBALL and SPIKE_TARBALL: no [build] line"
else
	not_ok "make run CMD='uname -r' without CVA6_TARBALL and SPIKE_TARBALL: no [build] line"
	diag "$(head -n 30 "$tmp/uname-nortl")"
fi
# On a profile that stands in for a real core, make run says which of
# that core's events QEMU counts: the project's headline example,
# perf stat -e ariane_load on the cva6 profile, printed 0 and said
# nothing.  The default profile, QEMU's own, says nothing of the kind.
make -s -C "$TOP" run PROFILE=cva6 CMD='perf stat -x";" -o /tmp/s -e ariane_load knownloop 1000; cat /tmp/s' \
	>"$tmp/make-cva6" 2>&1
n=$(field 1 ariane_load <"$tmp/make-cva6")
if [ "$n" = 0 ] &&
	grep -q '^make run: QEMU stands in for the CVA6 and counts none of its events: ariane_load .* read 0' "$tmp/make-cva6" &&
	grep -q 'scripts/run-rtl --core cva6' "$tmp/make-cva6" &&
	! grep -q 'stands in' "$tmp/uname-default"; then
	ok "make run PROFILE=cva6 CMD='perf stat -e ariane_load ...' says QEMU does not count the CVA6's events (ariane_load: $n) and where they are counted"
else
	not_ok "make run PROFILE=cva6 CMD='perf stat -e ariane_load ...' says QEMU does not count the CVA6's events and where they are counted"
	diag "ariane_load: '$n'" "$(head -n 5 "$tmp/make-cva6")"
fi
# The default profile refuses :u, :k and sampling (no Sscofpmf): make
# run says so and names the profile that has them, before the command
# meets the refusal (perf's own message points at an empty dmesg).
make -s -C "$TOP" run CMD='perf stat -e instructions:u true' >"$tmp/make-u" 2>&1
if grep -q '^make run: virt has no Sscofpmf: .* PROFILE=virt-sscofpmf has both' "$tmp/make-u" &&
	grep -q 'instructions:u' "$tmp/make-u" && grep -Eq 'not supported|Invalid argument' "$tmp/make-u"; then
	ok "make run CMD='perf stat -e instructions:u ...' on virt: refused, and make run names PROFILE=virt-sscofpmf"
else
	not_ok "make run CMD='perf stat -e instructions:u ...' on virt: refused, and make run names PROFILE=virt-sscofpmf"
	diag "$(head -n 12 "$tmp/make-u")"
fi
"$RUN_QEMU" --profile virt --linux 5.10 -- true >"$tmp/out" 2>&1
rc=$?
if [ "$rc" != 0 ] && grep -q "no series for Linux '5.10'" "$tmp/out"; then
	ok "--linux 5.10 is refused, naming the kernels there are ($(head -n 1 "$tmp/out"))"
else
	not_ok "--linux 5.10 is refused, naming the kernels there are"
	diag "status $rc" "$(cat "$tmp/out")"
fi
