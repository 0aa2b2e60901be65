#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""parse-log.py [--kunit] [--kunit-tag TAG] [--bench] --ksrc TREE LABEL LOG:
judge a VM console log.

Prints one "ok NAME" / "not ok NAME" line per KUnit suite (named "TAG:
SUITE", by default "kunit: SUITE"), e2e test and
VM-level check (with --results FILE, also appends them there) and the
evidence of each failure on stderr; exits 1 on any failure. Fails on a
failed, crashed or missing suite, a module that failed to load or
unload, a selftest that failed by its exit status or by its KTAP, a VM
that did not reach "ism-test: done", and any kernel report (WARNING,
BUG, KASAN, UBSAN, lockdep, RCU, Oops, kmemleak, ...) anywhere in the
log, even if every test said ok.

The KTAP of the KUnit modules and of the selftests is read by the
kernel's own parser, TREE/tools/testing/kunit/kunit_parser.py (what
`kunit.py parse` runs; its JSON output drops a suite's own status, so
it is called here directly), one KUnit module or one selftest at a time:
each KUnit module numbers its suites from 1, and the selftests' KTAP
reaches the log through /dev/kmsg with the prefix "ism-ktap: " (init).
The parser's own report goes to LOG.ktap.

Then it prints the reliability summary: the "# summary KEY=VALUE" lines
of the e2e tests (summed by key), the size of the KUnit bad-input table
and the number of kernel reports."""
import argparse
import importlib
import os
import re
import sys

PROTO = 'ism-test: '          # the guest's protocol lines (init)
KTAP = 'ism-ktap: '           # the selftests' output (init)
STAMP = re.compile(r'^\[\s*\d+\.\d+\] ?')
# A kernel report: one extended regular expression a line in
# tools/testing/selftests/ism/lib/kernel-reports, which the selftests'
# lib/kmsg.sh greps in the guest too; plus a VM that run-vm.sh had to kill.
REPORTS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            '..', 'selftests', 'ism', 'lib', 'kernel-reports')
with open(REPORTS_FILE, encoding='utf-8') as _f:
    REPORTS = re.compile('|'.join(
        [ln.rstrip('\n') for ln in _f if ln.strip()] +
        [r'^run-vm: TIMEOUT']))
SUMMARY = re.compile(r'^# summary (\w+)=(-?\d+)$')
TABLE = re.compile(r'bad-input table: (\d+) entries')
# run-vm.sh tells the guest its accelerator; rates depend on it. x86
# prints "Command line:", s390 only "Kernel command line:".
ACCEL = re.compile(r'[Cc]ommand line:.*\bism\.accel=(\w+)')


def ktap_parser(tree, report):
    """The kernel's KTAP parser, printing its report to REPORT."""
    sys.path.insert(0, os.path.join(tree, 'tools', 'testing', 'kunit'))
    printer = importlib.import_module('kunit_printer')
    # Its printer writes to the sys.stdout it saw at import time.
    printer.stdout = printer.Printer(report)
    parser = importlib.import_module('kunit_parser')
    parser.stdout = printer.stdout
    return parser


class Judge:
    def __init__(self, results):
        self.results = results
        self.failed = 0

    def __call__(self, ok, name, detail=''):
        line = ('ok ' if ok else 'not ok ') + name
        if detail:
            line += ' # ' + detail
        print(line, flush=True)
        if self.results:
            with open(self.results, 'a') as f:
                f.write(line + '\n')
        self.failed += not ok


def failed_names(test, parser):
    """The subtests of TEST that neither passed nor were skipped."""
    good = (parser.TestStatus.SUCCESS, parser.TestStatus.SKIPPED)
    return [t.name or '(unnamed)' for t in test.subtests if t.status not in good]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--kunit', action='store_true',
                    help='fail unless at least one KUnit suite ran')
    ap.add_argument('--kunit-tag', default='kunit',
                    help="what the KUnit suites' results are named by")
    ap.add_argument('--bench', action='store_true',
                    help='print the benchmark output')
    ap.add_argument('--results')
    ap.add_argument('--ksrc', required=True,
                    help='the Linux tree whose KTAP parser to use')
    ap.add_argument('label')
    ap.add_argument('log')
    a = ap.parse_args()
    judge = Judge(a.results)
    report = open(a.log + '.ktap', 'w')
    parser = ktap_parser(a.ksrc, report)

    with open(a.log, errors='replace') as f:
        lines = [STAMP.sub('', ln.rstrip('\r\n')) for ln in f]

    began = done = False
    suites = []                 # the KUnit suites (kunit_parser.Test)
    kmod = None                 # the KUnit module being loaded
    kmod_lines = []             # its output
    mods = {'insmod': 0, 'rmmod': 0}
    e2e_open = None
    e2e_lines = []              # the KTAP of the open e2e test
    bench, in_bench = [], False
    reports = []
    sums = {}                   # "# summary" lines of the e2e tests
    table = None                # rows of the KUnit bad-input table
    accel = '?'                 # the QEMU accelerator the VM ran under

    def kunit_module():
        """Parse the KTAP of the KUnit module kmod, which has a header
        of its own from 6.12 on (6.1's starts with its first suite)."""
        head = [] if kmod_lines and kmod_lines[0].startswith('KTAP version') \
            else ['KTAP version 1']
        test = parser.parse_run_tests(head + kmod_lines)
        suites.extend(test.subtests)
        return test.subtests

    def e2e_verdict(name, status, detail):
        """Judge e2e test NAME by init's verdict and by its KTAP."""
        label = f'{a.label} e2e: {name}'
        if status == 'skip':
            judge(True, label, 'SKIP')
            return
        test = parser.parse_run_tests(e2e_lines)
        bad = failed_names(test, parser)
        if status != 'ok':
            # Which cases failed, for a reader who has only this line.
            judge(False, label, detail + ('; failed: ' + '; '.join(bad)
                                          if bad else ''))
        elif bad or not test.subtests:
            judge(False, label, 'KTAP: ' + ('failed: ' + '; '.join(bad)
                                            if bad else 'no results'))
        else:
            judge(True, label, f'{len(test.subtests)} cases')

    for i, ln in enumerate(lines, 1):
        if ln.startswith(PROTO):
            words = ln[len(PROTO):].split() or ['?']
            if words[0] == 'begin':
                began = True
            elif words[0] == 'done':
                done = True
            elif words[0] == 'kunit-module':
                kmod, kmod_lines = words[1], []
            elif (words[0] in ('insmod', 'rmmod') and len(words) == 3 and
                  words[1] in ('ok', 'failed')):
                if words[0] == 'insmod' and kmod == words[2]:
                    if not kunit_module() and words[1] == 'ok':
                        judge(False, f'{a.kunit_tag}: module {kmod}',
                              'loaded but ran no suite')
                    kmod = None
                if words[1] == 'ok':
                    mods[words[0]] += 1
                else:
                    judge(False, f'{a.label}: {words[0]} {words[2]}', 'failed')
            elif words[0] == 'e2e':
                if words[1] == 'begin':
                    e2e_open, e2e_lines = words[2], []
                elif words[1] in ('ok', 'skip'):
                    e2e_verdict(words[2], words[1], '')
                else:
                    e2e_verdict(words[3], 'not ok', ' '.join(words[4:]))
                if words[1] != 'begin':
                    e2e_open = None
            elif words[0] == 'bench':
                if words[1] == 'begin':
                    in_bench = True
                elif words[1] == 'end':
                    in_bench = False
                else:
                    judge(False, 'bench', 'ism_bench.ko is not in the build')
            continue
        if in_bench:
            bench.append(ln)
        m = ACCEL.search(ln)
        if m:
            accel = m.group(1)
        if REPORTS.search(ln):
            reports.append((i, ln))
        if ln.startswith(KTAP):
            ln = ln[len(KTAP):]
            if e2e_open:
                e2e_lines.append(ln)
        elif kmod:
            kmod_lines.append(ln)
        m = SUMMARY.match(ln)
        if m:
            sums[m.group(1)] = sums.get(m.group(1), 0) + int(m.group(2))
        m = TABLE.search(ln)
        if m:
            table = int(m.group(1))

    if kmod:
        kunit_module()
        judge(False, f'{a.kunit_tag}: module {kmod}', 'insmod never returned')
    for suite in suites:
        tag = f'{a.kunit_tag}: {suite.name}'
        if suite.status == parser.TestStatus.SUCCESS:
            judge(True, tag, f'{len(suite.subtests)} cases')
        elif suite.status == parser.TestStatus.SKIPPED:
            judge(True, tag, 'SKIP')
        else:
            judge(False, tag, f'{suite.status.name}: ' +
                  ' '.join(failed_names(suite, parser)))
            for n in suite.log:
                print('  ' + n, file=sys.stderr)
    if a.kunit and not suites:
        judge(False, f'{a.label}: KUnit', 'no suite ran')
    if e2e_open:
        e2e_verdict(e2e_open, 'not ok', 'never finished')
    if a.bench:
        print(f'ism_bench under QEMU {accel}:')
        print('\n'.join(bench))

    judge(began, f'{a.label}: /init started')
    judge(began and done, f'{a.label}: VM ran to the end',
          '' if done else 'crash, hang or timeout: see the log')
    judge(bool(mods['insmod']) and mods['insmod'] == mods['rmmod'],
          f'{a.label}: modules loaded and unloaded',
          f"{mods['insmod']} insmod, {mods['rmmod']} rmmod")
    judge(not reports, f'{a.label}: kernel log free of reports',
          f'{len(reports)} report lines' if reports else '')
    for i, ln in reports[:20]:
        print(f'  {a.log}:{i}: {ln}', file=sys.stderr)
    if sums or table is not None:
        print_summary(f'{a.label}, QEMU {accel}', sums, table, len(reports))
    return 1 if judge.failed else 0


def print_summary(label, sums, table, reports):
    """The reliability summary of one VM run."""
    def get(key):
        return sums.get(key, '-')

    ms = sums.get('stress_ms', 0)
    rate = f"{sums['stress_ops'] * 1000 // ms} ops/s" if ms else '-'
    lost = sums.get('bytes_lost', 0)
    print(f'\n== reliability summary ({label}) ==')
    print(f"load held:        {get('stress_ops')} operations in {ms / 1000:.1f} s"
          f' of ism_stress: {rate}')
    print(f"faults:           {get('faults_injected')} injected, "
          f"{get('faults_survived')} survived")
    print(f"bad inputs:       {table if table is not None else '-'} rows of the "
          f"KUnit table, {get('bad_inputs')} tried under stress")
    print(f"lifetime churn:   {get('churn_cycles')} cycles")
    print(f"SMC-D under load: {get('smc_conns')} connections, "
          f"{get('smc_bytes')} bytes verified")
    print(f"/dev/ism calls:   {get('user_fuzz_calls')} random calls in "
          f"{get('user_fuzz_secs')} s, every result checked")
    print(f'kernel reports:   {reports}')
    print(f"bytes lost:       {lost} (verification failures: "
          f"{get('verify_failures')})")


if __name__ == '__main__':
    sys.exit(main())
