// SPDX-License-Identifier: GPL-2.0
/*
 * smc_xfer data: the byte streams, the write and read sizes, and the
 * FNV-1a 64 checksum. Each stream is a function of (seed, connection,
 * direction) only, so the receiver can recompute it and check each byte.
 */
#include <endian.h>
#include <string.h>

#include "xfer.h"

/* splitmix64: spreads similar seeds over the whole state space. */
static uint64_t xfer_mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* xorshift64*: the state never becomes 0 if it does not start at 0. */
static uint64_t xfer_next(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

static uint64_t xfer_seed(uint64_t seed, uint32_t conn_id, int dir,
			  uint64_t purpose)
{
	uint64_t s = xfer_mix(seed ^ xfer_mix(((uint64_t)conn_id << 8 | dir) ^
					      purpose));

	return s ? s : 1;
}

void xfer_gen_init(struct xfer_gen *g, uint64_t seed, uint32_t conn_id,
		   int dir)
{
	g->state = xfer_seed(seed, conn_id, dir, 0x64617461 /* data */);
	g->left = 0;
}

void xfer_gen_fill(struct xfer_gen *g, uint8_t *buf, size_t len)
{
	while (len && g->left) {
		*buf++ = g->word;
		g->word >>= 8;
		g->left--;
		len--;
	}
	while (len >= 8) {
		uint64_t w = htole64(xfer_next(&g->state));

		memcpy(buf, &w, 8);
		buf += 8;
		len -= 8;
	}
	if (len) {
		g->word = xfer_next(&g->state);
		g->left = 8;
		while (len--) {
			*buf++ = g->word;
			g->word >>= 8;
			g->left--;
		}
	}
}

void xfer_rng_init(struct xfer_rng *r, uint64_t seed, uint32_t conn_id,
		   int dir)
{
	r->state = xfer_seed(seed, conn_id, dir, 0x73697a65 /* size */);
}

/* 1 B .. 256 KiB, log-uniform: as many tiny writes as huge ones. */
size_t xfer_rng_chunk(struct xfer_rng *r)
{
	uint64_t v = xfer_next(&r->state);
	unsigned int bits = (v >> 59) % 19;	/* 0 .. 18 */

	return 1 + (v & ((1ULL << bits) - 1));
}

/*
 * The checksum: FNV-1a 64 taken over the stream's 64-bit little-endian
 * words rather than its bytes (eight times fewer multiplications; this
 * matters under emulation), the last partial word zero-padded. The state
 * carries a partial word, so the result does not depend on how the
 * stream was cut into reads and writes.
 */
static void xfer_sum_mix(struct xfer_sum *s, uint64_t w)
{
	s->h ^= w;
	s->h *= 0x100000001b3ULL;
}

void xfer_sum_init(struct xfer_sum *s)
{
	s->h = XFER_FNV_INIT;
	s->word = 0;
	s->fill = 0;
}

void xfer_sum_update(struct xfer_sum *s, const uint8_t *buf, size_t len)
{
	while (len && s->fill) {
		s->word |= (uint64_t)*buf++ << (8 * s->fill);
		len--;
		if (++s->fill == 8) {
			xfer_sum_mix(s, s->word);
			s->word = 0;
			s->fill = 0;
		}
	}
	while (len >= 8) {
		uint64_t w;

		memcpy(&w, buf, 8);
		xfer_sum_mix(s, le64toh(w));
		buf += 8;
		len -= 8;
	}
	while (len--)
		s->word |= (uint64_t)*buf++ << (8 * s->fill++);
}

uint64_t xfer_sum_final(const struct xfer_sum *s)
{
	struct xfer_sum t = *s;

	if (t.fill)
		xfer_sum_mix(&t, t.word);
	return t.h;
}

uint64_t xfer_be64(uint64_t v)
{
	return htobe64(v);
}

uint32_t xfer_be32(uint32_t v)
{
	return htobe32(v);
}
