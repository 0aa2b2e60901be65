#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""modorder.py KROOT "KMODS" KO...: print the modules to load, one path
a line, dependencies first: our KO files plus the in-tree modules named
in KMODS (space separated), plus every module any of them depends on
(modinfo -F depends), looked up in KROOT's modules.order (a kernel build
tree or /lib/modules/VERSION). Ties keep in-tree modules first, then
ours, then the KUnit (*_kunit) modules. Exits 1 if a module is missing."""
import os
import subprocess
import sys


def norm(name):
    return name.replace('-', '_')


def modname(path):
    base = os.path.basename(path)
    return norm(base.split('.ko')[0])


def depends(path):
    out = subprocess.run(['modinfo', '-F', 'depends', path], check=True,
                         capture_output=True, text=True).stdout.strip()
    return [norm(d) for d in out.split(',') if d]


def kernel_index(kroot):
    index = {}
    order = os.path.join(kroot, 'modules.order')
    if os.path.exists(order):
        with open(order) as f:
            paths = [os.path.join(kroot, ln.strip()) for ln in f if ln.strip()]
    else:
        paths = [os.path.join(d, n) for d, _, ns in os.walk(kroot) for n in ns]
    for p in paths:
        for suffix in ('', '.xz', '.gz', '.zst'):
            if p.endswith('.ko') and os.path.exists(p + suffix):
                index[modname(p)] = p + suffix
                break
    return index


def builtin_names(kroot):
    path = os.path.join(kroot, 'modules.builtin')
    if not os.path.exists(path):
        return set()
    with open(path) as f:
        return {modname(ln.strip()) for ln in f if ln.strip()}


def main():
    kroot, kmods, ours = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
    index = kernel_index(kroot)
    # An in-tree module built into this kernel (veth in the debug kernel,
    # a module in Debian's) needs no loading.
    builtin = builtin_names(kroot)
    kmods = [n for n in kmods if norm(n) not in builtin]
    mods = {}           # name -> (rank, path)
    for p in ours:
        n = modname(p)
        mods[n] = (2 if n.endswith('_kunit') else 1, os.path.abspath(p))
    for n in kmods:
        if norm(n) not in index:
            sys.exit(f'modorder: in-tree module {n} not found in {kroot}')
    deps = {}
    todo = list(mods) + [norm(n) for n in kmods]
    while todo:
        n = todo.pop()
        if n in deps:
            continue
        if n not in mods:
            if n not in index:
                sys.exit(f'modorder: module {n} (a dependency) not found in {kroot}')
            mods[n] = (0, index[n])
        deps[n] = depends(mods[n][1])
        todo.extend(deps[n])

    done, order = set(), []
    while len(order) < len(mods):
        ready = [n for n in mods if n not in done and
                 all(d in done for d in deps[n])]
        if not ready:
            sys.exit('modorder: dependency cycle among ' +
                     ' '.join(sorted(set(mods) - done)))
        n = min(ready, key=lambda m: (mods[m][0], m))
        done.add(n)
        order.append(mods[n][1])
    print('\n'.join(order))


if __name__ == '__main__':
    main()
