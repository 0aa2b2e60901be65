/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smc_xfer: a data-integrity test over SMC sockets.
 *
 * Wire protocol, all integers big-endian. The client opens a connection
 * and sends a struct xfer_hdr. Then each side sends its stream (len_cs
 * bytes client to server, len_sc bytes server to client, in random-sized
 * writes) followed by a struct xfer_trailer, while reading the other
 * side's stream and checking every byte against the expected generator
 * output and the running checksum (FNV-1a 64 over 64-bit words, see
 * xfer_data.c) against the trailer. Each side
 * then sends a struct xfer_result: the verdict on what it received. With
 * hold_s, the connection then stays idle until the client sends one ping
 * byte, which the server echoes. With XFER_F_ABORT the client closes with
 * SO_LINGER 0 after len_cs bytes and reads nothing.
 */
#ifndef SMC_TOOLS_XFER_H
#define SMC_TOOLS_XFER_H

#include <stdint.h>
#include <netinet/in.h>
#include <sys/socket.h>

#define XFER_MAGIC_HDR		0x534d4358	/* "SMCX" */
#define XFER_MAGIC_RESULT	0x534d4352	/* "SMCR" */
#define XFER_VERSION		1
#define XFER_F_ABORT		0x1
#define XFER_PING		'P'
#define XFER_PONG		'Q'
#define XFER_MAX_CHUNK		(256 * 1024)
/* Longest wait, in seconds, for SMC to finish ending a connection. */
#define XFER_SETTLE_S		10.0

/* Exit statuses */
#define XFER_EXIT_OK		0
#define XFER_EXIT_FAIL		1
#define XFER_EXIT_USAGE		2
#define XFER_EXIT_HOLD		3

struct xfer_hdr {
	uint32_t magic;
	uint32_t version;
	uint32_t flags;
	uint32_t conn_id;
	uint64_t len_cs;
	uint64_t len_sc;
	uint64_t seed;
	uint32_t hold_s;
	uint32_t pad;
};

struct xfer_trailer {
	uint64_t bytes;
	uint64_t csum;
};

enum xfer_status {
	XFER_OK = 0,
	XFER_BAD_DATA = 1,	/* a byte differs from the generator's */
	XFER_BAD_CSUM = 2,	/* the trailer's checksum or count differs */
	XFER_SHORT = 3,		/* the stream ended early */
	XFER_IO = 4,		/* a socket call failed */
};

struct xfer_result {
	uint32_t magic;
	uint32_t status;	/* enum xfer_status */
	uint64_t bytes;
	uint64_t csum;
	uint64_t bad_offset;
};

/* ---- options ---- */

struct xfer_opts {
	int server;
	int v6;
	int tcp;		/* plain TCP sockets instead of AF_SMC */
	const char *addr;
	uint16_t port;
	unsigned int conns;
	uint64_t bytes;
	int bidir;
	uint64_t abort_after;	/* 0: no abort */
	unsigned int hold_s;
	unsigned int timeout_s;
	unsigned int wait_server_s;	/* client: retry refused connects */
	uint64_t seed;
	int verbose;
	int close_at_once;	/* no xfer_close() settling */
	int splice;		/* receive through splice() into a pipe */
};

/* ---- data: generator, chunk sizes, checksum (xfer_data.c) ---- */

struct xfer_gen {
	uint64_t state;
	uint64_t word;
	unsigned int left;	/* unused bytes of word */
};

struct xfer_rng {
	uint64_t state;
};

struct xfer_sum {
	uint64_t h;
	uint64_t word;		/* the bytes of an incomplete word */
	unsigned int fill;	/* how many */
};

#define XFER_DIR_CS	1
#define XFER_DIR_SC	2
#define XFER_FNV_INIT	0xcbf29ce484222325ULL

void xfer_gen_init(struct xfer_gen *g, uint64_t seed, uint32_t conn_id,
		   int dir);
void xfer_gen_fill(struct xfer_gen *g, uint8_t *buf, size_t len);
void xfer_rng_init(struct xfer_rng *r, uint64_t seed, uint32_t conn_id,
		   int dir);
size_t xfer_rng_chunk(struct xfer_rng *r);
void xfer_sum_init(struct xfer_sum *s);
void xfer_sum_update(struct xfer_sum *s, const uint8_t *buf, size_t len);
uint64_t xfer_sum_final(const struct xfer_sum *s);
uint64_t xfer_be64(uint64_t v);
uint32_t xfer_be32(uint32_t v);

/* ---- sockets and streams (xfer_io.c) ---- */

union xfer_addr {
	struct sockaddr sa;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
};

struct xfer_stream {
	uint64_t bytes;		/* bytes moved */
	uint64_t csum;
	uint64_t bad_offset;
	enum xfer_status status;
	int err;		/* errno of a failed call, or 0 */
};

int xfer_socket(const struct xfer_opts *o);
int xfer_addr(const struct xfer_opts *o, const char *host,
	      union xfer_addr *a, socklen_t *len);
void xfer_set_timeout(int fd, unsigned int seconds);
int xfer_read_full(int fd, void *buf, size_t len);
int xfer_write_full(int fd, const void *buf, size_t len);
void xfer_send_stream(int fd, uint64_t seed, uint32_t conn_id, int dir,
		      uint64_t len, int with_trailer, struct xfer_stream *st);
void xfer_recv_stream(int fd, int use_splice, uint64_t seed, uint32_t conn_id,
		      int dir, uint64_t len, int with_trailer,
		      struct xfer_stream *st);
int xfer_send_result(int fd, const struct xfer_stream *st);
int xfer_recv_result(int fd, struct xfer_result *r);
const char *xfer_status_name(enum xfer_status s);
double xfer_now(void);

/* ---- per-connection outcome, summary (xfer_main.c) ---- */

struct xfer_conn {
	uint32_t id;
	int fd;
	const struct xfer_opts *o;
	struct xfer_hdr hdr;	/* host byte order */
	struct xfer_stream tx;
	struct xfer_stream rx;
	struct xfer_result peer;	/* host byte order */
	int ok;			/* the transfer checked out */
	int hold_ok;		/* survived the hold (or no hold) */
	char what[160];		/* how it went, for the report */
	double start, end;
};

int xfer_swap_results(struct xfer_conn *c);
int xfer_hold_end_on_sigusr1(void);
void xfer_hold(struct xfer_conn *c, int client);
void xfer_close(struct xfer_conn *c);
void xfer_report(const char *role, const struct xfer_conn *c, int always);
int xfer_summary(const char *role, struct xfer_conn *conns, unsigned int n);
int xfer_client(const struct xfer_opts *o);
int xfer_server(const struct xfer_opts *o);

#endif /* SMC_TOOLS_XFER_H */
