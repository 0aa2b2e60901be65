// SPDX-License-Identifier: GPL-2.0
/*
 * ismctl: output, as plain text or as JSON. The printers take both a JSON
 * key and a text format, so an object's code prints either form; in JSON
 * the text formats are ignored, in text the keys. JSON goes to stdout as
 * one array of objects, compact or (-p) indented by two blanks.
 *
 * Strings come from the kernel, which may send any byte but NUL in them:
 * JSON must stay valid and a terminal must not get control bytes. See
 * json_string() and out_esc(); test/out_test.c (make check) tests both.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ismctl.h"

#define MAX_DEPTH	8

static bool json, pretty;
static int depth;			/* open arrays and objects */
static bool has_items[MAX_DEPTH];	/* the open level is not empty */

void out_init(bool want_json, bool want_pretty)
{
	json = want_json || want_pretty;
	pretty = want_pretty;
}

bool out_is_json(void)
{
	return json;
}

static void indent(void)
{
	if (pretty)
		printf("\n%*s", 2 * depth, "");
}

/*
 * Length of the valid UTF-8 sequence that starts at @s, or 0. Valid as
 * RFC 3629 has it: no overlong forms, no surrogates, nothing above
 * U+10FFFF; JSON parsers may reject the rest. Reads no byte past a NUL.
 */
static int utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;	/* range of the second byte */
	int len, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;	/* continuation, 0xc0/0xc1 (overlong), 0xf5-0xff */
	if (s[0] == 0xe0)
		lo = 0xa0;	/* overlong below U+0800 */
	else if (s[0] == 0xed)
		hi = 0x9f;	/* surrogates U+D800-U+DFFF */
	else if (s[0] == 0xf0)
		lo = 0x90;	/* overlong below U+10000 */
	else if (s[0] == 0xf4)
		hi = 0x8f;	/* above U+10FFFF */
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

/* JSON's two-character escapes, by the byte they stand for. */
static const char json_short[128] = {
	['\b'] = 'b', ['\t'] = 't', ['\n'] = 'n', ['\f'] = 'f', ['\r'] = 'r',
	['"'] = '"', ['\\'] = '\\',
};

/*
 * A JSON string. Valid UTF-8 goes out as it is; control bytes, DEL and
 * every byte that is not part of a valid sequence are escaped as \u00XX
 * (a parser reads U+00XX), so the document stays valid UTF-8 and every
 * byte still shows: dropping or replacing it would hide what the kernel
 * sent.
 */
static void json_string(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	int len;

	putchar('"');
	for (; *s; s += len) {
		len = utf8_len(s);
		if (len > 1) {
			fwrite(s, 1, len, stdout);
			continue;
		}
		len = 1;
		if (*s < sizeof(json_short) && json_short[*s])
			printf("\\%c", json_short[*s]);
		else if (*s < 0x20 || *s >= 0x7f)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

/* Start a member: the comma, the indentation and the key, if any. */
static void json_member(const char *key)
{
	if (depth && has_items[depth - 1])
		putchar(',');
	if (depth) {
		has_items[depth - 1] = true;
		indent();
	}
	if (key) {
		json_string(key);
		printf(pretty ? ": " : ":");
	}
}

static void json_open(const char *key, char bracket)
{
	json_member(key);
	putchar(bracket);
	if (depth < MAX_DEPTH)
		has_items[depth] = false;
	depth++;
}

static void json_close(char bracket)
{
	bool items = depth <= MAX_DEPTH && has_items[depth - 1];

	depth--;
	if (items)
		indent();
	putchar(bracket);
	if (!depth)
		putchar('\n');
}

void out_list_start(void)
{
	if (json)
		json_open(NULL, '[');
}

void out_list_end(void)
{
	if (json)
		json_close(']');
	fflush(stdout);
}

void out_obj_start(const char *key)
{
	if (json)
		json_open(key, '{');
}

void out_obj_end(void)
{
	if (json)
		json_close('}');
}

void out_arr_start(const char *key)
{
	if (json)
		json_open(key, '[');
}

void out_arr_end(void)
{
	if (json)
		json_close(']');
}

/*
 * The text form of a string from the kernel: printable ASCII as it is,
 * every other byte and the backslash itself as \xHH, so that a terminal
 * gets no control byte and the text reads back unambiguously. Valid until
 * the next call.
 */
const char *out_esc(const char *str)
{
	static char *buf;
	static size_t size;
	const unsigned char *s = (const unsigned char *)str;
	size_t need = 4 * strlen(str) + 1;
	char *p;

	if (need > size) {
		p = realloc(buf, need);
		if (!p) {
			fflush(stdout);
			fputs("ismctl: out of memory\n", stderr);
			exit(EXIT_ERR);
		}
		buf = p;
		size = need;
	}
	for (p = buf; *s; s++) {
		if (*s >= 0x20 && *s < 0x7f && *s != '\\')
			*p++ = *s;
		else
			p += sprintf(p, "\\x%02x", *s);
	}
	*p = '\0';
	return buf;
}

void out_str(const char *key, const char *fmt, const char *val)
{
	if (json) {
		json_member(key);
		json_string(val);
	} else if (fmt) {
		printf(fmt, out_esc(val));
	}
}

void out_flag(const char *key, const char *text)
{
	if (json) {
		json_member(key);
		fputs("true", stdout);
	} else if (text) {
		fputs(text, stdout);
	}
}

void out_uint(const char *key, const char *fmt, unsigned long long val)
{
	if (json) {
		json_member(key);
		printf("%llu", val);
	} else if (fmt) {
		printf(fmt, val);
	}
}

void out_text(const char *fmt, ...)
{
	va_list ap;

	if (json)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

/* " key val" in text, "key": "val" in JSON. */
void out_kv_str(const char *key, const char *val)
{
	out_text(" %s", key);
	out_str(key, " %s", val);
}

/* " key val" in text, "key": val in JSON. */
void out_kv_uint(const char *key, unsigned long long val)
{
	out_text(" %s", key);
	out_uint(key, " %llu", val);
}
