// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the virtual ISM region's geometry, header and peer slots
 * (ivshm_layout.c), and the fixture of ism_ivshm_kunit.ko. Every malformed
 * value must be refused and leave the caller's copy untouched.
 */
#include <linux/module.h>
#include <linux/random.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "ivshm_kunit.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* Init of both suites: a freshly formatted region in test->priv. */
int ivshm_test_init(struct kunit *test)
{
	struct ivshm_test_region *r = kunit_kzalloc(test, sizeof(*r),
						    GFP_KERNEL);

	if (!r)
		return -ENOMEM;
	r->mem = vzalloc(IVSHM_TEST_SIZE);
	if (!r->mem)
		return -ENOMEM;
	if (ivshm_geometry(&r->geo, IVSHM_TEST_SIZE, IVSHM_TEST_PEERS,
			   IVSHM_TEST_DMBS, IVSHM_TEST_EVQ)) {
		vfree(r->mem);
		return -EINVAL;
	}
	get_random_bytes(r->geo.region_id, sizeof(r->geo.region_id));
	ivshm_format(r->mem, &r->geo);
	test->priv = r;
	return 0;
}

void ivshm_test_exit(struct kunit *test)
{
	struct ivshm_test_region *r = test->priv;

	vfree(r->mem);
}

static void ivshm_check_geo(struct kunit *test, const struct ivshm_geo *g)
{
	KUNIT_EXPECT_TRUE(test, IS_ALIGNED(g->part_off, IVSHM_UNIT));
	KUNIT_EXPECT_TRUE(test, IS_ALIGNED(g->part_size, IVSHM_UNIT));
	KUNIT_EXPECT_TRUE(test, IS_ALIGNED(g->data_off, IVSHM_UNIT));
	KUNIT_EXPECT_GE(test, g->part_off, (u64)IVSHM_SLOTS_OFF +
			g->max_peers * sizeof(struct ivshm_slot));
	KUNIT_EXPECT_LE(test, g->part_off + g->max_peers * g->part_size,
			g->region_size);
	KUNIT_EXPECT_GE(test, g->sig_off,
			g->max_dmbs * (u32)sizeof(struct ivshm_dmb_desc));
	KUNIT_EXPECT_GE(test, g->evq_off, g->sig_off +
			(DIV_ROUND_UP(g->max_dmbs, 32) + g->max_dmbs) * 4);
	KUNIT_EXPECT_GE(test, g->data_off,
			g->evq_off + g->max_peers * g->evq_size);
	KUNIT_EXPECT_EQ(test, g->evq_size, (u32)(sizeof(struct ivshm_evq) +
			g->evq_len * sizeof(struct ivshm_evq_entry)));
	KUNIT_EXPECT_GE(test, g->data_len, IVSHM_MIN_DATA);
	KUNIT_EXPECT_LE(test, (u64)g->data_off + g->data_len, g->part_size);
}

static void ivshm_geometry_valid(struct kunit *test)
{
	static const struct { u64 size; u32 peers, dmbs, evq; } ok[] = {
		{ IVSHM_TEST_SIZE, 8, 64, 8 },
		{ 64 << 20, 16, 1024, 64 },
		{ 64 << 20, 64, 1, 8 },
		{ 256 << 20, 64, 4096, 1024 },
		{ 1ULL << 40, 8, 4096, 8 },
		{ (64 << 20) + IVSHM_UNIT, 9, 100, 16 },
	};
	struct ivshm_geo g;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		KUNIT_ASSERT_EQ_MSG(test, ivshm_geometry(&g, ok[i].size,
				    ok[i].peers, ok[i].dmbs, ok[i].evq), 0,
				    "case %u", i);
		ivshm_check_geo(test, &g);
	}
	/* The data area of a huge partition is capped for u32 offsets. */
	KUNIT_EXPECT_LE(test, g.data_len, U32_MAX);
}

static void ivshm_geometry_bad(struct kunit *test)
{
	static const struct { u64 size; u32 peers, dmbs, evq; int err; } bad[] = {
		{ 64 << 20, 7, 64, 8, -EINVAL },
		{ 64 << 20, 65, 64, 8, -EINVAL },
		{ 64 << 20, 8, 0, 8, -EINVAL },
		{ 64 << 20, 8, 4097, 8, -EINVAL },
		{ 64 << 20, 8, 64, 4, -EINVAL },
		{ 64 << 20, 8, 64, 24, -EINVAL },
		{ 64 << 20, 8, 64, 2048, -EINVAL },
		{ 0, 8, 64, 8, -EINVAL },
		{ (64 << 20) + 1, 8, 64, 8, -EINVAL },
		{ (1ULL << 40) + IVSHM_UNIT, 8, 64, 8, -EINVAL },
		{ U64_MAX & ~4095ULL, 8, 64, 8, -EINVAL },
		{ IVSHM_UNIT, 8, 64, 8, -ENOSPC },
		{ 2 << 20, 8, 64, 8, -ENOSPC },
		{ 64 << 20, 64, 4096, 1024, -ENOSPC },
	};
	struct ivshm_geo g, before;
	unsigned int i;

	memset(&g, 0xa5, sizeof(g));
	before = g;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_EQ_MSG(test, ivshm_geometry(&g, bad[i].size,
				    bad[i].peers, bad[i].dmbs, bad[i].evq),
				    bad[i].err, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(&g, &before, sizeof(g)), 0,
				    "case %u changed the geometry", i);
	}
}

static void ivshm_header_roundtrip(struct kunit *test)
{
	struct ivshm_test_region *r = test->priv;
	struct ivshm_geo g;

	KUNIT_ASSERT_EQ(test, ivshm_read_header(r->mem, IVSHM_TEST_SIZE, &g),
			0);
	KUNIT_EXPECT_EQ(test, memcmp(&g, &r->geo, sizeof(g)), 0);
	/* A larger BAR than the layout covers is fine. */
	KUNIT_EXPECT_EQ(test, ivshm_read_header(r->mem, 2 * IVSHM_TEST_SIZE,
						&g), 0);
	/* Formatting empties the peer table. */
	KUNIT_EXPECT_FALSE(test, memchr_inv(r->mem + IVSHM_SLOTS_OFF, 0,
					    r->geo.part_off - IVSHM_SLOTS_OFF));
}

/*
 * One header field replaced by a bad value (with @add: the good value plus
 * @val), and the error reading the header then.
 */
struct ivshm_bad_hdr {
	const char *what;
	struct {
		size_t off;
		unsigned int width;
	} field;
	u64 val;
	int err;
	bool add;
};

#define HDR(f)	{ offsetof(struct ivshm_region_hdr, f), \
		  sizeof_field(struct ivshm_region_hdr, f) }

static const struct ivshm_bad_hdr ivshm_bad_hdrs[] = {
	{ "magic off by one", HDR(magic), IVSHM_MAGIC + 1, -ENODEV },
	{ "magic zero", HDR(magic), 0, -ENODEV },
	{ "version 0", HDR(version), 0, -EPROTONOSUPPORT },
	{ "version 1 (descriptors without a key)", HDR(version), 1,
	  -EPROTONOSUPPORT },
	{ "version 3", HDR(version), 3, -EPROTONOSUPPORT },
	{ "version max", HDR(version), U32_MAX, -EPROTONOSUPPORT },
	{ "region beyond the BAR", HDR(region_size), 2 * IVSHM_TEST_SIZE, -EINVAL },
	{ "region size 0", HDR(region_size), 0, -EINVAL },
	{ "region size unaligned", HDR(region_size), IVSHM_TEST_SIZE - 1, -EINVAL },
	{ "region size max", HDR(region_size), U64_MAX, -EINVAL },
	{ "peers 7", HDR(max_peers), 7, -EINVAL },
	{ "peers 65", HDR(max_peers), 65, -EINVAL },
	{ "peers max", HDR(max_peers), U32_MAX, -EINVAL },
	{ "peers one more (other partitions)", HDR(max_peers), 1, -EINVAL, true },
	{ "DMBs 0", HDR(max_dmbs), 0, -EINVAL },
	{ "DMBs 4097", HDR(max_dmbs), 4097, -EINVAL },
	{ "DMBs max", HDR(max_dmbs), U32_MAX, -EINVAL },
	{ "event queue 0", HDR(evq_len), 0, -EINVAL },
	{ "event queue not a power of 2", HDR(evq_len), 12, -EINVAL },
	{ "event queue max", HDR(evq_len), U32_MAX, -EINVAL },
	{ "partitions one unit later", HDR(part_off), IVSHM_UNIT, -EINVAL, true },
	{ "partitions at 0", HDR(part_off), 0, -EINVAL },
	{ "partitions beyond the region", HDR(part_off), U64_MAX, -EINVAL },
	{ "partitions one unit larger", HDR(part_size), IVSHM_UNIT, -EINVAL, true },
	{ "partitions one unit smaller", HDR(part_size), -(u64)IVSHM_UNIT, -EINVAL, true },
	{ "partitions of 0 bytes", HDR(part_size), 0, -EINVAL },
	{ "partitions as large as can be", HDR(part_size), U64_MAX, -EINVAL },
};

static void ivshm_set_field(void *p, const struct ivshm_bad_hdr *b)
{
	if (b->field.width == 8)
		*(__le64 *)p = cpu_to_le64(b->val + (b->add ?
					    le64_to_cpu(*(__le64 *)p) : 0));
	else
		*(__le32 *)p = cpu_to_le32(b->val + (b->add ?
					    le32_to_cpu(*(__le32 *)p) : 0));
}

static void ivshm_header_malformed(struct kunit *test)
{
	struct ivshm_test_region *r = test->priv;
	struct ivshm_region_hdr good, *hdr = r->mem;
	struct ivshm_geo g, before;
	unsigned int i;

	memcpy(&good, hdr, sizeof(good));
	memset(&g, 0x5a, sizeof(g));
	before = g;
	for (i = 0; i < ARRAY_SIZE(ivshm_bad_hdrs); i++) {
		const struct ivshm_bad_hdr *b = &ivshm_bad_hdrs[i];

		memcpy(hdr, &good, sizeof(good));
		ivshm_set_field((void *)hdr + b->field.off, b);
		KUNIT_EXPECT_EQ_MSG(test, ivshm_read_header(r->mem,
				    IVSHM_TEST_SIZE, &g), b->err, "%s", b->what);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(&g, &before, sizeof(g)), 0,
				    "%s changed the geometry", b->what);
	}
	memcpy(hdr, &good, sizeof(good));
	/* A BAR too small for a header: not ours, and nothing read. */
	KUNIT_EXPECT_EQ(test, ivshm_read_header(r->mem, sizeof(good) - 1, &g),
			-ENODEV);
	KUNIT_EXPECT_EQ(test, ivshm_read_header(r->mem, IVSHM_TEST_SIZE, &g),
			0);
}

static void ivshm_chid_range(struct kunit *test)
{
	struct ivshm_geo g = { };
	unsigned int i;
	u16 chid;

	for (i = 0; i < 1000; i++) {
		get_random_bytes(g.region_id, sizeof(g.region_id));
		chid = ivshm_chid(&g);
		KUNIT_ASSERT_GE(test, chid, 0xFF00);
		KUNIT_ASSERT_LE(test, chid, 0xFFFE);
		KUNIT_ASSERT_EQ(test, ivshm_chid(&g), chid);
	}
}

/* Write slot @s as its owner would, with the given values. */
static void ivshm_put_slot(struct ivshm_test_region *r, u32 s, u64 cookie,
			   u32 state, u32 doorbell, const u8 *gid)
{
	struct ivshm_slot *slot = ivshm_slot(&r->geo, r->mem, s);

	slot->cookie = cpu_to_le64(cookie);
	slot->heartbeat = cpu_to_le64(42);
	slot->state = cpu_to_le32(state);
	slot->doorbell = cpu_to_le32(doorbell);
	memcpy(slot->gid, gid, sizeof(slot->gid));
}

static void ivshm_slot_read(struct kunit *test)
{
	static const u8 gid[16] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct ivshm_test_region *r = test->priv;
	struct ivshm_slot_view v;

	memset(&v, 0xff, sizeof(v));
	KUNIT_EXPECT_EQ(test, ivshm_read_slot(&r->geo, r->mem, 0, &v), 0);
	KUNIT_EXPECT_EQ(test, v.cookie, 0ULL);

	ivshm_put_slot(r, 7, 99, IVSHM_SLOT_ACTIVE, 3, gid);
	KUNIT_ASSERT_EQ(test, ivshm_read_slot(&r->geo, r->mem, 7, &v), 0);
	KUNIT_EXPECT_EQ(test, v.cookie, 99ULL);
	KUNIT_EXPECT_EQ(test, v.heartbeat, 42ULL);
	KUNIT_EXPECT_EQ(test, v.state, (u32)IVSHM_SLOT_ACTIVE);
	KUNIT_EXPECT_EQ(test, v.doorbell, 3U);
	KUNIT_EXPECT_EQ(test, memcmp(v.gid.b, gid, 16), 0);

	ivshm_put_slot(r, 7, 99, IVSHM_SLOT_JOINING, U16_MAX, gid);
	KUNIT_EXPECT_EQ(test, ivshm_read_slot(&r->geo, r->mem, 7, &v), 0);
	ivshm_put_slot(r, 7, 99, IVSHM_SLOT_ACTIVE, IVSHM_NO_DOORBELL, gid);
	KUNIT_EXPECT_EQ(test, ivshm_read_slot(&r->geo, r->mem, 7, &v), 0);
	KUNIT_EXPECT_EQ(test, v.doorbell, IVSHM_NO_DOORBELL);
	/* A free slot's other fields do not matter. */
	ivshm_put_slot(r, 6, 0, 77, 0x123456, gid + 8);
	KUNIT_EXPECT_EQ(test, ivshm_read_slot(&r->geo, r->mem, 6, &v), 0);
	KUNIT_EXPECT_EQ(test, v.cookie, 0ULL);
}

static void ivshm_slot_malformed(struct kunit *test)
{
	static const u8 gid[16] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const u8 zero_gid[16];
	static const u8 long_gid[16] = { 1, [15] = 1 };
	struct ivshm_test_region *r = test->priv;
	struct ivshm_slot_view v, before;

	memset(&v, 0x3c, sizeof(v));
	before = v;
	KUNIT_EXPECT_EQ(test, ivshm_read_slot(&r->geo, r->mem, 8, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, ivshm_read_slot(&r->geo, r->mem, U32_MAX, &v),
			-EINVAL);
	ivshm_put_slot(r, 1, 5, IVSHM_SLOT_FREE, 0, gid);
	KUNIT_EXPECT_EQ(test, ivshm_read_slot(&r->geo, r->mem, 1, &v), -EBADMSG);
	ivshm_put_slot(r, 1, 5, 3, 0, gid);
	KUNIT_EXPECT_EQ(test, ivshm_read_slot(&r->geo, r->mem, 1, &v), -EBADMSG);
	ivshm_put_slot(r, 1, 5, IVSHM_SLOT_ACTIVE, U16_MAX + 1, gid);
	KUNIT_EXPECT_EQ(test, ivshm_read_slot(&r->geo, r->mem, 1, &v), -EBADMSG);
	ivshm_put_slot(r, 1, 5, IVSHM_SLOT_ACTIVE, IVSHM_NO_DOORBELL - 1, gid);
	KUNIT_EXPECT_EQ(test, ivshm_read_slot(&r->geo, r->mem, 1, &v), -EBADMSG);
	ivshm_put_slot(r, 1, 5, IVSHM_SLOT_ACTIVE, 0, zero_gid);
	KUNIT_EXPECT_EQ(test, ivshm_read_slot(&r->geo, r->mem, 1, &v), -EBADMSG);
	ivshm_put_slot(r, 1, 5, IVSHM_SLOT_ACTIVE, 0, long_gid);
	KUNIT_EXPECT_EQ(test, ivshm_read_slot(&r->geo, r->mem, 1, &v), -EBADMSG);
	KUNIT_EXPECT_EQ(test, memcmp(&v, &before, sizeof(v)), 0);
}

static void ivshm_token_fields(struct kunit *test)
{
	struct ivshm_test_region *r = test->priv;
	u32 s, i, slot, idx;
	u64 t;

	for (s = 0; s < r->geo.max_peers; s++) {
		for (i = 0; i < r->geo.max_dmbs; i += 7) {
			t = ivshm_token(s, i, get_random_u64());
			KUNIT_ASSERT_NE(test, t, 0ULL);
			KUNIT_ASSERT_EQ(test, ivshm_token_split(&r->geo, t,
					&slot, &idx), 0);
			KUNIT_ASSERT_EQ(test, slot, s);
			KUNIT_ASSERT_EQ(test, idx, i);
		}
	}
	KUNIT_EXPECT_NE(test, ivshm_token(0, 0, 0), 0ULL);
	slot = idx = 12345;
	KUNIT_EXPECT_EQ(test, ivshm_token_split(&r->geo, 0, &slot, &idx),
			-ENOENT);
	t = ivshm_token(1, 1, U64_MAX);
	KUNIT_EXPECT_EQ(test, ivshm_token_split(&r->geo, t & ~BIT_ULL(63),
						&slot, &idx), -ENOENT);
	KUNIT_EXPECT_EQ(test, ivshm_token_split(&r->geo,
			ivshm_token(r->geo.max_peers, 0, 1), &slot, &idx),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, ivshm_token_split(&r->geo,
			ivshm_token(63, 0, 1), &slot, &idx), -ENOENT);
	KUNIT_EXPECT_EQ(test, ivshm_token_split(&r->geo,
			ivshm_token(0, r->geo.max_dmbs, 1), &slot, &idx),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, ivshm_token_split(&r->geo, U64_MAX, &slot, &idx),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, slot, 12345U);
	KUNIT_EXPECT_EQ(test, idx, 12345U);
}

static struct kunit_case ivshm_layout_cases[] = {
	KUNIT_CASE(ivshm_geometry_valid),
	KUNIT_CASE(ivshm_geometry_bad),
	KUNIT_CASE(ivshm_header_roundtrip),
	KUNIT_CASE(ivshm_header_malformed),
	KUNIT_CASE(ivshm_chid_range),
	KUNIT_CASE(ivshm_slot_read),
	KUNIT_CASE(ivshm_slot_malformed),
	KUNIT_CASE(ivshm_token_fields),
	{}
};

static struct kunit_suite ivshm_layout_suite = {
	.name = "ism_ivshm_layout",
	.init = ivshm_test_init,
	.exit = ivshm_test_exit,
	.test_cases = ivshm_layout_cases,
};

kunit_test_suites(&ivshm_layout_suite, &ivshm_data_suite, &ivshm_peers_suite,
		  &ivshm_hostile_suite);

MODULE_DESCRIPTION("KUnit tests of the virtual ISM region layout and device");
MODULE_LICENSE("GPL");
