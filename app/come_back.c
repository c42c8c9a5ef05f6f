/* The come-back line: the command that opens again what the TUI left open. */
#include "app.h"

#include <stdlib.h>
#include <string.h>

/* One shell word: bare when it is made of characters no shell treats specially, else in
 * single quotes; a control character (an id the server made up) as $'\xHH' outside them. */
static void shell_word(const char *s, struct buf *out)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789-_./:@%+=,";
	if (*s && s[strspn(s, safe)] == '\0') {
		buf_puts(out, s);
		return;
	}
	bool open = false;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		bool control = *p < 0x20 || *p == 0x7f;
		if ((control || *p == '\'') && open) {
			buf_putc(out, '\'');
			open = false;
		}
		if (control)
			buf_printf(out, "$'\\x%02x'", *p);
		else if (*p == '\'')
			buf_puts(out, "\\'");
		else {
			if (!open)
				buf_putc(out, '\'');
			open = true;
			buf_putc(out, (char)*p);
		}
	}
	if (open)
		buf_putc(out, '\'');
	if (!*s)
		buf_puts(out, "''");
}

void app_come_back(const struct options *o, struct buf *out)
{
	buf_puts(out, "tether");
	if (o->server && strcmp(o->server, OPTIONS_DEFAULT_SERVER) != 0) {
		buf_puts(out, " -s ");
		shell_word(o->server, out);
	}
	buf_putc(out, ' ');
	shell_word(o->conversation_id ? o->conversation_id : "", out);
	for (size_t i = 0; i < o->nmore_ids; i++) {
		buf_putc(out, ' ');
		shell_word(o->more_ids[i], out);
	}
}

void app_print_come_back(const struct options *o, FILE *f)
{
	if (!o->conversation_id)
		return;
	struct buf line;
	buf_init(&line);
	app_come_back(o, &line);
	fprintf(f, "to come back: %s\n", buf_cstr(&line));
	fflush(f);
	buf_fini(&line);
}

void app_print_reopen(const struct options *o, struct tui_reopen *reopen)
{
	struct options shown = *o;
	shown.conversation_id = reopen->n ? reopen->ids[0] : NULL;
	shown.nmore_ids = 0;
	for (size_t i = 1; i < reopen->n; i++)
		shown.more_ids[shown.nmore_ids++] = reopen->ids[i];
	app_print_come_back(&shown, stdout);
	for (size_t i = 0; i < reopen->n; i++)
		free(reopen->ids[i]);
}
