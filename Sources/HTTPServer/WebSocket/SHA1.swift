import CCrypto

/// SHA-1 from OpenSSL's libcrypto (`EVP_Digest` with `EVP_sha1`), used only for the
/// WebSocket handshake's `Sec-WebSocket-Accept` (RFC 6455 §4.2.2), where SHA-1 is a
/// fixed part of the protocol, not a security choice.
enum SHA1 {
    /// The 20-byte digest of `bytes`.
    static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 20)
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, EVP_sha1(), nil)
            }
        }
        // EVP_Digest with a built-in algorithm and no engine fails only when out of memory.
        precondition(ok == 1 && length == 20, "EVP_Digest(SHA-1) failed")
        return digest
    }
}
