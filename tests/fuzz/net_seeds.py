#!/usr/bin/env python3
"""net_seeds.py -- writes tests/fuzz/corpus-net: scripts for fuzz_net.c.

Each seed is a script in fuzz_net.c's input format (its fuzz_request,
fuzz_payload, fuzz_batch and fuzz_response read the bytes in this order):
well-formed exchanges -- a lock and its operations, notifications, typed
operations, batches, requests held for a fence or a post -- that the fuzzer
mutates, and regress-* inputs, each a message the target once followed
into a crash.  Run it again when that format changes:

    python3 tests/fuzz/net_seeds.py
"""
import os

WIN = 16384  # fuzz_net.c's WIN_BYTES
EAGER = 8192 - 16 - 64  # its wire's eager limit
PICKS = [0, 1, 7, 8, 16, 24, 64, WIN - 8, WIN - 1, WIN, WIN + 1, 8192, 2**32 - 1, 2**63 - 1, 2**64 - 1,
         2**64 - 8, 2**62]
KIND = dict(SYNC=0, PUT=1, GET=2, ACC=3, CAS=4, TYPE=5, REGIONS=6, NOTIFY=7)
# flags (xport_net_impl.h) and the constants of orma.h the seeds use
F_RELEASE, F_ACK, F_START, F_COPY, F_DONE = 4, 8, 16, 32, 2
SUM, BAND, MAXLOC, NO_OP = 0, 7, 11, 13
INT32, INT64, DOUBLE = 14, 15, 21
EXCLUSIVE, SHARED = 1, 2


def num(v):
    """fuzz_num: an index into PICKS, or 0xc0 and eight bytes."""
    v &= 2**64 - 1
    if v in PICKS:
        return bytes([PICKS.index(v)])
    return bytes([0xc0]) + v.to_bytes(8, 'big')


def req(kind, op=0, lock=0, flags=0, typeid=0, has_origin=0, tid=0, rnd=0, offset=0, length=0, upto=0, token=0,
        tcount=0, torigin=0, payload=b'', typ=None, large=None):
    """A request step (large: placed first, large + EAGER + 1 bytes; typ: a
    serialized layout of fuzz_net.c's, 0 or 1, as a TYPE's payload)."""
    b = bytes([3 if large is not None else 0, KIND[kind], op, lock, flags, typeid, has_origin, tid, rnd])
    b += num(offset) + num(length) + bytes([upto, token]) + num(tcount) + num(torigin)
    b += bytes([typ]) if typ is not None else bytes([2, len(payload)]) + payload
    return b + (num(large) if large is not None else b'')


def batch(entries, count=None):
    """A batch step: the requests (req's, without their step byte)."""
    b = bytes([4, len(entries) if count is None else count])
    for e in entries:
        b += e[1:] + bytes([0])
    return b + bytes([0])


def rsp(kind, status, text=b''):
    """A response step: kind 0 ACK, 1 ERR, 2 and 3 none a target sends."""
    return bytes([5, kind]) + num(status) + bytes([0, len(text)]) + text


FENCE, POST, POLL = bytes([6, 1]), bytes([6, 0]), bytes([7])

SEEDS = {
    'notify': req('NOTIFY', upto=1, tid=2, tcount=1) + req('NOTIFY', op=1, tid=3, tcount=7, upto=2) + POLL,
    'notify-bad': req('NOTIFY', tid=3, tcount=1, upto=1, payload=b'xy') + req('NOTIFY', op=9, upto=2, tcount=1),
    'lock-put-get-notify': req('SYNC', lock=SHARED, flags=F_ACK)
    + req('PUT', offset=64, length=16, upto=1, payload=bytes(range(16)))
    + req('GET', flags=F_COPY, offset=64, length=16, upto=2, token=1) + req('NOTIFY', tid=1, tcount=1, upto=3)
    + req('SYNC', flags=F_RELEASE | F_ACK, upto=3) + POLL,
    'excl-parked': req('SYNC', lock=EXCLUSIVE, flags=F_ACK) + req('SYNC', lock=SHARED)
    + req('PUT', offset=8, length=8, upto=1, payload=b'abcdefgh') + req('NOTIFY', tcount=1, upto=2) + POLL
    + req('SYNC', flags=F_RELEASE, upto=2) + POLL,
    'typed': req('TYPE', tid=1, typ=0) + req('PUT', tid=1, tcount=1, length=64, upto=1, payload=bytes(40))
    + req('GET', tid=1, tcount=1, length=64, upto=2, token=1)
    + req('ACC', op=SUM, typeid=INT32, has_origin=1, tid=1, tcount=1, length=64, upto=3, payload=bytes(40)) + POLL,
    'typed-large': req('TYPE', tid=1, typ=1) + req('PUT', tid=1, tcount=400, length=WIN - 8, upto=1,
                                                   large=9600 - EAGER - 1),
    'acc-cas': req('ACC', op=SUM, typeid=INT64, has_origin=1, offset=16, length=16, upto=1, payload=bytes(16))
    + req('ACC', op=NO_OP, typeid=INT64, offset=16, length=8, upto=2, token=1)
    + req('CAS', typeid=INT64, has_origin=1, offset=24, length=8, upto=3, token=1, payload=bytes(16)) + POLL,
    'batch': batch([req('PUT', length=8, upto=1, payload=b'12345678'), req('NOTIFY', tid=1, tcount=1, upto=2),
                    req('SYNC', flags=F_ACK, upto=2)]) + POLL,
    'batch-short': batch([req('PUT', length=8, upto=1, payload=b'12345678')], count=5),
    'fence-early': req('PUT', rnd=1, length=8, upto=1, payload=b'12345678')
    + req('NOTIFY', rnd=1, tid=1, tcount=1, upto=2) + FENCE + POLL,
    'pscw-early': req('PUT', flags=F_START, rnd=1, length=8, upto=1, payload=b'12345678')
    + req('NOTIFY', flags=F_START | F_DONE, rnd=1, tid=1, tcount=1, upto=2) + POST + POLL,
    'responses': rsp(0, 0) + rsp(1, 2**64 - 21, b'rank 1: window 0: a message\x00\x07') + rsp(2, 5, b'x') + rsp(3, 0),
    'regions-large': req('REGIONS', length=2**64 - 1, token=1)
    + req('PUT', length=9000, upto=1, large=9000 - EAGER - 1),
    # an op the type has no kernel for, and one no type has
    'regress-acc-no-kernel': req('ACC', op=BAND, typeid=DOUBLE, has_origin=1, length=16, upto=1, payload=bytes(16))
    + req('ACC', op=MAXLOC, typeid=INT64, has_origin=1, length=16, upto=2, payload=bytes(16)),
    # an element type out of range
    'regress-acc-typeid': req('ACC', op=SUM, typeid=0x90, has_origin=1, length=16, upto=1, payload=bytes(16)),
    # payloads shorter than their requests' lengths, in buffers of their own
    'regress-acc-short': req('ACC', op=SUM, typeid=INT64, has_origin=1, length=WIN - 8, upto=1, large=1)
    + req('CAS', typeid=INT64, has_origin=1, length=WIN - 8, upto=2, token=1, large=1),
    # layouts reaching past the bytes their requests name
    'regress-typed-reach': req('TYPE', tid=1, typ=0) + req('PUT', tid=1, tcount=1, length=8, upto=1, payload=bytes(40))
    + req('PUT', tid=1, tcount=1, length=64, torigin=2**62, upto=2, payload=bytes(40))
    + req('GET', tid=1, tcount=1, length=64, torigin=2**64 - 8, upto=3, token=1),
    # a typed compare-and-swap; a typed accumulate of another element type than its layout's
    'regress-typed-kinds': req('TYPE', tid=1, typ=1)
    + req('CAS', tid=1, tcount=400, has_origin=1, length=WIN - 8, upto=1, large=1)
    + req('ACC', op=SUM, typeid=2, has_origin=1, tid=1, tcount=400, length=WIN - 8, upto=2, large=9600 - EAGER - 1),
    # a layout's first part, then a first part too long for any layout
    'regress-type-parts': req('TYPE', tid=1, offset=0, length=64, payload=bytes(8))
    + req('TYPE', tid=1, offset=0, length=2**62, payload=bytes(8)),
}

if __name__ == '__main__':
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'corpus-net')
    os.makedirs(out, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(out, name), 'wb') as f:
            f.write(data)
    print(f'net_seeds.py: {len(SEEDS)} inputs in {out}')
