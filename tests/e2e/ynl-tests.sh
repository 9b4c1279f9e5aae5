#!/bin/sh
# Runs inside the test VM (busybox sh) with the module loaded: drives the
# tensorarena generic netlink family with the kernel's own YNL cli.py
# (tools/net/ynl of the newest linux-source, lib.sh) from
# Documentation/netlink/specs/tensorarena.yaml. Python comes from the
# host's root, shared read-only over virtio-9p (ta_boot with
# TA_HOSTROOT=1); the payload has the tools under
# /ta/ynl and the spec in /ta/ynl/Documentation/netlink/specs/ (where
# cli.py finds genetlink-legacy.yaml, the schema it validates the spec against).
# One line per check:  e2e: ok - NAME  /  e2e: not ok - NAME: WHY; and as
# tests/e2e/ta_harness.h programs do, a TAP plan "e2e: 1..4" first and
# "e2e: ok|not ok I - TEST" after each of its four tests (results.py fails
# a short plan). The exit status is 1 when any check failed (run_e2e in
# vm-tests.sh reports it).
TA=/ta
H=/host
failures=0
tests=0
test_failures=0

ok() { echo "e2e: ok - ynl: $1"; }
not_ok() {
	echo "e2e: not ok - ynl: $1: $2"
	failures=$((failures + 1))
}
# test_end NAME: test NAME's line; it failed if any check since the last
# test's end did.
test_end() {
	tests=$((tests + 1))
	if [ "$failures" = "$test_failures" ]; then
		echo "e2e: ok $tests - ynl: $1"
	else
		echo "e2e: not ok $tests - ynl: $1"
	fi
	test_failures=$failures
}

echo "e2e: 1..4"

# 6.14 moved cli.py into pyynl/ (older trees: tools/net/ynl/cli.py).
cli=tools/net/ynl/pyynl/cli.py
[ -f $TA/ynl/$cli ] || cli=tools/net/ynl/cli.py
if [ ! -f $TA/ynl/$cli ]; then
	not_ok "tools in the payload" "no $TA/ynl/$cli"
	exit 1
fi
echo "# ynl: $cli of the payload's YNL tools"
mkdir -p $H
if ! mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,cache=loose,ro hostroot $H; then
	not_ok "host root over virtio-9p" "mount failed (boot with TA_HOSTROOT=1)"
	exit 1
fi
mount -t proc proc $H/proc
mount -t devtmpfs dev $H/dev
mount -t tmpfs tmp $H/tmp
mount -o bind $TA $H/mnt
ok "host root over virtio-9p"
test_end "the tools and the host root"
[ -n "$TA_YNL_TRACE" ] && set -x

# ynl [ARGS...]: cli.py in the host's userland; stdout and stderr together.
ynl() {
	chroot $H /usr/bin/env -i PATH=/usr/bin:/bin PYTHONDONTWRITEBYTECODE=1 \
		/usr/bin/python3 /mnt/ynl/$cli \
		--spec /mnt/ynl/Documentation/netlink/specs/tensorarena.yaml "$@" 2>&1
}

# cli.py itself, once: it validates the spec against genetlink-legacy.yaml
# (the default schema) and asks for INFO.
out=$(ynl --do info)
echo "$out"
if echo "$out" | grep -q "'arena-size': $(cat /sys/bus/platform/devices/tensorarena/arena_size)"; then
	ok "spec validates, --do info returns the arena size"
else
	not_ok "spec validates, --do info returns the arena size" "$(echo "$out" | tail -3)"
fi
test_end "cli.py: the spec, --do info"

# The rest in one Python process, with the library cli.py is built on
# (tests/ynl-tests.py; every Python start costs seconds under TCG): a plan
# made on a socket dies with it; the lifetime form; a plan that outlives
# the client, which ta_e2e_netlink --hold makes through the ioctl, prints
# the ID of and keeps, listed, read, exported and destroyed (same uid);
# uid 2000, outside the group (the VM loads the module with group=1000),
# gets EPERM and the extack that names the group and mode parameters; from
# a child network namespace there is no family at all.
mkfifo /tmp/ynl.fifo
$TA/ta_e2e_netlink --hold </tmp/ynl.fifo >/tmp/ynl.id &
exec 3>/tmp/ynl.fifo
i=0
while [ ! -s /tmp/ynl.id ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
id=$(cat /tmp/ynl.id)
if [ -z "$id" ]; then
	not_ok "ta_e2e_netlink --hold made a plan" "no plan ID after 10 s"
	id=1
fi
chroot $H /usr/bin/env -i PATH=/usr/bin:/bin PYTHONDONTWRITEBYTECODE=1 \
	/usr/bin/python3 /mnt/tests/ynl-tests.py "/mnt/ynl/${cli%/cli.py}" \
	/mnt/ynl/Documentation/netlink/specs/tensorarena.yaml "$id" 2>&1
rc=$?
[ "$rc" = 0 ] || not_ok "ynl-tests.py ran its 9 tests, every one passed" "exit status $rc"
exec 3>&-
wait
rm -f /tmp/ynl.fifo /tmp/ynl.id
test_end "ynl-tests.py: sockets, lifetimes, the holder's plan, uids, namespaces"

umount $H/mnt $H/tmp $H/dev $H/proc && umount $H ||
	not_ok "the host root and its mounts unmounted" "umount failed"
test_end "the host root unmounted"
[ "$failures" = 0 ]
