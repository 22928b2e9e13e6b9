#!/bin/bash
# Install the Debian packages the lab needs, only those that are missing.
# Usage: lab/deps.sh [extra-package...]
set -eu
. "$(dirname "$0")/lib.sh"

# package:file-it-provides
WANT="git:/usr/bin/git make:/usr/bin/make gcc:/usr/bin/gcc bc:/usr/bin/bc
flex:/usr/bin/flex bison:/usr/bin/bison libelf-dev:/usr/include/libelf.h
libssl-dev:/usr/include/openssl/ssl.h cpio:/usr/bin/cpio xz-utils:/usr/bin/xz
ccache:/usr/bin/ccache qemu-system-x86:/usr/bin/qemu-system-x86_64
busybox-static perl:/usr/bin/perl python3:/usr/bin/python3
ca-certificates:/etc/ssl/certs apt:/usr/bin/apt-get
debian-archive-keyring:/usr/share/keyrings/debian-archive-keyring.gpg
rsync:/usr/bin/rsync rt-tests:/usr/bin/hackbench stress-ng:/usr/bin/stress-ng valgrind:/usr/bin/valgrind python3-sphinx:/usr/bin/sphinx-build python3-docutils:/usr/share/doc/python3-docutils codespell:/usr/bin/codespell sparse:/usr/bin/sparse gnuplot-nox:/usr/bin/gnuplot bc:/usr/bin/bc
dpkg-dev:/usr/bin/dpkg-buildpackage debhelper:/usr/bin/dh_prep kmod:/usr/bin/kmod"

missing=""
for pair in $WANT "$@"; do
	pkg=${pair%%:*}
	file=${pair#*:}
	[ "$file" = "$pair" ] && file=""
	if [ -n "$file" ]; then
		[ -e "$file" ] && continue
	else
		dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' && continue
	fi
	missing="$missing $pkg"
done

[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	die "missing Debian packages:$missing; install them as root (sudo apt-get install$missing)"
fi
say "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null || die "apt-get update failed"
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/dev/null ||
	die "apt-get install$missing failed"
