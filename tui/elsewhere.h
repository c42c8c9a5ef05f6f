/* elsewhere: the slow poll of the server's list for confirmations not open here. */
#ifndef TETHER_ELSEWHERE_H
#define TETHER_ELSEWHERE_H

#include "conv.h"

/* Starts the slow poll of the server's list for conversations not open that wait for
 * confirmation (the first poll at once, on the loop). */
void elsewhere_start(struct tui *u);
/* Stops it and frees (before the loop's destroy; fine when never started). */
void elsewhere_stop(struct tui *u);

#endif
