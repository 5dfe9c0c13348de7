#include "signature.h"

#include <openssl/evp.h>

#include <memory>
#include <stdexcept>

namespace dis {

std::uint32_t type_sig(std::string_view canonical) {
  // EVP rather than the deprecated MD5() one-shot: the low-level digest API
  // is deprecated since OpenSSL 3.
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_md5(), nullptr) != 1 ||
      EVP_DigestUpdate(ctx.get(), canonical.data(), canonical.size()) != 1 ||
      EVP_DigestFinal_ex(ctx.get(), digest, &len) != 1 || len != 16)
    throw std::runtime_error("type_sig: MD5 digest unavailable from OpenSSL");
  std::uint32_t sig = 0;
  for (int group = 0; group < 4; ++group) {
    const unsigned char* b = digest + 4 * group;
    sig ^= std::uint32_t{b[0]} | std::uint32_t{b[1]} << 8 | std::uint32_t{b[2]} << 16 |
           std::uint32_t{b[3]} << 24;
  }
  return sig;
}

}  // namespace dis
