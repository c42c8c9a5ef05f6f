#!/bin/sh
# Protocol names are decoded to enums in net/'s codec (issue 24): no module above net/
# compares a string with one. Fails naming each comparison of a quoted protocol name (an event,
# action or observation kind, an execution or ACP status, a source, a tool, a risk, a frame
# type) in the libraries above net/.
root=${1:?usage: protocol_names.sh SOURCE_ROOT}
cd "$root" || exit 1
dirs=$(ls -d model render face tui app 2>/dev/null)
names='idle|running|paused|waiting_for_confirmation|finished|error|stuck|deleting'
names="$names|pending|in_progress|completed|failed|agent|user|environment|hook"
names="$names|terminal|finish|LOW|MEDIUM|HIGH|UNKNOWN"
names="$names|sync|durable|transient|item_started|delta|item_aborted"
names="$names|[A-Z][A-Za-z]*(Action|Observation|Event)"
compare='(str|mem)[a-z]*cmp *\(|streq|is_[a-z_]* *\(|_is *\('
hits=$(grep -rnE --include='*.c' --include='*.h' "$compare" $dirs |
	grep -E "\"($names)\"")
if [ -n "$hits" ]; then
	echo "protocol names compared above net/ (decode them to an enum in net/codec.c):"
	echo "$hits"
	exit 1
fi
exit 0
