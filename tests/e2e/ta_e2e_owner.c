// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_owner.c - ta_e2e's owners: a file's and a process's plans go with
 * them, a second uid is kept apart, several processes at once (stress),
 * the device node's access policy and read-only descriptors.
 */
#include <signal.h>
#include <sys/stat.h>

#include "ta_e2e.h"

TEST_F(dev, owner_lifetime)
{
	struct ta_plan_create c;
	struct ta_info info;
	int fd, status, i;
	void *map;
	pid_t pid;

	/* Closing the fd destroys its plans. */
	fd = open("/dev/" TA_DEVICE_NAME, O_RDWR | O_CLOEXEC);
	for (i = 0; i < 3; i++) {
		c = ta_e2e_graph_request(TA_STRATEGY_FREELIST);
		xioctl(fd, TA_IOCTL_PLAN_CREATE, &c);
	}
	info_now(fd, &info);
	CHECK_WHY(info.n_plans == 3, "owner: three plans on a second fd",
		  "plans %u", info.n_plans);
	close(fd);
	info_now(self->fd, &info);
	CHECK_WHY(info.n_plans == 0 && info.bytes_in_use == 0,
		  "owner: close destroys the fd's plans",
		  "plans %u in use %llu", info.n_plans,
		  (unsigned long long)info.bytes_in_use);

	/* kill -9 of a process holding plans and a mapping. */
	pid = fork();
	if (pid == 0) {
		int cfd = open("/dev/" TA_DEVICE_NAME, O_RDWR);

		c = ta_e2e_graph_request(TA_STRATEGY_AUTO);
		if (xioctl(cfd, TA_IOCTL_PLAN_CREATE, &c))
			_exit(1);
		map = mmap(NULL, c.height, PROT_READ | PROT_WRITE, MAP_SHARED,
			   cfd, c.mmap_offset);
		if (map == MAP_FAILED)
			_exit(1);
		c = ta_e2e_graph_request(TA_STRATEGY_STACK);
		xioctl(cfd, TA_IOCTL_PLAN_CREATE, &c);
		kill(getpid(), SIGSTOP);
		for (;;)
			pause();
	}
	waitpid(pid, &status, WUNTRACED);
	info_now(self->fd, &info);
	CHECK_WHY(WIFSTOPPED(status) && info.n_plans == 2,
		  "owner: child holds two plans and a mapping", "plans %u",
		  info.n_plans);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	info_now(self->fd, &info);
	CHECK_WHY(info.n_plans == 0 && info.bytes_in_use == 0,
		  "owner: kill -9 returns every byte", "plans %u in use %llu",
		  info.n_plans, (unsigned long long)info.bytes_in_use);
}

/* A second uid cannot see, map or destroy the first's plans. */
TEST_F(dev, isolation)
{
	struct ta_plan_create c = ta_e2e_graph_request(TA_STRATEGY_GREEDY_SIZE);
	struct ta_plan_destroy d;
	struct ta_info info;
	int err, status;
	pid_t pid;

	err = xioctl(self->fd, TA_IOCTL_PLAN_CREATE, &c);
	CHECK_WHY(!err, "isolation: root's plan", "errno %d", -err);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct ta_placement pl[G_TENSORS];
		struct ta_plan_get g;
		void *map;
		int fails = 0, own;

		if (setgid(1000) || setuid(1000))
			_exit(100);
		/*
		 * root's descriptor keeps root's identity (its opener's), as
		 * any file does when handed on; a fresh one of uid 1000 does
		 * not show root's plan.
		 */
		if (get_placements(self->fd, c.plan_id, pl, G_TENSORS, &g) != 0)
			fails |= 1;
		map = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, self->fd,
			   c.mmap_offset);
		if (map == MAP_FAILED)
			fails |= 2;
		else
			munmap(map, getpagesize());
		close(self->fd);
		own = open("/dev/" TA_DEVICE_NAME, O_RDWR);
		if (own < 0)
			printf("# uid 1000: open: %s\n", strerror(errno));
		err = get_placements(own, c.plan_id, pl, G_TENSORS, &g);
		if (err != -ENOENT) {
			printf("# uid 1000: get on a fresh fd: %d\n", err);
			fails |= 8;
		}
		map = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, own,
			   c.mmap_offset);
		if (map != MAP_FAILED || errno != ENOENT)
			fails |= 32;
		memset(&d, 0, sizeof(d));
		d.plan_id = c.plan_id;
		if (xioctl(own, TA_IOCTL_PLAN_DESTROY, &d) != -ENOENT)
			fails |= 4;
		/* Its own plans work. */
		c = ta_e2e_graph_request(TA_STRATEGY_FREELIST);
		err = xioctl(own, TA_IOCTL_PLAN_CREATE, &c);
		if (err || get_placements(own, c.plan_id, pl, G_TENSORS, &g)) {
			printf("# uid 1000: own plan: %d\n", err);
			fails |= 16;
		}
		_exit(fails);
	}
	waitpid(pid, &status, 0);
	CHECK_WHY(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "isolation: uid 1000 cannot get, map or destroy root's plan on its own fd; root's fd is root's",
		  "child status 0x%x", status);
	info_now(self->fd, &info);
	CHECK_WHY(info.n_plans == 1,
		  "isolation: root's plan intact, the child's gone with it",
		  "plans %u", info.n_plans);
	memset(&d, 0, sizeof(d));
	d.plan_id = c.plan_id;
	xioctl(self->fd, TA_IOCTL_PLAN_DESTROY, &d);
}

/*
 * Stress: several processes create, read, map, write and destroy plans at
 * once while another lists them and one closes its fd with plans still
 * open; at the end every byte is back. Under the debug kernel this is what
 * lockdep, KASAN and kmemleak watch.
 */
#define STRESS_PROCS	4
#define STRESS_ROUNDS	150

static int stress_worker(unsigned int seed)
{
	struct ta_placement pl[G_TENSORS];
	struct ta_plan_destroy d;
	struct ta_plan_create c;
	struct ta_plan_get g;
	unsigned int r;
	int fd, bad = 0;

	fd = open("/dev/" TA_DEVICE_NAME, O_RDWR);
	if (fd < 0)
		return 1;
	for (r = 0; r < STRESS_ROUNDS; r++) {
		unsigned char *map;

		seed = seed * 1103515245 + 12345;
		c = ta_e2e_graph_request((seed >> 16) % 5);
		if (xioctl(fd, TA_IOCTL_PLAN_CREATE, &c)) {
			bad |= 1;
			continue;
		}
		if (get_placements(fd, c.plan_id, pl, G_TENSORS, &g) ||
		    !placements_valid(pl, c.height))
			bad |= 2;
		map = mmap(NULL, c.height, PROT_READ | PROT_WRITE, MAP_SHARED,
			   fd, c.mmap_offset);
		if (map == MAP_FAILED) {
			bad |= 4;
		} else {
			if (!run_patterns(map, pl))
				bad |= 8;
			if (seed & 0x100000)
				munmap(map, c.height);
		}
		/* Leave some plans for the close to reap. */
		if (seed & 0x200000) {
			memset(&d, 0, sizeof(d));
			d.plan_id = c.plan_id;
			if (xioctl(fd, TA_IOCTL_PLAN_DESTROY, &d))
				bad |= 16;
		}
	}
	close(fd);
	return bad;
}

TEST_F(dev, stress)
{
	long long file0 = param_read("max_file_plans");
	long long user0 = param_read("max_user_plans");
	pid_t pids[STRESS_PROCS];
	struct ta_plan_get g;
	struct ta_info info;
	int i, status, bad = 0, lists = 0;
	char buf[32];

	/*
	 * The workers keep up to STRESS_ROUNDS plans each (as root, one
	 * uid): more than the default quotas allow one file and one uid, so
	 * raise them for the run, as an administrator would.
	 */
	snprintf(buf, sizeof(buf), "%d", STRESS_ROUNDS);
	param_write("max_file_plans", buf);
	snprintf(buf, sizeof(buf), "%d", STRESS_PROCS * STRESS_ROUNDS);
	param_write("max_user_plans", buf);

	for (i = 0; i < STRESS_PROCS; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			_exit(stress_worker(i + 1));
	}
	/* List while they work: every plan listed must be readable or gone. */
	for (;;) {
		int running = 0;

		memset(&g, 0, sizeof(g));
		g.flags = TA_GET_NEXT;
		while (!xioctl(self->fd, TA_IOCTL_PLAN_GET, &g)) {
			g.flags = TA_GET_NEXT;
			g.placements = 0;
		}
		lists++;
		for (i = 0; i < STRESS_PROCS; i++)
			if (pids[i] && waitpid(pids[i], &status, WNOHANG) == pids[i]) {
				bad |= !WIFEXITED(status) || WEXITSTATUS(status);
				pids[i] = 0;
			}
		for (i = 0; i < STRESS_PROCS; i++)
			running |= pids[i] != 0;
		if (!running)
			break;
	}
	CHECK_WHY(!bad, "stress: 4 processes x 150 create/map/walk/destroy",
		  "a worker failed (status 0x%x)", status);
	info_now(self->fd, &info);
	CHECK_WHY(info.n_plans == 0 && info.bytes_in_use == 0 &&
		  info.largest_free == info.arena_size && lists > 0,
		  "stress: every byte back after the workers exit",
		  "plans %u in use %llu", info.n_plans,
		  (unsigned long long)info.bytes_in_use);
	snprintf(buf, sizeof(buf), "%lld", file0);
	param_write("max_file_plans", buf);
	snprintf(buf, sizeof(buf), "%lld", user0);
	param_write("max_user_plans", buf);
}

static int open_as_outsider(void)
{
	int fd = open("/dev/" TA_DEVICE_NAME, O_RDWR);

	return fd < 0 && errno == EACCES ? 0 : 1;
}

/* The device node and a read-only descriptor follow the access policy. */
TEST_F(dev, access)
{
	long long group = param_read("group");
	struct ta_plan_create c = ta_e2e_graph_request(TA_STRATEGY_FREELIST);
	struct ta_plan_destroy d;
	struct ta_plan_export x;
	struct ta_info info;
	struct stat st;
	int ro, err;

	err = stat("/dev/" TA_DEVICE_NAME, &st);
	CHECK_WHY(!err && (st.st_mode & 07777) == 0660 && st.st_uid == 0 &&
		  (long long)st.st_gid == group,
		  "access: /dev/tensorarena is root:<group> 0660",
		  "mode %o uid %u gid %u (group parameter %lld)",
		  st.st_mode & 07777, st.st_uid, st.st_gid, group);
	CHECK_WHY(as_user(2000, 2000, open_as_outsider) == 0,
		  "access: a uid outside the group cannot open it (EACCES)",
		  "opened");

	ro = open("/dev/" TA_DEVICE_NAME, O_RDONLY);
	CHECK_WHY(ro >= 0, "access: root opens it read-only", "%s",
		  strerror(errno));
	if (ro < 0)
		return;
	memset(&info, 0, sizeof(info));
	CHECK_WHY(ioctl(ro, TA_IOCTL_INFO, &info) == 0,
		  "access: INFO on a read-only fd", "%s", strerror(errno));
	err = ioctl(ro, TA_IOCTL_PLAN_CREATE, &c) ? errno : 0;
	CHECK_WHY(err == EBADF, "access: CREATE on a read-only fd -> EBADF",
		  "got %d", err);
	err = xioctl(self->fd, TA_IOCTL_PLAN_CREATE, &c);
	memset(&d, 0, sizeof(d));
	d.plan_id = c.plan_id;
	err = err ?: (ioctl(ro, TA_IOCTL_PLAN_DESTROY, &d) ? errno : 0);
	CHECK_WHY(err == EBADF, "access: DESTROY on a read-only fd -> EBADF",
		  "got %d", err);
	memset(&x, 0, sizeof(x));
	x.plan_id = c.plan_id;
	err = ioctl(ro, TA_IOCTL_PLAN_EXPORT, &x) ? errno : 0;
	CHECK_WHY(err == EBADF, "access: EXPORT on a read-only fd -> EBADF",
		  "got %d", err);
	xioctl(self->fd, TA_IOCTL_PLAN_DESTROY, &d);
	close(ro);
}

