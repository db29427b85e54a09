#!/bin/bash
# checkpatch.pl --strict on each patch of both series (or on the patches given),
# one verdict line per patch; fails if any patch reports anything at all, with
# one exception that is answered, not hidden: when checkpatch's only finding is
# FILE_PATH_CHANGES ("added, moved or deleted file(s), does MAINTAINERS need
# updating?") the question is asked of MAINTAINERS in $LINUX (get_maintainer.pl
# --sections): the patch passes if every file it adds, renames or deletes is
# covered by a real section (not "THE REST"), each named with its section, and
# no F: line names a file it deletes or renames away; else it fails naming the file.
# UNKNOWN_COMMIT_ID (the base has no history) is answered from
# kernel/upstream-commits, and then not counted.
# Usage: checkpatch.sh [PATCH...]
. "$(dirname "$0")/../common.sh"
need perl
need_tree "$LINUX"

if [ $# -gt 0 ]; then patches=("$@"); else mapfile -t patches < <(all_patches); fi
if [ ${#patches[@]} = 0 ]; then
	say "checkpatch: no patches in $SERIES: nothing to check"
	exit 0
fi

# The files a patch adds, deletes or renames: "added PATH" etc., one a line.
path_changes() {
	awk '
	/^diff --git a\// { rest = substr($0, 14); path = substr(rest, 1, (length(rest) - 3) / 2); next }
	/^new file mode / { print "added " path }
	/^deleted file mode / { print "deleted " path }
	/^rename from / { print "renamed-from " substr($0, 13) }
	/^rename to / { print "renamed-to " substr($0, 11) }' "$1"
}
# The MAINTAINERS sections (but THE REST) that cover one path, one a line, from
# get_maintainer.pl on a one-file patch (-f wants the file to exist).
sections_of() {
	local syn=$tmp/one.patch
	printf 'diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n@@ -1 +1 @@\n-x\n+x\n' "$1" "$1" "$1" "$1" >"$syn"
	(cd "$LINUX" && PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0 perl scripts/get_maintainer.pl --no-git \
		--no-git-fallback --no-keywords --no-fixes --sections "$syn") |
		awk '(NR == 1 || prev == "") && NF && !/^[A-Z]:\t/ && $0 != "THE REST" && !seen[$0]++ { print } { prev = $0 }'
}
# checkpatch's only finding is FILE_PATH_CHANGES: answer it. Prints one line per
# file; returns 1 if a file is not covered or MAINTAINERS names a removed file.
answer_file_path_changes() {
	local p=$1 how path secs rc=0 n=0
	while read -r how path; do
		n=$((n + 1))
		secs=$(sections_of "$path")
		if [ -z "$secs" ]; then
			echo "    $path ($how): covered by no MAINTAINERS section but THE REST: MAINTAINERS needs updating"
			rc=1
		else
			echo "    $path ($how): $(printf '%s\n' "$secs" | paste -sd ';' | sed 's/;/; /g')"
		fi
		case $how in deleted | renamed-from)
			if grep -qxP "F:\s+\Q$path\E" "$LINUX/MAINTAINERS"; then
				echo "    $path ($how): MAINTAINERS still names it in an F: line: MAINTAINERS needs updating"
				rc=1
			fi ;;
		esac
	done < <(path_changes "$p")
	[ "$n" -gt 0 ] || { echo "    FILE_PATH_CHANGES, but no added, deleted or renamed file found in the patch"; rc=1; }
	return $rc
}

# UNKNOWN_COMMIT_ID: the base has no history, so checkpatch cannot look a
# cited commit up. Answer it from kernel/upstream-commits: the id must be
# listed there, and every citation of it in the patch, "ID (\"SUBJECT\")",
# must give that subject. Prints one line per id; returns 1 if one fails.
known=$TOP/kernel/upstream-commits
answer_unknown_commit_ids() {
	local p=$1 id subj cited rc=0 text
	# The changelog as one line: a citation may wrap
	text=$(sed -n '/^Subject:/,/^---$/p' "$p" | tr -s ' \n\t' ' ')
	for id in $(grep -oP "Unknown commit id '\K[0-9a-f]+" <<<"$2" | sort -u); do
		subj=$(awk -v id="$id" '!/^#/ && $1 == id { sub(/^[^ ]+ /, ""); sub(/ # .*/, ""); print }' "$known")
		if [ -z "$subj" ]; then
			echo "    $id: not in kernel/upstream-commits: check the id upstream and list it there"
			rc=1
			continue
		fi
		cited=$(grep -oP "\b$id\w* \(\"\K[^\"]*" <<<"$text" | sort -u)
		if [ -z "$cited" ] || [ "$cited" != "$subj" ]; then
			echo "    $id: cited as \"${cited:-?}\", kernel/upstream-commits has \"$subj\""
			rc=1
		else
			echo "    $id (\"$subj\"): in kernel/upstream-commits"
		fi
	done
	return $rc
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
for p in "${patches[@]}"; do
	[ -f "$p" ] || die "checkpatch: no file $p"
	p=$(cd "$(dirname "$p")" && pwd)/${p##*/}
	name=${p##*/}
	# checkpatch must run from the top of the kernel tree to find its data files.
	# Debian's python3 first, for spdxcheck.py's ply and git.
	rc=0
	out=$(cd "$LINUX" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict --no-color --show-types "$p" 2>&1) || rc=$?
	if grep -q '^Traceback' <<<"$out"; then
		printf '%s\n' "$out" >&2
		die "checkpatch: a helper script of checkpatch crashed on $name: run 'make deps'"
	fi
	total=$(printf '%s\n' "$out" | sed -n 's/^total: \([0-9]*\) errors, \([0-9]*\) warnings, \([0-9]*\) checks, .*/\1 \2 \3/p' | tail -n1)
	findings=$(printf '%s\n' "$out" | grep -E '^(ERROR|WARNING|CHECK):' || true)
	# Cited upstream commits checkpatch cannot see: answered, then not counted
	unknown=$(grep -c '^WARNING:UNKNOWN_COMMIT_ID:' <<<"$findings" || true)
	if [ "$unknown" -gt 0 ] && [ -n "$total" ]; then
		if answer_unknown_commit_ids "$p" "$findings" >"$tmp/ids"; then
			read -r e w c <<<"$total"
			total="$e $((w - unknown)) $c"
			findings=$(grep -v '^WARNING:UNKNOWN_COMMIT_ID:' <<<"$findings" || true)
			[ "$total" != "0 0 0" ] || rc=0
			echo "checkpatch: $name: UNKNOWN_COMMIT_ID answered: every cited id is in kernel/upstream-commits with its subject"
		else
			echo "checkpatch: $name: UNKNOWN_COMMIT_ID not answered"
		fi
		cat "$tmp/ids"
	fi
	if [ "$rc" = 0 ] && [ "$total" = "0 0 0" ]; then
		echo "checkpatch: $name: clean"
	elif [ "$total" = "0 1 0" ] && [[ $findings == WARNING:FILE_PATH_CHANGES:* ]] && [[ $findings != *$'\n'* ]]; then
		if answer_file_path_changes "$p" >"$tmp/answer"; then
			echo "checkpatch: $name: clean; FILE_PATH_CHANGES answered: MAINTAINERS covers every added, deleted or renamed file"
			cat "$tmp/answer"
		else
			echo "checkpatch: $name: 0 errors, 1 warnings, 0 checks: FILE_PATH_CHANGES, and MAINTAINERS does need updating"
			cat "$tmp/answer"
			printf '%s\n' "$out" | sed 's/^/    /' >&2
			bad=$((bad + 1))
		fi
	else
		read -r e w c <<<"${total:-? ? ?}"
		echo "checkpatch: $name: $e errors, $w warnings, $c checks"
		printf '%s\n' "$out" | sed 's/^/    /' >&2
		bad=$((bad + 1))
	fi
done
[ "$bad" = 0 ] || die "checkpatch: $bad of ${#patches[@]} patches have something to fix"
say "checkpatch: all ${#patches[@]} patches clean"
