#!/bin/bash
# Assemble the initramfs of a guest target, without root: the static guest init
# (guest/*.c, cross-compiled) and, when kernel/qemu/TARGET names Debian packages
# (DEB_PKGS), the binaries DEB_BINS from them with their DT_NEEDED closure, in a
# usrmerged tree, and the SELinux policy GUEST_POLICY compiled; packed with
# the kernel tree's gen_init_cpio. Packages are fetched with a private apt
# config (suite ROOTFS_SUITE, default sid) and cached under build/.
# Usage: rootfs.sh TARGET   -> build/rootfs/TARGET.cpio
. "$(dirname "$0")/../common.sh"

target=${1:?usage: rootfs.sh TARGET}
target_info "$target"
settings=${QEMU:-$target}	# boot.sh's QEMU=name
[ -f "$TOP/kernel/qemu/$settings" ] || die "rootfs: no guest settings kernel/qemu/$settings"
. "$TOP/kernel/qemu/$settings"
SUITE=${ROOTFS_SUITE:-sid}
out=$BUILD/rootfs/$target
stage=$out/root
cpio=$BUILD/rootfs/$target.cpio
need "${T_CROSS}gcc"; need "${T_CROSS}readelf"; need gcc
rm -rf "$stage"
mkdir -p "$stage"/{dev,proc,sys,tmp,usr/bin,usr/sbin,usr/lib,usr/lib64}
for d in bin sbin lib lib64; do ln -s "usr/$d" "$stage/$d"; done

say "rootfs: $target: guest init (${T_CROSS}gcc -static)"
"${T_CROSS}gcc" -static -O2 -Wall -Wextra -o "$stage/init" "$TOP"/guest/*.c ||
	die "rootfs: $target: the guest init does not build"

# The SELinux policy (GUEST_POLICY: a source under guest/, named by the
# target's kernel/qemu settings), compiled with Debian's checkpolicy; what it
# does not define is allowed (-U allow). PID 1 loads it (guest/selinux.c).
if [ -n "${GUEST_POLICY:-}" ]; then
	need checkpolicy
	mkdir -p "$stage/etc/selinux"
	checkpolicy -U allow -o "$stage/etc/selinux/policy.bin" "$TOP/$GUEST_POLICY" >"$out.checkpolicy" 2>&1 ||
		{ cat "$out.checkpolicy" >&2; die "rootfs: $target: checkpolicy cannot compile $GUEST_POLICY"; }
	say "rootfs: $target: SELinux policy $GUEST_POLICY ($(stat -c %s "$stage/etc/selinux/policy.bin") bytes)"
fi

# ---- Debian binaries and their shared libraries ----
sysroot=$BUILD/rootfs/deb-$SUITE-$DEB_ARCH	# every fetched package, extracted
debs=$BUILD/dl/deb-$SUITE-$DEB_ARCH
triplet=${T_CROSS%-}

# Move what a package put in /bin, /lib... under /usr, as usrmerge would.
usrmerge() {
	local d
	for d in bin sbin lib lib64; do
		if [ -d "$sysroot/$d" ] && [ ! -L "$sysroot/$d" ]; then
			mkdir -p "$sysroot/usr/$d"
			cp -a "$sysroot/$d/." "$sysroot/usr/$d/"
			rm -rf "${sysroot:?}/$d"
		fi
		[ -L "$sysroot/$d" ] || ln -s "usr/$d" "$sysroot/$d"
	done
}

# Download and extract one package of the resolved set (cached).
fetch() {
	local pkg=$1 ver=${universe[$1]} deb
	[ -e "$sysroot/.pkgs/$pkg=$ver" ] && return 0
	deb=$(ls "$debs/${pkg}_"*.deb 2>/dev/null | grep -F "_${ver//:/%3a}_" | sed -n 1p) || true
	if [ -z "$deb" ]; then
		say "rootfs: download $pkg $ver ($SUITE $DEB_ARCH)"
		(cd "$debs" && apt-get $apt download "$pkg=$ver" >/dev/null) ||
			die "rootfs: cannot download $pkg $ver from $SUITE ($DEB_ARCH): stale package lists? rm -r $BUILD/apt/$SUITE-$DEB_ARCH/lists and retry"
		deb=$(ls "$debs/${pkg}_"*.deb | grep -F "_${ver//:/%3a}_" | sed -n 1p) ||
			die "rootfs: apt downloaded $pkg $ver, but no ${pkg}_*.deb of that version is in $debs"
	fi
	dpkg-deb -x "$deb" "$sysroot" || die "rootfs: cannot extract $deb"
	usrmerge
	dpkg-deb -c "$deb" | awk '{ print $6 }' | sed -E 's#^\./##; s#^(bin|sbin|lib|lib64)/#usr/\1/#' \
		>"$sysroot/.pkgs/$pkg.files"
	touch "$sysroot/.pkgs/$pkg=$ver"
}

# Follows symlinks inside the sysroot; prints each hop, the real file last.
resolve() {
	local p=$1 t n=0
	while :; do
		p=$(realpath -m -s "/$p"); p=${p#/}
		p=$(sed -E 's#^(bin|sbin|lib|lib64)/#usr/\1/#' <<<"$p")
		echo "$p"
		[ -L "$sysroot/$p" ] || break
		t=$(readlink "$sysroot/$p")
		case $t in /*) p=${t#/} ;; *) p=$(dirname "$p")/$t ;; esac
		n=$((n + 1)); [ $n -lt 20 ] || die "rootfs: symlink loop at $p"
	done
}

# The closure of ELF files from DEB_BINS; sets closure[] and missing[]
# ("soname needed-by-file").
walk() {
	local queue=() f lib dir hit
	closure=() missing=()
	declare -gA seen=()
	for b in $DEB_BINS; do
		hit=
		for dir in usr/bin usr/sbin; do
			[ -e "$sysroot/$dir/$b" ] && { hit=$dir/$b; break; }
		done
		[ -n "$hit" ] || die "rootfs: no $b in the packages $DEB_PKGS ($SUITE $DEB_ARCH)"
		queue+=("$hit")
	done
	while [ ${#queue[@]} -gt 0 ]; do
		f=${queue[0]}; queue=("${queue[@]:1}")
		[ -z "${seen[$f]:-}" ] || continue
		seen[$f]=1
		closure+=("$f")
		f=$(resolve "$f" | tail -n1)
		for lib in $("${T_CROSS}readelf" -lW "$sysroot/$f" |
			sed -nE 's/.*Requesting program interpreter: (.*)\]/\1/p'); do
			if [ -e "$sysroot/$lib" ]; then queue+=("${lib#/}"); else missing+=("${lib##*/} $f"); fi
		done
		for lib in $("${T_CROSS}readelf" -dW "$sysroot/$f" | sed -nE 's/.*\(NEEDED\).*\[(.*)\]/\1/p'); do
			hit=
			for dir in "usr/lib/$triplet" usr/lib64 usr/lib; do
				[ -e "$sysroot/$dir/$lib" ] && { hit=$dir/$lib; break; }
			done
			if [ -n "$hit" ]; then queue+=("$hit"); else missing+=("$lib $f"); fi
		done
	done
}

# The files taken from the packages, with a key line: reused while the key holds.
key="$SUITE $DEB_ARCH: ${DEB_PKGS:-}: ${DEB_BINS:-}"
if [ -n "${DEB_PKGS:-}" ] && [ -z "${ROOTFS_REFRESH:-}" ] && [ "$(head -n1 "$out.files" 2>/dev/null)" = "$key" ]; then
	say "rootfs: $target: the Debian files resolved last time ($out.files; ROOTFS_REFRESH=1 resolves again)"
elif [ -n "${DEB_PKGS:-}" ]; then
	need apt-get; need dpkg-deb
	mkdir -p "$sysroot/.pkgs" "$debs"
	# Downloads go to build/ as root: no sandbox user that cannot write there.
	apt="$(apt_private "$SUITE" "$DEB_ARCH") -o APT::Sandbox::User=root"
	if ! ls "$BUILD/apt/$SUITE-$DEB_ARCH/lists/"*_Packages* >/dev/null 2>&1; then
		say "rootfs: apt-get update ($SUITE $DEB_ARCH, private config under $BUILD/apt)"
		apt-get $apt update -qq || die "rootfs: apt-get update failed for $SUITE $DEB_ARCH"
	fi
	# The resolved set: every package apt would install, with its version.
	declare -A universe=()
	sim=$(apt-get $apt -s install --no-install-recommends $DEB_PKGS 2>&1) ||
		die "rootfs: apt cannot resolve $DEB_PKGS in $SUITE $DEB_ARCH:"$'\n'"$sim"
	while read -r p v; do universe[$p]=$v; done < <(sed -nE 's/^Inst ([^ ]+) \(([^ ]+) .*/\1 \2/p' <<<"$sim")
	for p in $DEB_PKGS; do
		[ -n "${universe[$p]:-}" ] || die "rootfs: package $p not in $SUITE $DEB_ARCH"
		fetch "$p"
	done
	# Fetch dependencies only of packages whose files miss a library.
	declare -A expanded=()
	while walk; [ ${#missing[@]} -gt 0 ]; do
		new=0
		for m in "${missing[@]}"; do
			f=${m#* }
			owner=$(grep -lxF "$f" "$sysroot"/.pkgs/*.files | sed -n 1p) || true
			owner=${owner##*/}; owner=${owner%.files}
			[ -n "$owner" ] && [ -z "${expanded[$owner]:-}" ] || continue
			expanded[$owner]=1
			for d in $(apt-cache $apt depends --no-recommends --no-suggests --no-conflicts \
				--no-breaks --no-replaces --no-enhances "$owner" |
				sed -nE 's/^ *\|?(Pre)?Depends: <?([^ >]+)>?.*/\2/p' | sed 's/:.*//' | sort -u); do
				[ -n "${universe[$d]:-}" ] && [ ! -e "$sysroot/.pkgs/$d=${universe[$d]}" ] || continue
				fetch "$d"
				new=1
			done
		done
		[ $new = 1 ] || die "rootfs: libraries not found in $DEB_PKGS or their dependencies ($SUITE $DEB_ARCH): ${missing[*]}"
	done
	{ echo "$key"; for f in "${closure[@]}"; do resolve "$f"; done; } >"$out.files"
	say "rootfs: $target: $DEB_BINS + $((${#closure[@]} - $(wc -w <<<"$DEB_BINS"))) libraries from $SUITE $DEB_ARCH"
	for p in $DEB_PKGS; do echo "$p ${universe[$p]}"; done >"$out.versions"
fi
if [ -n "${DEB_PKGS:-}" ]; then
	while read -r p; do
		[ -e "$sysroot/$p" ] || [ -L "$sysroot/$p" ] || die "rootfs: $p is gone from $sysroot: run with ROOTFS_REFRESH=1"
		mkdir -p "$stage/${p%/*}"
		cp -P "$sysroot/$p" "$stage/$p"
	done < <(tail -n +2 "$out.files" | sort -u)
fi

# ---- the build's kernel as /boot/vmlinux (GUEST_KERNEL=1: kexec and kdump load it),
# and its modules (GUEST_MODULES, paths under OUT), flat in /lib/modules.
mods=${OUT:-$BUILD/out/$target}
if [ -n "${GUEST_KERNEL:-}" ]; then
	[ -s "$mods/vmlinux" ] || die "rootfs: $target: no kernel $mods/vmlinux to put in /boot"
	mkdir -p "$stage/boot"
	cp "$mods/vmlinux" "$stage/boot/vmlinux"
fi
if [ -n "${GUEST_MODULES:-}" ]; then
	mkdir -p "$stage/usr/lib/modules"
	for m in $GUEST_MODULES; do
		[ -s "$mods/$m" ] || die "rootfs: $target: no module $mods/$m: build the target first (scripts/build/build.sh $target)"
		cp "$mods/$m" "$stage/usr/lib/modules/"
	done
	say "rootfs: $target: modules from $mods: $GUEST_MODULES"
fi

# ---- pack, with the kernel tree's gen_init_cpio: owners and nodes without root ----
gic=$BUILD/tools/gen_init_cpio
if [ ! -x "$gic" ] || [ "$LINUX/usr/gen_init_cpio.c" -nt "$gic" ]; then
	need_tree "$LINUX"
	mkdir -p "${gic%/*}"
	gcc -O2 -o "$gic" "$LINUX/usr/gen_init_cpio.c" || die "rootfs: cannot build gen_init_cpio"
fi
{
	echo "nod /dev/console 0600 0 0 c 5 1"
	(cd "$stage" && find . -mindepth 1 | sort) | while read -r p; do
		p=${p#.}
		if [ -L "$stage$p" ]; then echo "slink $p $(readlink "$stage$p") 0777 0 0"
		elif [ -d "$stage$p" ]; then echo "dir $p $(stat -c %a "$stage$p") 0 0"
		else echo "file $p $stage$p $(stat -c %a "$stage$p") 0 0"; fi
	done
} >"$out.list"
"$gic" -t 0 -o "$cpio" "$out.list" || die "rootfs: gen_init_cpio failed on $out.list"
say "rootfs: $target: $cpio ($(du -h "$cpio" | cut -f1))"
