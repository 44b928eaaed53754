#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The DWARF versions of a 32-bit ELF's compilation units (.debug_info's
# unit headers, read directly: readelf takes a minute on a vmlinux).
# usage: dwarf-versions.py ELF   prints e.g. "4 (2535 units), 2 (40 units)"
import struct, sys, collections
f = open(sys.argv[1], 'rb')
h = f.read(52)
assert h[:4] == b'\x7fELF' and h[4] == 1, 'a 32-bit ELF'
e = '<' if h[5] == 1 else '>'
shoff, = struct.unpack(e + 'I', h[32:36])
shentsize, shnum, shstrndx = struct.unpack(e + 'HHH', h[46:52])
f.seek(shoff); sh = [struct.unpack(e + 'IIIIIIIIII', f.read(shentsize)[:40]) for _ in range(shnum)]
f.seek(sh[shstrndx][4]); names = f.read(sh[shstrndx][5])
sec = {names[s[0]:names.index(b'\0', s[0])].decode(): s for s in sh}
off, size = sec['.debug_info'][4], sec['.debug_info'][5]
n, end, c = off, off + size, collections.Counter()
while n < end:
    f.seek(n); ln, ver = struct.unpack(e + 'IH', f.read(6))
    c[ver] += 1; n += 4 + ln
print(', '.join(f'{v} ({k} units)' for v, k in c.most_common()))
