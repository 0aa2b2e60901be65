// SPDX-License-Identifier: GPL-2.0
/*
 * ism_json: check JSON and flatten it to one line per value, for the e2e
 * tests in the busybox initramfs, which has no jq or python.
 *
 *   ism_json [FILE] < JSON
 *
 * prints PATH=VALUE for every string, number, true, false and null, where
 * PATH joins the object keys and array indexes from the top with '/';
 * empty arrays and objects print as [] and {}. Strings are unescaped, so
 *   [{"name":"ismlo0","clients":["a"],"stats":{"moves":100}}]
 * prints
 *   0/name=ismlo0
 *   0/clients/0=a
 *   0/stats/moves=100
 * Exit status: 0, 1 if the input is not one valid JSON value (the reason
 * goes to stderr), 2 for a usage error.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH	64
#define MAX_PATH	4096

static const char *in;		/* the input, NUL-terminated */
static const char *pos;		/* parse position */
static char path[MAX_PATH];
static size_t path_len;

static void fail(const char *what)
{
	fprintf(stderr, "ism_json: %s at byte %ld\n", what, (long)(pos - in));
	exit(1);
}

static void skip_ws(void)
{
	while (*pos == ' ' || *pos == '\t' || *pos == '\n' || *pos == '\r')
		pos++;
}

/* Append "/" (unless at the top) and @s to the path; returns the old end. */
static size_t path_push(const char *s, size_t len)
{
	size_t old = path_len;

	if (path_len + len + 2 > sizeof(path))
		fail("path too long");
	if (path_len)
		path[path_len++] = '/';
	memcpy(path + path_len, s, len);
	path_len += len;
	path[path_len] = '\0';
	return old;
}

static void path_pop(size_t old)
{
	path_len = old;
	path[path_len] = '\0';
}

static void put_utf8(char **out, unsigned long cp)
{
	char *o = *out;

	if (cp < 0x80) {
		*o++ = cp;
	} else if (cp < 0x800) {
		*o++ = 0xc0 | (cp >> 6);
		*o++ = 0x80 | (cp & 0x3f);
	} else if (cp < 0x10000) {
		*o++ = 0xe0 | (cp >> 12);
		*o++ = 0x80 | ((cp >> 6) & 0x3f);
		*o++ = 0x80 | (cp & 0x3f);
	} else {
		*o++ = 0xf0 | (cp >> 18);
		*o++ = 0x80 | ((cp >> 12) & 0x3f);
		*o++ = 0x80 | ((cp >> 6) & 0x3f);
		*o++ = 0x80 | (cp & 0x3f);
	}
	*out = o;
}

static unsigned long hex4(void)
{
	unsigned long v = 0;
	int i;

	for (i = 0; i < 4; i++, pos++) {
		if (!isxdigit((unsigned char)*pos))
			fail("bad \\u escape");
		v = v * 16 + (isdigit((unsigned char)*pos) ? *pos - '0' :
			      (tolower((unsigned char)*pos) - 'a' + 10));
	}
	return v;
}

/* A string at pos (on its '"'), unescaped into a malloc'ed buffer. */
static char *parse_string(size_t *len)
{
	static const char esc_in[] = "\"\\/bfnrt";
	static const char esc_out[] = "\"\\/\b\f\n\r\t";
	const char *esc, *end;
	char *buf, *o;
	unsigned long cp;

	/* The unescaped string is never longer than the escaped one. */
	for (end = ++pos; *end && *end != '"'; end++)
		if (*end == '\\' && end[1])
			end++;
	buf = malloc(end - pos + 1);
	if (!buf)
		fail("out of memory");
	o = buf;
	for (;;) {
		unsigned char ch = *pos++;

		if (ch == '"')
			break;
		if (!ch)
			fail("unterminated string");
		if (ch < 0x20)
			fail("control character in string");
		if (ch != '\\') {
			*o++ = ch;
			continue;
		}
		ch = *pos++;
		esc = ch ? strchr(esc_in, ch) : NULL;
		if (esc) {
			*o++ = esc_out[esc - esc_in];
			continue;
		}
		if (ch != 'u')
			fail("bad escape");
		cp = hex4();
		if (cp >= 0xd800 && cp < 0xdc00 && pos[0] == '\\' &&
		    pos[1] == 'u') {
			unsigned long lo;

			pos += 2;
			lo = hex4();
			if (lo < 0xdc00 || lo > 0xdfff)
				fail("bad surrogate pair");
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		}
		put_utf8(&o, cp);
	}
	*o = '\0';
	*len = o - buf;
	return buf;
}

static void print_value(const char *start, size_t len)
{
	printf("%s=%.*s\n", path, (int)len, start);
}

static void skip_digits(void)
{
	if (!isdigit((unsigned char)*pos))
		fail("bad number");
	while (isdigit((unsigned char)*pos))
		pos++;
}

static void parse_number(void)
{
	const char *start = pos;

	if (*pos == '-')
		pos++;
	if (*pos == '0')
		pos++;
	else
		skip_digits();
	if (*pos == '.') {
		pos++;
		skip_digits();
	}
	if (*pos == 'e' || *pos == 'E') {
		pos++;
		if (*pos == '+' || *pos == '-')
			pos++;
		skip_digits();
	}
	print_value(start, pos - start);
}

static void parse_value(int depth);

static void parse_array(int depth)
{
	char idx[24];
	size_t old;
	int n = 0;

	pos++;
	skip_ws();
	if (*pos == ']') {
		pos++;
		print_value("[]", 2);
		return;
	}
	for (;;) {
		old = path_push(idx, snprintf(idx, sizeof(idx), "%d", n++));
		parse_value(depth + 1);
		path_pop(old);
		skip_ws();
		if (*pos == ']')
			break;
		if (*pos != ',')
			fail("expected ',' or ']'");
		pos++;
	}
	pos++;
}

static void parse_object(int depth)
{
	size_t old, len;
	char *key;

	pos++;
	skip_ws();
	if (*pos == '}') {
		pos++;
		print_value("{}", 2);
		return;
	}
	for (;;) {
		skip_ws();
		if (*pos != '"')
			fail("expected a key");
		key = parse_string(&len);
		if (memchr(key, '/', len) || memchr(key, '=', len) ||
		    strlen(key) != len)
			fail("key with '/', '=' or NUL");
		skip_ws();
		if (*pos != ':')
			fail("expected ':'");
		pos++;
		old = path_push(key, len);
		free(key);
		parse_value(depth + 1);
		path_pop(old);
		skip_ws();
		if (*pos == '}')
			break;
		if (*pos != ',')
			fail("expected ',' or '}'");
		pos++;
	}
	pos++;
}

static void parse_value(int depth)
{
	size_t len;
	char *s;

	if (depth > MAX_DEPTH)
		fail("nested too deep");
	skip_ws();
	switch (*pos) {
	case '{':
		parse_object(depth);
		break;
	case '[':
		parse_array(depth);
		break;
	case '"':
		s = parse_string(&len);
		print_value(s, len);
		free(s);
		break;
	case 't':
	case 'f':
	case 'n':
		len = !strncmp(pos, "true", 4) || !strncmp(pos, "null", 4) ? 4 :
		      !strncmp(pos, "false", 5) ? 5 : 0;
		if (!len)
			fail("bad literal");
		print_value(pos, len);
		pos += len;
		break;
	default:
		parse_number();
	}
}

int main(int argc, char **argv)
{
	FILE *f = stdin;
	size_t len = 0, size = 0;
	char *buf = NULL;

	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		fprintf(stderr, "usage: ism_json [FILE] (or JSON on stdin)\n");
		return 2;
	}
	if (argc == 2) {
		f = fopen(argv[1], "r");
		if (!f) {
			perror(argv[1]);
			return 1;
		}
	}
	for (;;) {
		if (len + 1 >= size) {
			size = size ? 2 * size : 65536;
			buf = realloc(buf, size);
			if (!buf) {
				fprintf(stderr, "ism_json: out of memory\n");
				return 1;
			}
		}
		len += fread(buf + len, 1, size - len - 1, f);
		if (feof(f) || ferror(f))
			break;
	}
	if (ferror(f)) {
		perror("ism_json: read");
		return 1;
	}
	buf[len] = '\0';
	in = pos = buf;
	if (strlen(buf) != len)
		fail("NUL byte in input");
	skip_ws();
	if (!*pos)
		fail("no JSON value");
	parse_value(0);
	skip_ws();
	if (*pos)
		fail("trailing data");
	return 0;
}
