#!/usr/bin/env bash
# The build stamps' tree_state (scripts/lib.sh): build-kernel and
# build-perf skip their build when it is unchanged, so every change of
# what the tree holds must change it: a commit, a first hand edit, a
# second edit of a file already edited, a revert to the commit; and
# nothing else may (an untracked file, a rerun).
. "$(dirname "$0")/../lib.sh"
. "$TOP/scripts/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

g() { git -C "$tmp" -c user.name=t -c user.email=t@t "$@"; }
g init -q
printf 'int a;\n' >"$tmp/f.c"
g add f.c && g commit -qm one
clean=$(tree_state "$tmp")

check() {	# check NAME STATE expected(same|differs) REFERENCE
	if { [ "$3" = same ] && [ "$2" = "$4" ]; } ||
	   { [ "$3" = differs ] && [ "$2" != "$4" ]; }; then
		ok "tree_state: $1"
	else
		not_ok "tree_state: $1 (got $2, reference $4)"
	fi
}

check "the same tree twice gives the same state" "$(tree_state "$tmp")" same "$clean"
touch "$tmp/untracked.o"
check "an untracked file does not change it" "$(tree_state "$tmp")" same "$clean"
printf 'int a;\nint b;\n' >"$tmp/f.c"
first=$(tree_state "$tmp")
check "a hand edit changes it" "$first" differs "$clean"
printf 'int a;\nint c;\n' >"$tmp/f.c"
check "a second edit of an edited file changes it again" "$(tree_state "$tmp")" differs "$first"
g checkout -q f.c
check "reverting the edits gives the clean state back" "$(tree_state "$tmp")" same "$clean"
printf 'int a;\nint b;\n' >"$tmp/f.c"
g commit -qam two
check "a commit changes it" "$(tree_state "$tmp")" differs "$clean"
