/* mouse: the wheel and clicks, as the keys that do the same in each place. */
#include "mouse.h"
#include "bindings.h"
#include "board_view.h"
#include "layer.h"

/* A notch is the key that moves one row where the wheel is: in the transcript Ctrl-Up/Down
 * (Up and Down belong to the input there), in a screen layer Up/Down — one of the board's
 * rows, MOUSE_WHEEL_ROWS lines of the pager's. */
static void wheel(struct tui *u, bool up)
{
	const struct layer *screen = layers_screen(&u->layers);
	struct key_event key = { .kind = up ? KEYS_UP : KEYS_DOWN,
				 .mods = screen ? 0 : KEYS_MOD_CTRL };
	int n = screen == &board_layer ? 1 : MOUSE_WHEEL_ROWS;
	for (int i = 0; i < n; i++)
		bindings_handle(u, &key);
}

/* A click on a row of the transcript focuses the item the row belongs to; on the board it
 * selects the conversation's row. */
static void click(struct tui *u, int y)
{
	if (layers_top(&u->layers) == &board_layer)
		board_view_click(u, y);
	if (layers_screen(&u->layers) || y < 0 || (size_t)y >= u->paint.nrows)
		return;
	const struct view_row *r = &u->paint.rows[y];
	if (r->gap || r->separator)
		return;
	u->cur->focus_uid = transcript_uid_at(u->cur->t, r->item);
}

void mouse_handle(struct tui *u, const struct key_event *ev)
{
	if (ev->release)
		return;
	if (ev->cp == KEYS_WHEEL_UP || ev->cp == KEYS_WHEEL_DOWN)
		wheel(u, ev->cp == KEYS_WHEEL_UP);
	else if (ev->cp == KEYS_BUTTON_LEFT)
		click(u, ev->y);
}
