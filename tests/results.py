#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Collect every test result of a `make check` run and print the verdict.

Sources:
  --tap NAME=FILE       TAP from a host test program: "ok N - x", "not ok N - x";
                        a plan "1..N" in it must match the results reported
  --same A=B            every test console A passed, console B passed too
                        (the newest kernel runs what the oldest runs)
  --console NAME=FILE   a test VM's serial console: KUnit KTAP, "e2e:" lines,
                        and kernel reports (KASAN, UBSAN, lockdep, kmemleak,
                        WARNING, BUG, DMA-API) -- any report fails the run
                        even when every test passed; so does a VM that did
                        not reach its end, or whose /init did not know
                        its mode ("TA-VM: unknown mode"). An e2e program
                        on tests/e2e/ta_harness.h prints "e2e: 1..N" and
                        then "e2e: ok|not ok I - TEST" per test: fewer
                        than N (a crash half-way), a "not ok", or a test
                        line without a plan fails. vm-tests.sh's run_e2e
                        announces each program ("e2e: run - NAME") before
                        its "e2e: ok|not ok - NAME: exit N" line: a
                        program that printed no plan in between fails.
  --min NAME=N          source NAME (a --tap or --console) passed at least N
                        results, or it fails. Every --console needs one: a
                        VM that ran a tenth of its tests must not pass.
  --suites NAME=FILE    console NAME ran every KUnit suite FILE names (one
                        a line, # comments), each with a plan of 1 or more
                        cases and all of them reported.
Prints failures, then one line "N passed, N failed[, N skipped]".
Exit status 1 when anything failed or nothing ran.
"""
import argparse
import re
import sys

TIMESTAMP = re.compile(r"^\[\s*\d+\.\d+\] ?")
# Kernel reports that fail a run. Matched anywhere in a console line.
REPORTS = [
    r"BUG: ", r"WARNING: ", r"UBSAN: ", r"KASAN", r"Kernel panic",
    r"Oops", r"general protection fault", r"unreferenced object 0x",
    r"suspected memory leak", r"possible circular locking",
    r"possible recursive locking", r"inconsistent lock state",
    r"INFO: possible", r"INFO: trying to register non-static key",
    r"DEBUG_LOCKS_WARN_ON", r"DMA-API: ", r"Call Trace:", r"Call trace:",
    r"lockdep is turned off",
    # The hang detectors: soft lockup ("BUG: soft lockup" is caught above),
    # RCU stalls, hung tasks.
    r"rcu: INFO: ", r"detected stall", r"self-detected stall",
    r"blocked for more than \d+ seconds",
]
# Boot lines that mention a report word without being one.
BENIGN = [
    r"KernelAddressSanitizer initialized", r"kmemleak: Kernel memory leak detector",
    r"Unknown kernel command line parameters",
    r"DMA-API: preallocated", r"DMA-API: debugging enabled",
]
REPORT_RE = re.compile("|".join(REPORTS))
BENIGN_RE = re.compile("|".join(BENIGN))
CASE_RE = re.compile(r"^(    )(not ok|ok) (\d+) (?:- )?(.*?)(\s+# SKIP.*)?$")
PLAN_RE = re.compile(r"^    1\.\.(\d+)$")
SUITE_RE = re.compile(r"^    # Subtest: (.*)$")
E2E_RE = re.compile(r"e2e: (not ok|ok) - (.*)$")
# tests/e2e/ta_harness.h: a program's plan, then one result line per test.
E2E_PLAN_RE = re.compile(r"e2e: 1\.\.(\d+)$")
E2E_TEST_RE = re.compile(r"e2e: (not ok|ok) (\d+) - (.*)$")
# vm-tests.sh's run_e2e: the program NAME starts; its exit line, the check
# "e2e: ok|not ok - NAME: exit N", ends it.
E2E_RUN_RE = re.compile(r"e2e: run - (.*)$")
TAP_RE = re.compile(r"^(not ok|ok)\b(?: \d+)?(?: -)? ?(.*?)(\s+# SKIP.*)?$")
TAP_PLAN_RE = re.compile(r"^1\.\.(\d+)\b")
# A suite's own verdict, at the top level of the module's KTAP.
SUITE_END_RE = re.compile(r"^(not ok|ok) \d+ (?:- )?(\S+)$")
UNKNOWN_MODE = "TA-VM: unknown mode"


class Tally:
    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.skipped = 0
        self.failures = []
        self.passed_names = set()
        self.source_passed = {}

    def add(self, status, name):
        if status == "ok":
            self.passed += 1
            self.passed_names.add(name)
        elif status == "skip":
            self.skipped += 1
        else:
            self.failed += 1
            self.failures.append(name)


def parse_tap(name, path, tally):
    try:
        lines = open(path, errors="replace").read().splitlines()
    except OSError as e:
        tally.add("fail", f"{name}: cannot read results: {e}")
        return
    seen = 0
    plans = []
    for line in lines:
        m = TAP_PLAN_RE.match(line)
        if m:
            plans.append(int(m.group(1)))
            continue
        m = TAP_RE.match(line)
        if not m:
            continue
        seen += 1
        status = "skip" if m.group(3) else m.group(1)
        tally.add("ok" if status == "ok" else status, f"{name}: {m.group(2)}")
    if not seen:
        tally.add("fail", f"{name}: no test results")
    # A plan is a promise: a program that planned N and stopped short
    # (or printed more) did not run what it said.
    if len(plans) > 1:
        tally.add("fail", f"{name}: {len(plans)} TAP plans in one file")
    elif plans and plans[0] != seen:
        tally.add("fail", f"{name}: TAP plan 1..{plans[0]}, {seen} results")


# A kernel record that starts inside a line: the kernel printed while a
# test was writing its line (7.2's serial console prints from its own
# thread, at any character).
SPLICE_RE = re.compile(r"^(?!\[\s*\d+\.\d+\])(.+?)(\[\s*\d+\.\d+\] .*)$")


def unsplice(raw):
    """Lines as they were written: a kernel record that landed inside a
    test's line is moved out, and the line is joined with its rest, the
    next line that is not a kernel record."""
    out, pending = [], None
    for line in raw:
        line = line.replace("\r", "")
        m = SPLICE_RE.match(line)
        if m:
            out.append(m.group(2))
            pending = (pending or "") + m.group(1)
        elif pending is not None and TIMESTAMP.match(line):
            out.append(line)
        elif pending is not None:
            out.append(pending + line)
            pending = None
        else:
            out.append(line)
    if pending is not None:
        out.append(pending)
    return out


def parse_console(name, path, tally, expected_suites=None):
    try:
        raw = open(path, errors="replace").read().splitlines()
    except OSError as e:
        tally.add("fail", f"{name}: cannot read console: {e}")
        return
    lines = [TIMESTAMP.sub("", l) for l in unsplice(raw)]
    suite, planned, counted = None, 0, 0
    reports = []
    ended = False
    unknown_mode = []
    # suite -> (cases planned, cases reported), for the expected suites
    suites = {}
    # The e2e program running: [plan, tests reported, its plan's line].
    e2e_plan = None
    # The program run_e2e announced: [name, its line, plans it printed].
    e2e_prog = None

    def close_e2e_plan():
        if e2e_plan is not None and e2e_plan[1] < e2e_plan[0]:
            tally.add("fail", f"{name}: e2e plan of line {e2e_plan[2]}: only "
                      f"{e2e_plan[1]} of {e2e_plan[0]} tests reported (crash?)")

    def close_e2e_prog():
        nonlocal e2e_plan
        if e2e_prog is None:
            return
        close_e2e_plan()
        e2e_plan = None
        if not e2e_prog[2]:
            tally.add("fail", f"{name}: e2e program {e2e_prog[0]} (line "
                      f"{e2e_prog[1]}) printed no TAP plan (\"e2e: 1..N\")")

    def close_suite():
        if suite is None:
            return
        suites[suite] = (planned, counted)
        if counted < planned:
            tally.add("fail", f"{name}: kunit {suite}: only {counted} of "
                      f"{planned} cases reported (crash?)")

    for lineno, line in enumerate(lines, 1):
        m = SUITE_RE.match(line)
        if m:
            close_suite()
            suite, planned, counted = m.group(1), 0, 0
            continue
        m = PLAN_RE.match(line)
        if m and suite is not None:
            planned = int(m.group(1))
            continue
        m = CASE_RE.match(line)
        if m and suite is not None:
            counted += 1
            status = "skip" if m.group(5) else m.group(2)
            tally.add("ok" if status == "ok" else status,
                      f"{name}: kunit {suite}.{m.group(4)}")
            continue
        m = SUITE_END_RE.match(line)
        if m and (m.group(2) in suites or m.group(2) == suite):
            if m.group(1) != "ok":
                tally.add("fail", f"{name}: kunit suite {m.group(2)}: not ok")
            continue
        m = E2E_RUN_RE.search(line)
        if m:
            close_e2e_prog()
            e2e_prog = [m.group(1).strip(), lineno, 0]
            continue
        m = E2E_PLAN_RE.search(line)
        if m:
            close_e2e_plan()
            e2e_plan = [int(m.group(1)), 0, lineno]
            if e2e_prog is not None:
                e2e_prog[2] += 1
            continue
        m = E2E_TEST_RE.search(line)
        if m:
            # The checks are what passes; a test's own line only fails.
            if e2e_plan is None:
                tally.add("fail", f"{name}: e2e test without a plan: {m.group(3)}")
            else:
                e2e_plan[1] += 1
            if m.group(1) != "ok":
                tally.add("fail", f"{name}: e2e test {m.group(3)}")
            continue
        m = E2E_RE.search(line)
        if m:
            tally.add("ok" if m.group(1) == "ok" else "fail",
                      f"{name}: e2e {m.group(2)}")
            if e2e_prog is not None and \
                    m.group(2).startswith(e2e_prog[0] + ": exit "):
                close_e2e_prog()
                e2e_prog = None
            continue
        if "TA-VM: end" in line:
            ended = True
        if UNKNOWN_MODE in line:
            unknown_mode.append(line.strip())
        if REPORT_RE.search(line) and not BENIGN_RE.search(line):
            reports.append(line)
    close_suite()
    close_e2e_prog()
    close_e2e_plan()
    for want in expected_suites or []:
        if want not in suites:
            tally.add("fail", f"{name}: kunit suite {want} did not run")
        elif suites[want][0] < 1:
            tally.add("fail", f"{name}: kunit suite {want} planned no cases")
    if unknown_mode:
        tally.add("fail", f"{name}: the VM ran no tests: {unknown_mode[0]!r}")
    if not ended:
        tally.add("fail", f"{name}: the VM did not reach the end of its tests")
    if reports:
        tally.add("fail", f"{name}: {len(reports)} kernel report line(s), "
                  f"first: {reports[0]!r}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tap", action="append", default=[])
    ap.add_argument("--console", action="append", default=[])
    ap.add_argument("--same", action="append", default=[])
    ap.add_argument("--min", action="append", default=[])
    ap.add_argument("--suites", action="append", default=[])
    args = ap.parse_args()
    tally = Tally()
    minima, suites = {}, {}
    for spec in args.min:
        name, _, n = spec.partition("=")
        if not n.isdigit():
            ap.error(f"--min {spec}: want NAME=N")
        minima[name] = int(n)
    for spec in args.suites:
        name, _, path = spec.partition("=")
        try:
            suites[name] = [l.split("#")[0].strip() for l in open(path)
                            if l.split("#")[0].strip()]
        except OSError as e:
            ap.error(f"--suites {spec}: {e}")
        if not suites[name]:
            ap.error(f"--suites {spec}: names no suite")
    sources = []
    for spec in args.tap:
        name, _, path = spec.partition("=")
        sources.append(name)
        before = tally.passed
        parse_tap(name, path, tally)
        tally.source_passed[name] = tally.passed - before
    for spec in args.console:
        name, _, path = spec.partition("=")
        sources.append(name)
        if name not in minima:
            ap.error(f"--console {spec}: no --min {name}=N")
        before = tally.passed
        parse_console(name, path, tally, suites.get(name))
        tally.source_passed[name] = tally.passed - before
    for name in list(minima) + list(suites):
        if name not in sources:
            ap.error(f"--min/--suites {name}: no such --tap or --console")
    # Not a result of its own (the counts stay the tests'): a failure only.
    for name, n in minima.items():
        got = tally.source_passed[name]
        if got < n:
            tally.add("fail", f"{name}: {got} results passed, at least {n} "
                      "wanted (tests that did not run?)")
    for spec in args.same:
        a, _, b = spec.partition("=")
        # Figures differ from run to run and kernel to kernel: compare
        # the names without what is in parentheses, numbers as #.
        # A kernel message printed into the line ends it.
        def norm(n):
            n = re.sub(r"\[\s*\d+\.\d+\].*$", "", n)
            while re.search(r"\([^()]*\)", n):  # nested ones too
                n = re.sub(r"\([^()]*\)", "", n)
            return re.sub(r"0x[0-9a-fA-F]+|(?<![A-Za-z])\d+", "#", n).strip()
        names = lambda p: {norm(n[len(p) + 2:]) for n in tally.passed_names
                           if n.startswith(p + ": ")}
        missing = sorted(names(a) - names(b))
        ok = bool(names(a)) and not missing
        tally.add("ok" if ok else "fail",
                  f"{b} passes every one of the {len(names(a))} tests {a} passes"
                  + (f" (missing {len(missing)}, first: {missing[0]!r})" if missing else ""))
    for f in tally.failures:
        print(f"FAILED: {f}")
    line = f"{tally.passed} passed, {tally.failed} failed"
    if tally.skipped:
        line += f", {tally.skipped} skipped"
    print(line)
    ran = tally.passed + tally.failed + tally.skipped
    return 1 if tally.failed or tally.skipped or not ran else 0


if __name__ == "__main__":
    sys.exit(main())
