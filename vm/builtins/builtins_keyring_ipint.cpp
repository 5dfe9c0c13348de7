// IPint, the big integers of $Keyring and $IPints, on OpenSSL's BIGNUM, with
// Inferno's conventions: strings in base 10, 16 (upper case, no leading
// zeros) or 64 (of the magnitude's big-endian bytes), a leading '-' for a
// negative value; bits of 0 is 1; iptoint saturates; mod is non-negative,
// div truncates; the bitwise operations work on magnitudes (and/or/xor keep
// the sign of the first or longer operand, not complements the 32-bit
// digits). Prime generation releases the interpreter while it searches.
#include <openssl/evp.h>

#include <algorithm>
#include <climits>
#include <string>

#include "crypto_objects.h"

namespace dis::vm {

namespace {

// Results beyond 2^24 bits (2 MB) are refused with an exception: a shift
// or power that large is a mistake, and the host would run out first.
constexpr std::int64_t kMaxBits = 1 << 24;

// base^exp without a modulus would pass kMaxBits.
bool too_large_power(const BIGNUM* base, const BIGNUM* exp) {
  if (BN_is_zero(base) || BN_is_one(base) || BN_is_zero(exp) || BN_is_negative(exp)) return false;
  if (BN_num_bits(exp) > 31) return true;
  return static_cast<std::int64_t>(BN_num_bits(base)) *
             static_cast<std::int64_t>(BN_get_word(exp)) >
         kMaxBits;
}

std::string magnitude_bytes(const BIGNUM* b) {
  std::string out(static_cast<std::size_t>(BN_num_bytes(b)), '\0');
  BN_bn2bin(b, reinterpret_cast<unsigned char*>(out.data()));
  return out;
}

std::string base64(const std::string& bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(bytes.data()),
                          static_cast<int>(bytes.size()));
  out.resize(static_cast<std::size_t>(n));
  return out;
}

int b64_value(char ch) {
  if (ch >= 'A' && ch <= 'Z') return ch - 'A';
  if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
  if (ch >= '0' && ch <= '9') return ch - '0' + 52;
  if (ch == '+') return 62;
  if (ch == '/') return 63;
  return -1;
}

int digit_value(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'z') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'Z') return ch - 'A' + 10;
  return 99;
}

std::string to_base(const BIGNUM* b, int base) {
  if (BN_is_zero(b)) return "0";
  std::string digits;
  if (base == 64) {
    digits = base64(magnitude_bytes(b));
  } else if (base == 10) {
    char* s = BN_bn2dec(b);
    digits = s[0] == '-' ? s + 1 : s;
    OPENSSL_free(s);
  } else if (base >= 2 && base <= 36) {
    Bn v = copy_bn(b);
    BN_set_negative(v.get(), 0);
    const char* alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    while (!BN_is_zero(v.get()))
      digits += alphabet[BN_div_word(v.get(), static_cast<BN_ULONG>(base))];
    std::reverse(digits.begin(), digits.end());
  } else {
    return "";
  }
  return (BN_is_negative(b) ? "-" : "") + digits;
}

// Inferno's strtoip: optional sign, digits of `base`, '=' padding, nothing
// else; nullptr when the text is not a number.
Bn from_base(const std::string& s, int base) {
  std::size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  bool neg = false;
  // '+' is a base-64 digit: a sign only in the other bases.
  if (i < s.size() && (s[i] == '-' || (s[i] == '+' && base != 64))) neg = s[i++] == '-';
  std::size_t start = i;
  Bn v = new_bn();
  if (base == 64) {
    std::string bytes;
    unsigned acc = 0;
    int nbits = 0;
    for (; i < s.size() && b64_value(s[i]) >= 0; ++i) {
      acc = (acc << 6) | static_cast<unsigned>(b64_value(s[i]));
      nbits += 6;
      if (nbits >= 8) {
        nbits -= 8;
        bytes += static_cast<char>((acc >> nbits) & 0xff);
      }
    }
    BN_bin2bn(reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()),
              v.get());
  } else if (base >= 2 && base <= 36) {
    for (; i < s.size() && digit_value(s[i]) < base; ++i) {
      BN_mul_word(v.get(), static_cast<BN_ULONG>(base));
      BN_add_word(v.get(), static_cast<BN_ULONG>(digit_value(s[i])));
    }
  } else {
    return nullptr;
  }
  if (i == start) return nullptr;
  while (i < s.size() && s[i] == '=') ++i;
  if (i != s.size()) return nullptr;
  BN_set_negative(v.get(), neg ? 1 : 0);
  return v;
}

void ret_ipint(Call& c, CryptoState& s, Bn v, std::uint32_t off = 0) {
  c.ret_ptr(new_ipint(c, s, std::move(v)), off);
}

Ptr byte_array(Call& c, const std::string& bytes) {
  return array_of_bytes(c.heap(), bytes.data(), bytes.size());
}

void ip_iptob64(Call& c, CryptoState& s) { c.ret_string(to_base(ipint_arg(c, s, 32), 64)); }
void ip_iptob64z(Call& c, CryptoState& s) {
  std::string m = magnitude_bytes(ipint_arg(c, s, 32));
  // A leading zero byte keeps the top bit clear, as older Infernos wrote.
  if (!m.empty() && (static_cast<unsigned char>(m[0]) & 0x80)) m.insert(m.begin(), '\0');
  c.ret_string(base64(m));
}
void ip_iptobytes(Call& c, CryptoState& s) {
  std::string m = magnitude_bytes(ipint_arg(c, s, 32));
  if (m.empty()) m.assign(1, '\0');
  c.ret_ptr(byte_array(c, m));
}
void ip_bytestoip(Call& c, CryptoState& s) {
  if (c.arg_ptr(32) == H) c.raise("dereference of nil");
  std::int32_t n = 0;
  std::uint8_t* p = bytes_arg(c, 32, n);
  Bn v = new_bn();
  BN_bin2bn(p, n, v.get());
  ret_ipint(c, s, std::move(v));
}
void ip_b64toip(Call& c, CryptoState& s) {
  Bn v = from_base(c.arg_string(32), 64);
  if (!v) return c.ret_ptr(H);
  ret_ipint(c, s, std::move(v));
}
void ip_strtoip(Call& c, CryptoState& s) {
  Bn v = from_base(c.arg_string(32), c.arg_int(36));
  if (!v) return c.ret_ptr(H);
  ret_ipint(c, s, std::move(v));
}
void ip_iptostr(Call& c, CryptoState& s) {
  c.ret_string(to_base(ipint_arg(c, s, 32), c.arg_int(36)));
}
void ip_inttoip(Call& c, CryptoState& s) {
  Bn v = new_bn();
  std::int64_t i = c.arg_int(32);
  BN_set_word(v.get(), static_cast<BN_ULONG>(i < 0 ? -i : i));
  BN_set_negative(v.get(), i < 0 ? 1 : 0);
  ret_ipint(c, s, std::move(v));
}
void ip_iptoint(Call& c, CryptoState& s) {
  HostObject* o = s.maybe(c, 32, CryptoKind::IPint);
  if (!o) return c.ret_int(0);
  const BIGNUM* b = static_cast<IPintObject*>(o)->bn.get();
  std::uint64_t mag = BN_num_bits(b) > 40 ? (1ull << 40) : BN_get_word(b);
  if (BN_is_negative(b))
    c.ret_int(mag > 0x80000000ull ? INT_MIN
                                  : static_cast<std::int32_t>(-static_cast<std::int64_t>(mag)));
  else
    c.ret_int(mag > INT_MAX ? INT_MAX : static_cast<std::int32_t>(mag));
}
void ip_bits(Call& c, CryptoState& s) {
  HostObject* o = s.maybe(c, 32, CryptoKind::IPint);
  if (!o) return c.ret_int(0);
  c.ret_int(std::max(1, BN_num_bits(static_cast<IPintObject*>(o)->bn.get())));
}

// Binary arithmetic: f(result, a, b, ctx) as OpenSSL's; 0 from f raises.
template <int (*F)(BIGNUM*, const BIGNUM*, const BIGNUM*, BN_CTX*)>
void arith(Call& c, CryptoState& s) {
  const BIGNUM* a = ipint_arg(c, s, 32);
  const BIGNUM* b = ipint_arg(c, s, 36);
  Bn r = new_bn();
  if (!F(r.get(), a, b, new_ctx().get())) c.raise(BN_is_zero(b) ? "zero divide" : "IPint: failed");
  ret_ipint(c, s, std::move(r));
}
int bn_add(BIGNUM* r, const BIGNUM* a, const BIGNUM* b, BN_CTX*) { return BN_add(r, a, b); }
int bn_sub(BIGNUM* r, const BIGNUM* a, const BIGNUM* b, BN_CTX*) { return BN_sub(r, a, b); }
int bn_mod(BIGNUM* r, const BIGNUM* a, const BIGNUM* b, BN_CTX* x) { return BN_nnmod(r, a, b, x); }

void ip_div(Call& c, CryptoState& s) {
  const BIGNUM* a = ipint_arg(c, s, 32);
  const BIGNUM* b = ipint_arg(c, s, 36);
  if (BN_is_zero(b)) c.raise("zero divide");
  Bn q = new_bn(), r = new_bn();
  BN_div(q.get(), r.get(), a, b, new_ctx().get());
  ret_ipint(c, s, std::move(q), 0);
  ret_ipint(c, s, std::move(r), 4);
}
void ip_expmod(Call& c, CryptoState& s) {
  const BIGNUM* base = ipint_arg(c, s, 32);
  const BIGNUM* exp = ipint_arg(c, s, 36);
  HostObject* m = s.maybe(c, 40, CryptoKind::IPint);
  Bn r = new_bn();
  BnCtx ctx = new_ctx();
  if (!m && !too_large_power(base, exp))
    BN_exp(r.get(), base, exp, ctx.get());
  else if (!m)
    c.raise("IPint.expmod: result too large");
  else if (BN_is_zero(static_cast<IPintObject*>(m)->bn.get()))
    c.raise("zero divide");
  else
    BN_mod_exp(r.get(), base, exp, static_cast<IPintObject*>(m)->bn.get(), ctx.get());
  ret_ipint(c, s, std::move(r));
}
void ip_invert(Call& c, CryptoState& s) {
  const BIGNUM* a = ipint_arg(c, s, 32);
  const BIGNUM* m = ipint_arg(c, s, 36);
  Bn r = new_bn();
  if (!BN_mod_inverse(r.get(), a, m, new_ctx().get())) BN_zero(r.get());  // no inverse
  ret_ipint(c, s, std::move(r));
}
void ip_neg(Call& c, CryptoState& s) {
  Bn r = copy_bn(ipint_arg(c, s, 32));
  BN_set_negative(r.get(), BN_is_negative(r.get()) ? 0 : 1);
  ret_ipint(c, s, std::move(r));
}
void ip_copy(Call& c, CryptoState& s) { ret_ipint(c, s, copy_bn(ipint_arg(c, s, 32))); }
void ip_eq(Call& c, CryptoState& s) {
  c.ret_int(BN_cmp(ipint_arg(c, s, 32), ipint_arg(c, s, 36)) == 0 ? 1 : 0);
}
void ip_cmp(Call& c, CryptoState& s) {
  int r = BN_cmp(ipint_arg(c, s, 32), ipint_arg(c, s, 36));
  c.ret_int(r < 0 ? -1 : r > 0 ? 1 : 0);
}
void ip_shift(Call& c, CryptoState& s, bool left) {
  const BIGNUM* a = ipint_arg(c, s, 32);
  std::int64_t n = c.arg_int(36);
  if (n < 0) {
    n = -n;
    left = !left;
  }
  if (left && !BN_is_zero(a) && n > kMaxBits) c.raise("IPint.shl: result too large");
  n = std::min<std::int64_t>(n, kMaxBits + 1);  // a right shift that far is zero anyway
  Bn r = new_bn();
  const int k = static_cast<int>(n);
  if (left ? !BN_lshift(r.get(), a, k) : !BN_rshift(r.get(), a, k)) throw std::bad_alloc();
  ret_ipint(c, s, std::move(r));
}
void ip_shl(Call& c, CryptoState& s) { ip_shift(c, s, true); }
void ip_shr(Call& c, CryptoState& s) { ip_shift(c, s, false); }

// Magnitudes as big-endian bytes of one length (a whole number of 32-bit
// digits), combined byte by byte.
enum class BitOp { And, Or, Xor };
void ip_bitwise(Call& c, CryptoState& s, BitOp op) {
  const BIGNUM* a = ipint_arg(c, s, 32);
  const BIGNUM* b = ipint_arg(c, s, 36);
  int len = std::max(BN_num_bytes(a), BN_num_bytes(b));
  std::string x(static_cast<std::size_t>(len), '\0'), y = x;
  BN_bn2binpad(a, reinterpret_cast<unsigned char*>(x.data()), len);
  BN_bn2binpad(b, reinterpret_cast<unsigned char*>(y.data()), len);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<char>(op == BitOp::And  ? (x[i] & y[i])
                             : op == BitOp::Or ? (x[i] | y[i])
                                               : (x[i] ^ y[i]));
  Bn r = new_bn();
  BN_bin2bn(reinterpret_cast<const unsigned char*>(x.data()), len, r.get());
  const BIGNUM* sign_of = op == BitOp::And || BN_num_bytes(a) >= BN_num_bytes(b) ? a : b;
  if (!BN_is_zero(r.get())) BN_set_negative(r.get(), BN_is_negative(sign_of));
  ret_ipint(c, s, std::move(r));
}
void ip_and(Call& c, CryptoState& s) { ip_bitwise(c, s, BitOp::And); }
void ip_ori(Call& c, CryptoState& s) { ip_bitwise(c, s, BitOp::Or); }
void ip_xor(Call& c, CryptoState& s) { ip_bitwise(c, s, BitOp::Xor); }
void ip_not(Call& c, CryptoState& s) {
  const BIGNUM* a = ipint_arg(c, s, 32);
  int len = (BN_num_bytes(a) + 3) / 4 * 4;
  std::string x(static_cast<std::size_t>(len), '\0');
  BN_bn2binpad(a, reinterpret_cast<unsigned char*>(x.data()), len);
  for (char& ch : x) ch = static_cast<char>(~ch);
  Bn r = new_bn();
  BN_bin2bn(reinterpret_cast<const unsigned char*>(x.data()), len, r.get());
  ret_ipint(c, s, std::move(r));
}

void random_bits(Call& c, CryptoState& s, std::int32_t nbits) {
  if (nbits > kMaxBits) c.raise("IPint.random: too many bits");
  Bn r = new_bn();
  if (nbits > 0 && !BN_rand(r.get(), nbits, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY))
    c.raise("IPint.random: no random bits");
  ret_ipint(c, s, std::move(r));
}
// $Keyring's random(minbits, maxbits) draws maxbits bits, as Inferno's.
void ip_random_keyring(Call& c, CryptoState& s) { random_bits(c, s, c.arg_int(36)); }
void ip_random_ipints(Call& c, CryptoState& s) { random_bits(c, s, c.arg_int(32)); }

void probably_prime(Call& c, CryptoState& s) {
  Bn n = copy_bn(ipint_arg(c, s, 32));
  int r = 0;
  c.blocking([&] { r = BN_check_prime(n.get(), new_ctx().get(), nullptr); });
  c.ret_int(r == 1 ? 1 : 0);
}
void genprime(Call& c, CryptoState& s) { ret_ipint(c, s, generate_prime(c, c.arg_int(32), false)); }
void gensafeprime(Call& c, CryptoState& s) {
  auto [p, g] = safe_prime_and_generator(c, c.arg_int(32));
  ret_ipint(c, s, std::move(p), 0);
  ret_ipint(c, s, std::move(g), 4);
}

}  // namespace

std::string bn_text(const BIGNUM* b, int base) { return to_base(b, base); }
Bn bn_parse(const std::string& s, int base) { return from_base(s, base); }

Bn generate_prime(Call& c, std::int32_t nbits, bool safe) {
  // The search time grows as the fourth power of the length: refuse what
  // would run for hours rather than hang.
  if (nbits < 2 || nbits > (safe ? 4096 : 16384)) c.raise("genprime: bad bit count");
  Bn p = new_bn();
  bool ok = false;
  c.blocking([&] {
    ok = BN_generate_prime_ex2(p.get(), nbits, safe, nullptr, nullptr, nullptr, new_ctx().get()) ==
         1;
  });
  if (!ok) c.raise("genprime: failed");
  return p;
}
Bn random_below(Call& c, const BIGNUM* below) {
  Bn r = new_bn();
  if (BN_is_zero(below) || BN_is_negative(below)) return r;
  bool ok = false;
  c.blocking([&] { ok = BN_rand_range(r.get(), below) == 1; });
  if (!ok) c.raise("IPint: no random bits");
  return r;
}

// p = 2q+1; g generates the group when neither g^2 nor g^q is 1.
std::pair<Bn, Bn> safe_prime_and_generator(Call& c, std::int32_t nbits) {
  Bn p = generate_prime(c, nbits, true);
  BnCtx ctx = new_ctx();
  Bn q = copy_bn(p.get()), g = new_bn(), t = new_bn();
  BN_rshift1(q.get(), q.get());
  for (BN_ULONG k = 2;; ++k) {
    BN_set_word(g.get(), k);
    BN_mod_sqr(t.get(), g.get(), p.get(), ctx.get());
    if (BN_is_one(t.get())) continue;
    BN_mod_exp(t.get(), g.get(), q.get(), p.get(), ctx.get());
    if (!BN_is_one(t.get())) break;
  }
  return {std::move(p), std::move(g)};
}

void add_ipint_functions(Impls& impls, const std::shared_ptr<CryptoState>& s,
                         std::string_view path) {
  add_crypto_functions(
      impls, s, path,
      {
          {"IPint.iptob64", ip_iptob64},
          {"IPint.iptob64z", ip_iptob64z},
          {"IPint.b64toip", ip_b64toip},
          {"IPint.iptobytes", ip_iptobytes},
          {"IPint.iptobebytes", ip_iptobytes},
          {"IPint.bytestoip", ip_bytestoip},
          {"IPint.bebytestoip", ip_bytestoip},
          {"IPint.inttoip", ip_inttoip},
          {"IPint.iptoint", ip_iptoint},
          {"IPint.iptostr", ip_iptostr},
          {"IPint.strtoip", ip_strtoip},
          {"IPint.bits", ip_bits},
          {"IPint.expmod", ip_expmod},
          {"IPint.invert", ip_invert},
          {"IPint.add", arith<bn_add>},
          {"IPint.sub", arith<bn_sub>},
          {"IPint.mul", arith<BN_mul>},
          {"IPint.div", ip_div},
          {"IPint.mod", arith<bn_mod>},
          {"IPint.neg", ip_neg},
          {"IPint.eq", ip_eq},
          {"IPint.cmp", ip_cmp},
          {"IPint.copy", ip_copy},
          {"IPint.shl", ip_shl},
          {"IPint.shr", ip_shr},
          {"IPint.and", ip_and},
          {"IPint.ori", ip_ori},
          {"IPint.xor", ip_xor},
          {"IPint.not", ip_not},
          {"IPint.random", path == "$Keyring" ? ip_random_keyring : ip_random_ipints},
      });
}

void add_prime_functions(Impls& impls, const std::shared_ptr<CryptoState>& s) {
  add_crypto_functions(impls, s, "$IPints",
                       {
                           {"probably_prime", probably_prime},
                           {"genprime", genprime},
                           {"genstrongprime", genprime},
                           {"gensafeprime", gensafeprime},
                       });
}

}  // namespace dis::vm
