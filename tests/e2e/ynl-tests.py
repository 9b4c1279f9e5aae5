#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The tensorarena generic netlink family driven by the kernel's own YNL
library (tools/net/ynl/pyynl/lib, what cli.py is built on) from
Documentation/netlink/specs/tensorarena.yaml, in one Python process.

Runs inside the test VM, in the host's userland (ynl-tests.sh chroots into
it over virtio-9p): under TCG every Python start costs seconds, so the
tests that need another socket, uid or network namespace take a new
YnlFamily or a forked child, not a new interpreter.

usage: ynl-tests.py YNL_LIB_DIR SPEC HOLDER_PLAN_ID
  YNL_LIB_DIR     the directory holding lib/ (tools/net/ynl/pyynl)
  SPEC            the family's spec
  HOLDER_PLAN_ID  a plan another process made through the ioctl and keeps
One line per test: "e2e: ok - ynl: NAME" or "e2e: not ok - ynl: NAME: WHY";
the last line says how many ran. Exit status 0 when all 9 ran and passed.
"""
import ctypes
import os
import sys

ran = 0
failed = 0


def report(ok, name, why=""):
    global ran, failed
    ran += 1
    failed += not ok
    if ok:
        print(f"e2e: ok - ynl: {name}", flush=True)
    else:
        print(f"e2e: not ok - ynl: {name}: {why}", flush=True)


def in_child(fn):
    """fn() in a forked child; its exit status is fn's truth."""
    pid = os.fork()
    if pid == 0:
        try:
            os._exit(0 if fn() else 1)
        except BaseException as e:  # the child must never return
            print(f"# child: {e!r}", flush=True)
            os._exit(2)
    _, status = os.waitpid(pid, 0)
    return os.WEXITSTATUS(status) == 0


def main():
    if len(sys.argv) != 4:
        print(__doc__.splitlines()[-4], file=sys.stderr)
        return 2
    sys.path.insert(0, sys.argv[1])
    from lib import YnlFamily, NlError, YnlException  # noqa: E402
    from lib.ynl import GenlProtocol  # noqa: E402
    spec, holder = sys.argv[2], int(sys.argv[3])

    def family():
        return YnlFamily(spec)

    # A plan made on a socket belongs to it: closed, the plan is gone.
    graph = {"strategy": 4,
             "tensor": [{"size": 4096, "flags": 1}, {"size": 8192},
                        {"size": 4096, "flags": 2}],
             "op": [{"input": [0], "output": [1]},
                    {"input": [1], "output": [2]}]}
    owner = family()
    reply = owner.do("plan-create", graph)
    print(f"# plan-create: {reply}")
    made = reply.get("plan-id", 0)
    report(made > 0 and reply.get("height") == 12288,
           "plan-create returns a plan of height 12288", repr(reply))
    ynl = family()
    listed = [p.get("plan-id") for p in ynl.dump("plan-get", {})]
    owner.close()
    after = [p.get("plan-id") for p in ynl.dump("plan-get", {})]
    report(made in listed and made not in after and holder in after,
           "plan-get dump: the plan died with its socket, the holder's lives",
           f"plan {made}: listed {listed}, then {after}")

    reply = ynl.do("plan-create", {"flags": 3, "buffer": [
        {"size": 100, "start": 0, "end": 2},
        {"size": 50, "start": 1, "end": 3}]})
    report(reply.get("plan-id") == 0 and reply.get("height") == 150,
           "plan-create lifetime form, dry run", repr(reply))

    # The holder's plan (same uid): listed, read, exported, destroyed.
    plans = ynl.dump("plan-get", {})
    report(any(p.get("plan-id") == holder for p in plans),
           "plan-get dump lists a plan made through the ioctl",
           f"plan {holder}: {plans!r}")
    reply = ynl.do("plan-get", {"plan-id": holder})
    report("placement" in reply and reply.get("plan-id") == holder,
           "plan-get returns the placements", repr(reply))
    # The dma-buf descriptor lands in this process, the sender's.
    reply = ynl.do("plan-export", {"plan-id": holder,
                                   "export-flags": ["cloexec"]})
    fd = reply.get("fd", -1)
    try:
        size = os.lseek(fd, 0, os.SEEK_END)
        os.close(fd)
    except OSError as e:
        size = f"{e}"
    report(reply.get("plan-id") == holder and isinstance(size, int) and size > 0,
           "plan-export replies with a dma-buf fd of the plan's size",
           f"{reply!r}, size {size}")
    ynl.do("plan-destroy", {"plan-id": holder})
    try:
        reply = ynl.do("plan-get", {"plan-id": holder})
        report(False, "plan-destroy, then plan-get fails with the extack text",
               f"got {reply!r}")
    except NlError as e:
        report(e.error == 2 and "no such plan" in str(e),
               "plan-destroy, then plan-get fails with the extack text",
               str(e))

    # The family's policy (the VM loads the module with group=1000): uid
    # 2000, outside the group, gets EPERM and the extack that names the
    # group and mode parameters.
    def outsider():
        os.setgroups([])
        os.setresgid(2000, 2000, 2000)
        os.setresuid(2000, 2000, 2000)
        try:
            reply = family().do("info", {})
            print(f"# uid 2000 got {reply!r}")
            return False
        except NlError as e:
            print(f"# uid 2000: {e}")
            return e.error == 1 and "group and mode" in str(e)
    report(in_child(outsider),
           "info as uid 2000 (outside the group): EPERM with the policy's extack")

    # From a child network namespace there is no family at all.
    def other_netns():
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.unshare(0x40000000):  # CLONE_NEWNET
            print(f"# unshare: {os.strerror(ctypes.get_errno())}")
            return False
        GenlProtocol.genl_family_name_to_id = {}  # the parent's lookup
        try:
            family()
            return False
        except YnlException as e:
            print(f"# {e}")
            return "not supported by the kernel" in str(e)
    report(in_child(other_netns),
           "a child network namespace (unshare CLONE_NEWNET): the family does not exist there")

    print(f"# ynl-tests.py: {ran} tests")
    return 0 if ran == 9 and not failed else 1


if __name__ == "__main__":
    sys.exit(main())
