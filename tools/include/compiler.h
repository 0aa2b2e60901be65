/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's attribute macros (and ARRAY_SIZE) that the userspace tools
 * use, so that their code reads like the kernel's.
 */
#ifndef ISM_TOOLS_COMPILER_H
#define ISM_TOOLS_COMPILER_H

#ifndef __printf
#define __printf(a, b)	__attribute__((__format__(printf, a, b)))
#endif

#ifndef __noreturn
#define __noreturn	__attribute__((__noreturn__))
#endif

#ifndef __maybe_unused
#define __maybe_unused	__attribute__((__unused__))
#endif

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#endif /* ISM_TOOLS_COMPILER_H */
