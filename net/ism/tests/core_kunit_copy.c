// SPDX-License-Identifier: GPL-2.0
/*
 * Suite ism_core_copy: ism_copy_to_dmb(), the copy drivers write DMBs
 * with: every byte where it belongs, and aligned words stored whole.
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>

#include "core_kunit.h"

#define COPY_MAX	40
#define GUARD		0xa5

/* Every destination and source alignment, every length up to COPY_MAX;
 * failures name them as "alignment of dst, of src, length".
 */
static void ism_copy_bytes(struct kunit *test)
{
	u8 src[COPY_MAX + 8], dst[COPY_MAX + 24];
	unsigned int d, s, len, i;

	for (i = 0; i < sizeof(src); i++)
		src[i] = i + 1;
	for (d = 0; d < 8; d++)
		for (s = 0; s < 8; s++)
			for (len = 0; len <= COPY_MAX; len++) {
				memset(dst, GUARD, sizeof(dst));
				ism_copy_to_dmb(dst + 8 + d, src + s, len);
				for (i = 0; i < sizeof(dst); i++) {
					bool in = i >= 8 + d && i < 8 + d + len;
					u8 want = in ? src[s + i - 8 - d] : GUARD;

					if (dst[i] != want)
						KUNIT_FAIL(test, "%u %u %u: byte %u %#x, not %#x",
							   d, s, len, i, dst[i], want);
				}
			}
}

struct copy_tear {
	u64 *word;
	unsigned long reads;
	unsigned long torn;
	u64 seen;
	bool stop;
};

#define WORD_A	0x0123456789abcdefULL
#define WORD_B	(~WORD_A)

static int copy_tear_reader(void *arg)
{
	struct copy_tear *t = arg;
	u64 v;

	while (!READ_ONCE(t->stop)) {
		v = READ_ONCE(*t->word);
		if (v != WORD_A && v != WORD_B) {
			t->torn++;
			t->seen = v;
		}
		if (!(++t->reads % 1024))
			cond_resched();
	}
	return 0;
}

/* A reader on another CPU loads a word while the copy rewrites it, in
 * turn with two values that differ in every byte: it must only ever see
 * one of the two, as SMC-D's cursors must be (atomic64_read()). A byte
 * by byte copy fails this under TCG within a few thousand rounds.
 */
static void ism_copy_words_whole(struct kunit *test)
{
	u64 a[6], b[6], *dmb;
	struct copy_tear t = {};
	struct task_struct *reader;
	unsigned long end, rounds = 0;
	int i;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a second CPU for the reader");
	dmb = kunit_kzalloc(test, sizeof(a), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, dmb);
	for (i = 0; i < ARRAY_SIZE(a); i++) {
		a[i] = WORD_A;
		b[i] = WORD_B;
	}
	dmb[3] = WORD_A;
	t.word = &dmb[3];
	reader = kthread_run(copy_tear_reader, &t, "ism_copy_tear");
	KUNIT_ASSERT_FALSE(test, IS_ERR(reader));
	/* Until the reader has read often enough, for at most 10 s. */
	end = jiffies + 10 * HZ;
	while ((READ_ONCE(t.reads) < 100000 || rounds < 100000) &&
	       time_before(jiffies, end)) {
		ism_copy_to_dmb(dmb, rounds & 1 ? a : b, sizeof(a));
		if (!(++rounds % 1024))
			cond_resched();
	}
	WRITE_ONCE(t.stop, true);
	kthread_stop(reader);
	kunit_info(test, "%lu rounds, %lu reads, %lu torn\n", rounds, t.reads,
		   t.torn);
	KUNIT_EXPECT_GT(test, t.reads, 0UL);
	KUNIT_EXPECT_EQ_MSG(test, t.torn, 0UL, "last torn value %#llx", t.seen);
}

static struct kunit_case ism_copy_cases[] = {
	KUNIT_CASE(ism_copy_bytes),
	KUNIT_CASE(ism_copy_words_whole),
	{}
};

static struct kunit_suite ism_copy_suite = {
	.name = "ism_core_copy",
	.test_cases = ism_copy_cases,
};

kunit_test_suites(&ism_copy_suite);
