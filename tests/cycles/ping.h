/* Fixture of the cycle checker: one module of two files that call each other. */
#ifndef PING_H
#define PING_H
/* Counts down through ping_back. */
int ping(int n);
/* Counts down through ping, or through pong when linked with it. */
int ping_back(int n);
#endif
