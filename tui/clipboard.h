/* clipboard: copying text out of tether (/copy, the modal's c, the pager's c and C). */
#ifndef TETHER_CLIPBOARD_H
#define TETHER_CLIPBOARD_H

#include "options.h"
#include "ui.h"

/* Copies s[0..n), without control characters, to the clipboard through OSC 52 or to a file,
 * and says where in a notice (and, in auto mode, why not the clipboard). mode is osc52 =;
 * said what the terminal answered (struct probe's clipboard). Under tmux, auto asks tmux. */
void clipboard_copy(struct ui *ui, enum osc52_mode mode, int said, const char *s, size_t n);
/* Appends s[0..n) without C0 controls (but newline and tab), DEL, C1 or bytes that are not
 * UTF-8. */
void clipboard_clean(const char *s, size_t n, struct buf *out);
/* The OSC 52 sequence that sets the clipboard to s[0..n), wrapped for tmux's passthrough when
 * passthrough. */
void clipboard_osc52_bytes(bool passthrough, const char *s, size_t n, struct buf *out);

#endif
