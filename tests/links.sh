#!/bin/bash
# The README and docs/ link to results, scripts and each other: every link
# must resolve. Checks, from the top of the repo (or of DIR):
# - README.md is under 15,000 bytes (the way in stays short: the rest is in docs/);
# - in README.md and docs/*.md, every relative markdown link [text](target)
#   resolves to a file or folder, relative to the file's own folder (http(s)
#   and mailto links are not checked), and a #anchor into a markdown file
#   (or into the file itself) matches one of its headings, by GitHub's rule:
#   lowercase, punctuation dropped but - and _, spaces to -, a repeated
#   heading gets -1, -2, ...;
# - every backquoted path that starts with results/, docs/, series/,
#   series-rcu/, scripts/, tests/, kernel/ or guest/ exists, relative to the
#   top (its first word: `scripts/setup/deps.sh clang` is scripts/setup/deps.sh).
# Not checked: targets with *, <, { or ... (patterns), a path with a
# placeholder in capitals (tests/negative/NAME.patch), and the few paths of
# the Linux tree the text names (below: they are in build/linux, not here).
# Prints each broken one as FILE:LINE: TARGET and fails.
#
# Usage: tests/links.sh [DIR]   (DIR: the folder to check; default the repo top.
# Without DIR, it first checks that it fails on a broken copy.)
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
self=$here/tests/links.sh

# Paths of the Linux tree that the text names in backquotes.
linux_paths=" kernel/rcu/tree.o kernel/trace kernel/trace/Makefile scripts/get_maintainer.pl "

if [ $# -eq 0 ]; then
	# The check can fail: a broken link, a broken anchor and a missing
	# backquoted path must each be reported, and the run must fail.
	t=$(mktemp -d)
	trap 'rm -rf "$t"' EXIT
	mkdir -p "$t/docs" "$t/results/run"
	printf '# Top\n\n## A heading, with `code`\n\n[ok](docs/a.md#a-b) [ok](#a-heading-with-code) [ok](results/run/)\n[bad](docs/missing.md)\n[bad anchor](docs/a.md#nowhere)\n`results/gone.txt` and `results/run/` and `results/<time>/`\n' >"$t/README.md"
	printf '# A\n\n## A b\n\n[up](../README.md#top) [bad](../results/gone/)\n' >"$t/docs/a.md"
	rc=0
	out=$("$self" "$t") || rc=$?
	want=$'README.md:6: docs/missing.md\nREADME.md:7: docs/a.md#nowhere\nREADME.md:8: results/gone.txt\ndocs/a.md:5: ../results/gone/'
	if [ "$rc" != 1 ] || [ "$(grep -v '^links:' <<<"$out")" != "$want" ]; then
		printf 'links.sh does not catch the broken links of a test copy (exit %s):\n%s\nexpected:\n%s\n' "$rc" "$out" "$want"
		exit 1
	fi
	top=$here
else
	top=$(cd "$1" && pwd)
fi
cd "$top"

bad=0
n=0
broken() { echo "$1:$2: $3"; bad=$((bad + 1)); }

size=$(wc -c <README.md)
if [ "$size" -ge 15000 ]; then
	echo "README.md:1: README.md is $size bytes: not under 15,000"
	bad=$((bad + 1))
fi

# The anchors of a markdown file, one a line, outside fenced code.
anchors() {
	awk '/^```/ { f = !f; next } !f && /^#+[ \t]/ { sub(/^#+[ \t]+/, ""); sub(/[ \t#]+$/, ""); print }' "$1" |
		LC_ALL=C tr '[:upper:]' '[:lower:]' |
		LC_ALL=C sed -e 's/[^a-z0-9 _-]//g' -e 's/ /-/g' |
		awk '{ if (seen[$0]++) print $0 "-" (seen[$0] - 1); else print }'
}

# The file with fenced code blocks blanked, so that line numbers stay.
unfenced() { awk '/^```/ { f = !f; print ""; next } { print (f ? "" : $0) }' "$1"; }

skip() { case $1 in *'*'* | *'<'* | *'{'* | *...*) return 0 ;; esac; return 1; }

shopt -s nullglob
for f in README.md docs/*.md; do
	dir=$(dirname "$f")
	# Links: ](target)
	while IFS=: read -r line m; do
		target=${m#](}
		target=${target%)}
		case $target in http://* | https://* | mailto:*) continue ;; esac
		skip "$target" && continue
		n=$((n + 1))
		path=${target%%#*}
		anchor=
		case $target in *'#'*) anchor=${target#*#} ;; esac
		if [ -z "$path" ]; then
			file=$f
		else
			file=$dir/$path
		fi
		if [ ! -e "$file" ]; then
			broken "$f" "$line" "$target"
			continue
		fi
		if [ -n "$anchor" ] && [[ $file == *.md ]]; then
			if ! grep -qxF -- "$anchor" <<<"$(anchors "$file")"; then
				broken "$f" "$line" "$target"
			fi
		fi
	done < <(unfenced "$f" | grep -noE '\]\([^) ]+\)' || true)
	# Backquoted paths
	while IFS=: read -r line m; do
		m=${m#\`}
		m=${m%\`}
		p=${m%% *}
		skip "$p" && continue
		case $p in series | series/* | series-rcu/* | results/* | docs/* | scripts/* | tests/* | kernel/* | guest/*) ;; *) continue ;; esac
		[[ $p =~ (^|/)[A-Z][A-Z_]+(\.|/|$) ]] && continue
		[[ $linux_paths == *" $p "* ]] && continue
		n=$((n + 1))
		[ -e "$p" ] || broken "$f" "$line" "$p"
	done < <(unfenced "$f" | grep -noE '`(results/|docs/|series|scripts/|tests/|kernel/|guest/)[^`]*`' || true)
done

if [ "$bad" -gt 0 ]; then
	echo "links: $bad of $n broken (above)"
	exit 1
fi
echo "links: $n links checked, all resolve"
