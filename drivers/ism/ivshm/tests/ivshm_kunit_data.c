// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: what peers exchange through the virtual ISM region (DMB
 * descriptors, signals, event queues), with the values a hostile peer
 * could write into each.
 */
#include <linux/random.h>
#include <linux/string.h>

#include "ivshm_kunit.h"

#define OWNER	3
#define IDX	5

static const uuid_t writer = { .b = { 0xaa, 1, 2, 3, 4, 5, 6, 7 } };
static const uuid_t other = { .b = { 0xbb, 1, 2, 3, 4, 5, 6, 7 } };

static u64 ivshm_test_publish(struct ivshm_test_region *r, u32 offset,
			      u32 len)
{
	u64 token = ivshm_token(OWNER, IDX, get_random_u64());
	struct ivshm_dmb_desc d = {
		.token = cpu_to_le64(token),
		.offset = cpu_to_le32(offset),
		.len = cpu_to_le32(len),
	};

	export_uuid(d.rgid, &writer);
	ivshm_publish_dmb(&r->geo, r->mem, OWNER, IDX, &d);
	return token;
}

static void ivshm_dmb_found(struct kunit *test)
{
	struct ivshm_test_region *r = test->priv;
	u64 token = ivshm_test_publish(r, 2 * IVSHM_UNIT, 5000), data;
	u32 len;

	KUNIT_ASSERT_EQ(test, ivshm_find_dmb(&r->geo, r->mem, token, &writer,
					     &data, &len, NULL), 0);
	KUNIT_EXPECT_EQ(test, len, 5000U);
	KUNIT_EXPECT_PTR_EQ(test, r->mem + data,
			    ivshm_data(&r->geo, r->mem, OWNER, 2 * IVSHM_UNIT));
	KUNIT_EXPECT_EQ(test, ivshm_find_dmb(&r->geo, r->mem, token, &other,
					     &data, &len, NULL), -EACCES);
	KUNIT_EXPECT_EQ(test, ivshm_find_dmb(&r->geo, r->mem, token ^ BIT(40),
					     &writer, &data, &len, NULL), -ENOENT);
	/* The same index in another partition holds nothing. */
	KUNIT_EXPECT_EQ(test, ivshm_find_dmb(&r->geo, r->mem,
			token ^ BIT(IVSHM_TOKEN_IDX_BITS), &writer, &data,
			&len, NULL), -ENOENT);
	ivshm_retract_dmb(&r->geo, r->mem, OWNER, IDX);
	KUNIT_EXPECT_EQ(test, ivshm_find_dmb(&r->geo, r->mem, token, &writer,
					     &data, &len, NULL), -ENOENT);
	/* A whole data area is one DMB. */
	token = ivshm_test_publish(r, 0, r->geo.data_len);
	KUNIT_EXPECT_EQ(test, ivshm_find_dmb(&r->geo, r->mem, token, &writer,
					     &data, &len, NULL), 0);
	KUNIT_EXPECT_EQ(test, data + len, r->geo.part_off +
			(OWNER + 1) * r->geo.part_size);
}

/* Descriptors whose range leaves the owner's data area, or is unaligned. */
static void ivshm_dmb_malformed(struct kunit *test)
{
	struct ivshm_test_region *r = test->priv;
	u32 dl = r->geo.data_len;
	const struct { u32 offset, len; } bad[] = {
		{ 0, 0 },
		{ 1, 100 },
		{ IVSHM_UNIT - 1, 100 },
		{ 0, dl + 1 },
		{ IVSHM_UNIT, dl },
		{ dl, 1 },
		{ dl - IVSHM_UNIT, IVSHM_UNIT + 1 },
		{ ALIGN_DOWN(U32_MAX, IVSHM_UNIT), IVSHM_UNIT },
		{ IVSHM_UNIT, U32_MAX },
		{ 0, U32_MAX },
	};
	u64 token, data = 77;
	unsigned int i;
	u32 len = 88;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		token = ivshm_test_publish(r, bad[i].offset, bad[i].len);
		KUNIT_EXPECT_EQ_MSG(test, ivshm_find_dmb(&r->geo, r->mem,
				    token, &writer, &data, &len, NULL), -EBADMSG,
				    "offset %u len %u", bad[i].offset,
				    bad[i].len);
	}
	KUNIT_EXPECT_EQ(test, data, 77ULL);
	KUNIT_EXPECT_EQ(test, len, 88U);
}

struct ivshm_taken {
	unsigned int n;
	u32 idx[8];
	u16 mask[8];
};

static void ivshm_test_deliver(void *ctx, u32 idx, u16 mask)
{
	struct ivshm_taken *t = ctx;

	if (t->n < ARRAY_SIZE(t->idx)) {
		t->idx[t->n] = idx;
		t->mask[t->n] = mask;
	}
	t->n++;
}

static void ivshm_signals(struct kunit *test)
{
	struct ivshm_test_region *r = test->priv;
	u32 last = r->geo.max_dmbs - 1;
	struct ivshm_taken t = { };

	/* Only a signal into an empty summary word asks for a wake-up. */
	KUNIT_EXPECT_TRUE(test, ivshm_signal(&r->geo, r->mem, OWNER, 0, BIT(0)));
	KUNIT_EXPECT_FALSE(test, ivshm_signal(&r->geo, r->mem, OWNER, 0, BIT(15)));
	KUNIT_EXPECT_FALSE(test, ivshm_signal(&r->geo, r->mem, OWNER, 31, BIT(3)));
	KUNIT_EXPECT_TRUE(test, ivshm_signal(&r->geo, r->mem, OWNER, 32, BIT(4)));
	/* In the word of 32 or in a later one. */
	KUNIT_EXPECT_EQ(test, ivshm_signal(&r->geo, r->mem, OWNER, last,
					   BIT(5)), last / 32 != 1);
	/* Another partition's signals are not this one's. */
	ivshm_signal(&r->geo, r->mem, OWNER + 1, 1, BIT(1));
	KUNIT_ASSERT_EQ(test, ivshm_take_signals(&r->geo, r->mem, OWNER,
						 ivshm_test_deliver, &t), 4U);
	KUNIT_EXPECT_EQ(test, t.idx[0], 0U);
	KUNIT_EXPECT_EQ(test, t.mask[0], (u16)(BIT(0) | BIT(15)));
	KUNIT_EXPECT_EQ(test, t.idx[1], 31U);
	KUNIT_EXPECT_EQ(test, t.mask[1], (u16)BIT(3));
	KUNIT_EXPECT_EQ(test, t.idx[2], 32U);
	KUNIT_EXPECT_EQ(test, t.idx[3], last);
	KUNIT_EXPECT_EQ(test, t.mask[3], (u16)BIT(5));
	t.n = 0;
	KUNIT_EXPECT_EQ(test, ivshm_take_signals(&r->geo, r->mem, OWNER,
						 ivshm_test_deliver, &t), 0U);
	/* Cleared bits are not delivered; taken words ask for a wake-up again. */
	KUNIT_EXPECT_TRUE(test, ivshm_signal(&r->geo, r->mem, OWNER, 7, BIT(2)));
	ivshm_clear_signals(&r->geo, r->mem, OWNER, 7);
	KUNIT_EXPECT_EQ(test, ivshm_take_signals(&r->geo, r->mem, OWNER,
						 ivshm_test_deliver, &t), 0U);
	KUNIT_EXPECT_EQ(test, ivshm_take_signals(&r->geo, r->mem, OWNER + 1,
						 ivshm_test_deliver, &t), 1U);
}

/* What a hostile peer can put in a signal area, and nothing comes of it. */
static void ivshm_signals_hostile(struct kunit *test)
{
	struct ivshm_test_region *r = test->priv;
	void *sig = ivshm_data(&r->geo, r->mem, OWNER, 0) - r->geo.data_off +
		    r->geo.sig_off;
	u32 words = DIV_ROUND_UP(r->geo.max_dmbs, 32);
	__le32 *summary = sig, *dmbe = summary + words;
	struct ivshm_taken t = { };

	/* Summary bits with no mask, and all bits of every summary word. */
	memset(summary, 0xff, words * 4);
	KUNIT_EXPECT_EQ(test, ivshm_take_signals(&r->geo, r->mem, OWNER,
						 ivshm_test_deliver, &t), 0U);
	KUNIT_EXPECT_FALSE(test, memchr_inv(summary, 0, words * 4));
	/* Masks beyond the 16 dmbe bits are dropped with the rest. */
	memset(summary, 0xff, words * 4);
	dmbe[9] = cpu_to_le32(0xffff0000);
	dmbe[10] = cpu_to_le32(0xffffffff);
	KUNIT_EXPECT_EQ(test, ivshm_take_signals(&r->geo, r->mem, OWNER,
						 ivshm_test_deliver, &t), 1U);
	KUNIT_EXPECT_EQ(test, t.idx[0], 10U);
	KUNIT_EXPECT_EQ(test, t.mask[0], (u16)0xffff);
	KUNIT_EXPECT_FALSE(test, memchr_inv(dmbe, 0, r->geo.max_dmbs * 4));
}

/*
 * With a DMB count that is not a multiple of 32, the last summary word
 * has bits for indexes that do not exist, and their dmbe masks would lie
 * past the signal area, in the event queues: a peer setting those bits
 * gets nothing delivered and nothing there is read or cleared.
 */
static void ivshm_signals_odd_count(struct kunit *test)
{
	struct ivshm_test_region *r = test->priv;
	const u32 dmbs = 40, words = DIV_ROUND_UP(dmbs, 32);
	struct ivshm_taken t = { };
	__le32 *summary, *beyond;
	struct ivshm_geo geo;

	KUNIT_ASSERT_EQ(test, ivshm_geometry(&geo, IVSHM_TEST_SIZE,
					     IVSHM_TEST_PEERS, dmbs,
					     IVSHM_TEST_EVQ), 0);
	ivshm_format(r->mem, &geo);
	summary = ivshm_data(&geo, r->mem, OWNER, 0) - geo.data_off +
		  geo.sig_off;
	/* Where the masks of indexes 40 to 63 would be. */
	beyond = summary + words + dmbs;
	memset(beyond, 0x5a, (words * 32 - dmbs) * 4);
	memset(summary, 0xff, words * 4);
	KUNIT_EXPECT_EQ(test, ivshm_take_signals(&geo, r->mem, OWNER,
						 ivshm_test_deliver, &t), 0U);
	KUNIT_EXPECT_FALSE(test, memchr_inv(beyond, 0x5a,
					    (words * 32 - dmbs) * 4));
	/* The last real index still works. */
	ivshm_signal(&geo, r->mem, OWNER, dmbs - 1, BIT(2));
	KUNIT_EXPECT_EQ(test, ivshm_take_signals(&geo, r->mem, OWNER,
						 ivshm_test_deliver, &t), 1U);
	KUNIT_EXPECT_EQ(test, t.idx[0], dmbs - 1);
}

static void ivshm_events(struct kunit *test)
{
	struct ivshm_test_region *r = test->priv;
	struct ism_event ev = { .type = ISM_EVT_SWR, .code = 7, .info = 9 };
	struct ism_event got;
	u64 seq;

	KUNIT_EXPECT_EQ(test, ivshm_evq_head(&r->geo, r->mem, 2, 4), 0ULL);
	for (seq = 1; seq <= 3; seq++) {
		ev.info = seq;
		ivshm_post_event(&r->geo, r->mem, 2, 4, seq, &ev);
	}
	KUNIT_EXPECT_EQ(test, ivshm_evq_head(&r->geo, r->mem, 2, 4), 3ULL);
	KUNIT_EXPECT_EQ(test, ivshm_evq_head(&r->geo, r->mem, 2, 5), 0ULL);
	KUNIT_EXPECT_EQ(test, ivshm_evq_head(&r->geo, r->mem, 4, 2), 0ULL);
	for (seq = 1; seq <= 3; seq++) {
		KUNIT_ASSERT_EQ(test, ivshm_read_event(&r->geo, r->mem, 2, 4,
						       seq, &got), 0);
		KUNIT_EXPECT_EQ(test, got.type, (u32)ISM_EVT_SWR);
		KUNIT_EXPECT_EQ(test, got.code, 7U);
		KUNIT_EXPECT_EQ(test, got.info, seq);
	}
	KUNIT_EXPECT_EQ(test, ivshm_read_event(&r->geo, r->mem, 2, 4, 4, &got),
			-EAGAIN);
	/* Wrapped: the oldest entries hold newer events. */
	ev.type = ISM_EVT_DMB;
	for (seq = 4; seq <= r->geo.evq_len + 2; seq++) {
		ev.token = seq;
		ivshm_post_event(&r->geo, r->mem, 2, 4, seq, &ev);
	}
	KUNIT_EXPECT_EQ(test, ivshm_read_event(&r->geo, r->mem, 2, 4, 1, &got),
			-EAGAIN);
	KUNIT_ASSERT_EQ(test, ivshm_read_event(&r->geo, r->mem, 2, 4,
					       r->geo.evq_len + 2, &got), 0);
	KUNIT_EXPECT_EQ(test, got.type, (u32)ISM_EVT_DMB);
	KUNIT_EXPECT_EQ(test, got.token, (u64)r->geo.evq_len + 2);
	/* The region's own fence event carries the receiver's cookie. */
	ev = (struct ism_event) { .type = IVSHM_EVT_FENCE, .info = U64_MAX };
	ivshm_post_event(&r->geo, r->mem, 2, 4, seq, &ev);
	KUNIT_ASSERT_EQ(test, ivshm_read_event(&r->geo, r->mem, 2, 4, seq,
					       &got), 0);
	KUNIT_EXPECT_EQ(test, got.type, (u32)IVSHM_EVT_FENCE);
	KUNIT_EXPECT_EQ(test, got.info, U64_MAX);
}

/* Events of a type no peer may send are refused, whatever else they say. */
static void ivshm_events_hostile(struct kunit *test)
{
	struct ivshm_test_region *r = test->priv;
	static const u32 types[] = {
		ISM_EVT_GID, 3, IVSHM_EVT_FENCE - 1, IVSHM_EVT_FENCE + 1, U32_MAX
	};
	struct ism_event ev = { }, got;
	struct ivshm_evq_entry *e;
	unsigned int i;

	ivshm_post_event(&r->geo, r->mem, 1, 0, 1, &ev);
	e = ivshm_data(&r->geo, r->mem, 1, 0) - r->geo.data_off +
	    r->geo.evq_off + sizeof(struct ivshm_evq);
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		e->type = cpu_to_le32(types[i]);
		memset(&got, 0x11, sizeof(got));
		KUNIT_EXPECT_EQ(test, ivshm_read_event(&r->geo, r->mem, 1, 0,
						       1, &got), -EBADMSG);
		KUNIT_EXPECT_EQ(test, got.type, 0x11111111U);
	}
	/* A sequence number that is not the one asked for. */
	e->type = cpu_to_le32(ISM_EVT_SWR);
	e->seq = cpu_to_le64(U64_MAX);
	KUNIT_EXPECT_EQ(test, ivshm_read_event(&r->geo, r->mem, 1, 0, 1, &got),
			-EAGAIN);
	KUNIT_EXPECT_EQ(test, ivshm_read_event(&r->geo, r->mem, 1, 0, U64_MAX,
					       &got), -EAGAIN);
}

/* A new owner's reset clears its metadata, and only its own. */
static void ivshm_partition_reset(struct kunit *test)
{
	struct ivshm_test_region *r = test->priv;
	struct ism_event ev = { .type = ISM_EVT_SWR };
	void *part = ivshm_data(&r->geo, r->mem, OWNER, 0) - r->geo.data_off;
	void *data = ivshm_data(&r->geo, r->mem, OWNER, 0);
	struct ivshm_taken t = { };
	u64 token = ivshm_test_publish(r, 0, 100), off;
	u32 len;

	memset(data, 0x77, 100);
	ivshm_signal(&r->geo, r->mem, OWNER, IDX, 1);
	ivshm_signal(&r->geo, r->mem, OWNER + 1, IDX, 1);
	ivshm_post_event(&r->geo, r->mem, OWNER, 0, 1, &ev);
	ivshm_reset_partition(&r->geo, r->mem, OWNER);
	KUNIT_EXPECT_FALSE(test, memchr_inv(part, 0, r->geo.data_off));
	KUNIT_EXPECT_FALSE(test, memchr_inv(data, 0x77, 100));
	KUNIT_EXPECT_EQ(test, ivshm_find_dmb(&r->geo, r->mem, token, &writer,
					     &off, &len, NULL), -ENOENT);
	KUNIT_EXPECT_EQ(test, ivshm_evq_head(&r->geo, r->mem, OWNER, 0), 0ULL);
	KUNIT_EXPECT_EQ(test, ivshm_take_signals(&r->geo, r->mem, OWNER + 1,
						 ivshm_test_deliver, &t), 1U);
}

static struct kunit_case ivshm_data_cases[] = {
	KUNIT_CASE(ivshm_dmb_found),
	KUNIT_CASE(ivshm_dmb_malformed),
	KUNIT_CASE(ivshm_signals),
	KUNIT_CASE(ivshm_signals_hostile),
	KUNIT_CASE(ivshm_signals_odd_count),
	KUNIT_CASE(ivshm_events),
	KUNIT_CASE(ivshm_events_hostile),
	KUNIT_CASE(ivshm_partition_reset),
	{}
};

struct kunit_suite ivshm_data_suite = {
	.name = "ism_ivshm_data",
	.init = ivshm_test_init,
	.exit = ivshm_test_exit,
	.test_cases = ivshm_data_cases,
};
