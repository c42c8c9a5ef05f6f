#include "terminal.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>

/* What a fatal signal handler needs, prepared beforehand: it may call neither curses nor
 * malloc, only tcsetattr and write. */
static struct {
	SCREEN *screen;
	FILE *tty;                  /* opened /dev/tty, or NULL when stdin/stdout are used */
	void (*on_repaint)(void);   /* before ncurses uses the whole screen again */
	int in_fd, out_fd;
	struct termios saved;
	bool have_saved;
	volatile sig_atomic_t active;
	bool colors;
	bool mouse;                 /* mouse reporting asked for (terminal_set_mouse) */
	bool atexit_set;
	char paste_on[32];
	bool suspended;             /* given back for a suspend: the title was popped */
	char restore[256];          /* title popped, bracketed paste off, attributes off, cursor
				     * on, main screen */
	size_t restore_len;
	char title_on[64], title_off[16]; /* how this terminal sets its title; empty: it cannot */
	char title[TERMINAL_TITLE_BYTES + 96]; /* the title as last set, to set it again on resume */
	size_t title_len;
} term = { .in_fd = -1, .out_fd = -1 };

void terminal_on_repaint(void (*fn)(void))
{
	term.on_repaint = fn;
}

static const int fatal_signals[] = { SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGQUIT };

const char *terminal_cap(const char *name)
{
	char *s = tigetstr(name);
	return (s && s != (char *)-1) ? s : NULL;
}

static void restore_append(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	if (n && term.restore_len + n < sizeof term.restore) {
		memcpy(term.restore + term.restore_len, s, n);
		term.restore_len += n;
	}
}

bool terminal_title_xterm_like(const char *t)
{
	static const char *const families[] = {
		"xterm", "rxvt", "urxvt", "screen", "tmux", "alacritty", "foot", "kitty", "wezterm",
		"vte", "gnome", "konsole", "iterm", "contour", "ghostty", "st-",
	};
	if (!t)
		return false;
	for (size_t i = 0; i < sizeof families / sizeof *families; i++)
		if (!strncmp(t, families[i], strlen(families[i])))
			return true;
	return !strcmp(t, "st");
}

/* The title through the terminal's own status-line capability (tsl/fsl), else xterm's
 * OSC 2 where TERM names a terminal of that family; pushed and popped (CSI 22;0t / 23;0t)
 * where it is an OSC, so the one from before comes back. */
static void prepare_title(void)
{
	const char *tsl = terminal_cap("tsl"), *fsl = terminal_cap("fsl");
	term.title_on[0] = term.title_off[0] = '\0';
	if (tsl && fsl && strlen(fsl) < sizeof term.title_off) {
		const char *on = tiparm(tsl, 0);
		if (on && strlen(on) < sizeof term.title_on) {
			snprintf(term.title_on, sizeof term.title_on, "%s", on);
			snprintf(term.title_off, sizeof term.title_off, "%s", fsl);
		}
	}
	if (!term.title_on[0] && terminal_title_xterm_like(getenv("TERM"))) {
		snprintf(term.title_on, sizeof term.title_on, "\033]2;");
		snprintf(term.title_off, sizeof term.title_off, "\a");
	}
}

static bool title_pushes(void)
{
	return term.title_on[0] == '\033' && term.title_on[1] == ']';
}

static void push_title(void)
{
	if (title_pushes())
		(void)fd_write_all(term.out_fd, "\033[22;0t", strlen("\033[22;0t"));
}

/* Terminals whose terminfo lacks BE/BD still take xterm's private mode, and the others
 * ignore it. */
static void prepare_sequences(void)
{
	const char *on = terminal_cap("BE"), *off = terminal_cap("BD");
	prepare_title();
	snprintf(term.paste_on, sizeof term.paste_on, "%s", on ? on : "\033[?2004h");
	term.restore_len = 0;
	if (title_pushes())
		restore_append("\033[23;0t");
	else if (term.title_on[0])
		restore_append(terminal_cap("dsl")); /* a real status line: cleared, there is no pop */
	restore_append(off ? off : "\033[?2004l");
	restore_append(terminal_cap("sgr0"));
	restore_append(terminal_cap("cnorm"));
	restore_append(terminal_cap("rmcup"));
}

static void fatal_handler(int signo)
{
	int saved_errno = errno;
	if (term.active) {
		term.active = 0;
		if (term.have_saved)
			tcsetattr(term.out_fd, TCSANOW, &term.saved);
		(void)fd_write_all(term.out_fd, term.restore, term.restore_len);
	}
	errno = saved_errno;
	/* SA_RESETHAND put the default action back; the signal is blocked until we return. */
	raise(signo);
}

static void install_fatal_handlers(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = fatal_handler;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof fatal_signals / sizeof *fatal_signals; i++)
		sigaction(fatal_signals[i], &sa, NULL);
}

static void no_op(int signo)
{
	(void)signo;
}

/* ncurses, finding SIGTSTP at SIG_DFL, sets it to SIG_IGN around every screen update, which
 * discards a SIGTSTP waiting in the loop's signalfd (a suspend lost). With a handler in place
 * it leaves SIGTSTP alone; the loop keeps it blocked, so the handler never runs. */
static void keep_sigtstp_from_curses(void)
{
	struct sigaction sa;
	if (sigaction(SIGTSTP, NULL, &sa) != 0 || sa.sa_handler != SIG_DFL)
		return;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = no_op;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTSTP, &sa, NULL);
}

static void restore_at_exit(void)
{
	terminal_close();
}

static bool no_color(void)
{
	const char *v = getenv("NO_COLOR");
	return v && *v;
}

/* XON/XOFF would swallow Ctrl-S (search forward) and Ctrl-Q. */
static void disable_flow_control(void)
{
	struct termios t;
	if (tcgetattr(term.in_fd, &t) == 0) {
		t.c_iflag &= ~(tcflag_t)(IXON | IXOFF);
		tcsetattr(term.in_fd, TCSANOW, &t);
		def_prog_mode();
	}
}

/* ncurses (6.4) writes out its buffer after every cursor move of an update until the screen
 * has once come back from endwin(): newterm leaves it in an "initial" state meant for
 * terminfo-level callers, and only doupdate's return from a suspend leaves that. A streamed
 * frame went out in 3–4 write()s, one per move. One endwin/doupdate before anything is drawn
 * (the screen is still blank) makes every later frame a single write. */
static void leave_initial_state(void)
{
	endwin();
	doupdate();
}

/* A TERM value fit to be printed: a terminal type name, not whatever the environment holds. */
static const char *term_name(const char *t)
{
	size_t n = strlen(t);
	if (n == 0 || n > 64 || strspn(t, "abcdefghijklmnopqrstuvwxyz"
				    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.+-_") != n)
		return NULL;
	return t;
}

int terminal_check(struct buf *err)
{
	static const char hint[] = "use --headless CONVERSATION_ID for plain output";
	const char *t = getenv("TERM");
	if (!t || !*t) {
		buf_printf(err, "TERM is not set, so the interface cannot be drawn; %s", hint);
		return -1;
	}
	const char *name = term_name(t);
	int status = 0;
	if (setupterm(t, STDOUT_FILENO, &status) != OK) {
		if (!name)
			buf_printf(err, "TERM is not the name of a terminal type; %s", hint);
		else if (status == 0)
			buf_printf(err, "TERM=%s is not a terminal type known here (no terminfo entry); "
				   "set TERM to your terminal's type (e.g. xterm-256color) or %s", name, hint);
		else
			buf_printf(err, "no terminfo database is installed (TERM=%s); %s", name, hint);
		return -1;
	}
	/* "dumb", "unknown" and printing terminals: nothing to draw a screen with. */
	bool usable = terminal_cap("cup") && terminal_cap("clear") && tigetflag("hc") <= 0 && tigetflag("gn") <= 0;
	del_curterm(cur_term);
	if (!usable) {
		buf_printf(err, "TERM=%s cannot move the cursor, so the interface cannot be drawn; %s",
			   name ? name : "(this value)", hint);
		return -1;
	}
	return 0;
}

int terminal_open(bool color, struct buf *err)
{
	FILE *in = stdin, *out = stdout;
	if (term.active)
		return 0;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
		term.tty = fd >= 0 ? fdopen(fd, "r+") : NULL;
		if (!term.tty) {
			if (fd >= 0)
				close(fd);
			buf_printf(err, "cannot open the terminal: %s", strerror(errno));
			return -1;
		}
		in = out = term.tty;
	}
	term.in_fd = fileno(in);
	term.out_fd = fileno(out);
	term.have_saved = tcgetattr(term.out_fd, &term.saved) == 0;
	/* The kernel's size, not $LINES/$COLUMNS: stale or absurd values there would make
	 * ncurses draw for a screen that is not there, or fail to allocate one. */
	use_tioctl(TRUE);
	keep_sigtstp_from_curses();
	term.screen = newterm(NULL, out, in);
	if (!term.screen) {
		const char *t = getenv("TERM");
		buf_printf(err, "cannot set up the terminal (TERM=%s)",
			   t && term_name(t) ? t : "not a type name");
		if (term.tty)
			fclose(term.tty);
		term.tty = NULL;
		return -1;
	}
	set_term(term.screen);
	/* Keys are read by tether itself (keys.c), never by ncurses. Raw: Ctrl-C and Ctrl-Z
	 * arrive as bytes in order with the rest, so a pasted control character stays text and
	 * two Ctrl-C presses stay two. */
	raw();
	noecho();
	nonl();
	/* ncurses polls the input fd twice per doupdate to abandon a frame when keys are waiting;
	 * frames here are small and keys are read on the next loop turn anyway. */
	typeahead(-1);
	disable_flow_control();
	term.colors = color && has_colors() && !no_color();
	if (term.colors && start_color() == OK)
		use_default_colors();
	else
		term.colors = false;
	prepare_sequences();
	leave_initial_state();
	install_fatal_handlers();
	if (!term.atexit_set)
		term.atexit_set = atexit(restore_at_exit) == 0;
	/* Straight to the terminal: nothing of ncurses is pending before its first refresh. */
	(void)fd_write_all(term.out_fd, term.paste_on, strlen(term.paste_on));
	push_title();
	term.active = 1;
	return 0;
}

void terminal_close(void)
{
	if (!term.active)
		return;
	term.active = 0;
	if (term.on_repaint)
		term.on_repaint();
	endwin();
	(void)fd_write_all(term.out_fd, term.restore, term.restore_len);
	if (term.have_saved)
		tcsetattr(term.out_fd, TCSANOW, &term.saved);
	delscreen(term.screen);
	term.screen = NULL;
	term.title_len = 0;
	term.suspended = false;
	term.mouse = false;
	if (term.tty)
		fclose(term.tty);
	term.tty = NULL;
}

int terminal_input_fd(void)
{
	return term.in_fd;
}

int terminal_output_fd(void)
{
	return term.active ? term.out_fd : -1;
}

bool terminal_colors(void)
{
	return term.colors;
}

void terminal_suspend(void)
{
	if (!term.active)
		return;
	if (term.on_repaint)
		term.on_repaint();
	endwin();
	(void)fd_write_all(term.out_fd, term.restore, term.restore_len);
	term.suspended = true;
}

static const char mouse_on[] = "\033[?1000h\033[?1006h", mouse_off[] = "\033[?1006l\033[?1000l";

void terminal_set_mouse(bool on)
{
	if (!term.active || on == term.mouse)
		return;
	term.mouse = on;
	if (on) {
		restore_append(mouse_off);
		(void)fd_write_all(term.out_fd, mouse_on, strlen(mouse_on));
	} else {
		prepare_sequences();
		(void)fd_write_all(term.out_fd, mouse_off, strlen(mouse_off));
	}
}

void terminal_resume(void)
{
	if (!term.active)
		return;
	reset_prog_mode();
	(void)fd_write_all(term.out_fd, term.paste_on, strlen(term.paste_on));
	if (term.mouse)
		(void)fd_write_all(term.out_fd, mouse_on, strlen(mouse_on));
	/* Pushed once per pop: a SIGCONT without our suspend (a stop from outside) pushes
	 * nothing, but the title is set again in case the shell changed it meanwhile. */
	if (term.suspended)
		push_title();
	term.suspended = false;
	(void)fd_write_all(term.out_fd, term.title, term.title_len);
	if (term.on_repaint)
		term.on_repaint();
	clearok(curscr, TRUE);
	refresh();
}

void terminal_resize(void)
{
	struct winsize ws;
	if (!term.active)
		return;
	if (ioctl(term.out_fd, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0)
		resizeterm(ws.ws_row, ws.ws_col);
	if (term.on_repaint)
		term.on_repaint();
	clearok(curscr, TRUE);
}

int terminal_write_raw(const char *s, size_t n)
{
	if (!term.active)
		return -1;
	return fd_write_all(term.out_fd, s, n);
}

/* Appends s without control characters (C0, DEL, C1) — nothing in it can end or start an
 * escape sequence — at most max bytes, cut at a character boundary; bad is replaced by
 * replacement (0 for none). */
static void put_inert(struct buf *out, const char *s, size_t max, char bad, char replacement)
{
	size_t start = out->len;
	for (size_t at = 0, n = strlen(s); at < n;) {
		uint32_t cp;
		size_t len = utf8_next(s + at, n - at, &cp);
		if (!len)
			break;
		if (out->len - start + len > max)
			break;
		bool control = cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) || cp == UTF8_INVALID;
		if (!control && bad && cp == (uint32_t)(unsigned char)bad) {
			if (replacement)
				buf_putc(out, replacement);
		} else if (!control) {
			buf_append(out, s + at, len);
		}
		at += len;
	}
}

void terminal_title_bytes(const char *on, const char *off, const char *title, struct buf *out)
{
	buf_puts(out, on);
	put_inert(out, title, TERMINAL_TITLE_BYTES, 0, 0);
	buf_puts(out, off);
}

void terminal_notify_bytes(bool osc777, bool tmux, const char *title, const char *body,
			   struct buf *out)
{
	struct buf seq;
	buf_init(&seq);
	if (osc777) {
		buf_puts(&seq, "\033]777;notify;");
		put_inert(&seq, title, TERMINAL_TITLE_BYTES, ';', ',');
		buf_putc(&seq, ';');
	} else {
		buf_puts(&seq, "\033]9;");
		put_inert(&seq, title, TERMINAL_TITLE_BYTES, 0, 0);
		buf_puts(&seq, ": ");
	}
	put_inert(&seq, body, TERMINAL_TITLE_BYTES, 0, 0);
	buf_putc(&seq, '\a');
	terminal_passthrough(tmux, seq.data, seq.len, out);
	buf_fini(&seq);
}

void terminal_passthrough(bool tmux, const char *seq, size_t n, struct buf *out)
{
	if (!tmux) {
		buf_append(out, seq, n);
		return;
	}
	/* tmux passes it on to the terminal outside only with allow-passthrough on; else it
	 * drops the whole DCS, which does no harm. */
	buf_puts(out, "\033Ptmux;");
	for (size_t i = 0; i < n; i++) {
		if (seq[i] == '\033')
			buf_putc(out, '\033');
		buf_putc(out, seq[i]);
	}
	buf_puts(out, "\033\\");
}

void terminal_set_title(const char *title)
{
	if (!term.active || !term.title_on[0])
		return;
	struct buf b;
	buf_init(&b);
	terminal_title_bytes(term.title_on, term.title_off, title, &b);
	if (b.len < sizeof term.title) {
		memcpy(term.title, b.data, b.len);
		term.title_len = b.len;
		(void)fd_write_all(term.out_fd, b.data, b.len);
	}
	buf_fini(&b);
}

void terminal_bell(void)
{
	if (term.active)
		(void)fd_write_all(term.out_fd, "\a", 1);
}

void terminal_notify(bool osc777, const char *title, const char *body)
{
	if (!term.active)
		return;
	const char *tmux = getenv("TMUX");
	struct buf b;
	buf_init(&b);
	terminal_notify_bytes(osc777, tmux && *tmux, title, body, &b);
	(void)fd_write_all(term.out_fd, b.data, b.len);
	buf_fini(&b);
}
