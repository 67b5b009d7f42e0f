#!/usr/bin/env bash
# scripts/run-qemu's interface, which the other tools and tests rely on:
# the command's exit status comes back, arguments keep their quoting,
# --extra lands at /extra, --smp gives harts, a hung guest is killed
# with a message, OpenSBI's test suspend device is there only with
# --suspend-test, and bad options are refused with one.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$RUN_QEMU" --profile virt -- sh -c 'exit 7' >"$tmp/out" 2>&1
rc=$?
check "the guest command's exit status (7) is run-qemu's" [ "$rc" = 7 ]

"$RUN_QEMU" --profile virt -- printf '[%s]\n' "a b" "it's" '$HOME' >"$tmp/out" 2>&1
if [ "$(cat "$tmp/out")" = $'[a b]\n[it\'s]\n[$HOME]' ]; then
	ok "arguments reach the guest command unchanged"
else
	not_ok "arguments reach the guest command unchanged"
	diag "$(cat "$tmp/out")"
fi

mkdir -p "$tmp/extra/sub"
echo "payload-$$" >"$tmp/extra/sub/file"
"$RUN_QEMU" --profile virt --extra "$tmp/extra" -- sh -c 'pwd; cat sub/file' >"$tmp/out" 2>&1
if [ "$(cat "$tmp/out")" = $'/extra\npayload-'$$ ]; then
	ok "--extra DIR appears at /extra, the command's working directory"
else
	not_ok "--extra DIR appears at /extra, the command's working directory"
	diag "$(cat "$tmp/out")"
fi

"$RUN_QEMU" --profile virt --smp 4 -- sh -c 'grep -c ^processor /proc/cpuinfo' >"$tmp/out" 2>&1
check "--smp 4 boots four harts" [ "$(cat "$tmp/out")" = 4 ]

# Only --suspend-test gives OpenSBI its test system-suspend device: the
# other guests have no suspend to RAM.
"$RUN_QEMU" --profile virt -- cat /sys/power/mem_sleep >"$tmp/out" 2>&1
rc=$?
if [ "$rc" = 0 ] && ! grep -q deep "$tmp/out"; then
	ok "without --suspend-test the firmware offers no system suspend (mem_sleep: $(cat "$tmp/out"))"
else
	not_ok "without --suspend-test the firmware offers no system suspend"
	diag "status $rc" "$(cat "$tmp/out")"
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
