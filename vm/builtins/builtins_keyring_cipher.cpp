// The ciphers of $Keyring and $Crypt. AES, DES, IDEA and Blowfish run their
// single-block transform through OpenSSL (ECB, no padding; DES, IDEA and
// Blowfish need the legacy provider, and without it setup raises "not
// implemented"); the chaining is done here so that it is Inferno's: CBC
// keeps the chaining vector in the state across calls; AES XORs a final
// partial block with the encrypted chaining vector, in either direction,
// while DES, IDEA and Blowfish leave a buffer whose length is not a whole
// number of blocks untouched. A nil state or buffer does nothing, and setup
// answers nil for a key or chaining vector of the wrong size. RC4 is
// written here: rc4back runs the generator backwards, which OpenSSL cannot.
#include <openssl/evp.h>

#include <array>
#include <cstring>
#include <numeric>

#include "crypto_objects.h"

namespace dis::vm {

namespace {

constexpr std::int32_t kEncrypt = 0;  // keyring.m's Encrypt; Decrypt is 1

struct BlockCipher : HostObject {
  BlockCipher() = default;
  BlockCipher(const BlockCipher&) = delete;
  BlockCipher& operator=(const BlockCipher&) = delete;
  ~BlockCipher() override {
    EVP_CIPHER_CTX_free(enc);
    EVP_CIPHER_CTX_free(dec);
  }
  EVP_CIPHER_CTX* enc = nullptr;
  EVP_CIPHER_CTX* dec = nullptr;
  int bsize = 0;
  std::array<std::uint8_t, 16> ivec{};

  void block(std::uint8_t* b, bool encrypt) {
    std::uint8_t out[16];
    int len = 0;
    EVP_CipherUpdate(encrypt ? enc : dec, out, &len, b, bsize);
    std::memcpy(b, out, static_cast<std::size_t>(bsize));
  }
};

struct Spec {
  CryptoKind kind;
  int bsize;
};

EVP_CIPHER_CTX* keyed(CryptoState& s, const char* name, const std::uint8_t* key, int klen,
                      bool encrypt) {
  EVP_CIPHER* ci = EVP_CIPHER_fetch(s.libctx(), name, nullptr);
  EVP_CIPHER_CTX* ctx = ci ? EVP_CIPHER_CTX_new() : nullptr;
  bool ok = ctx && EVP_CipherInit_ex2(ctx, ci, nullptr, nullptr, encrypt ? 1 : 0, nullptr) == 1 &&
            EVP_CIPHER_CTX_set_key_length(ctx, klen) == 1 &&
            EVP_CipherInit_ex2(ctx, nullptr, key, nullptr, -1, nullptr) == 1 &&
            EVP_CIPHER_CTX_set_padding(ctx, 0) == 1;
  EVP_CIPHER_free(ci);
  if (!ok) {
    EVP_CIPHER_CTX_free(ctx);
    return nullptr;
  }
  return ctx;
}

// key at 32, ivec at 36; nil when the key's length does not suit.
void setup(Call& c, CryptoState& s, const Spec& sp, const char* name, int klen) {
  std::int32_t have = 0, ivlen = 0;
  std::uint8_t* key = bytes_arg(c, 32, have);
  std::uint8_t* iv = bytes_arg(c, 36, ivlen);
  if (key == nullptr || have < klen || klen <= 0 || (iv && ivlen < sp.bsize)) return c.ret_ptr(H);
  auto b = std::make_unique<BlockCipher>();
  b->bsize = sp.bsize;
  b->enc = keyed(s, name, key, klen, true);
  b->dec = b->enc ? keyed(s, name, key, klen, false) : nullptr;
  if (!b->dec) throw Unavailable{std::string(name) + " is not in this OpenSSL"};
  if (iv) std::memcpy(b->ivec.data(), iv, static_cast<std::size_t>(sp.bsize));
  c.ret_ptr(s.make(c, sp.kind, std::move(b)));
}

void aessetup(Call& c, CryptoState& s) {
  std::int32_t n = 0;
  bytes_arg(c, 32, n);
  const char* name = n == 16   ? "AES-128-ECB"
                     : n == 24 ? "AES-192-ECB"
                     : n == 32 ? "AES-256-ECB"
                               : "";
  if (!*name) return c.ret_ptr(H);
  setup(c, s, {CryptoKind::AES, 16}, name, n);
}
void dessetup(Call& c, CryptoState& s) { setup(c, s, {CryptoKind::DES, 8}, "DES-ECB", 8); }
void ideasetup(Call& c, CryptoState& s) { setup(c, s, {CryptoKind::IDEA, 8}, "IDEA-ECB", 16); }
void blowfishsetup(Call& c, CryptoState& s) {
  std::int32_t n = 0;
  bytes_arg(c, 32, n);
  setup(c, s, {CryptoKind::BF, 8}, "BF-ECB", std::min(n, 56));
}

// The arguments of an ECB or CBC call: state at 32, buf at 36, n at 40
// (clipped to the array), direction at 44; b is null when there is nothing
// to do (nil state or buffer, or a partial block where only AES takes one).
struct CipherArgs {
  BlockCipher* b;
  std::uint8_t* p;
  std::int32_t n;
  bool encrypt;
};
CipherArgs cipher_args(Call& c, CryptoState& s, CryptoKind kind) {
  auto* b = static_cast<BlockCipher*>(s.maybe(c, 32, kind));
  std::int32_t len = 0;
  std::uint8_t* p = bytes_arg(c, 36, len);
  std::int32_t n = std::max(0, std::min(c.arg_int(40), len));
  if (!p || (b && kind != CryptoKind::AES && n % b->bsize != 0)) b = nullptr;
  return {b, p, n, c.arg_int(44) == kEncrypt};
}

template <CryptoKind K>
void ecb(Call& c, CryptoState& s) {
  auto [b, p, n, encrypt] = cipher_args(c, s, K);
  if (!b) return;
  for (; n >= b->bsize; n -= b->bsize, p += b->bsize) b->block(p, encrypt);
}

template <CryptoKind K>
void cbc(Call& c, CryptoState& s) {
  auto [bp, p, n, encrypt] = cipher_args(c, s, K);
  if (!bp) return;
  BlockCipher& b = *bp;
  const auto bs = static_cast<std::size_t>(b.bsize);
  for (; n >= b.bsize; n -= b.bsize, p += b.bsize) {
    if (encrypt) {
      for (std::size_t i = 0; i < bs; ++i) p[i] ^= b.ivec[i];
      b.block(p, true);
      std::memcpy(b.ivec.data(), p, bs);
    } else {
      std::uint8_t saved[16];
      std::memcpy(saved, p, bs);
      b.block(p, false);
      for (std::size_t i = 0; i < bs; ++i) p[i] ^= b.ivec[i];
      std::memcpy(b.ivec.data(), saved, bs);
    }
  }
  if (n > 0) {
    b.block(b.ivec.data(), true);
    for (std::int32_t i = 0; i < n; ++i) p[i] ^= b.ivec[static_cast<std::size_t>(i)];
  }
}

struct Rc4 : HostObject {
  std::array<std::uint8_t, 256> S{};
  std::uint8_t i = 0, j = 0;
  std::uint8_t next() {
    ++i;
    j = static_cast<std::uint8_t>(j + S[i]);
    std::swap(S[i], S[j]);
    return S[static_cast<std::uint8_t>(S[i] + S[j])];
  }
  void back() {
    std::swap(S[i], S[j]);
    j = static_cast<std::uint8_t>(j - S[i]);
    --i;
  }
};

void rc4setup(Call& c, CryptoState& s) {
  std::int32_t n = 0;
  std::uint8_t* seed = bytes_arg(c, 32, n);
  if (!seed || n <= 0) return c.ret_ptr(H);
  auto r = std::make_unique<Rc4>();
  std::iota(r->S.begin(), r->S.end(), std::uint8_t{0});
  std::uint8_t j = 0;
  for (std::size_t k = 0; k < 256; ++k) {
    j = static_cast<std::uint8_t>(j + r->S[k] + seed[k % static_cast<std::size_t>(n)]);
    std::swap(r->S[k], r->S[j]);
  }
  c.ret_ptr(s.make(c, CryptoKind::RC4, std::move(r)));
}
void rc4(Call& c, CryptoState& s) {
  auto* r = static_cast<Rc4*>(s.maybe(c, 32, CryptoKind::RC4));
  std::int32_t len = 0;
  std::uint8_t* p = bytes_arg(c, 36, len);
  std::int32_t n = std::max(0, std::min(c.arg_int(40), len));
  if (r && p)
    for (std::int32_t k = 0; k < n; ++k) p[k] ^= r->next();
}
void rc4skip(Call& c, CryptoState& s) {
  if (auto* r = static_cast<Rc4*>(s.maybe(c, 32, CryptoKind::RC4)))
    for (std::int32_t k = c.arg_int(36); k > 0; --k) r->next();
}
void rc4back(Call& c, CryptoState& s) {
  if (auto* r = static_cast<Rc4*>(s.maybe(c, 32, CryptoKind::RC4)))
    for (std::int32_t k = c.arg_int(36); k > 0; --k) r->back();
}

}  // namespace

void add_cipher_functions(Impls& impls, const std::shared_ptr<CryptoState>& s,
                          std::string_view path) {
  add_crypto_functions(impls, s, path,
                       {
                           {"aessetup", aessetup},
                           {"aescbc", cbc<CryptoKind::AES>},
                           {"dessetup", dessetup},
                           {"desecb", ecb<CryptoKind::DES>},
                           {"descbc", cbc<CryptoKind::DES>},
                           {"ideasetup", ideasetup},
                           {"ideaecb", ecb<CryptoKind::IDEA>},
                           {"ideacbc", cbc<CryptoKind::IDEA>},
                           {"blowfishsetup", blowfishsetup},
                           {"blowfishcbc", cbc<CryptoKind::BF>},
                           {"rc4setup", rc4setup},
                           {"rc4", rc4},
                           {"rc4skip", rc4skip},
                           {"rc4back", rc4back},
                       });
}

}  // namespace dis::vm
