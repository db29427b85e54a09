#!/bin/bash
# Self-test of scripts/export/post.sh (make post): it refuses an empty or a
# placeholder sender, saying what to set and why (the DCO), and writes nothing;
# as a valid sender (a test identity, not a person) it writes every posting:
# each patch and cover letter From: the sender, each patch with exactly one
# Signed-off-by: of the sender, as its last trailer, after every other trailer
# of its patch file (Fixes: included), no placeholder left, the bpf posting
# '[PATCH bpf]' to bpf@vger.kernel.org. Its map is today's split, found by
# name: kernel/post numbers the final layout. The identity comes from an
# isolated git config (GIT_CONFIG_*): the repository's is never changed.
. "$(dirname "$0")/lib.sh"
unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
export LINUX=$MAIN_LINUX POST_DIR=$T/post POST_MAP=$T/map GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
post=$TOP/scripts/export/post.sh
config_before=$(git -C "$TOP" config --local --list || true)
# Runs post.sh with git config user.name $1 and user.email $2.
as() { env GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0="$1" \
	GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1="$2" "$post"; }
refused() { # WHAT NAME EMAIL
	expect_fail "$1" as "$2" "$3"
	expect_line '^ERROR: post: refusing to write patches as '
	expect_line 'git config user\.name "Your Name"'
	expect_line 'git config user\.email '
	expect_line "^A Signed-off-by: certifies the Developer's Certificate of Origin"
	expect_line '^only the sender can add it'
	[ ! -e "$POST_DIR" ] && [ ! -e "$POST_DIR.new" ] || fail "$1: post.sh wrote $POST_DIR"
}

# The map: series/ 1-3 the fixes, the NMI-width selftest alone to bpf, the rest
# of series/; series-rcu/ but its last patch, then its last.
num() { local b=${1##*/}; echo $((10#${b%%-*})); }
mapfile -t s1 < <(SERIES=$TOP/series series_patches)
mapfile -t s2 < <(SERIES=$TOP/series-rcu series_patches)
[ ${#s1[@]} -ge 5 ] && [ ${#s2[@]} -ge 2 ] || fail "series/ (${#s1[@]} patches) or series-rcu/ (${#s2[@]}) too short for the test's map"
bpf='' rest=''
for p in "${s1[@]:3}"; do
	if [[ ${p##*/} == *-selftests-bpf-Take-the-NMI-* ]]; then bpf=$(num "$p"); else rest+=${rest:+,}$(num "$p"); fi
done
[ -n "$bpf" ] || fail "no series/*-selftests-bpf-Take-the-NMI-*.patch: the test's map needs updating"
n2=${#s2[@]}
cat >"$POST_MAP" <<EOF
fixes  series:1-3                  -                        kernel/post-fixes-cover.txt         PATCH
bpf    series:$bpf                 bpf@vger.kernel.org+BPF  -                                   PATCH bpf
v3     series:$rest                -                        series/0000-cover-letter.patch      PATCH v3
rcu    series-rcu:1-$((n2 - 1))    -                        series-rcu/0000-cover-letter.patch  RFC PATCH v2
irq    series-rcu:$n2              -                        -                                   RFC PATCH
EOF
cat "$POST_MAP"

# (a) An empty identity; (b) the placeholder, and others like it.
refused "an empty identity" "" ""
refused "an empty address" "Post Selftest" ""
refused "the project's placeholder" "Seed 15b49112 maintainers" "maintainers@users.noreply.a-seed-15b49112.example"
refused "a Seed name" "Seed 0ddba11 people" "post-selftest@localhost"
refused "an example.com address" "Post Selftest" "post-selftest@example.com"
refused "an example.org subdomain" "Post Selftest" "post-selftest@mail.example.org"
refused "a .invalid address" "Post Selftest" "post-selftest@host.invalid"
refused "a .test address" "Post Selftest" "post-selftest@mail.test"
refused "a noreply address" "Post Selftest" "12345+post@users.noreply.github.com"
expect_fail "GIT_AUTHOR_EMAIL, a placeholder" env GIT_AUTHOR_EMAIL=x@y.example GIT_CONFIG_COUNT=2 \
	GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0="Post Selftest" GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1=post-selftest@localhost "$post"
expect_line "^ERROR: post: refusing to write patches as 'Post Selftest <x@y\.example>': an address under \.example"
pass "post.sh refuses empty and placeholder identities, says what to set and why, writes nothing"

# (c) A valid identity that is no person.
me="Post Selftest <post-selftest@localhost>"
as "Post Selftest" "post-selftest@localhost" >"$T/out" 2>&1 || { cat "$T/out"; fail "post.sh failed as $me"; }
cat "$T/out"
expect_line "^post: .* written: 5 postings, $((${#s1[@]} + n2)) patches$"
for name in 1-fixes 2-bpf 3-v3 4-rcu 5-irq; do expect_line "^post: $name +.* checkpatch clean"; done
[ -f "$POST_DIR/README" ] && grep -q 'git send-email' "$POST_DIR/README" || fail "no README naming git send-email in $POST_DIR"
# The From: header of a file, unfolded.
from() { awk '$0 == "" { exit } /^From: / { s = substr($0, 7); on = 1; next } on && /^[ \t]/ { s = s $0; next } { on = 0 } END { print s }' "$1"; }
sob="Signed-off-by: $me"
i=0 checked=0 fixes=0
while read -r pname spec _; do
	i=$((i + 1)) dir=$POST_DIR/$i-$pname
	[ -d "$dir" ] || fail "no folder $dir"
	c=$dir/0000-cover-letter.patch
	[ ! -f "$c" ] || [ "$(from "$c")" = "$me" ] || fail "$i-$pname's cover letter is not From: $me"
	mapfile -t got < <(SERIES=$dir series_patches)
	folder=${spec%%:*} src=()
	IFS=, read -ra items <<<"${spec#*:}"
	for it in "${items[@]}"; do
		for ((k = ${it%-*}; k <= ${it#*-}; k++)); do src+=("$TOP/$folder/$(printf %04d "$k")"-*.patch); done
	done
	[ ${#got[@]} = ${#src[@]} ] || fail "$i-$pname: ${#got[@]} patches written for ${#src[@]}"
	for k in "${!got[@]}"; do
		p=${got[k]} b=$i-$pname/${got[k]##*/}
		[ "$(from "$p")" = "$me" ] || fail "$b: From: $(from "$p"), not $me"
		[ "$(grep -cxF "$sob" "$p")" = 1 ] || fail "$b: not exactly one '$sob'"
		# Every trailer of the source but the placeholder's sign-off, in order, then the sender's.
		{ git interpret-trailers --parse <"${src[k]}" | grep -vE '^Signed-off-by: (Seed [0-9a-f]+ |.*noreply)' || true; echo "$sob"; } >"$T/want"
		git interpret-trailers --parse <"$p" >"$T/got"
		diff "$T/want" "$T/got" || fail "$b: its trailers are not its source's with the sender's sign-off last (diff above)"
		[ "$pname" != fixes ] || fixes=$((fixes + $(grep -c '^Fixes: ' "$p" || true)))
		checked=$((checked + 1))
	done
done < <(grep -v '^#' "$POST_MAP")
if grep -rnE 'Seed [0-9a-f]{6,}|noreply' "$POST_DIR"; then fail "a placeholder identity is left (above)"; fi
pass "$checked patches From: $me, one sign-off of it, last, every other trailer kept ($fixes Fixes: in the fixes); no placeholder left"

grep -q '^Subject: \[PATCH bpf\] ' "$POST_DIR"/2-bpf/0001-*.patch || fail "the bpf posting's subject is not [PATCH bpf]"
grep -q '^To: bpf@vger\.kernel\.org,$' "$POST_DIR"/2-bpf/0001-*.patch || fail "the bpf posting is not To: bpf@vger.kernel.org"
grep -q '^Subject: \[PATCH 0/3\] ' "$POST_DIR/1-fixes/0000-cover-letter.patch" || fail "the fixes' cover letter is not [PATCH 0/3]"
grep -q "^Subject: \[RFC PATCH\] " "$POST_DIR"/5-irq/0001-*.patch || fail "the lone irq patch is not [RFC PATCH]"
pass "[PATCH bpf] to bpf@vger.kernel.org, [PATCH 0/3] for the fixes, [RFC PATCH] for a lone patch"

[ "$(git -C "$TOP" config --local --list || true)" = "$config_before" ] || fail "the repository's git config changed"
pass "the repository's git config is unchanged"
