#!/bin/bash
# make deb: installable linux-image and linux-headers .deb packages of the
# patched kernel (branch 'series-preempt' of build/linux; DEB_KERNEL=rcu or
# DEB_RCU=1: 'series', both series; DEB_KERNEL=base: the base), checked out in the work tree
# build/bench/patched, for ppc64el, with 'make bindeb-pkg', from a config file:
# default the bench config (kernel/targets: bench-le) with modules on, or CONFIG=path, e.g. a
# distro's /boot/config-* (olddefconfig fills in what is new in 7.3).
# Packages land in build/deb/ (DEB_OUT=dir: there) and are checked with dpkg-deb -I. dpkg's check of
# the build dependencies is off (DPKG_FLAGS=-d): it asks for the ppc64el
# libssl-dev and libdw-dev of a native build, which a cross build of this
# config does not use; a missing one still fails the build, loudly.
# Usage: deb.sh   (CONFIG=path, LOCALVERSION=-paca by default, DEB_KERNEL=base|patched|rcu, DEB_OUT=dir)
. "$(dirname "$0")/../common.sh"

need dpkg-deb; need dpkg-buildpackage; need fakeroot
target_info bench-le
tree=$BUILD/bench/patched
out=$BUILD/deb/build
dest=${DEB_OUT:-$BUILD/deb}
kernel=${DEB_KERNEL:-patched}
[ -z "${DEB_RCU:-}" ] || kernel=rcu
mkdir -p "$dest" "$out"
rm -f "$dest"/*.deb "$dest"/*.buildinfo "$dest"/*.changes "$BUILD/deb"/*.deb "$BUILD/deb"/*.buildinfo "$BUILD/deb"/*.changes
build_lock	# also over the tree: a bench building it must not see it change
"$TOP/scripts/setup/apply.sh"
# The patched kernel of make bench: series/ alone (rcu: with series-rcu/).
case $kernel in
base) commit=$(git -C "$LINUX" rev-parse 'base^{commit}') ;;
patched) commit=$(first_series_commit) ;;
rcu) commit=$(git -C "$LINUX" rev-parse "$SERIES_BRANCH^{commit}") ;;
*) die "deb: DEB_KERNEL=$kernel: base, patched or rcu" ;;
esac
say "deb: the $kernel kernel, $(git -C "$LINUX" log -1 --format='%h %s' "$commit" | cut -c1-70)"
worktree_at "$tree" "$commit"
if [ -n "${CONFIG:-}" ]; then
	[ -s "$CONFIG" ] || die "deb: CONFIG=$CONFIG: no such config file"
	say "deb: config from $CONFIG + olddefconfig"
	cp "$CONFIG" "$out/.config"
	# A distro config names its own signing keys and trusted certificates: not here.
	"$tree/scripts/config" --file "$out/.config" --set-str SYSTEM_TRUSTED_KEYS "" \
		--set-str SYSTEM_REVOCATION_KEYS "" --set-str MODULE_SIG_KEY "certs/signing_key.pem"
	make -C "$tree" O="$out" ARCH="$T_ARCH" CROSS_COMPILE="$T_CROSS" olddefconfig >"$out/config.log" 2>&1 ||
		die "deb: olddefconfig failed on $CONFIG (log: $out/config.log)"
else
	"$TOP/scripts/build/config.sh" bench-le "$tree" "$out"
	# A package needs modules for its linux-headers (kernel modules built outside the tree).
	"$tree/scripts/config" --file "$out/.config" --enable MODULES --enable MODULE_UNLOAD --disable MODULE_SIG
	make -C "$tree" O="$out" ARCH="$T_ARCH" CROSS_COMPILE="$T_CROSS" olddefconfig >>"$out/config.log" 2>&1 ||
		die "deb: olddefconfig failed (log: $out/config.log)"
fi
# Module signing (lockdown selects it) makes linux-headers build
# scripts/sign-file for ppc64el, against ppc64el's OpenSSL: say so now, not
# after the build.
if grep -q '^CONFIG_MODULE_SIG_FORMAT=y' "$out/.config" &&
	[[ "$(dpkg-query -W -f='${Status}' libssl-dev:ppc64el 2>/dev/null || true)" != *'ok installed' ]]; then
	die "deb: this config signs modules, so linux-headers needs libssl-dev:ppc64el: run scripts/setup/deps.sh distro"
fi
log=$BUILD/deb/build.log
say "deb: make bindeb-pkg -j$JOBS (log: $log; a distro config builds thousands of modules: hours on 2 cores)"
start=$SECONDS
make -C "$tree" O="$out" ARCH="$T_ARCH" CROSS_COMPILE="$T_CROSS" CC="ccache ${T_CROSS}gcc" \
	KDEB_PKGVERSION="${KDEB_PKGVERSION:-1}" LOCALVERSION="${LOCALVERSION:--paca}" \
	DPKG_FLAGS="${DPKG_FLAGS:--d}" \
	-j"$JOBS" bindeb-pkg >"$log" 2>&1 || { tail -n 30 "$log" >&2; die "deb: bindeb-pkg failed after $((SECONDS - start)) s (log: $log)"; }
# bindeb-pkg writes the packages next to the output folder.
[ "$dest" -ef "${out%/*}" ] || mv "${out%/*}"/*.deb "${out%/*}"/*.buildinfo "${out%/*}"/*.changes "$dest/" 2>/dev/null || true
image=
for f in "$dest"/linux-image-*.deb; do
	case $f in *-dbg_*) ;; *) [ -e "$f" ] && image=$f ;; esac
done
[ -n "$image" ] || die "deb: no linux-image .deb in $dest (log: $log)"
arch=$(dpkg-deb -f "$image" Architecture)
[ "$arch" = ppc64el ] || die "deb: $image is for '$arch', not ppc64el"
dpkg-deb -I "$image"
ls -l "$dest"/*.deb
say "deb: done in $((SECONDS - start)) s: $(cd "$dest" && echo ./*.deb)"
