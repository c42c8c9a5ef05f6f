/* clipboard: copying text out of tether (/copy, the modal's c, the pager's c and C). */
#ifndef TETHER_CLIPBOARD_H
#define TETHER_CLIPBOARD_H

#include "ui.h"

/* Copies s[0..n) to the clipboard (OSC 52 when osc52) or a file and says where in a notice. */
void clipboard_copy(struct ui *ui, bool osc52, const char *s, size_t n);

#endif
