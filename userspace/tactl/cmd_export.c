// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * cmd_export.c - tactl export ID TENSOR: export one exportable tensor of a
 * plan in the module as a dma-buf of its own, say where it lies and, with
 * -o, write the bytes read through that dma-buf.
 *
 *	tactl export ID TENSOR [-o FILE] [--json] [--ioctl | --netlink]
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tensorarena.h"
#include "tactl.h"

static const char export_usage[] =
	"usage: tactl export ID TENSOR [-o FILE] [--json] [--ioctl | --netlink]\n"
	"\n"
	"Exports tensor TENSOR (its index) of plan ID as a dma-buf of its own\n"
	"(TA_IOCTL_TENSOR_EXPORT, or netlink tensor-export) and prints its size\n"
	"and offset in the plan. The tensor must have been planned exportable\n"
	"(tactl plan --exportable, or 'exportable' in a graph file). The\n"
	"descriptor closes when tactl exits; the plan must outlive that\n"
	"(tactl plan --hold in another process, same user).\n"
	"\n"
	"  -o FILE   write the dma-buf's bytes (mapped read-only) to FILE ('-': stdout)\n"
	"  --json    print the figures as one JSON object\n"
	"  --ioctl, --netlink  the transport (default: netlink if available)\n";

static int export_write(int fd, uint64_t size, const char *path)
{
	FILE *f;
	void *map;
	int err = 0;

	map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	f = strcmp(path, "-") ? fopen(path, "wb") : stdout;
	if (!f) {
		err = -errno;
	} else {
		if (fwrite(map, 1, size, f) != size)
			err = -EIO;
		if (f != stdout && fclose(f) && !err)
			err = -errno;
	}
	munmap(map, size);
	return err;
}

int tactl_cmd_export(int argc, char **argv)
{
	enum ta_transport transport = TA_TRANSPORT_AUTO;
	const char *args[2] = { NULL, NULL }, *out = NULL;
	struct ta_client *c;
	struct ta_plan *p;
	uint32_t id, tensor;
	bool json = false;
	__u64 v;
	int i, n = 0, fd, err;
	off_t size;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(export_usage, stdout);
			return 0;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--ioctl")) {
			transport = TA_TRANSPORT_IOCTL;
		} else if (!strcmp(argv[i], "--netlink")) {
			transport = TA_TRANSPORT_NETLINK;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			out = argv[++i];
		} else if (argv[i][0] != '-' && n < 2) {
			args[n++] = argv[i];
		} else {
			n = -1;
			break;
		}
	}
	if (n != 2) {
		fputs(export_usage, stderr);
		return 2;
	}
	if (tactl_parse_num("export", "ID", args[0], 1, UINT32_MAX, &v))
		return 2;
	id = v;
	if (tactl_parse_num("export", "TENSOR", args[1], 0, UINT32_MAX, &v))
		return 2;
	tensor = v;
	if (tactl_check_output(out))
		return 1;
	err = ta_client_open(transport, &c);
	if (err) {
		fprintf(stderr, "tactl: cannot reach tensorarena: %s\n",
			strerror(-err));
		return 1;
	}
	err = ta_plan_open(c, id, &p);
	if (err) {
		fprintf(stderr, "tactl: export %u: %s\n", id, strerror(-err));
		ta_client_close(c);
		return 1;
	}
	fd = ta_plan_export_tensor(p, tensor, TA_EXPORT_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "tactl: export %u tensor %u: %s%s\n", id, tensor,
			strerror(-fd), fd == -EINVAL ?
			" (an index out of range, or a tensor not planned exportable)" : "");
		ta_plan_free(p);
		ta_client_close(c);
		return 1;
	}
	size = lseek(fd, 0, SEEK_END);
	if (json)
		printf("{\"plan\": %u, \"tensor\": %u, \"size\": %lld, \"offset\": %llu, \"transport\": \"%s\"}\n",
		       id, tensor, (long long)size,
		       (unsigned long long)ta_plan_offset(p, tensor),
		       ta_client_transport(c) == TA_TRANSPORT_NETLINK ?
		       "netlink" : "ioctl");
	else if (!out || strcmp(out, "-"))
		printf("plan %u tensor %u: dma-buf of %lld bytes at offset %llu (via %s)\n",
		       id, tensor, (long long)size,
		       (unsigned long long)ta_plan_offset(p, tensor),
		       ta_client_transport(c) == TA_TRANSPORT_NETLINK ?
		       "netlink" : "ioctl");
	err = 0;
	if (out && size > 0)
		err = export_write(fd, (uint64_t)size, out);
	if (err)
		fprintf(stderr, "tactl: export: %s: %s\n", out, strerror(-err));
	close(fd);
	ta_plan_free(p);
	ta_client_close(c);
	return err ? 1 : 0;
}
