#!/usr/bin/env python3
"""The include rule of docs/architecture.md, read from the build's compile commands: each
library's objects see only the include directories of itself and the libraries below it, so
an upward include cannot compile. Fails naming each object that sees too far."""
import json, os, shlex, sys

SEES = {
    'base': {'base'},
    'net': {'net', 'base'},
    'model': {'model', 'base'},
    'keyring': {'keyring', 'base'},
    'render': {'render', 'model', 'base'},
    'face': {'face', 'base', 'net', 'model', 'keyring'},
    'tui': {'tui', 'face', 'render', 'base', 'net', 'model', 'keyring'},
    'app': {'app', 'tui', 'face', 'render', 'base', 'net', 'model', 'keyring'},
}

source_root, build_root = (os.path.realpath(p) for p in sys.argv[1:3])
bad = 0
for entry in json.load(open(os.path.join(build_root, 'compile_commands.json'))):
    src = os.path.realpath(os.path.join(entry['directory'], entry['file']))
    lib = os.path.relpath(src, source_root).split(os.sep)[0]
    if lib not in SEES:
        continue
    seen = set()
    for arg in shlex.split(entry['command']):
        if not arg.startswith('-I'):
            continue
        d = os.path.realpath(os.path.join(entry['directory'], arg[2:]))
        for root in (build_root, source_root):  # the build tree mirrors the source tree
            if d == root or d.startswith(root + os.sep):
                top = os.path.relpath(d, root).split(os.sep)[0]
                if top in SEES:
                    seen.add(top)
                break
    if seen - SEES[lib]:
        print(f'{os.path.relpath(src, source_root)} sees {", ".join(sorted(seen - SEES[lib]))}')
        bad = 1
sys.exit(bad)
