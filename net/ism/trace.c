// SPDX-License-Identifier: GPL-2.0
/*
 * ISM core: the tracepoints' definitions, and the out-of-line half of the
 * one that clients' inline ism_move_data() fires.
 */
#include <linux/module.h>

#define CREATE_TRACE_POINTS
#include "ism_trace.h"

EXPORT_TRACEPOINT_SYMBOL_GPL(ism_move_data);

/**
 * ism_trace_move_data() - fire the ism_move_data tracepoint
 * @dev: device
 * @token: peer DMB token
 * @offset: offset into the DMB
 * @size: bytes
 * @sf: whether the owner was signalled
 * @ret: what the device returned
 *
 * For ism_move_data(), which calls it only when the tracepoint is enabled,
 * so that clients need not include the trace header. Any context.
 */
void ism_trace_move_data(struct ism_dev *dev, u64 token, unsigned int offset,
			 unsigned int size, bool sf, int ret)
{
	trace_ism_move_data(dev, token, offset, size, sf, ret);
}
EXPORT_SYMBOL_NS_GPL(ism_trace_move_data, ISM);
