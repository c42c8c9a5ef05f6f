/* Draws each sample line of a file with ncurses on its own row, then a '|' at the column
 * text_width() predicts, and waits to be captured (width_tmux.sh). Prints nothing else. */
#include <locale.h>
#include <ncurses.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "render.h"

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	FILE *f = fopen(argv[1], "r");
	if (!f)
		return 1;
	setlocale(LC_ALL, "");
	initscr();
	curs_set(0);
	char line[512];
	int row = 0;
	while (fgets(line, sizeof(line), f) && row < LINES) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		mvaddstr(row, 0, line);
		mvaddch(row, text_width(line, strlen(line)), '|');
		row++;
	}
	fclose(f);
	refresh();
	pause(); /* until tmux kills the pane */
	endwin();
	return 0;
}
