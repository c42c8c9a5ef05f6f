#!/usr/bin/env python3
"""Reads `tmux capture-pane -p -e` on stdin and writes it in one canonical form: each run of
cells that look alike starts with the whole of their look, `␛[0;…m` (␛ for ESC, so the file
reads in a diff), written only where the look changes and never at the end of a line.

Why: tmux writes the same screen with its attribute changes in different places (a reset at
the end of one line or at the start of the next) depending on how the cells were painted, so
the raw bytes of two identical screens can differ. Invisible trailing blanks are dropped.
"""
import re
import sys

SGR = re.compile(r"\x1b\[([0-9;:]*)m")
ATTRS = {1: "1", 2: "2", 3: "3", 4: "4", 5: "5", 7: "7", 8: "8", 9: "9"}
OFF = {21: ("1",), 22: ("1", "2"), 23: ("3",), 24: ("4",), 25: ("5",), 27: ("7",),
       28: ("8",), 29: ("9",)}


def apply(state, params):
    """Applies one SGR parameter list to state = [set of attrs, fg, bg]."""
    attrs, fg, bg = state
    codes = [p for p in params.replace(":", ";").split(";")] if params else ["0"]
    i = 0
    while i < len(codes):
        c = int(codes[i] or 0)
        if c == 0:
            attrs, fg, bg = set(), None, None
        elif c in ATTRS:
            attrs = attrs | {ATTRS[c]}
        elif c in OFF:
            attrs = attrs - set(OFF[c])
        elif 30 <= c <= 37 or 90 <= c <= 97:
            fg = str(c)
        elif c == 39:
            fg = None
        elif 40 <= c <= 47 or 100 <= c <= 107:
            bg = str(c)
        elif c == 49:
            bg = None
        elif c in (38, 48):
            n = 3 if codes[i + 1] == "5" else 5
            val = ";".join([str(c)] + codes[i + 1:i + n])
            if c == 38:
                fg = val
            else:
                bg = val
            i += n - 1
        i += 1
    return [attrs, fg, bg]


def look(state):
    attrs, fg, bg = state
    parts = ["0"] + sorted(attrs) + [x for x in (fg, bg) if x]
    return "\u241b[" + ";".join(parts) + "m"


def visible(state):
    """A blank with this look shows on the screen."""
    attrs, _, bg = state
    return bg is not None or bool(attrs & {"4", "7"})


def main():
    state = [set(), None, None]
    out = []
    for line in sys.stdin.read().split("\n"):
        cells = []  # (char, look, visible)
        pos = 0
        for m in SGR.finditer(line):
            for ch in line[pos:m.start()]:
                cells.append((ch, look(state), visible(state)))
            state = apply(state, m.group(1))
            pos = m.end()
        for ch in line[pos:]:
            cells.append((ch, look(state), visible(state)))
        while cells and cells[-1][0] == " " and not cells[-1][2]:
            cells.pop()
        text, cur = [], look([set(), None, None])
        for ch, lk, _ in cells:
            if lk != cur:
                text.append(lk)
                cur = lk
            text.append(ch)
        out.append("".join(text))
    sys.stdout.write("\n".join(out))


main()
