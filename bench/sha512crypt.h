/*
 * The sha512crypt kernel (bench/sha512crypt.cl, embedded: sha512crypt_cl,
 * a NUL-terminated string) and a host implementation of the same crypt
 * ("$6$", SHA-crypt as Ulrich Drepper specified it) to check it against.
 * Used by bench/builds and tests/e2e/test_sha512crypt.
 *
 * The includer defines SHA512CRYPT_CL, the path of sha512crypt.cl (CMake
 * does), in exactly one translation unit.
 */
#ifndef MOSAIC_BENCH_SHA512CRYPT_H
#define MOSAIC_BENCH_SHA512CRYPT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define SHA512CRYPT_PASSWORD_MAX 64 /* the kernel's PASSWORD_MAX, SALT_MAX and HASH_CHARS */
#define SHA512CRYPT_SALT_MAX 16
#define SHA512CRYPT_HASH_CHARS 86

__asm__(".pushsection .rodata\n"
        ".global sha512crypt_cl\n"
        "sha512crypt_cl:\n"
        ".incbin \"" SHA512CRYPT_CL "\"\n"
        ".byte 0\n"
        ".popsection\n");
extern const char sha512crypt_cl[];

/* ---- SHA-512 on the host ----------------------------------------------------------------- */
typedef struct host_sha512 {
    uint64_t h[8];
    uint8_t buf[128];
    size_t fill;
    uint64_t total;
} host_sha512;

static const uint64_t host_sha512_k[80] = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL, 0x3956c25bf348b538ULL,
    0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL, 0xd807aa98a3030242ULL, 0x12835b0145706fbeULL,
    0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL, 0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL,
    0xc19bf174cf692694ULL, 0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
    0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL, 0x983e5152ee66dfabULL,
    0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL, 0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL,
    0x06ca6351e003826fULL, 0x142929670a0e6e70ULL, 0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL,
    0x53380d139d95b3dfULL, 0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
    0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL, 0xd192e819d6ef5218ULL,
    0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL, 0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL,
    0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL, 0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL,
    0x682e6ff3d6b2b8a3ULL, 0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL, 0xca273eceea26619cULL,
    0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL, 0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL,
    0x113f9804bef90daeULL, 0x1b710b35131c471bULL, 0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL,
    0x431d67c49c100d4cULL, 0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

static uint64_t host_ror(uint64_t x, int n) { return x >> n | x << (64 - n); }

static void host_sha512_block(host_sha512 *s)
{
    uint64_t w[80];
    for (int t = 0; t < 16; t++) {
        w[t] = 0;
        for (int k = 0; k < 8; k++)
            w[t] = w[t] << 8 | s->buf[8 * t + k];
    }
    for (int t = 16; t < 80; t++)
        w[t] = (host_ror(w[t - 2], 19) ^ host_ror(w[t - 2], 61) ^ w[t - 2] >> 6) + w[t - 7] +
               (host_ror(w[t - 15], 1) ^ host_ror(w[t - 15], 8) ^ w[t - 15] >> 7) + w[t - 16];
    uint64_t a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3], e = s->h[4], f = s->h[5], g = s->h[6], h = s->h[7];
    for (int t = 0; t < 80; t++) {
        uint64_t t1 = h + (host_ror(e, 14) ^ host_ror(e, 18) ^ host_ror(e, 41)) + ((e & f) ^ (~e & g)) +
                      host_sha512_k[t] + w[t];
        uint64_t t2 = (host_ror(a, 28) ^ host_ror(a, 34) ^ host_ror(a, 39)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    s->h[0] += a, s->h[1] += b, s->h[2] += c, s->h[3] += d;
    s->h[4] += e, s->h[5] += f, s->h[6] += g, s->h[7] += h;
}

static void host_sha512_start(host_sha512 *s)
{
    static const uint64_t iv[8] = {0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
                                   0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
                                   0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};
    memcpy(s->h, iv, sizeof iv);
    s->fill = 0;
    s->total = 0;
}

static void host_sha512_add(host_sha512 *s, const void *data, size_t n)
{
    const uint8_t *p = data;
    s->total += n;
    while (n) {
        size_t take = 128 - s->fill < n ? 128 - s->fill : n;
        memcpy(s->buf + s->fill, p, take);
        s->fill += take, p += take, n -= take;
        if (s->fill == 128) {
            host_sha512_block(s);
            s->fill = 0;
        }
    }
}

static void host_sha512_end(host_sha512 *s, uint8_t out[64])
{
    uint8_t pad[256] = {0x80};
    size_t padding = (s->fill < 112 ? 112 : 240) - s->fill;
    uint64_t bits = s->total * 8;
    for (int k = 0; k < 8; k++)
        pad[padding + 8 + k] = (uint8_t)(bits >> (56 - 8 * k)); /* upper 64 bits of the length: 0 */
    host_sha512_add(s, pad, padding + 16);
    for (int i = 0; i < 64; i++)
        out[i] = (uint8_t)(s->h[i / 8] >> (56 - 8 * (i % 8)));
}

/* ---- the crypt ------------------------------------------------------------------------- */
/* The 86 characters after "$6$[rounds=N$]salt$" (out[86] = 0).  salt_len at most 16. */
static void host_sha512crypt(const char *pw, size_t pw_len, const char *salt, size_t salt_len, unsigned rounds,
                             char out[SHA512CRYPT_HASH_CHARS + 1])
{
    host_sha512 s;
    uint8_t b[64], a[64], dp[64], ds[64], p_seq[256], s_seq[16];
    host_sha512_start(&s);
    host_sha512_add(&s, pw, pw_len);
    host_sha512_add(&s, salt, salt_len);
    host_sha512_add(&s, pw, pw_len);
    host_sha512_end(&s, b);

    host_sha512_start(&s);
    host_sha512_add(&s, pw, pw_len);
    host_sha512_add(&s, salt, salt_len);
    for (size_t left = pw_len; left; left -= left > 64 ? 64 : left)
        host_sha512_add(&s, b, left > 64 ? 64 : left);
    for (size_t bits = pw_len; bits; bits >>= 1)
        host_sha512_add(&s, bits & 1 ? (const void *)b : (const void *)pw, bits & 1 ? 64 : pw_len);
    host_sha512_end(&s, a);

    host_sha512_start(&s);
    for (size_t i = 0; i < pw_len; i++)
        host_sha512_add(&s, pw, pw_len);
    host_sha512_end(&s, dp);
    for (size_t i = 0; i < pw_len && i < sizeof p_seq; i++)
        p_seq[i] = dp[i % 64];

    host_sha512_start(&s);
    for (unsigned i = 0; i < 16u + a[0]; i++)
        host_sha512_add(&s, salt, salt_len);
    host_sha512_end(&s, ds);
    for (size_t i = 0; i < salt_len; i++)
        s_seq[i] = ds[i];

    for (unsigned r = 0; r < rounds; r++) {
        host_sha512_start(&s);
        host_sha512_add(&s, r % 2 ? (const void *)p_seq : (const void *)a, r % 2 ? pw_len : 64);
        if (r % 3)
            host_sha512_add(&s, s_seq, salt_len);
        if (r % 7)
            host_sha512_add(&s, p_seq, pw_len);
        host_sha512_add(&s, r % 2 ? (const void *)a : (const void *)p_seq, r % 2 ? 64 : pw_len);
        host_sha512_end(&s, a);
    }

    static const char alphabet[] = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    size_t at = 0;
    for (int i = 0; i < 22; i++) {
        /* groups (0,21,42) (22,43,1) (44,2,23) ...: the first byte of each is 22 i mod 63, then +21, +21 */
        uint32_t w;
        int n = 4;
        if (i < 21) {
            int first = (22 * i) % 63;
            w = (uint32_t)a[first] << 16 | (uint32_t)a[(first + 21) % 63] << 8 | a[(first + 42) % 63];
        } else {
            w = a[63];
            n = 2;
        }
        for (int k = 0; k < n; k++, w >>= 6)
            out[at++] = alphabet[w & 63];
    }
    out[at] = 0;
}

#endif
