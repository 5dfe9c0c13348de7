// What $Keyring, $Crypt and $IPints share: Dis objects whose real state
// (an OpenSSL big number, digest or cipher context) lives on the host. Each
// such object is an adt {x: int; hidden: int} of its own heap type: `hidden`
// indexes a host table, and freeing the object (count, collector or heap
// teardown) frees the host state. Arguments of the wrong type or nil raise,
// as Inferno's checks do.
#pragma once

#include <openssl/bn.h>
#include <openssl/types.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sys_fd.h"

namespace dis::vm {

// Host state behind one Dis object.
struct HostObject {
  virtual ~HostObject() = default;
};

struct BnFree {
  void operator()(BIGNUM* b) const { BN_free(b); }
};
using Bn = std::unique_ptr<BIGNUM, BnFree>;
struct BnCtxFree {
  void operator()(BN_CTX* c) const { BN_CTX_free(c); }
};
using BnCtx = std::unique_ptr<BN_CTX, BnCtxFree>;
BnCtx new_ctx();  // raises std::bad_alloc when OpenSSL cannot allocate

struct IPintObject : HostObject {
  explicit IPintObject(Bn v) : bn(std::move(v)) {}
  Bn bn;
};

enum class CryptoKind : std::uint8_t { IPint, Digest, AES, DES, IDEA, BF, RC4, Count };

class CryptoState : public std::enable_shared_from_this<CryptoState> {
 public:
  CryptoState();
  ~CryptoState();
  CryptoState(const CryptoState&) = delete;
  CryptoState& operator=(const CryptoState&) = delete;

  // Adds the heap types (once per VM, before the modules register); the
  // state must be owned by a shared_ptr.
  void add_types(VM& vm);
  // A new Dis object of `kind` owning `obj` (one reference, for ret_ptr).
  Ptr make(Call& c, CryptoKind kind, std::unique_ptr<HostObject> obj);
  // The host state of the object argument at frame offset `off`; raises
  // "dereference of nil" for nil and "type mismatch" for another type.
  HostObject& at(Call& c, std::uint32_t off, CryptoKind kind);
  // The same, or nullptr for nil.
  HostObject* maybe(Call& c, std::uint32_t off, CryptoKind kind);
  // The same for a pointer (a field of a record).
  HostObject* object(Call& c, Ptr p, CryptoKind kind);
  // A library context with the default and legacy providers (MD4, DES,
  // Blowfish); nullptr if OpenSSL could not make one.
  OSSL_LIB_CTX* libctx() const { return libctx_; }

 private:
  void release(std::uint32_t handle);
  std::uint32_t types_[static_cast<int>(CryptoKind::Count)] = {};
  std::vector<std::unique_ptr<HostObject>> objects_;
  std::vector<std::uint32_t> free_;
  OSSL_LIB_CTX* libctx_ = nullptr;
  OSSL_PROVIDER* default_ = nullptr;
  OSSL_PROVIDER* legacy_ = nullptr;
};

// The IPint argument at `off` (raises for nil), and a new IPint object.
const BIGNUM* ipint_arg(Call& c, CryptoState& s, std::uint32_t off);
const BIGNUM* ipint_at(Call& c, CryptoState& s, Ptr p);
Ptr new_ipint(Call& c, CryptoState& s, Bn v);
Bn new_bn();  // zero; raises std::bad_alloc when OpenSSL cannot allocate
Bn copy_bn(const BIGNUM* b);

// Prime search with the interpreter released: a prime of nbits (safe: p =
// 2q+1 with q prime), and a uniform value in [0, below).
Bn generate_prime(Call& c, std::int32_t nbits, bool safe);
Bn random_below(Call& c, const BIGNUM* below);
// A safe prime p of nbits and the least generator of its group.
std::pair<Bn, Bn> safe_prime_and_generator(Call& c, std::int32_t nbits);

// The byte array argument at `off`: host pointer and length (0 for nil).
std::uint8_t* bytes_arg(Call& c, std::uint32_t off, std::int32_t& len);

// Thrown by a builtin whose algorithm this OpenSSL lacks (IDEA, or the
// legacy provider's); the binding below raises "not implemented:
// $Module->fn (why)".
struct Unavailable {
  std::string why;
};

// Runs body(c) for the builtin `where` ("$Keyring->ideasetup"), turning
// Unavailable into "sys: not implemented: where (why)" and OpenSSL's
// allocation failures into "out of memory: where".
template <class Body>
NativeFn guarded(std::string where, Body body) {
  return [where = std::move(where), body](Call& c) {
    try {
      body(c);
    } catch (const Unavailable& u) {
      c.raise("sys: not implemented: " + where + " (" + u.why + ")");
    } catch (const std::bad_alloc&) {
      c.raise("out of memory: " + where);
    }
  };
}

// A builtin that uses the shared state, and one bound to it as `where`.
using CryptoFn = void (*)(Call&, CryptoState&);
inline NativeFn with_crypto(const std::shared_ptr<CryptoState>& s, CryptoFn f, std::string where) {
  return guarded(std::move(where), [s, f](Call& c) { f(c, *s); });
}

// The builtin groups, for module `path` ("$Keyring"). Only $Keyring's
// IPint.random takes (minbits, maxbits); $IPints' takes nbits.
using CryptoTable = std::initializer_list<std::pair<std::string_view, CryptoFn>>;
void add_crypto_functions(Impls& impls, const std::shared_ptr<CryptoState>& s,
                          std::string_view path, CryptoTable table);
void add_ipint_functions(Impls& impls, const std::shared_ptr<CryptoState>& s,
                         std::string_view path);
void add_prime_functions(Impls& impls, const std::shared_ptr<CryptoState>& s);
void add_digest_functions(Impls& impls, const std::shared_ptr<CryptoState>& s,
                          std::string_view path);
void add_cipher_functions(Impls& impls, const std::shared_ptr<CryptoState>& s,
                          std::string_view path);
// Inferno's iptostr/strtoip texts in base 2-36 or 64 (the magnitude's
// bytes); bn_parse gives nullptr when the text is no number.
std::string bn_text(const BIGNUM* b, int base);
Bn bn_parse(const std::string& s, int base);
// The digest `ha` ("md5", "sha1"...) of what `state` (H: nothing) has
// taken, then `extra`; the state itself is left as it was. Raises for an
// unknown algorithm or a state of another one.
std::vector<std::uint8_t> digest_with(Call& c, CryptoState& s, Ptr state, const std::string& ha,
                                      std::string_view extra);
// $Keyring's RSAsk records, made for the generic SK (builtins_keyring_pk.cpp):
// a new key of `bits`, or one from n, e, d, p and q (H when they do not
// make one); and an RSApk record of n and e.
struct RsaRecords {
  std::function<Ptr(Call&, const BIGNUM* n, const BIGNUM* e)> public_key;
  std::function<Ptr(Call&, std::int32_t bits)> generate;
  std::function<Ptr(Call&, const BIGNUM* n, const BIGNUM* e, const BIGNUM* d, const BIGNUM* p,
                    const BIGNUM* q)>
      fill;
};
// builtins_keyring_cert.cpp: SK, PK and Certificate for the "rsa" algorithm.
void add_certificate_functions(VM& vm, Impls& keyring, const std::shared_ptr<CryptoState>& s,
                               RsaRecords rsa);
// RSA, Elgamal and DSA: $Keyring's adts and $Crypt's pick adts, with
// dhparams (builtins_keyring_pk.cpp); adds their record types to the heap.
RsaRecords add_public_key_functions(VM& vm, Impls& keyring, Impls& crypt,
                                    const std::shared_ptr<CryptoState>& s);
void add_dsa_primes(Impls& impls, const std::shared_ptr<CryptoState>& s);  // $IPints
// $Keyring's getmsg, sendmsg and the other message functions.
void add_message_functions(Impls& impls, const std::shared_ptr<CryptoState>& s);

}  // namespace dis::vm
