#!/usr/bin/env python3
"""Cycles between the files and folders of src/compiler.

A file depends on another when it calls (or names) a function the other
defines, or includes it (a header: the names a header declares are no
dependency of its own).  A folder depends on another when one
of its files depends on one of the other's.  The compiler's stages, and the
files of each, are meant to form a layered graph (docs/compiler.md,
"Layout"): this prints every cycle of folders and every cycle of files, and
exits 1 when there is either.

usage: compiler_graph.py [SRC_DIR] [--edges]   (SRC_DIR: src, the include root)
"""
import os, re, sys

args = [a for a in sys.argv[1:] if not a.startswith('--')]
show_edges = '--edges' in sys.argv
src = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'src')
root = os.path.join(src, 'compiler')

files = {}
for dirpath, _, names in os.walk(root):
    for n in names:
        if n.endswith(('.c', '.h', '.def')):
            path = os.path.join(dirpath, n)
            files[os.path.relpath(path, src)] = open(path, encoding='utf-8').read()


def code_of(text):
    """The text without comments and string literals."""
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'//[^\n]*', ' ', text)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', text)


code = {f: code_of(t) for f, t in files.items()}

# Functions with external linkage: defined at the start of a line, not static.
define = re.compile(r'^(?!static\b)[A-Za-z_][\w \t*]*?\b((?:mc|mosaic)_\w+)\s*\([^;{]*\)\s*\{', re.M)
defined_in = {}
for f, c in code.items():
    if f.endswith('.c'):
        for m in define.finditer(c):
            defined_in[m.group(1)] = f

include = re.compile(r'^\s*#\s*include\s+"(compiler/[^"]+)"', re.M)
word = re.compile(r'\b(?:mc|mosaic)_\w+\b')
edges = {f: {} for f in files}  # file -> {file it depends on: why}
for f, c in code.items():
    for m in include.finditer(files[f]):
        target = os.path.normpath(m.group(1))
        if target in files and target != f and target != 'compiler/compiler.h':
            edges[f].setdefault(target, '#include')
    if not f.endswith('.c'):
        continue  # a header names what it declares: no dependency
    for name in set(word.findall(c)):
        target = defined_in.get(name)
        if target and target != f:
            edges[f].setdefault(target, name)


def folder(f):
    parts = f.split('/')
    return '/'.join(parts[:2]) if len(parts) > 2 else f


def cycles(graph):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v); on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


folders = {}
for f, deps in edges.items():
    for t, why in deps.items():
        if folder(f) != folder(t):
            folders.setdefault(folder(f), {}).setdefault(folder(t), (f, t, why))

if show_edges:
    for a in sorted(folders):
        for b, (f, t, why) in sorted(folders[a].items()):
            print(f'{a} -> {b}  ({f} -> {t}: {why})')

failed = False
for comp in cycles(folders):
    failed = True
    print('folder cycle:', ' '.join(comp))
    for a in comp:
        for b, (f, t, why) in sorted(folders[a].items()):
            if b in comp:
                print(f'  {f} -> {t} ({why})')
for comp in cycles(edges):
    failed = True
    print('file cycle:', ' '.join(comp))
    for f in comp:
        for t, why in sorted(edges[f].items()):
            if t in comp:
                print(f'  {f} -> {t} ({why})')
if not failed:
    print(f'no cycle between the folders or the files of {root}')
if __name__ == "__main__":
    sys.exit(1 if failed else 0)
