#!/bin/bash
# make post: what would be mailed, split into the postings of kernel/post
# (POST_MAP=file instead), as git format-patch output in build/post/N-NAME/
# (POST_DIR=dir instead), with build/post/README. Sends nothing.
# The sender is 'git config user.name' and 'user.email' of this repository;
# GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL override them, as for git commit. An
# empty or placeholder identity is refused: the sender's Signed-off-by:
# certifies the DCO, and only the sender can give it.
# Each posting's patches are applied onto tag base, in the map's order, with
# git am in a scratch work tree of build/linux (build/post-tree, kept for the
# next run; POST_TREE=dir), and made the sender's: a placeholder author
# becomes the sender (a real one is kept, as for a patch passed on), the
# placeholder Signed-off-by: goes and the sender's is added last; every other
# trailer stays in place. To:/Cc: are the patch files' own (make export's);
# a cover letter gets their union and its own file's. The output is staged in
# build/post.new and replaces build/post/ only once checked: checkpatch.sh on
# every patch, git am of all the written postings onto base giving the same
# tree, one sender Signed-off-by: a patch, and no placeholder identity left.
# Usage: post.sh
. "$(dirname "$0")/../common.sh"
. "$(dirname "$0")/mail.sh"
need git
need perl
need flock
map=${POST_MAP:-$TOP/kernel/post}
out=${POST_DIR:-$BUILD/post}
tree=${POST_TREE:-$BUILD/post-tree}
rel() { echo "${1#"$TOP"/}"; }

# 1. The sender.
# Why NAME <EMAIL> is no one's identity, or nothing when it is one.
not_an_identity() {
	local name=$1 email=${2,,} domain re_addr='^[^@[:space:]<>]+@[^@[:space:]<>]+$'
	local re_seed='^[Ss]eed [0-9A-Fa-f]+( |$)' re_ex='(^|\.)example\.(com|org|net)$' re_tld='(^|\.)(example|invalid|test)$'
	domain=${email##*@}
	if [ -z "$name" ]; then echo "no name (git config user.name is empty)"
	elif [ -z "$email" ]; then echo "no address (git config user.email is empty)"
	elif [[ $name == *[\<\>@]* ]] || ! [[ $email =~ $re_addr ]]; then echo "not a name and a mail address"
	elif [[ $name =~ $re_seed ]] || [ "${name,,}" = "your name" ]; then echo "a placeholder name"
	elif [[ $domain =~ $re_ex ]]; then echo "an address at $domain, a domain for examples"
	elif [[ $domain =~ $re_tld ]]; then echo "an address under .${BASH_REMATCH[2]}, which mail never reaches"
	elif [[ $email == *noreply* || $email == *no-reply* ]]; then echo "a no-reply address"
	fi
}
name=${GIT_AUTHOR_NAME:-$(git -C "$TOP" config user.name || true)}
email=${GIT_AUTHOR_EMAIL:-$(git -C "$TOP" config user.email || true)}
who="$name <$email>"
why=$(not_an_identity "$name" "$email")
if [ -n "$why" ]; then
	cat >&2 <<-EOF
	post: the patches are written as the sender's: From: the sender, and the
	sender's own Signed-off-by: as their last trailer.
	A Signed-off-by: certifies the Developer's Certificate of Origin (the
	kernel's Documentation/process/submitting-patches.rst, "Sign your work"):
	only the sender can add it. Set your own name and address (in this
	repository, or with --global) and run make post again:

	    git config user.name "Your Name"
	    git config user.email "you@your.mail.domain"

	(GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL, when set, override both.)
	EOF
	die "post: refusing to write patches as '$who': $why"
fi

# 2. The map: names[i], files[i] (its patch files, one a line), tos[i], covers[i], prefixes[i].
[ -f "$map" ] || die "post: no map $map"
names=() files=() tos=() covers=() prefixes=() folders=()
declare -A posted=()
ln=0
while IFS= read -r line || [ -n "$line" ]; do
	ln=$((ln + 1))
	[[ $line =~ ^[[:space:]]*(#|$) ]] && continue
	at="$(rel "$map"):$ln"
	read -r pname spec to cover prefix <<<"$line"
	read -ra w <<<"${prefix:-}"
	prefix=${w[*]}
	[ -n "$prefix" ] || die "post: $at: want NAME FOLDER:PATCHES TO COVER SUBJECT-PREFIX..., got: $line"
	[[ $pname =~ ^[A-Za-z0-9._-]+$ ]] || die "post: $at: NAME '$pname' is not one word"
	[[ " ${names[*]} " != *" $pname "* ]] || die "post: $at: posting '$pname' named twice"
	[[ $spec =~ ^([A-Za-z0-9._/-]+):([0-9,-]+)$ ]] || die "post: $at: '$spec' is not FOLDER:PATCHES (series:4,6-12)"
	folder=${BASH_REMATCH[1]} list=${BASH_REMATCH[2]} fl=
	[ -d "$TOP/$folder" ] || die "post: $at: no folder $folder/"
	IFS=, read -ra items <<<"$list"
	for it in "${items[@]}"; do
		if [[ $it =~ ^([0-9]+)-([0-9]+)$ ]]; then a=$((10#${BASH_REMATCH[1]})) b=$((10#${BASH_REMATCH[2]}))
		elif [[ $it =~ ^[0-9]+$ ]]; then a=$((10#$it)) b=$a
		else die "post: $at: '$it' in '$spec' is neither a number nor a range"; fi
		[ "$a" -ge 1 ] && [ "$a" -le "$b" ] || die "post: $at: bad range '$it' in '$spec'"
		for ((k = a; k <= b; k++)); do
			m=("$TOP/$folder/$(printf %04d "$k")"-*.patch)
			[ -e "${m[0]}" ] || die "post: $at: posting '$pname': no patch $k in $folder/"
			[ ${#m[@]} = 1 ] || die "post: $at: posting '$pname': two files numbered $k in $folder/"
			[ -z "${posted[${m[0]}]:-}" ] || die "post: $at: posting '$pname': $(rel "${m[0]}") is in posting '${posted[${m[0]}]}' already"
			posted[${m[0]}]=$pname
			fl+=${m[0]}$'\n'
		done
	done
	[ "$to" = - ] || [[ $to =~ ^[^+[:space:]]+@[^+[:space:]]+\+[^[:space:]]+$ ]] ||
		die "post: $at: TO '$to' is neither - nor LIST+SECTION (bpf@vger.kernel.org+BPF)"
	[ "$cover" = - ] || [ -f "$TOP/$cover" ] || die "post: $at: no cover letter file $cover"
	names+=("$pname") files+=("$fl") tos+=("$to") covers+=("$cover") prefixes+=("$prefix")
	[[ " ${folders[*]} " == *" $folder "* ]] || folders+=("$folder")
done <"$map"
[ ${#names[@]} -gt 0 ] || die "post: $(rel "$map") names no posting"
for folder in "${folders[@]}"; do
	for p in "$TOP/$folder"/[0-9][0-9][0-9][0-9]-*.patch; do
		[ "${p##*/}" = 0000-cover-letter.patch ] || [ -n "${posted[$p]:-}" ] ||
			die "post: $(rel "$p") is in no posting of $(rel "$map"): add it to one"
	done
done

# 3. The scratch tree, one run at a time; git runs there as the sender.
need_tree "$LINUX"
mkdir -p "$BUILD"
exec 8>"$tree.lock"
flock -n 8 || { say "post: waiting for another make post (lock: $tree.lock)"; flock 8; }
t() { git -C "$tree" "$@"; }
if [ -e "$tree/.git" ] && [ -d "$(t rev-parse --absolute-git-dir)/rebase-apply" ]; then
	t am --abort >/dev/null 2>&1 || rm -rf "$(t rev-parse --absolute-git-dir)/rebase-apply"
fi
[ -e "$tree/.git" ] || say "post: adding the scratch work tree $(rel "$tree") (once)"
worktree_at "$tree" base
export GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The commit message on stdin without the placeholder's or the sender's own
# Signed-off-by:, nor trailing blank lines; the sender's is added after.
drop_signoffs() {
	local l n e re='^Signed-off-by:[[:space:]]*(.*[^[:space:]])[[:space:]]*<([^>]*)>[[:space:]]*$'
	while IFS= read -r l; do
		if [[ $l =~ $re ]]; then
			n=${BASH_REMATCH[1]} e=${BASH_REMATCH[2]}
			[ -z "$(not_an_identity "$n" "$e")" ] && [ "${e,,}" != "${email,,}" ] || continue
		fi
		printf '%s\n' "$l"
	done | awk '{ l[NR] = $0 } END { n = NR; while (n > 0 && l[n] == "") n--; for (i = 1; i <= n; i++) print l[i] }'
}
kept=()
for i in "${!names[@]}"; do
	starts[i]=$(t rev-parse HEAD)
	while IFS= read -r p; do
		[ -n "$p" ] || continue
		if ! msg=$(t am -q --no-3way "$p" 2>&1); then
			t am --abort >/dev/null 2>&1 || true
			printf '%s\n' "$msg" | sed 's/^/    git am: /' >&2
			die "post: posting '${names[i]}': $(rel "$p") does not apply onto base and the patches before it in $(rel "$map")"
		fi
		an=$(t log -1 --format=%an) ae=$(t log -1 --format=%ae)
		author=(--author="$who")
		if [ -z "$(not_an_identity "$an" "$ae")" ] && [ "${ae,,}" != "${email,,}" ]; then
			author=() kept+=("$(rel "$p"): $an <$ae>")
		fi
		t cat-file commit HEAD | sed '1,/^$/d' | drop_signoffs |
			git interpret-trailers --where end --if-exists add --if-missing add \
				--trailer "Signed-off-by: $who" >"$tmp/msg"
		t commit -q --amend --no-verify --cleanup=verbatim "${author[@]}" -F "$tmp/msg"
	done <<<"${files[i]}"
	ends[i]=$(t rev-parse HEAD)
done
final=$(t rev-parse 'HEAD^{tree}')
for k in "${kept[@]}"; do say "post: note: $k: a real author, kept; the sender signs off after"; done

# 4. git format-patch, a folder a posting, and the recipients.
# The addresses of header H (To or Cc) of patch file F, one a line: make
# export writes one a line.
header_addrs() {
	awk -v h="$2" '$0 == "" { exit }
	/^[^ \t]/ { on = index($0, h ": ") == 1; if (on) { a = substr($0, length(h) + 3); sub(/,$/, "", a); if (a != "") print a }; next }
	on { a = $0; sub(/^[ \t]+/, "", a); sub(/,$/, "", a); if (a != "") print a }' "$1"
}
# The addresses of the files given, once each (by mail address), in order;
# with NOT=FILE, without those of FILE.
union() {
	awk -v not="${NOT:-/dev/null}" 'function key(s) { if (match(s, /<[^>]*>/)) s = substr(s, RSTART + 1, RLENGTH - 2); return tolower(s) }
	BEGIN { while ((getline s < not) > 0) seen[key(s)] = 1 }
	NF && !seen[key($0)]++' "$@"
}
# get_maintainer.pl as make export runs it, on the scratch tree's MAINTAINERS.
gm=(env PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0 perl scripts/get_maintainer.pl
	--no-git --no-git-fallback --no-fixes --no-rolestats)
# TO LIST+SECTION for the written patch $1: To: in $1.to, the others it names in $1.gm.
to_section() {
	local p=$1 list=${2%%+*} sec=${2#*+}
	gm_pairs "$p" "$tree" post
	awk -F '\t' -v list="$list" -v sec="$sec" -v to="$p.to" -v gm="$p.gm" '
	BEGIN { print list > to; printf "" > gm }
	{
		a = $1; role = $2; s = role; sub(/^[^:]*:/, "", s)
		if (role ~ /^(maintainer|supporter):/ && index(toupper(s), toupper(sec)) == 1) print a > to
		else print a > gm
	}' "$p.pairs"
	rm -f "$p.pairs"
}
# The subject (first line) and text of cover letter source $1, into $2.subject and $2.body.
cover_text() {
	local src=$1 dst=$2
	if [[ $src == *.patch ]]; then
		# The subject after its ']', unfolded; the text after the headers up
		# to the shortlog: the author lines ("Name (n):") at the end whose
		# counts add up to the subject's 0/N, as make export finds it.
		awk -v subj="$dst.subject" '
		function author(s) { return s ~ /^[^ ].* \([0-9]+\):$/ }
		function generated(s) { return s == "" || s ~ /^ / || author(s) }
		{ l[++n] = $0 }
		END {
			for (h = 1; h <= n && l[h] != ""; h++) {
				if (l[h] ~ /^Subject: /) { s = substr(l[h], 10); in_s = 1 }
				else if (in_s && l[h] ~ /^[ \t]/) s = s l[h]
				else in_s = 0
			}
			total = 0
			if (match(s, / 0\/[0-9]+\]/)) total = substr(s, RSTART + 3, RLENGTH - 4) + 0
			sub(/^\[[^]]*\][ \t]*/, "", s); print s > subj
			i = n; while (i > h && generated(l[i])) i--
			sum = 0; os = 0
			for (j = n; j > i; j--) if (author(l[j])) { c = l[j]; sub(/^.* \(/, "", c); sum += c + 0; if (sum == total) { os = j; break } }
			if (!os) for (j = i + 1; j <= n; j++) if (author(l[j])) { os = j; break }
			last = os ? os - 1 : n
			for (b = h + 1; b <= last && l[b] == ""; b++) ;
			while (last >= b && l[last] == "") last--
			for (j = b; j <= last; j++) print l[j]
		}' "$src" >"$dst.body"
	else
		sed -n 1p "$src" >"$dst.subject"
		sed '1d' "$src" | awk 'NF { go = 1 } go { l[++n] = $0 } END { while (n > 0 && l[n] == "") n--; for (i = 1; i <= n; i++) print l[i] }' >"$dst.body"
	fi
	[ -n "$(tr -d '[:space:]' <"$dst.subject")" ] || die "post: the cover letter source $(rel "$src") has no subject"
	! LC_ALL=C grep -q '[^ -~]' "$dst.subject" || die "post: the subject in $(rel "$src") is not plain ASCII: not supported"
}
# Fills the format-patch cover letter $1 with the subject and text of $2.*.
fill_cover() {
	local mime=0
	if LC_ALL=C grep -q $'[\x80-\xff]' "$2.body" && ! grep -q '^Content-Type:' "$1"; then mime=1; fi
	awk -v subjfile="$2.subject" -v body="$2.body" -v mime="$mime" '
	BEGIN { getline subj < subjfile }
	function fold(s,   w, n, i, line, out) {
		n = split(s, w, " "); line = w[1]; out = ""
		for (i = 2; i <= n; i++)
			if (length(line) + 1 + length(w[i]) > 78) { out = out line "\n"; line = " " w[i] }
			else line = line " " w[i]
		return out line
	}
	!hdr && /^Subject: / {
		k = index($0, "*** SUBJECT HERE ***")
		if (k) $0 = substr($0, 1, k - 1) subj substr($0, k + 20)
		print fold($0); insub = 1; next
	}
	!hdr && insub && /^[ \t]/ { next }
	{ insub = 0 }
	!hdr && $0 == "" { if (mime) print "MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit"; hdr = 1 }
	$0 == "*** BLURB HERE ***" { while ((getline b < body) > 0) print b; next }
	{ print }' "$1" >"$1.new" && mv "$1.new" "$1"
	! grep -q '\*\*\* \(SUBJECT\|BLURB\) HERE \*\*\*' "$1" || die "post: could not fill in the cover letter ${1#"$stage"/}"
}

# The patches of a written posting, without its cover letter.
posting_patches() {
	local p
	for p in "$1"/[0-9]*.patch; do [ "${p##*/}" = 0000-cover-letter.patch ] || echo "$p"; done
}

stage=$out.new
rm -rf "$stage"
mkdir -p "$stage"
fp=(-q --zero-commit --no-signature --no-thread --no-notes --no-base --no-signoff --no-to --no-cc
	--no-add-header --no-from --cover-from-description=message)
dirs=() counts=() total=0
for i in "${!names[@]}"; do
	dir=$stage/$((i + 1))-${names[i]}
	n=$(t rev-list --count "${starts[i]}..${ends[i]}")
	opts=("${fp[@]}" --subject-prefix="${prefixes[i]}")
	if [ "$n" -gt 1 ] || [ "${covers[i]}" != - ]; then opts+=(--numbered); else opts+=(--no-numbered); fi
	[ "${covers[i]}" = - ] || opts+=(--cover-letter)
	t format-patch "${opts[@]}" -o "$dir" "${starts[i]}..${ends[i]}"
	mapfile -t src <<<"${files[i]%$'\n'}"
	mapfile -t got < <(posting_patches "$dir")
	[ ${#got[@]} = "$n" ] && [ "$n" = ${#src[@]} ] || die "post: posting '${names[i]}': format-patch wrote ${#got[@]} patches for ${#src[@]} files"
	: >"$tmp/all.to"; : >"$tmp/all.cc"
	for k in "${!got[@]}"; do
		p=${got[k]}
		header_addrs "${src[k]}" To >"$p.to"; header_addrs "${src[k]}" Cc >"$p.cc"
		if [ "${tos[i]}" != - ]; then
			to_section "$p" "${tos[i]}"
			union "$p.to" >"$p.to2" && mv "$p.to2" "$p.to"
			header_addrs "${src[k]}" To >"$p.src"; cat "$p.cc" "$p.gm" >>"$p.src"
			NOT=$p.to union "$p.src" >"$p.cc"
			rm -f "$p.gm" "$p.src"
		fi
		[ -s "$p.to" ] || die "post: posting '${names[i]}': $(rel "${src[k]}") has no To: (make export writes it; or give the posting a TO)"
		set_recipients "$p" "$p.to" "$p.cc"
		cat "$p.to" >>"$tmp/all.to"; cat "$p.cc" >>"$tmp/all.cc"
		rm -f "$p.to" "$p.cc"
	done
	if [ "${covers[i]}" != - ]; then
		c=$dir/0000-cover-letter.patch
		cover_text "$TOP/${covers[i]}" "$tmp/cover"
		fill_cover "$c" "$tmp/cover"
		# The union of the patches' recipients, and the cover letter file's own.
		if [[ ${covers[i]} == *.patch ]]; then
			header_addrs "$TOP/${covers[i]}" To >>"$tmp/all.to"; header_addrs "$TOP/${covers[i]}" Cc >>"$tmp/all.cc"
		fi
		union "$tmp/all.to" >"$tmp/cover.to"
		NOT=$tmp/cover.to union "$tmp/all.cc" >"$tmp/cover.cc"
		set_recipients "$c" "$tmp/cover.to" "$tmp/cover.cc"
	fi
	dirs+=("$dir") counts+=("$n") total=$((total + n))
done

# 5. The checks.
# No placeholder identity of the patch files (their From: and Signed-off-by:) is left.
for i in "${!names[@]}"; do
	printf '%s' "${files[i]}"
	[ "${covers[i]}" = - ] || [[ ${covers[i]} != *.patch ]] || echo "$TOP/${covers[i]}"
done >"$tmp/sources"
while IFS= read -r f; do
	awk '$0 == "" { exit } /^From: / { s = substr($0, 7); on = 1; next } on && /^[ \t]/ { s = s $0; next } { on = 0 } END { print s }' "$f"
	sed -n 's/^Signed-off-by:[[:space:]]*//p' "$f"
done <"$tmp/sources" >"$tmp/idents"
: >"$tmp/bad"
while IFS= read -r id; do
	[[ $id =~ ^(.*[^[:space:]])[[:space:]]*\<([^>]*)\>$ ]] || continue
	n=${BASH_REMATCH[1]} e=${BASH_REMATCH[2]}
	[ -n "$(not_an_identity "$n" "$e")" ] || continue
	for s in "$n" "$e"; do [ -z "$s" ] || echo "$s"; done >>"$tmp/bad"
done <"$tmp/idents"
if [ -s "$tmp/bad" ] && grep -rnF -f "$tmp/bad" "$stage" >"$tmp/left"; then
	sed 's/^/    /' "$tmp/left" >&2
	die "post: a placeholder identity is left in what was written (above); the draft is in $(rel "$stage")"
fi
# One Signed-off-by: of the sender in each patch.
for p in "$stage"/*/[0-9]*.patch; do
	[ "${p##*/}" != 0000-cover-letter.patch ] || continue
	c=$(sed '/^---$/q' "$p" | grep -ciF "Signed-off-by: $who" || true)
	[ "$c" = 1 ] || die "post: ${p#"$stage"/}: $c Signed-off-by: lines of $who, not 1"
done
# git am of the written postings, in order, onto base gives the same tree.
say "post: git am of the written postings onto base"
worktree_at "$tree" base
for dir in "${dirs[@]}"; do
	for p in "$dir"/[0-9]*.patch; do
		[ "${p##*/}" != 0000-cover-letter.patch ] || continue
		if ! msg=$(t am -q --no-3way "$p" 2>&1); then
			t am --abort >/dev/null 2>&1 || true
			printf '%s\n' "$msg" | sed 's/^/    git am: /' >&2
			die "post: the written ${p#"$stage"/} does not apply onto base and the postings before it; the draft is in $(rel "$stage")"
		fi
	done
done
[ "$(t rev-parse 'HEAD^{tree}')" = "$final" ] ||
	die "post: the written postings, applied onto base, do not give the tree the patch files gave; the draft is in $(rel "$stage")"
# checkpatch on each posting's patches, on the tree they make (its MAINTAINERS).
say "post: checkpatch.pl --strict on the $total written patches"
verdicts=() bad=0
for i in "${!dirs[@]}"; do
	mapfile -t got < <(posting_patches "${dirs[i]}")
	if LINUX=$tree "$TOP/scripts/check/checkpatch.sh" "${got[@]}" >"$tmp/cp" 2>&1; then
		a=$(grep -c '^checkpatch: .*: clean; FILE_PATH_CHANGES answered' "$tmp/cp" || true)
		verdicts[i]="checkpatch clean"
		[ "$a" = 0 ] || verdicts[i]+=" ($a add files, each covered by MAINTAINERS)"
	else
		sed 's/^/    /' "$tmp/cp" >&2
		verdicts[i]="checkpatch: $(grep -c '^checkpatch: .*: [0-9]* errors' "$tmp/cp" || true) of ${#got[@]} with findings"
		bad=$((bad + 1))
	fi
done
for i in "${!names[@]}"; do
	if [ "${counts[i]}" -gt 1 ] || [ "${covers[i]}" != - ]; then s="[${prefixes[i]} k/${counts[i]}]"; else s="[${prefixes[i]}]"; fi
	c="${counts[i]} patch"; [ "${counts[i]}" = 1 ] || c+=es
	[ "${covers[i]}" = - ] || c+=" + cover"
	printf 'post: %-12s %-19s %-22s %s\n' "$((i + 1))-${names[i]}" "$c" "$s" "${verdicts[i]}"
done
[ "$bad" = 0 ] || die "post: checkpatch found something in $bad of ${#names[@]} postings (above); the draft is in $(rel "$stage")"

# 6. The README, and the draft in place.
{
	echo "What make post (scripts/export/post.sh) wrote from $(rel "$map"), as"
	echo "$who, on $(date -u '+%Y-%m-%d %H:%M UTC'). Nothing was sent."
	echo
	echo "One folder a posting, in the order to send them: each applies onto the"
	echo "base, Linux $BASE_KVER, and the postings before it."
	echo
	for i in "${!names[@]}"; do
		c="${counts[i]} patch"; [ "${counts[i]}" = 1 ] || c+=es
		[ "${covers[i]}" = - ] || c+=" and a cover letter"
		echo "$((i + 1))-${names[i]}/: [${prefixes[i]}], $c, from"
		while IFS= read -r p; do [ -z "$p" ] || echo "    $(rel "$p")"; done <<<"${files[i]}"
	done
	echo
	echo "Every patch has its To: and Cc: headers, and its author and last"
	echo "Signed-off-by: are the sender. git send-email is for the sender to run,"
	echo "one folder at a time, in order, after reading them, for example:"
	echo
	echo "    git send-email --dry-run ${out#"$TOP"/}/1-${names[0]}/*.patch"
	echo "    git send-email ${out#"$TOP"/}/1-${names[0]}/*.patch"
	echo
	echo "send-email reads each file's To: and Cc:, threads a folder's patches"
	echo "under its first message (the cover letter), and also Cc's the people"
	echo "of the patches' trailers (--suppress-cc to change that)."
} >"$stage/README"
rm -rf "$out"
mv "$stage" "$out"
echo "post: ${out#"$TOP"/}/ written: ${#names[@]} postings, $total patches"
