#!/bin/bash
# The test runner: runs the checks of one suite of tests/checks in order, prints
# one KTAP-like line per check ('ok N - name' / 'not ok N - name', with the tail
# of the check's log on failure), keeps each log in build/logs/NAME.log, and
# ends with the line 'N passed, N failed'. Exit status: 0 only if all passed.
# A check whose NAME ends in '*' prints KTAP (for example a guest boot judged by
# scripts/boot/console.sh): each of its result lines counts as one check, shown
# indented under it; '# SKIP' and '# TODO' (known base failure) results are
# listed before the closing line and never counted as passed.
# The output starts with the stamp of what it ran on (scripts/report/stamp.sh)
# and the suite's whole check list, and is saved as it prints to
# results/<stamp id>/SUITE-<time>.txt (SUITE-part-<time>.txt with ONLY= or RESUME=1):
# the parts that make report merges.
# Usage: test.sh [test|check|full|torture|torture-rcu|wide|distro]   (CHECKS=file and LOGS=dir override
# the defaults; ONLY=regex runs only the checks it names, after the gates;
# RESULTS_DIR=dir saves there instead, RESULTS_DIR= not at all; with CHECKS=,
# nothing is saved unless RESULTS_DIR= names a folder; RESUME=1 skips the checks
# that passed in the suite's earlier parts saved with the same stamp, so that a
# run a session's end cut off goes on where it stopped)
. "$(dirname "$0")/../common.sh"

suite=${1:-test}
[ -n "${CHECKS:-}" ] || RESULTS_DIR=${RESULTS_DIR-$TOP/results}
CHECKS=${CHECKS:-$TOP/tests/checks}
LOGS=${LOGS:-$BUILD/logs}
[ -f "$CHECKS" ] || die "test: no check list $CHECKS"
export TOP BUILD LINUX SERIES SERIES_BRANCH CONFIGS JOBS

# Expand the list of the suite into names, commands and gates.
names=() cmds=() gates=() ktap=()
add() {
	local name=$1
	[[ $name != *'*' ]] || { ktap[${#names[@]}]=1; name=${name%'*'}; }
	[[ $name =~ ^[A-Za-z0-9._+-]+$ ]] || die "test: $CHECKS: bad check name '$name'"
	[[ " ${names[*]} " != *" $name "* ]] || die "test: $CHECKS: check '$name' listed twice"
	names+=("$name") cmds+=("$2") gates+=("$3")
}
mapfile -t patches < <(all_patches)
while read -r suites name cmd; do
	[[ -z $suites || $suites == \#* ]] && continue
	[[ ",$suites," == *",$suite,"* ]] || continue
	[ -n "$cmd" ] || die "test: $CHECKS: no command for check '$name'"
	gate=
	[[ $name != *! ]] || { gate=1; name=${name%!}; }
	if [[ "$name $cmd" != *"{patch}"* ]]; then
		add "$name" "$cmd" "$gate"
	elif [ ${#patches[@]} = 0 ]; then
		name=${name//\{patch\}/}; name=${name%-}
		add "$name" "${cmd//\{patch\}/}" "$gate"
	else
		for p in "${patches[@]}"; do
			add "${name//\{patch\}/$(patch_label "$p")}" "${cmd//\{patch\}/$(printf %q "$p")}" "$gate"
		done
	fi
done <"$CHECKS"
plan=("${names[@]}")
# Keep only the checks whose index is in the array drop_ unset (ONLY=, RESUME=1).
keep_checks() {
	local i keep_n=() keep_c=() keep_g=() keep_k=()
	for i in "${!names[@]}"; do
		[ -z "${drop_[i]:-}" ] || continue
		keep_k[${#keep_n[@]}]=${ktap[i]:-}
		keep_n+=("${names[i]}") keep_c+=("${cmds[i]}") keep_g+=("${gates[i]}")
	done
	names=("${keep_n[@]}") cmds=("${keep_c[@]}") gates=("${keep_g[@]}") ktap=()
	for i in "${!keep_k[@]}"; do ktap[i]=${keep_k[i]}; done
}
# ONLY=regex: the checks whose whole name matches it, and the gates before them.
if [ -n "${ONLY:-}" ]; then
	drop_=() matched=
	for i in "${!names[@]}"; do
		if [[ ${names[i]} =~ ^($ONLY)$ ]]; then matched=1; elif [ -z "${gates[i]}" ]; then drop_[i]=1; fi
	done
	[ -n "$matched" ] || die "test: ONLY=$ONLY matches no check of suite '$suite'"
	keep_checks
fi
[ "${#names[@]}" -gt 0 ] || die "test: no check in suite '$suite' of $CHECKS (suites: test, check, full, torture, torture-rcu, wide, distro)"

mkdir -p "$LOGS"
started=$(date -u +%Y%m%dT%H%M%SZ)
case ${RESUME:-} in
'' | 0) RESUME= ;;
1) ;;
*) die "test: RESUME=$RESUME: 1 (go on from the saved parts) or 0" ;;
esac
stamp_id() { "$TOP/scripts/report/stamp.sh" | sed -n 's/^# stamp: id //p'; }
if [ -n "${RESULTS_DIR:-}" ]; then
	stamp=$("$TOP/scripts/report/stamp.sh") || die "test: cannot stamp the run (scripts/report/stamp.sh)"
	id=$(sed -n 's/^# stamp: id //p' <<<"$stamp")
	mkdir -p "$RESULTS_DIR/$id" || die "test: cannot write to $RESULTS_DIR/$id (RESULTS_DIR= saves nothing)"
else
	[ -z "$RESUME" ] || die "test: RESUME=1 needs the saved parts: RESULTS_DIR= saves nothing"
	stamp=$("$TOP/scripts/report/stamp.sh" 2>/dev/null) || stamp='# stamp: id unknown'
fi
# RESUME=1: drop the checks (not the gates) that passed in a part of this
# suite saved with this stamp, as make report would count them; but not a
# build that a check still to run boots, disassembles or runs sparse on (the
# machine may be a new one, with no build/out). A check names the targets it
# uses in its command (tests/checks).
built_by() { sed -nE 's#^(.* )?scripts/build/(wide-)?build\.sh ([A-Za-z0-9_.+-]+)( .*)?$#\3#p' <<<"$1"; }
resumed=() rebuilt=()
if [ -n "$RESUME" ]; then
	done_list=$(python3 "$TOP/scripts/report/report.py" --passed "$RESULTS_DIR/$id" "$suite" "${plan[@]}") ||
		die "test: RESUME=1: the saved parts of suite '$suite' in $RESULTS_DIR/$id cannot be merged (above)"
	drop_=()
	for i in "${!names[@]}"; do
		[ -n "${gates[i]}" ] || ! grep -qxF -e "${names[i]}" <<<"$done_list" || drop_[i]=1
	done
	for i in "${!names[@]}"; do
		t=$(built_by "${cmds[i]}")
		[ -n "${drop_[i]:-}" ] && [ -n "$t" ] || continue
		for ((j = i + 1; j < ${#names[@]}; j++)); do
			if [ -z "${drop_[j]:-}" ] && [ -z "${gates[j]}" ] && [[ " ${cmds[j]//=/ } " == *" $t "* ]]; then
				drop_[i]= rebuilt+=("${names[i]}")
				break
			fi
		done
	done
	for i in "${!names[@]}"; do [ -z "${drop_[i]:-}" ] || resumed+=("${names[i]}"); done
	keep_checks
fi
n=${#names[@]}

if [ -n "${RESULTS_DIR:-}" ]; then
	part=${ONLY:+-part}
	[ -z "$RESUME" ] || part=-part
	save=$RESULTS_DIR/$id/$suite$part-$started-$$.txt
	[ ! -e "$save" ] || die "test: $save exists already"
	# Everything printed from here on goes to the file too; at exit, tee is
	# waited for, so that the closing line is written before make returns.
	exec > >(tee "$save")
	tee_pid=$!
	trap 'exec >&-; wait "$tee_pid"' EXIT
fi
echo "KTAP version 1"
echo "# suite $suite: $n checks from ${CHECKS#"$TOP"/}, logs in $LOGS"
[ -z "${save:-}" ] || echo "# saved to ${save#"$TOP"/}"
if [ -n "$RESUME" ]; then
	echo "# resume: ${#resumed[@]} checks passed in the earlier parts in ${RESULTS_DIR#"$TOP"/}/$id, not run again: ${resumed[*]:-none}"
	echo "# resume: builds passed before, run again for the checks after them: ${rebuilt[*]:-none}"
fi
echo "$stamp"
echo "# started: $started"
echo "# plan: $suite ${plan[*]}"
echo "1..$n"
passed=0 failed=0 stopped='' begin=$SECONDS notes=()
ccache_stats_log "$LOGS/ccache-stats-$$.log"
read -r hits0 misses0 < <(ccache_counts)

# The results of a KTAP check's log (its last 'KTAP version 1' block): prints
# them indented as subtests, counts them into passed/failed, keeps skipped and
# known failures in notes; returns 1 if one failed or none was found.
ktap_results() { # name log exit-status
	local name=$1 log=$2 rc=$3 r k=0 bad=0
	mapfile -t res < <(awk '/^KTAP version 1$/ { n = 0; delete R } /^(not )?ok [0-9]+ / { R[n++] = $0 }
		END { for (i = 0; i < n; i++) print R[i] }' "$log")
	local extra=0
	if [ ${#res[@]} = 0 ] || { [ "$rc" != 0 ] && ! printf '%s\n' "${res[@]}" | awk '/^not ok/ && !/# TODO/ { f = 1 } END { exit !f }'; }; then
		extra=1
	fi
	echo "    # Subtest: $name"
	echo "    1..$((${#res[@]} + extra))"
	for r in "${res[@]}"; do
		k=$((k + 1))
		echo "    $r"
		case $r in
		*"# TODO"*) notes+=("known base failure, not counted: $name: ${r#* [0-9]* }") ;;
		"not ok"*) failed=$((failed + 1)) bad=1 ;;
		*"# SKIP"*) notes+=("skipped, not counted: $name: ${r#* [0-9]* }") ;;
		*) passed=$((passed + 1)) ;;
		esac
	done
	if [ "$extra" = 1 ]; then
		r="exit status $rc"
		[ "$k" != 0 ] || r="$r, no KTAP result"
		echo "    not ok $((k + 1)) exit-status # $r"
		failed=$((failed + 1)) bad=1
	fi
	return "$bad"
}

for i in "${!names[@]}"; do
	k=$((i + 1)) name=${names[i]}
	if [ -n "$stopped" ]; then
		echo "not ok $k - $name # not run: $stopped"
		failed=$((failed + 1))
		continue
	fi
	log=$LOGS/$name.log
	echo "# $name: ${cmds[i]}"
	start=$SECONDS
	read -r h0 m0 < <(ccache_counts)
	rc=0
	# The runner's own settings are not the check's: a self-test that runs
	# this runner must not resume or pick checks because this run does.
	(cd "$TOP" && env -u ONLY -u RESUME -u RESULTS_DIR -u CHECKS -u LOGS bash -c "${cmds[i]}") >"$log" 2>&1 </dev/null || rc=$?
	# A run whose code changed under it ran on no one revision: make report
	# refuses it. Checked after each check, before its result line, so that
	# the finished checks of a run cut off before its closing line can count.
	if [ -n "${save:-}" ] && [ -z "${changed:-}" ] && [ "$(stamp_id || true)" != "$id" ]; then
		changed=$(stamp_id || echo unknown)
		echo "# stamp: changed-during-run $changed"
		stopped="the code changed under the run"
	fi
	# The time, and the compiler cache's hits and misses where it compiled.
	took="$((SECONDS - start)) s"
	cc=$(ccache_since "$h0" "$m0")
	[[ $cc == "ccache 0 hits, 0 misses"* ]] || took="$took, $cc"
	if [ -n "${ktap[i]:-}" ]; then
		if ktap_results "$name" "$log" "$rc" >"$log.results"; then
			cat "$log.results"
			echo "ok $k - $name # $took"
		else
			cat "$log.results"
			echo "not ok $k - $name # $took"
			tail -n 40 "$log" | sed 's/^/#   /'
			echo "# log: $log"
			[ -z "${gates[i]}" ] || stopped="$name failed"
		fi
	elif [ "$rc" = 0 ]; then
		echo "ok $k - $name # $took"
		passed=$((passed + 1))
	else
		echo "not ok $k - $name # $took"
		tail -n 25 "$log" | sed 's/^/#   /'
		echo "# log: $log"
		failed=$((failed + 1))
		[ -z "${gates[i]}" ] || stopped="$name failed"
	fi
done
echo "# suite $suite: $((SECONDS - begin)) s, $(ccache_since "$hits0" "$misses0")"
rm -f "$CCACHE_STATSLOG"
for note in "${notes[@]}"; do echo "# $note"; done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
