#!/bin/bash
# Build the guest's base initramfs: static busybox, lab/guest/init, and every
# static program the project put into out/guest/bin (benchmarks), the sched
# kselftests from out/guest/kselftest, the guest scripts of lab/guest/ and
# the host's hackbench and stress-ng with their libraries (LAB_HOST_PROGS).
# Output: out/guest/base.cpio (boot.sh appends each boot's run script).
set -eu
. "$(dirname "$0")/lib.sh"
need cpio
bb=/bin/busybox
{ [ -x "$bb" ] && ! ldd "$bb" >/dev/null 2>&1; } ||
	die "$bb is not a static busybox: install busybox-static (make deps)"

root=$OUT/guest/root
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,run,lab/bin,usr/bin,usr/sbin}
cp "$bb" "$root/bin/busybox"
cp "$LAB_TOP/lab/guest/init" "$root/init"
chmod 755 "$root/init"
[ -d "$OUT/guest/bin" ] && cp -a "$OUT/guest/bin/." "$root/lab/bin/"
[ -d "$OUT/guest/kselftest" ] && cp -a "$OUT/guest/kselftest" "$root/lab/kselftest"
cp "$LAB_TOP"/lab/guest/*.sh "$root/lab/"
# Host programs the benchmarks use, with the shared libraries they load.
for prog in ${LAB_HOST_PROGS-hackbench stress-ng}; do
	path=$(command -v "$prog" 2>/dev/null) || continue
	cp "$path" "$root/usr/bin/"
	for lib in $(ldd "$path" 2>/dev/null | grep -o '/[^ ]*'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
done
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) >"$OUT/guest/base.cpio"
say "initramfs: $OUT/guest/base.cpio ($(du -k "$OUT/guest/base.cpio" | cut -f1) KiB, $(ls "$root/lab/bin" | wc -l) lab programs)"
