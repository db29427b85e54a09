# Shared by the self-tests: sourced, never run.
# shellcheck shell=bash
# shellcheck source=../scripts/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/common.sh"

# The self-tests work in a throw-away work tree of the kernel repo, on their own
# branch, and on a copy of the series: build/linux and its 'series' branch are
# never touched.
MAIN_LINUX=$LINUX
export LINUX=$BUILD/selftest-tree SERIES_BRANCH=selftest
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export SERIES=$T/series SERIES_ON_TOP=	# one series, the copy
export GIT_AUTHOR_NAME="Harness Selftest" GIT_AUTHOR_EMAIL=harness@localhost
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
# shellcheck disable=SC2034 # used by the tests that source this file
SOB="Signed-off-by: $GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL>"

fail() { echo "FAIL: $*"; exit 1; }
pass() { echo "PASS: $*"; }

# Prepares the work tree (detached at base) and the copy of series/.
setup() {
	need_tree "$MAIN_LINUX"
	if [ ! -e "$LINUX/.git" ]; then
		say "selftest: adding the work tree $LINUX"
		git -C "$MAIN_LINUX" worktree prune
		git -C "$MAIN_LINUX" worktree add -q --detach "$LINUX" base
	fi
	git -C "$LINUX" checkout -q -f --detach base
	mkdir -p "$SERIES"
	cp "$TOP"/series/*.patch "$SERIES"/ 2>/dev/null || true
}

# Runs a command that must fail; its output is in $T/out. Usage: expect_fail WHAT CMD...
expect_fail() {
	local what=$1
	shift
	if "$@" >"$T/out" 2>&1; then
		cat "$T/out"
		fail "$what: '$*' succeeded"
	fi
	cat "$T/out"
}
# Checks that the last output holds a line matching an extended regex.
expect_line() {
	grep -qE -- "$1" "$T/out" || fail "no line matching /$1/ in the output above"
}

# The number the next patch of the series copy gets.
next_number() { printf '%04d' $(($(series_patches | wc -l) + 1)); }

# Commits the work tree's changes with a message and writes that commit as the
# next patch of the series copy; prints the patch's path.
commit_as_patch() {
	local num
	num=$(next_number)
	git -C "$LINUX" commit -q -a -m "$1"
	git -C "$LINUX" format-patch -q -1 --zero-commit --no-signature --start-number="$((10#$num))" -o "$SERIES" HEAD
	ls "$SERIES/$num"-*.patch
}
