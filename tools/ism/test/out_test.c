// SPDX-License-Identifier: GPL-2.0
/*
 * make check: how ismctl's out.c escapes strings from the kernel, which
 * may hold any byte but NUL. For every row of the table, the JSON of a
 * small document and the plain text must be exactly as expected, and the
 * JSON must parse: with jq, and with python3 if it is installed, which,
 * unlike jq, also rejects a document that is not valid UTF-8. Built with
 * the out.c under test (make check OUT_C=FILE tests another version), and
 * so only through the printers that out.c has always had.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ismctl.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct row {
	const char *what;
	const char *in;
	const char *json;	/* the JSON string, quotes included */
	const char *text;
};

/* A hex escape goes on over hex digits: after one, no a-f follows. */
static const struct row rows[] = {
	{ "plain ASCII", "ismlo0", "\"ismlo0\"", "ismlo0" },
	{ "quotes", "\"a\"", "\"\\\"a\\\"\"", "\"a\"" },
	{ "backslash", "a\\b", "\"a\\\\b\"", "a\\x5cb" },
	{ "control bytes", "\x01\b\t\n\f\r\x1b\x1f",
	  "\"\\u0001\\b\\t\\n\\f\\r\\u001b\\u001f\"",
	  "\\x01\\x08\\x09\\x0a\\x0c\\x0d\\x1b\\x1f" },
	{ "DEL", "x\x7fy", "\"x\\u007fy\"", "x\\x7fy" },
	{ "Latin-1 caf\\xe9", "caf\xe9", "\"caf\\u00e9\"", "caf\\xe9" },
	{ "UTF-8 caf\\xc3\\xa9", "caf\xc3\xa9", "\"caf\xc3\xa9\"",
	  "caf\\xc3\\xa9" },
	{ "3-byte euro sign", "\xe2\x82\xac", "\"\xe2\x82\xac\"",
	  "\\xe2\\x82\\xac" },
	{ "4-byte emoji", "\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"",
	  "\\xf0\\x9f\\x98\\x80" },
	{ "U+10FFFF, the last", "\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"",
	  "\\xf4\\x8f\\xbf\\xbf" },
	{ "U+D7FF and U+E000 around the surrogates",
	  "\xed\x9f\xbf\xee\x80\x80", "\"\xed\x9f\xbf\xee\x80\x80\"",
	  "\\xed\\x9f\\xbf\\xee\\x80\\x80" },
	{ "overlong C0 80", "\xc0\x80", "\"\\u00c0\\u0080\"", "\\xc0\\x80" },
	{ "overlong E0 9F BF", "\xe0\x9f\xbf", "\"\\u00e0\\u009f\\u00bf\"",
	  "\\xe0\\x9f\\xbf" },
	{ "overlong F0 8F BF BF", "\xf0\x8f\xbf\xbf",
	  "\"\\u00f0\\u008f\\u00bf\\u00bf\"", "\\xf0\\x8f\\xbf\\xbf" },
	{ "surrogate ED A0 80", "\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\"",
	  "\\xed\\xa0\\x80" },
	{ "above U+10FFFF F4 90 80 80", "\xf4\x90\x80\x80",
	  "\"\\u00f4\\u0090\\u0080\\u0080\"", "\\xf4\\x90\\x80\\x80" },
	{ "F5 and FF", "\xf5\xff", "\"\\u00f5\\u00ff\"", "\\xf5\\xff" },
	{ "lone continuation byte", "x\x80y", "\"x\\u0080y\"", "x\\x80y" },
	{ "truncated E2 82", "\xe2\x82", "\"\\u00e2\\u0082\"", "\\xe2\\x82" },
	{ "truncated F0 9F 98, then ASCII", "\xf0\x9f\x98z",
	  "\"\\u00f0\\u009f\\u0098z\"", "\\xf0\\x9f\\x98z" },
	{ "valid after truncated", "\xe2\x82\xe2\x82\xac",
	  "\"\\u00e2\\u0082\xe2\x82\xac\"", "\\xe2\\x82\\xe2\\x82\\xac" },
};

/* Checkers of a JSON document on their stdin: exit status 0 if valid. */
static const struct {
	const char *name;
	const char *cmd;
} checkers[] = {
	{ "jq", "jq -e . >/dev/null" },
	{ "python3", "python3 -c 'import json, sys; "
		     "json.loads(sys.stdin.buffer.read().decode(\"utf-8\"))'" },
};

static bool have[ARRAY_SIZE(checkers)];
static int passed, failed;

static void __printf(2, 3) result(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d ", ok ? "ok" : "not ok", passed + failed + 1);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (ok)
		passed++;
	else
		failed++;
}

/* Bytes as a C string literal would have them, for a failure report. */
static void show(const char *label, const char *s)
{
	printf("#   %-8s \"", label);
	for (; *s; s++) {
		unsigned char ch = *s;

		if (ch == '\\' || ch == '"')
			printf("\\%c", ch);
		else if (ch >= 0x20 && ch < 0x7f)
			putchar(ch);
		else
			printf("\\x%02x", ch);
	}
	printf("\"\n");
}

/* What @fn printed for @in, read back from a temporary file. */
static char *capture(void (*fn)(const char *), const char *in)
{
	static char buf[4096];
	FILE *f = tmpfile();
	size_t len;
	int saved;

	if (!f) {
		perror("out_test: tmpfile");
		exit(1);
	}
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	if (saved < 0 || dup2(fileno(f), STDOUT_FILENO) < 0) {
		perror("out_test: dup");
		exit(1);
	}
	fn(in);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	rewind(f);
	len = fread(buf, 1, sizeof(buf) - 1, f);
	buf[len] = '\0';
	fclose(f);
	return buf;
}

/* The string as a device's name and as its two clients, as in dev show. */
static void print_json(const char *in)
{
	out_init(true, false);
	out_list_start();
	out_obj_start(NULL);
	out_str("name", NULL, in);
	out_arr_start("clients");
	out_str(NULL, NULL, in);
	out_str(NULL, NULL, in);
	out_arr_end();
	out_obj_end();
	out_list_end();
}

static void print_text(const char *in)
{
	out_init(false, false);
	out_str("name", "%s", in);
}

static bool json_valid(size_t c, const char *doc)
{
	FILE *p;

	fflush(stdout);		/* the checker's complaint after our lines */
	p = popen(checkers[c].cmd, "w");
	if (!p)
		return false;
	fputs(doc, p);
	return pclose(p) == 0;
}

static void expect(const char *kind, const char *what, const char *got,
		   const char *want)
{
	bool same = !strcmp(got, want);

	result(same, "%s: %s", kind, what);
	if (!same) {
		show("got", got);
		show("want", want);
	}
}

static void test_row(const struct row *r)
{
	char want[1024];
	const char *got;
	size_t c;

	snprintf(want, sizeof(want), "[{\"name\":%s,\"clients\":[%s,%s]}]\n",
		 r->json, r->json, r->json);
	got = capture(print_json, r->in);
	expect("json", r->what, got, want);
	for (c = 0; c < ARRAY_SIZE(checkers); c++) {
		if (have[c])
			result(json_valid(c, got), "json: %s: valid to %s",
			       r->what, checkers[c].name);
	}
	expect("text", r->what, capture(print_text, r->in), r->text);
}

int main(void)
{
	char cmd[64], used[64] = "";
	size_t i, c;

	/* A checker that quits early must fail its row, not end the test. */
	signal(SIGPIPE, SIG_IGN);
	for (c = 0; c < ARRAY_SIZE(checkers); c++) {
		snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1",
			 checkers[c].name);
		have[c] = !system(cmd);
		if (have[c])
			snprintf(used + strlen(used), sizeof(used) - strlen(used),
				 "%s%s", *used ? ", " : "", checkers[c].name);
		else
			printf("# %s not installed: not used\n", checkers[c].name);
	}
	if (!*used) {
		printf("not ok 1 no JSON checker (jq, python3) installed\n");
		return 1;
	}
	for (i = 0; i < ARRAY_SIZE(rows); i++)
		test_row(&rows[i]);
	printf("# %d passed, %d failed (JSON checked by %s)\n", passed, failed,
	       used);
	return failed ? 1 : 0;
}
