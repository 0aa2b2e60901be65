# SPDX-License-Identifier: GPL-2.0
#
# Sphinx configuration for this project's documentation. The kernel-doc
# directive and its C domain come from a Linux source tree (the one the
# tests build, see tools/testing/ism/htmldocs.sh), named by ISM_KERNEL_TREE,
# so the documents render exactly as they would in the kernel's own tree.

import os
import sys

kernel_tree = os.environ.get('ISM_KERNEL_TREE')
if not kernel_tree:
    sys.exit('conf.py: set ISM_KERNEL_TREE to a Linux source tree')
sys.path.insert(0, os.path.join(kernel_tree, 'Documentation', 'sphinx'))

project = 'ISM'
copyright = 'The ISM layer authors'
extensions = ['kerneldoc']
master_doc = 'index'
exclude_patterns = ['output']

# kernel-doc paths in the documents are relative to this repository.
kerneldoc_bin = os.path.join(kernel_tree, 'scripts', 'kernel-doc')
kerneldoc_srctree = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')

html_theme = 'alabaster'
