// SPDX-License-Identifier: GPL-2.0
/*
 * ismctl: output, as plain text or as JSON. The printers take both a JSON
 * key and a text format, so an object's code prints either form; in JSON
 * the text formats are ignored, in text the keys. JSON goes to stdout as
 * one array of objects, compact or (-p) indented by two blanks.
 */
#include <stdarg.h>
#include <stdio.h>

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

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char ch = *s;

		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch < 0x20)
			printf("\\u%04x", ch);
		else
			putchar(ch);
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

void out_str(const char *key, const char *fmt, const char *val)
{
	if (json) {
		json_member(key);
		json_string(val);
	} else if (fmt) {
		printf(fmt, val);
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
