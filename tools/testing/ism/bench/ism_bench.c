// SPDX-License-Identifier: GPL-2.0
/*
 * ISM benchmark: what the layer costs against plain memcpy(), measured as
 * ratios in one run so that the emulated CPU's speed cancels out.
 *
 * Loaded after ism_core and ism_lo (with max_dmbs of at least 10001), it
 * runs once at load on the first loopback device and prints three tables
 * to the kernel log:
 *   1. ism_move_data() throughput vs memcpy() for 4 KiB, 64 KiB and 1 MiB;
 *   2. DMB register+unregister cost with 10, 1,000 and 10,000 live DMBs;
 *   3. one 8-byte ism_move_data() call vs one 8-byte memcpy().
 * Each figure is the best of several rounds.
 */
#include <linux/gfp.h>
#include <linux/ism.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>

#define BENCH_ROUNDS		10
#define BENCH_ROUND_NS		(50 * NSEC_PER_MSEC)
#define BENCH_BATCH		16
#define BENCH_MAX_LEN		SZ_1M
#define BENCH_MAX_LIVE		10000
#define BENCH_PAIRS		2000

static struct ism_dev *bench_dev;

/* Runs under the device's client lock, before the benchmark starts. */
static int bench_add_dev(struct ism_dev *dev)
{
	if (!bench_dev && ism_get_chid(dev) == ISM_CHID_LOOPBACK)
		bench_dev = dev;
	return 0;
}

/* Only our own unregister calls it: the benchmark is over by then. */
static void bench_remove_dev(struct ism_dev *dev)
{
	if (dev == bench_dev)
		bench_dev = NULL;
}

static struct ism_client bench_client = {
	.name = "ism_bench",
	.add_dev = bench_add_dev,
	.remove_dev = bench_remove_dev,
};

/**
 * struct bench_target - where a measured copy goes
 * @dev: loopback device for ism_move_data(), or NULL for memcpy()
 * @token: the DMB written by ism_move_data()
 * @dst: the buffer written by memcpy()
 */
struct bench_target {
	struct ism_dev *dev;
	u64 token;
	void *dst;
};

static __always_inline int bench_copy(const struct bench_target *t,
				      const void *src, unsigned int len)
{
	if (t->dev)
		return ism_move_data(t->dev, t->token, 0, false, 0, src, len);
	memcpy(t->dst, src, len);
	return 0;
}

/* Time of one copy of @len bytes over one round, in picoseconds. */
static u64 bench_round_ps(const struct bench_target *t, const void *src,
			  unsigned int len)
{
	u64 start, elapsed, ops = 0;
	int i;

	start = ktime_get_ns();
	do {
		for (i = 0; i < BENCH_BATCH; i++)
			if (bench_copy(t, src, len))
				return 0;
		ops += BENCH_BATCH;
		elapsed = ktime_get_ns() - start;
	} while (elapsed < BENCH_ROUND_NS);
	return div64_u64(elapsed * 1000, ops);
}

/*
 * Best per-copy times of the two targets. Their rounds alternate, so that
 * load from elsewhere on the host slows both alike.
 */
static int bench_compare_ps(const struct bench_target *mem,
			    const struct bench_target *ism, const void *src,
			    unsigned int len, u64 *mem_ps, u64 *ism_ps)
{
	u64 m, i;
	int round;

	*mem_ps = U64_MAX;
	*ism_ps = U64_MAX;
	for (round = 0; round < BENCH_ROUNDS; round++) {
		m = bench_round_ps(mem, src, len);
		i = bench_round_ps(ism, src, len);
		if (!m || !i)
			return -EIO;
		*mem_ps = min(*mem_ps, m);
		*ism_ps = min(*ism_ps, i);
		cond_resched();
	}
	return 0;
}

static int bench_register(struct ism_dmb *dmb, u32 len)
{
	memset(dmb, 0, sizeof(*dmb));
	dmb->len = len;
	ism_get_local_gid(bench_dev, &dmb->rgid);
	return ism_register_dmb(bench_dev, dmb, &bench_client);
}

/* Prints "a/b" with two decimals. */
static void bench_ratio(char *buf, size_t size, u64 a, u64 b)
{
	u64 r = b ? div64_u64(a * 100, b) : 0;

	snprintf(buf, size, "%llu.%02llu", r / 100, r % 100);
}

static int bench_throughput(const void *src, void *dst)
{
	static const unsigned int sizes[] = { SZ_4K, SZ_64K, SZ_1M };
	struct bench_target mem = { .dst = dst };
	struct bench_target ism = { .dev = bench_dev };
	u64 mem_ps, ism_ps;
	struct ism_dmb dmb;
	char ratio[24];
	int i, ret;

	pr_info("ism_bench: table 1: ism_move_data() vs memcpy() throughput on %s\n",
		ism_dev_name(bench_dev));
	pr_info("ism_bench: %10s %14s %16s %8s\n",
		"bytes", "memcpy MB/s", "move_data MB/s", "ratio");
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		ret = bench_register(&dmb, sizes[i]);
		if (ret)
			return ret;
		ism.token = dmb.token;
		ret = bench_compare_ps(&mem, &ism, src, sizes[i], &mem_ps,
				       &ism_ps);
		ism_unregister_dmb(bench_dev, &dmb, &bench_client);
		if (ret)
			return ret;
		/* bytes per picosecond times 10^6 is MB/s */
		bench_ratio(ratio, sizeof(ratio), mem_ps, ism_ps);
		pr_info("ism_bench: %10u %14llu %16llu %8s\n", sizes[i],
			div64_u64((u64)sizes[i] * 1000000, mem_ps),
			div64_u64((u64)sizes[i] * 1000000, ism_ps), ratio);
	}
	return 0;
}

/* Best cost of one register+unregister pair of a 4 KiB DMB, in ns. */
static int bench_pair_ns(u64 *best)
{
	struct ism_dmb dmb;
	u64 start;
	int round, i, ret;

	*best = U64_MAX;
	for (round = 0; round < BENCH_ROUNDS; round++) {
		start = ktime_get_ns();
		for (i = 0; i < BENCH_PAIRS; i++) {
			ret = bench_register(&dmb, SZ_4K);
			if (ret)
				return ret;
			ism_unregister_dmb(bench_dev, &dmb, &bench_client);
		}
		*best = min(*best, div64_u64(ktime_get_ns() - start, BENCH_PAIRS));
		cond_resched();
	}
	return 0;
}

static int bench_registration(void)
{
	static const unsigned int levels[] = { 10, 1000, BENCH_MAX_LIVE };
	unsigned int live = 0;
	struct ism_dmb *dmbs;
	u64 ns, base = 0;
	char ratio[24];
	int i, ret = 0;

	if (ism_get_max_dmbs(bench_dev) <= BENCH_MAX_LIVE) {
		pr_err("ism_bench: %s has %u DMBs; load ism_lo with max_dmbs=%u or more\n",
		       ism_dev_name(bench_dev), ism_get_max_dmbs(bench_dev),
		       BENCH_MAX_LIVE + 1);
		return -ENOSPC;
	}
	dmbs = kvcalloc(BENCH_MAX_LIVE, sizeof(*dmbs), GFP_KERNEL);
	if (!dmbs)
		return -ENOMEM;

	/* Warm the page and slab caches, or the first level pays for it. */
	ret = bench_pair_ns(&ns);
	if (ret)
		goto out;
	pr_info("ism_bench: table 2: DMB register+unregister (4 KiB) with live DMBs\n");
	pr_info("ism_bench: %10s %14s %8s\n", "live DMBs", "ns per pair", "vs 10");
	for (i = 0; i < ARRAY_SIZE(levels); i++) {
		while (live < levels[i] && !ret)
			ret = bench_register(&dmbs[live++], SZ_4K);
		if (ret) {
			live--;
			break;
		}
		ret = bench_pair_ns(&ns);
		if (ret)
			break;
		base = base ?: ns;
		bench_ratio(ratio, sizeof(ratio), ns, base);
		pr_info("ism_bench: %10u %14llu %8s\n", live, ns, ratio);
	}
	while (live)
		ism_unregister_dmb(bench_dev, &dmbs[--live], &bench_client);
out:
	kvfree(dmbs);
	return ret;
}

static int bench_small_call(const void *src, void *dst)
{
	struct bench_target mem = { .dst = dst };
	struct bench_target ism = { .dev = bench_dev };
	u64 mem_ps, ism_ps, layer_ps;
	struct ism_dmb dmb;
	char ratio[24];
	int ret;

	ret = bench_register(&dmb, SZ_4K);
	if (ret)
		return ret;
	ism.token = dmb.token;
	ret = bench_compare_ps(&mem, &ism, src, 8, &mem_ps, &ism_ps);
	ism_unregister_dmb(bench_dev, &dmb, &bench_client);
	if (ret)
		return ret;

	layer_ps = ism_ps > mem_ps ? ism_ps - mem_ps : 0;
	bench_ratio(ratio, sizeof(ratio), ism_ps, mem_ps);
	pr_info("ism_bench: table 3: one 8-byte call\n");
	pr_info("ism_bench: %14s %16s %8s %12s\n",
		"memcpy ns", "move_data ns", "ratio", "layer ns");
	pr_info("ism_bench: %10llu.%03llu %12llu.%03llu %8s %8llu.%03llu\n",
		mem_ps / 1000, mem_ps % 1000, ism_ps / 1000, ism_ps % 1000,
		ratio, layer_ps / 1000, layer_ps % 1000);
	return 0;
}

static int bench_run(void)
{
	unsigned int order = get_order(BENCH_MAX_LEN);
	void *src, *dst;
	int ret;

	src = (void *)__get_free_pages(GFP_KERNEL, order);
	dst = (void *)__get_free_pages(GFP_KERNEL | __GFP_ZERO, order);
	ret = -ENOMEM;
	if (!src || !dst)
		goto out;
	memset(src, 0x5a, BENCH_MAX_LEN);

	ret = bench_throughput(src, dst);
	if (!ret)
		ret = bench_registration();
	if (!ret)
		ret = bench_small_call(src, dst);
out:
	free_pages((unsigned long)src, order);
	free_pages((unsigned long)dst, order);
	return ret;
}

static int __init ism_bench_init(void)
{
	int ret;

	ret = ism_register_client(&bench_client);
	if (ret)
		return ret;
	if (bench_dev) {
		ret = bench_run();
	} else {
		pr_err("ism_bench: no loopback device; load ism_lo first\n");
		ret = -ENODEV;
	}
	ism_unregister_client(&bench_client);
	pr_info("ism_bench: %s (%d)\n", ret ? "failed" : "done", ret);
	return ret;
}

static void __exit ism_bench_exit(void)
{
}

module_init(ism_bench_init);
module_exit(ism_bench_exit);

MODULE_DESCRIPTION("ISM benchmark: move_data and DMB registration against memcpy");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(ISM);
