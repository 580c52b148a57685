/*
 * sha512crypt ("$6$", SHA-crypt as Ulrich Drepper specified it), one
 * password per work-item: the shape of a password cracker's kernel (issue
 * 11: such a kernel once spent over 5 minutes in clLinkProgram).  SHA-512 is
 * written the way such kernels write it: every helper `inline`, a context
 * with a 128-byte private buffer filled byte by byte, an 80-round
 * compression fully unrolled by #pragma unroll, small
 * helpers called from many places, and the 5000-round loop of crypt
 * alternating the digest, the password and the salt.  (Compiled with every
 * function inlined into the kernel, as Mosaic once did, clLinkProgram took
 * 87 s and 300 MB on 2 loaded cores; with the byte loop unrolled 8 times
 * by a pragma too, over 15 minutes and 700 MB.)
 *
 *   kernel sha512crypt(passwords, lengths, salt, salt_length, rounds, hashes)
 *   passwords: PASSWORD_MAX bytes per work-item, lengths[i] of them used;
 *   salt: salt_length (at most SALT_MAX) bytes; rounds: 1000 to 999999999;
 *   hashes: HASH_CHARS characters per work-item, the part of the crypt
 *   string after "$6$[rounds=N$]salt$".
 */
#ifndef SHA512CRYPT_KERNEL
#define SHA512CRYPT_KERNEL sha512crypt /* bench/builds names each cold build's kernel apart */
#endif
#define PASSWORD_MAX 64
#define SALT_MAX 16
#define HASH_CHARS 86

typedef struct sha512_state {
    ulong h[8];
    uchar block[128];
    uint used;    /* bytes of block filled */
    ulong length; /* bytes hashed so far */
} sha512_state;

__constant ulong round_constants[80] = {
    0x428a2f98d728ae22UL, 0x7137449123ef65cdUL, 0xb5c0fbcfec4d3b2fUL, 0xe9b5dba58189dbbcUL, 0x3956c25bf348b538UL,
    0x59f111f1b605d019UL, 0x923f82a4af194f9bUL, 0xab1c5ed5da6d8118UL, 0xd807aa98a3030242UL, 0x12835b0145706fbeUL,
    0x243185be4ee4b28cUL, 0x550c7dc3d5ffb4e2UL, 0x72be5d74f27b896fUL, 0x80deb1fe3b1696b1UL, 0x9bdc06a725c71235UL,
    0xc19bf174cf692694UL, 0xe49b69c19ef14ad2UL, 0xefbe4786384f25e3UL, 0x0fc19dc68b8cd5b5UL, 0x240ca1cc77ac9c65UL,
    0x2de92c6f592b0275UL, 0x4a7484aa6ea6e483UL, 0x5cb0a9dcbd41fbd4UL, 0x76f988da831153b5UL, 0x983e5152ee66dfabUL,
    0xa831c66d2db43210UL, 0xb00327c898fb213fUL, 0xbf597fc7beef0ee4UL, 0xc6e00bf33da88fc2UL, 0xd5a79147930aa725UL,
    0x06ca6351e003826fUL, 0x142929670a0e6e70UL, 0x27b70a8546d22ffcUL, 0x2e1b21385c26c926UL, 0x4d2c6dfc5ac42aedUL,
    0x53380d139d95b3dfUL, 0x650a73548baf63deUL, 0x766a0abb3c77b2a8UL, 0x81c2c92e47edaee6UL, 0x92722c851482353bUL,
    0xa2bfe8a14cf10364UL, 0xa81a664bbc423001UL, 0xc24b8b70d0f89791UL, 0xc76c51a30654be30UL, 0xd192e819d6ef5218UL,
    0xd69906245565a910UL, 0xf40e35855771202aUL, 0x106aa07032bbd1b8UL, 0x19a4c116b8d2d0c8UL, 0x1e376c085141ab53UL,
    0x2748774cdf8eeb99UL, 0x34b0bcb5e19b48a8UL, 0x391c0cb3c5c95a63UL, 0x4ed8aa4ae3418acbUL, 0x5b9cca4f7763e373UL,
    0x682e6ff3d6b2b8a3UL, 0x748f82ee5defb2fcUL, 0x78a5636f43172f60UL, 0x84c87814a1f0ab72UL, 0x8cc702081a6439ecUL,
    0x90befffa23631e28UL, 0xa4506cebde82bde9UL, 0xbef9a3f7b2c67915UL, 0xc67178f2e372532bUL, 0xca273eceea26619cUL,
    0xd186b8c721c0c207UL, 0xeada7dd6cde0eb1eUL, 0xf57d4f7fee6ed178UL, 0x06f067aa72176fbaUL, 0x0a637dc5a2c898a6UL,
    0x113f9804bef90daeUL, 0x1b710b35131c471bUL, 0x28db77f523047d84UL, 0x32caab7b40c72493UL, 0x3c9ebe0a15c9bebcUL,
    0x431d67c49c100d4cUL, 0x4cc5d4becb3e42b6UL, 0x597f299cfc657e2aUL, 0x5fcb6fab3ad6faecUL, 0x6c44198c4a475817UL,
};

__constant char crypt_alphabet[64] = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/* ---- SHA-512 ------------------------------------------------------------------------------ */
inline ulong rotate_right(ulong x, uint n) { return rotate(x, (ulong)(64 - n)); }
inline ulong big_sigma0(ulong x) { return rotate_right(x, 28) ^ rotate_right(x, 34) ^ rotate_right(x, 39); }
inline ulong big_sigma1(ulong x) { return rotate_right(x, 14) ^ rotate_right(x, 18) ^ rotate_right(x, 41); }
inline ulong small_sigma0(ulong x) { return rotate_right(x, 1) ^ rotate_right(x, 8) ^ (x >> 7); }
inline ulong small_sigma1(ulong x) { return rotate_right(x, 19) ^ rotate_right(x, 61) ^ (x >> 6); }
inline ulong choose(ulong e, ulong f, ulong g) { return (e & f) ^ (~e & g); }
inline ulong majority(ulong a, ulong b, ulong c) { return (a & b) ^ (a & c) ^ (b & c); }

inline ulong load_big_endian(const uchar *p)
{
    ulong v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

inline void store_big_endian(uchar *p, ulong v)
{
    for (int i = 7; i >= 0; i--) {
        p[i] = (uchar)v;
        v >>= 8;
    }
}

/* The message schedule word t (16 and up) from the 16 before it, in place. */
inline ulong schedule(ulong *w, int t)
{
    ulong v = small_sigma1(w[(t - 2) & 15]) + w[(t - 7) & 15] + small_sigma0(w[(t - 15) & 15]) + w[t & 15];
    w[t & 15] = v;
    return v;
}

/* One round: the eight working variables in an array, rotated by index. */
inline void sha512_round(ulong *v, int t, ulong word)
{
    int a = (80 - t) & 7;
    ulong e = v[(a + 4) & 7];
    ulong t1 = v[(a + 7) & 7] + big_sigma1(e) + choose(e, v[(a + 5) & 7], v[(a + 6) & 7]) + round_constants[t] + word;
    ulong t2 = big_sigma0(v[a]) + majority(v[a], v[(a + 1) & 7], v[(a + 2) & 7]);
    v[(a + 3) & 7] += t1;
    v[(a + 7) & 7] = t1 + t2;
}

inline void sha512_compress(sha512_state *s)
{
    ulong w[16], v[8];
    for (int i = 0; i < 16; i++)
        w[i] = load_big_endian(s->block + 8 * i);
    for (int i = 0; i < 8; i++)
        v[i] = s->h[i];
    #pragma unroll
    for (int t = 0; t < 16; t++)
        sha512_round(v, t, w[t]);
    #pragma unroll
    for (int t = 16; t < 80; t += 8) {
        sha512_round(v, t, schedule(w, t));
        sha512_round(v, t + 1, schedule(w, t + 1));
        sha512_round(v, t + 2, schedule(w, t + 2));
        sha512_round(v, t + 3, schedule(w, t + 3));
        sha512_round(v, t + 4, schedule(w, t + 4));
        sha512_round(v, t + 5, schedule(w, t + 5));
        sha512_round(v, t + 6, schedule(w, t + 6));
        sha512_round(v, t + 7, schedule(w, t + 7));
    }
    for (int i = 0; i < 8; i++)
        s->h[i] += v[i];
}

inline void sha512_init(sha512_state *s)
{
    s->h[0] = 0x6a09e667f3bcc908UL;
    s->h[1] = 0xbb67ae8584caa73bUL;
    s->h[2] = 0x3c6ef372fe94f82bUL;
    s->h[3] = 0xa54ff53a5f1d36f1UL;
    s->h[4] = 0x510e527fade682d1UL;
    s->h[5] = 0x9b05688c2b3e6c1fUL;
    s->h[6] = 0x1f83d9abfb41bd6bUL;
    s->h[7] = 0x5be0cd19137e2179UL;
    s->used = 0;
    s->length = 0;
}

inline void sha512_add_byte(sha512_state *s, uchar c)
{
    s->block[s->used++] = c;
    if (s->used == 128) {
        sha512_compress(s);
        s->used = 0;
    }
}

inline void sha512_update(sha512_state *s, const uchar *data, uint n)
{
    for (uint i = 0; i < n; i++)
        sha512_add_byte(s, data[i]);
    s->length += n;
}

/* The same bytes `times` times over. */
inline void sha512_update_repeated(sha512_state *s, const uchar *data, uint n, uint times)
{
    for (uint k = 0; k < times; k++)
        sha512_update(s, data, n);
}

inline void sha512_final(sha512_state *s, uchar *digest)
{
    ulong bits = s->length * 8;
    sha512_add_byte(s, 0x80);
    while (s->used != 112)
        sha512_add_byte(s, 0);
    for (int i = 0; i < 8; i++)
        sha512_add_byte(s, 0); /* the length's upper 64 bits */
    uchar length[8];
    store_big_endian(length, bits);
    for (int i = 0; i < 8; i++)
        sha512_add_byte(s, length[i]);
    for (int i = 0; i < 8; i++)
        store_big_endian(digest + 8 * i, s->h[i]);
}

/* ---- SHA-crypt -------------------------------------------------------------------------------- */
inline void copy_from_global(uchar *to, __global const uchar *from, uint n)
{
    for (uint i = 0; i < n; i++)
        to[i] = from[i];
}

/* n bytes of a digest repeated (the P and S sequences of the specification). */
inline void repeat_digest(uchar *to, const uchar *digest, uint n)
{
    for (uint i = 0; i < n; i++)
        to[i] = digest[i % 64];
}

/* Digest B: password, salt, password. */
inline void alternate_digest(const uchar *pw, uint pw_len, const uchar *salt, uint salt_len, uchar *out)
{
    sha512_state s;
    sha512_init(&s);
    sha512_update(&s, pw, pw_len);
    sha512_update(&s, salt, salt_len);
    sha512_update(&s, pw, pw_len);
    sha512_final(&s, out);
}

/* Digest A: password, salt, B for each byte of the password, then per bit
 * of the password's length B (1) or the password (0). */
inline void initial_digest(const uchar *pw, uint pw_len, const uchar *salt, uint salt_len, const uchar *alternate,
                    uchar *out)
{
    sha512_state s;
    sha512_init(&s);
    sha512_update(&s, pw, pw_len);
    sha512_update(&s, salt, salt_len);
    uint n = pw_len;
    for (; n > 64; n -= 64)
        sha512_update(&s, alternate, 64);
    sha512_update(&s, alternate, n);
    for (n = pw_len; n > 0; n >>= 1) {
        if (n & 1)
            sha512_update(&s, alternate, 64);
        else
            sha512_update(&s, pw, pw_len);
    }
    sha512_final(&s, out);
}

/* One of the rounds: odd ones start with the password, multiples of 3 skip
 * the salt, multiples of 7 the second password. */
inline void crypt_round(uint r, uchar *digest, const uchar *p_seq, uint pw_len, const uchar *s_seq, uint salt_len)
{
    sha512_state s;
    sha512_init(&s);
    if (r & 1)
        sha512_update(&s, p_seq, pw_len);
    else
        sha512_update(&s, digest, 64);
    if (r % 3)
        sha512_update(&s, s_seq, salt_len);
    if (r % 7)
        sha512_update(&s, p_seq, pw_len);
    if (r & 1)
        sha512_update(&s, digest, 64);
    else
        sha512_update(&s, p_seq, pw_len);
    sha512_final(&s, digest);
}

inline void sha512crypt_digest(const uchar *pw, uint pw_len, const uchar *salt, uint salt_len, uint rounds, uchar *digest)
{
    uchar alternate[64], dp[64], ds[64], p_seq[PASSWORD_MAX], s_seq[SALT_MAX];
    sha512_state s;
    alternate_digest(pw, pw_len, salt, salt_len, alternate);
    initial_digest(pw, pw_len, salt, salt_len, alternate, digest);
    /* DP: the password once per byte of it; DS: the salt 16 + A[0] times */
    sha512_init(&s);
    sha512_update_repeated(&s, pw, pw_len, pw_len);
    sha512_final(&s, dp);
    repeat_digest(p_seq, dp, pw_len);
    sha512_init(&s);
    sha512_update_repeated(&s, salt, salt_len, 16 + digest[0]);
    sha512_final(&s, ds);
    repeat_digest(s_seq, ds, salt_len);
    for (uint r = 0; r < rounds; r++)
        crypt_round(r, digest, p_seq, pw_len, s_seq, salt_len);
}

/* ---- the crypt string's encoding ---------------------------------------------------------------- */
/* n characters of 24 bits, 6 at a time, least significant first. */
inline uint encode_24(__global char *out, uint at, uchar b2, uchar b1, uchar b0, int n)
{
    uint w = (uint)b2 << 16 | (uint)b1 << 8 | b0;
    for (int i = 0; i < n; i++) {
        out[at++] = crypt_alphabet[w & 63];
        w >>= 6;
    }
    return at;
}

inline void encode_digest(const uchar *d, __global char *out)
{
    uint at = 0;
    /* bytes i, i + 21, i + 42 in a rotating order */
    for (int i = 0; i < 21; i++) {
        int x = i, y = i + 21, z = i + 42;
        if (i % 3 == 0)
            at = encode_24(out, at, d[x], d[y], d[z], 4);
        else if (i % 3 == 1)
            at = encode_24(out, at, d[y], d[z], d[x], 4);
        else
            at = encode_24(out, at, d[z], d[x], d[y], 4);
    }
    encode_24(out, at, 0, 0, d[63], 2);
}

__kernel void SHA512CRYPT_KERNEL(__global const uchar *passwords, __global const uint *lengths, __global const uchar *salt,
                          uint salt_length, uint rounds, __global char *hashes)
{
    size_t i = get_global_id(0);
    uchar pw[PASSWORD_MAX], salt_bytes[SALT_MAX], digest[64];
    uint pw_len = min(lengths[i], (uint)PASSWORD_MAX), salt_len = min(salt_length, (uint)SALT_MAX);
    copy_from_global(pw, passwords + i * PASSWORD_MAX, pw_len);
    copy_from_global(salt_bytes, salt, salt_len);
    sha512crypt_digest(pw, pw_len, salt_bytes, salt_len, rounds, digest);
    encode_digest(digest, hashes + i * HASH_CHARS);
}
