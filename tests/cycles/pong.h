/* Fixture of the cycle checker: a module that calls back into ping. */
#ifndef PONG_H
#define PONG_H
/* Counts down through ping. */
int pong(int n);
#endif
