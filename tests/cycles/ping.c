#include "ping.h"

int ping(int n)
{
	return n > 0 ? ping_back(n - 1) : 0;
}
