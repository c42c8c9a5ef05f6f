/* tether: entry point. Parses the command line and hands over to one mode. */
#include "options.h"
#include "app.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct options o;
	struct buf err;
	buf_init(&err);
	if (options_parse(argc, argv, &o, &err) != 0) {
		fprintf(stderr, "tether: %s\n", buf_cstr(&err));
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
