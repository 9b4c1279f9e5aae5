#!/bin/sh
# Runs inside the test VM (busybox sh) with the module loaded: drives the
# tensorarena generic netlink family with the kernel's own YNL cli.py
# (linux-source-7.2 tools/net/ynl) from Documentation/netlink/specs/
# tensorarena.yaml. Python comes from the host's root, shared read-only over
# virtio-9p (ta_boot with TA_HOSTROOT=1); the payload has the tools under
# /ta/ynl and the spec in /ta/ynl/Documentation/netlink/specs/ (where
# cli.py finds genetlink-legacy.yaml, the schema it validates the spec against).
# One line per test:  e2e: ok - NAME  /  e2e: not ok - NAME: WHY
TA=/ta
H=/host

ok() { echo "e2e: ok - ynl: $1"; }
not_ok() { echo "e2e: not ok - ynl: $1: $2"; }

# 6.14 moved cli.py into pyynl/ (older trees: tools/net/ynl/cli.py).
cli=tools/net/ynl/pyynl/cli.py
[ -f $TA/ynl/$cli ] || cli=tools/net/ynl/cli.py
if [ ! -f $TA/ynl/$cli ]; then
	not_ok "tools in the payload" "no $TA/ynl/$cli"
	exit 0
fi
echo "# ynl: $cli of the payload's YNL tools"
mkdir -p $H
if ! mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,cache=loose,ro hostroot $H; then
	not_ok "host root over virtio-9p" "mount failed (boot with TA_HOSTROOT=1)"
	exit 0
fi
mount -t proc proc $H/proc
mount -t devtmpfs dev $H/dev
mount -t tmpfs tmp $H/tmp
mount -o bind $TA $H/mnt
ok "host root over virtio-9p"
[ -n "$TA_YNL_TRACE" ] && set -x

# ynl [ARGS...]: cli.py in the host's userland; stdout and stderr together.
ynl() {
	chroot $H /usr/bin/env -i PATH=/usr/bin:/bin PYTHONDONTWRITEBYTECODE=1 \
		/usr/bin/python3 /mnt/ynl/$cli \
		--spec /mnt/ynl/Documentation/netlink/specs/tensorarena.yaml "$@" 2>&1
}

# The first run validates the spec against genetlink-legacy.yaml (the default
# schema); the others skip it to save time under TCG.
out=$(ynl --do info)
echo "$out"
if echo "$out" | grep -q "'arena-size': $(cat /sys/bus/platform/devices/tensorarena/arena_size)"; then
	ok "spec validates, --do info returns the arena size"
else
	not_ok "spec validates, --do info returns the arena size" "$(echo "$out" | tail -3)"
fi

# A plan made by cli.py belongs to cli.py's socket and dies when it exits:
# create one, then check that the dump no longer lists it.
graph='{"strategy": 4,
 "tensor": [{"size": 4096, "flags": 1}, {"size": 8192}, {"size": 4096, "flags": 2}],
 "op": [{"input": [0], "output": [1]}, {"input": [1], "output": [2]}]}'
out=$(ynl --no-schema --do plan-create --json "$graph")
echo "$out"
if echo "$out" | grep -q "'plan-id': [1-9]" && echo "$out" | grep -q "'height': 12288"; then
	ok "--do plan-create returns a plan of height 12288"
else
	not_ok "--do plan-create returns a plan of height 12288" "$(echo "$out" | tail -3)"
fi

out=$(ynl --no-schema --dump plan-get)
echo "$out"
if [ "$(echo "$out" | tr -d ' \n')" = "[]" ]; then
	ok "--dump plan-get: the plan died with cli.py's socket"
else
	not_ok "--dump plan-get: the plan died with cli.py's socket" "$(echo "$out" | tail -3)"
fi

out=$(ynl --no-schema --do plan-create --json '{"flags": 3, "buffer": [{"size": 100, "start": 0, "end": 2}, {"size": 50, "start": 1, "end": 3}]}')
echo "$out"
if echo "$out" | grep -q "'plan-id': 0" && echo "$out" | grep -q "'height': 150"; then
	ok "--do plan-create lifetime form, dry run"
else
	not_ok "--do plan-create lifetime form, dry run" "$(echo "$out" | tail -3)"
fi

# A plan that outlives cli.py: ta_e2e_netlink --hold creates one through
# the ioctl, prints its ID and waits; cli.py lists, reads, exports and
# destroys it (same uid), then the holder exits.
if [ -x $TA/ta_e2e_netlink ]; then
	mkfifo /tmp/ynl.fifo
	$TA/ta_e2e_netlink --hold </tmp/ynl.fifo >/tmp/ynl.id &
	exec 3>/tmp/ynl.fifo
	i=0
	while [ ! -s /tmp/ynl.id ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	id=$(cat /tmp/ynl.id)
	out=$(ynl --no-schema --dump plan-get)
	echo "$out"
	if [ -n "$id" ] && echo "$out" | grep -q "'plan-id': $id"; then
		ok "--dump plan-get lists a plan made through the ioctl"
	else
		not_ok "--dump plan-get lists a plan made through the ioctl" "id '$id': $(echo "$out" | tail -3)"
	fi
	out=$(ynl --no-schema --do plan-get --json "{\"plan-id\": ${id:-1}}")
	echo "$out"
	if echo "$out" | grep -q "'placement':"; then
		ok "--do plan-get returns the placements"
	else
		not_ok "--do plan-get returns the placements" "$(echo "$out" | tail -3)"
	fi
	# The dma-buf descriptor lands in cli.py's own process (the sender)
	# and closes when it exits; the reply names its number.
	out=$(ynl --no-schema --do plan-export --json "{\"plan-id\": ${id:-1}, \"export-flags\": [\"cloexec\"]}")
	echo "$out"
	if echo "$out" | grep -q "'fd': [0-9]" && echo "$out" | grep -q "'plan-id': ${id:-1}"; then
		ok "--do plan-export replies with the dma-buf fd"
	else
		not_ok "--do plan-export replies with the dma-buf fd" "$(echo "$out" | tail -3)"
	fi
	out=$(ynl --no-schema --do plan-destroy --json "{\"plan-id\": ${id:-1}}")
	echo "$out"
	out2=$(ynl --no-schema --do plan-get --json "{\"plan-id\": ${id:-1}}")
	echo "$out2"
	if echo "$out2" | grep -q "no such plan"; then
		ok "--do plan-destroy, then plan-get fails with the extack text"
	else
		not_ok "--do plan-destroy, then plan-get fails with the extack text" "$(echo "$out2" | tail -3)"
	fi
	exec 3>&-
	wait
	rm -f /tmp/ynl.fifo /tmp/ynl.id
fi

# The family's policy (the VM loads the module with group=1000): cli.py as
# uid 2000, outside the group, gets EPERM and the extack that names the
# group and mode parameters; from a child network namespace there is no
# family at all.
out=$(chroot $H /usr/bin/setpriv --reuid=2000 --regid=2000 --clear-groups \
	/usr/bin/env -i PATH=/usr/bin:/bin PYTHONDONTWRITEBYTECODE=1 \
	/usr/bin/python3 /mnt/ynl/$cli --no-schema \
	--spec /mnt/ynl/Documentation/netlink/specs/tensorarena.yaml --do info 2>&1)
echo "$out"
if echo "$out" | grep -q "Operation not permitted" && echo "$out" | grep -q "group and mode"; then
	ok "--do info as uid 2000 (outside the group): EPERM with the policy's extack"
else
	not_ok "--do info as uid 2000 (outside the group): EPERM with the policy's extack" "$(echo "$out" | tail -3)"
fi
out=$(unshare -n chroot $H /usr/bin/env -i PATH=/usr/bin:/bin PYTHONDONTWRITEBYTECODE=1 \
	/usr/bin/python3 /mnt/ynl/$cli --no-schema \
	--spec /mnt/ynl/Documentation/netlink/specs/tensorarena.yaml --do info 2>&1)
echo "$out"
if echo "$out" | grep -q "not supported by the kernel"; then
	ok "--do info from a child network namespace (unshare -n): the family does not exist there"
else
	not_ok "--do info from a child network namespace (unshare -n): the family does not exist there" "$(echo "$out" | tail -3)"
fi

umount $H/mnt $H/tmp $H/dev $H/proc
umount $H
