#!/usr/bin/env bash
# Two builds side by side (two suites' make run, as tests/run runs
# suites two at a time): with nothing changed, each build-kernel of the
# RV32 and KVM kernels finds its kernel up to date and configures
# nothing.  Every prepare-linux rewrote series.current (truncated, then
# written), which build-kernel reads without a lock for its configuration
# key, and the RV32 and KVM fragments went through one shared temporary
# file: a build beside another read a key it had not configured with,
# configured its kernel again and rebuilt it (run-qemu.sh's "nothing to
# rebuild" check failed so, now and then; 4 and 2 of 80 runs here).
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rounds=40
for variant in "--xlen 32" "--variant kvm"; do
	# shellcheck disable=SC2086
	if ! "$TOP/scripts/build-kernel" $variant >"$tmp/first" 2>&1; then
		not_ok "build-kernel $variant runs"
		diag "$(tail -n 5 "$tmp/first")"
		continue
	fi
	for i in $(seq "$rounds"); do
		# shellcheck disable=SC2086
		"$TOP/scripts/build-kernel" $variant >"$tmp/a.$i" 2>&1 &
		# shellcheck disable=SC2086
		"$TOP/scripts/build-kernel" $variant >"$tmp/b.$i" 2>&1
		wait
	done
	bad=$(grep -l -e 'configuring' -e 'building' -e 'error' "$tmp"/[ab].* || true)
	if [ -z "$bad" ]; then
		ok "build-kernel $variant, $rounds times two side by side: always up to date, never configured again"
	else
		not_ok "build-kernel $variant, $rounds times two side by side: always up to date, never configured again"
		diag "$(wc -l <<<"$bad") of $((2 * rounds)) runs configured or built:" "$(cat "$(head -n 1 <<<"$bad")")"
	fi
	rm -f "$tmp"/[ab].*
done
