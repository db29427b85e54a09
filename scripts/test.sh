#!/bin/bash
# The test runner: runs the checks of one suite of tests/checks in order, prints
# one KTAP-like line per check ('ok N - name' / 'not ok N - name', with the tail
# of the check's log on failure), keeps each log in build/logs/NAME.log, and
# ends with the line 'N passed, N failed'. Exit status: 0 only if all passed.
# Usage: test.sh [test|check|full]   (CHECKS=file and LOGS=dir override the defaults)
. "$(dirname "$0")/common.sh"

suite=${1:-test}
CHECKS=${CHECKS:-$TOP/tests/checks}
LOGS=${LOGS:-$BUILD/logs}
[ -f "$CHECKS" ] || die "test: no check list $CHECKS"
export TOP BUILD LINUX SERIES SERIES_BRANCH CONFIGS JOBS

# Expand the list of the suite into names, commands and gates.
names=() cmds=() gates=()
add() {
	local name=$1
	[[ $name =~ ^[A-Za-z0-9._+-]+$ ]] || die "test: $CHECKS: bad check name '$name'"
	[[ " ${names[*]} " != *" $name "* ]] || die "test: $CHECKS: check '$name' listed twice"
	names+=("$name") cmds+=("$2") gates+=("$3")
}
mapfile -t patches < <(series_patches)
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
			b=${p##*/}
			add "${name//\{patch\}/${b%.patch}}" "${cmd//\{patch\}/$(printf %q "$p")}" "$gate"
		done
	fi
done <"$CHECKS"
n=${#names[@]}
[ "$n" -gt 0 ] || die "test: no check in suite '$suite' of $CHECKS (suites: test, check, full)"

mkdir -p "$LOGS"
echo "KTAP version 1"
echo "# suite $suite: $n checks from ${CHECKS#"$TOP"/}, logs in $LOGS"
echo "1..$n"
passed=0 failed=0 stopped='' begin=$SECONDS
for i in "${!names[@]}"; do
	k=$((i + 1)) name=${names[i]}
	if [ -n "$stopped" ]; then
		echo "not ok $k - $name # not run: $stopped failed"
		failed=$((failed + 1))
		continue
	fi
	log=$LOGS/$name.log
	echo "# $name: ${cmds[i]}"
	start=$SECONDS
	if (cd "$TOP" && bash -c "${cmds[i]}") >"$log" 2>&1 </dev/null; then
		echo "ok $k - $name # $((SECONDS - start)) s"
		passed=$((passed + 1))
	else
		echo "not ok $k - $name # $((SECONDS - start)) s"
		tail -n 25 "$log" | sed 's/^/#   /'
		echo "# log: $log"
		failed=$((failed + 1))
		[ -z "${gates[i]}" ] || stopped=$name
	fi
done
echo "# suite $suite: $((SECONDS - begin)) s"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
