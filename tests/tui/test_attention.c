/* attention: the title follows the state; the bell and notifications are edge-triggered
 * (once per confirmation request, once per run that ends after bell_after), never for a state
 * that is not current (replay, reconnecting) and never for the first catch-up. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "attention.h"

static const int64_t S = 1000000;

static void live(struct controller_status *st, enum run_status rs, int64_t since)
{
	memset(st, 0, sizeof *st);
	st->conversation_id = "5f2c9b7e-1a3d-4e8f-9b6a-0c4d2e7f8a91";
	st->title = "Fix the tests";
	st->connection = SESSION_SYNCED;
	st->caught_up = true;
	st->sync_through_seq = -1;
	st->run_status = rs;
	st->awaiting_confirmation = rs == RUN_STATUS_WAITING_FOR_CONFIRMATION;
	st->running_since_us = rs == RUN_STATUS_RUNNING ? since : 0;
}

static struct attention_calls see(struct attention *a, const struct controller_status *st,
				  int64_t now)
{
	struct attention_calls c;
	attention_observe(a, st, now, &c);
	return c;
}

static void test_title_follows_state(void **state)
{
	(void)state;
	struct attention a;
	attention_init(&a, true, 10, NOTIFY_OFF);
	struct controller_status st;
	live(&st, RUN_STATUS_IDLE, 0);
	struct attention_calls c = see(&a, &st, 1 * S);
	assert_true(c.set_title);
	assert_string_equal(c.title, "tether: Fix the tests — idle");
	/* the same title is not written again */
	assert_false(see(&a, &st, 2 * S).set_title);
	live(&st, RUN_STATUS_RUNNING, 3 * S);
	c = see(&a, &st, 3 * S);
	assert_string_equal(c.title, "tether: Fix the tests — running");
	live(&st, RUN_STATUS_WAITING_FOR_CONFIRMATION, 0);
	assert_string_equal(see(&a, &st, 4 * S).title, "tether: Fix the tests — needs confirmation");
	/* down: the connection's state, not the agent's old one */
	st.connection = SESSION_RECONNECTING;
	st.caught_up = false;
	assert_string_equal(see(&a, &st, 5 * S).title, "tether: Fix the tests — reconnecting");
	/* no title known: the start of the id */
	st.title = NULL;
	assert_string_equal(see(&a, &st, 6 * S).title, "tether: 5f2c9b7e — reconnecting");
	/* other open conversations that need the user are counted in the title */
	a.others_need = 1;
	assert_string_equal(see(&a, &st, 7 * S).title,
			    "tether: 5f2c9b7e — reconnecting · 1 other needs you");
	a.others_need = 3;
	assert_string_equal(see(&a, &st, 8 * S).title,
			    "tether: 5f2c9b7e — reconnecting · 3 others need you");
	a.others_need = 0;
	assert_string_equal(see(&a, &st, 9 * S).title, "tether: 5f2c9b7e — reconnecting");
}

static void test_confirmation_rings_once(void **state)
{
	(void)state;
	struct attention a;
	attention_init(&a, true, 10, NOTIFY_OSC9);
	struct controller_status st;
	live(&st, RUN_STATUS_RUNNING, 1 * S);
	assert_false(see(&a, &st, 1 * S).bell);
	live(&st, RUN_STATUS_WAITING_FOR_CONFIRMATION, 0);
	struct attention_calls c = see(&a, &st, 2 * S);
	assert_true(c.bell);
	assert_true(c.notify);
	assert_string_equal(c.notify_title, "tether: Fix the tests");
	assert_string_equal(c.notify_body, "needs confirmation");
	/* still waiting: nothing more */
	c = see(&a, &st, 3 * S);
	assert_false(c.bell);
	assert_false(c.notify);
	/* answered, then asked again: a new request rings again */
	live(&st, RUN_STATUS_RUNNING, 4 * S);
	assert_false(see(&a, &st, 4 * S).bell);
	live(&st, RUN_STATUS_WAITING_FOR_CONFIRMATION, 0);
	assert_true(see(&a, &st, 5 * S).bell);
}

static void test_run_end_rings_after_bell_after(void **state)
{
	(void)state;
	struct attention a;
	attention_init(&a, true, 10, NOTIFY_OFF);
	struct controller_status st;
	live(&st, RUN_STATUS_IDLE, 0);
	see(&a, &st, 0);
	/* a short run ends quietly */
	live(&st, RUN_STATUS_RUNNING, 1 * S);
	see(&a, &st, 1 * S);
	live(&st, RUN_STATUS_IDLE, 0);
	assert_false(see(&a, &st, 5 * S).bell);
	/* a long one rings, once, and says how long; notify off: no notification */
	live(&st, RUN_STATUS_RUNNING, 10 * S);
	see(&a, &st, 10 * S);
	live(&st, RUN_STATUS_FINISHED, 0);
	struct attention_calls c = see(&a, &st, 75 * S);
	assert_true(c.bell);
	assert_false(c.notify);
	assert_false(see(&a, &st, 76 * S).bell);
	/* pausing is the user's doing: no bell */
	live(&st, RUN_STATUS_RUNNING, 100 * S);
	see(&a, &st, 100 * S);
	live(&st, RUN_STATUS_PAUSED, 0);
	assert_false(see(&a, &st, 200 * S).bell);
}

static void test_run_end_notification_words(void **state)
{
	(void)state;
	struct attention a;
	attention_init(&a, true, 0, NOTIFY_OSC777);
	struct controller_status st;
	live(&st, RUN_STATUS_RUNNING, 1 * S);
	see(&a, &st, 1 * S);
	live(&st, RUN_STATUS_ERROR, 0);
	struct attention_calls c = see(&a, &st, 134 * S);
	assert_true(c.notify);
	assert_string_equal(c.notify_body, "error after running 2:13");
}

static void test_bell_off(void **state)
{
	(void)state;
	struct attention a;
	attention_init(&a, false, 0, NOTIFY_OSC9);
	struct controller_status st;
	live(&st, RUN_STATUS_RUNNING, 1 * S);
	see(&a, &st, 1 * S);
	live(&st, RUN_STATUS_WAITING_FOR_CONFIRMATION, 0);
	struct attention_calls c = see(&a, &st, 2 * S);
	assert_false(c.bell);
	assert_true(c.notify); /* notifications are their own setting */
}

/* The state at the first catch-up is history; replay and reconnecting decide nothing, and a
 * reconnect's catch-up shows what changed while away. */
static void test_history_and_reconnects(void **state)
{
	(void)state;
	struct attention a;
	attention_init(&a, true, 0, NOTIFY_OFF);
	struct controller_status st;
	/* replaying at start: a confirmation in the history */
	live(&st, RUN_STATUS_WAITING_FOR_CONFIRMATION, 0);
	st.caught_up = false;
	st.syncing = true;
	assert_false(see(&a, &st, 1 * S).bell);
	live(&st, RUN_STATUS_RUNNING, 2 * S);
	st.caught_up = false;
	st.syncing = true;
	assert_false(see(&a, &st, 2 * S).bell);
	/* caught up still waiting for confirmation: it waits for the user now, so it rings
	 * once, as a run that ended while disconnected does (issue 23, point 11) */
	live(&st, RUN_STATUS_WAITING_FOR_CONFIRMATION, 0);
	assert_true(see(&a, &st, 3 * S).bell);
	assert_false(see(&a, &st, 3 * S + 1).bell);
	live(&st, RUN_STATUS_RUNNING, 4 * S);
	see(&a, &st, 4 * S);
	/* the connection drops; the run ends meanwhile */
	st.connection = SESSION_RECONNECTING;
	st.caught_up = false;
	assert_false(see(&a, &st, 5 * S).bell);
	live(&st, RUN_STATUS_IDLE, 0);
	st.syncing = true;
	st.caught_up = false;
	assert_false(see(&a, &st, 6 * S).bell);
	/* caught up again: the end is news */
	live(&st, RUN_STATUS_IDLE, 0);
	assert_true(see(&a, &st, 7 * S).bell);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_title_follows_state),
		cmocka_unit_test(test_confirmation_rings_once),
		cmocka_unit_test(test_run_end_rings_after_bell_after),
		cmocka_unit_test(test_run_end_notification_words),
		cmocka_unit_test(test_bell_off),
		cmocka_unit_test(test_history_and_reconnects),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
