/* acc_plan.h -- plans: lists of accumulate-family calls laid out in a
 * window area (each call's elements between guard bytes), issued by one
 * origin, and checked afterwards against the reference of acc_test.h: the
 * target's area (every element as the reference says, every other byte
 * background), the origin's result buffer (the target's old elements) and
 * its origin buffer (unchanged).  Seeds name the target's initial contents
 * and the origin's data, so either side can recompute the other's. */
#ifndef ORMA_ACC_PLAN_H
#define ORMA_ACC_PLAN_H

#include "acc_test.h"

enum at_kind { AK_ACC, AK_GACC, AK_FOP, AK_CAS };

/* One call of a plan.  variant: CAS, 1 = the compare value matches the
 * target; GACC and FOP with NO_OP, 1 = origin NULL (and count 0). */
struct at_step {
    int kind;
    int id;
    int op;
    size_t count;
    int variant;
    size_t at; /* byte offset in the area, set by at_plan_layout */
};

#define AT_GUARD 16
#define AT_WHAT_LEN 512 /* descriptions of calls: room for any "where" */

static inline size_t at_round16(size_t n) { return (n + 15) & ~(size_t)15; }

/* Give each step its place, with AT_GUARD untouched bytes before and after
 * and 16-byte alignment (the strictest of any element); returns the area
 * size. */
static inline size_t at_plan_layout(struct at_step *s, size_t n)
{
    size_t pos = AT_GUARD;
    for (size_t i = 0; i < n; i++) {
        s[i].at = pos;
        pos += at_round16(s[i].count * at_types[s[i].id].extent) + AT_GUARD;
    }
    return pos;
}

/* Does step s succeed (else ORMA_ERR_OP, or ORMA_ERR_TYPE for a
 * compare-and-swap on a type it lacks)? */
static inline int at_step_ok(const struct at_step *s)
{
    const struct at_type *t = &at_types[s->id];
    return s->kind == AK_CAS ? at_cas_allowed(t) : at_op_defined(s->op, t);
}

/* Seeds of a step: the target's initial contents, the origin's data.
 * tseed names the target and area, oseed the origin and area. */
static inline uint32_t at_tseed(uint32_t tseed, size_t i) { return at_mix(tseed, (uint32_t)i * 2u); }
static inline uint32_t at_oseed(uint32_t oseed, size_t i) { return at_mix(oseed, (uint32_t)i * 2u + 1u); }

/* The target's initial contents of every step (the caller has filled the
 * area with its background). */
static inline void at_plan_init(unsigned char *area, const struct at_step *s, size_t n, uint32_t tseed)
{
    for (size_t i = 0; i < n; i++) {
        const struct at_type *t = &at_types[s[i].id];
        for (size_t j = 0; j < s[i].count; j++)
            at_gen(t, at_tseed(tseed, i), j, area + s[i].at + j * t->extent);
    }
}

/* The value a CAS compares with: the target's value when the step wants a
 * match, else a value that differs from it (only in its top bit: a
 * compare of fewer bytes than the element's would not see the
 * difference). */
static inline void at_cas_compare(const struct at_type *t, const struct at_step *s, uint32_t tseed,
                                  size_t i, unsigned char *dst)
{
    at_gen(t, at_tseed(tseed, i), 0, dst);
    if (s->variant)
        return;
    if (t->cls == AT_BOOL) {
        _Bool b;
        memcpy(&b, dst, sizeof b);
        b = !b;
        memcpy(dst, &b, sizeof b);
    } else {
        dst[t->size - 1] ^= 0x80; /* little-endian: the top byte */
    }
}

/* The origin's buffers of every step: origin data at obuf (CAS: the new
 * value), the CAS compare values at cbuf; same layout as the area.
 * tseed is the target's, for the compare values. */
static inline void at_plan_origin(unsigned char *obuf, unsigned char *cbuf, const struct at_step *s,
                                  size_t n, uint32_t oseed, uint32_t tseed)
{
    for (size_t i = 0; i < n; i++) {
        const struct at_type *t = &at_types[s[i].id];
        for (size_t j = 0; j < s[i].count; j++)
            at_gen(t, at_oseed(oseed, i), j, obuf + s[i].at + j * t->extent);
        if (s[i].kind == AK_CAS)
            at_cas_compare(t, &s[i], tseed, i, cbuf + s[i].at);
    }
}

static inline void at_step_what(const struct at_step *s, const char *where, char *buf, size_t len)
{
    static const char *const kinds[] = {"accumulate", "get_accumulate", "fetch_and_op",
                                        "compare_and_swap"};
    snprintf(buf, len, "%s%s%s of %zu x %s%s (%s)", kinds[s->kind], s->kind == AK_CAS ? "" : " ",
             s->kind == AK_CAS ? "" : at_op_name(s->op), s->count, at_types[s->id].name,
             s->kind == AK_CAS ? (s->variant ? ", matching" : ", not matching") : "", where);
}

/* Issue every step to target, whose area starts at displacement disp in
 * units of du (the target's displacement unit; 1 for dynamic windows).
 * Results go to rbuf (same layout).  With reqs (one per step), ACC and
 * GACC steps use the request-based calls and reqs[i] receives the request
 * (ORMA_REQUEST_NULL for the others and for failed calls). */
static inline void at_plan_issue(const struct at_step *s, size_t n, const unsigned char *obuf,
                                 const unsigned char *cbuf, unsigned char *rbuf, int target,
                                 orma_aint disp, int du, orma_win win, orma_request *reqs,
                                 const char *where)
{
    for (size_t i = 0; i < n; i++) {
        const struct at_type *t = &at_types[s[i].id];
        const unsigned char *o = obuf + s[i].at;
        size_t oc = s[i].count;
        orma_aint d = disp + (orma_aint)(s[i].at / (size_t)du);
        orma_request req = AT_REQ_UNSET;
        char what[AT_WHAT_LEN];
        int rc;

        CHECK(s[i].at % (size_t)du == 0);
        if (s[i].variant && s[i].kind != AK_CAS && s[i].op == ORMA_NO_OP) {
            o = NULL;
            oc = 0;
        }
        switch (s[i].kind) {
        case AK_ACC:
            rc = reqs ? orma_raccumulate(o, oc, t->type, target, d, s[i].count, t->type, s[i].op, win,
                                         &req)
                      : orma_accumulate(o, oc, t->type, target, d, s[i].count, t->type, s[i].op, win);
            break;
        case AK_GACC:
            rc = reqs ? orma_rget_accumulate(o, oc, t->type, rbuf + s[i].at, s[i].count, t->type, target,
                                             d, s[i].count, t->type, s[i].op, win, &req)
                      : orma_get_accumulate(o, oc, t->type, rbuf + s[i].at, s[i].count, t->type, target,
                                            d, s[i].count, t->type, s[i].op, win);
            break;
        case AK_FOP:
            rc = orma_fetch_and_op(o, rbuf + s[i].at, t->type, target, d, s[i].op, win);
            break;
        default:
            rc = orma_compare_and_swap(o, cbuf + s[i].at, rbuf + s[i].at, t->type, target, d, win);
            break;
        }
        at_step_what(&s[i], where, what, sizeof what);
        AT_RC(rc, at_step_ok(&s[i]) ? ORMA_SUCCESS : s[i].kind == AK_CAS ? ORMA_ERR_TYPE : ORMA_ERR_OP, what);
        if (reqs) {
            if (rc || s[i].kind == AK_FOP || s[i].kind == AK_CAS) {
                CHECK(req == AT_REQ_UNSET); /* not written on error */
                req = ORMA_REQUEST_NULL;
            } else {
                CHECK(req != AT_REQ_UNSET && req != ORMA_REQUEST_NULL);
            }
            reqs[i] = req;
        }
    }
}

/* The target's area after the plan from origin (oseed) was applied once:
 * every element as the reference says, every other byte background. */
static inline void at_plan_expect_target(const unsigned char *area, size_t area_size,
                                         const struct at_step *s, size_t n, uint32_t tseed,
                                         uint32_t oseed, const char *where)
{
    unsigned char want[64], org[64];
    size_t pos = 0;
    char what[AT_WHAT_LEN];
    for (size_t i = 0; i < n; i++) {
        const struct at_type *t = &at_types[s[i].id];
        at_step_what(&s[i], where, what, sizeof what);
        RT_EXPECT_BG(area, pos, s[i].at, what);
        for (size_t j = 0; j < s[i].count; j++) {
            at_gen(t, at_tseed(tseed, i), j, want);
            if (at_step_ok(&s[i])) {
                at_gen(t, at_oseed(oseed, i), j, org);
                if (s[i].kind == AK_CAS) {
                    if (s[i].variant)
                        memcpy(want, org, t->extent);
                } else {
                    at_apply(t, s[i].op, want, org);
                }
            }
            AT_EXPECT(t, area + s[i].at + j * t->extent, want, 1, what);
        }
        pos = s[i].at + s[i].count * t->extent;
    }
    RT_EXPECT_BG(area, pos, area_size, where);
}

/* The origin data of the plan is still in obuf (no call wrote to it). */
static inline void at_plan_expect_origin(const unsigned char *obuf, const struct at_step *s,
                                         size_t n, uint32_t oseed, const char *where)
{
    unsigned char want[64];
    for (size_t i = 0; i < n; i++) {
        const struct at_type *t = &at_types[s[i].id];
        for (size_t j = 0; j < s[i].count; j++) {
            at_gen(t, at_oseed(oseed, i), j, want);
            AT_EXPECT(t, obuf + s[i].at + j * t->extent, want, 1, where);
        }
    }
}

/* The origin's result buffer (filled with background before the plan):
 * the target's old elements for successful GACC, FOP and CAS steps, and
 * background everywhere else. */
static inline void at_plan_expect_results(const unsigned char *rbuf, size_t area_size,
                                          const struct at_step *s, size_t n, uint32_t tseed,
                                          const char *where)
{
    unsigned char want[64];
    size_t pos = 0;
    char what[AT_WHAT_LEN];
    for (size_t i = 0; i < n; i++) {
        const struct at_type *t = &at_types[s[i].id];
        if (s[i].kind == AK_ACC || !at_step_ok(&s[i]))
            continue; /* checked as background */
        at_step_what(&s[i], where, what, sizeof what);
        RT_EXPECT_BG(rbuf, pos, s[i].at, what);
        for (size_t j = 0; j < s[i].count; j++) {
            at_gen(t, at_tseed(tseed, i), j, want);
            AT_EXPECT(t, rbuf + s[i].at + j * t->extent, want, 1, what);
        }
        pos = s[i].at + s[i].count * t->extent;
    }
    RT_EXPECT_BG(rbuf, pos, area_size, where);
}

#endif
