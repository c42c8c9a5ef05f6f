#include "ping.h"
#include "pong.h"

int ping_back(int n)
{
	return n % 2 ? ping(n - 1) : pong(n);
}
