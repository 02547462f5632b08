// OpenSSL's libcrypto (Debian: libssl-dev), for SHA-1 in the WebSocket handshake.
// Only the EVP digest interface is used: the one-shot SHA1() is deprecated in OpenSSL 3.
#include <openssl/evp.h>
