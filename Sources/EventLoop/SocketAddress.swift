import CLibUV
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A numeric IPv4 or IPv6 address and a port.
///
/// Stored as text and a port rather than a `sockaddr_storage` (128 bytes) so it is
/// small, `Hashable` and `Sendable`; the `sockaddr` is rebuilt when libuv needs one.
public struct SocketAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address family.
    public enum Family: Hashable, Sendable {
        /// IPv4 (`AF_INET`).
        case ipv4
        /// IPv6 (`AF_INET6`).
        case ipv6
    }

    /// IPv4 or IPv6.
    public let family: Family

    /// The numeric host, e.g. `"127.0.0.1"` or `"::1"` (no brackets).
    public let host: String

    /// The port, 0...65535.
    public let port: Int

    /// Parses a numeric host (`"127.0.0.1"`, `"::1"`, `"[::1]"`) and a port.
    ///
    /// - Throws: ``UVError`` (`EINVAL`) when `host` is not a numeric address or `port` is
    ///   out of range. Names such as `"localhost"` are resolved by ``TCPListener``, not here.
    public init(host: String, port: Int) throws(UVError) {
        let operation = "parse address \(host) port \(port)"
        guard (0...65535).contains(port) else {
            throw UVError(code: bindery_uv_einval(), operation: operation)
        }
        var bare = Substring(host)
        if bare.hasPrefix("["), bare.hasSuffix("]") {
            bare = bare.dropFirst().dropLast()
        }
        var ipv4 = sockaddr_in()
        if uv_ip4_addr(String(bare), Int32(port), &ipv4) == 0 {
            self.init(ipv4: ipv4)
            return
        }
        var ipv6 = sockaddr_in6()
        if uv_ip6_addr(String(bare), Int32(port), &ipv6) == 0 {
            self.init(ipv6: ipv6)
            return
        }
        throw UVError(code: bindery_uv_einval(), operation: operation)
    }

    private init(ipv4 address: sockaddr_in) {
        var address = address
        var text = [CChar](repeating: 0, count: 64)
        uv_ip4_name(&address, &text, text.count)
        family = .ipv4
        host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    private init(ipv6 address: sockaddr_in6) {
        var address = address
        var text = [CChar](repeating: 0, count: 64)
        uv_ip6_name(&address, &text, text.count)
        family = .ipv6
        host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        port = Int(UInt16(bigEndian: address.sin6_port))
    }

    /// Reads an `AF_INET`/`AF_INET6` socket address; `nil` for other families.
    init?(_ address: UnsafePointer<sockaddr>) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            self.init(ipv4: UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self))
        case AF_INET6:
            self.init(ipv6: UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self))
        default:
            return nil
        }
    }

    /// Reads the address a libuv getter (getsockname/getpeername) writes.
    static func read(_ getter: (UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<Int32>) -> Int32) -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = Int32(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutableBytes(of: &storage) { raw -> SocketAddress? in
            let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr.self)
            guard getter(address, &length) == 0 else { return nil }
            return SocketAddress(UnsafePointer(address))
        }
    }

    /// Calls `body` with this address as a `sockaddr`.
    func withSockAddr<Result>(_ body: (UnsafePointer<sockaddr>) -> Result) -> Result {
        switch family {
        case .ipv4:
            var address = sockaddr_in()
            uv_ip4_addr(host, Int32(port), &address)
            return withUnsafeBytes(of: &address) { body($0.baseAddress!.assumingMemoryBound(to: sockaddr.self)) }
        case .ipv6:
            var address = sockaddr_in6()
            uv_ip6_addr(host, Int32(port), &address)
            return withUnsafeBytes(of: &address) { body($0.baseAddress!.assumingMemoryBound(to: sockaddr.self)) }
        }
    }

    /// `"127.0.0.1:8080"`, `"[::1]:8080"`.
    public var description: String {
        switch family {
        case .ipv4: return "\(host):\(port)"
        case .ipv6: return "[\(host)]:\(port)"
        }
    }
}
