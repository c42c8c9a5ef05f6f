#!/usr/bin/env bash
# Markdown as a reader sees it (issue 15.5): a paragraph with soft line breaks reflows to the
# width, and again after a resize; a pipe table is drawn as aligned columns under a rule
# (display widths: CJK takes two columns); a link shows its text and a numbered footnote with
# the URL; ~~strike~~ and the fence's markers never show; the fence language labels the code
# block's top rule.
. "$(dirname "$0")/lib.sh" "$@"

start_fixture "$DATA/tui_markdown.scenario"
start_tether 80 30 "$CONV"
wait_for "Markdown test done." || fail "the answer did not show"
s=$(screen)
# 80 columns: the paragraph fills its rows instead of breaking where the source did.
grep -qxF "The quick brown fox jumps over the lazy dog while the cat watches from the fence" <<<"$s" ||
	fail "the paragraph did not reflow at 80 columns"
grep -qxF "and yawns." <<<"$s" || fail "the paragraph's end is not on its own row at 80 columns"
# The table: aligned columns, a rule under the header, the right-aligned count.
grep -qxF "Fruit │ Count │ Colour" <<<"$s" || fail "the table header is not drawn as columns"
grep -qxF "──────┼───────┼───────" <<<"$s" || fail "no rule under the table header"
grep -qxF "apple │     3 │ red" <<<"$s" || fail "a table row is not aligned"
grep -qxF "日本  │    12 │ green" <<<"$s" || fail "a row with wide characters is not aligned"
grep -qF "|" <<<"$s" && fail "raw table pipes on screen"
# The link: its text and a footnote with the URL; strike without its tildes.
grep -qxF "Read the docs[1] and skip keep this." <<<"$s" || fail "the link or strike is not rendered"
grep -qxF "[1] https://example.com/docs" <<<"$s" || fail "the link's URL is not in a footnote"
grep -qF "~~" <<<"$s" && fail "strike markers on screen"
grep -qE "^  ── python ─+$" <<<"$s" || fail "the fence language is not the code block's label"
# Attributes as tmux holds them: the link underlined (SGR 4), the struck words dimmed (SGR 2:
# curses has no strikethrough).
e=$(T capture-pane -p -e -t main | grep -aF "Read ")
grep -qF $'\e[4mthe docs' <<<"$e" || fail "the link text is not underlined: $(cat -v <<<"$e")"
grep -qF $'\e[2mskip' <<<"$e" || fail "the struck text is not dimmed: $(cat -v <<<"$e")"
grep -qF '```' <<<"$s" && fail "fence markers on screen"

# Narrower: the same paragraph reflows to the new width.
T resize-window -t main -x 40 -y 30
wait_for "The quick brown fox jumps over the lazy" 5 || fail "the paragraph did not reflow after a resize"
s=$(screen)
grep -qxF "The quick brown fox jumps over the lazy" <<<"$s" || fail "row 1 at 40 columns"
grep -qxF "dog while the cat watches from the fence" <<<"$s" || fail "row 2 at 40 columns"
grep -qxF "and yawns." <<<"$s" || fail "row 3 at 40 columns"
# 40 columns still hold the table.
grep -qxF "apple │     3 │ red" <<<"$s" || fail "the table is not aligned at 40 columns"

# Too narrow for columns: each row as "header: value" lines, nothing cut.
T resize-window -t main -x 16 -y 60
wait_for_text "Fruit: apple" 5
s=$(screen)
grep -qxF "Fruit: apple" <<<"$s" || fail "the narrow table fallback is missing"
grep -qxF "Colour: green" <<<"$s" || fail "the narrow table fallback lost a cell"

T send-keys -t main C-d
wait_exit || fail "Ctrl-D did not quit"
no_sanitizer_report
echo ok
