#!/bin/bash
# Transport benchmark (part of make bench): boot each of Debian's stock
# kernels (TA_BENCH_KERNELS, default "6.1 6.12") under TCG, load the module
# built against its headers, and measure plans per second per transport
# against offline planning in the same VM, plus mmap write bandwidth. TCG
# makes absolute numbers slow; the ratios are the point. Both kernels,
# because the transports' costs differ between them: 6.1 copies every
# netlink request above a page into vmalloc'd memory, 6.12 uses kvmalloc
# (Documentation/testing.md, "The copy in, large netlink requests on 6.1,
# two kernels"). Each kernel boots TA_BENCH_BOOTS times (3), alternating,
# and the ratios are printed per boot and as medians across the boots.
#
# TCG's wall clock moves the same planner call by 0.7x to 1.5x from boot
# to boot (Documentation/testing.md, "Across boots"). So each kernel then
# boots TA_BENCH_ICOUNT_BOOTS times (1; 0: none) with the guest's clock
# counting its instructions (TA_VM_CLOCK=icount, tests/vm/lib.sh): there
# a ratio is one of the instructions the guest ran on each side, the
# system call, copies and page faults included: the same from boot to
# boot to 0.01 (but a 6.12 boot's first line, to 0.04).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
kernels=${TA_BENCH_KERNELS:-6.1 6.12}
boots=${TA_BENCH_BOOTS:-3}
icount_boots=${TA_BENCH_ICOUNT_BOOTS:-1}
[[ $boots =~ ^[1-9][0-9]*$ ]] || ta_die "TA_BENCH_BOOTS=$boots: give a number of boots, 1 or more"
[[ $icount_boots =~ ^[0-9]+$ ]] || ta_die "TA_BENCH_ICOUNT_BOOTS=$icount_boots: give a number of boots, 0 or more"

out=$TA_ROOT/build/bench-vm
rm -rf "$out"
mkdir -p "$out/payload/tests" "$out/payload/traces"
make -s -C "$TA_ROOT/userspace" all "$TA_ROOT/userspace/bin/tactl.static"
gcc -O2 -static -I"$TA_ROOT/uapi" -I"$TA_ROOT/module/planner" \
	-I"$TA_ROOT/userspace/include" -I"$TA_ROOT/userspace/lib" \
	-o "$out/payload/ta_e2e_lib" "$TA_ROOT/tests/e2e/ta_e2e_lib.c" \
	"$TA_ROOT/userspace/libtensorarena-internal.a" $TA_STATIC_LIBS
gcc -O2 -static -I"$TA_ROOT/uapi" -I"$TA_ROOT/module/planner" \
	-I"$TA_ROOT/userspace/include" -I"$TA_ROOT/userspace/lib" \
	-o "$out/payload/ta_e2e_worst" "$TA_ROOT/tests/e2e/ta_e2e_worst.c" \
	"$TA_ROOT/userspace/libtensorarena-internal.a" $TA_STATIC_LIBS
cp "$TA_SHARED/bench/traces/real/S_1.csv" "$out/payload/traces/"
cp "$TA_ROOT/tests/e2e/vm-tests.sh" "$out/payload/tests/"
for series in $kernels; do
	abi=$(ta_stock_abi "$series")
	ko=$(ta_build_module "/usr/src/linux-headers-$abi" \
			     "$TA_ROOT/build/stock-$series")
	cp "$ko" "$out/payload/tensorarena.ko"
	ta_initramfs "$out/bench-$series.cpio.gz" "$out/payload"
done
# bench_boots CLOCK BOOTS: boot each kernel BOOTS times with the guest's
# clock CLOCK (wall or icount: TA_VM_CLOCK in tests/vm/lib.sh), print
# every boot's bench lines, then per kernel their medians across the
# boots (one boot's ratios are not the next one's under TCG). The kernels
# alternate boot by boot, so that the host's load over the run weighs on
# each alike.
bench_boots() {
	local clock=$1 n=$2 logs=$out/console- boot series abi log
	# console-6.1-1.log under TCG's clock, console-icount-6.1-1.log
	[ "$clock" = wall ] || logs+=$clock-
	for boot in $(seq 1 "$n"); do
		for series in $kernels; do
			abi=$(ta_stock_abi "$series")
			log=$logs$series-$boot.log
			ta_log "booting Debian's stock kernel $abi for the transport benchmark, $clock clock (boot $boot of $n)"
			TA_VM_CLOCK=$clock ta_boot "$(ta_stock_kernel "$abi")" \
				"$out/bench-$series.cpio.gz" "$log" bench 900
			echo "# bench kernel $abi, $clock clock, boot $boot of $n"
			grep -E '^(# bench|bench: )' "$log" ||
				ta_die "no benchmark output; see $log"
		done
	done
	for series in $kernels; do
		echo "# bench kernel $(ta_stock_abi "$series"), $clock clock: the medians of $n boots (and their range)"
		awk -v boots="$n" -f "$TA_ROOT/tests/vm/bench-median.awk" \
			$(seq -f "$logs$series-%g.log" 1 "$n") ||
			ta_die "the $clock clock boots of $series did not all print every bench line"
	done
}

bench_boots wall "$boots"
# The same bench in the guest's instruction time.
[ "$icount_boots" = 0 ] || bench_boots icount "$icount_boots"
