#!/usr/bin/env bash
# The Linux series (linux-patches/) as a maintainer receives it:
#  - it applies with git am to Debian's Linux 6.12 source
#    (scripts/prepare-linux stops on the first patch that does not);
#  - every patch is checkpatch --strict clean, SPDX check included;
#  - the C files and device trees it changes build with W=1 without a
#    warning (the guest kernel's configuration, objects in a directory of
#    their own so that the guest kernel is not rebuilt), the C files for
#    RV32 too, with CPU PM;
#  - the binding it changes (riscv,pmu.yaml, riscv,counter-widths)
#    passes what make dt_binding_check runs on it (yamllint, the
#    meta-schema, its examples) and the FU740 riscv,pmu node it adds
#    validates against it with dt-validate.  The kernel's target asks for dt-schema 2023.9
#    and refuses bookworm's 2022.08, so the tools are called directly.
. "$(dirname "$0")/../lib.sh"
. "$TOP/scripts/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Debian's python3 first: checkpatch's SPDX check and dt-schema need its
# modules (python3-ply, python3-git, dt-schema), not another python3's.
export PATH="/usr/bin:$PATH"

# check_series VER: the checks above on linux-patches/VER, on Debian's
# linux-source-VER; every check's name starts with "Linux VER:".
label=
ok() { echo "ok - ${label}$*"; }
not_ok() { echo "not ok - ${label}$*"; }
check_series() {
	local ver=$1
	export HPM_LINUX=$ver
	label="Linux $ver: "
	if ! src=$("$TOP/scripts/prepare-linux" 2>"$tmp/prep"); then
		not_ok "the series apply with git am to Debian's linux-source-$ver"
		diag "$(cat "$tmp/prep")"
		return 0
	fi
	src=$(tail -n 1 <<<"$src")
	root=$(dirname "$src")
	ok "the series apply with git am to Debian's linux-source-$ver $(linux_version)"

	patches=()
	while IFS= read -r p; do patches+=("$p"); done < <(linux_series_patches)
	# One checkpatch per core at a time; each leaves its output and status.
	# The tree is Debian's tarball under a history of its own, without
	# upstream's, so checkpatch would call the commit id of every Fixes: tag
	# unknown (it warns whenever git cannot find one): that check alone is
	# left out (the ids are checked against upstream by whoever writes the
	# tag); the SPDX check needs the tree's git directory and keeps it.
	# A verdict is kept in the cache under the patch's contents and those of
	# checkpatch and its data files, so an unchanged patch is not checked
	# again (checkpatch takes a quarter of a minute per large patch); any
	# change to either checks it anew.
	checker=$(cd "$src" && cat scripts/checkpatch.pl scripts/spelling.txt \
		scripts/const_structs.checkpatch 2>/dev/null | sha256sum | cut -c1-16)
	verdicts="$root/checkpatch-verdicts"
	mkdir -p "$verdicts"
	todo=()
	declare -A key_of
	for p in "${patches[@]}"; do
		key=$( { echo "$checker"; cat "$p"; } | sha256sum | cut -c1-32)
		key_of[$p]=$key
		if [ -f "$verdicts/$key.rc" ]; then
			cp "$verdicts/$key" "$tmp/cp.${p##*/}" &&
				cp "$verdicts/$key.rc" "$tmp/cp.${p##*/}.rc"
		else
			todo+=("$p")
		fi
	done
	[ ${#todo[@]} = 0 ] ||
		printf '%s\n' "${todo[@]}" | (cd "$src" && xargs -P "$(nproc)" -I{} sh -c '
		out=$2/cp.$(basename "$1")
		perl scripts/checkpatch.pl --strict --ignore UNKNOWN_COMMIT_ID -q "$1" >"$out" 2>&1; echo $? >"$out.rc"' _ {} "$tmp")
	for p in "${todo[@]}"; do
		key=${key_of[$p]}
		[ -f "$tmp/cp.${p##*/}.rc" ] && ! grep -q 'Traceback\|No module' "$tmp/cp.${p##*/}" &&
			cp "$tmp/cp.${p##*/}" "$verdicts/$key" &&
			cp "$tmp/cp.${p##*/}.rc" "$verdicts/$key.rc"
	done
	for p in "${patches[@]}"; do
		cp="$tmp/cp.${p##*/}"
		if [ "$(cat "$cp.rc" 2>/dev/null)" = 0 ] && ! grep -q 'Traceback\|No module' "$cp"; then
			ok "checkpatch --strict: ${p#"$TOP"/linux-patches/"$ver"/}"
		else
			not_ok "checkpatch --strict: ${p#"$TOP"/linux-patches/"$ver"/}"
			diag "$(head -n 30 "$cp")"
		fi
	done

	# Each series as it is mailed: its cover letter counts its patches,
	# each patch is numbered n/N of it, and each fix carries Fixes:.
	local d n subj bad
	for d in $(linux_series); do
		n=$(ls "$d"/[0-9][0-9][0-9][0-9]-*.patch | grep -vc '/0000-cover-letter.patch$')
		bad=
		if [ -f "$d/0000-cover-letter.patch" ]; then
			subj=$(grep -m1 '^Subject:' "$d/0000-cover-letter.patch")
			[[ $subj == *"0/$n]"* ]] || bad+=" cover letter: '$subj'"
		fi
		for p in "$d"/[0-9][0-9][0-9][0-9]-*.patch; do
			[ "${p##*/}" = 0000-cover-letter.patch ] && continue
			subj=$(grep -m1 '^Subject:' "$p")
			if [ "$n" -gt 1 ]; then
				[[ $subj == *"$((10#$(basename "$p" | cut -c1-4)))/$n]"* ]] || bad+=" ${p##*/}: '$subj'"
			fi
		done
		check "numbering of ${d##*/}: cover letter and patches count its $n patch(es)" [ -z "$bad" ]
		[ -z "$bad" ] || diag "$bad"
		# What only QEMU needs comes last, in patches whose message says
		# "Not for upstream"; the code of every other patch names neither
		# QEMU nor its virt machine (comments may).
		local tail_started qemu_code
		bad= tail_started=
		for p in "$d"/[0-9][0-9][0-9][0-9]-*.patch; do
			[ "${p##*/}" = 0000-cover-letter.patch ] && continue
			if sed '/^---$/q' "$p" | grep -q '^Not for upstream'; then
				tail_started=1
				continue
			fi
			[ -z "$tail_started" ] || bad+=" ${p##*/} (for upstream, after a patch that is not)"
			qemu_code=$(awk '/^diff --git /{ c = ($3 ~ /\.[ch]$/) } c && /^\+[^+]/' "$p" |
				grep -v '^+[[:space:]]*\(/\*\|\*\|//\)' | grep -i 'qemu\|riscv-virtio' || true)
			[ -z "$qemu_code" ] || bad+=" ${p##*/}: $qemu_code"
		done
		check "${d##*/}: no QEMU condition in the patches for upstream, QEMU's own patches last" [ -z "$bad" ]
		[ -z "$bad" ] || diag "$bad"
		case ${d##*/} in
		*-fixes)
			bad=$(for p in "$d"/[0-9][0-9][0-9][0-9]-*.patch; do
				[ "${p##*/}" = 0000-cover-letter.patch ] ||
					grep -q '^Fixes: [0-9a-f]\{12\} ("' "$p" || echo "${p##*/}"
			done)
			check "${d##*/}: every fix names the commit it fixes (Fixes:)" [ -z "$bad" ]
			[ -z "$bad" ] || diag "$bad" ;;
		esac
	done
	if [ "$ver" = 6.12 ]; then
		if "$TOP/scripts/backport-series" --check >"$tmp/bp" 2>&1; then
			ok "linux-patches/6.12 is what scripts/backport-series makes of linux-patches/7.2"
		else
			not_ok "linux-patches/6.12 is what scripts/backport-series makes of linux-patches/7.2"
			diag "$(tail -n 40 "$tmp/bp")"
		fi
	fi

	# What the series changes, from the tree's history.
	changed=$(git -C "$src" diff --name-only pristine HEAD)
	objs=() dtbs=()
	for f in $changed; do
		case $f in
		tools/*) ;;
		*.c) objs+=("${f%.c}.o") ;;
		arch/riscv/boot/dts/*.dts*)
			for d in "$src/$(dirname "$f")"/*.dts; do
				dtbs+=("${d#"$src"/arch/riscv/boot/dts/}")
			done ;;
		esac
	done
	dtbs=($(printf '%s\n' "${dtbs[@]/%.dts/.dtb}" | sort -u))

	w1="$root/w1"
	mkdir -p "$w1"
	export CCACHE_DIR="${CCACHE_DIR:-$HPM_CACHE/ccache}" CCACHE_BASEDIR="$root"
	if ! cp "$root/build/.config" "$w1/.config" 2>/dev/null; then
		not_ok "W=1 builds: the guest kernel's configuration exists (make build)"
		return 0
	fi
	# A build's output and status are kept in the cache under what they
	# depend on: the tree (the series), the configuration, the compiler and
	# the targets.  The same inputs give the same warnings, so an unchanged
	# series is not compiled again; any change builds anew, and then the
	# objects are removed first so that their warnings are printed again
	# (ccache replays a cached compiler's output).
	verdicts="$root/w1-verdicts"
	mkdir -p "$verdicts"
	inputs="$(tree_state "$src") $("${CROSS_COMPILE}gcc" --version | head -n 1)"
	fu740_dtb=arch/riscv/boot/dts/sifive/hifive-unmatched-a00.dtb
	w1_key=$( { echo "$inputs ${objs[*]} ${dtbs[*]}"; cat "$w1/.config"; } |
		sha256sum | cut -c1-32)
	if [ -f "$verdicts/$w1_key.rc" ] && [ -f "$verdicts/$w1_key.dtb" ]; then
		cp "$verdicts/$w1_key" "$tmp/w1"
	else
		for o in "${objs[@]}"; do rm -f "$w1/$o"; done
		for d in "${dtbs[@]}"; do rm -f "$w1/arch/riscv/boot/dts/$d"; done
		rc=1
		[ ${#objs[@]} -gt 0 ] && [ ${#dtbs[@]} -gt 0 ] &&
			kmake "$src" "$w1" -s olddefconfig >"$tmp/w1" 2>&1 &&
			kmake "$src" "$w1" -s -j"$(nproc)" W=1 "${objs[@]}" "${dtbs[@]}" >>"$tmp/w1" 2>&1 &&
			rc=0
		cp "$tmp/w1" "$verdicts/$w1_key"
		cp "$w1/$fu740_dtb" "$verdicts/$w1_key.dtb" 2>/dev/null || :
		echo $rc >"$verdicts/$w1_key.rc"
	fi
	if [ "$(cat "$verdicts/$w1_key.rc")" = 0 ] && ! grep -qi 'warning' "$tmp/w1"; then
		ok "W=1 build without a warning: ${objs[*]} ${dtbs[*]}"
	else
		not_ok "W=1 build without a warning: ${objs[*]} ${dtbs[*]}"
		diag "$(head -n 40 "$tmp/w1")"
	fi

	# The same C files for RV32, whose counters are read in two halves.
	w32="$root/w1-rv32"
	mkdir -p "$w32"
	# SUSPEND brings CPU_PM, which the guest kernel lacks: its code too.
	printf 'CONFIG_%s=y\n' ARCH_RV32I 32BIT SMP NONPORTABLE PERF_EVENTS DEBUG_FS \
		SUSPEND RISCV_PMU RISCV_PMU_LEGACY RISCV_PMU_SBI RISCV_PMU_HPM >"$w32/fragment"
	w32_key=$( { echo "$inputs rv32 ${objs[*]}"; cat "$w32/fragment"; } |
		sha256sum | cut -c1-32)
	if [ -f "$verdicts/$w32_key.rc" ]; then
		cp "$verdicts/$w32_key" "$tmp/w32"
	else
		for o in "${objs[@]}"; do rm -f "$w32/$o"; done
		rc=1
		kmake "$src" "$w32" -s KCONFIG_ALLCONFIG="$w32/fragment" allnoconfig >"$tmp/w32" 2>&1 &&
			grep -q '^CONFIG_32BIT=y' "$w32/.config" && grep -q '^CONFIG_RISCV_PMU_HPM=y' "$w32/.config" &&
			grep -q '^CONFIG_CPU_PM=y' "$w32/.config" &&
			kmake "$src" "$w32" -s -j"$(nproc)" W=1 "${objs[@]}" >>"$tmp/w32" 2>&1 &&
			rc=0
		cp "$tmp/w32" "$verdicts/$w32_key"
		echo $rc >"$verdicts/$w32_key.rc"
	fi
	if [ "$(cat "$verdicts/$w32_key.rc")" = 0 ] && ! grep -qi 'warning' "$tmp/w32"; then
		ok "W=1 build for RV32 without a warning: ${objs[*]}"
	else
		not_ok "W=1 build for RV32 without a warning: ${objs[*]}"
		diag "$(head -n 40 "$tmp/w32")"
	fi

	# The binding.  dt-mk-schema processes every binding (the others are
	# needed for the types of common properties): cached by the binding's
	# contents and the dt-schema version.
	bindings=Documentation/devicetree/bindings
	binding=$(git -C "$src" diff --name-only pristine HEAD -- "$bindings" | grep '\.yaml$' | head -n 1)
	schema="$root/dt-schema-$( { dt-doc-validate --version; cat "$src/$binding"; } |
		sha256sum | cut -c1-16).json"
	if [ -z "$binding" ]; then
		not_ok "the series changes a device-tree binding"
		return 0
	fi
	# yamllint's problems, each as "rule message: the line's text", so
	# that upstream's own (bookworm's yamllint flags some lines of 7.2's
	# pristine file) are told from the series' whatever the line numbers.
	lint() {
		yamllint -f parsable -c "$src/$bindings/.yamllint" "$1" 2>&1 |
			while IFS=: read -r _ line _ msg; do
				echo "$msg: $(sed -n "${line}p" "$1")"
			done | sort
	}
	# Every binding the series changes (riscv,pmu.yaml's counter widths,
	# the ISA extensions of counter delegation).
	for b in $(git -C "$src" diff --name-only pristine HEAD -- "$bindings" | grep '\.yaml$'); do
		git -C "$src" show "pristine:$b" >"$tmp/pristine.yaml" 2>/dev/null || : >"$tmp/pristine.yaml"
		lint "$tmp/pristine.yaml" >"$tmp/yl0"
		lint "$src/$b" >"$tmp/yl1"
		if [ -s "$src/$b" ] && ! comm -13 "$tmp/yl0" "$tmp/yl1" | grep -q .; then
			ok "yamllint: $b (nothing the pristine file does not have)"
		else
			not_ok "yamllint: $b (nothing the pristine file does not have)"
			diag "$(comm -13 "$tmp/yl0" "$tmp/yl1")"
		fi
		# bookworm's dt-schema (2022.08) rejects some of 7.2's own
		# bindings (extensions.yaml's riscv,isa-extensions): where it
		# rejects the pristine file, it says nothing of the series'
		# change, which is then not counted as checked.
		mkdir -p "$tmp/pristine-binding/${b%/*}"
		cp "$tmp/pristine.yaml" "$tmp/pristine-binding/$b"
		if [ -s "$tmp/pristine.yaml" ] &&
			! dt-doc-validate -u "$src/$bindings" "$tmp/pristine-binding/$b" >/dev/null 2>&1; then
			diag "not checked: dt-doc-validate $(dt-doc-validate --version 2>/dev/null) rejects the pristine $b too"
		elif dt-doc-validate -u "$src/$bindings" "$src/$b" >"$tmp/dv" 2>&1 && [ ! -s "$tmp/dv" ]; then
			ok "dt-doc-validate (meta-schema): $b"
		else
			not_ok "dt-doc-validate (meta-schema): $b"
			diag "$(cat "$tmp/dv")"
		fi
	done
	if [ ! -s "$schema" ]; then
		rm -f "$root"/dt-schema-*.json
		dt-mk-schema -j "$src/$bindings" >"$schema.tmp" 2>"$tmp/mk" && mv "$schema.tmp" "$schema"
	fi

	# Three trees with one node each, validated in one run (loading the
	# processed schema is most of the time): the binding's examples, the
	# riscv,pmu node the FU740 dtsi of the series has, and that node broken
	# (a counter width for cycle, which the binding's riscv,counter-widths
	# does not take, and an unknown property), to show the check sees the
	# binding.
	dt-extract-example "$src/$binding" >"$tmp/ex.dts" &&
		dtc -q -I dts -O dtb -o "$tmp/ex.dtb" "$tmp/ex.dts" 2>"$tmp/dtc"
	fu740="$verdicts/$w1_key.dtb"
	node=$(for n in $(fdtget -l "$fu740" / 2>/dev/null); do
		[ "$(fdtget "$fu740" "/$n" compatible 2>/dev/null)" = riscv,pmu ] && echo "$n" && break
	done)
	{
		printf '/dts-v1/;\n/ {\n\tcompatible = "foo";\n\tmodel = "foo";\n'
		dtc -q -I dtb -O dts "$fu740" | awk -v n="$node" '$0 == "\t" n " {" { on = 1 } on { print } on && /^\t};/ { exit }'
		printf '};\n'
	} >"$tmp/node.dts"
	dtc -q -I dts -O dtb -o "$tmp/node.dtb" "$tmp/node.dts" 2>>"$tmp/dtc" &&
		cp "$tmp/node.dtb" "$tmp/bad.dtb" &&
		fdtput -t u "$tmp/bad.dtb" "/$node" riscv,counter-widths 0 40 &&
		fdtput -t u "$tmp/bad.dtb" "/$node" riscv,unknown 1
	validated=0
	[ -s "$schema" ] &&
		dt-validate -s "$schema" "$tmp/ex.dtb" "$tmp/node.dtb" "$tmp/bad.dtb" >"$tmp/dv.out" 2>&1 &&
		validated=1

	# dt_errors NAME: what the binding's schema found in $tmp/NAME.dtb
	# (dt-validate exits 0 whatever it finds).
	dt_errors() {
		awk -v f="$tmp/$1.dtb:" -v b="$binding" '/^\// { msg = index($0, f) == 1 ? $0 : ""; next }
			/From schema:/ { if (msg != "" && index($0, b)) print msg }' "$tmp/dv.out"
	}

	if [ $validated = 1 ] && [ -s "$tmp/ex.dtb" ] && [ -z "$(dt_errors ex)" ]; then
		ok "the binding's example validates against it"
	else
		not_ok "the binding's example validates against it"
		diag "$(cat "$tmp/mk" "$tmp/dtc" "$tmp/dv.out" 2>/dev/null | head -n 20)"
	fi
	if [ $validated = 1 ] && [ -n "$node" ] && grep -q 'riscv,event-to-mhpmevent' "$tmp/node.dts" &&
		grep -q 'riscv,counter-widths' "$tmp/node.dts" &&
		[ -z "$(dt_errors node)" ]; then
		ok "the HiFive Unmatched's /$node node validates against the binding"
	else
		not_ok "the HiFive Unmatched's /$node node validates against the binding"
		diag "$(dt_errors node)" "$(cat "$tmp/node.dts")"
	fi
	bad=$(dt_errors bad)
	if grep -q 'riscv,counter-widths' <<<"$bad" && grep -q 'riscv,unknown' <<<"$bad"; then
		ok "a node with a width for cycle (counter 0) and an unknown property is reported"
	else
		not_ok "a node with a width for cycle (counter 0) and an unknown property is reported"
		diag "$bad"
	fi
}

for ver in $LINUX_VERSIONS; do
	check_series "$ver"
done
