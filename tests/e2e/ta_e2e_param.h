/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ta_e2e_param.h - reading and writing tensorarena.ko's module parameters
 * (/sys/module/tensorarena/parameters/), for the end-to-end programs that
 * change a limit around a test. Included once per program.
 */
#ifndef TA_E2E_PARAM_H
#define TA_E2E_PARAM_H

#include <errno.h>
#include <stdio.h>

/* The parameter's value, or -1 when it cannot be read. */
static inline long long ta_e2e_param_read(const char *name)
{
	char path[128];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/tensorarena/parameters/%s",
		 name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lli", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* Write @v to the parameter: 0, or -errno (EINVAL for a refused value). */
static inline int ta_e2e_param_write(const char *name, long long v)
{
	char path[128];
	FILE *f;
	int bad;

	snprintf(path, sizeof(path), "/sys/module/tensorarena/parameters/%s",
		 name);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	bad = fprintf(f, "%lld\n", v) < 0;
	bad |= fclose(f) != 0;
	return bad ? -EINVAL : 0;
}

#endif /* TA_E2E_PARAM_H */
