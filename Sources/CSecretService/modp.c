/* The one computation of the Secret Service's session key exchange that swift-crypto has
   no public API for: a power modulo the 1024-bit prime of the spec's algorithm
   "dh-ietf1024-sha256-aes128-cbc-pkcs7" (RFC 2409's second Oakley group, generator 2).

   It is done by BoringSSL's constant-time Montgomery exponentiation, the copy that
   swift-crypto builds into our executables anyway (its symbols carry the prefix
   CCryptoBoringSSL_; swift-crypto is pinned to one exact version, and a renamed function
   fails the link, never the run). libsecret does the same with libgcrypt and an exponent
   as long as the prime: 23M of the 35M instructions of a whole `get`. */
#include "csecretservice.h"
#include <stdint.h>
#include <string.h>

typedef struct bignum_st BIGNUM;
typedef struct bignum_ctx BN_CTX;
typedef struct bn_mont_ctx_st BN_MONT_CTX;
BN_CTX *CCryptoBoringSSL_BN_CTX_new(void);
void CCryptoBoringSSL_BN_CTX_free(BN_CTX *ctx);
BIGNUM *CCryptoBoringSSL_BN_new(void);
BIGNUM *CCryptoBoringSSL_BN_bin2bn(const uint8_t *in, size_t len, BIGNUM *ret);
void CCryptoBoringSSL_BN_free(BIGNUM *bn);
void CCryptoBoringSSL_BN_clear_free(BIGNUM *bn);
int CCryptoBoringSSL_BN_bn2bin_padded(uint8_t *out, size_t len, const BIGNUM *in);
BN_MONT_CTX *CCryptoBoringSSL_BN_MONT_CTX_new_for_modulus(const BIGNUM *mod, BN_CTX *ctx);
void CCryptoBoringSSL_BN_MONT_CTX_free(BN_MONT_CTX *mont);
int CCryptoBoringSSL_BN_mod_exp_mont_consttime(BIGNUM *rr, const BIGNUM *a, const BIGNUM *p, const BIGNUM *m,
                                               BN_CTX *ctx, const BN_MONT_CTX *mont);

static const uint8_t prime[CSECRETSERVICE_MODP_BYTES] = {
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xC9, 0x0F, 0xDA, 0xA2, 0x21, 0x68, 0xC2, 0x34,
    0xC4, 0xC6, 0x62, 0x8B, 0x80, 0xDC, 0x1C, 0xD1, 0x29, 0x02, 0x4E, 0x08, 0x8A, 0x67, 0xCC, 0x74,
    0x02, 0x0B, 0xBE, 0xA6, 0x3B, 0x13, 0x9B, 0x22, 0x51, 0x4A, 0x08, 0x79, 0x8E, 0x34, 0x04, 0xDD,
    0xEF, 0x95, 0x19, 0xB3, 0xCD, 0x3A, 0x43, 0x1B, 0x30, 0x2B, 0x0A, 0x6D, 0xF2, 0x5F, 0x14, 0x37,
    0x4F, 0xE1, 0x35, 0x6D, 0x6D, 0x51, 0xC2, 0x45, 0xE4, 0x85, 0xB5, 0x76, 0x62, 0x5E, 0x7E, 0xC6,
    0xF4, 0x4C, 0x42, 0xE9, 0xA6, 0x37, 0xED, 0x6B, 0x0B, 0xFF, 0x5C, 0xB6, 0xF4, 0x06, 0xB7, 0xED,
    0xEE, 0x38, 0x6B, 0xFB, 0x5A, 0x89, 0x9F, 0xA5, 0xAE, 0x9F, 0x24, 0x11, 0x7C, 0x4B, 0x1F, 0xE6,
    0x49, 0x28, 0x66, 0x51, 0xEC, 0xE6, 0x53, 0x81, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
};

/* 2 < base < prime - 1, as big-endian bytes: a peer's value of 0, 1, p - 1 (or not below
   p) makes the shared secret one of three an eavesdropper can try, and the generator 2 (the
   peer's exponent 1) makes it our public key, which crossed the bus. */
static int in_range(const uint8_t *base, size_t length) {
    while (length > 0 && base[0] == 0) { base++; length--; }
    if (length > CSECRETSERVICE_MODP_BYTES) return 0;
    if (length == 0 || (length == 1 && base[0] <= 2)) return 0;
    if (length < CSECRETSERVICE_MODP_BYTES) return 1;
    uint8_t last = prime[CSECRETSERVICE_MODP_BYTES - 1] - 1; /* p - 1: the prime is odd */
    int order = memcmp(base, prime, CSECRETSERVICE_MODP_BYTES - 1);
    return order < 0 || (order == 0 && base[CSECRETSERVICE_MODP_BYTES - 1] < last);
}

/* result = base ^ exponent modulo the prime, base below the prime. */
static int power(const uint8_t *base, size_t base_length, const uint8_t *exponent, size_t exponent_length,
                 uint8_t result[CSECRETSERVICE_MODP_BYTES]) {
    if (exponent_length == 0) return 0;
    BN_CTX *context = CCryptoBoringSSL_BN_CTX_new();
    BIGNUM *modulus = CCryptoBoringSSL_BN_bin2bn(prime, sizeof prime, NULL);
    BIGNUM *a = CCryptoBoringSSL_BN_bin2bn(base, base_length, NULL);
    BIGNUM *e = CCryptoBoringSSL_BN_bin2bn(exponent, exponent_length, NULL);
    BIGNUM *r = CCryptoBoringSSL_BN_new();
    BN_MONT_CTX *montgomery = context && modulus ? CCryptoBoringSSL_BN_MONT_CTX_new_for_modulus(modulus, context) : NULL;
    int done = montgomery && a && e && r
        && CCryptoBoringSSL_BN_mod_exp_mont_consttime(r, a, e, modulus, context, montgomery)
        && CCryptoBoringSSL_BN_bn2bin_padded(result, CSECRETSERVICE_MODP_BYTES, r);
    CCryptoBoringSSL_BN_MONT_CTX_free(montgomery);
    CCryptoBoringSSL_BN_clear_free(r);
    CCryptoBoringSSL_BN_clear_free(e);
    CCryptoBoringSSL_BN_free(a);
    CCryptoBoringSSL_BN_free(modulus);
    CCryptoBoringSSL_BN_CTX_free(context);
    return done;
}

int csecretservice_modp_public_key(const uint8_t *exponent, size_t exponent_length, uint8_t result[CSECRETSERVICE_MODP_BYTES]) {
    static const uint8_t generator[1] = { 2 };
    return power(generator, sizeof generator, exponent, exponent_length, result);
}

int csecretservice_modp_shared_secret(const uint8_t *peer, size_t peer_length, const uint8_t *exponent,
                                      size_t exponent_length, uint8_t result[CSECRETSERVICE_MODP_BYTES]) {
    return in_range(peer, peer_length) && power(peer, peer_length, exponent, exponent_length, result);
}
