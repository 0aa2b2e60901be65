#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ynl-attr-table.py YNL_DIR SPEC: print tools/ism/attr-gen.h.

The attribute tables of ismctl (tools/ism/attr.c) and ism_fault, the
tools' netlink layer's view of the spec (struct nl_policy of
tools/lib/nl/nl.h): for every attribute set, each attribute's spec name,
kind and exact length. YNL_DIR is tools/net/ynl of the kernel tree whose spec
parser (lib/nlspec.py) reads SPEC; ynl-gen.sh runs this.
"""
import os
import sys

# The kinds the layer checks; pad and unused attributes stay out of the
# tables (NL_ATTR_UNSPEC): a reader skips them.
NL_KINDS = {
    'u8': 'NL_ATTR_U8',
    'u16': 'NL_ATTR_U16',
    'u32': 'NL_ATTR_U32',
    'u64': 'NL_ATTR_U64',
    'string': 'NL_ATTR_STRING',
    'binary': 'NL_ATTR_BINARY',
    'flag': 'NL_ATTR_FLAG',
    'nest': 'NL_ATTR_NESTED',
}


def c_upper(name):
    return name.upper().replace('-', '_')


def c_lower(name):
    return name.lower().replace('-', '_')


def exact_len(family, attr):
    """The C expression of the attribute's exact-len check, or None."""
    value = attr.yaml.get('checks', {}).get('exact-len')
    if value is None or isinstance(value, int):
        return value
    if value in family.consts:
        return c_upper(f"{family.name}-{value}")
    return c_upper(value)


def table(family, aset):
    """Lines of the C table of one attribute set."""
    prefix = aset.yaml['name-prefix']
    name = c_lower(aset.yaml['enum-name'])
    size = c_upper(aset.yaml['attr-max-name'])
    lines = [f"static const struct nl_policy {name}_info[{size} + 1] = {{"]
    for attr in aset.attrs.values():
        kind = NL_KINDS.get(attr.type)
        if kind is None:
            continue
        length = exact_len(family, attr)
        fields = [f'"{attr.name}"', kind] + ([str(length)] if length else [])
        lines.append(f"\t[{c_upper(prefix + attr.name)}] = {{ {', '.join(fields)} }},")
    lines.append('};')
    return lines


def main():
    ynl_dir, spec = sys.argv[1:3]
    sys.path.insert(0, ynl_dir)
    from lib import SpecFamily  # pylint: disable=import-outside-toplevel

    family = SpecFamily(spec)
    out = [
        '/* SPDX-License-Identifier: GPL-2.0 */',
        '/* Do not edit directly, auto-generated from: */',
        f'/*\t{os.path.relpath(spec)} */',
        '/* by tools/testing/ism/ynl-attr-table.py */',
        '#ifndef ISM_ATTR_GEN_H',
        '#define ISM_ATTR_GEN_H',
        '',
        '#include <linux/ism.h>',
        '#include "../lib/nl/nl.h"',
    ]
    for aset in family.attr_sets.values():
        if aset.subset_of:
            continue
        out += [''] + table(family, aset)
    out += ['', '#endif /* ISM_ATTR_GEN_H */']
    print('\n'.join(out))


if __name__ == '__main__':
    main()
