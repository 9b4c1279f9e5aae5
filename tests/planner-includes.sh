#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# The planner's import graph (module/planner/), one TAP line per check:
# - the #include "..." edges between planner files, listed as comments;
#   the file-level include graph has no cycle;
# - the header graph: file A imports file B when a header A sees (its
#   includes, followed through) declares a function that B defines, A being
#   no definer of that header itself; ta_planner.h, the public API every
#   file takes its types from, is left out;
# - the call graph: file A calls file B when A's code (comments stripped)
#   names a function that B defines without static;
# - a circle in either graph (a planner file that imports or calls back
#   into one that imports or calls it) fails unless the allow-list below
#   has it, with its reason; an allowed circle that is gone fails too.
# usage: planner-includes.sh [PLANNER_DIR]   (default: module/planner)
# Always exits 0: the verdict is the TAP.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/module/planner}

# Circles that are allowed, one a line: "headers:" or "calls:", the .c
# files of the circle, sorted, space-separated, then " # " and why. Keep
# each one explained in the header comment of the files concerned.
allow=$(cat <<'EOF'
calls: ta_search.c ta_search_parts.c ta_search_slab.c # the search recurses on its pieces: parts and slab sides are searched by ta_search_one()/ta_search_split(), at most TA_SEARCH_SLAB_DEPTH slabs deep (ta_search.c)
EOF
)

ALLOW=$allow exec /usr/bin/python3 - "$dir" <<'PY'
import os, re, sys

d = sys.argv[1]
files = sorted(f for f in os.listdir(d) if f.endswith(('.c', '.h')))
allow = {}
for line in os.environ.get('ALLOW', '').splitlines():
    if line.strip():
        members, _, why = line.partition('#')
        kind, _, names = members.partition(':')
        allow['%s: %s' % (kind.strip(), ' '.join(sorted(names.split())))] = why.strip()

results = []
def check(ok, desc, diag=()):
    results.append((ok, desc, list(diag)))

def strip(text):
    text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'),
                  text, flags=re.S)
    text = re.sub(r'//[^\n]*', '', text)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', text)

src = {f: open(os.path.join(d, f)).read() for f in files}
code = {f: strip(src[f]) for f in files}

# Include edges.
inc = {f: re.findall(r'^#include "([^"]+)"', src[f], re.M) for f in files}
print('# include edges:')
for f in files:
    for h in inc[f]:
        print('#   %s -> %s' % (f, h))
missing = ['%s -> %s' % (f, h) for f in files for h in inc[f] if h not in src]
check(not missing, 'every planner include names a planner file', missing)

def sccs(nodes, edges):
    """Tarjan: the strongly connected components of more than one node."""
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]
    def visit(v):
        index[v] = low[v] = n[0]; n[0] += 1
        stack.append(v); on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
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
    for v in nodes:
        if v not in index:
            visit(v)
    return sorted(out)

ic = sccs(files, {f: set(h for h in inc[f] if h in src) for f in files})
check(not ic, 'the include graph of module/planner has no cycle',
      [' '.join(c) for c in ic])

# Functions each .c file defines: a definition starts at column 0 and its
# body's "{" is alone on a line at column 0.
defs = {}
for f in files:
    if not f.endswith('.c'):
        continue
    lines = code[f].split('\n')
    for i, l in enumerate(lines):
        if l != '{':
            continue
        j = i - 1
        while j > 0 and (not lines[j] or lines[j][0] in ' \t)'):
            j -= 1
        head = ' '.join(lines[j:i])
        m = re.match(r'([^=(]*?)\b([A-Za-z_]\w*)\s*\(', head)
        if not m or '=' in head.split('(')[0]:
            continue
        if re.search(r'\bstatic\b', m.group(1)):
            continue
        defs.setdefault(m.group(2), f)

def circles(kind, graph, how):
    found = sccs([f for f in files if f.endswith('.c')], graph)
    print('# %s circles: %d' % (kind, len(found)))
    for c in found:
        key = '%s: %s' % (kind, ' '.join(c))
        print('#   %s%s' % (key, ' (allowed: %s)' % allow[key]
                            if key in allow else ''))
        diag = ['%s -> %s: %s' % (a, b, ', '.join(graph[a][b]))
                for a in c for b in c if b in graph.get(a, {})]
        if key in allow:
            check(True, '%s circle among %s: allowed' % (kind, ' '.join(c)))
        else:
            check(False, 'no %s circle among %s' % (kind, ' '.join(c)), diag)
    if not found:
        check(True, 'no %s circle between planner files' % kind)
    return set('%s: %s' % (kind, ' '.join(c)) for c in found)

# The header graph.
def seen(f, acc=None):
    acc = set() if acc is None else acc
    for h in inc.get(f, ()):
        if h in src and h not in acc:
            acc.add(h)
            seen(h, acc)
    return acc

inline = lambda h, n: re.search(r'static inline[^;{]*\b%s\(' % n, code[h])
providers = {}
for h in files:
    if h.endswith('.h'):
        providers[h] = {}
        decls = re.sub(r'\n\{\n.*?\n\}', ';', code[h], flags=re.S)
        for n in sorted(set(re.findall(r'\b([A-Za-z_]\w*)\s*\(', decls))):
            if n in defs and not inline(h, n):
                providers[h].setdefault(defs[n], []).append(n)
imports = {}
print('# headers and the files that define what they declare:')
for h in sorted(providers):
    print('#   %s: %s' % (h, ' '.join(sorted(providers[h])) or '-'))
print('# imports between planner files (A -> B: through header H):')
for f in files:
    if not f.endswith('.c'):
        continue
    for h in sorted(seen(f)):
        if h == 'ta_planner.h' or f in providers[h]:
            continue
        for g in providers[h]:
            imports.setdefault(f, {}).setdefault(g, []).append(h)
    for g in sorted(imports.get(f, {})):
        print('#   %s -> %s: %s' % (f, g, ', '.join(imports[f][g])))

# The call graph.
uses = {}
print('# calls between planner files (A -> B: A names functions B defines):')
for f in files:
    if not f.endswith('.c'):
        continue
    names = set(re.findall(r'\b[A-Za-z_]\w*\b', code[f]))
    for name in sorted(names):
        g = defs.get(name)
        if g and g != f:
            uses.setdefault(f, {}).setdefault(g, []).append(name)
    for g in sorted(uses.get(f, {})):
        print('#   %s -> %s: %s' % (f, g, ', '.join(uses[f][g])))

found = circles('headers', imports, 'imports') | circles('calls', uses, 'calls')
stale = [k for k in allow if k not in found]
check(not stale, 'every allowed circle is still one', stale)

print('1..%d' % len(results))
for k, (ok, desc, diag) in enumerate(results, 1):
    print('%s - %s' % ('ok' if ok else 'not ok', desc))
    for line in diag[:20]:
        print('# ' + line)
PY
