/* SPDX-License-Identifier: GPL-2.0 */
/* Tell systemd a Type=notify service is ready: see sd_notify.c. */
#ifndef SD_NOTIFY_H
#define SD_NOTIFY_H

void sd_ready(void);

#endif /* SD_NOTIFY_H */
