// SPDX-License-Identifier: GPL-2.0
/*
 * ISM core: per-device counters.
 *
 * Counters are per-CPU so that the data path never shares a cache line
 * between CPUs. A reset does not write other CPUs' counters, which would
 * race with their updates; it records the current totals as the new zero.
 */
#include <linux/module.h>

#include "ism_core.h"

/* Process context; the counters start at 0. */
int ism_stats_alloc(struct ism_dev *dev)
{
	int cpu;

	dev->stats = alloc_percpu(struct ism_pcpu_stats);
	if (!dev->stats)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		u64_stats_init(&per_cpu_ptr(dev->stats, cpu)->syncp);
	return 0;
}

/* The totals over all CPUs since the device was allocated. */
static void ism_stats_sum(struct ism_dev *dev, u64 *vals)
{
	const struct ism_pcpu_stats *stats;
	u64 cpu_vals[ISM_STAT_NUM];
	unsigned int start;
	int cpu, i;

	memset(vals, 0, ISM_STAT_NUM * sizeof(*vals));
	for_each_possible_cpu(cpu) {
		stats = per_cpu_ptr(dev->stats, cpu);
		do {
			start = u64_stats_fetch_begin(&stats->syncp);
			for (i = 0; i < ISM_STAT_NUM; i++)
				cpu_vals[i] = u64_stats_read(&stats->cnt[i]);
		} while (u64_stats_fetch_retry(&stats->syncp, start));
		for (i = 0; i < ISM_STAT_NUM; i++)
			vals[i] += cpu_vals[i];
	}
}

/* Fill @vals[ISM_STAT_NUM] with the counters since the last reset.
 * Caller holds ism_registry_mutex, which guards stats_base.
 */
void ism_stats_read(struct ism_dev *dev, u64 *vals)
{
	int i;

	ism_stats_sum(dev, vals);
	for (i = 0; i < ISM_STAT_NUM; i++)
		vals[i] -= dev->stats_base[i];
}

/* Caller holds ism_registry_mutex. */
void ism_stats_reset(struct ism_dev *dev)
{
	ism_stats_sum(dev, dev->stats_base);
}
