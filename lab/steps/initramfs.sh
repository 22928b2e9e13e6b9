#!/bin/bash
# VARIANT's base initramfs, out/guest/VARIANT/base.cpio (boot.sh appends each
# boot's script): busybox, lab/guest/, the lab's benchmarks, the variant's
# kselftests, LAB_GUEST_BINS and LAB_HOST_PROGS. Usage: lab/steps/initramfs.sh VARIANT
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
variant=${1:?usage: lab/steps/initramfs.sh VARIANT}
variant_src "$variant" >/dev/null
g=$(variant_guest "$variant")
need cpio cc
lab_lock
bb=/bin/busybox
{ [ -x "$bb" ] && ! ldd "$bb" >/dev/null 2>&1; } || die "$bb is not a static busybox: install busybox-static (make deps)"

for prog in futexbench msgbench; do
	b=$OUT/guest/bin/$prog
	if [ ! -x "$b" ] || [ "$LAB_TOP/bench/$prog.c" -nt "$b" ] || [ "$LAB_TOP/bench/bench.h" -nt "$b" ]; then
		say "building $prog (static)"
		"$LAB_TOP/bench/build-futexbench.sh" "$b" static
	fi
done

root=$g/root
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,run,lab/bin,usr/bin,usr/sbin}
cp "$bb" "$root/bin/busybox"
cp "$LAB_TOP/lab/guest/init" "$root/init"
chmod 755 "$root/init"
cp "$OUT/guest/bin/futexbench" "$OUT/guest/bin/msgbench" "$LAB_TOP/bench/aba.sh" "$LAB_TOP/bench/bare-metal.sh" \
	"$LAB_TOP/bench/ni-record.sh" "$root/lab/bin/"
[ -d "$g/bin" ] && cp -a "$g/bin/." "$root/lab/bin/"
[ -d "$g/kselftest" ] && cp -a "$g/kselftest" "$root/lab/kselftest"
cp "$LAB_TOP"/lab/guest/*.sh "$LAB_TOP/lab/guest/splats" "$root/lab/"
for bin in ${LAB_GUEST_BINS:-}; do
	[ -x "$bin" ] || die "LAB_GUEST_BINS: $bin is not an executable"
	! ldd "$bin" >/dev/null 2>&1 || die "LAB_GUEST_BINS: $bin is not static (the guest has no libraries)"
	cp "$bin" "$root/lab/bin/"
done
for prog in $LAB_HOST_PROGS; do
	path=$(command -v "$prog" 2>/dev/null) || continue
	cp "$path" "$root/usr/bin/"
	for lib in $(ldd "$path" 2>/dev/null | grep -o '/[^ ]*' || true); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
	[ "$prog" != tbench ] || [ ! -f /usr/share/dbench/client.txt ] ||
		{ mkdir -p "$root/usr/share/dbench"; cp /usr/share/dbench/client.txt "$root/usr/share/dbench/"; }
done
write_to "$g/base.cpio" cpio_pack "$root"
say "initramfs of $variant: $g/base.cpio ($(du -k "$g/base.cpio" | cut -f1) KiB, $(find "$root/lab/bin" -type f | wc -l) lab programs)"
