// $Keyring, $Crypt, $IPints and $Loader from Limbo programs compiled by our
// limbo (tests/limbo/keyring/NAME.b, full output against NAME.out: FIPS and
// RFC vectors, and values worked out independently), our digests of a
// random file against `openssl dgst`, the AES-CBC ciphertext against
// `openssl enc`, and Inferno's own md5sum and sha1sum (.dis from the
// corpus) against `openssl dgst`.
#include <gtest/gtest.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/provider.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "builtin_types.h"
#include "compiler.h"
#include "dis_file.h"
#include "vm.h"

namespace fs = std::filesystem;

namespace {

const fs::path kDir = fs::path(DIS_SOURCE_DIR) / "tests" / "limbo" / "keyring";
const fs::path kInferno = fs::path(DIS_SHARED_DIR) / "corpus" / "inferno";

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Output and status of module m run as `args`, with Dis paths under root.
std::string run(const dis::Module& m, const std::string& path, const std::vector<std::string>& args,
                const std::string& root = "") {
  std::ostringstream out, err;
  dis::vm::Options vo;
  vo.out = &out;
  vo.err = &err;
  vo.root = root;
  dis::vm::VM vm(vo);
  auto r = vm.run_module(m, path, args);
  return out.str() + "status " + std::to_string(r.status) + "\n" + err.str();
}

std::string run_program(const std::string& name, const std::vector<std::string>& extra = {}) {
  fs::path src = kDir / (name + ".b");
  dis::limbo::CompileOptions opts;
  opts.include_dirs.push_back((fs::path(DIS_SOURCE_DIR) / "module").string());
  std::vector<std::string> args{src.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  return run(dis::limbo::compile_file(src.string(), opts), src.string(), args);
}

// stdout of a shell command (the OpenSSL command line).
std::string shell(const std::string& cmd) {
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[4096];
    std::size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    pclose(p);
  }
  return out;
}

bool have_openssl_cli() { return shell("openssl version 2>/dev/null").rfind("OpenSSL", 0) == 0; }

// The hex digest `openssl dgst -ALG -r FILE` prints (first word).
std::string openssl_dgst(const std::string& alg, const fs::path& file) {
  std::string out = shell("openssl dgst -" + alg + " -provider legacy -provider default -r '" +
                          file.string() + "' 2>&1");
  return out.substr(0, out.find(' '));
}

fs::path random_file(const std::string& name, std::size_t n) {
  fs::path p = fs::temp_directory_path() / name;
  std::mt19937 gen(35);
  std::string bytes(n, '\0');
  for (char& ch : bytes) ch = static_cast<char>(gen());
  std::ofstream(p, std::ios::binary) << bytes;
  return p;
}

TEST(Keyring, DigestsAndHmacsMatchPublishedVectors) {
  EXPECT_EQ(run_program("digests"), slurp(kDir / "digests.out") + "status 0\n");
}

TEST(Keyring, CiphersMatchPublishedVectors) {
  std::string want = slurp(kDir / "ciphers.out");
  // IDEA depends on how OpenSSL was built: the vector when it has IDEA.
  OSSL_LIB_CTX* ctx = OSSL_LIB_CTX_new();
  OSSL_PROVIDER* legacy = OSSL_PROVIDER_load(ctx, "legacy");
  EVP_CIPHER* idea = EVP_CIPHER_fetch(ctx, "IDEA-ECB", nullptr);
  if (idea) {
    std::size_t at = want.find("idea: ");
    want.replace(at, want.find('\n', at) - at, "idea 11fbed2b01986de5");
  }
  EVP_CIPHER_free(idea);
  if (legacy) OSSL_PROVIDER_unload(legacy);
  OSSL_LIB_CTX_free(ctx);
  EXPECT_EQ(run_program("ciphers"), want + "status 0\n");
}

TEST(Keyring, IPintArithmeticAndConversions) {
  EXPECT_EQ(run_program("ipint"), slurp(kDir / "ipint.out") + "status 0\n");
}

TEST(Keyring, RsaElgamalAndDsaAdts) {
  EXPECT_EQ(run_program("pk"), slurp(kDir / "pk.out") + "status 0\n");
}

// The number base-64 text b64 (iptostr's) holds.
BIGNUM* from_b64(const std::string& b64) {
  std::vector<unsigned char> buf(b64.size());
  int n = EVP_DecodeBlock(buf.data(), reinterpret_cast<const unsigned char*>(b64.data()),
                          static_cast<int>(b64.size()));
  for (std::size_t i = b64.size(); i > 0 && b64[i - 1] == '='; --i) --n;
  return BN_bin2bn(buf.data(), std::max(n, 0), nullptr);
}

// What OpenSSL's RSA (public key n, e; no padding) recovers from signature sig.
BIGNUM* openssl_recover(const BIGNUM* n, const BIGNUM* e, const BIGNUM* sig) {
  OSSL_PARAM_BLD* b = OSSL_PARAM_BLD_new();
  OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_N, n);
  OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_E, e);
  OSSL_PARAM* params = OSSL_PARAM_BLD_to_param(b);
  EVP_PKEY_CTX* fctx = EVP_PKEY_CTX_new_from_name(nullptr, "RSA", nullptr);
  EVP_PKEY* key = nullptr;
  EVP_PKEY_fromdata_init(fctx);
  EVP_PKEY_fromdata(fctx, &key, EVP_PKEY_PUBLIC_KEY, params);
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_pkey(nullptr, key, nullptr);
  std::vector<unsigned char> in(static_cast<std::size_t>(BN_num_bytes(n)));
  BN_bn2binpad(sig, in.data(), static_cast<int>(in.size()));
  std::vector<unsigned char> out(in.size());
  std::size_t outlen = out.size();
  BIGNUM* r = nullptr;
  if (EVP_PKEY_verify_recover_init(ctx) == 1 &&
      EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_NO_PADDING) == 1 &&
      EVP_PKEY_verify_recover(ctx, out.data(), &outlen, in.data(), in.size()) == 1)
    r = BN_bin2bn(out.data(), static_cast<int>(outlen), nullptr);
  EVP_PKEY_CTX_free(ctx);
  EVP_PKEY_free(key);
  EVP_PKEY_CTX_free(fctx);
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(b);
  return r;
}

// The generic keys and certificates: signing, verifying and the texts, each
// read back (certs.out); then OpenSSL's RSA, given the public key from
// sktostr's text, recovers from sign's signature the SHA-1 of the data and
// "alice 1234567890", and from signm's the number given.
TEST(Keyring, RsaCertificatesAgreeWithOpenssl) {
  std::string out = run_program("certs");
  const std::size_t cut = out.find("SK ");
  ASSERT_NE(cut, std::string::npos) << out;
  EXPECT_EQ(out.substr(0, cut), slurp(kDir / "certs.out"));
  std::vector<std::string> l;
  std::istringstream in(out.substr(cut));
  for (std::string s; std::getline(in, s);) l.push_back(s);
  ASSERT_EQ(l.size(), 21u) << out;
  EXPECT_EQ(l[0], "SK rsa");
  EXPECT_EQ(l[10], "CERT rsa");
  EXPECT_EQ(l[15], "SIGNM rsa");
  EXPECT_EQ(l[20], "status 0");
  BIGNUM *n = from_b64(l[2]), *e = from_b64(l[3]);
  EXPECT_EQ(BN_num_bits(n), 512);
  const std::string signed_text = "the data signedalice 1234567890";
  unsigned char sha[SHA_DIGEST_LENGTH];
  SHA1(reinterpret_cast<const unsigned char*>(signed_text.data()), signed_text.size(), sha);
  BIGNUM* want = BN_bin2bn(sha, sizeof sha, nullptr);
  BIGNUM* sig = from_b64(l[14]);
  BIGNUM* got = openssl_recover(n, e, sig);
  ASSERT_NE(got, nullptr);
  EXPECT_EQ(BN_cmp(got, want), 0);
  BIGNUM* m = nullptr;
  BN_hex2bn(&m, "123456789abcdef");
  BIGNUM* sigm = from_b64(l[19]);
  BIGNUM* gotm = openssl_recover(n, e, sigm);
  ASSERT_NE(gotm, nullptr);
  EXPECT_EQ(BN_cmp(gotm, m), 0);
  for (BIGNUM* b : {n, e, want, sig, got, m, sigm, gotm}) BN_free(b);
}

TEST(Keyring, MessageIoOverAPipe) {
  EXPECT_EQ(run_program("msgs"), slurp(kDir / "msgs.out") + "status 0\n");
}

TEST(Keyring, IPintsCryptAndRefusedLoader) {
  EXPECT_EQ(run_program("others"), slurp(kDir / "others.out") + "status 0\n");
}

TEST(Keyring, DigestsOfAFileMatchOpensslDgst) {
  if (!have_openssl_cli()) GTEST_SKIP() << "no openssl command line";
  fs::path file = random_file("keyring_dgst_test.bin", 100000);
  std::string want;
  for (const char* alg : {"md4", "md5", "sha1", "sha224", "sha256", "sha384", "sha512"})
    want += std::string(alg) + " " + openssl_dgst(alg, file) + "\n";
  want += "hmac-sha1 " + openssl_dgst("sha1 -hmac key", file) + "\n";
  EXPECT_EQ(run_program("dgst", {file.string()}), want + "status 0\n");
  fs::remove(file);
}

TEST(Keyring, AesCbcMatchesOpensslEnc) {
  if (!have_openssl_cli()) GTEST_SKIP() << "no openssl command line";
  std::string got = run_program("ciphers");
  std::size_t at = got.find("aescbc ");
  ASSERT_NE(at, std::string::npos) << got;
  std::string ours = got.substr(at + 7, got.find('\n', at) - at - 7);
  std::string want = shell(
      "printf '%s' 'Sixty-four bytes of plaintext, chained in two calls to aescbc!!.' | "
      "openssl enc -aes-128-cbc -nopad -K 000102030405060708090a0b0c0d0e0f "
      "-iv 0f0e0d0c0b0a09080706050403020100 | od -An -tx1 -v | tr -d ' \\n'");
  EXPECT_EQ(ours, want);
  EXPECT_EQ(ours.size(), 128u);
}

// Inferno's md5sum and sha1sum, compiled by Inferno's limbo, link against
// our $Keyring by signature and print what openssl dgst prints.
TEST(Keyring, InfernoMd5sumAndSha1sum) {
  if (!fs::exists(kInferno / "dis" / "md5sum.dis"))
    GTEST_SKIP() << "../shared/corpus/inferno is absent";
  if (!have_openssl_cli()) GTEST_SKIP() << "no openssl command line";
  // The file is named relative to the working directory: absolute Dis paths
  // go under the root.
  fs::path file = random_file("keyring_sum_test.bin", 70000);
  fs::path old = fs::current_path();
  fs::current_path(file.parent_path());
  const std::string name = file.filename().string();
  for (const char* cmd : {"md5sum", "sha1sum"}) {
    fs::path dis = kInferno / "dis" / (std::string(cmd) + ".dis");
    std::string alg = cmd == std::string("md5sum") ? "md5" : "sha1";
    EXPECT_EQ(run(dis::read_dis_file(dis.string()), dis.string(), {cmd, name}, kInferno.string()),
              openssl_dgst(alg, file) + "\t" + name + "\nstatus 0\n")
        << cmd;
  }
  fs::current_path(old);
  fs::remove(file);
}

// Inferno's randpass (IPints' random and iptob64 from Inferno's compiled
// code): 16 base64 characters, different each run.
TEST(Keyring, InfernoRandpass) {
  if (!fs::exists(kInferno / "dis" / "randpass.dis"))
    GTEST_SKIP() << "../shared/corpus/inferno is absent";
  fs::path dis = kInferno / "dis" / "randpass.dis";
  auto once = [&] {
    return run(dis::read_dis_file(dis.string()), dis.string(), {"randpass"}, kInferno.string());
  };
  const std::string a = once(), b = once();
  const std::regex want("[A-Za-z0-9+/]{16}\nstatus 0\n");
  EXPECT_TRUE(std::regex_match(a, want)) << a;
  EXPECT_TRUE(std::regex_match(b, want)) << b;
  EXPECT_NE(a, b);
}

// Our front end derives every row of the four tables from module/*.m.
TEST(Keyring, TablesAreWhatOurCompilerDerives) {
  const fs::path wrapper = fs::temp_directory_path() / "keyring_test_decls.m";
  std::ofstream(wrapper) << "include \"sys.m\";\ninclude \"keyring.m\";\ninclude \"ipints.m\";\n"
                            "include \"crypt.m\";\ninclude \"loader.m\";\n";
  dis::limbo::CompileOptions opts;
  opts.include_dirs.push_back((fs::path(DIS_SOURCE_DIR) / "module").string());
  for (auto [path, name] : {std::pair{"$Keyring", "Keyring"},
                            {"$Crypt", "Crypt"},
                            {"$IPints", "IPints"},
                            {"$Loader", "Loader"}}) {
    auto decls = dis::limbo::declared_signatures(wrapper.string(), name, opts);
    EXPECT_EQ(decls.size(), dis::vm::find_builtin_module(path)->funcs.size()) << path;
    for (const auto& [fn, canonical] : decls) {
      const auto* row = dis::vm::find_builtin(path, fn);
      ASSERT_NE(row, nullptr) << path << " " << fn;
      EXPECT_EQ(row->canonical, canonical) << path << " " << fn;
    }
  }
  fs::remove(wrapper);
}

// Every import table of Inferno's compiled modules whose names all belong
// to $Keyring, $Crypt or $IPints carries our signatures for one of them:
// what the loader checks when those programs load us.
TEST(Keyring, SignaturesMatchInfernosCompiledImports) {
  if (!fs::exists(kInferno / "dis")) GTEST_SKIP() << "../shared/corpus/inferno is absent";
  const char* paths[] = {"$Keyring", "$Crypt", "$IPints"};
  int tables = 0;
  std::set<std::string> confirmed;
  for (const auto& entry : fs::recursive_directory_iterator(kInferno / "dis")) {
    if (entry.path().extension() != ".dis") continue;
    dis::Module m;
    try {
      m = dis::read_dis_file(entry.path().string());
    } catch (const std::exception&) {
      continue;  // not every shipped file is a module this reader takes
    }
    for (const auto& table : m.imports) {
      bool named = false, matched = false;
      for (const char* path : paths) {
        bool all_named = true, all_match = true;
        for (const auto& imp : table) {
          const auto* row = dis::vm::find_builtin(path, imp.name);
          all_named = all_named && row;
          all_match = all_match && row && row->sig == imp.sig;
        }
        named = named || all_named;
        if (all_match) {
          matched = true;
          for (const auto& imp : table) confirmed.insert(std::string(path) + "->" + imp.name);
        }
      }
      if (!named) continue;
      ++tables;
      EXPECT_TRUE(matched) << entry.path() << ": an import table differs from our signatures";
    }
  }
  EXPECT_GT(tables, 50);
  EXPECT_GE(confirmed.size(), 69u);  // md5, sha1, IPint.*, auth, the ciphers...
}

}  // namespace
