// SPDX-License-Identifier: GPL-2.0
/*
 * make check: nl_attr_parse_policy(), the check every tool runs on the
 * attributes of a kernel reply before it reads one. Each row builds an
 * attribute stream byte by byte, well-formed or not, and states what the
 * parse must return and which types it must leave in the table; a
 * malformed stream must be -EPROTO, never a table entry pointing at bytes
 * that do not belong to it. Prints KTAP.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nl.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

enum {
	T_PAD, T_U8, T_U16, T_U32, T_U64, T_STR, T_MAC, T_BLOB, T_FLAG,
	T_NEST, T_MAX = T_NEST,
};

static const struct nl_policy policy[T_MAX + 1] = {
	[T_PAD] = { "pad", NL_ATTR_UNSPEC },
	[T_U8] = { "u8", NL_ATTR_U8 },
	[T_U16] = { "u16", NL_ATTR_U16 },
	[T_U32] = { "u32", NL_ATTR_U32 },
	[T_U64] = { "u64", NL_ATTR_U64 },
	[T_STR] = { "str", NL_ATTR_STRING },
	[T_MAC] = { "mac", NL_ATTR_BINARY, 6 },
	[T_BLOB] = { "blob", NL_ATTR_BINARY },
	[T_FLAG] = { "flag", NL_ATTR_FLAG },
	[T_NEST] = { "nest", NL_ATTR_NESTED },
};

/*
 * An attribute as a row writes it: @len payload bytes of @data (zeroes if
 * NULL), or whole attributes @nest (up to END). With @lie, the header's
 * length is @nla_len rather than the true one.
 */
struct attr {
	uint16_t type;
	uint16_t len;
	const char *data;
	const struct attr *nest;
	int lie;
	uint16_t nla_len;
};

#define END		{ .type = 0 }
#define ATTRS(...)	((const struct attr[]){ __VA_ARGS__, END })
#define A(t, l, d)	{ .type = (t), .len = (l), .data = (d) }
#define LIE(t, l, n)	{ .type = (t), .len = (l), .lie = 1, .nla_len = (n) }
#define NEST(t, ...)	{ .type = (t), .nest = ATTRS(__VA_ARGS__) }
#define LIE_NEST(t, n, ...) \
	{ .type = (t), .nest = ATTRS(__VA_ARGS__), .lie = 1, .nla_len = (n) }

struct row {
	const char *what;
	const struct attr *attrs;
	unsigned int cut;	/* bytes cut off the end of the stream */
	int ret;
	unsigned int set;	/* bit T: tb[T] set after a 0 return */
};

#define BAD(w, ...)	{ .what = (w), .attrs = ATTRS(__VA_ARGS__), .ret = -EPROTO }
#define GOOD(w, s, ...)	{ .what = (w), .attrs = ATTRS(__VA_ARGS__), .set = (s) }
#define BIT(t)		(1u << (t))

static const struct row rows[] = {
	GOOD("every kind, well-formed",
	     BIT(T_U8) | BIT(T_U16) | BIT(T_U32) | BIT(T_U64) | BIT(T_STR) |
	     BIT(T_MAC) | BIT(T_BLOB) | BIT(T_FLAG) | BIT(T_NEST),
	     A(T_U8, 1, "\x07"), A(T_U16, 2, NULL), A(T_U32, 4, NULL),
	     A(T_U64, 8, NULL), A(T_STR, 4, "abc"), A(T_MAC, 6, NULL),
	     A(T_BLOB, 3, "xyz"), A(T_FLAG, 0, NULL),
	     NEST(T_NEST, A(1, 4, NULL), A(2, 1, NULL))),
	{ .what = "empty stream", .attrs = (const struct attr[]){ END } },
	BAD("u8 of 0 bytes", A(T_U8, 0, NULL)),
	BAD("u16 of 4 bytes", A(T_U16, 4, NULL)),
	BAD("u32 of 2 bytes", A(T_U32, 2, NULL)),
	BAD("u32 of 8 bytes", A(T_U32, 8, NULL)),
	BAD("u64 of 4 bytes", A(T_U64, 4, NULL)),
	BAD("string without NUL", A(T_STR, 3, "abc")),
	BAD("string of 0 bytes", A(T_STR, 0, NULL)),
	GOOD("string \"\"", BIT(T_STR), A(T_STR, 1, "")),
	GOOD("string with a NUL inside", BIT(T_STR), A(T_STR, 4, "a\0b")),
	BAD("binary of 5 bytes, 6 expected", A(T_MAC, 5, NULL)),
	BAD("binary of 7 bytes, 6 expected", A(T_MAC, 7, NULL)),
	GOOD("binary of any length, 0 bytes", BIT(T_BLOB), A(T_BLOB, 0, NULL)),
	BAD("flag with a payload", A(T_FLAG, 4, NULL)),
	GOOD("empty nest", BIT(T_NEST), { .type = T_NEST, .nest = ATTRS(END) }),
	BAD("nest holding a cut-off attribute",
	    NEST(T_NEST, A(1, 4, NULL), LIE(2, 4, NLA_HDRLEN + 8))),
	BAD("nest holding a header-less attribute", NEST(T_NEST, LIE(1, 4, 2))),
	BAD("nest whose length cuts its last attribute",
	    LIE_NEST(T_NEST, NLA_HDRLEN + 10, A(1, 4, NULL), A(2, 4, NULL))),
	GOOD("types above the policy: skipped", BIT(T_U8),
	     A(T_MAX + 1, 3, NULL), A((uint16_t)NLA_TYPE_MASK, 0, NULL), A(T_U8, 1, NULL)),
	GOOD("unspec type of any size: skipped", BIT(T_U16),
	     A(T_PAD, 5, NULL), A(T_U16, 2, NULL)),
	GOOD("type with NLA_F_NESTED set", BIT(T_U32),
	     A(T_U32 | NLA_F_NESTED, 4, NULL)),
	BAD("malformed after well-formed", A(T_U8, 1, NULL), A(T_U32, 3, NULL)),
	BAD("well-formed after malformed", A(T_U32, 3, NULL), A(T_U8, 1, NULL)),
	BAD("length past the end of the stream",
	    A(T_U8, 1, NULL), LIE(T_U32, 4, 64)),
	BAD("length below the header", LIE(T_U32, 4, NLA_HDRLEN - 1)),
	BAD("length 0", LIE(T_U32, 4, 0)),
	{ .what = "stream ends inside a header", .cut = 6, .ret = -EPROTO,
	  .attrs = ATTRS(A(T_U16, 2, NULL), A(T_U8, 1, NULL)) },
	{ .what = "stream ends inside a payload", .cut = 4, .ret = -EPROTO,
	  .attrs = ATTRS(A(T_U64, 8, NULL)) },
	{ .what = "last attribute's padding cut off", .cut = 3,
	  .set = BIT(T_U16) | BIT(T_U8),
	  .attrs = ATTRS(A(T_U16, 2, NULL), A(T_U8, 1, NULL)) },
};

/*
 * Write @attrs at @buf (room for @size bytes); return the bytes written,
 * or 0 if they do not fit.
 */
static size_t put_attrs(char *buf, size_t size, const struct attr *attrs)
{
	size_t off = 0, len;
	const struct attr *at;
	struct nlattr *a;

	for (at = attrs; at->type || at->len || at->nest || at->lie; at++) {
		if (size - off < NLA_HDRLEN)
			return 0;
		a = (struct nlattr *)(buf + off);
		if (at->nest) {
			len = put_attrs(buf + off + NLA_HDRLEN,
					size - off - NLA_HDRLEN, at->nest);
		} else {
			len = at->len;
			if (NLA_ALIGN(len) > size - off - NLA_HDRLEN)
				return 0;
			memset(buf + off + NLA_HDRLEN, 0, NLA_ALIGN(len));
			if (at->data)
				memcpy(buf + off + NLA_HDRLEN, at->data, len);
		}
		a->nla_type = at->type;
		a->nla_len = at->lie ? at->nla_len : NLA_HDRLEN + len;
		off += NLA_HDRLEN + NLA_ALIGN(len);
	}
	return off;
}

/* Every table entry set must point into the stream, at a whole attribute. */
static int tb_in_stream(const struct nlattr **tb, const char *buf,
			size_t len)
{
	const char *p;
	int t;

	for (t = 0; t <= T_MAX; t++) {
		p = (const char *)tb[t];
		if (!p)
			continue;
		if (p < buf || p + NLA_HDRLEN > buf + len ||
		    p + tb[t]->nla_len > buf + len || nl_attr_type(tb[t]) != t)
			return 0;
	}
	return 1;
}

static int run_row(const struct row *r)
{
	const struct nlattr *tb[T_MAX + 1];
	unsigned int set = 0;
	char buf[512];
	size_t len;
	int ret, t;

	memset(buf, 0xa5, sizeof(buf));
	len = put_attrs(buf, sizeof(buf), r->attrs);
	if (len < r->cut) {
		printf("# %s: the row does not fit its own cut\n", r->what);
		return 0;
	}
	len -= r->cut;
	ret = nl_attr_parse_policy(buf, len, tb, T_MAX, policy);
	for (t = 0; t <= T_MAX; t++)
		if (tb[t])
			set |= 1u << t;
	if (ret != r->ret) {
		printf("# %s: returned %d, expected %d\n", r->what, ret, r->ret);
		return 0;
	}
	if (!tb_in_stream(tb, buf, len)) {
		printf("# %s: a table entry outside the stream\n", r->what);
		return 0;
	}
	if (!ret && set != r->set) {
		printf("# %s: types set 0x%x, expected 0x%x\n", r->what, set,
		       r->set);
		return 0;
	}
	return 1;
}

int main(void)
{
	unsigned int i, failed = 0;

	printf("KTAP version 1\n1..%zu\n", ARRAY_SIZE(rows));
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		if (!run_row(&rows[i])) {
			failed++;
			printf("not ok %u %s\n", i + 1, rows[i].what);
		} else {
			printf("ok %u %s\n", i + 1, rows[i].what);
		}
	}
	printf("# %zu passed, %u failed\n", ARRAY_SIZE(rows) - failed, failed);
	return failed ? 1 : 0;
}
