#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Offsets of member paths from `pahole -C STRUCT --expand_types` output
# (offsets there are from the start of the outer struct; members of
# anonymous structs and unions are reached through them as in C).
# usage: pahole-offsets.py PAHOLE_OUTPUT_FILE PATH...   (PATH: struct.a.b)
# prints "PATH OFFSET SIZE" for each PATH found; exit 1 naming one missing.
import re, sys

LEAF = re.compile(r'^\s*(.*?)\s*;\s*/\*\s*(\d+)(?::\d+)?\s+(\d+)\s*\*/')
OPEN = re.compile(r'^\s*(?:struct|union)\b[^;]*\{\s*$')
CLOSE = re.compile(r'^\s*\}\s*([A-Za-z_][A-Za-z0-9_]*)?(\[[^\]]*\])*\s*;\s*/\*\s*(\d+)\s+(\d+)\s*\*/')

def parse(text):
    """{'struct.path': (offset, size)} for the first struct in text."""
    lines = text.splitlines()
    out, stack, top = {}, [], None
    for ln in lines:
        # "/* typedef u32 */ unsigned int hash;", "} __attribute__((...))name"
        ln = re.sub(r'/\*\s*typedef[^*]*\*/', '', ln)
        ln = re.sub(r'__attribute__\(\((?:[^()]|\([^()]*\))*\)\)', '', ln)
        if top is None:
            m = re.match(r'^(?:struct|union)\s+(\w+)\s*\{', ln)
            if m:
                top = m.group(1)
                stack = [{}]
            continue
        if OPEN.match(ln):
            stack.append({})
            continue
        m = CLOSE.match(ln)
        if m:
            kids = stack.pop()
            name, off, size = m.group(1), int(m.group(3)), int(m.group(4))
            if name:
                stack[-1][name] = (off, size)
                for k, v in kids.items():
                    stack[-1][name + '.' + k] = v
            else:               # anonymous: its members are the parent's
                stack[-1].update(kids)
            continue
        if re.match(r'^\}', ln):        # the end of the outer struct
            for k, v in stack[0].items():
                out[top + '.' + k] = v
            break
        m = LEAF.match(ln)
        if m and not m.group(1).startswith('/*'):
            decl = m.group(1)
            # the member's name: the last identifier, before any [N] or :bits
            decl = re.sub(r'\s*:\s*\d+$', '', decl)
            decl = re.sub(r'(\[[^\]]*\])+$', '', decl)
            fm = re.search(r'\(\s*\*\s*(\w+)\s*\)', decl)  # function pointer
            name = fm.group(1) if fm else re.findall(r'\w+', decl)[-1]
            stack[-1][name] = (int(m.group(2)), int(m.group(3)))
    return out

def main():
    text = open(sys.argv[1]).read()
    found = parse(text)
    ret = 0
    for p in sys.argv[2:]:
        if p in found:
            print(p, found[p][0], found[p][1])
        else:
            print(f'{sys.argv[0]}: {p}: not in {sys.argv[1]}', file=sys.stderr)
            ret = 1
    sys.exit(ret)

if __name__ == '__main__':
    main()
