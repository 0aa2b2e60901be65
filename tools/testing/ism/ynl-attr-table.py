#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ynl-attr-table.py YNL_DIR SPEC: print tools/ism/attr-gen.h.

The attribute tables of ismctl (tools/ism/attr.c), libmnl's view of the
spec: for every attribute set, each attribute's spec name, libmnl type and
exact length. YNL_DIR is tools/net/ynl of the kernel tree whose spec
parser (lib/nlspec.py) reads SPEC; ynl-gen.sh runs this.
"""
import os
import sys

# Types libmnl checks; pad and unused attributes stay out of the tables
# (MNL_TYPE_UNSPEC): a reader skips them.
MNL_TYPES = {
    'u8': 'MNL_TYPE_U8',
    'u16': 'MNL_TYPE_U16',
    'u32': 'MNL_TYPE_U32',
    'u64': 'MNL_TYPE_U64',
    'string': 'MNL_TYPE_NUL_STRING',
    'binary': 'MNL_TYPE_BINARY',
    'flag': 'MNL_TYPE_FLAG',
    'nest': 'MNL_TYPE_NESTED',
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
    lines = [f"static const struct ism_attr_info {name}_info[{size} + 1] = {{"]
    for attr in aset.attrs.values():
        mnl = MNL_TYPES.get(attr.type)
        if mnl is None:
            continue
        length = exact_len(family, attr)
        fields = [f'"{attr.name}"', mnl] + ([str(length)] if length else [])
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
        '#include <stddef.h>',
        '#include <libmnl/libmnl.h>',
        '#include <linux/ism.h>',
        '',
        '/* An attribute as the spec has it; len: exact length, if checked. */',
        'struct ism_attr_info {',
        '\tconst char *name;',
        '\tenum mnl_attr_data_type type;',
        '\tsize_t len;',
        '};',
    ]
    for aset in family.attr_sets.values():
        if aset.subset_of:
            continue
        out += [''] + table(family, aset)
    out += ['', '#endif /* ISM_ATTR_GEN_H */']
    print('\n'.join(out))


if __name__ == '__main__':
    main()
