#include <openssl/sha.h>
// The streaming SHA256_Init/Update/Final are deprecated in OpenSSL 3; EVP is the supported way.
#include <openssl/evp.h>
