#!/usr/bin/env bash
# perf-events-json/ is the one home of the perf event tables: the patches
# of the perf tool series that carry them
# (linux-patches/<VER>/*-perf-tools/*-perf-vendor-events-riscv-*, for 7.2
# and for 6.12) must be exactly what scripts/gen-perf-events-patch makes
# of the tables now.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for ver in 7.2 6.12; do
	if "$TOP/scripts/gen-perf-events-patch" --linux "$ver" --check >"$tmp/out" 2>&1; then
		ok "linux-patches/$ver: the table patches are what perf-events-json/ generates"
	else
		not_ok "linux-patches/$ver: the table patches are what perf-events-json/ generates"
		diag "$(head -n 40 "$tmp/out")"
	fi
done

# The generated patches are the submitter's: written anew by someone whose
# git identity is another, they carry that identity (From:, Signed-off-by:,
# the MAINTAINERS entry of the perf tables), and a check passes whoever
# runs it, against the identity the committed patches name.  The writing
# is done in a copy of the generators, the tables and the patches.
other_name="Ada Tester" other_email="ada@example.org"
as_other() {
	GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0="$other_name" \
		GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1="$other_email" "$@"
}
if as_other "$TOP/scripts/gen-perf-events-patch" --linux 7.2 --check >"$tmp/out" 2>&1 &&
	as_other "$TOP/scripts/gen-libpfm4-tables" --check >>"$tmp/out" 2>&1; then
	ok "the table patches check against their own author, whoever runs the check"
else
	not_ok "the table patches check against their own author, whoever runs the check"
	diag "$(head -n 20 "$tmp/out")"
fi
src=$("$TOP/scripts/prepare-linux" --linux 7.2 --pristine 2>/dev/null | tail -n 1)
mkdir -p "$tmp/copy/papi"
cp -a "$TOP/scripts" "$TOP/perf-events-json" "$TOP/linux-patches" "$tmp/copy/"
cp -a "$TOP/papi/libpfm4-patches" "$tmp/copy/papi/"
written=$(ls "$tmp"/copy/linux-patches/7.2/*-perf-tools/*-perf-vendor-events-riscv-Add-the-CVA6*.patch)
libpfm="$tmp/copy/papi/libpfm4-patches/0001-Add-the-RISC-V-event-tables.patch"
if as_other "$tmp/copy/scripts/gen-perf-events-patch" --linux 7.2 --src "$src" >"$tmp/out" 2>&1 &&
	as_other "$tmp/copy/scripts/gen-libpfm4-tables" --src "$src" >>"$tmp/out" 2>&1 &&
	grep -q "^From: $other_name <$other_email>" "$written" &&
	grep -q "^Signed-off-by: $other_name <$other_email>" "$written" &&
	grep -q "^+M:	$other_name <$other_email>" "$written" &&
	grep -q "^From: $other_name <$other_email>" "$libpfm" &&
	! grep -q 'Seed d81d985e' "$written" "$libpfm" &&
	"$tmp/copy/scripts/gen-perf-events-patch" --linux 7.2 --src "$src" --check >>"$tmp/out" 2>&1; then
	ok "written anew, the table patches are from git config's user ($other_name), and check so"
else
	not_ok "written anew, the table patches are from git config's user ($other_name), and check so"
	diag "$(head -n 20 "$tmp/out")" "$(grep -m3 '^From:\|^Signed-off-by:\|^+M:' "$written" "$libpfm")"
fi

# Every table directory of perf-events-json/ has its mapfile line, and
# every mapfile line names a table that exists.
if python3 - "$TOP/perf-events-json" >"$tmp/out" 2>&1 <<'PY'
import os, sys
top = sys.argv[1]
tables = {os.path.relpath(d, top) for d, _, files in os.walk(top)
          if any(f.endswith('.json') for f in files)}
lines = [l.split(',') for l in open(os.path.join(top, 'mapfile.csv')).read().splitlines()
         if l.strip() and not l.startswith('#')]
mapped = {f[2] for f in lines}
bad = [f for f in lines if len(f) != 4 or f[3] != 'core']
for t in sorted(tables - mapped): print('no mapfile line for', t)
for t in sorted(mapped - tables): print('mapfile line for missing table', t)
for f in bad: print('malformed line', ','.join(f))
sys.exit(bool(tables ^ mapped or bad))
PY
then
	ok "perf-events-json/mapfile.csv maps exactly the tables there are"
else
	not_ok "perf-events-json/mapfile.csv maps exactly the tables there are"
	diag "$(cat "$tmp/out")"
fi

