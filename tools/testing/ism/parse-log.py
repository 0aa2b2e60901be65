#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""parse-log.py [--kunit] [--bench] LABEL LOG: judge a VM console log.

Prints one "ok NAME" / "not ok NAME" line per KUnit suite, e2e test and
VM-level check (with --results FILE, also appends them there) and the
evidence of each failure on stderr; exits 1 on any failure. Fails on a
failed, crashed or missing suite, a module that failed to load or
unload, a VM that did not reach "ism-test: done", and any kernel report
(WARNING, BUG, KASAN, UBSAN, lockdep, RCU, Oops, kmemleak, ...) anywhere
in the log, even if every test said ok.

Then it prints the reliability summary: the "# summary KEY=VALUE" lines
of the e2e tests (summed by key), the size of the KUnit bad-input table
and the number of kernel reports."""
import argparse
import os
import re
import sys

PROTO = 'ism-test: '          # the guest's protocol lines (init)
STAMP = re.compile(r'^\[\s*\d+\.\d+\] ?')
# A kernel report: one extended regular expression a line in
# tests/lib/kernel-reports, which the e2e tests' lib/kmsg.sh greps in the
# guest too; plus a VM that run-vm.sh had to kill.
REPORTS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            'tests', 'lib', 'kernel-reports')
with open(REPORTS_FILE, encoding='utf-8') as _f:
    REPORTS = re.compile('|'.join(
        [ln.rstrip('\n') for ln in _f if ln.strip()] +
        [r'^run-vm: TIMEOUT']))
SUITE_START = re.compile(r'^    # Subtest: (\S+)')
SUMMARY = re.compile(r'^# summary (\w+)=(-?\d+)$')
TABLE = re.compile(r'bad-input table: (\d+) entries')
# run-vm.sh tells the guest its accelerator; rates depend on it.
ACCEL = re.compile(r'Command line:.*\bism\.accel=(\w+)')
CASE = re.compile(r'^    (ok|not ok) \d+ (\S+)(.*)')
SUITE_END = re.compile(r'^(ok|not ok) \d+ (\S+)(.*)')


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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--kunit', action='store_true',
                    help='fail unless at least one KUnit suite ran')
    ap.add_argument('--bench', action='store_true',
                    help='print the benchmark output')
    ap.add_argument('--results')
    ap.add_argument('label')
    ap.add_argument('log')
    a = ap.parse_args()
    judge = Judge(a.results)

    with open(a.log, errors='replace') as f:
        lines = [STAMP.sub('', ln.rstrip('\r\n')) for ln in f]

    began = done = False
    suites = []                 # [name, status, cases, failed cases, notes]
    cur = None
    kmod = None                 # the KUnit module being loaded
    kmod_suites = 0
    mods = {'insmod': 0, 'rmmod': 0}
    e2e_open = None
    bench, in_bench = [], False
    reports = []
    sums = {}                   # "# summary" lines of the e2e tests
    table = None                # rows of the KUnit bad-input table
    accel = '?'                 # the QEMU accelerator the VM ran under
    for i, ln in enumerate(lines, 1):
        if ln.startswith(PROTO):
            words = ln[len(PROTO):].split() or ['?']
            if words[0] == 'begin':
                began = True
            elif words[0] == 'done':
                done = True
            elif words[0] == 'kunit-module':
                kmod, kmod_suites = words[1], 0
            elif (words[0] in ('insmod', 'rmmod') and len(words) == 3 and
                  words[1] in ('ok', 'failed')):
                if words[1] == 'ok':
                    mods[words[0]] += 1
                    if kmod == words[2] and words[0] == 'insmod':
                        if not kmod_suites:
                            judge(False, f'kunit: module {kmod}',
                                  'loaded but ran no suite')
                        kmod = None
                else:
                    judge(False, f'{a.label}: {words[0]} {words[2]}', 'failed')
            elif words[0] == 'e2e':
                if words[1] == 'begin':
                    e2e_open = words[2]
                elif words[1] == 'ok':
                    judge(True, f'{a.label} e2e: {words[2]}')
                elif words[1] == 'skip':
                    judge(True, f'{a.label} e2e: {words[2]}', 'SKIP')
                else:
                    judge(False, f'{a.label} e2e: {words[3]}', ' '.join(words[4:]))
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
        m = SUMMARY.match(ln)
        if m:
            sums[m.group(1)] = sums.get(m.group(1), 0) + int(m.group(2))
        m = TABLE.search(ln)
        if m:
            table = int(m.group(1))
        m = SUITE_START.match(ln)
        if m:
            cur = [m.group(1), None, 0, [], []]
            suites.append(cur)
            kmod_suites += 1
            continue
        if cur is None:
            continue
        m = CASE.match(ln)
        if m:
            cur[2] += 1
            if m.group(1) == 'not ok':
                cur[3].append(m.group(2))
            continue
        m = SUITE_END.match(ln)
        if m and m.group(2) == cur[0]:
            cur[1] = m.group(1) + m.group(3)
            cur = None
        elif ln.startswith('    # ') or ln.startswith('        '):
            cur[4].append(ln.strip())

    for name, status, ncases, bad, notes in suites:
        tag = f'kunit: {name}'
        if status is None:
            judge(False, tag, f'started, never finished ({ncases} cases ran)')
        elif status.startswith('not ok'):
            judge(False, tag, 'failed: ' + ' '.join(bad))
            for n in notes:
                print('  ' + n, file=sys.stderr)
        else:
            judge(True, tag, 'SKIP' if '# SKIP' in status else f'{ncases} cases')
    if kmod:
        judge(False, f'kunit: module {kmod}', 'insmod never returned')
    if a.kunit and not suites:
        judge(False, f'{a.label}: KUnit', 'no suite ran')
    if e2e_open:
        judge(False, f'{a.label} e2e: {e2e_open}', 'never finished')
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
    print(f'kernel reports:   {reports}')
    print(f"bytes lost:       {lost} (verification failures: "
          f"{get('verify_failures')})")


if __name__ == '__main__':
    sys.exit(main())
