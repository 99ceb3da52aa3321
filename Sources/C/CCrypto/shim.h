// SHA-256 through OpenSSL's low-level SHA256_Init/Update/Final. OpenSSL 3 marks them
// deprecated in favour of EVP, but EVP (and, since 3.0, the one-shot SHA256(), which calls
// EVP_Q_digest) fetches the algorithm from a provider on first use: that loads openssl.cnf
// and sets up the default provider in every process, which costs more than restoring a
// drawing does. The low-level functions run the same assembly (SHA extensions when the CPU
// has them) without any of that. The macro keeps the deprecation attributes out of Swift.
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/crypto.h>
#include <openssl/sha.h>
