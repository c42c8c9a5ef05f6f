#include "gen.h"
#include "util.h"

#include "net.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char fallback_text[] =
	"## Streaming tokens to a terminal\n\nA client that renders streamed model output "
	"appends each delta to a document model and schedules a redraw. The redraw happens "
	"on a fixed clock, so any number of deltas between two frames cost one paint.\n\n"
	"```c\nwhile (!quit && lws_service(ctx, 0) >= 0)\n\tdrain_keys();\n```\n\n"
	"- one loop\n- one flush per turn\n- no busy tick\n";

/* Multi-byte text, so that 4-code-point pieces cut through 2-, 3- and 4-byte characters. */
static const char utf8_text[] =
	"\n\nÉté à Zürich: naïve café, façade, œuvre. 日本語のテキストを四文字ずつ流します。"
	"中文流式输出测试，宽字符占两列。한국어 텍스트도 섞습니다. Emoji: 🚀✨🧪🔒 done — ✓.\n";

static const char *const words[] = {
	"buffer", "stream", "delta", "render", "frame", "the", "a", "of", "to", "and", "client",
	"server", "cursor", "replay", "resume", "socket", "terminal", "width", "wrap", "paint",
	"test", "fails", "passes", "function", "returns", "error", "value", "index", "parser",
	"layout", "row", "column", "event", "durable", "transient", "agent", "tool", "command",
	"output", "masking", "secret", "latency", "throughput", "allocation", "cache", "line",
};

static const char *const md_blocks[] = {
	"## Summary\n\n",
	"- **fixed** the off-by-one in `ring_push`\n- added a regression test\n",
	"```python\ndef test_ring_wraps():\n    r = Ring(4)\n    for i in range(9):\n"
	"        r.push(i)\n    assert list(r) == [5, 6, 7, 8]\n```\n",
	"> Note: the consumer must read the head with acquire ordering.\n",
	"1. run `pytest -q`\n2. read the failure\n3. patch `utils.py`\n",
};

static const char *const commands[] = {
	"pytest -q", "ls -la src", "git status", "grep -rn 'TODO' src", "make -j2",
	"python -m mypy src", "cat src/utils.py", "git diff --stat",
};

static const char *const tools_json =
	"[{\"description\":\"Execute a bash command in the terminal.\",\"action_type\":"
	"\"TerminalAction\",\"observation_type\":\"TerminalObservation\",\"kind\":\"TerminalTool\"},"
	"{\"description\":\"Custom editing tool for viewing, creating and editing files.\","
	"\"action_type\":\"FileEditorAction\",\"observation_type\":\"FileEditorObservation\","
	"\"kind\":\"FileEditorTool\"}]";

void gen_frames_free(struct gen_frames *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->json[i]);
	free(f->json);
	free(f->len);
	memset(f, 0, sizeof *f);
}

void gen_strings_free(char **s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(s[i]);
	free(s);
}

char **gen_secrets(size_t nsecrets, uint64_t seed)
{
	static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	static const char *const prefixes[] = { "sk-proj-", "ghp_", "xoxb-", "AKIA", "glpat-" };
	char **s = xcalloc(nsecrets ? nsecrets : 1, sizeof *s);
	uint64_t r = seed;
	for (size_t i = 0; i < nsecrets; i++) {
		struct buf b;
		buf_init(&b);
		buf_puts(&b, prefixes[i % 5]);
		size_t n = 20 + bench_rand(&r) % 21;
		for (size_t k = 0; k < n; k++)
			buf_putc(&b, alphabet[bench_rand(&r) % (sizeof alphabet - 1)]);
		s[i] = buf_steal(&b);
	}
	return s;
}

char *gen_stream_text(const char *answer_path, char **secrets, size_t nsecrets, size_t *len)
{
	size_t alen = 0;
	char *answer = bench_read_file(answer_path, &alen);
	const char *src = answer ? answer : fallback_text;
	if (!answer)
		alen = strlen(fallback_text);
	struct buf b;
	buf_init(&b);
	size_t next_secret = 0;
	for (size_t i = 0; i < alen; i++) {
		buf_putc(&b, src[i]);
		/* At a space every ~3 KB, a secret as a model might echo it from a file. */
		if (nsecrets && src[i] == ' ' && b.len / 3000 > next_secret) {
			buf_puts(&b, secrets[next_secret % nsecrets]);
			buf_putc(&b, ' ');
			next_secret++;
		}
	}
	buf_puts(&b, utf8_text);
	free(answer);
	*len = b.len;
	return buf_steal(&b);
}

void gen_item_id(size_t k, char *out, size_t size)
{
	snprintf(out, size, "b3f1c0de-7a2e-4c55-9d1e-%012zx", k);
}

static size_t cp_len(unsigned char c)
{
	return c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
}

void gen_delta_frames(const char *text, size_t len, size_t n, struct gen_frames *out,
		      size_t **item_of)
{
	memset(out, 0, sizeof *out);
	out->json = xcalloc(n ? n : 1, sizeof *out->json);
	out->len = xcalloc(n ? n : 1, sizeof *out->len);
	if (item_of)
		*item_of = xcalloc(n ? n : 1, sizeof **item_of);
	size_t pos = 0, stream = 0;
	int64_t order = 0;
	char id[64];
	gen_item_id(stream, id, sizeof id);
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < n; i++) {
		if (pos >= len) {
			pos = 0;
			order = 0;
			gen_item_id(++stream, id, sizeof id);
		}
		size_t start = pos;
		for (int k = 0; k < 4 && pos < len; k++)
			pos += cp_len((unsigned char)text[pos]);
		if (pos > len)
			pos = len;
		buf_clear(&b);
		buf_printf(&b, "{\"type\":\"delta\",\"item_id\":\"%s\",\"attempt\":1,\"order\":%lld,"
			       "\"kind\":\"text\",\"content\":",
			   id, (long long)order++);
		json_append_string(&b, text + start, pos - start);
		buf_printf(&b, ",\"chunk_id\":\"chatcmpl-bench%zu\",\"choice_index\":0}", stream);
		out->len[i] = b.len;
		out->json[i] = xstrndup(b.data, b.len);
		out->bytes += b.len;
		if (item_of)
			(*item_of)[i] = stream;
	}
	out->n = n;
	buf_fini(&b);
}

/* ----------------------------------------------------------- durable events */

struct gen_ctx {
	uint64_t rng;
	size_t max_output;
	struct buf text;        /* scratch for generated prose */
	struct buf output;      /* scratch for tool output (which contains prose) */
	int minute, second;
};

static void put_id(struct gen_ctx *g, struct buf *b)
{
	uint64_t a = bench_rand(&g->rng), c = bench_rand(&g->rng);
	buf_printf(b, "%08x-%04x-4%03x-%04x-%012llx", (unsigned)(a >> 32),
		   (unsigned)(a & 0xffff), (unsigned)((a >> 16) & 0xfff),
		   (unsigned)(0x8000 | (c & 0x3fff)), (unsigned long long)(c >> 16));
}

static void put_head(struct gen_ctx *g, struct buf *b, size_t seq, const char *source)
{
	if (++g->second >= 60) {
		g->second = 0;
		g->minute = (g->minute + 1) % 60;
	}
	buf_printf(b, "{\"type\":\"durable\",\"seq\":%zu,\"event\":{\"id\":\"", seq);
	put_id(g, b);
	buf_printf(b, "\",\"timestamp\":\"2026-09-20T14:%02d:%02d.%06u\",\"source\":\"%s\",",
		   g->minute, g->second, (unsigned)(bench_rand(&g->rng) % 1000000), source);
}

static const char *sentence(struct gen_ctx *g, size_t min_bytes)
{
	buf_clear(&g->text);
	while (g->text.len < min_bytes) {
		size_t nw = 6 + bench_rand(&g->rng) % 14;
		for (size_t i = 0; i < nw; i++) {
			const char *w = words[bench_rand(&g->rng) % (sizeof words / sizeof *words)];
			buf_puts(&g->text, w);
			buf_putc(&g->text, i + 1 < nw ? ' ' : '.');
		}
		buf_putc(&g->text, bench_rand(&g->rng) % 4 ? ' ' : '\n');
	}
	return buf_cstr(&g->text);
}

static void put_str(struct buf *b, const char *s)
{
	json_append_string(b, s, strlen(s));
}

static void put_text_part(struct buf *b, const char *s)
{
	buf_puts(b, "{\"cache_prompt\":false,\"type\":\"text\",\"text\":");
	put_str(b, s);
	buf_putc(b, '}');
}

/* Most tool output is short; a few are long (a test run, a file). */
static size_t output_size(struct gen_ctx *g)
{
	uint64_t r = bench_rand(&g->rng) % 100;
	size_t lo = r < 60 ? 40 : r < 90 ? 500 : 2048, hi = r < 60 ? 500 : r < 90 ? 2048 : g->max_output;
	if (hi > g->max_output)
		hi = g->max_output;
	if (lo >= hi)
		return hi;
	return lo + bench_rand(&g->rng) % (hi - lo);
}

static const char *terminal_output(struct gen_ctx *g, size_t bytes)
{
	struct buf *o = &g->output;
	buf_clear(o);
	while (o->len < bytes) {
		unsigned k = (unsigned)(bench_rand(&g->rng) % 4), n = (unsigned)(bench_rand(&g->rng) % 1000);
		switch (k) {
		case 0:
			buf_printf(o, "tests/test_mod%03u.py::test_case_%u PASSED [%3u%%]\n", n,
				   n * 7 % 97, n % 100);
			break;
		case 1:
			buf_printf(o, "-rw-r--r-- 1 openhands openhands %5u Sep 20 14:03 file_%03u.py\n",
				   n * 13, n);
			break;
		case 2:
			buf_printf(o, "  File \"/workspace/project/src/mod%u.py\", line %u, in handler\n",
				   n % 40, n);
			break;
		default:
			buf_printf(o, "src/mod%u.py:%u: %s\n", n % 40, n, sentence(g, 1));
			break;
		}
	}
	return buf_cstr(o);
}

static void gen_system(struct gen_ctx *g, struct buf *b, size_t seq)
{
	put_head(g, b, seq, "agent");
	buf_puts(b, "\"system_prompt\":");
	put_text_part(b, sentence(g, 3000));
	buf_printf(b, ",\"tools\":%s,\"kind\":\"SystemPromptEvent\"}}", tools_json);
}

static void gen_user(struct gen_ctx *g, struct buf *b, size_t seq)
{
	put_head(g, b, seq, "user");
	buf_puts(b, "\"llm_message\":{\"role\":\"user\",\"content\":[");
	put_text_part(b, sentence(g, 40 + bench_rand(&g->rng) % 300));
	buf_puts(b, "],\"thinking_blocks\":[]},\"activated_skills\":[],\"extended_content\":[],"
		    "\"kind\":\"MessageEvent\"}}");
}

static void gen_status(struct gen_ctx *g, struct buf *b, size_t seq, const char *status)
{
	put_head(g, b, seq, "environment");
	buf_printf(b, "\"key\":\"execution_status\",\"value\":\"%s\","
		      "\"kind\":\"ConversationStateUpdateEvent\"}}", status);
}

static void gen_action(struct gen_ctx *g, struct buf *b, size_t seq, unsigned call, bool thought)
{
	const char *cmd = commands[bench_rand(&g->rng) % (sizeof commands / sizeof *commands)];
	put_head(g, b, seq, "agent");
	if (thought) {
		buf_puts(b, "\"thought\":[");
		put_text_part(b, sentence(g, 30 + bench_rand(&g->rng) % 200));
		buf_puts(b, "],");
	}
	buf_printf(b, "\"thinking_blocks\":[],\"action\":{\"command\":\"%s\",\"is_input\":false,"
		      "\"reset\":false,\"kind\":\"TerminalAction\"},\"tool_name\":\"terminal\","
		      "\"tool_call_id\":\"toolu_%06u\",\"tool_call\":{\"id\":\"toolu_%06u\",\"name\":"
		      "\"terminal\",\"arguments\":\"{\\\"command\\\": \\\"%s\\\"}\",\"origin\":"
		      "\"completion\"},\"llm_response_id\":\"chatcmpl-%u\",\"security_risk\":\"LOW\","
		      "\"summary\":\"running %s\",\"kind\":\"ActionEvent\"}}",
		   cmd, call, call, cmd, call, cmd);
}

static void gen_observation(struct gen_ctx *g, struct buf *b, size_t seq, unsigned call)
{
	int exit_code = bench_rand(&g->rng) % 5 == 0;
	put_head(g, b, seq, "environment");
	buf_printf(b, "\"tool_name\":\"terminal\",\"tool_call_id\":\"toolu_%06u\",\"observation\":"
		      "{\"content\":[", call);
	put_text_part(b, terminal_output(g, output_size(g)));
	buf_printf(b, "],\"is_error\":false,\"command\":\"pytest -q\",\"exit_code\":%d,\"timeout\":false,"
		      "\"metadata\":{\"exit_code\":%d,\"pid\":4121,\"username\":\"openhands\","
		      "\"hostname\":\"sandbox\",\"working_dir\":\"/workspace/project\",\"prefix\":\"\","
		      "\"suffix\":\"\"},\"kind\":\"TerminalObservation\"},\"action_id\":\"",
		   exit_code, exit_code);
	put_id(g, b);
	buf_puts(b, "\",\"extended_content\":[],\"kind\":\"ObservationEvent\"}}");
}

static void gen_agent_error(struct gen_ctx *g, struct buf *b, size_t seq, unsigned call)
{
	put_head(g, b, seq, "agent");
	buf_printf(b, "\"tool_name\":\"terminal\",\"tool_call_id\":\"toolu_%06u\",\"error\":"
		      "\"Missing required argument \\\"command\\\"\",\"classification\":{\"kind\":"
		      "\"agent_action\",\"retryable\":false,\"user_action\":\"none\"},"
		      "\"kind\":\"AgentErrorEvent\"}}", call);
}

static void gen_answer(struct gen_ctx *g, struct buf *b, size_t seq)
{
	struct buf md;
	buf_init(&md);
	size_t blocks = 2 + bench_rand(&g->rng) % 5;
	for (size_t i = 0; i < blocks; i++) {
		buf_puts(&md, md_blocks[bench_rand(&g->rng) % (sizeof md_blocks / sizeof *md_blocks)]);
		buf_puts(&md, sentence(g, 80 + bench_rand(&g->rng) % 300));
		buf_puts(&md, "\n\n");
	}
	put_head(g, b, seq, "agent");
	buf_puts(b, "\"llm_message\":{\"role\":\"assistant\",\"content\":[");
	put_text_part(b, buf_cstr(&md));
	buf_putc(b, ']');
	if (bench_rand(&g->rng) % 3 == 0) {
		buf_puts(b, ",\"reasoning_content\":");
		put_str(b, sentence(g, 100 + bench_rand(&g->rng) % 600));
	}
	buf_puts(b, ",\"thinking_blocks\":[]},\"llm_response_id\":\"chatcmpl-x\","
		    "\"activated_skills\":[],\"extended_content\":[],\"kind\":\"MessageEvent\"}}");
	buf_fini(&md);
}

/* Where a round stands: user, running, (action, result)*, answer, idle. */
enum gen_phase { PHASE_SYSTEM, PHASE_USER, PHASE_RUNNING, PHASE_ACTION, PHASE_RESULT,
		 PHASE_ANSWER, PHASE_IDLE };

struct gen_history {
	struct gen_ctx g;
	enum gen_phase phase;
	size_t seq;
	size_t tools_left;
	unsigned call;
	bool phase_first;       /* the next action is the first of its batch */
};

struct gen_history *gen_history_create(size_t max_output, uint64_t seed)
{
	struct gen_history *h = xcalloc(1, sizeof *h);
	h->g.rng = seed;
	h->g.max_output = max_output ? max_output : 1;
	buf_init(&h->g.text);
	buf_init(&h->g.output);
	return h;
}

void gen_history_destroy(struct gen_history *h)
{
	if (!h)
		return;
	buf_fini(&h->g.text);
	buf_fini(&h->g.output);
	free(h);
}

void gen_history_next(struct gen_history *h, struct buf *out)
{
	struct gen_ctx *g = &h->g;
	size_t seq = h->seq++;
	switch (h->phase) {
	case PHASE_SYSTEM:
		gen_system(g, out, seq);
		h->phase = PHASE_USER;
		break;
	case PHASE_USER:
		gen_user(g, out, seq);
		h->phase = PHASE_RUNNING;
		break;
	case PHASE_RUNNING:
		gen_status(g, out, seq, "running");
		h->tools_left = 1 + bench_rand(&g->rng) % 4;
		h->phase_first = true;
		h->phase = PHASE_ACTION;
		break;
	case PHASE_ACTION:
		gen_action(g, out, seq, ++h->call, h->phase_first);
		h->phase_first = false;
		h->phase = PHASE_RESULT;
		break;
	case PHASE_RESULT:
		if (bench_rand(&g->rng) % 25 == 0)
			gen_agent_error(g, out, seq, h->call);
		else
			gen_observation(g, out, seq, h->call);
		h->phase = --h->tools_left ? PHASE_ACTION : PHASE_ANSWER;
		break;
	case PHASE_ANSWER:
		gen_answer(g, out, seq);
		h->phase = PHASE_IDLE;
		break;
	case PHASE_IDLE:
		gen_status(g, out, seq, "idle");
		h->phase = PHASE_USER;
		break;
	}
}

void gen_durable_frames(size_t n, size_t max_output, uint64_t seed, struct gen_frames *out)
{
	memset(out, 0, sizeof *out);
	out->json = xcalloc(n ? n : 1, sizeof *out->json);
	out->len = xcalloc(n ? n : 1, sizeof *out->len);
	struct gen_history *h = gen_history_create(max_output, seed);
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < n; i++) {
		buf_clear(&b);
		gen_history_next(h, &b);
		out->len[i] = b.len;
		out->bytes += b.len;
		out->json[i] = xstrndup(b.data, b.len);
	}
	out->n = n;
	buf_fini(&b);
	gen_history_destroy(h);
}
