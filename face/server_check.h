/* Whether a --server URL is one tether can use, said before anything connects. */
#ifndef TETHER_SERVER_CHECK_H
#define TETHER_SERVER_CHECK_H

/* 0 when tether can use server as its server URL; else says why on stderr (the URL shown
 * without user info, query or fragment) and returns EXIT_USAGE. */
int server_check(const char *server);

#endif
