// $Keyring's generic keys and certificates (SK, PK, Certificate, SigAlg)
// for the "rsa" algorithm: genSK, genSKfromPK, sktopk, sign, verify,
// signm, verifym and the text forms. Each key holds, after the fields Dis
// code sees (sa, owner), its RSAsk or RSApk record; a certificate holds
// its signature (an IPint) after sa, ha, signer and exp.
//
// As Inferno's keyring: sign hashes (with `ha`) what the digest state has
// taken, then "OWNER EXP", and signs that number with m^d mod n; verify
// recomputes it from the certificate's signer and expiry. The texts are
// lines: the algorithm, the owner (for a certificate: the hash, the signer
// and the expiry), then each number in base 64 (n, e; for a secret key
// also d, p, q, d mod p-1, d mod q-1, p^-1 mod q; for a certificate the
// signature). readauthinfo and writeauthinfo keep an Authinfo in a key
// file as Inferno's do.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "crypto_objects.h"
#include "dis_string.h"
#include "unfinished.h"

namespace dis::vm {

namespace {

struct CertTypes {
  std::uint32_t sigalg, pk, sk, cert, authinfo;
  RsaRecords rsa;
};

// The record at p of heap type `type`; raises for nil or another type.
std::uint8_t* rec(Call& c, Ptr p, std::uint32_t type) {
  BlockHeader* h = p == H ? nullptr : c.heap().checked_header(p);
  if (!h) c.raise("dereference of nil");
  if (h->type != type) c.raise("Keyring: key or certificate not made by $Keyring");
  return c.heap().cage().at(p);
}
Ptr word(std::uint8_t* r, int i) { return ld<Ptr>(r + 4 * i); }
void put(std::uint8_t* r, int i, Ptr owned) { st<Ptr>(r + 4 * i, owned); }
std::string text(Call& c, Ptr s) { return str_utf8(c.heap(), s); }

// A new record of `type` whose pointer fields take over what `fields` make,
// in order, each stored before the next is made: an allocation failing
// part way releases the record with them.
template <class... F>
Ptr make(Call& c, std::uint32_t type, F... fields) {
  Unfinished p(c.heap(), c.heap().new_object(type));
  std::uint8_t* r = c.heap().cage().at(p.get());  // the cage does not move
  int i = 0;
  ((put(r, i, fields()), ++i), ...);
  return p.done();
}
Ptr sigalg(Call& c, const CertTypes& t) {
  return make(c, t.sigalg, [&] { return c.new_string("rsa"); });
}
// A key record: sa, owner, its RSA record (taken over).
Ptr key(Call& c, const CertTypes& t, std::uint32_t type, const std::string& owner, Ptr rsa) {
  Unfinished owned_rsa(c.heap(), rsa);
  return make(
      c, type, [&] { return sigalg(c, t); }, [&] { return c.new_string(owner); },
      [&] { return owned_rsa.done(); });
}
// The RSA record behind a key, which Dis code cannot have made.
Ptr rsa_of(Call& c, std::uint8_t* k) {
  Ptr r = word(k, 2);
  if (r == H) c.raise("Keyring: key has no RSA key");
  return r;
}
const BIGNUM* num(Call& c, CryptoState& s, Ptr record, int i) {
  return ipint_at(c, s, word(c.heap().cage().at(record), i));
}

void gensk(Call& c, CryptoState&, const CertTypes& t) {
  const std::string alg = c.arg_string(32);
  if (alg == "elgamal" || alg == "dsa") throw Unavailable{alg + " keys: only rsa here"};
  if (alg != "rsa") return c.ret_ptr(H);
  const std::string owner = c.arg_string(36);
  c.ret_ptr(key(c, t, t.sk, owner, t.rsa.generate(c, c.arg_int(40))));
}

void genskfrompk(Call& c, CryptoState& s, const CertTypes& t) {
  std::uint8_t* pk = rec(c, c.arg_ptr(32), t.pk);
  const int bits = BN_num_bits(num(c, s, rsa_of(c, pk), 0));
  const std::string owner = c.arg_string(36);
  c.ret_ptr(key(c, t, t.sk, owner, t.rsa.generate(c, bits)));
}

void sktopk(Call& c, CryptoState&, const CertTypes& t) {
  std::uint8_t* sk = rec(c, c.arg_ptr(32), t.sk);
  const std::string owner = text(c, word(sk, 1));
  Ptr pk = word(c.heap().cage().at(rsa_of(c, sk)), 0);
  c.heap().incref(pk);
  c.ret_ptr(key(c, t, t.pk, owner, pk));
}

// The certificate for number m signed by secret key record sk.
Ptr certificate(Call& c, CryptoState& s, const CertTypes& t, std::uint8_t* sk, const BIGNUM* m,
                const std::string& ha, std::int32_t exp) {
  Ptr rsk = rsa_of(c, sk);
  const BIGNUM* n = num(c, s, word(c.heap().cage().at(rsk), 0), 0);
  if (BN_cmp(m, n) >= 0) c.raise("Keyring: key too small to sign with " + ha);
  Bn sig = new_bn();
  BN_mod_exp(sig.get(), m, num(c, s, rsk, 1), n, new_ctx().get());
  const std::string signer = text(c, word(sk, 1));
  Ptr cert = make(
      c, t.cert, [&] { return sigalg(c, t); }, [&] { return c.new_string(ha); },
      [&] { return c.new_string(signer); }, [] { return H; },
      [&] { return new_ipint(c, s, std::move(sig)); });
  st<std::int32_t>(c.heap().cage().at(cert) + 12, exp);
  return cert;
}

// The number a certificate signs: the digest of the state, then the
// signer and expiry.
Bn signed_number(Call& c, CryptoState& s, Ptr state, const std::string& ha,
                 const std::string& signer, std::int32_t exp) {
  std::vector<std::uint8_t> d = digest_with(c, s, state, ha, signer + " " + std::to_string(exp));
  Bn m = new_bn();
  BN_bin2bn(d.data(), static_cast<int>(d.size()), m.get());
  return m;
}

void sign(Call& c, CryptoState& s, const CertTypes& t) {
  std::uint8_t* sk = rec(c, c.arg_ptr(32), t.sk);
  const std::int32_t exp = c.arg_int(36);
  const std::string ha = c.arg_string(44);
  Bn m = signed_number(c, s, c.arg_ptr(40), ha, text(c, word(sk, 1)), exp);
  c.ret_ptr(certificate(c, s, t, sk, m.get(), ha, exp));
}

void signm(Call& c, CryptoState& s, const CertTypes& t) {
  std::uint8_t* sk = rec(c, c.arg_ptr(32), t.sk);
  c.ret_ptr(certificate(c, s, t, sk, ipint_arg(c, s, 36), c.arg_string(40), 0));
}

// Whether cert's signature, raised to pk's e, is m.
bool check(Call& c, CryptoState& s, std::uint8_t* pk, std::uint8_t* cert, const BIGNUM* m) {
  Ptr rpk = rsa_of(c, pk);
  Bn v = new_bn();
  BN_mod_exp(v.get(), ipint_at(c, s, word(cert, 4)), num(c, s, rpk, 1), num(c, s, rpk, 0),
             new_ctx().get());
  return BN_cmp(v.get(), m) == 0;
}

void verify(Call& c, CryptoState& s, const CertTypes& t) {
  std::uint8_t* pk = rec(c, c.arg_ptr(32), t.pk);
  std::uint8_t* cert = rec(c, c.arg_ptr(36), t.cert);
  Bn m = signed_number(c, s, c.arg_ptr(40), text(c, word(cert, 1)), text(c, word(cert, 2)),
                       ld<std::int32_t>(cert + 12));
  c.ret_int(check(c, s, pk, cert, m.get()) ? 1 : 0);
}

void verifym(Call& c, CryptoState& s, const CertTypes& t) {
  std::uint8_t* pk = rec(c, c.arg_ptr(32), t.pk);
  std::uint8_t* cert = rec(c, c.arg_ptr(36), t.cert);
  c.ret_int(check(c, s, pk, cert, ipint_arg(c, s, 40)) ? 1 : 0);
}

std::string b64(const BIGNUM* b) { return bn_text(b, 64) + "\n"; }

std::string pk_text(Call& c, CryptoState& s, std::uint8_t* pk) {
  Ptr r = rsa_of(c, pk);
  return "rsa\n" + text(c, word(pk, 1)) + "\n" + b64(num(c, s, r, 0)) + b64(num(c, s, r, 1));
}

std::string sk_text(Call& c, CryptoState& s, std::uint8_t* sk) {
  Ptr r = rsa_of(c, sk);
  Ptr pk = word(c.heap().cage().at(r), 0);
  std::string out =
      "rsa\n" + text(c, word(sk, 1)) + "\n" + b64(num(c, s, pk, 0)) + b64(num(c, s, pk, 1));
  for (int i = 1; i <= 6; ++i) out += b64(num(c, s, r, i));
  return out;
}

std::string cert_text(Call& c, CryptoState& s, std::uint8_t* cert) {
  return "rsa\n" + text(c, word(cert, 1)) + "\n" + text(c, word(cert, 2)) + "\n" +
         std::to_string(static_cast<std::uint32_t>(ld<std::int32_t>(cert + 12))) + "\n" +
         b64(ipint_at(c, s, word(cert, 4)));
}

// The fields of a key or certificate text (split at newlines and '^', as
// Inferno's): the algorithm must be "rsa" and at least n fields follow it.
bool fields_of(const std::string& str, std::size_t n, std::vector<std::string>& out) {
  std::size_t i = 0;
  while (i < str.size()) {
    std::size_t j = str.find_first_of("\n^", i);
    if (j == std::string::npos) j = str.size();
    if (j > i) out.push_back(str.substr(i, j - i));
    i = j + 1;
  }
  return out.size() >= n + 1 && out[0] == "rsa";
}

// The key or certificate a text holds; H when it holds none.
Ptr pk_from(Call& c, const CertTypes& t, const std::string& str) {
  std::vector<std::string> l;
  if (!fields_of(str, 3, l)) return H;
  Bn n = bn_parse(l[2], 64), e = bn_parse(l[3], 64);
  if (!n || !e) return H;
  return key(c, t, t.pk, l[1], t.rsa.public_key(c, n.get(), e.get()));
}

Ptr sk_from(Call& c, const CertTypes& t, const std::string& str) {
  std::vector<std::string> l;
  if (!fields_of(str, 9, l)) return H;
  Bn v[5];
  for (int i = 0; i < 5; ++i)
    if (!(v[i] = bn_parse(l[2 + i], 64))) return H;
  Ptr r = t.rsa.fill(c, v[0].get(), v[1].get(), v[2].get(), v[3].get(), v[4].get());
  return r == H ? H : key(c, t, t.sk, l[1], r);
}

Ptr cert_from(Call& c, CryptoState& s, const CertTypes& t, const std::string& str) {
  std::vector<std::string> l;
  if (!fields_of(str, 4, l)) return H;
  Bn sig = bn_parse(l[4], 64);
  char* end = nullptr;
  const unsigned long exp = std::strtoul(l[3].c_str(), &end, 10);
  if (!sig || *end) return H;
  Ptr cert = make(
      c, t.cert, [&] { return sigalg(c, t); }, [&] { return c.new_string(l[1]); },
      [&] { return c.new_string(l[2]); }, [] { return H; },
      [&] { return new_ipint(c, s, std::move(sig)); });
  st<std::int32_t>(c.heap().cage().at(cert) + 12, static_cast<std::int32_t>(exp));
  return cert;
}

void pktostr(Call& c, CryptoState& s, const CertTypes& t) {
  c.ret_string(pk_text(c, s, rec(c, c.arg_ptr(32), t.pk)));
}
void sktostr(Call& c, CryptoState& s, const CertTypes& t) {
  c.ret_string(sk_text(c, s, rec(c, c.arg_ptr(32), t.sk)));
}
void certtostr(Call& c, CryptoState& s, const CertTypes& t) {
  c.ret_string(cert_text(c, s, rec(c, c.arg_ptr(32), t.cert)));
}
void strtopk(Call& c, CryptoState&, const CertTypes& t) {
  c.ret_ptr(pk_from(c, t, c.arg_string(32)));
}
void strtosk(Call& c, CryptoState&, const CertTypes& t) {
  c.ret_ptr(sk_from(c, t, c.arg_string(32)));
}
void strtocert(Call& c, CryptoState& s, const CertTypes& t) {
  c.ret_ptr(cert_from(c, s, t, c.arg_string(32)));
}

// Authinfo {mysk, mypk, cert, spk, alpha, p} in a key file as Inferno
// writes it: five messages ("%4.4d\n" and the bytes), the signer's public
// key, the certificate, my secret key, then alpha and p in base 64.
void readauthinfo(Call& c, CryptoState& s, const CertTypes& t) {
  const std::string name = c.arg_string(32);
  std::ifstream in(c.host_path(resolve_path(c, name)), std::ios::binary);
  if (!in) {
    set_path_errstr(c, name, ENOENT);
    return c.ret_ptr(H);
  }
  std::string m[5];
  for (std::string& msg : m) {
    char header[5];
    if (!in.read(header, 5) || header[4] != '\n' || header[0] == '!') {
      c.set_error_string("'" + name + "': input or format error");
      return c.ret_ptr(H);
    }
    msg.resize(static_cast<std::size_t>(std::atoi(std::string(header, 4).c_str())));
    if (!in.read(msg.data(), static_cast<std::streamsize>(msg.size()))) {
      c.set_error_string("'" + name + "': input or format error");
      return c.ret_ptr(H);
    }
  }
  Heap& h = c.heap();
  Unfinished spk(h, pk_from(c, t, m[0]));
  Unfinished cert(h, cert_from(c, s, t, m[1]));
  Unfinished sk(h, sk_from(c, t, m[2]));
  Bn alpha = bn_parse(m[3], 64), p = bn_parse(m[4], 64);
  if (spk.get() == H || cert.get() == H || sk.get() == H || !alpha || !p) {
    c.set_error_string("input or format error");
    return c.ret_ptr(H);
  }
  std::uint8_t* skr = h.cage().at(sk.get());
  const std::string owner = text(c, word(skr, 1));
  Ptr rpk = word(h.cage().at(rsa_of(c, skr)), 0);
  h.incref(rpk);
  Unfinished mypk(h, key(c, t, t.pk, owner, rpk));
  c.ret_ptr(make(
      c, t.authinfo, [&] { return sk.done(); }, [&] { return mypk.done(); },
      [&] { return cert.done(); }, [&] { return spk.done(); },
      [&] { return new_ipint(c, s, std::move(alpha)); },
      [&] { return new_ipint(c, s, std::move(p)); }));
}

void writeauthinfo(Call& c, CryptoState& s, const CertTypes& t) {
  const std::string name = c.arg_string(32);
  // Dis code makes Authinfo records itself: any record of its size will do.
  Ptr ip = c.arg_ptr(36);
  BlockHeader* ih = ip == H ? nullptr : c.heap().checked_header(ip);
  if (!ih || c.heap().type(ih->type).size < 24) c.raise("dereference of nil");
  std::uint8_t* info = c.heap().cage().at(ip);
  for (int i : {0, 2, 3, 4, 5})
    if (word(info, i) == H) {
      c.set_error_string("invalid authinfo");
      return c.ret_int(-1);
    }
  const std::string m[5] = {
      pk_text(c, s, rec(c, word(info, 3), t.pk)), cert_text(c, s, rec(c, word(info, 2), t.cert)),
      sk_text(c, s, rec(c, word(info, 0), t.sk)), bn_text(ipint_at(c, s, word(info, 4)), 64),
      bn_text(ipint_at(c, s, word(info, 5)), 64)};
  std::string out;
  for (const std::string& msg : m) {
    char header[16];
    std::snprintf(header, sizeof header, "%4.4d\n", static_cast<int>(msg.size()));
    out += header + msg;
  }
  const std::string host = c.host_path(create_path(c, name));
  const int fd = ::open(host.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0 || ::write(fd, out.data(), out.size()) != static_cast<ssize_t>(out.size())) {
    set_path_errstr(c, name);
    if (fd >= 0) ::close(fd);
    return c.ret_int(-1);
  }
  ::close(fd);
  c.ret_int(0);
}

}  // namespace

void add_certificate_functions(VM& vm, Impls& keyring, const std::shared_ptr<CryptoState>& s,
                               RsaRecords rsa) {
  Heap& h = vm.heap();
  auto t = std::make_shared<CertTypes>(
      CertTypes{h.add_type(4, {0x80}, "Keyring.SigAlg"), h.add_type(12, {0xe0}, "Keyring.PK"),
                h.add_type(12, {0xe0}, "Keyring.SK"), h.add_type(20, {0xe8}, "Keyring.Certificate"),
                h.add_type(24, {0xfc}, "Keyring.Authinfo"), std::move(rsa)});
  using Fn = void (*)(Call&, CryptoState&, const CertTypes&);
  for (auto [name, f] :
       std::initializer_list<std::pair<std::string_view, Fn>>{{"genSK", gensk},
                                                              {"genSKfromPK", genskfrompk},
                                                              {"sktopk", sktopk},
                                                              {"sign", sign},
                                                              {"signm", signm},
                                                              {"verify", verify},
                                                              {"verifym", verifym},
                                                              {"pktostr", pktostr},
                                                              {"sktostr", sktostr},
                                                              {"certtostr", certtostr},
                                                              {"strtopk", strtopk},
                                                              {"strtosk", strtosk},
                                                              {"strtocert", strtocert},
                                                              {"readauthinfo", readauthinfo},
                                                              {"writeauthinfo", writeauthinfo}})
    keyring[name] = guarded("$Keyring->" + std::string(name), [s, t, f](Call& c) { f(c, *s, *t); });
}

}  // namespace dis::vm
