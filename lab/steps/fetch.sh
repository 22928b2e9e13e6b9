#!/bin/bash
# out/linux: a git tree of the base, tagged BASE_TAG. From Debian's
# linux-source-7.3 (a private apt configuration: the system's is not touched;
# the machine's mirror, or DEB_MIRROR), or from KERNEL_TREE. An import is
# kept in BASE_CACHE under the .deb's sha256, and the next clone's is a clone
# of it. An interrupted run starts over, keeping only the checked download.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

DEB_PKG=linux-source-7.3
APT=$OUT/apt

if git -C "$LINUX" rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null 2>&1; then
	say "base tree ready: $LINUX at $BASE_TAG ($(git -C "$LINUX" rev-parse --short "$BASE_TAG"))"
	exit 0
fi
need git tar xz
lab_lock
[ -e "$LINUX" ] && die "$LINUX exists but has no tag $BASE_TAG; move it away or 'make distclean'"
tmp=$OUT/linux.tmp	# made whole, then renamed: an interrupted run's is dropped
rm -rf "$tmp"

if [ -n "${KERNEL_TREE:-}" ]; then
	ref=$KERNEL_REF
	git -C "$KERNEL_TREE" rev-parse -q --verify "$ref^{commit}" >/dev/null ||
		die "KERNEL_TREE=$KERNEL_TREE has no commit '$ref'"
	say "cloning $KERNEL_TREE ($ref) into $LINUX"
	git clone -q --no-checkout --shared "$KERNEL_TREE" "$tmp"
	git -C "$tmp" checkout -q -B base "$(git -C "$KERNEL_TREE" rev-parse "$ref^{commit}")"
	git -C "$tmp" tag -f "$BASE_TAG" >/dev/null
	mv "$tmp" "$LINUX"
	say "base: $(git -C "$LINUX" log -1 --format='%h %s' "$BASE_TAG")"
	exit 0
fi

# The same .deb imports to the same commit (fixed identity and dates): a
# clone of the one kept under its sha256 is the import, minutes sooner.
cached=refs/tags/deb-$DEB_SHA256
if [ -n "$BASE_CACHE" ] && [ -n "$DEB_SHA256" ] &&
	git -C "$BASE_CACHE" rev-parse -q --verify "$cached^{commit}" >/dev/null 2>&1; then
	say "cloning the base imported before: $BASE_CACHE (BASE_CACHE)"
	git clone -q --no-checkout --local "$BASE_CACHE" "$tmp"
	git -C "$tmp" remote remove origin
	git -C "$tmp" config core.autocrlf false; git -C "$tmp" config gc.auto 0
	git -C "$tmp" checkout -q -B base "$cached^{commit}"
	git -C "$tmp" tag "$BASE_TAG"
	git -C "$tmp" tag -d "deb-$DEB_SHA256" >/dev/null
	mv "$tmp" "$LINUX"
	say "base tree ready: $LINUX at $BASE_TAG ($(git -C "$LINUX" rev-parse --short "$BASE_TAG"))"
	exit 0
fi

deb=$APT/${DEB_PKG}_$(printf %s "$DEB_VER" | sed 's/:/%3a/')_all.deb
if [ ! -f "$deb" ]; then
	need apt-get
	if [ -z "${DEB_MIRROR:-}" ]; then
		DEB_MIRROR=$("$LAB_TOP/lab/steps/mirror.sh" "$LAB_APT_ETC" "$LAB_OS_RELEASE") ||
			die "no Debian mirror found in the machine's apt configuration: set DEB_MIRROR=URI"
		say "Debian mirror from the apt configuration: $DEB_MIRROR"
	fi
	mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $DEB_MIRROR $DEB_SUITE main" \
		>"$APT/sources.list"
	opts=(-o Dir::Etc::SourceList="$APT/sources.list" -o Dir::Etc::SourceParts=/dev/null
	      -o Dir::State::Lists="$APT/lists" -o Dir::Cache="$APT/cache" -o APT::Sandbox::User=root)
	say "reading the $DEB_SUITE package list (private apt configuration in $APT)"
	apt-get -q "${opts[@]}" update >"$APT/update.log" 2>&1 || die "apt-get update failed, see $APT/update.log"
	avail=$(apt-cache "${opts[@]}" policy "$DEB_PKG" | sed -n 's/^ *Candidate: //p')
	[ -n "$avail" ] && [ "$avail" != "(none)" ] || die "$DEB_PKG is not on $DEB_MIRROR $DEB_SUITE"
	# the pinned version only: another one would need its own sha256 and base
	apt-cache "${opts[@]}" show "$DEB_PKG=$DEB_VER" >/dev/null 2>&1 ||
		die "$DEB_PKG $DEB_VER (DEB_VER in lab/settings) is no longer on $DEB_MIRROR $DEB_SUITE, which has $avail: to take that one, set DEB_VER=$avail and DEB_SHA256 to its sha256"
	say "downloading $DEB_PKG $DEB_VER (about 167 MB)"
	# into a directory of its own: an interrupted download leaves no .deb
	rm -rf "$APT/dl"
	mkdir -p "$APT/dl"
	(cd "$APT/dl" && apt-get -q "${opts[@]}" download "$DEB_PKG=$DEB_VER" >"$APT/download.log" 2>&1) ||
		die "download of $DEB_PKG=$DEB_VER failed, see $APT/download.log"
	[ -f "$APT/dl/$(basename "$deb")" ] || die "apt-get download did not produce $(basename "$deb")"
	mv "$APT/dl/$(basename "$deb")" "$deb"
fi
if [ -n "$DEB_SHA256" ]; then
	say "checking sha256 of $(basename "$deb")"
	echo "$DEB_SHA256  $deb" | sha256sum -c --quiet - ||
		{ rm -f "$deb"; die "sha256 mismatch for $deb (removed; run again)"; }
fi

mkdir -p "$tmp"
say "extracting the kernel source (about 1 minute)"
dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/src/linux-source-7.3.tar.xz |
	tar -xJ -C "$tmp" --strip-components=1 || die "extracting $deb failed"
[ -f "$tmp/Makefile" ] || die "no kernel source in $deb"
ver=$(make -s -C "$tmp" kernelversion 2>/dev/null || echo unknown)
say "importing Linux $ver into git (about 1 minute)"
# Debian's tree ignores everything at its top level ("/*"), which would hide
# new files from 'git status' and 'git add': drop that block, keep the rest.
gi=$tmp/.gitignore
if [ "$(tail -n 2 "$gi" 2>/dev/null | tr '\n' ' ')" = "/* !/debian/ " ] &&
	tail -n 5 "$gi" | grep -c 'Debian packaging' >/dev/null; then
	head -n -7 "$gi" >"$gi.new"
	mv "$gi.new" "$gi"
fi
git -C "$tmp" init -q -b base
git -C "$tmp" config core.autocrlf false; git -C "$tmp" config gc.auto 0
git -C "$tmp" add -A -f
# Fixed identity and dates: every machine gets the same base commit id.
GIT_AUTHOR_NAME=lab GIT_AUTHOR_EMAIL=lab@localhost GIT_COMMITTER_NAME=lab \
GIT_COMMITTER_EMAIL=lab@localhost GIT_AUTHOR_DATE="2026-11-15T00:00:00Z" \
GIT_COMMITTER_DATE="2026-11-15T00:00:00Z" git -C "$tmp" commit -q -m "Linux $ver (Debian $DEB_PKG $DEB_VER)" \
	-m "Debian's top-level ignore-all block is dropped from .gitignore."
git -C "$tmp" tag "$BASE_TAG"
mv "$tmp" "$LINUX"
# kept for the next clone: objects hard-linked, renamed into place whole
if [ -n "$BASE_CACHE" ] && [ -n "$DEB_SHA256" ] && [ ! -e "$BASE_CACHE" ]; then
	rm -rf "$BASE_CACHE.tmp"
	{ git clone -q --bare --local --no-tags "$LINUX" "$BASE_CACHE.tmp" &&
		git -C "$BASE_CACHE.tmp" tag "deb-$DEB_SHA256" "$(git -C "$LINUX" rev-parse "$BASE_TAG^{commit}")" &&
		mv -T "$BASE_CACHE.tmp" "$BASE_CACHE"; } ||
		say "could not keep the base in $BASE_CACHE: the next clone imports it again"
fi
say "base tree ready: $LINUX at $BASE_TAG ($(git -C "$LINUX" rev-parse --short "$BASE_TAG"))"
