/* external_editor: the draft in a 0600 file of a private directory, the user's editor run on
 * it as a child through sh (as git runs $EDITOR, so "code -w" works), and its exit seen by the
 * loop through a pidfd — the socket keeps its pings and frames meanwhile. Only an editor that
 * exits 0 changes the draft. */
#define _GNU_SOURCE /* closefrom */
#include "external_editor.h"
#include "conv.h"
#include "terminal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

enum {
	POLL_US = 100000,           /* without pidfds (before Linux 5.3): how often to look */
	HANGUP_WAIT_US = 1000000,   /* at quit: how long an editor has to end after SIGHUP */
};

struct external_editor {
	pid_t pid;
	int pidfd;                  /* -1: the poll timer looks instead */
	struct loop_timer *poll;
	char *path;                 /* the draft's file */
	char *dir;                  /* the directory made for it, or NULL for $XDG_RUNTIME_DIR */
	char *command;              /* $VISUAL, $EDITOR or vi, as the user set it */
	int tty_flags;              /* the terminal's file status flags before, or -1 */
};

static const char *editor_command(void)
{
	static const char *const vars[] = { "VISUAL", "EDITOR" };
	for (size_t i = 0; i < 2; i++) {
		const char *v = getenv(vars[i]);
		if (v && v[strspn(v, " \t")])
			return v;
	}
	return "vi";
}

/* $XDG_RUNTIME_DIR when it is the user's own private directory, else a new private one. */
static bool private_dir(struct external_editor *x, struct buf *dir)
{
	const char *run = getenv("XDG_RUNTIME_DIR");
	struct stat st;
	if (run && run[0] == '/' && stat(run, &st) == 0 && S_ISDIR(st.st_mode) &&
	    st.st_uid == getuid() && !(st.st_mode & 077)) {
		buf_puts(dir, run);
		return true;
	}
	const char *tmp = getenv("TMPDIR");
	buf_printf(dir, "%s/tether-XXXXXX", tmp && tmp[0] == '/' ? tmp : "/tmp");
	if (!mkdtemp(dir->data))
		return false;
	x->dir = xstrdup(dir->data);
	return true;
}

/* The draft written to a new file; false with errno set. */
static bool write_draft(struct external_editor *x, const char *text)
{
	struct buf path;
	buf_init(&path);
	if (!private_dir(x, &path)) {
		buf_fini(&path);
		return false;
	}
	buf_puts(&path, "/tether-draft-XXXXXX.md");
	int fd = mkstemps(path.data, 3);
	if (fd < 0) {
		buf_fini(&path);
		return false;
	}
	x->path = buf_steal(&path);
	size_t n = strlen(text);
	bool ok = fchmod(fd, 0600) == 0 && fd_write_all(fd, text, n) == 0 &&
		  (n == 0 || text[n - 1] == '\n' || fd_write_all(fd, "\n", 1) == 0);
	int saved = errno;
	if (close(fd) != 0 && ok) {
		ok = false;
		saved = errno;
	}
	errno = saved;
	return ok;
}

static void remove_files(struct external_editor *x)
{
	if (x->path)
		unlink(x->path);
	if (x->dir)
		rmdir(x->dir);
}

static void editor_free(struct external_editor *x)
{
	if (x->pidfd >= 0)
		close(x->pidfd);
	loop_timer_destroy(x->poll);
	free(x->path);
	free(x->dir);
	free(x->command);
	free(x);
}

/* In the child: the signals tether blocks or ignores are the editor's again, and it gets the
 * terminal as its standard input and output whatever tether's were. */
static void exec_editor(const char *script, const char *path)
{
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	static const int reset[] = { SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGTSTP, SIGWINCH };
	for (size_t i = 0; i < sizeof reset / sizeof *reset; i++)
		signal(reset[i], SIG_DFL);
	int tty = terminal_input_fd();
	if (!isatty(STDIN_FILENO))
		dup2(tty, STDIN_FILENO);
	if (!isatty(STDOUT_FILENO))
		dup2(tty, STDOUT_FILENO);
	/* The loop made the terminal non-blocking (one open file, shared with the child): an
	 * editor's first read would fail at once. The parent sets it back afterwards. */
	int flags = fcntl(STDIN_FILENO, F_GETFL);
	if (flags >= 0)
		fcntl(STDIN_FILENO, F_SETFL, flags & ~O_NONBLOCK);
	closefrom(STDERR_FILENO + 1);
	execl("/bin/sh", "sh", "-c", script, "sh", path, (char *)NULL);
	_exit(127);
}

/* The file read back, at most EXTERNAL_EDITOR_MAX_BYTES (cut at a character); -1 with errno. */
static int read_back(const char *path, struct buf *out, bool *cut)
{
	struct buf err;
	buf_init(&err);
	int rc = file_read_all(path, EXTERNAL_EDITOR_MAX_BYTES, out, cut, &err);
	buf_fini(&err);
	if (rc != 0)
		return -1;
	if (*cut)
		out->len = utf8_complete_prefix(out->data, out->len);
	/* Editors end the last line with a newline; the draft does not. */
	if (out->len && out->data[out->len - 1] == '\n')
		out->len--;
	if (out->len && out->data[out->len - 1] == '\r')
		out->len--;
	return 0;
}

static void take_back(struct tui *u, struct external_editor *x, int status)
{
	if (status == -1) {
		ui_notice(&u->ui, "draft kept: the editor's exit status is lost (%s)", strerror(ECHILD));
		return;
	}
	if (WIFSIGNALED(status)) {
		ui_notice(&u->ui, "draft kept: the editor was ended by signal %d", WTERMSIG(status));
		return;
	}
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	if (code == 127) {
		ui_notice(&u->ui, "draft kept: cannot run the editor \"%s\" (set $VISUAL or $EDITOR)",
			   x->command);
		return;
	}
	if (code != 0) {
		ui_notice(&u->ui, "draft kept: the editor exited with status %d", code);
		return;
	}
	struct buf text;
	buf_init(&text);
	bool cut = false;
	if (read_back(x->path, &text, &cut) != 0) {
		ui_notice(&u->ui, "draft kept: cannot read the edited file (%s)", strerror(errno));
	} else {
		/* As a paste: controls and invalid UTF-8 do not reach the draft. */
		editor_clear(&u->input);
		editor_insert(&u->input, text.data ? text.data : "", text.len);
		if (cut)
			ui_notice(&u->ui, "the file is over %d MiB: only its first %d MiB is in the draft",
				   EXTERNAL_EDITOR_MAX_BYTES >> 20, EXTERNAL_EDITOR_MAX_BYTES >> 20);
		else
			ui_notice(&u->ui, "the draft is back from the editor");
	}
	buf_fini(&text);
}

/* The child changed state: when it has ended, the terminal is the TUI's again. */
static void check_child(void *arg)
{
	struct tui *u = arg;
	struct external_editor *x = u->ext_editor;
	if (!x)
		return;
	int status;
	pid_t r = waitpid(x->pid, &status, WNOHANG);
	if (r == 0 || (r < 0 && errno == EINTR)) {
		if (x->pidfd < 0)
			loop_timer_schedule(x->poll, POLL_US);
		return;
	}
	if (r < 0)
		status = -1; /* not ours to wait for any more */
	if (x->pidfd >= 0)
		loop_unwatch_fd(u->loop, x->pidfd);
	u->ext_editor = NULL;
	u->ui.paused = false;
	if (x->tty_flags >= 0)
		fcntl(terminal_input_fd(), F_SETFL, x->tty_flags);
	terminal_resume();
	terminal_resize();
	ui_input_pause(&u->ui, false);
	take_back(u, x, status);
	remove_files(x);
	editor_free(x);
	ui_invalidate(&u->ui);
}

/* The loop dropped the pidfd's watch: look by polling from now on. */
static void child_watch_gone(void *arg)
{
	struct tui *u = arg;
	struct external_editor *x = u->ext_editor;
	if (!x || x->pidfd < 0)
		return;
	close(x->pidfd);
	x->pidfd = -1;
	if (!x->poll)
		x->poll = loop_timer_create(u->loop, check_child, u);
	check_child(u);
}

void external_editor_open(struct tui *u)
{
	if (u->ext_editor)
		return;
	struct external_editor *x = xcalloc(1, sizeof *x);
	x->pidfd = -1;
	x->command = xstrdup(editor_command());
	if (!write_draft(x, editor_text(&u->input))) {
		ui_notice(&u->ui, "cannot write the draft for the editor: %s", strerror(errno));
		remove_files(x);
		editor_free(x);
		return;
	}
	struct buf script;
	buf_init(&script);
	/* A plain command is exec'd, so that the child is the editor itself (a hangup at quit
	 * reaches it); one with shell syntax ("A=1 vim", "a; b") is left to sh whole. */
	bool plain = strspn(x->command, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					"0123456789 _./+-,:@%") == strlen(x->command);
	buf_printf(&script, "%s%s \"$@\"", plain ? "exec " : "", x->command);
	ui_input_pause(&u->ui, true);
	terminal_suspend();
	x->tty_flags = fcntl(terminal_input_fd(), F_GETFL);
	pid_t pid = fork();
	if (pid == 0)
		exec_editor(script.data, x->path);
	buf_fini(&script);
	if (pid < 0) {
		int saved = errno;
		terminal_resume();
		ui_input_pause(&u->ui, false);
		ui_notice(&u->ui, "cannot start the editor: %s", strerror(saved));
		remove_files(x);
		editor_free(x);
		ui_invalidate(&u->ui);
		return;
	}
	x->pid = pid;
	u->ext_editor = x;
	u->ui.paused = true;
	/* Readable once the child has exited. */
	x->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (x->pidfd >= 0 && loop_watch_fd(u->loop, x->pidfd, check_child, child_watch_gone, u) != 0) {
		close(x->pidfd);
		x->pidfd = -1;
	}
	if (x->pidfd < 0) {
		x->poll = loop_timer_create(u->loop, check_child, u);
		loop_timer_schedule(x->poll, POLL_US);
	}
}

bool external_editor_signal(struct tui *u, int signo)
{
	if (!u->ext_editor)
		return false;
	switch (signo) {
	case SIGTSTP:
		/* The editor suspends its process group (vi's Ctrl-Z): stop too, so that the
		 * shell takes the terminal; fg continues both. */
		kill(getpid(), SIGSTOP);
		return true;
	case SIGINT:
	case SIGWINCH:
	case SIGCONT:
		return true;
	default:
		return false;
	}
}

static bool hangup_pending(void)
{
	sigset_t pending;
	return sigpending(&pending) == 0 &&
	       (sigismember(&pending, SIGTERM) == 1 || sigismember(&pending, SIGHUP) == 1);
}

char *external_editor_fini(struct tui *u)
{
	struct external_editor *x = u->ext_editor;
	if (!x)
		return NULL;
	u->ext_editor = NULL;
	u->ui.paused = false;
	if (x->pidfd >= 0)
		loop_unwatch_fd(u->loop, x->pidfd);
	/* Quitting on a signal (the terminal hung up, a kill) hangs the editor up too. Any
	 * other end (the server gone) waits for the user to finish, and keeps the file. */
	bool hangup = u->ui.exit_code >= 128;
	int status = 0, waited = 0;
	pid_t r;
	while ((r = waitpid(x->pid, &status, WNOHANG)) == 0) {
		if (!hangup && hangup_pending())
			hangup = true;
		if (hangup && waited == 0)
			kill(x->pid, SIGHUP);
		if (hangup && waited >= HANGUP_WAIT_US) {
			kill(x->pid, SIGKILL);
			r = waitpid(x->pid, &status, 0);
			break;
		}
		usleep(10000);
		if (hangup)
			waited += 10000;
	}
	char *kept = NULL;
	struct stat st;
	if (!hangup && r == x->pid && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
	    stat(x->path, &st) == 0 && st.st_size > 0) {
		kept = x->path;
		x->path = NULL;
		free(x->dir);
		x->dir = NULL;
	}
	remove_files(x);
	editor_free(x);
	return kept;
}
