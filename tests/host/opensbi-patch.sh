#!/usr/bin/env bash
# The OpenSBI patch is what the project tests: it is regenerated from
# opensbi-ext/ and must equal the committed one, it applies with git am
# to a tree that has the two anchor lines it needs (lib/sbi/Kconfig's
# "endmenu", lib/sbi/objects.mk's "libsbi-objs-y += sbi_bitmap.o") and
# the lines of lib/utils/fdt/fdt_pmu.c and its header that its hunks
# there change (taken from the patch itself), the core files it adds are
# the project's, byte for byte, and fdt_pmu_fixup() keeps deleting the
# riscv,pmu event mappings only without the extension.  The other
# patches of opensbi-patches/ are upstream fixes of OpenSBI's own code
# (README.md there), checked by building and booting them.
. "$(dirname "$0")/../lib.sh"
ext="$TOP/opensbi-ext"
hpm_patch="$ext/opensbi-patches/0001-lib-sbi-Add-the-experimental-HPM-extension.patch"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if err=$("$ext/scripts/gen-opensbi-patch" --check 2>&1); then
	ok "opensbi-patches/ matches what gen-opensbi-patch writes from the sources"
else
	not_ok "opensbi-patches/ matches what gen-opensbi-patch writes from the sources"
	diag "$err"
fi

git_t() { git -C "$tmp/osbi" -c user.name=t -c user.email=t@localhost "$@"; }
mkdir -p "$tmp/osbi/lib/sbi"
printf 'menu "SBI Extension Support"\n\nconfig SBI_ECALL_TIME\n\tbool "Timer extension"\n\tdefault y\n\nendmenu\n' \
	>"$tmp/osbi/lib/sbi/Kconfig"
printf 'libsbi-objs-y += sbi_ecall.o\n\nlibsbi-objs-y += sbi_bitmap.o\n' \
	>"$tmp/osbi/lib/sbi/objects.mk"
# preimage FILE: the lines the patch's hunks of FILE expect (context and
# removed lines), at their line numbers, blank lines between.
preimage() {
	mkdir -p "$(dirname "$tmp/osbi/$1")"
	awk -v f="$1" '
		/^diff --git / { on = ($3 == "a/" f); next }
		on && /^@@ / { split($2, a, ","); n = -a[1]; while (line < n - 1) { print ""; line++ } next }
		on && /^[ -]/ { print substr($0, 2); line++ }' \
		"$hpm_patch" >"$tmp/osbi/$1"
}
preimage lib/utils/fdt/fdt_pmu.c
preimage include/sbi_utils/fdt/fdt_pmu.h
git_t init -q && git_t add -A && git_t commit -qm base
if git_t am -q "$hpm_patch" >"$tmp/am.log" 2>&1; then
	ok "the OpenSBI patch applies with git am"
else
	not_ok "the OpenSBI patch applies with git am"
	diag "$(cat "$tmp/am.log")"
fi
same=1
for pair in hpm/sbi_hpm_abi.h:include/sbi_hpm_abi.h hpm/hpm_core.h:core/hpm_core.h \
	hpm/hpm_core.c:core/hpm_core.c sbi_ecall_hpm.c:glue/sbi_ecall_hpm.c; do
	cmp -s "$tmp/osbi/lib/sbi/${pair%%:*}" "$ext/${pair#*:}" || {
		same=0; diag "lib/sbi/${pair%%:*} differs from opensbi-ext/${pair#*:}"; }
done
check "the patch adds the project's ABI header, core and glue unchanged" [ "$same" = 1 ]
grep -q '^config SBI_ECALL_HPM$' "$tmp/osbi/lib/sbi/Kconfig" &&
	grep -q '^carray-sbi_ecall_exts-$(CONFIG_SBI_ECALL_HPM) += ecall_hpm$' "$tmp/osbi/lib/sbi/objects.mk"
check "Kconfig SBI_ECALL_HPM and the ecall_hpm carray entry are wired" [ $? = 0 ]
# fdt_pmu_fixup() as patched: the three mapping properties are deleted
# under #ifndef CONFIG_SBI_ECALL_HPM only, interrupts-extended as before.
fixup=$(cat "$tmp/osbi/lib/utils/fdt/fdt_pmu.c" 2>/dev/null)
if awk '/^#ifndef CONFIG_SBI_ECALL_HPM$/ { on = 1; next } /^#endif/ { on = 0 }
	/fdt_delprop.*riscv,(event-to-mhpmcounters|event-to-mhpmevent|raw-event-to-mhpmcounters)/ { n++; if (!on) bad = 1 }
	/fdt_delprop.*interrupts-extended/ && on { bad = 1 }
	END { exit !(n == 3 && !bad) }' <<<"$fixup"; then
	ok "fdt_pmu_fixup() deletes the riscv,pmu event mappings only without CONFIG_SBI_ECALL_HPM"
else
	not_ok "fdt_pmu_fixup() deletes the riscv,pmu event mappings only without CONFIG_SBI_ECALL_HPM"
	diag "$fixup"
fi
