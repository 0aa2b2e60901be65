/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the ISM core, subsystem "ism":
 * /sys/kernel/tracing/events/ism/.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ism

#if !defined(_ISM_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _ISM_TRACE_H

#include <linux/ism.h>
#include <linux/tracepoint.h>
#include <ism/kcompat.h>

TRACE_EVENT(ism_dmb_register,
	    TP_PROTO(struct ism_dev *dev, const struct ism_client *client,
		     const struct ism_dmb *dmb, int ret),
	    TP_ARGS(dev, client, dmb, ret),
	    TP_STRUCT__entry(__string(dev, ism_dev_name(dev))
			     __string(client, client->name)
			     __field(u64, token)
			     __field(u32, idx)
			     __field(u32, len)
			     __field(int, ret)),
	    TP_fast_assign(ism_assign_str(dev, ism_dev_name(dev));
			   ism_assign_str(client, client->name);
			   __entry->token = ret ? 0 : dmb->token;
			   __entry->idx = ret ? 0 : dmb->idx;
			   __entry->len = dmb->len;
			   __entry->ret = ret;),
	    TP_printk("dev=%s client=%s token=0x%llx idx=%u len=%u ret=%d",
		      __get_str(dev), __get_str(client), __entry->token,
		      __entry->idx, __entry->len, __entry->ret)
);

TRACE_EVENT(ism_dmb_unregister,
	    TP_PROTO(struct ism_dev *dev, u64 token, u32 idx, int ret),
	    TP_ARGS(dev, token, idx, ret),
	    TP_STRUCT__entry(__string(dev, ism_dev_name(dev))
			     __field(u64, token)
			     __field(u32, idx)
			     __field(int, ret)),
	    TP_fast_assign(ism_assign_str(dev, ism_dev_name(dev));
			   __entry->token = token;
			   __entry->idx = idx;
			   __entry->ret = ret;),
	    TP_printk("dev=%s token=0x%llx idx=%u ret=%d", __get_str(dev),
		      __entry->token, __entry->idx, __entry->ret)
);

TRACE_EVENT(ism_vlan,
	    TP_PROTO(struct ism_dev *dev, u64 vid, bool join, int ret),
	    TP_ARGS(dev, vid, join, ret),
	    TP_STRUCT__entry(__string(dev, ism_dev_name(dev))
			     __field(u64, vid)
			     __field(bool, join)
			     __field(int, ret)),
	    TP_fast_assign(ism_assign_str(dev, ism_dev_name(dev));
			   __entry->vid = vid;
			   __entry->join = join;
			   __entry->ret = ret;),
	    TP_printk("dev=%s vid=%llu join=%d ret=%d", __get_str(dev),
		      __entry->vid, __entry->join, __entry->ret)
);

TRACE_EVENT(ism_move_data,
	    TP_PROTO(struct ism_dev *dev, u64 token, unsigned int offset,
		     unsigned int size, bool sf, int ret),
	    TP_ARGS(dev, token, offset, size, sf, ret),
	    TP_STRUCT__entry(__string(dev, ism_dev_name(dev))
			     __field(u64, token)
			     __field(unsigned int, offset)
			     __field(unsigned int, size)
			     __field(bool, sf)
			     __field(int, ret)),
	    TP_fast_assign(ism_assign_str(dev, ism_dev_name(dev));
			   __entry->token = token;
			   __entry->offset = offset;
			   __entry->size = size;
			   __entry->sf = sf;
			   __entry->ret = ret;),
	    TP_printk("dev=%s token=0x%llx offset=%u size=%u sf=%d ret=%d",
		      __get_str(dev), __entry->token, __entry->offset,
		      __entry->size, __entry->sf, __entry->ret)
);

TRACE_EVENT(ism_irq,
	    TP_PROTO(struct ism_dev *dev, unsigned int idx, u16 dmbemask,
		     bool delivered),
	    TP_ARGS(dev, idx, dmbemask, delivered),
	    TP_STRUCT__entry(__string(dev, ism_dev_name(dev))
			     __field(unsigned int, idx)
			     __field(u16, dmbemask)
			     __field(bool, delivered)),
	    TP_fast_assign(ism_assign_str(dev, ism_dev_name(dev));
			   __entry->idx = idx;
			   __entry->dmbemask = dmbemask;
			   __entry->delivered = delivered;),
	    TP_printk("dev=%s idx=%u dmbemask=0x%04x delivered=%d",
		      __get_str(dev), __entry->idx, __entry->dmbemask,
		      __entry->delivered)
);

TRACE_EVENT(ism_event,
	    TP_PROTO(struct ism_dev *dev, const struct ism_event *event,
		     unsigned int clients),
	    TP_ARGS(dev, event, clients),
	    TP_STRUCT__entry(__string(dev, ism_dev_name(dev))
			     __field(u32, type)
			     __field(u32, code)
			     __field(u64, token)
			     __field(u64, info)
			     __field(unsigned int, clients)),
	    TP_fast_assign(ism_assign_str(dev, ism_dev_name(dev));
			   __entry->type = event->type;
			   __entry->code = event->code;
			   __entry->token = event->token;
			   __entry->info = event->info;
			   __entry->clients = clients;),
	    TP_printk("dev=%s type=%u code=0x%x token=0x%llx info=0x%llx clients=%u",
		      __get_str(dev), __entry->type, __entry->code,
		      __entry->token, __entry->info, __entry->clients)
);

#endif /* _ISM_TRACE_H */

/* Out of tree: define_trace.h finds this file by path, not in include/. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ism_trace
#include <trace/define_trace.h>
