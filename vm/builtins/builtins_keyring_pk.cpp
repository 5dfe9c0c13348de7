// $Keyring's public-key adts on BIGNUM: RSA (RSApk, RSAsk, RSAsig),
// Elgamal (EGpk, EGsk, EGsig) and DSA (DSApk, DSAsk, DSAsig), as Inferno's
// libsec computes them on an IPint message m (the caller hashes): RSA
// signs with m^d mod n; Elgamal signs (r, s) = (g^k, (m - x r) / k mod p-1)
// and DSA (r, s) = ((g^k mod p) mod q, (m + x r) / k mod q) for a random k.
// The adts are ordinary Dis records: keys made by Dis code work as well.
// $Crypt's pick adts (PK.RSA, SK.Elgamal, PKsig.DSA...) are the same
// records behind a tag word, and its sign/verify/genSK dispatch on it.
// Also dhparams (a safe prime and generator) and $IPints' DSAprimes.
#include <openssl/core_names.h>
#include <openssl/dsa.h>
#include <openssl/evp.h>

#include "crypto_objects.h"
#include "unfinished.h"

namespace dis::vm {

namespace {

// A record's heap type and, for a variant of $Crypt's pick adts, its tag
// (the word before the fields).
struct Rec {
  std::uint32_t type;
  std::int32_t tag;  // -1: a plain adt
};
// The records of one module: $Keyring's adts, or $Crypt's pick variants
// PK.RSA... whose fields start one word in (`base`).
struct PkTypes {
  Rec rsapk, rsask, rsasig, egpk, egsk, egsig, dsapk, dsask, dsasig;
  int base;
};
constexpr std::int32_t kRSA = 0, kElgamal = 1, kDSA = 2;  // crypt.m's pick order

Rec record_type(VM& vm, int fields, const char* name, std::int32_t tag = -1) {
  const int skip = tag < 0 ? 0 : 1;
  std::uint32_t bits = ((1u << fields) - 1) << (8 - fields - skip);
  return {vm.heap().add_type(4 * (fields + skip), {static_cast<std::uint8_t>(bits)}, name), tag};
}

Ptr new_record(Call& c, Rec r) {
  Ptr p = c.heap().new_object(r.type);
  if (r.tag >= 0) st<std::int32_t>(c.heap().cage().at(p), r.tag);
  return p;
}
std::uint8_t* record_data(Call& c, Ptr r) {
  if (r == H || !c.heap().checked_header(r)) c.raise("dereference of nil");
  return c.heap().cage().at(r);
}
std::int32_t tag_of(Call& c, Ptr r) { return ld<std::int32_t>(record_data(c, r)); }
// Field i of record r (after the tag, if any) takes over `owned`.
void set_field(Call& c, const PkTypes& t, Ptr r, int i, Ptr owned) {
  st<Ptr>(c.heap().cage().at(r) + 4 * (t.base + i), owned);
}
Ptr field(Call& c, const PkTypes& t, Ptr r, int i) {
  return ld<Ptr>(record_data(c, r) + 4 * (t.base + i));
}
const BIGNUM* bn_field(Call& c, CryptoState& s, const PkTypes& t, Ptr r, int i) {
  return ipint_at(c, s, field(c, t, r, i));
}
void set_bn(Call& c, CryptoState& s, const PkTypes& t, Ptr r, int i, Bn v) {
  set_field(c, t, r, i, new_ipint(c, s, std::move(v)));
}

// A record of IPint fields (public keys, signatures), in order.
template <class... B>
Ptr bn_record(Call& c, CryptoState& s, const PkTypes& t, Rec type, B... fields) {
  Unfinished r(c.heap(), new_record(c, type));
  int i = 0;
  (set_bn(c, s, t, r.get(), i++, std::move(fields)), ...);
  return r.done();
}
// The {pk, secret} of a secret key.
Ptr secret_key(Call& c, CryptoState& s, const PkTypes& t, Rec type, Ptr pk, Bn secret) {
  Unfinished owned_pk(c.heap(), pk);
  Unfinished r(c.heap(), new_record(c, type));
  set_field(c, t, r.get(), 0, owned_pk.done());
  set_bn(c, s, t, r.get(), 1, std::move(secret));
  return r.done();
}

Bn mod_exp(const BIGNUM* b, const BIGNUM* e, const BIGNUM* m) {
  Bn r = new_bn();
  BN_mod_exp(r.get(), b, e, m, new_ctx().get());
  return r;
}

// m^e mod n for RSApk k: the encryption and the verifier's check.
void rsa_encrypt(Call& c, CryptoState& s, const PkTypes& t) {
  Ptr k = c.arg_ptr(32);
  c.ret_ptr(new_ipint(
      c, s, mod_exp(ipint_arg(c, s, 36), bn_field(c, s, t, k, 1), bn_field(c, s, t, k, 0))));
}
void rsa_verify(Call& c, CryptoState& s, const PkTypes& t) {
  Ptr k = c.arg_ptr(32);
  Bn v = mod_exp(bn_field(c, s, t, c.arg_ptr(36), 0), bn_field(c, s, t, k, 1),
                 bn_field(c, s, t, k, 0));
  c.ret_int(BN_cmp(v.get(), ipint_arg(c, s, 40)) == 0 ? 1 : 0);
}
Bn rsa_private(Call& c, CryptoState& s, const PkTypes& t) {
  Ptr k = c.arg_ptr(32);
  return mod_exp(ipint_arg(c, s, 36), bn_field(c, s, t, k, 1),
                 bn_field(c, s, t, field(c, t, k, 0), 0));
}
void rsa_decrypt(Call& c, CryptoState& s, const PkTypes& t) {
  c.ret_ptr(new_ipint(c, s, rsa_private(c, s, t)));
}

// An RSAsk from its primes and exponents, with the CRT values; nil when
// p q is not n or e d is not 1 modulo (p-1)(q-1).
Ptr rsa_key(Call& c, CryptoState& s, const PkTypes& t, const BIGNUM* n, const BIGNUM* e,
            const BIGNUM* d, const BIGNUM* p, const BIGNUM* q) {
  BnCtx ctx = new_ctx();
  Bn pq = new_bn(), p1 = copy_bn(p), q1 = copy_bn(q), phi = new_bn(), ed = new_bn();
  BN_mul(pq.get(), p, q, ctx.get());
  BN_sub_word(p1.get(), 1);
  BN_sub_word(q1.get(), 1);
  BN_mul(phi.get(), p1.get(), q1.get(), ctx.get());
  BN_mod_mul(ed.get(), e, d, phi.get(), ctx.get());
  if (BN_cmp(pq.get(), n) != 0 || !BN_is_one(ed.get())) return H;
  Bn kp = new_bn(), kq = new_bn(), c2 = new_bn();
  BN_mod(kp.get(), d, p1.get(), ctx.get());
  BN_mod(kq.get(), d, q1.get(), ctx.get());
  if (!BN_mod_inverse(c2.get(), p, q, ctx.get())) return H;
  Bn dc = copy_bn(d);
  Ptr pk = bn_record(c, s, t, t.rsapk, copy_bn(n), copy_bn(e));
  Unfinished sk(c.heap(), secret_key(c, s, t, t.rsask, pk, std::move(dc)));
  set_bn(c, s, t, sk.get(), 2, copy_bn(p));
  set_bn(c, s, t, sk.get(), 3, copy_bn(q));
  set_bn(c, s, t, sk.get(), 4, std::move(kp));
  set_bn(c, s, t, sk.get(), 5, std::move(kq));
  set_bn(c, s, t, sk.get(), 6, std::move(c2));
  return sk.done();
}

// gen(nlen, elen, nrep): e is 65537, or random of elen bits when elen > 0.
Ptr rsa_generate(Call& c, CryptoState& s, const PkTypes& t, std::int32_t nlen, std::int32_t elen) {
  if (nlen < 16) c.raise("RSAsk.gen: modulus too small");
  for (;;) {
    Bn p = generate_prime(c, nlen / 2, false), q = generate_prime(c, nlen - nlen / 2, false);
    if (BN_cmp(p.get(), q.get()) == 0) continue;
    BnCtx ctx = new_ctx();
    Bn n = new_bn(), phi = new_bn(), p1 = copy_bn(p.get()), q1 = copy_bn(q.get());
    BN_mul(n.get(), p.get(), q.get(), ctx.get());
    BN_sub_word(p1.get(), 1);
    BN_sub_word(q1.get(), 1);
    BN_mul(phi.get(), p1.get(), q1.get(), ctx.get());
    Bn e = new_bn(), d = new_bn();
    BN_set_word(e.get(), 65537);
    if (elen > 1 && !BN_rand(e.get(), elen, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ODD))
      c.raise("RSAsk.gen: no random bits");
    if (!BN_mod_inverse(d.get(), e.get(), phi.get(), ctx.get())) continue;
    Ptr sk = rsa_key(c, s, t, n.get(), e.get(), d.get(), p.get(), q.get());
    if (sk != H) return sk;
  }
}
void rsa_gen(Call& c, CryptoState& s, const PkTypes& t) {
  c.ret_ptr(rsa_generate(c, s, t, c.arg_int(32), c.arg_int(36)));
}
void rsa_fill(Call& c, CryptoState& s, const PkTypes& t) {
  c.ret_ptr(rsa_key(c, s, t, ipint_arg(c, s, 32), ipint_arg(c, s, 36), ipint_arg(c, s, 40),
                    ipint_arg(c, s, 44), ipint_arg(c, s, 48)));
}
void rsa_sign(Call& c, CryptoState& s, const PkTypes& t) {
  c.ret_ptr(bn_record(c, s, t, t.rsasig, rsa_private(c, s, t)));
}

// A random k in [1, bound) with gcd(k, bound) = 1 (coprime: Elgamal).
Bn random_unit(Call& c, const BIGNUM* bound, bool coprime) {
  BnCtx ctx = new_ctx();
  Bn g = new_bn();
  for (;;) {
    Bn k = random_below(c, bound);
    if (BN_is_zero(k.get())) continue;
    if (!coprime) return k;
    BN_gcd(g.get(), k.get(), bound, ctx.get());
    if (BN_is_one(g.get())) return k;
  }
}

// Elgamal: pk {p, alpha, key}, sk {pk, secret}, sig {r, s}.
// A new secret in the group of p and alpha.
Ptr eg_key(Call& c, CryptoState& s, const PkTypes& t, Bn p, Bn alpha) {
  Bn p1 = copy_bn(p.get());
  BN_sub_word(p1.get(), 1);
  Bn secret = random_unit(c, p1.get(), false);
  Bn key = mod_exp(alpha.get(), secret.get(), p.get());
  Ptr pk = bn_record(c, s, t, t.egpk, std::move(p), std::move(alpha), std::move(key));
  return secret_key(c, s, t, t.egsk, pk, std::move(secret));
}
Ptr eg_generate(Call& c, CryptoState& s, const PkTypes& t, std::int32_t nbits) {
  auto [p, alpha] = safe_prime_and_generator(c, nbits);
  return eg_key(c, s, t, std::move(p), std::move(alpha));
}
void eg_gen(Call& c, CryptoState& s, const PkTypes& t) {
  c.ret_ptr(eg_generate(c, s, t, c.arg_int(32)));
}
void eg_sign(Call& c, CryptoState& s, const PkTypes& t) {
  Ptr sk = c.arg_ptr(32), pk = field(c, t, sk, 0);
  const BIGNUM *p = bn_field(c, s, t, pk, 0), *alpha = bn_field(c, s, t, pk, 1);
  const BIGNUM *x = bn_field(c, s, t, sk, 1), *m = ipint_arg(c, s, 36);
  BnCtx ctx = new_ctx();
  Bn p1 = copy_bn(p);
  BN_sub_word(p1.get(), 1);
  Bn k = random_unit(c, p1.get(), true);
  Bn r = mod_exp(alpha, k.get(), p), kinv = new_bn(), xr = new_bn(), sv = new_bn();
  BN_mod_inverse(kinv.get(), k.get(), p1.get(), ctx.get());
  BN_mod_mul(xr.get(), x, r.get(), p1.get(), ctx.get());
  BN_mod_sub(sv.get(), m, xr.get(), p1.get(), ctx.get());
  BN_mod_mul(sv.get(), sv.get(), kinv.get(), p1.get(), ctx.get());
  c.ret_ptr(bn_record(c, s, t, t.egsig, std::move(r), std::move(sv)));
}
// alpha^m = key^r r^s (mod p), with 0 < r < p.
void eg_verify(Call& c, CryptoState& s, const PkTypes& t) {
  Ptr pk = c.arg_ptr(32), sig = c.arg_ptr(36);
  const BIGNUM *p = bn_field(c, s, t, pk, 0), *alpha = bn_field(c, s, t, pk, 1);
  const BIGNUM *key = bn_field(c, s, t, pk, 2), *r = bn_field(c, s, t, sig, 0);
  const BIGNUM *sv = bn_field(c, s, t, sig, 1), *m = ipint_arg(c, s, 40);
  if (BN_is_zero(r) || BN_is_negative(r) || BN_cmp(r, p) >= 0) return c.ret_int(0);
  BnCtx ctx = new_ctx();
  Bn left = mod_exp(alpha, m, p), right = mod_exp(key, r, p), rs = mod_exp(r, sv, p);
  BN_mod_mul(right.get(), right.get(), rs.get(), p, ctx.get());
  c.ret_int(BN_cmp(left.get(), right.get()) == 0 ? 1 : 0);
}

// DSA domain parameters of 1024 and 160 bits from OpenSSL (FIPS 186),
// with the seed they came from: p, q, g, seed. Runs released.
struct DsaParams {
  Bn p, q, g;
  std::string seed;
};
DsaParams dsa_params(Call& c, CryptoState& s) {
  DsaParams out;
  bool ok = false;
  c.blocking([&] {
    EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(s.libctx(), "DSA", nullptr);
    EVP_PKEY* params = nullptr;
    BIGNUM *p = nullptr, *q = nullptr, *g = nullptr;
    unsigned char seed[64];
    std::size_t seedlen = 0;
    ok = ctx && EVP_PKEY_paramgen_init(ctx) == 1 &&
         EVP_PKEY_CTX_set_dsa_paramgen_bits(ctx, 1024) == 1 &&
         EVP_PKEY_CTX_set_dsa_paramgen_q_bits(ctx, 160) == 1 &&
         EVP_PKEY_paramgen(ctx, &params) == 1 &&
         EVP_PKEY_get_bn_param(params, OSSL_PKEY_PARAM_FFC_P, &p) == 1 &&
         EVP_PKEY_get_bn_param(params, OSSL_PKEY_PARAM_FFC_Q, &q) == 1 &&
         EVP_PKEY_get_bn_param(params, OSSL_PKEY_PARAM_FFC_G, &g) == 1;
    if (ok)
      EVP_PKEY_get_octet_string_param(params, OSSL_PKEY_PARAM_FFC_SEED, seed, sizeof seed,
                                      &seedlen);
    out.p.reset(p);
    out.q.reset(q);
    out.g.reset(g);
    out.seed.assign(reinterpret_cast<char*>(seed), seedlen);
    EVP_PKEY_free(params);
    EVP_PKEY_CTX_free(ctx);
  });
  if (!ok) throw Unavailable{"DSA parameter generation failed in this OpenSSL"};
  return out;
}

// gen(oldpk): a new secret in the old key's group, or in a new group.
Ptr dsa_generate(Call& c, CryptoState& s, const PkTypes& t, Ptr old) {
  Bn p, q, g;
  if (old != H) {
    p = copy_bn(bn_field(c, s, t, old, 0));
    q = copy_bn(bn_field(c, s, t, old, 1));
    g = copy_bn(bn_field(c, s, t, old, 2));
  } else {
    DsaParams d = dsa_params(c, s);
    p = std::move(d.p);
    q = std::move(d.q);
    g = std::move(d.g);
  }
  Bn secret = random_unit(c, q.get(), false);
  Bn key = mod_exp(g.get(), secret.get(), p.get());
  Ptr pk = bn_record(c, s, t, t.dsapk, std::move(p), std::move(q), std::move(g), std::move(key));
  return secret_key(c, s, t, t.dsask, pk, std::move(secret));
}
void dsa_gen(Call& c, CryptoState& s, const PkTypes& t) {
  c.ret_ptr(dsa_generate(c, s, t, c.arg_ptr(32)));
}
void dsa_sign(Call& c, CryptoState& s, const PkTypes& t) {
  Ptr sk = c.arg_ptr(32), pk = field(c, t, sk, 0);
  const BIGNUM *p = bn_field(c, s, t, pk, 0), *q = bn_field(c, s, t, pk, 1);
  const BIGNUM *g = bn_field(c, s, t, pk, 2), *x = bn_field(c, s, t, sk, 1);
  const BIGNUM* m = ipint_arg(c, s, 36);
  BnCtx ctx = new_ctx();
  Bn r = new_bn(), sv = new_bn(), kinv = new_bn(), xr = new_bn();
  while (BN_is_zero(r.get()) || BN_is_zero(sv.get())) {
    Bn k = random_unit(c, q, false);
    Bn gk = mod_exp(g, k.get(), p);
    BN_nnmod(r.get(), gk.get(), q, ctx.get());
    BN_mod_inverse(kinv.get(), k.get(), q, ctx.get());
    BN_mod_mul(xr.get(), x, r.get(), q, ctx.get());
    BN_mod_add(sv.get(), m, xr.get(), q, ctx.get());
    BN_mod_mul(sv.get(), sv.get(), kinv.get(), q, ctx.get());
  }
  c.ret_ptr(bn_record(c, s, t, t.dsasig, std::move(r), std::move(sv)));
}
bool in_range(const BIGNUM* v, const BIGNUM* q) {
  return !BN_is_zero(v) && !BN_is_negative(v) && BN_cmp(v, q) < 0;
}
// (g^(m/s) key^(r/s) mod p) mod q = r, with 0 < r, s < q.
void dsa_verify(Call& c, CryptoState& s, const PkTypes& t) {
  Ptr pk = c.arg_ptr(32), sig = c.arg_ptr(36);
  const BIGNUM *p = bn_field(c, s, t, pk, 0), *q = bn_field(c, s, t, pk, 1);
  const BIGNUM *g = bn_field(c, s, t, pk, 2), *key = bn_field(c, s, t, pk, 3);
  const BIGNUM *r = bn_field(c, s, t, sig, 0), *sv = bn_field(c, s, t, sig, 1);
  const BIGNUM* m = ipint_arg(c, s, 40);
  if (!in_range(r, q) || !in_range(sv, q)) return c.ret_int(0);
  BnCtx ctx = new_ctx();
  Bn w = new_bn(), u1 = new_bn(), u2 = new_bn(), v = new_bn();
  if (!BN_mod_inverse(w.get(), sv, q, ctx.get())) return c.ret_int(0);
  BN_mod_mul(u1.get(), m, w.get(), q, ctx.get());
  BN_mod_mul(u2.get(), r, w.get(), q, ctx.get());
  Bn a = mod_exp(g, u1.get(), p), b = mod_exp(key, u2.get(), p);
  BN_mod_mul(v.get(), a.get(), b.get(), p, ctx.get());
  BN_nnmod(v.get(), v.get(), q, ctx.get());
  c.ret_int(BN_cmp(v.get(), r) == 0 ? 1 : 0);
}

// dhparams(nbits): (alpha, p), a generator and a safe prime.
void dhparams(Call& c, CryptoState& s) {
  auto [p, alpha] = safe_prime_and_generator(c, c.arg_int(32));
  c.ret_ptr(new_ipint(c, s, std::move(alpha)), 0);
  c.ret_ptr(new_ipint(c, s, std::move(p)), 4);
}

// $IPints' DSAprimes(): (q, p, seed).
void dsaprimes(Call& c, CryptoState& s) {
  DsaParams d = dsa_params(c, s);
  c.ret_ptr(new_ipint(c, s, std::move(d.q)), 0);
  c.ret_ptr(new_ipint(c, s, std::move(d.p)), 4);
  c.ret_ptr(array_of_bytes(c.heap(), d.seed.data(), d.seed.size()), 8);
}

using PkFn = void (*)(Call&, CryptoState&, const PkTypes&);

// $Crypt's generic sign and verify dispatch on the pick tag of their key.
template <PkFn Rsa, PkFn Elgamal, PkFn Dsa>
void by_tag(Call& c, CryptoState& s, const PkTypes& t) {
  const std::int32_t tag = tag_of(c, c.arg_ptr(32));
  (tag == kRSA ? Rsa : tag == kElgamal ? Elgamal : Dsa)(c, s, t);
}
// genSKfromPK(pk): a new secret in the key's group (Elgamal, DSA), or a
// new RSA key of the modulus' size.
void crypt_genskfrompk(Call& c, CryptoState& s, const PkTypes& t) {
  Ptr pk = c.arg_ptr(32);
  switch (tag_of(c, pk)) {
    case kRSA:
      return c.ret_ptr(rsa_generate(c, s, t, BN_num_bits(bn_field(c, s, t, pk, 0)), 0));
    case kElgamal:
      return c.ret_ptr(
          eg_key(c, s, t, copy_bn(bn_field(c, s, t, pk, 0)), copy_bn(bn_field(c, s, t, pk, 1))));
    default:
      return c.ret_ptr(dsa_generate(c, s, t, pk));
  }
}
void crypt_sktopk(Call& c, CryptoState&, const PkTypes& t) {
  Ptr pk = field(c, t, c.arg_ptr(32), 0);
  c.heap().incref(pk);
  c.ret_ptr(pk);
}
// genSK(algname, length): "rsa", "elgamal" or "dsa" (whose groups are
// fixed); nil for another name.
void crypt_gensk(Call& c, CryptoState& s, const PkTypes& t) {
  const std::string alg = c.arg_string(32);
  const std::int32_t length = c.arg_int(36);
  if (alg == "rsa")
    c.ret_ptr(rsa_generate(c, s, t, length, 0));
  else if (alg == "elgamal")
    c.ret_ptr(eg_generate(c, s, t, length));
  else if (alg == "dsa")
    c.ret_ptr(dsa_generate(c, s, t, H));
  else
    c.ret_ptr(H);
}

}  // namespace

RsaRecords add_public_key_functions(VM& vm, Impls& keyring, Impls& crypt,
                                    const std::shared_ptr<CryptoState>& s) {
  auto k = std::make_shared<PkTypes>(
      PkTypes{record_type(vm, 2, "Keyring.RSApk"), record_type(vm, 7, "Keyring.RSAsk"),
              record_type(vm, 1, "Keyring.RSAsig"), record_type(vm, 3, "Keyring.EGpk"),
              record_type(vm, 2, "Keyring.EGsk"), record_type(vm, 2, "Keyring.EGsig"),
              record_type(vm, 4, "Keyring.DSApk"), record_type(vm, 2, "Keyring.DSAsk"),
              record_type(vm, 2, "Keyring.DSAsig"), 0});
  auto p = std::make_shared<PkTypes>(PkTypes{
      record_type(vm, 2, "Crypt.PK.RSA", kRSA), record_type(vm, 7, "Crypt.SK.RSA", kRSA),
      record_type(vm, 1, "Crypt.PKsig.RSA", kRSA), record_type(vm, 3, "Crypt.PK.Elgamal", kElgamal),
      record_type(vm, 2, "Crypt.SK.Elgamal", kElgamal),
      record_type(vm, 2, "Crypt.PKsig.Elgamal", kElgamal), record_type(vm, 4, "Crypt.PK.DSA", kDSA),
      record_type(vm, 2, "Crypt.SK.DSA", kDSA), record_type(vm, 2, "Crypt.PKsig.DSA", kDSA), 1});
  auto bind = [&s](Impls& impls, const std::string& path, const std::shared_ptr<PkTypes>& t,
                   std::initializer_list<std::pair<std::string_view, PkFn>> fns) {
    for (auto [name, f] : fns)
      impls[name] = guarded(path + "->" + std::string(name), [s, t, f](Call& c) { f(c, *s, *t); });
  };
  bind(keyring, "$Keyring", k,
       {{"RSApk.encrypt", rsa_encrypt},
        {"RSApk.verify", rsa_verify},
        {"RSAsk.decrypt", rsa_decrypt},
        {"RSAsk.gen", rsa_gen},
        {"RSAsk.fill", rsa_fill},
        {"RSAsk.sign", rsa_sign},
        {"EGpk.verify", eg_verify},
        {"EGsk.gen", eg_gen},
        {"EGsk.sign", eg_sign},
        {"DSApk.verify", dsa_verify},
        {"DSAsk.gen", dsa_gen},
        {"DSAsk.sign", dsa_sign}});
  bind(crypt, "$Crypt", p,
       {{"rsaencrypt", rsa_encrypt},
        {"rsadecrypt", rsa_decrypt},
        {"rsagen", rsa_gen},
        {"rsafill", rsa_fill},
        {"eggen", eg_gen},
        {"dsagen", dsa_gen},
        {"sign", by_tag<rsa_sign, eg_sign, dsa_sign>},
        {"verify", by_tag<rsa_verify, eg_verify, dsa_verify>},
        {"sktopk", crypt_sktopk},
        {"genSKfromPK", crypt_genskfrompk},
        {"genSK", crypt_gensk}});
  add_crypto_functions(keyring, s, "$Keyring", {{"dhparams", dhparams}});
  add_crypto_functions(crypt, s, "$Crypt", {{"dhparams", dhparams}});
  return RsaRecords{
      [s, k](Call& c, const BIGNUM* n, const BIGNUM* e) {
        return bn_record(c, *s, *k, k->rsapk, copy_bn(n), copy_bn(e));
      },
      [s, k](Call& c, std::int32_t bits) { return rsa_generate(c, *s, *k, bits, 0); },
      [s, k](Call& c, const BIGNUM* n, const BIGNUM* e, const BIGNUM* d, const BIGNUM* p1,
             const BIGNUM* q) { return rsa_key(c, *s, *k, n, e, d, p1, q); }};
}

void add_dsa_primes(Impls& impls, const std::shared_ptr<CryptoState>& s) {
  add_crypto_functions(impls, s, "$IPints", {{"DSAprimes", dsaprimes}});
}

}  // namespace dis::vm
