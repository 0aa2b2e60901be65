/* SPDX-License-Identifier: GPL-2.0 */
/* ism-region show and check: see region_show.c. */
#ifndef REGION_SHOW_H
#define REGION_SHOW_H

#include "region_conf.h"
#include "region_file.h"

void region_show(const struct region_file *f, const struct ivshm_geo *geo,
		 const struct region_conf *c, int json);
int region_check(const struct region_file *f, const struct ivshm_geo *geo,
		 const struct region_conf *c);

#endif /* REGION_SHOW_H */
