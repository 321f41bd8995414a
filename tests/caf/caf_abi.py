#!/usr/bin/env python3
"""caf_abi.py GFORTRAN HEADER SOURCE.f90...

Compiles each SOURCE (in order: modules first) with GFORTRAN -fcoarray=lib -fdump-tree-original and checks
that every _gfortran_caf_* call in them passes exactly as many arguments as
HEADER (liborma-caf's caf_impl.h) declares the function with.  A mismatch is
not harmless: a callee declared with more stack arguments than its caller
passes may reuse the missing slots -- the caller's own stack -- for a tail
call.  Exits 1 on a mismatch, or when a call has no declaration."""
import glob
import os
import re
import subprocess
import sys
import tempfile


def split_args(text, start):
    """Arguments of the call whose '(' is at text[start]; (count, end).
    The dump's MAX_EXPR <a, b> and the like bracket their operands."""
    stack, count, seen = [], 0, False
    i = start
    while i < len(text):
        c = text[i]
        if c in '([{' or (c == '<' and text[max(0, i - 6):i].rstrip().endswith('_EXPR')):
            stack.append(c)
        elif c in ')]}' or (c == '>' and stack and stack[-1] == '<'):
            stack.pop()
            if not stack:
                body = text[start + 1:i].strip()
                return (0 if body in ('', 'void') else count + 1), i
        elif c == ',' and len(stack) == 1:
            count += 1
        i += 1
    raise ValueError('unbalanced call at %d' % start)


def declared(header):
    text = open(header).read()
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    out = {}
    for m in re.finditer(r'\b(_gfortran_caf_\w+)\s*\(', text):
        n, _ = split_args(text, m.end() - 1)
        out[m.group(1)] = n
    return out


def main():
    fc, header = sys.argv[1:3]
    decl = declared(header)
    with tempfile.TemporaryDirectory() as tmp:
        for k, source in enumerate(sys.argv[3:]):
            subprocess.run([fc, '-fcoarray=lib', '-fdump-tree-original', '-c', os.path.abspath(source), '-o',
                            os.path.join(tmp, '%d.o' % k)], cwd=tmp, check=True)
        dumps = glob.glob(os.path.join(tmp, '*.original'))
        text = ''.join(open(d).read() for d in dumps)
    calls = {}
    for m in re.finditer(r'\b(_gfortran_caf_\w+)\s*\(', text):
        n, _ = split_args(text, m.end() - 1)
        calls.setdefault(m.group(1), set()).add(n)
    bad = 0
    for name in sorted(calls):
        if name not in decl:
            print('%s: called with %s arguments, not declared in %s' % (name, sorted(calls[name]), header))
            bad = 1
        elif calls[name] != {decl[name]}:
            print('%s: called with %s arguments, declared with %d' % (name, sorted(calls[name]), decl[name]))
            bad = 1
        else:
            print('%s: %d arguments' % (name, decl[name]))
    if not calls:
        print('no _gfortran_caf_ call in the dump')
        bad = 1
    return bad


if __name__ == '__main__':
    sys.exit(main())
