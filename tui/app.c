#include "app.h"

#include <stdio.h>

int app_run(const struct options *o)
{
	(void)o;
	fprintf(stderr, "tether: this command is not built yet\n");
	return EXIT_USAGE;
}
