#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""scan-build-log.py LOG SRCDIR: print the compiler, sparse, kernel-doc
and modpost diagnostics of a kbuild log that concern our sources in
SRCDIR; exit 1 if there is any.

A diagnostic counts when its own location is one of our files, or when
one of its notes ("in expansion of macro ...") points at one of our
files: a warning inside a kernel macro that our code misused is ours
too. Diagnostics in kernel headers merely included by our files are
not counted."""
import os
import re
import sys

DIAG = re.compile(r'^(?P<path>[^\s:][^:]*):(?P<line>\d+):(?:\d+:)?\s*'
                  r'(?P<kind>warning|error|fatal error|note):')
MODPOST = re.compile(r'^(WARNING|ERROR): modpost: ')
KBUILD = re.compile(r'^  [A-Z]+ ')
LOC = re.compile(r'^[^\s:][^:]*:\d+:\d+: ')


def main():
    log, src = sys.argv[1], os.path.realpath(sys.argv[2])

    def ours(path):
        if not os.path.isabs(path):
            path = os.path.join(src, path)
        return os.path.realpath(path).startswith(src + os.sep)

    found = []
    cur = None          # the current non-note diagnostic: [lines, ours]
    with open(log, errors='replace') as f:
        for raw in f:
            line = raw.rstrip('\n')
            m = DIAG.match(line)
            if m and m.group('kind') != 'note':
                if cur and cur[1]:
                    found.append(cur[0])
                cur = [[line], ours(m.group('path'))]
            elif m and cur:
                cur[0].append(line)
                cur[1] = cur[1] or ours(m.group('path'))
            elif MODPOST.match(line):
                found.append([line])
            elif KBUILD.match(line) or line.startswith('make'):
                continue
            elif line.startswith((' ', '\t')) or LOC.match(line):
                if cur:         # source excerpt, sparse's expected/got
                    cur[0].append(line)
            elif cur:
                if cur[1]:
                    found.append(cur[0])
                cur = None
    if cur and cur[1]:
        found.append(cur[0])
    for diag in found:
        print('\n'.join(diag))
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
