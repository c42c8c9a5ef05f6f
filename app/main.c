/* tether: entry point. Parses the command line and hands over to one mode. */
#include "options.h"
#include "app.h"
#include "clean.h"

#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Widths, the wide curses API and the picker need a UTF-8 LC_CTYPE; only LC_CTYPE changes,
 * so number formatting (ndjson) stays as C prints it. */
static void ensure_utf8_ctype(void)
{
	setlocale(LC_CTYPE, "");
	if (strcmp(nl_langinfo(CODESET), "UTF-8") != 0)
		setlocale(LC_CTYPE, "C.UTF-8");
}

int main(int argc, char **argv)
{
	ensure_utf8_ctype();
	struct options o;
	struct buf err;
	buf_init(&err);
	if (options_parse(argc, argv, &o, &err) != 0) {
		clean_eprintf(NULL, "%s", buf_cstr(&err));
		buf_fini(&err);
		options_fini(&o);
		return EXIT_USAGE;
	}
	buf_fini(&err);
	int rc;
	switch (o.command) {
	case CMD_HELP:
		fputs(options_usage(), stdout);
		rc = EXIT_OK;
		break;
	case CMD_VERSION:
		printf("tether %s\n", TETHER_VERSION);
		rc = EXIT_OK;
		break;
	default:
		rc = app_run(&o);
		break;
	}
	options_fini(&o);
	return rc;
}
