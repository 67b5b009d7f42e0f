#!/usr/bin/env bash
# The HPM driver's event placement (drivers/perf/riscv_pmu_hpm.c:
# hpm_augment(), taken as it is from the patched tree) is a maximum
# matching: events are added one at a time, each with the counters its
# mask allows, and a set of events gets counters exactly when some
# assignment of distinct allowed counters exists (an exhaustive search
# decides), whatever the order they come in.  Every placement it makes
# gives each event a counter its mask allows, and no counter to two.
# Random sets of up to 8 events on up to 8 of 32 counters, compiled for
# the host.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
desc="HPM placement: events get counters exactly when their masks allow an assignment, each on a counter of its mask"

if ! src=$("$TOP/scripts/prepare-linux" 2>"$tmp/prep"); then
	not_ok "$desc"
	diag "the series does not apply:" "$(cat "$tmp/prep")"
	exit 0
fi
src=$(tail -n 1 <<<"$src")
drv="$src/drivers/perf/riscv_pmu_hpm.c"
{
	grep -m1 '^#define HPM_NUM_COUNTERS' "$drv"
	grep -m1 '^#define HPM_IDX_INSTRET' "$drv"
	grep -m1 '^#define HPM_MATCH_SLOTS' "$drv"
	awk '/^struct hpm_match \{$/ { on = 1 } on { print } on && /^};$/ { exit }' "$drv"
	for f in hpm_match_init hpm_augment; do
		awk -v n="$f" '!on && /^static / && !/;$/ && index($0, " " n "(") { on = 1 }
			on { print } on && /^}$/ { exit }' "$drv"
	done
} >"$tmp/match.c"
if ! grep -q 'hpm_augment' "$tmp/match.c"; then
	not_ok "$desc"
	diag "no hpm_augment() in $drv"
	exit 0
fi

cat >"$tmp/harness.c" <<'C'
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef signed char s8;
typedef unsigned char u8;
typedef unsigned long long u64;
#define BIT(n) (1UL << (n))
#define for_each_set_bit(bit, addr, size) \
	for ((bit) = 0; (bit) < (size); (bit)++) \
		if (*(addr) >> (bit) & 1)

#include "match.c"

/* Can events 0..n-1 (masks a[]) have distinct counters outside used? */
static bool fits(const unsigned long *a, int n, unsigned long used)
{
	if (!n)
		return true;
	for (int c = 0; c < HPM_NUM_COUNTERS; c++)
		if ((a[0] & BIT(c)) && !(used & BIT(c)) && fits(a + 1, n - 1, used | BIT(c)))
			return true;
	return false;
}

int main(void)
{
	int wrong = 0, trials = 20000, full = 0;

	srand(1);
	for (int t = 0; t < trials; t++) {
		struct hpm_match m;
		unsigned long a[8], ctrs = 0;
		int n = 1 + rand() % 8, added = 0;

		/* Up to 8 counters of the 32, as a core implements some. */
		while (__builtin_popcountl(ctrs) < 1 + rand() % 8)
			ctrs |= BIT(3 + rand() % 29);
		hpm_match_init(&m);
		for (int i = 0; i < n; i++) {
			a[i] = (rand() & rand() & ctrs) ?: ctrs;
			m.allowed[i] = a[i];
#ifdef MATCH_SEEN
			/* Earlier revisions: a recursive search, reset by the caller. */
			m.seen = 0;
#endif
			if (!hpm_augment(&m, i))
				break;
			added++;
		}
		/* Added all exactly when all fit; else the first that failed. */
		if ((added == n) != fits(a, n, 0) ||
		    (added < n && fits(a, added + 1, 0))) {
			printf("trial %d: %d of %d events placed, an assignment %s\n",
			       t, added, n, fits(a, n, 0) ? "exists" : "does not");
			wrong++;
		}
		full += added == n;
		for (int c = 0; c < HPM_NUM_COUNTERS; c++) {
			int s = m.owner[c];

			if (s >= 0 && (s >= added || !(a[s] & BIT(c)))) {
				printf("trial %d: counter %d given to event %d (mask %#lx)\n",
				       t, c, s, s < n ? a[s] : 0);
				wrong++;
			}
		}
		for (int s = 0; s < added; s++) {
			int held = 0;

			for (int c = 0; c < HPM_NUM_COUNTERS; c++)
				held += m.owner[c] == s;
			if (held != 1) {
				printf("trial %d: event %d holds %d counters\n", t, s, held);
				wrong++;
			}
		}
	}
	printf("trials=%d all_placed=%d wrong=%d\n", trials, full, wrong);
	return wrong != 0;
}
C
seen=
grep -q '^	unsigned long seen;$' "$tmp/match.c" && seen=-DMATCH_SEEN
if ! gcc -O2 -Wall $seen -o "$tmp/match" "$tmp/harness.c" 2>"$tmp/cc"; then
	not_ok "$desc"
	diag "does not build:" "$(head -n 20 "$tmp/cc")"
	exit 0
fi
if "$tmp/match" >"$tmp/out" 2>&1; then
	ok "$desc ($(tail -n 1 "$tmp/out"))"
else
	not_ok "$desc"
	diag "$(head -n 20 "$tmp/out")"
fi
