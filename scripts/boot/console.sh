#!/bin/bash
# Judge the console log of one guest boot: the guest init's KTAP lines, KUnit's
# KTAP (parsed by the kernel's kunit.py), and the splat scan (every line matching
# tests/splat-patterns.txt fails, unless it belongs to a splat that matches
# tests/known-splats.txt: a known base splat is reported, and a lockdep-alive
# failure it caused becomes a known base failure, '# TODO', never a pass).
# Prints KTAP, ends with 'N passed, N failed, N skipped, N known base failures';
# exit status 0 when nothing failed.
# KUNIT_SUITES="a b": KUnit suites that must have run at boot, each one result.
# KERNEL_TREE=dir: the booted kernel's git tree (for 'fixed-by:' in the known list).
# INTENDED=regex: the splat line a scenario causes on purpose (kdump's sysrq-c
#   panic): not scanned; every other splat line still fails.
# REQUIRE=regex: a guest line that must be there (kexec's last round): one more
#   result, which fails without it. Each guest run (a kexec chain has several)
#   must also print as many results as its '1..N' plan says.
# KERNEL_REQUIRE=regex: a kernel console line that must be there (which RCU
#   read side the kernel runs, say): one more result, failing without it.
# KERNEL_FORBID=regex: a kernel console line that must not be there (a base or
#   v1 boot must not run the second series' read side): one more result.
# A guest that timed out (scripts/boot/boot.sh appends each vCPU's NIP and LR as
# '# boot: CPU#N NIP ... LR ...') whose vCPU lines match tests/known-hangs.txt
# (KNOWN_HANGS=file; the same 'fixed-by:' groups) is a known base failure,
# '# TODO', never a pass.
# Stack frame lines ('[sp] [ip] func+off/size') are not scanned: function names
# such as preempt_count_add are no splat; the splat's own header line is.
# Usage: console.sh LOG [TITLE]
. "$(dirname "$0")/../common.sh"

log=${1:?usage: console.sh LOG [TITLE]}
title=${2:-${log##*/}}
[ -f "$log" ] || die "console: no log $log"
PATTERNS=${PATTERNS:-$TOP/tests/splat-patterns.txt}
KNOWN=${KNOWN:-$TOP/tests/known-splats.txt}
KNOWN_HANGS=${KNOWN_HANGS:-$TOP/tests/known-hangs.txt}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A command of this script that fails unexpectedly must not end it unheard.
trap 'echo "console: internal error: status $? at line $LINENO of scripts/boot/console.sh" >&2' ERR
tr -d '\r' <"$log" >"$tmp/log"
regexes() { grep -vE '^[[:space:]]*(#|$)' "$1" || true; }
regexes "$PATTERNS" >"$tmp/patterns"
intended=${INTENDED:-}
# A 'fixed-by: REGEX' line of the known list covers the patterns after it, up to
# the next blank line: when the booted kernel's tree (KERNEL_TREE) has a commit
# since base whose subject matches REGEX, those splats are no longer known. An
# 'after: REGEX' line: the group holds only if the console's last kernel line
# matches it (a hang known by where it stopped).
: >"$tmp/subjects"
if [ -n "${KERNEL_TREE:-}" ] && ! git -C "$KERNEL_TREE" log --format=%s 'base..HEAD' >"$tmp/subjects" 2>/dev/null; then
	die "console: KERNEL_TREE=$KERNEL_TREE: no git history base..HEAD: cannot tell which known splats and hangs its fixes cover"
fi
last_kernel=$({ grep -E '^\[ *[0-9]+\.[0-9]+\] ' "$tmp/log" || true; } | { grep -v '^\[[^]]*\] guest: ' || true; } |
	tail -n 1 | sed -E 's/^\[[^]]*\] //')
known_list() { # FILE: its patterns, but those whose fix the booted tree has
awk -v subj="$tmp/subjects" -v last="$last_kernel" '
	BEGIN { while ((getline l < subj) > 0) S[ns++] = l }
	/^[[:space:]]*$/ { fixed = 0; away = 0; next }
	/^[[:space:]]*#/ { next }
	/^fixed-by: / {
		re = substr($0, 11); fixed = 0
		for (i = 0; i < ns; i++) if (S[i] ~ re) fixed = 1
		if (fixed) print "console: the tree has the fix /" re "/: what it covers is new again" > "/dev/stderr"
		next
	}
	/^after: / { if (last !~ substr($0, 8)) away = 1; next }
	!fixed && !away { print }
' "$1"
}
known_list "$KNOWN" >"$tmp/known"
: >"$tmp/known-hangs"
[ ! -f "$KNOWN_HANGS" ] || known_list "$KNOWN_HANGS" >"$tmp/known-hangs"
# A known hang: the first vCPU line of a timed-out boot that matches one.
known_hang=
if grep -q '^# boot: TIMEOUT' "$tmp/log" && [ -s "$tmp/known-hangs" ]; then
	known_hang=$(grep -E '^# boot: CPU#[0-9]+ NIP ' "$tmp/log" | grep -E -f "$tmp/known-hangs" | sed -n '1s/^# boot: //p' || true)
fi

results=() diags=()
add() { results+=("$1"); }

# The guest's own lines: '[ time] guest: ok 3 name # reason'.
guest() { sed -nE 's/^(\[[^]]*\] )?guest: (.*)$/\2/p' "$tmp/log"; }
done_line=$(guest | grep -c '^GUEST-DONE' || true)

# ---- splat scan, by block: a WARN/BUG block from 'cut here' to 'end trace'
# (or the next 60 lines), or from a 'BUG:' line to the end of its call trace,
# is known as a whole when one of its lines is known.
awk -v known="$tmp/known" -v pats="$tmp/patterns" -v intended="$intended" '
	BEGIN {
		while ((getline p < pats) > 0) P[np++] = p
		while ((getline k < known) > 0) K[nk++] = k
	}
	function is(line, A, n,   i) { for (i = 0; i < n; i++) if (line ~ A[i]) return 1; return 0 }
	function flush(   i, kn) {
		kn = 0
		for (i = 0; i < nb; i++) if (is(B[i], K, nk)) kn = 1
		for (i = 0; i < nb; i++) if (H[i]) print (kn ? "known" : "new") "\t" L[i] "\t" B[i]
		nb = 0; inblock = 0
	}
	{
		line = $0
		# Not scanned: the guest init and KUnit KTAP lines (test names may say preempt_count).
		body = line; sub(/^\[[^]]*\] /, "", body)
		skip = body ~ /^guest: / || body ~ /^[ \t]*((not )?ok [0-9]+ |#|KTAP version|[0-9]+\.\.[0-9]+$)/ ||
			body ~ /^\[[0-9a-f]+\] \[[0-9a-f]+\] / || body ~ /^(NIP|LR) +\[[0-9a-f]+\] / ||
			(intended != "" && body ~ intended)
		if (body ~ /-+\[ cut here \]-+/) { flush(); inblock = 1; start = NR; trace = 0 }
		# A BUG: without a cut-here line (might_sleep, scheduling while atomic)
		# is a block up to the end of its call trace.
		else if (!inblock && body ~ /^BUG: /) { flush(); inblock = 2; start = NR; trace = 0 }
		else if (inblock == 2 && trace && body !~ /^\[[0-9a-f]+\] \[[0-9a-f]+\] / && body !~ /^---- interrupt/) flush()
		if (inblock && body ~ /Call Trace:/) trace = 1
		B[nb] = line; L[nb] = NR; H[nb] = !skip && is(body, P, np); nb++
		if (!inblock || body ~ /---\[ end trace/ || NR - start > 60) flush()
	}
	END { flush() }
' "$tmp/log" >"$tmp/hits"
known_n=$(grep -c '^known' "$tmp/hits" || true)
new_n=$(grep -c '^new' "$tmp/hits" || true)
known_sig=$(grep -m1 '^known' "$tmp/hits" | cut -f3- | sed -E 's/^\[[^]]*\] //' || true)

# ---- the guest's results, each with the diagnostics printed since its start.
declare -A gdiag=()
cur=- plans=() got=()
while IFS= read -r l; do
	case $l in
	"1.."*) plans+=("${l#1..}") got+=(0) ;;
	"# "*": start") cur=${l#\# }; cur=${cur%: start}; gdiag[$cur]= ;;
	"# "*) gdiag[$cur]+="$l"$'\n' ;;
	"ok "* | "not ok "*)
		if [[ $l == "not ok "*lockdep-alive* ]] && [ "$known_n" -gt 0 ] && [ "$new_n" = 0 ]; then
			l="${l%% \#*} # TODO known base failure: ${l#*\# }; turned off by the known base splat '$known_sig' (issue 6)"
		fi
		add "$l"
		cur=-
		[ ${#got[@]} = 0 ] || got[-1]=$((got[-1] + 1)) ;;
	esac
done < <(guest)
for i in "${!plans[@]}"; do
	[ "${got[i]}" = "${plans[i]}" ] ||
		add "not ok 0 guest-plan # guest run $((i + 1)) of ${#plans[@]}: planned ${plans[i]} results, printed ${got[i]}"
done
if [ -n "${REQUIRE:-}" ]; then
	guest >"$tmp/guest"
	if grep -qE -- "$REQUIRE" "$tmp/guest"; then
		add "ok 0 required # $(grep -m1 -E -- "$REQUIRE" "$tmp/guest")"
	else
		if [ -n "$known_hang" ]; then
			add "not ok 0 required # TODO known base failure: no guest line matches /$REQUIRE/: the known base hang ($known_hang)"
		else
			add "not ok 0 required # no guest line matches /$REQUIRE/"
		fi
	fi
fi

# ---- the kernel's own lines (not the guest's): required and forbidden.
grep -v -E '^(\[[^]]*\] )?guest: ' "$tmp/log" | sed -E 's/^\[[^]]*\] //' >"$tmp/kernel"
# kernel_line NAME REGEX WANT: one result, ok when a kernel line matching
# REGEX is there (WANT=1) or is not (WANT=0).
kernel_line() {
	local hit
	hit=$(grep -m1 -E -- "$2" "$tmp/kernel" | tr '\t' ' ' || true)
	if [ -n "$hit" ] && [ "$3" = 1 ]; then add "ok 0 $1 # $hit"
	elif [ -n "$hit" ]; then add "not ok 0 $1 # $hit"
	elif [ "$3" = 1 ]; then add "not ok 0 $1 # no kernel line matches /$2/"
	else add "ok 0 $1 # no kernel line matches /$2/"
	fi
}
[ -z "${KERNEL_REQUIRE:-}" ] || kernel_line kernel-required "$KERNEL_REQUIRE" 1
[ -z "${KERNEL_FORBID:-}" ] || kernel_line kernel-forbidden "$KERNEL_FORBID" 0

# ---- did the guest finish?
if [ "$done_line" = 0 ]; then
	why="no GUEST-DONE line: the guest hung, panicked or was killed"
	grep -qE 'Kernel panic' "$tmp/log" && why="kernel panic: $(grep -m1 -E 'Kernel panic' "$tmp/log" | sed -E 's/^\[[^]]*\] //')"
	grep -q '^# boot: TIMEOUT' "$tmp/log" && why="$(grep -m1 '^# boot: TIMEOUT' "$tmp/log" | sed 's/^# boot: //'): the guest hung or was too slow"
	if [ -n "$known_hang" ]; then
		add "not ok 0 guest-done # TODO known base failure: $why; a known base hang (tests/known-hangs.txt): $known_hang"
	else
		add "not ok 0 guest-done # $why"
	fi
	diags+=("last 50 console lines:")
	while IFS= read -r l; do diags+=("  $l"); done < <(tail -n 50 "$tmp/log")
else
	add "ok 0 guest-done"
fi

# ---- KUnit at boot, from the console before the guest init started.
sed -n '/guest: /q; p' "$tmp/log" >"$tmp/kunit.log"
if ! grep -q 'KTAP version' "$tmp/kunit.log"; then
	add "ok 0 kunit-console # SKIP no KUnit output on the console"
elif python3 "$LINUX/tools/testing/kunit/kunit.py" parse "$tmp/kunit.log" >"$tmp/kunit.out" 2>&1; then
	add "ok 0 kunit-console # $(grep -m1 -E 'Ran [0-9]+ tests' "$tmp/kunit.out" | sed -E 's/^\[[^]]*\] //')"
else
	add "not ok 0 kunit-console # kunit.py parse: $(grep -m1 -E 'Ran [0-9]+ tests|Could not' "$tmp/kunit.out" | sed -E 's/^\[[^]]*\] //')"
	while IFS= read -r l; do diags+=("  $l"); done < <(grep -E 'FAILED|CRASHED|\[ERROR\]' "$tmp/kunit.out" | head -n 20)
fi

# ---- the KUnit suites this kernel must have run (KUNIT_SUITES, from kernel/qemu/TARGET).
# Read from a file, never through a pipe that awk or grep may close early: a
# SIGPIPE under pipefail would end this script with no result printed.
sed -E 's/^\[[^]]*\] //' "$tmp/kunit.log" >"$tmp/kunit.txt"
for suite in ${KUNIT_SUITES:-}; do
	res=$(grep -E "^(not )?ok [0-9]+ $suite( |$)" "$tmp/kunit.txt" | tail -n1 || true)
	totals=$(sed -nE "/^# $suite: pass:/{s/^# $suite: //p;q}" "$tmp/kunit.txt")
	# KUnit prints no totals line for a suite of one case: count its cases.
	[ -n "$totals" ] || totals=$(awk -v s="$suite" '
		$0 ~ "^[ \t]+# Subtest: " s "$" { on = 1; next }
		on && $0 ~ "^(not )?ok [0-9]+ " s "( |$)" { on = 0 }
		on && /^    (not )?ok [0-9]+ / { n++; if ($1 == "ok") p++ }
		END { printf "%d of %d cases passed", p, n }' "$tmp/kunit.txt")
	case $res in
	"") add "not ok 0 kunit-$suite # the suite did not run at boot" ;;
	"not ok"*) add "not ok 0 kunit-$suite # $totals" ;;
	*) add "ok 0 kunit-$suite # $totals" ;;
	esac
done

# ---- the splat scan's own line.
if [ "$new_n" -gt 0 ]; then
	add "not ok 0 splats # $new_n new splat line(s) on the console (first below)"
	diags+=("splat lines (line number: text), the known ones marked:")
	while IFS=$'\t' read -r kind nr text; do
		mark=; [ "$kind" = new ] || mark="   <- known base splat"
		diags+=("  $nr: $text$mark")
	done < <(head -n 30 "$tmp/hits")
	first=$(grep -m1 '^new' "$tmp/hits" | cut -f2)
	diags+=("console lines $first-$((first + 30)):")
	while IFS= read -r l; do diags+=("  $l"); done < <(sed -n "${first},$((first + 30))p" "$tmp/log")
elif [ "$known_n" -gt 0 ]; then
	add "ok 0 splats # no new splat; known base splat: $known_sig ($known_n line(s))"
else
	add "ok 0 splats # none"
fi

# ---- print, numbered in order.
echo "KTAP version 1"
echo "# $title"
echo "1..${#results[@]}"
pass=0 fail=0 skip=0 todo=0 k=0
for r in "${results[@]}"; do
	k=$((k + 1))
	r=$(sed -E "s/^(not ok|ok) [0-9]+ /\1 $k /" <<<"$r")
	echo "$r"
	case $r in
	*"# TODO"*) todo=$((todo + 1)) ;;
	"not ok"*) fail=$((fail + 1)) ;;
	*"# SKIP"*) skip=$((skip + 1)) ;;
	*) pass=$((pass + 1)) ;;
	esac
	# The guest's diagnostics for this scenario, indented under its line.
	name=$(sed -E 's/^(not )?ok [0-9]+ ([^ ]+).*/\2/' <<<"$r")
	[ -z "${gdiag[$name]:-}" ] || printf '%s' "${gdiag[$name]}" | sed 's/^# /#   /'
done
for d in "${diags[@]}"; do echo "# $d"; done
echo "# $title: $pass passed, $fail failed, $skip skipped, $todo known base failures"
if [ "$fail" != 0 ]; then exit 1; fi
