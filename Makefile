# SPDX-License-Identifier: GPL-2.0
# tensorarena: top-level build.
#
#   make                      userspace (userspace/bin/tactl, libtensorarena)
#                             and the module when a kernel tree is at hand:
#                             KDIR, else the running kernel's
#                             /lib/modules/$(uname -r)/build, else the test
#                             kernel if make test-kernel built it; with none
#                             it says so and builds userspace alone, in seconds
#   make module KDIR=<tree> [ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-]
#                             the module against any configured tree or
#                             headers package (fails, saying which KDIR to
#                             pass, when there is none)
#   make test-kernel          build (or find cached) the project's debug test
#                             kernel, Debian's linux-source-7.3 (fetched from
#                             trixie-backports into the cache, nothing
#                             installed; tens of minutes the first time; make
#                             check does it)
#   make check                install what is missing, run every test
#   make demo [ARCH=arm64]    boot the test VM and show tensorarena at work
#                             (arm64: the device-tree board, arena bound from
#                             its memory-region)
#   make bench                planner benchmark over ../shared/bench and a
#                             seeded set with known optima (gen_perfect.py), the
#                             worst-case inputs before (main's planner, 10 s
#                             cap per run) and after (limit 2 s), then the
#                             transports in a VM of Debian's stock kernel
#                             (and ta_bench --scale: time, memory and slope
#                             at 2^16..2^20 buffers, a fixed plan's check
#                             too, auto's budget kept)
#   make lint                 checkpatch --strict, W=1, sparse on the module
#   make kunit                the KUnit suites through the kernel's kunit.py
#                             (module/ as drivers/misc/tensorarena of a clean
#                             7.3 source, --arch=x86_64, cached; TAP out)
#   make fuzz                 every libFuzzer target for FUZZ_SECONDS (300) each,
#                             exploring; its crashes join tests/fuzz/corpus/;
#                             then the ONNX oracle on ONNX_ORACLE_MODELS (20000)
#                             random models from a random seed (printed;
#                             ONNX_ORACLE_SEED=N reruns one), its failing models
#                             joining tests/onnx-oracle/corpus/
#   make deb                  the Debian packages (dpkg-buildpackage -b -us -uc
#                             on a clean copy of the tree), in build/deb/
#   make dkms-install [KVER=] (root) the module's source into
#                             /usr/src/tensorarena-<version>, then dkms add,
#                             build and install for kernel KVER (default: the
#                             running one)
#   make netlink-gen          regenerate the netlink code (module/ta_nl_gen.[ch],
#                             uapi/linux/tensorarena_netlink.h) from
#                             Documentation/netlink/specs/tensorarena.yaml

TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
RUNNING_KDIR := /lib/modules/$(shell uname -r)/build
SHARED ?= $(abspath $(TOP)/../shared)

# The kernel tree to build the module against: KDIR, the running kernel's,
# or the test kernel if it is cached; empty when there is none.
FIND_KDIR = $(or $(KDIR),$(wildcard $(RUNNING_KDIR)),$(shell bash -c \
	'. $(TOP)/tests/vm/lib.sh; ta_test_kernel_cached'))
NO_KDIR = no kernel tree: KDIR is not set and $(RUNNING_KDIR) is not \
	there. Pass a configured tree or headers package, e.g. make module \
	KDIR=/usr/src/linux-headers-$(shell uname -r) (the distribution's \
	headers of the running kernel), or run make test-kernel to build the \
	project's debug test kernel (tens of minutes) and make again

all: userspace
	@kdir="$(FIND_KDIR)"; \
	if [ -z "$$kdir" ]; then echo "make: userspace built; the module not: $(NO_KDIR)"; \
	else $(MAKE) -f $(TOP)/Makefile module KDIR="$$kdir"; fi

module:
	@kdir="$(FIND_KDIR)"; \
	if [ -z "$$kdir" ]; then echo "make module: $(NO_KDIR)" >&2; exit 1; fi; \
	echo "building tensorarena.ko against $$kdir"; \
	$(MAKE) -C "$$kdir" M=$(TOP) modules

test-kernel:
	@$(TOP)/tests/vm/build-kernel-newest.sh

userspace:
	$(MAKE) -C $(TOP)/userspace

deps:
	@$(TOP)/tests/deps.sh

# The kernels' build packages first: run-all.sh starts the debug kernel
# with them and installs the rest (tests/deps.sh) while it compiles.
check:
	@$(TOP)/tests/deps.sh --kernel
	$(TOP)/tests/run-all.sh

# The test VM alone (the debug kernel, KUnit and the e2e tests): about 8
# minutes warm, for a change that needs the VM before a full make check.
vm-test: deps
	$(TOP)/tests/vm/test-vm.sh

kunit: deps
	$(TOP)/tests/kunit-py.sh

demo: deps
	$(TOP)/tests/vm/demo.sh $(or $(ARCH),x86_64)

bench: deps
	$(MAKE) -C $(TOP)/userspace bench
	$(TOP)/userspace/bin/ta_bench $(SHARED)/bench
	$(TOP)/userspace/bin/ta_bench --groups $(SHARED)/models
	$(TOP)/userspace/bin/ta_bench --tier $(SHARED)/models
	$(TOP)/tests/bench-perfect.sh $(SHARED)/bench
	$(TOP)/tests/bench-packing.sh
	-$(TOP)/userspace/bench/worst-before.sh main
	$(TOP)/userspace/bin/ta_bench --worst --limit-ms 2000 --cap-s 30
	$(TOP)/userspace/bin/ta_bench --scale $(SHARED)/bench
	TA_SHARED=$(SHARED) $(TOP)/tests/vm/bench.sh

lint: deps
	$(TOP)/tests/lint.sh

FUZZ_SECONDS ?= 300
ONNX_ORACLE_MODELS ?= 20000
ONNX_ORACLE_SEED ?= random
fuzz: deps
	FUZZ_KEEP_CORPUS=1 $(MAKE) -C $(TOP)/tests/fuzz run FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_RUNS=
	$(MAKE) -C $(TOP)/userspace all
	mkdir -p $(TOP)/build
	ONNX_ORACLE_MODELS=$(ONNX_ORACLE_MODELS) ONNX_ORACLE_SEED=$(ONNX_ORACLE_SEED) \
		ONNX_ORACLE_SAVE=$(TOP)/tests/onnx-oracle/corpus $(TOP)/tests/onnx-oracle/oracle.sh \
		>$(TOP)/build/onnx-oracle.tap || true
	head -1 $(TOP)/build/onnx-oracle.tap
	grep '^# [a-z]*: ' $(TOP)/build/onnx-oracle.tap
	python3 $(TOP)/tests/results.py --tap onnx-oracle=$(TOP)/build/onnx-oracle.tap

netlink-gen:
	$(TOP)/tests/netlink-gen.sh

# The version of the module's DKMS source, of the library and of the
# packages: VERSION (tests/lib-install-test.sh checks that the others agree).
TA_VERSION = $(shell cat $(TOP)/VERSION)

deb:
	$(TOP)/tests/package-build.sh $(TOP)/build/deb

KVER ?= $(shell uname -r)
dkms-install:
	-dkms remove tensorarena/$(TA_VERSION) --all 2>/dev/null
	rm -rf /usr/src/tensorarena-$(TA_VERSION)
	mkdir -p /usr/src/tensorarena-$(TA_VERSION)
	cp -a $(TOP)/dkms.conf $(TOP)/Kbuild $(TOP)/module $(TOP)/uapi /usr/src/tensorarena-$(TA_VERSION)/
	find /usr/src/tensorarena-$(TA_VERSION) \( -name '*.o' -o -name '*.cmd' -o -name '*.ko' -o -name '*.mod*' \) -delete
	dkms add tensorarena/$(TA_VERSION)
	dkms build tensorarena/$(TA_VERSION) -k $(KVER)
	dkms install tensorarena/$(TA_VERSION) -k $(KVER)

clean:
	@kdir="$(KDIR)"; [ -n "$$kdir" ] || kdir="$(RUNNING_KDIR)"; \
	if [ -d "$$kdir" ]; then $(MAKE) -C "$$kdir" M=$(TOP) clean; fi
	$(MAKE) -C $(TOP)/userspace clean
	$(MAKE) -C $(TOP)/tests/fuzz clean
	rm -rf $(TOP)/build

.PHONY: all module test-kernel userspace deps check vm-test kunit demo bench lint fuzz netlink-gen deb dkms-install clean
