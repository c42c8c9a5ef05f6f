/* The --server URL checked before a client, a command or a key question uses it. */
#include "server_check.h"
#include "exit_code.h"

#include <stdio.h>

int server_check(const char *server)
{
	const char *why = server_url_problem(server);
	if (!why)
		return 0;
	struct buf shown;
	buf_init(&shown);
	url_describe(server ? server : "", &shown);
	fprintf(stderr, "tether: --server: the URL '%s' %s\n", buf_cstr(&shown), why);
	buf_fini(&shown);
	return EXIT_USAGE;
}
