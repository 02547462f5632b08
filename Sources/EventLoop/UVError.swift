import CLibUV

/// A libuv failure: the (negative) libuv error code, what was being done, and
/// libuv's own description of the code.
public struct UVError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The libuv error code, e.g. `UV_EADDRINUSE` (always negative).
    public let code: Int32

    /// What was being attempted, e.g. `"listen on 127.0.0.1:8080"`.
    public let operation: String

    /// Creates an error for a libuv return code.
    public init(code: Int32, operation: String) {
        self.code = code
        self.operation = operation
    }

    /// libuv's message for the code (`uv_strerror`), e.g. "address already in use".
    public var message: String { String(cString: uv_strerror(code)) }

    /// libuv's name for the code (`uv_err_name`), e.g. "EADDRINUSE".
    public var name: String { String(cString: uv_err_name(code)) }

    /// `true` for end of stream (`UV_EOF`): the peer closed its side in order.
    public var isEOF: Bool { code == bindery_uv_eof() }

    /// `true` for a cancelled request (`UV_ECANCELED`), e.g. a write on a closed connection.
    public var isCancelled: Bool { code == bindery_uv_ecanceled() }

    /// `"<operation>: <message> (<name>)"`.
    public var description: String { "\(operation): \(message) (\(name))" }

    /// Throws when a libuv call returned an error code.
    @inline(__always)
    static func check(_ code: Int32, _ operation: @autoclosure () -> String) throws(UVError) {
        if code < 0 { throw UVError(code: code, operation: operation()) }
    }
}
