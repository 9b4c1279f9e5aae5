// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * cmd_watch.c - tactl watch: print the tensorarena netlink family's events
 * (plan created, plan destroyed, arena pressure) as they come, through
 * libtensorarena's ta_events_*().
 *
 *	tactl watch [--json] [--count N] [--timeout SECONDS]
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tensorarena.h"
#include "tactl.h"

static const char watch_usage[] =
	"usage: tactl watch [--json] [--count N] [--timeout SECONDS]\n"
	"\n"
	"Prints the events of the " TA_NL_FAMILY_NAME " netlink family (its events\n"
	"group needs CAP_SYS_ADMIN) as they come: plan created, plan destroyed,\n"
	"arena pressure. Says \"tactl watch: listening\" on stderr once subscribed.\n"
	"\n"
	"  --json              one JSON object per line\n"
	"  --count N           exit after N events (status 1 if fewer came)\n"
	"  --timeout SECONDS   exit after that many seconds\n";

static const char *const watch_names[] = {
	[TA_EVENT_PLAN_CREATED] = "created",
	[TA_EVENT_PLAN_DESTROYED] = "destroyed",
	[TA_EVENT_PRESSURE] = "pressure",
};

static void watch_print(const struct ta_event *e, bool json)
{
	const char *what = watch_names[e->type];

	if (e->type == TA_EVENT_PRESSURE) {
		if (json)
			printf("{\"event\": \"pressure\", \"requested\": %llu, \"bytes_in_use\": %llu, \"largest_free\": %llu, \"arena_size\": %llu}\n",
			       (unsigned long long)e->requested,
			       (unsigned long long)e->bytes_in_use,
			       (unsigned long long)e->largest_free,
			       (unsigned long long)e->arena_size);
		else
			printf("pressure   requested %llu, in use %llu of %llu, largest free %llu\n",
			       (unsigned long long)e->requested,
			       (unsigned long long)e->bytes_in_use,
			       (unsigned long long)e->arena_size,
			       (unsigned long long)e->largest_free);
	} else if (json) {
		printf("{\"event\": \"%s\", \"id\": %u, \"uid\": %u, \"tensors\": %u, \"height\": %llu}\n",
		       what, e->plan_id, e->uid, e->n_tensors,
		       (unsigned long long)e->height);
	} else {
		printf("%-10s plan %u (uid %u)", what, e->plan_id, e->uid);
		if (e->type == TA_EVENT_PLAN_CREATED)
			printf(": %u tensors, height %llu", e->n_tensors,
			       (unsigned long long)e->height);
		printf("\n");
	}
	fflush(stdout);
}

int tactl_cmd_watch(int argc, char **argv)
{
	long count = -1, timeout_s = -1, seen = 0;
	struct ta_events *ev;
	bool json = false;
	time_t end = 0;
	int i, err;
	__u64 v;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(watch_usage, stdout);
			return 0;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--count") && i + 1 < argc) {
			if (tactl_parse_num("watch", argv[i], argv[i + 1], 0,
					    LONG_MAX, &v))
				return 2;
			count = v;
			i++;
		} else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) {
			if (tactl_parse_num("watch", argv[i], argv[i + 1], 0,
					    INT_MAX, &v))
				return 2;
			timeout_s = v;
			i++;
		} else {
			fputs(watch_usage, stderr);
			return 2;
		}
	}
	err = ta_events_open(&ev);
	if (err) {
		fprintf(stderr, "tactl watch: %s\n", err == -ENOENT ?
			"no " TA_NL_FAMILY_NAME " family (is tensorarena.ko loaded?)" :
			strerror(-err));
		return 1;
	}
	if (timeout_s >= 0)
		end = time(NULL) + timeout_s;
	/* Tell a script that the subscription is in place. */
	fprintf(stderr, "tactl watch: listening\n");
	while (count < 0 || seen < count) {
		struct ta_event e;
		int wait_ms = -1;

		if (timeout_s >= 0) {
			long left = end - time(NULL);

			if (left <= 0)
				break;
			wait_ms = left > INT_MAX / 1000 ? INT_MAX : left * 1000;
		}
		err = ta_events_next(ev, &e, wait_ms);
		if (err == -ENOBUFS) {
			fprintf(stderr, "tactl watch: events were lost (read too slowly)\n");
			continue;
		}
		if (err == -EINTR)
			continue;
		if (err < 0) {
			fprintf(stderr, "tactl watch: %s\n", strerror(-err));
			break;
		}
		if (err == 1) {
			watch_print(&e, json);
			seen++;
		}
	}
	ta_events_close(ev);
	return count >= 0 && seen < count ? 1 : 0;
}
