/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SMC CLC decline codes (fallback reasons) of Linux 6.1.
 */
#ifndef SMC_TOOLS_SMC_DECL_H
#define SMC_TOOLS_SMC_DECL_H

#include <stdint.h>

const char *smc_decl_name(uint32_t code);
const char *smc_decl_text(uint32_t code);

#endif /* SMC_TOOLS_SMC_DECL_H */
