/* Events as the OpenHands SDK serializes them (issue 13; docs/events.md names the upstream
 * classes): the final answer, exit codes and timeouts, each standard tool's arguments, every
 * provider's reasoning once, ACP tool calls, hooks, the system prompt and unknown kinds. */
#include "codec_test.h"

#include <stdio.h>

static void decode(const char *event, struct frame *f)
{
	static char json[16384];
	int n = snprintf(json, sizeof json, "{\"type\":\"durable\",\"seq\":1,\"event\":%s}", event);
	assert_true(n > 0 && (size_t)n < sizeof json);
	DECODE_OK(json, f);
}

static void action(const char *tool, const char *act, const char *extra, struct frame *f)
{
	static char ev[12288];
	int n = snprintf(ev, sizeof ev, "{\"id\":\"a1\",\"source\":\"agent\",%s\"thought\":[],\"action\":%s,"
			 "\"tool_name\":\"%s\",\"tool_call_id\":\"call_1\",\"tool_call\":{\"id\":\"call_1\","
			 "\"name\":\"%s\",\"arguments\":\"{}\",\"origin\":\"completion\"},"
			 "\"llm_response_id\":\"r1\",\"security_risk\":\"UNKNOWN\",\"kind\":\"ActionEvent\"}",
			 extra, act, tool, tool);
	assert_true(n > 0 && (size_t)n < sizeof ev);
	decode(ev, f);
	assert_int_equal(f->event.kind, EVENT_ACTION);
}

static void observation(const char *obs, struct frame *f)
{
	static char ev[8192];
	int n = snprintf(ev, sizeof ev, "{\"id\":\"o1\",\"source\":\"environment\",\"tool_name\":\"terminal\","
			 "\"tool_call_id\":\"call_1\",\"observation\":%s,\"action_id\":\"a1\","
			 "\"kind\":\"ObservationEvent\"}", obs);
	assert_true(n > 0 && (size_t)n < sizeof ev);
	decode(ev, f);
}

/* An action of tool (act its JSON) decodes with arguments want. */
static void args_are(const char *tool, const char *act, const char *want)
{
	struct frame f;
	action(tool, act, "", &f);
	assert_string_equal(f.event.arguments, want);
	frame_fini(&f);
}

/* An observation (obs its JSON) decodes with text want. */
static void text_is(const char *obs, const char *want)
{
	struct frame f;
	observation(obs, &f);
	assert_string_equal(f.event.text, want);
	frame_fini(&f);
}

static void test_finish_message_whole(void **state)
{
	(void)state;
	struct frame f;
	char msg[1200], act[1400];
	int n = snprintf(msg, sizeof msg, "## Summary\\n\\n");
	for (int i = 0; i < 20; i++)
		n += snprintf(msg + n, sizeof msg - (size_t)n, "Paragraph %d of the answer.\\n\\n", i);
	snprintf(msg + n, sizeof msg - (size_t)n, "The last paragraph.");
	snprintf(act, sizeof act, "{\"message\":\"%s\",\"kind\":\"FinishAction\"}", msg);
	action("finish", act, "", &f);
	assert_string_equal(f.event.action_kind, "FinishAction");
	assert_non_null(f.event.arguments);
	assert_true(strncmp(f.event.arguments, "## Summary\n\nParagraph 0", 23) == 0);
	assert_non_null(strstr(f.event.arguments, "Paragraph 19 of the answer.\n\nThe last paragraph."));
	frame_fini(&f);

	observation("{\"content\":[{\"type\":\"text\",\"text\":\"done\"}],\"is_error\":false,"
		    "\"kind\":\"FinishObservation\"}", &f);
	assert_string_equal(f.event.observation_kind, "FinishObservation");
	frame_fini(&f);
}

static void test_exit_codes_and_timeouts(void **state)
{
	(void)state;
	struct frame f;
	/* Failed with a message: exit_code null (left out), metadata.exit_code -1 by default. */
	observation("{\"content\":[{\"type\":\"text\",\"text\":\"Cannot execute multiple commands at once.\"}],"
		    "\"is_error\":true,\"command\":\"a\\nb\",\"timeout\":false,\"metadata\":{\"exit_code\":-1,"
		    "\"pid\":-1,\"prefix\":\"\",\"suffix\":\"\"},\"kind\":\"TerminalObservation\"}", &f);
	assert_true(f.event.is_error);
	assert_false(f.event.has_exit_code);
	assert_int_equal(f.event.exit_status, EXIT_STATUS_NONE);
	assert_string_equal(f.event.text, "Cannot execute multiple commands at once.");
	frame_fini(&f);

	/* The soft timeout: exit_code -1 means still running, and the suffix says so. */
	observation("{\"content\":[{\"type\":\"text\",\"text\":\"Serving on 8000\"}],\"is_error\":false,"
		    "\"command\":\"serve\",\"exit_code\":-1,\"timeout\":false,\"metadata\":{\"exit_code\":-1,"
		    "\"pid\":-1,\"prefix\":\"\",\"suffix\":\"\\n[The command has no new output after 30 seconds.]\"},"
		    "\"kind\":\"TerminalObservation\"}", &f);
	assert_int_equal(f.event.exit_status, EXIT_STATUS_RUNNING);
	assert_false(f.event.has_exit_code);
	assert_false(f.event.is_error);
	assert_string_equal(f.event.text, "Serving on 8000\n[The command has no new output after 30 seconds.]");
	frame_fini(&f);

	/* The hard timeout. */
	observation("{\"content\":[],\"is_error\":false,\"exit_code\":-1,\"timeout\":true,"
		    "\"metadata\":{\"exit_code\":-1,\"suffix\":\"\\n[The command timed out after 5.0 seconds.]\"},"
		    "\"kind\":\"TerminalObservation\"}", &f);
	assert_int_equal(f.event.exit_status, EXIT_STATUS_TIMED_OUT);
	assert_string_equal(f.event.text, "[The command timed out after 5.0 seconds.]");
	frame_fini(&f);

	/* Exited: the top-level code, or metadata's when the top level has none. */
	observation("{\"content\":[],\"is_error\":false,\"exit_code\":2,\"metadata\":{\"exit_code\":2},"
		    "\"kind\":\"TerminalObservation\"}", &f);
	assert_int_equal(f.event.exit_status, EXIT_STATUS_EXITED);
	assert_true(f.event.has_exit_code);
	assert_int_equal(f.event.exit_code, 2);
	frame_fini(&f);
	observation("{\"content\":[],\"is_error\":false,\"metadata\":{\"exit_code\":0},"
		    "\"kind\":\"TerminalObservation\"}", &f);
	assert_int_equal(f.event.exit_status, EXIT_STATUS_EXITED);
	assert_int_equal(f.event.exit_code, 0);
	frame_fini(&f);
	/* The suffix already in the text is not repeated. */
	text_is("{\"content\":[{\"type\":\"text\",\"text\":\"x\\n[note]\"}],\"exit_code\":0,"
		"\"metadata\":{\"exit_code\":0,\"suffix\":\"\\n[note]\"},\"kind\":\"TerminalObservation\"}",
		"x\n[note]");
}

static void test_terminal_arguments(void **state)
{
	(void)state;
	struct frame f;
	action("terminal", "{\"command\":\"ls -la\",\"is_input\":false,\"reset\":false,\"kind\":\"TerminalAction\"}",
	       "", &f);
	assert_string_equal(f.event.action_summary, "ls -la");
	assert_null(f.event.arguments);
	frame_fini(&f);
	/* Several lines: the first in the summary, all of them in a code block. */
	action("terminal", "{\"command\":\"cd src\\nmake\",\"is_input\":false,\"timeout\":30.0,\"reset\":false,"
	       "\"kind\":\"TerminalAction\"}", "", &f);
	assert_string_equal(f.event.action_summary, "cd src …");
	assert_string_equal(f.event.arguments, "```\ncd src\nmake\n```\ntimeout: 30 s");
	frame_fini(&f);
	/* A fence inside the command does not end the block. */
	args_are("terminal", "{\"command\":\"cat <<X\\n```\\nX\",\"kind\":\"TerminalAction\"}",
		 "~~~\ncat <<X\n```\nX\n~~~");
}

static void test_file_editor_arguments(void **state)
{
	(void)state;
	struct frame f;
	action("file_editor", "{\"command\":\"str_replace\",\"path\":\"/w/a.py\",\"old_str\":\"x = 1\","
	       "\"new_str\":\"x = 2\",\"kind\":\"FileEditorAction\"}", "", &f);
	assert_string_equal(f.event.action_summary, "str_replace /w/a.py");
	/* an edit is a unified diff; where in the file comes only with the result */
	assert_string_equal(f.event.arguments, "```diff\n--- /w/a.py\n+++ /w/a.py\n@@ -?,1 +?,1 @@\n"
			    "-x = 1\n+x = 2\n```");
	frame_fini(&f);
	args_are("file_editor", "{\"command\":\"create\",\"path\":\"/w/b.py\",\"file_text\":\"print(1)\\n\","
		 "\"kind\":\"FileEditorAction\"}",
		 "```diff\n--- /dev/null\n+++ /w/b.py\n@@ -0,0 +1 @@\n"
		 "+print(1)\n```");
	args_are("file_editor", "{\"command\":\"insert\",\"path\":\"/w/b.py\",\"new_str\":\"y\",\"insert_line\":3,"
		 "\"kind\":\"FileEditorAction\"}",
		 "```diff\n--- /w/b.py\n+++ /w/b.py\n@@ -3,0 +4 @@\n+y\n```");
	args_are("file_editor", "{\"command\":\"view\",\"path\":\"/w/b.py\",\"view_range\":[14,18],"
		 "\"kind\":\"FileEditorAction\"}",
		 "lines 14 to 18");
	/* a diff holding a fence is fenced otherwise */
	args_are("file_editor", "{\"command\":\"str_replace\",\"path\":\"/w/r.md\",\"old_str\":\"```\","
		 "\"new_str\":\"~~~\",\"kind\":\"FileEditorAction\"}",
		 "````diff\n--- /w/r.md\n+++ /w/r.md\n@@ -?,1 +?,1 @@\n"
		 "-```\n+~~~\n````");
}

/* apply_patch's patch shows as it is, in a diff block. */
static void test_apply_patch_arguments(void **state)
{
	(void)state;
	args_are("apply_patch", "{\"patch\":\"*** Begin Patch\\n*** Update File: a.py\\n@@\\n-x = 1\\n+x = 2\\n"
		 "*** End Patch\",\"kind\":\"ApplyPatchAction\"}",
		 "```diff\n*** Begin Patch\n*** Update File: a.py\n@@\n-x = 1\n"
		 "+x = 2\n*** End Patch\n```");
}

/* An edit's result is the diff of the file before and after, with line numbers and two lines
 * of context, as upstream's visualize shows it; an error or a view keeps its words. */
static void test_file_editor_result_diff(void **state)
{
	(void)state;
	text_is("{\"content\":[{\"type\":\"text\",\"text\":\"The file /w/a.py has been edited.\"}],"
		"\"is_error\":false,\"command\":\"str_replace\",\"path\":\"/w/a.py\",\"prev_exist\":true,"
		"\"old_content\":\"1\\n2\\n3\\n4\\n5\\n6\\n\",\"new_content\":\"1\\n2\\n3\\nfour\\n5\\n6\\n\","
		"\"kind\":\"FileEditorObservation\"}",
		"```diff\n--- /w/a.py\n+++ /w/a.py\n@@ -2,5 +2,5 @@\n 2\n 3\n"
		"-4\n+four\n 5\n 6\n```");
	text_is("{\"content\":[{\"type\":\"text\",\"text\":\"File created.\"}],\"is_error\":false,"
		"\"command\":\"create\",\"path\":\"/w/n.sh\",\"prev_exist\":false,\"old_content\":null,"
		"\"new_content\":\"echo hi\\n\",\"kind\":\"FileEditorObservation\"}",
		"```diff\n--- /dev/null\n+++ /w/n.sh\n@@ -0,0 +1 @@\n+echo hi\n```");
	text_is("{\"content\":[{\"type\":\"text\",\"text\":\"No replacement was performed.\"}],"
		"\"is_error\":true,\"command\":\"str_replace\",\"path\":\"/w/a.py\",\"old_content\":\"a\","
		"\"new_content\":\"b\",\"kind\":\"FileEditorObservation\"}",
		"No replacement was performed.");
	/* nothing changed (an undo with nothing to undo): the words stay */
	text_is("{\"content\":[{\"type\":\"text\",\"text\":\"Same.\"}],\"is_error\":false,"
		"\"command\":\"undo_edit\",\"path\":\"/w/a.py\",\"old_content\":\"a\",\"new_content\":\"a\","
		"\"kind\":\"FileEditorObservation\"}",
		"Same.");
}

/* A 5 MB replacement is not compared: said in words, the texts shown as they are. */
static void test_file_editor_huge_edit(void **state)
{
	(void)state;
	size_t n = 5u << 20;
	struct buf json;
	buf_init(&json);
	buf_puts(&json, "{\"type\":\"durable\",\"seq\":1,\"event\":{\"id\":\"a1\",\"source\":\"agent\",\"thought\":[],\"tool_name\":\"file_editor\","
		 "\"tool_call_id\":\"c1\",\"kind\":\"ActionEvent\",\"action\":"
		 "{\"command\":\"str_replace\",\"path\":\"/w/big\",\"old_str\":\"");
	for (size_t i = 0; i < n / 2; i++)
		buf_puts(&json, "a\\n");
	buf_puts(&json, "\",\"new_str\":\"b\",\"kind\":\"FileEditorAction\"}}}");
	struct frame f;
	int64_t t0 = clock_now_us();
	DECODE_OK(json.data, &f);
	assert_true(clock_now_us() - t0 < 5000000);
	assert_non_null(f.event.arguments);
	assert_memory_equal(f.event.arguments, "(an edit of 5.0 MB: too large to show as a diff)\n"
			    "replace:\n```\na\n", 61);
	frame_fini(&f);
	buf_fini(&json);
}

static void test_other_standard_tools(void **state)
{
	(void)state;
	struct frame f;
	action("task_tracker", "{\"command\":\"plan\",\"task_list\":[{\"title\":\"Reproduce\",\"notes\":\"\","
	       "\"status\":\"done\"},{\"title\":\"Fix\",\"notes\":\"summary.py\",\"status\":\"in_progress\"},"
	       "{\"title\":\"Test\",\"notes\":\"\",\"status\":\"todo\"}],\"kind\":\"TaskTrackerAction\"}", "", &f);
	assert_string_equal(f.event.action_summary, "plan");
	assert_string_equal(f.event.arguments, "1. [x] Reproduce\n2. [~] Fix (in progress)\n   summary.py\n"
					       "3. [ ] Test");
	frame_fini(&f);
	/* think: the whole thought is the body; the header takes the LLM's summary. */
	action("think", "{\"thought\":\"one\\ntwo\",\"kind\":\"ThinkAction\"}", "\"summary\":\"weigh it\",", &f);
	assert_string_equal(f.event.action_summary, "weigh it");
	assert_string_equal(f.event.arguments, "one\ntwo");
	frame_fini(&f);
	action("glob", "{\"pattern\":\"**/*.py\",\"path\":\"/w\",\"kind\":\"GlobAction\"}", "", &f);
	assert_string_equal(f.event.action_summary, "**/*.py");
	assert_string_equal(f.event.arguments, "path: /w");
	frame_fini(&f);
	action("grep", "{\"pattern\":\"def main\",\"path\":\"/w\",\"include\":\"*.c\",\"kind\":\"GrepAction\"}", "", &f);
	assert_string_equal(f.event.action_summary, "def main");
	assert_string_equal(f.event.arguments, "path: /w\ninclude: *.c");
	frame_fini(&f);
	action("browser_navigate", "{\"url\":\"https://example.com\",\"new_tab\":false,"
	       "\"kind\":\"BrowserNavigateAction\"}", "", &f);
	assert_string_equal(f.event.action_summary, "https://example.com");
	assert_string_equal(f.event.arguments, "new_tab: no");
	frame_fini(&f);
	args_are("browser_click", "{\"index\":7,\"new_tab\":true,\"kind\":\"BrowserClickAction\"}",
		 "index: 7\nnew_tab: yes");
	args_are("fetch_issue", "{\"data\":{\"repo\":\"acme/r\",\"number\":42,\"labels\":[\"bug\",\"p1\"],"
		 "\"filter\":{\"state\":\"open\"}},\"kind\":\"MCPToolAction\"}",
		 "repo: acme/r\nnumber: 42\nlabels: bug, p1\nfilter.state: open");
}

/* An MCP tool's blocks on lines of their own, as its visualize shows them; other observations'
 * parts stay joined with nothing between. */
static void test_mcp_observation_blocks(void **state)
{
	(void)state;
	text_is("{\"content\":[{\"type\":\"text\",\"text\":\"[Tool 'fetch' executed.]\"},"
		"{\"type\":\"text\",\"text\":\"Contents of https://example.com/:\"},"
		"{\"type\":\"text\",\"text\":\"Example Domain\"}],\"is_error\":false,"
		"\"tool_name\":\"fetch\",\"kind\":\"MCPToolObservation\"}",
		"[Tool 'fetch' executed.]\nContents of https://example.com/:\n"
		"Example Domain");
	text_is("{\"content\":[{\"type\":\"text\",\"text\":\"sk-ab\"},{\"type\":\"text\",\"text\":\"cd\"}],"
		"\"is_error\":false,\"kind\":\"TerminalObservation\"}",
		"sk-abcd");
}

/* Any other tool: its fields as key: value lines, never JSON. */
static void test_unknown_tool(void **state)
{
	(void)state;
	struct frame f;
	action("delegate", "{\"command\":\"spawn\",\"ids\":[\"a\",\"b\"],\"tasks\":[{\"id\":\"a\",\"text\":\"x\\ny\"}],"
	       "\"budget\":0.5,\"nothing\":null,\"empty\":[],\"kind\":\"DelegateAction\"}", "", &f);
	assert_string_equal(f.event.action_summary, "spawn");
	assert_string_equal(f.event.arguments, "command: spawn\nids: a, b\ntasks[1].id: a\ntasks[1].text: x\n"
					       "  y\nbudget: 0.5\nempty: (none)");
	assert_null(strchr(f.event.arguments, '{'));
	frame_fini(&f);
	/* Its observation with nothing in content: the fields that came back. */
	observation("{\"content\":[],\"is_error\":false,\"spawned\":[\"a\",\"b\"],\"kind\":\"DelegateObservation\"}",
		    &f);
	assert_string_equal(f.event.text, "spawned: a, b");
	frame_fini(&f);
	/* A standard tool's empty output stays empty (no metadata noise). */
	observation("{\"content\":[],\"is_error\":false,\"command\":\"mkdir x\",\"exit_code\":0,"
		    "\"kind\":\"TerminalObservation\"}", &f);
	assert_null(f.event.text);
	frame_fini(&f);
}

/* agent.py: an unknown tool or bad arguments give an ActionEvent without action (then an
 * AgentErrorEvent): what was asked is read from tool_call.arguments. */
static void test_action_without_action(void **state)
{
	(void)state;
	struct frame f;
	decode("{\"id\":\"a2\",\"source\":\"agent\",\"thought\":[],\"tool_name\":\"str_replace_editor\","
	       "\"tool_call_id\":\"c2\",\"tool_call\":{\"id\":\"c2\",\"name\":\"str_replace_editor\","
	       "\"arguments\":\"{\\\"command\\\": \\\"view\\\", \\\"path\\\": \\\"/w/cli.py\\\", "
	       "\\\"security_risk\\\": \\\"LOW\\\"}\",\"origin\":\"completion\"},\"llm_response_id\":\"r\","
	       "\"security_risk\":\"UNKNOWN\",\"kind\":\"ActionEvent\"}", &f);
	assert_int_equal(f.event.kind, EVENT_ACTION);
	assert_null(f.event.action_kind);
	assert_string_equal(f.event.action_summary, "view");
	assert_string_equal(f.event.arguments, "command: view\npath: /w/cli.py");
	frame_fini(&f);
	/* Arguments that are not JSON: nothing made up. */
	decode("{\"id\":\"a3\",\"tool_name\":\"x\",\"tool_call_id\":\"c3\",\"tool_call\":{\"arguments\":\"{oops\"},"
	       "\"kind\":\"ActionEvent\"}", &f);
	assert_null(f.event.arguments);
	assert_null(f.event.action_summary);
	frame_fini(&f);
}

static void test_reasoning_every_provider_once(void **state)
{
	(void)state;
	struct frame f;
	/* <think> inline while reasoning_content is also set (minimax through litellm). */
	action("terminal", "{\"command\":\"ls\",\"kind\":\"TerminalAction\"}",
	       "\"thought\":[{\"type\":\"text\",\"text\":\"<think>Plan:\\n1. list\\n</think>\\n\\n\\nListing files.\"}],"
	       "\"reasoning_content\":\"Plan:\\n1. list\\n\",", &f);
	assert_string_equal(f.event.text, "Listing files.");
	assert_string_equal(f.event.reasoning, "Plan:\n1. list\n");
	frame_fini(&f);
	/* <think> only: it becomes the reasoning. */
	action("terminal", "{\"command\":\"ls\",\"kind\":\"TerminalAction\"}",
	       "\"thought\":[{\"type\":\"text\",\"text\":\"<think> inner </think>outer\"}],", &f);
	assert_string_equal(f.event.text, "outer");
	assert_string_equal(f.event.reasoning, "inner");
	frame_fini(&f);
	/* An unclosed <think> runs to the end: nothing is left as text. */
	action("terminal", "{\"command\":\"ls\",\"kind\":\"TerminalAction\"}",
	       "\"thought\":[{\"type\":\"text\",\"text\":\"<think>still thinking\"}],", &f);
	assert_null(f.event.text);
	assert_string_equal(f.event.reasoning, "still thinking");
	frame_fini(&f);
	/* OpenAI Responses: summary and content of the reasoning item. */
	action("think", "{\"thought\":\"t\",\"kind\":\"ThinkAction\"}",
	       "\"responses_reasoning_item\":{\"id\":\"rs_1\",\"summary\":[\"Comparing.\",\"Choosing.\"],"
	       "\"content\":[\"Because.\"],\"encrypted_content\":\"gAAA\",\"status\":\"completed\"},", &f);
	assert_string_equal(f.event.reasoning, "Comparing.\n\nChoosing.\n\nBecause.");
	frame_fini(&f);
	/* Anthropic: thinking blocks repeated in reasoning_content count once; redacted add nothing. */
	decode("{\"id\":\"m1\",\"source\":\"agent\",\"llm_message\":{\"role\":\"assistant\",\"content\":"
	       "[{\"type\":\"text\",\"text\":\"Done.\"}],\"reasoning_content\":\"Check the tests.\","
	       "\"thinking_blocks\":[{\"type\":\"thinking\",\"thinking\":\"Check the tests.\",\"signature\":\"s\"},"
	       "{\"type\":\"redacted_thinking\",\"data\":\"xyz\"}],\"responses_reasoning_item\":{\"summary\":[],"
	       "\"content\":[\"Then answer.\"]}},\"kind\":\"MessageEvent\"}", &f);
	assert_string_equal(f.event.text, "Done.");
	assert_string_equal(f.event.reasoning, "Check the tests.\n\nThen answer.");
	frame_fini(&f);
}

static void test_acp_tool_call(void **state)
{
	(void)state;
	struct frame f;
	decode("{\"id\":\"c1\",\"source\":\"agent\",\"tool_call_id\":\"acp_1\",\"title\":\"Read a.py\","
	       "\"status\":\"completed\",\"tool_kind\":\"read\",\"raw_input\":{\"path\":\"a.py\"},"
	       "\"raw_output\":\"print(1)\",\"is_error\":false,\"kind\":\"ACPToolCallEvent\"}", &f);
	assert_int_equal(f.event.kind, EVENT_ACP_TOOL_CALL);
	assert_string_equal(f.event.tool_name, "Read a.py");
	assert_string_equal(f.event.tool_call_id, "acp_1");
	assert_string_equal(f.event.tool_status, "completed");
	assert_string_equal(f.event.action_summary, "read");
	assert_string_equal(f.event.arguments, "path: a.py");
	assert_string_equal(f.event.text, "print(1)");
	frame_fini(&f);
	/* Without raw_output, the content blocks (ACP's wire shape or the dumped one). */
	decode("{\"id\":\"c2\",\"tool_call_id\":\"acp_2\",\"title\":\"Edit\",\"status\":\"failed\",\"is_error\":true,"
	       "\"content\":[{\"type\":\"content\",\"content\":{\"type\":\"text\",\"text\":\"no such file\"}},"
	       "{\"type\":\"diff\",\"path\":\"b.py\",\"oldText\":\"a\",\"newText\":\"b\"}],"
	       "\"kind\":\"ACPToolCallEvent\"}", &f);
	assert_true(f.event.is_error);
	/* an edit's diff block is a unified diff, before any text */
	assert_string_equal(f.event.text, "```diff\n--- b.py\n+++ b.py\n@@ -?,1 +?,1 @@\n-a\n+b\n```\n"
			    "no such file");
	frame_fini(&f);
	/* a file written whole (old_text null, upstream's snake case): all added; no new text:
	 * the path in words */
	decode("{\"id\":\"c3\",\"tool_call_id\":\"acp_3\",\"title\":\"Write\",\"status\":\"completed\","
	       "\"content\":[{\"type\":\"diff\",\"path\":\"n.py\",\"old_text\":null,\"new_text\":\"x = 1\\n\"},"
	       "{\"type\":\"diff\",\"path\":\"m.py\"}],\"kind\":\"ACPToolCallEvent\"}", &f);
	assert_string_equal(f.event.text, "```diff\n--- /dev/null\n+++ n.py\n@@ -0,0 +1 @@\n+x = 1\n```\n"
			    "edited m.py");
	frame_fini(&f);
	/* A tool_kind from a hostile agent is a summary like any other: one line, cut at 200
	 * (fuzz_codec found it whole). */
	char json[1024];
	char kind[400];
	memset(kind, 'k', sizeof kind - 1);
	kind[sizeof kind - 1] = '\0';
	kind[10] = '\\';    /* "\n" in the JSON: a line break in the value */
	kind[11] = 'n';
	snprintf(json, sizeof json, "{\"id\":\"c3\",\"tool_call_id\":\"acp_3\",\"tool_kind\":\"%s\","
		 "\"kind\":\"ACPToolCallEvent\"}", kind);
	decode(json, &f);
	assert_non_null(f.event.action_summary);
	assert_true(strlen(f.event.action_summary) <= 200 + strlen("…"));
	assert_null(strchr(f.event.action_summary, '\n'));
	frame_fini(&f);
}

static void test_hooks_and_rejections(void **state)
{
	(void)state;
	struct frame f;
	decode("{\"id\":\"h1\",\"source\":\"hook\",\"hook_event_type\":\"PreToolUse\",\"hook_command\":\"check.sh\","
	       "\"tool_name\":\"terminal\",\"success\":false,\"blocked\":true,\"exit_code\":2,\"stdout\":\"\","
	       "\"stderr\":\"denied\",\"reason\":\"No force pushes.\",\"kind\":\"HookExecutionEvent\"}", &f);
	assert_int_equal(f.event.kind, EVENT_HOOK);
	assert_string_equal(f.event.label, "hook PreToolUse (terminal): blocked (exit 2)");
	assert_string_equal(f.event.text, "No force pushes.\ndenied\ncommand: check.sh");
	frame_fini(&f);
	decode("{\"id\":\"h2\",\"source\":\"hook\",\"hook_event_type\":\"SessionStart\",\"hook_command\":\"x\","
	       "\"success\":true,\"exit_code\":0,\"kind\":\"HookExecutionEvent\"}", &f);
	assert_string_equal(f.event.label, "hook SessionStart: ok");
	frame_fini(&f);
	/* A hook that failed open has its message as both reason and error: shown once. */
	decode("{\"id\":\"h3\",\"source\":\"hook\",\"hook_event_type\":\"PreToolUse\",\"hook_command\":\"a.sh\","
	       "\"success\":false,\"exit_code\":-1,\"reason\":\"hook returned no JSON\","
	       "\"error\":\"hook returned no JSON\\n\",\"kind\":\"HookExecutionEvent\"}", &f);
	assert_string_equal(f.event.text, "hook returned no JSON\ncommand: a.sh");
	frame_fini(&f);
	/* A deny printed as JSON: upstream took its reason out; the raw answer is not shown too. */
	decode("{\"id\":\"h4\",\"source\":\"hook\",\"hook_event_type\":\"PreToolUse\",\"hook_command\":\"b.sh\","
	       "\"tool_name\":\"terminal\",\"success\":true,\"blocked\":true,\"exit_code\":0,"
	       "\"stdout\":\"{\\\"decision\\\":\\\"deny\\\",\\\"reason\\\":\\\"Not on main.\\\"}\\n\","
	       "\"reason\":\"Not on main.\",\"kind\":\"HookExecutionEvent\"}", &f);
	assert_string_equal(f.event.text, "Not on main.\ncommand: b.sh");
	frame_fini(&f);
	/* Output that says more than the answer stays. */
	decode("{\"id\":\"h5\",\"source\":\"hook\",\"hook_event_type\":\"PostToolUse\",\"hook_command\":\"c.sh\","
	       "\"success\":true,\"exit_code\":0,\"stdout\":\"{\\\"reason\\\":\\\"r\\\",\\\"extra\\\":1}\","
	       "\"reason\":\"r\",\"kind\":\"HookExecutionEvent\"}", &f);
	assert_string_equal(f.event.text, "r\n{\"reason\":\"r\",\"extra\":1}\ncommand: c.sh");
	frame_fini(&f);
	decode("{\"id\":\"r1\",\"source\":\"environment\",\"tool_name\":\"terminal\",\"tool_call_id\":\"c\","
	       "\"rejection_reason\":\"No force pushes.\",\"rejection_source\":\"hook\",\"action_id\":\"a\","
	       "\"kind\":\"UserRejectObservation\"}", &f);
	assert_true(f.event.rejected_by_hook);
	frame_fini(&f);
	decode("{\"id\":\"r2\",\"tool_name\":\"terminal\",\"tool_call_id\":\"c\",\"rejection_reason\":\"no\","
	       "\"rejection_source\":\"user\",\"action_id\":\"a\",\"kind\":\"UserRejectObservation\"}", &f);
	assert_false(f.event.rejected_by_hook);
	frame_fini(&f);
}

static void test_system_prompt_log_and_unknown_kinds(void **state)
{
	(void)state;
	struct frame f;
	decode("{\"id\":\"s1\",\"source\":\"agent\",\"system_prompt\":{\"cache_prompt\":false,\"type\":\"text\","
	       "\"text\":\"You are OpenHands agent.\"},\"tools\":[{\"description\":\"d\",\"action_type\":"
	       "\"TerminalAction\",\"annotations\":{\"title\":\"terminal\"},\"kind\":\"TerminalTool\"},"
	       "{\"description\":\"d\",\"action_type\":\"ThinkAction\",\"kind\":\"ThinkTool\"}],"
	       "\"dynamic_context\":{\"type\":\"text\",\"text\":\"cwd: /w\"},\"kind\":\"SystemPromptEvent\"}", &f);
	assert_int_equal(f.event.kind, EVENT_SYSTEM_PROMPT);
	assert_string_equal(f.event.text, "You are OpenHands agent.\n\ncwd: /w\n\ntools: terminal, ThinkTool");
	frame_fini(&f);
	decode("{\"id\":\"l1\",\"source\":\"environment\",\"filename\":\"f.json\",\"log_data\":\"{}\","
	       "\"model_name\":\"m\",\"usage_id\":\"default\",\"kind\":\"LLMCompletionLogEvent\"}", &f);
	assert_int_equal(f.event.kind, EVENT_LLM_LOG);
	frame_fini(&f);
	/* A future kind: its name in words and its fields. */
	decode("{\"id\":\"u1\",\"timestamp\":\"t\",\"source\":\"environment\",\"plan_title\":\"Fix\",\"score\":0.5,"
	       "\"approved\":true,\"kind\":\"PlanReviewEvent\"}", &f);
	assert_int_equal(f.event.kind, EVENT_UNKNOWN);
	assert_string_equal(f.event.label, "plan review");
	assert_string_equal(f.event.text, "plan_title: Fix\nscore: 0.5\napproved: yes");
	frame_fini(&f);
	decode("{\"id\":\"u2\",\"kind\":\"ACPToolCallUpdateEvent\"}", &f);
	assert_string_equal(f.event.label, "acp tool call update");
	assert_null(f.event.text);
	frame_fini(&f);
	decode("{\"id\":\"u3\",\"kind\":\"LLMRetry\"}", &f);
	assert_string_equal(f.event.label, "llm retry");
	frame_fini(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_finish_message_whole),
		cmocka_unit_test(test_exit_codes_and_timeouts),
		cmocka_unit_test(test_terminal_arguments),
		cmocka_unit_test(test_file_editor_arguments),
		cmocka_unit_test(test_file_editor_huge_edit),
		cmocka_unit_test(test_file_editor_result_diff),
		cmocka_unit_test(test_apply_patch_arguments),
		cmocka_unit_test(test_other_standard_tools),
		cmocka_unit_test(test_unknown_tool),
		cmocka_unit_test(test_action_without_action),
		cmocka_unit_test(test_reasoning_every_provider_once),
		cmocka_unit_test(test_acp_tool_call),
		cmocka_unit_test(test_hooks_and_rejections),
		cmocka_unit_test(test_mcp_observation_blocks),
		cmocka_unit_test(test_system_prompt_log_and_unknown_kinds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
