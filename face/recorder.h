/* --record: every frame received, masked, one JSON line each, as a sink of the controller. */
#ifndef TETHER_RECORDER_H
#define TETHER_RECORDER_H

#include "controller.h"

#include <stdio.h>

/* Records to f (opened for --record path; the sink closes it), strings cleaned with masks; a
 * line that cannot be written ends the run through controller_fail. */
struct sink recorder_create(FILE *f, const char *path, const struct mask_set *masks,
			    struct controller *c);

#endif
