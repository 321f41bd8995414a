/* util_hash.h -- a fast 64-bit hash of bytes, for checks by content (the
 * race checker's origin buffers and put data, rma_race.h): not for
 * security, only to tell with near certainty that bytes changed.
 *
 * NH, the universal hash of UMAC (Black et al., 1999), over 256-byte
 * chunks: the sum of products of 32-bit word pairs, each word offset by a
 * key of its place in the chunk -- products that SSE2 makes two at a time
 * -- and each chunk's sum folded into the running value by a
 * multiply-rotate, so that a chunk's place counts too.  The tail and the
 * length are folded in at the end.  About memcpy's speed. */
#ifndef ORMA_UTIL_HASH_H
#define ORMA_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The race checker hashes origin buffers at completion, as an MPI library
 * may read them until then: a program that let one go out of scope or
 * freed it early has a bug the checker is not the one to find (it finds
 * the change of content, when there is one), so AddressSanitizer does not
 * watch these reads. */
#if defined(__SANITIZE_ADDRESS__) || defined(__has_feature)
#define UTIL_HASH_NOSAN __attribute__((no_sanitize_address))
#else
#define UTIL_HASH_NOSAN
#endif

#define UTIL_HASH_P1 0x9E3779B185EBCA87ull
#define UTIL_HASH_P2 0xC2B2AE3D27D4EB4Full

static inline UTIL_HASH_NOSAN uint64_t util_hash_mix(uint64_t h, uint64_t w)
{
    h ^= w * UTIL_HASH_P2;
    h = (h << 31) | (h >> 33);
    return h * UTIL_HASH_P1;
}

/* The key of word i of a chunk: ((i + 1) * 0x9E3779B9) ^ 0x85EBCA6B, as a
 * table (at -O2 the loop below is not unrolled to fold them). */
static const uint32_t util_hash_keys_[64] __attribute__((aligned(16))) = {
    0x1BDCB3D2u, 0xB9853919u, 0x5F4DA740u, 0xFD362C8Fu, 0x92FEAAF6u, 0x30A7103Du,
    0xD66F9E64u, 0x745007A3u, 0x0A188DEAu, 0xABC10B51u, 0x4989F098u, 0xEF727EC7u,
    0x8D3AE40Eu, 0x22E36275u, 0xC0ABEBBCu, 0x669C51FBu, 0x0444DF22u, 0x9A0D4569u,
    0x3BF5C2D0u, 0xD9BE481Fu, 0x7F673646u, 0x1D2FBF8Du, 0xB31025F4u, 0x50D8A333u,
    0xF681297Au, 0x944996A1u, 0x2A321CE8u, 0xCBFA9A57u, 0x69A3039Eu, 0x0F6B89C5u,
    0xAD5C770Cu, 0x4304FD4Bu, 0xE0CD7AB2u, 0x86B5E0F9u, 0x247E6E20u, 0xBA26D46Fu,
    0x5BEF5DD6u, 0xF9D7DB1Du, 0x9F984144u, 0x3D40CE83u, 0xD309B4CAu, 0x70F23231u,
    0x16BAB878u, 0xB46321A7u, 0x4A2BAFEEu, 0xE81C1555u, 0x89C4929Cu, 0x2F8D18DBu,
    0xCD758602u, 0x633E0C49u, 0x00E6F5B0u, 0xA6AF73FFu, 0x4497F926u, 0xDA58676Du,
    0x7800ECD4u, 0x19C96A13u, 0xBFB1D05Au, 0x5D7A5981u, 0xF322C7C8u, 0x90EB4D37u,
    0x36D3CB7Eu, 0xD484B0A5u, 0x6A4D3EECu, 0x0835A42Bu,
};

static inline uint32_t util_hash_key(unsigned i)
{
    return util_hash_keys_[i];
}

#ifdef __SSE2__
#include <emmintrin.h>
/* The keys of a chunk's 64 words, 16 bytes at a time. */
static inline __m128i util_hash_keys(unsigned i)
{
    return _mm_load_si128((const __m128i *)(const void *)&util_hash_keys_[i]);
}

static inline UTIL_HASH_NOSAN uint64_t util_hash_chunk(const unsigned char *b)
{
    __m128i s0 = _mm_setzero_si128(), s1 = _mm_setzero_si128();
    for (unsigned i = 0; i < 64; i += 8) {
        __m128i x = _mm_add_epi32(_mm_loadu_si128((const __m128i *)(const void *)(b + 4 * i)), util_hash_keys(i));
        __m128i y = _mm_add_epi32(_mm_loadu_si128((const __m128i *)(const void *)(b + 4 * i + 16)),
                                  util_hash_keys(i + 4));
        s0 = _mm_add_epi64(s0, _mm_mul_epu32(x, _mm_srli_epi64(x, 32)));
        s1 = _mm_add_epi64(s1, _mm_mul_epu32(y, _mm_srli_epi64(y, 32)));
    }
    uint64_t v[4];
    _mm_storeu_si128((__m128i *)(void *)v, s0);
    _mm_storeu_si128((__m128i *)(void *)(v + 2), s1);
    return v[0] ^ (v[1] * UTIL_HASH_P1) ^ (v[2] * UTIL_HASH_P2) ^ ((v[3] << 29 | v[3] >> 35) * UTIL_HASH_P1);
}
#else
static inline UTIL_HASH_NOSAN uint64_t util_hash_chunk(const unsigned char *b)
{
    uint64_t s[4] = {0, 0, 0, 0};
    for (unsigned i = 0; i < 64; i += 8)
        for (unsigned j = 0; j < 4; j++) {
            uint32_t w[2];
            memcpy(w, b + 4 * (i + 2 * j), 8);
            s[j] += (uint64_t)(w[0] + util_hash_key(i + 2 * j)) * (uint64_t)(w[1] + util_hash_key(i + 2 * j + 1));
        }
    return s[0] ^ (s[1] * UTIL_HASH_P1) ^ (s[2] * UTIL_HASH_P2) ^ ((s[3] << 29 | s[3] >> 35) * UTIL_HASH_P1);
}
#endif

/* Continue hash h over n bytes at p. */
static inline UTIL_HASH_NOSAN uint64_t util_hash_more(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    size_t i = 0;
    for (; i + 256 <= n; i += 256)
        h = util_hash_mix(h, util_hash_chunk(b + i));
    uint64_t w;
    for (; i + 8 <= n; i += 8) {
        memcpy(&w, b + i, 8);
        h = util_hash_mix(h, w);
    }
    if (i < n) {
        w = 0;
        memcpy(&w, b + i, n - i);
        h = util_hash_mix(h, w ^ ((uint64_t)(n - i) << 56));
    }
    return util_hash_mix(h, n);
}

static inline UTIL_HASH_NOSAN uint64_t util_hash(const void *p, size_t n)
{
    return util_hash_more(0x27D4EB2F165667C5ull, p, n);
}

#endif
