# shellcheck shell=bash
# Sourced by export.sh and post.sh: the mail headers both write.

# gm_pairs PATCH DIR WHO: runs the caller's get_maintainer.pl command (array
# gm) in DIR on PATCH twice, without and with roles, and writes PATCH.pairs:
# "ADDRESS<TAB>ROLE" a line, in the plain run's order (the --roles run gives
# the same addresses, in another order, as "ADDRESS (ROLE)").
gm_pairs() {
	local p=$1 dir=$2 who=$3
	if ! (cd "$dir" && "${gm[@]}" --no-roles "$p" >"$p.plain" 2>"$p.err" &&
		"${gm[@]}" --roles "$p" >"$p.roles" 2>>"$p.err"); then
		cat "$p.err" >&2
		die "$who: get_maintainer.pl failed on ${p##*/}"
	fi
	awk -v who="$who" '
	FILENAME == ARGV[1] { if (NF) plain[++n] = $0; next }
	NF { roles[++m] = $0 }
	END {
		if (n != m) { print who ": get_maintainer.pl gave two different lists" > "/dev/stderr"; exit 1 }
		for (i = 1; i <= n; i++) {
			a = plain[i]; role = ""
			for (j = 1; j <= m; j++)
				if (substr(roles[j], 1, length(a) + 2) == a " (") { role = substr(roles[j], length(a) + 3); break }
			if (role == "") { print who ": no role for " a " in get_maintainer.pl --roles" > "/dev/stderr"; exit 1 }
			print a "\t" role
		}
	}' "$p.plain" "$p.roles" >"$p.pairs" || die "$who: could not pair the recipients of ${p##*/} with their roles"
	rm -f "$p.plain" "$p.roles" "$p.err"
}

# set_recipients PATCH TOFILE CCFILE: writes the To:/Cc: headers of PATCH from
# the two files (an address a line), at the end of the header block, as git
# format-patch --to/--cc writes them.
set_recipients() {
	awk -v tofile="$2" -v ccfile="$3" '
	function header(name, file,   a, s, n) {
		n = 0; s = ""
		while ((getline a < file) > 0) if (a != "") s = s (n++ ? ",\n    " : name ": ") a
		close(file)
		if (n) print s
	}
	BEGIN { hdr = 1 }
	hdr && /^(To|Cc):/ { skip = 1; next }
	hdr && skip && /^[ \t]/ { next }
	{ skip = 0 }
	hdr && $0 == "" { header("To", tofile); header("Cc", ccfile); hdr = 0 }
	{ print }' "$1" >"$1.new" && mv "$1.new" "$1"
}
