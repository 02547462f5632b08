/// An HTTP version such as 1.1. The server speaks 1.0 and 1.1; the parser rejects others
/// with 505.
public struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
    /// The major version (1).
    public var major: Int
    /// The minor version (0 or 1).
    public var minor: Int

    /// A version `major.minor`.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// HTTP/1.0: connections close after each response unless `Connection: keep-alive`.
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    /// HTTP/1.1: connections persist unless `Connection: close`.
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)

    /// `"HTTP/1.1"`.
    public var description: String { "HTTP/\(major).\(minor)" }
}
