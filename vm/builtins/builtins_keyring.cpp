// $Keyring, $Crypt, $IPints and $Loader. The first three share one set of
// host objects (crypto_objects.h): digests, ciphers, IPint and the RSA,
// Elgamal and DSA keys work, and the generic keys, certificates and key
// files for "rsa"; Inferno's authentication protocol (auth) and the
// *toattr conversions raise "not implemented" when called, so programs
// that only link them still load. $Loader is refused the same
// way: the modules it would build from instructions and type descriptors bypass the loader's
// verifier.
#include "builtins.h"
#include "crypto_objects.h"

namespace dis::vm {

void register_crypto_modules(VM& vm) {
  auto s = std::make_shared<CryptoState>();
  s->add_types(vm);

  Impls keyring;
  add_ipint_functions(keyring, s, "$Keyring");
  add_digest_functions(keyring, s, "$Keyring");
  add_cipher_functions(keyring, s, "$Keyring");
  add_message_functions(keyring, s);
  Impls crypt;
  add_digest_functions(crypt, s, "$Crypt");
  add_cipher_functions(crypt, s, "$Crypt");
  add_certificate_functions(vm, keyring, s, add_public_key_functions(vm, keyring, crypt, s));
  register_table(vm, "$Keyring", keyring);
  register_table(vm, "$Crypt", crypt);

  Impls ipints;
  add_ipint_functions(ipints, s, "$IPints");
  add_prime_functions(ipints, s);
  add_dsa_primes(ipints, s);
  register_table(vm, "$IPints", ipints);

  register_table(vm, "$Loader", {});
}

}  // namespace dis::vm
