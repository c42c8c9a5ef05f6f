/* A question on the terminal outside the screen: a key or a secret with echo off, or a
 * yes/no answer. The terminal's state is put back on every way out, a signal included. */
#ifndef TETHER_TTY_PROMPT_H
#define TETHER_TTY_PROMPT_H

#include "base.h"

/* Far above any key or secret; a bound so that a stray pipe cannot fill memory. */
#define TTY_VALUE_MAX (64 * 1024)

/* A value read from the user (wiped when freed). */
struct tty_value {
	char *data;
	size_t len;
};

/* Wipes and frees v. */
void tty_value_free(struct tty_value *v);
/* Reads fd up to end of file (or, when one_line, the first newline) into v; -1 on error. */
int tty_value_read(int fd, bool one_line, struct tty_value *v);
/* Writes prompt on /dev/tty and reads one line there, echoed only when echo; -1 when there
 * is no terminal. The line keeps its newline. */
int tty_prompt(const char *prompt, bool echo, struct tty_value *v);

#endif
