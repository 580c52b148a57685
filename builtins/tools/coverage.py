#!/usr/bin/env python3
"""Builtin coverage check (a developer tool, not part of the build).

Lists every mangled builtin name that user code can call (by turning the
declarations of clang's opencl-c.h into dummy definitions, for OpenCL C 1.2 and
3.0 with every extension on, and listing the symbols), then prints the ones the
builtin library bitcode does not define.

usage: coverage.py CLANG LLVM_NM IGNORE_REGEX LIBRARY.bc...
"""
import os, re, subprocess, sys, tempfile

clang, nm = sys.argv[1:3]
ignore = re.compile(sys.argv[3]) if sys.argv[3] else None
libraries = sys.argv[4:]
common = ['-x', 'cl', '-target', 'spir64-unknown-unknown', '-Xclang', '-cl-ext=+all']


def declared(std, tmp):
    empty = os.path.join(tmp, 'empty.cl')
    open(empty, 'w').close()
    text = subprocess.run([clang] + common + ['-cl-std=' + std, '-E', '-include', 'opencl-c.h', empty],
                          check=True, capture_output=True, text=True).stdout
    text = re.sub(r'^#(?!pragma).*$', '', text, flags=re.M)
    stmts, depth, cur = [], 0, []
    for line in text.splitlines():
        if line.startswith('#pragma'):
            stmts.append(line + '\n')
            continue
        for ch in line + '\n':
            cur.append(ch)
            if ch == '{':
                depth += 1
            elif ch == '}':
                depth -= 1
            if (ch == '}' and depth == 0) or (ch == ';' and depth == 0):
                stmts.append(''.join(cur)); cur = []
    stmts = [s.strip() if s.startswith('#') else ' '.join(s.split()) for s in stmts if s.strip()]
    is_fn = [s.endswith(');') and 'overloadable' in s and not s.startswith('typedef') for s in stmts]
    keep_decl = set()
    src = os.path.join(tmp, 'defs.cl')
    bc = os.path.join(tmp, 'defs.bc')
    for _ in range(20):
        with open(src, 'w') as f:
            for i, s in enumerate(stmts):
                f.write(s[:-1] + ' { __builtin_unreachable(); }\n' if is_fn[i] and i not in keep_decl else s + '\n')
        r = subprocess.run([clang] + common + ['-cl-std=' + std, '-cl-no-stdinc', '-c', '-emit-llvm',
                           '-Wno-everything', '-ferror-limit=0', '-o', bc, src], capture_output=True, text=True)
        if r.returncode == 0:
            break
        bad = {int(m.group(1)) - 1 for m in re.finditer(r'defs\.cl:(\d+):\d+: error: redefinition', r.stderr)}
        if not bad:
            sys.exit(r.stderr[:4000])
        keep_decl |= bad
    out = subprocess.run([nm, '--defined-only', bc], check=True, capture_output=True, text=True).stdout
    return {l.split()[-1] for l in out.splitlines() if l.strip()}


with tempfile.TemporaryDirectory() as tmp:
    wanted = declared('CL1.2', tmp) | declared('CL3.0', tmp)
have = set()
for library in libraries:
    out = subprocess.run([nm, '--defined-only', library], check=True, capture_output=True, text=True).stdout
    have |= {l.split()[-1] for l in out.splitlines() if l.strip()}
missing = sorted(n for n in wanted - have if not (ignore and ignore.search(n)))
for n in missing:
    print(n)
if missing:
    print(f'{len(missing)} builtin functions are declared by clang but missing from the library', file=sys.stderr)
print(f'# {len(wanted)} declared, {len(wanted & have)} defined, {len(missing)} missing'
      + (' (after ignoring /%s/)' % ignore.pattern if ignore else ''), file=sys.stderr)
sys.exit(1 if missing else 0)
