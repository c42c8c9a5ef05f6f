#include "ping.h"
#include "pong.h"

int pong(int n)
{
	return n > 0 ? ping(n - 1) : 0;
}
