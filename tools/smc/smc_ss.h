/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smc_ss: one AF_SMC socket as reported by smc_diag, and its output.
 */
#ifndef SMC_TOOLS_SMC_SS_H
#define SMC_TOOLS_SMC_SS_H

#include <stdint.h>
#include <linux/smc_diag.h>

/* Effective modes: the kernel reports SMCR for sockets without any link. */
enum ss_mode {
	SS_MODE_NONE,
	SS_MODE_SMCR,
	SS_MODE_SMCD,
	SS_MODE_TCP,
};

struct ss_sock {
	uint8_t state;
	uint8_t diag_mode;	/* as reported: SMC_DIAG_MODE_* */
	enum ss_mode mode;
	uint8_t shutdown;
	int v6;			/* guessed from the addresses, see smc_ss.c */
	uint8_t src[16];
	uint8_t dst[16];
	uint16_t sport;
	uint16_t dport;
	uint32_t ifindex;
	uint32_t uid;
	uint64_t inode;
	int has_fallback;
	struct smc_diag_fallback fallback;
	int has_conn;
	struct smc_diag_conninfo conn;
	int has_dmb;
	struct smcd_diag_dmbinfo dmb;
	int has_lgr;
	struct smc_diag_lgrinfo lgr;
};

const char *ss_state_name(uint8_t state);
const char *ss_mode_name(enum ss_mode mode);
void ss_text_header(void);
void ss_text(const struct ss_sock *s, int extended);
void ss_json_begin(void);
void ss_json(const struct ss_sock *s, int first);
void ss_json_end(void);

#endif /* SMC_TOOLS_SMC_SS_H */
