// The digests (md4, md5, sha1, sha224..sha512) and HMACs of $Keyring and
// $Crypt with Inferno's incremental calls: `state` nil starts a digest, a
// state passed back continues it, buf[0:n] is added (n clipped to the
// array), and a non-nil `digest` receives the result, after which the state
// starts over. The state object is returned either way. Nil comes back for
// a nil buf with n != 0, a digest array shorter than the algorithm's, or
// (HMAC) a nil key or one over 64 bytes, as Inferno's checks.
#include <openssl/core_names.h>
#include <openssl/evp.h>

#include <cstring>

#include "crypto_objects.h"

namespace dis::vm {

namespace {

struct DigestObject : HostObject {
  DigestObject() = default;
  DigestObject(const DigestObject&) = delete;
  DigestObject& operator=(const DigestObject&) = delete;
  ~DigestObject() override {
    EVP_MD_CTX_free(md);
    EVP_MAC_CTX_free(mac);
  }
  const char* alg = "";
  EVP_MD_CTX* md = nullptr;    // a plain digest
  EVP_MAC_CTX* mac = nullptr;  // an HMAC
};

struct Algorithm {
  const char* name;  // OpenSSL's
  std::int32_t dlen;
};

[[noreturn]] void unavailable(const char* name) {
  throw Unavailable{std::string(name) + " is not in this OpenSSL"};
}

bool start_digest(CryptoState& s, DigestObject& d) {
  EVP_MD* md = EVP_MD_fetch(s.libctx(), d.alg, nullptr);
  bool ok = md && EVP_DigestInit_ex2(d.md, md, nullptr) == 1;
  EVP_MD_free(md);
  return ok;
}

bool start_hmac(DigestObject& d, const std::uint8_t* key, std::int32_t klen) {
  OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, const_cast<char*>(d.alg), 0),
      OSSL_PARAM_construct_end()};
  static const std::uint8_t kNoKey = 0;
  return EVP_MAC_init(d.mac, klen ? key : &kNoKey, static_cast<std::size_t>(klen), params) == 1;
}

// The state argument at `off`, or a new one (a Ptr carrying one reference).
Ptr state_for(Call& c, CryptoState& s, std::uint32_t off, const char* alg, bool hmac,
              DigestObject*& d) {
  auto* o = static_cast<DigestObject*>(s.maybe(c, off, CryptoKind::Digest));
  if (o) {
    if (std::strcmp(o->alg, alg) != 0 || (o->mac != nullptr) != hmac)
      c.raise(std::string("Keyring: digest state is not ") + alg);
    d = o;
    Ptr p = c.arg_ptr(off);
    c.heap().incref(p);
    return p;
  }
  auto fresh = std::make_unique<DigestObject>();
  fresh->alg = alg;
  d = fresh.get();
  return s.make(c, CryptoKind::Digest, std::move(fresh));
}

// buf at 32, n at 36; false when Inferno answers nil.
bool data_arg(Call& c, std::uint32_t off, std::uint8_t*& p, std::int32_t& n) {
  std::int32_t len = 0;
  p = bytes_arg(c, off, len);
  n = c.arg_int(off + 4);
  if (c.arg_ptr(off) == H) return n == 0;
  n = std::max(0, std::min(n, len));
  return true;
}

bool digest_out(Call& c, std::uint32_t off, std::int32_t dlen, std::uint8_t*& out) {
  std::int32_t len = 0;
  out = bytes_arg(c, off, len);
  return c.arg_ptr(off) == H || len >= dlen;
}

template <const Algorithm& A>
void digest(Call& c, CryptoState& s) {
  std::uint8_t *p, *out;
  std::int32_t n;
  if (!data_arg(c, 32, p, n) || !digest_out(c, 40, A.dlen, out)) return c.ret_ptr(H);
  DigestObject* d = nullptr;
  bool fresh = s.maybe(c, 44, CryptoKind::Digest) == nullptr;
  Ptr st = state_for(c, s, 44, A.name, false, d);
  if (fresh) {
    d->md = EVP_MD_CTX_new();
    if (!d->md || !start_digest(s, *d)) {
      c.heap().decref(st);
      unavailable(A.name);
    }
  }
  if (n > 0) EVP_DigestUpdate(d->md, p, static_cast<std::size_t>(n));
  if (out) {
    unsigned int len = 0;
    EVP_DigestFinal_ex(d->md, out, &len);
    start_digest(s, *d);
  }
  c.ret_ptr(st);  // last: a discarded result frees a fresh state
}

template <const Algorithm& A>
void hmac(Call& c, CryptoState& s) {
  std::uint8_t *p, *out;
  std::int32_t n, klen = 0;
  std::uint8_t* key = bytes_arg(c, 40, klen);
  if (!data_arg(c, 32, p, n) || c.arg_ptr(40) == H || klen > 64 || !digest_out(c, 44, A.dlen, out))
    return c.ret_ptr(H);
  DigestObject* d = nullptr;
  bool fresh = s.maybe(c, 48, CryptoKind::Digest) == nullptr;
  Ptr st = state_for(c, s, 48, A.name, true, d);
  if (fresh) {
    EVP_MAC* mac = EVP_MAC_fetch(s.libctx(), "HMAC", nullptr);
    d->mac = mac ? EVP_MAC_CTX_new(mac) : nullptr;
    EVP_MAC_free(mac);
    if (!d->mac || !start_hmac(*d, key, klen)) {
      c.heap().decref(st);
      unavailable(A.name);
    }
  }
  if (n > 0) EVP_MAC_update(d->mac, p, static_cast<std::size_t>(n));
  if (out) {
    std::size_t len = 0;
    EVP_MAC_final(d->mac, out, &len, static_cast<std::size_t>(A.dlen));
    start_hmac(*d, key, klen);
  }
  c.ret_ptr(st);
}

void digest_copy(Call& c, CryptoState& s) {
  auto& d = static_cast<DigestObject&>(s.at(c, 32, CryptoKind::Digest));
  auto copy = std::make_unique<DigestObject>();
  copy->alg = d.alg;
  if (d.md) {
    copy->md = EVP_MD_CTX_new();
    if (!copy->md || EVP_MD_CTX_copy_ex(copy->md, d.md) != 1) throw std::bad_alloc();
  } else if (d.mac) {
    copy->mac = EVP_MAC_CTX_dup(d.mac);
    if (!copy->mac) throw std::bad_alloc();
  }
  c.ret_ptr(s.make(c, CryptoKind::Digest, std::move(copy)));
}

constexpr Algorithm kMd4{"MD4", 16}, kMd5{"MD5", 16}, kSha1{"SHA1", 20}, kSha224{"SHA224", 28},
    kSha256{"SHA256", 32}, kSha384{"SHA384", 48}, kSha512{"SHA512", 64};

}  // namespace

std::vector<std::uint8_t> digest_with(Call& c, CryptoState& s, Ptr state, const std::string& ha,
                                      std::string_view extra) {
  // keyring.m's names for the hashes a certificate may use.
  const char* alg = ha == "sha1" || ha == "sha" ? "SHA1"
                    : ha == "md5"               ? "MD5"
                    : ha == "md4"               ? "MD4"
                    : ha == "sha256"            ? "SHA256"
                    : ha == "sha512"            ? "SHA512"
                                                : nullptr;
  if (!alg) c.raise("Keyring: unknown hash algorithm " + ha);
  DigestObject d;
  d.alg = alg;
  d.md = EVP_MD_CTX_new();
  if (!d.md) throw std::bad_alloc();
  if (state != H) {
    auto* o = static_cast<DigestObject*>(s.object(c, state, CryptoKind::Digest));
    if (!o->md || std::strcmp(o->alg, alg) != 0) c.raise("Keyring: digest state is not " + ha);
    // A copy: the caller's state stays as it was.
    if (EVP_MD_CTX_copy_ex(d.md, o->md) != 1) throw std::bad_alloc();
  } else if (!start_digest(s, d)) {
    unavailable(alg);
  }
  EVP_DigestUpdate(d.md, extra.data(), extra.size());
  std::vector<std::uint8_t> out(EVP_MAX_MD_SIZE);
  unsigned int len = 0;
  EVP_DigestFinal_ex(d.md, out.data(), &len);
  out.resize(len);
  return out;
}

void add_digest_functions(Impls& impls, const std::shared_ptr<CryptoState>& s,
                          std::string_view path) {
  add_crypto_functions(impls, s, path,
                       {
                           {"md4", digest<kMd4>},
                           {"md5", digest<kMd5>},
                           {"sha1", digest<kSha1>},
                           {"sha224", digest<kSha224>},
                           {"sha256", digest<kSha256>},
                           {"sha384", digest<kSha384>},
                           {"sha512", digest<kSha512>},
                           {"hmac_md5", hmac<kMd5>},
                           {"hmac_sha1", hmac<kSha1>},
                           {"DigestState.copy", digest_copy},
                       });
}

}  // namespace dis::vm
