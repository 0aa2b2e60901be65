// SPDX-License-Identifier: GPL-2.0
/*
 * ism_fault: what the kernel logs and traces during a run. The console
 * kept quiet (-w) and what it did not show replayed, but for the stack
 * dumps of failed allocations; the time of the injected fault; whether
 * and when a module's init was called (the initcall_start trace event).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ism_fault.h"

/* ---- the initcall_start trace event ---- */

#define TRACING		"/sys/kernel/tracing"

/* Whether the trace clock is local_clock(), as the kernel log's. */
static bool trace_clock_perf;

/* Return: whether the event is on; if so, its buffer is now empty. */
bool initcall_trace_clear(void)
{
	char buf[256] = "";
	ssize_t len;
	int fd = open(TRACING "/events/initcall/initcall_start/enable",
		      O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	len = read(fd, buf, 1);
	close(fd);
	if (len != 1 || buf[0] != '1')
		return false;
	fd = open(TRACING "/trace_clock", O_RDONLY | O_CLOEXEC);
	len = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	buf[len > 0 ? len : 0] = '\0';
	trace_clock_perf = strstr(buf, "[perf]");
	fd = open(TRACING "/trace", O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		die(TRACING "/trace");
	close(fd);
	return true;
}

/*
 * Return: whether an initcall_start event was traced; @usec: its time in
 * microseconds if the trace clock is "perf", else -1.
 */
bool initcall_traced(long long *usec)
{
	static char buf[65536];
	ssize_t len, got = 0;
	unsigned long sec, us;
	char *ev, *p;
	int fd = open(TRACING "/trace", O_RDONLY | O_CLOEXEC);

	*usec = -1;
	if (fd < 0)
		die(TRACING "/trace");
	while (got < (ssize_t)sizeof(buf) - 1 &&
	       (len = read(fd, buf + got, sizeof(buf) - 1 - got)) > 0)
		got += len;
	close(fd);
	buf[got] = '\0';
	/* "  ism_fault-123  [001] .....  48.726960: initcall_start: ..." */
	ev = strstr(buf, ": initcall_start:");
	if (!ev)
		return false;
	*ev = '\0';
	p = strrchr(buf, ' ');
	if (trace_clock_perf && p && sscanf(p + 1, "%lu.%lu", &sec, &us) == 2)
		*usec = sec * 1000000LL + us;
	return true;
}
/* ---- the console and the kernel log ---- */

#define PRINTK_SYSCTL	"/proc/sys/kernel/printk"
/* Records at this level and above are kept off the console meanwhile. */
#define QUIET_LEVEL	4

static int kmsg_fd = -1;
static char printk_saved[64];
static int console_saved;

/*
 * Kernel reports, which must never be hidden: the patterns of the test
 * harness's tests/lib/kernel-reports, one extended regular expression a
 * line, which parse-log.py and the e2e tests' lib/kmsg.sh match too.
 * Inside a warn_alloc dump only its own "Call Trace:" is expected.
 */
#define REPORTS_PATH	"/ism/tests/lib/kernel-reports"
#define MAX_REPORTS	128

static regex_t reports[MAX_REPORTS];
static unsigned int nreports;

void kmsg_reports_load(void)
{
	const char *path = getenv("ISM_KERNEL_REPORTS");
	char line[1024];
	FILE *f;

	if (!path || !*path)
		path = REPORTS_PATH;
	f = fopen(path, "re");
	if (!f)
		die(path);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		/* As parse-log.py: a blank line is no pattern. */
		if (!line[strspn(line, " \t")])
			continue;
		if (nreports == MAX_REPORTS ||
		    regcomp(&reports[nreports], line, REG_EXTENDED | REG_NOSUB)) {
			fprintf(stderr, "ism_fault: %s: bad pattern or too many: %s\n",
				path, line);
			exit(1);
		}
		nreports++;
	}
	fclose(f);
	if (!nreports) {
		fprintf(stderr, "ism_fault: %s: no patterns\n", path);
		exit(1);
	}
}

static bool looks_like_report(const char *text)
{
	unsigned int i;

	for (i = 0; i < nreports; i++)
		if (!regexec(&reports[i], text, 0, NULL, 0))
			return true;
	return false;
}

static bool starts(const char *text, const char *prefix)
{
	return !strncmp(text, prefix, strlen(prefix));
}

/* The first line of a warn_alloc() or pcpu_alloc() failure report. */
static bool alloc_warning(const char *text)
{
	return strstr(text, ": vmalloc error: ") ||
	       strstr(text, ": page allocation failure: ") ||
	       starts(text, "percpu: allocation failed");
}

/*
 * A line of the dump_stack() that follows one: its header, a frame, or the
 * registers of the system call's entry ("RIP: ...", "Code: ...", "RSP:
 * ...", "RAX: ..." to "R13: ..."). A real report among them would start
 * with a line of its own ("WARNING: ...", "BUG: ...").
 */
static bool stack_line(const char *text)
{
	size_t reg = strspn(text, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");

	return starts(text, "CPU: ") || starts(text, "Hardware name: ") ||
	       !strcmp(text, "Call Trace:") || text[0] == ' ' ||
	       starts(text, "Code: ") ||
	       (text[0] == 'R' && reg >= 2 && reg <= 3 &&
		starts(text + reg, ": "));
}

/* From now on, kmsg_scan() reads what the kernel logs. */
void kmsg_start(void)
{
	if (kmsg_fd < 0) {
		kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (kmsg_fd < 0)
			die("/dev/kmsg");
	}
	if (lseek(kmsg_fd, 0, SEEK_END) < 0)
		die("/dev/kmsg: seek");
}

void console_quiet(void)
{
	ssize_t len;
	int fd;

	fd = open(PRINTK_SYSCTL, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		die(PRINTK_SYSCTL);
	len = read(fd, printk_saved, sizeof(printk_saved) - 1);
	if (len <= 0)
		die(PRINTK_SYSCTL);
	printk_saved[len] = '\0';
	console_saved = atoi(printk_saved);
	if (console_saved > QUIET_LEVEL &&
	    pwrite(fd, "4\n", 2, 0) != 2)
		die(PRINTK_SYSCTL);
	close(fd);
}

void console_restore(void)
{
	int fd = open(PRINTK_SYSCTL, O_WRONLY | O_CLOEXEC);
	size_t len = strlen(printk_saved);

	if (fd < 0 || write(fd, printk_saved, len) != (ssize_t)len)
		die(PRINTK_SYSCTL);
	close(fd);
}

/*
 * Read what the kernel logged since kmsg_start(). @fault_usec: the time
 * of the first "FAULT_INJECTION: forcing a failure" (fail_*, verbose >= 1),
 * -1 if none; such records are not printed. With @replay, print the
 * records the console did not show because of console_quiet(), but for
 * warn_alloc() dumps: their first line, the stack dump and warn_alloc()'s
 * show_mem() (from "Mem-Info:" to "N pages reserved").
 * Return: the number of those dumps.
 */
unsigned int kmsg_scan(bool replay, long long *fault_usec)
{
	enum { OUT, STACK, STACK_END, MEMINFO } state = OUT;
	unsigned int dumps = 0;
	char rec[8192];
	ssize_t len;

	*fault_usec = -1;
	for (;;) {
		char *text, *end, *p;
		int level;

		len = read(kmsg_fd, rec, sizeof(rec) - 1);
		if (len < 0 && errno == EPIPE) {
			if (replay)
				printf("kmsg: (ism_fault: kernel log records lost)\n");
			continue;
		}
		if (len <= 0)
			break;
		rec[len] = '\0';
		/* "PRIORITY,SEQ,USEC,FLAGS[,...];TEXT\n[ KEY=VALUE\n...]" */
		text = strchr(rec, ';');
		if (!text)
			continue;
		text++;
		end = strchr(text, '\n');
		if (end)
			*end = '\0';
		level = atoi(rec) & 7;

		if (starts(text, "FAULT_INJECTION: forcing a failure")) {
			p = strchr(rec, ',');
			p = p ? strchr(p + 1, ',') : NULL;
			if (p && *fault_usec < 0)
				*fault_usec = strtoll(p + 1, NULL, 10);
			continue;
		}
		if (!replay)
			continue;
		if (state == STACK && stack_line(text)) {
			if (!strcmp(text, " </TASK>"))
				state = STACK_END;
			continue;
		}
		if (state == STACK_END && !strcmp(text, "Mem-Info:")) {
			state = MEMINFO;
			continue;
		}
		if (state == MEMINFO && !looks_like_report(text)) {
			if (strstr(text, " pages reserved"))
				state = OUT;
			continue;
		}
		state = OUT;
		if (alloc_warning(text) && !looks_like_report(text)) {
			printf("allocwarn: %s\n", text);
			dumps++;
			state = STACK;
			continue;
		}
		/* What the console showed anyway needs no second copy. */
		if (level >= QUIET_LEVEL && level < console_saved)
			printf("kmsg: %s\n", text);
	}
	return dumps;
}
