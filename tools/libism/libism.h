/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libism: ISM devices for applications, over /dev/ism/NAME (ism_user.ko,
 * Documentation/userspace-api/ism.rst). See libism(3).
 *
 * Every function that can fail returns 0 (or a count) on success and a
 * negative errno on failure, as the kernel does; errno is left as the
 * failing call set it.
 */
#ifndef LIBISM_H
#define LIBISM_H

#include <stddef.h>
#include <stdint.h>
#include <linux/ism_user.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ISM_GID_LEN	ISM_USER_GID_LEN
/* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" and its NUL */
#define ISM_GID_STRLEN	37

/* An open device; opaque. */
struct ism;

/* A DMB of the caller's, or a peer's it attached. */
struct ism_buf {
	uint64_t token;		/* the DMB's token */
	uint64_t key;		/* its key: the right to write into it */
	void *addr;		/* its memory, mapped; NULL if it cannot be */
	size_t len;		/* its length */
	int attached;		/* a peer's DMB, attached */
};

int ism_open(const char *dev, struct ism **ismp);
void ism_close(struct ism *ism);
int ism_fd(const struct ism *ism);
int ism_info(struct ism *ism, struct ism_user_info *info);
int ism_query_peer(struct ism *ism, const uint8_t gid[ISM_GID_LEN]);

int ism_register(struct ism *ism, size_t len, const uint8_t peer[ISM_GID_LEN],
		 struct ism_buf *buf);
int ism_attach(struct ism *ism, uint64_t token, uint64_t key,
	       struct ism_buf *buf);
int ism_release(struct ism *ism, struct ism_buf *buf);

int ism_write(struct ism *ism, uint64_t token, uint64_t key, uint32_t offset,
	      const void *data, uint32_t len, int dmbe);
int ism_signal(struct ism *ism, uint64_t token, uint64_t key,
	       unsigned int dmbe);
int ism_send_event(struct ism *ism, const uint8_t gid[ISM_GID_LEN],
		   uint64_t token, uint64_t key, uint16_t code);
int ism_wait(struct ism *ism, struct ism_user_event *ev, int max,
	     int timeout_ms);

void ism_gid_format(const uint8_t gid[ISM_GID_LEN],
		    char out[ISM_GID_STRLEN]);
int ism_gid_parse(const char *s, uint8_t gid[ISM_GID_LEN]);

/* What two processes tell each other before they talk over ISM. */
struct ism_peer {
	uint8_t gid[ISM_GID_LEN];	/* the sender's device */
	uint64_t token;			/* a DMB the sender registered, or 0 */
	uint64_t key;			/* its key */
	uint32_t len;			/* its length */
	uint32_t data;			/* the application's own */
};

int ism_exchange(int sock, const struct ism_peer *mine,
		 struct ism_peer *theirs);
int ism_rendezvous(const char *host, const char *port, int timeout_ms);

#ifdef __cplusplus
}
#endif

#endif /* LIBISM_H */
