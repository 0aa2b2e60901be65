/* SPDX-License-Identifier: GPL-2.0 */
/* Open a region's file, or create it: see shm_file.c. */
#ifndef SHM_FILE_H
#define SHM_FILE_H

#include <sys/types.h>

int shm_file_open(const char *path, mode_t mode);

#endif /* SHM_FILE_H */
