/* The headless stack without the view: what a headless-only consumer links (model, base,
 * net, keyring — no render/, no ncurses). Wire frames are decoded (net), their text sanitized
 * (base) and masked (keyring), applied to the conversation model, and the durable messages
 * printed as text lines. A stream split across deltas, with an escape sequence and a secret
 * cut in two, retires in place into its durable; an aborted stream leaves nothing.
 * Exits 0 when the printed text is exactly what is expected. */
#include "base.h"
#include "keyring.h"
#include "model.h"
#include "net.h"

#include <stdio.h>
#include <string.h>

#define SECRET "hunter2-very-secret"

static const char *const frames[] = {
	"{\"type\":\"durable\",\"seq\":0,\"event\":{\"id\":\"u1\",\"source\":\"user\","
	"\"llm_message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]},"
	"\"kind\":\"MessageEvent\"}}",
	"{\"type\":\"item_started\",\"item_id\":\"a1\",\"attempt\":1,\"anchor_seq\":0}",
	"{\"type\":\"delta\",\"item_id\":\"a1\",\"attempt\":1,\"order\":0,\"kind\":\"text\","
	"\"content\":\"the key \\u001b[31mis hunter2-\"}",
	"{\"type\":\"delta\",\"item_id\":\"a1\",\"attempt\":1,\"order\":1,\"kind\":\"text\","
	"\"content\":\"very-secret, ok\"}",
	"{\"type\":\"item_started\",\"item_id\":\"a2\",\"attempt\":1}",
	"{\"type\":\"delta\",\"item_id\":\"a2\",\"attempt\":1,\"order\":0,\"kind\":\"text\","
	"\"content\":\"never mind\"}",
	"{\"type\":\"item_aborted\",\"item_id\":\"a2\",\"attempt\":1,\"reason\":\"cancelled\"}",
	"{\"type\":\"durable\",\"seq\":1,\"event\":{\"id\":\"a1\",\"source\":\"agent\","
	"\"llm_message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":"
	"\"the key \\u001b]0;title\\u0007is " SECRET ", ok\"}]},\"kind\":\"MessageEvent\"}}",
};

static const char expected[] = "you: hi\nagent: the key is " MASK_REPLACEMENT ", ok\n";

/* Sanitizes then masks a whole text into out. */
static void clean(const struct mask_set *masks, const char *s, size_t n, struct buf *out)
{
	struct buf safe;
	buf_init(&safe);
	sanitize_text(s, n, &safe);
	buf_clear(out);
	mask_text(masks, safe.data ? safe.data : "", safe.len, out);
	buf_fini(&safe);
}

static void apply(struct transcript *t, const struct mask_set *masks, const struct frame *f,
		  struct sanitizer *san, struct mask_stream *ms)
{
	struct buf safe, shown;
	buf_init(&safe);
	buf_init(&shown);
	switch (f->type) {
	case FRAME_ITEM_STARTED:
		transcript_stream_start(t, f->item_id, f->attempt, f->has_anchor_seq, f->anchor_seq);
		break;
	case FRAME_DELTA:
		sanitizer_feed(san, f->content, f->content_len, &safe);
		mask_stream_feed(ms, safe.data ? safe.data : "", safe.len, &shown);
		transcript_stream_delta(t, f->item_id, f->attempt, f->order, false,
					shown.data ? shown.data : "", shown.len);
		break;
	case FRAME_ITEM_ABORTED:
		transcript_stream_abort(t, f->item_id, f->attempt, f->reason);
		break;
	case FRAME_DURABLE: {
		const char *text = f->event.text ? f->event.text : "";
		clean(masks, text, strlen(text), &shown);
		struct item_spec spec = {
			.kind = f->event.source == SOURCE_USER ? ITEM_USER : ITEM_AGENT,
			.seq = f->seq,
			.id = f->event.id,
			.text = shown.data ? shown.data : "",
			.text_len = shown.len,
		};
		transcript_add_event(t, &spec);
		break;
	}
	default:
		break;
	}
	buf_fini(&safe);
	buf_fini(&shown);
}

int main(void)
{
	struct mask_set *masks = mask_set_create();
	struct buf why;
	buf_init(&why);
	if (mask_set_add(masks, SECRET, strlen(SECRET), &why) != 0) {
		fprintf(stderr, "mask_set_add: %s\n", buf_cstr(&why));
		return 1;
	}
	buf_fini(&why);
	struct transcript *t = transcript_create();
	struct sanitizer san;
	struct mask_stream ms;
	sanitizer_init(&san);
	mask_stream_init(&ms, masks);
	for (size_t i = 0; i < sizeof frames / sizeof *frames; i++) {
		struct frame f;
		struct codec_error err;
		if (frame_decode(frames[i], strlen(frames[i]), &f, &err) != 0) {
			fprintf(stderr, "frame %zu: %s\n", i, err.message);
			return 1;
		}
		apply(t, masks, &f, &san, &ms);
		frame_fini(&f);
	}
	struct buf out;
	buf_init(&out);
	for (size_t i = 0; i < transcript_count(t); i++) {
		struct item_info in;
		transcript_item(t, i, &in);
		if (in.streaming || in.seq < 0)
			continue;
		buf_printf(&out, "%s: %.*s\n", in.kind == ITEM_USER ? "you" : "agent",
			   (int)in.text_len, in.text);
	}
	fputs(buf_cstr(&out), stdout);
	int bad = strcmp(buf_cstr(&out), expected) != 0 || transcript_count(t) != 2 ||
		  transcript_open_streams(t) != 0;
	if (bad)
		fprintf(stderr, "expected:\n%sgot %zu items\n", expected, transcript_count(t));
	buf_fini(&out);
	mask_stream_fini(&ms);
	transcript_destroy(t);
	mask_set_destroy(masks);
	return bad;
}
