/* A build check, never run: this executable links every object of the face library with
 * base, net, model and keyring only, so a call from face into tui/ or app/ fails the build. */
int main(void)
{
	return 0;
}
