#include "crypto_objects.h"

#include <openssl/provider.h>

#include <new>

#include "unfinished.h"

namespace dis::vm {

namespace {

constexpr const char* kTypeNames[] = {"Keyring.IPint",    "Keyring.DigestState", "Keyring.AESstate",
                                      "Keyring.DESstate", "Keyring.IDEAstate",   "Keyring.BFstate",
                                      "Keyring.RC4state"};
constexpr std::uint32_t kHandleOffset = 4;  // after the adts' visible `x: int`

}  // namespace

CryptoState::CryptoState() {
  libctx_ = OSSL_LIB_CTX_new();
  if (libctx_) {
    default_ = OSSL_PROVIDER_load(libctx_, "default");
    legacy_ = OSSL_PROVIDER_load(libctx_, "legacy");  // absent: MD4, DES, Blowfish raise
  }
}

CryptoState::~CryptoState() {
  objects_.clear();
  if (legacy_) OSSL_PROVIDER_unload(legacy_);
  if (default_) OSSL_PROVIDER_unload(default_);
  if (libctx_) OSSL_LIB_CTX_free(libctx_);
}

void CryptoState::add_types(VM& vm) {
  for (int k = 0; k < static_cast<int>(CryptoKind::Count); ++k) {
    TypeInfo t;
    t.size = 8;
    t.name = kTypeNames[k];
    // The callback may run at heap teardown, after the modules' closures
    // are gone: it keeps the state alive itself.
    t.on_free = [self = shared_from_this()](std::uint8_t* data) {
      self->release(ld<std::uint32_t>(data + kHandleOffset));
      st<std::uint32_t>(data + kHandleOffset, 0xFFFFFFFFu);
    };
    types_[k] = vm.heap().add_type(std::move(t));
  }
}

Ptr CryptoState::make(Call& c, CryptoKind kind, std::unique_ptr<HostObject> obj) {
  // The Dis object first: if the heap is full, nothing is left behind.
  Unfinished p(c.heap(), c.heap().new_object(types_[static_cast<int>(kind)]));
  std::uint8_t* d = c.heap().cage().at(p.get());
  // No handle yet: freed now (the host table's growth throwing), it
  // releases nothing.
  st<std::uint32_t>(d + kHandleOffset, 0xFFFFFFFFu);
  std::uint32_t h;
  if (!free_.empty()) {
    h = free_.back();
    free_.pop_back();
    objects_[h] = std::move(obj);
  } else {
    h = static_cast<std::uint32_t>(objects_.size());
    objects_.push_back(std::move(obj));
  }
  st<std::int32_t>(d, 0);
  st<std::uint32_t>(d + kHandleOffset, h);
  return p.done();
}

void CryptoState::release(std::uint32_t handle) {
  if (handle >= objects_.size() || !objects_[handle]) return;
  objects_[handle].reset();
  free_.push_back(handle);
}

HostObject* CryptoState::maybe(Call& c, std::uint32_t off, CryptoKind kind) {
  return object(c, c.arg_ptr(off), kind);
}

HostObject* CryptoState::object(Call& c, Ptr p, CryptoKind kind) {
  if (p == H) return nullptr;
  BlockHeader* h = c.heap().checked_header(p);
  if (!h) c.raise("dereference of nil");
  if (h->type != types_[static_cast<int>(kind)]) c.raise("type mismatch");
  std::uint32_t handle = ld<std::uint32_t>(c.heap().cage().at(p) + kHandleOffset);
  if (handle >= objects_.size() || !objects_[handle]) c.raise("dereference of nil");
  return objects_[handle].get();
}

HostObject& CryptoState::at(Call& c, std::uint32_t off, CryptoKind kind) {
  HostObject* o = maybe(c, off, kind);
  if (!o) c.raise("dereference of nil");
  return *o;
}

const BIGNUM* ipint_arg(Call& c, CryptoState& s, std::uint32_t off) {
  return static_cast<IPintObject&>(s.at(c, off, CryptoKind::IPint)).bn.get();
}

const BIGNUM* ipint_at(Call& c, CryptoState& s, Ptr p) {
  HostObject* o = s.object(c, p, CryptoKind::IPint);
  if (!o) c.raise("dereference of nil");
  return static_cast<IPintObject*>(o)->bn.get();
}

Ptr new_ipint(Call& c, CryptoState& s, Bn v) {
  return s.make(c, CryptoKind::IPint, std::make_unique<IPintObject>(std::move(v)));
}

Bn new_bn() {
  Bn b(BN_new());
  if (!b) throw std::bad_alloc();
  return b;
}

BnCtx new_ctx() {
  BnCtx c(BN_CTX_new());
  if (!c) throw std::bad_alloc();
  return c;
}

Bn copy_bn(const BIGNUM* b) {
  Bn r(BN_dup(b));
  if (!r) throw std::bad_alloc();
  return r;
}

std::uint8_t* bytes_arg(Call& c, std::uint32_t off, std::int32_t& len) {
  Ptr a = c.arg_ptr(off);
  if (a == H) {
    len = 0;
    return nullptr;
  }
  len = 1 << 30;
  return array_bytes(c, a, len);
}

void add_crypto_functions(Impls& impls, const std::shared_ptr<CryptoState>& s,
                          std::string_view path, CryptoTable table) {
  for (auto [name, f] : table)
    impls[name] = with_crypto(s, f, std::string(path) + "->" + std::string(name));
}

}  // namespace dis::vm
