/// Bytes on their way to a socket, in memory that does not move.
///
/// libuv reads a write's bytes after `write` returns, until the write callback. Swift
/// arrays lend their storage only for the length of a closure, so
/// `TCPConnection.write` takes this type instead, which owns its memory
/// outright and is kept alive by the connection until the write completes: no copy is
/// made on the way to the kernel. Build outgoing data (frames, responses) directly in a
/// `WriteBuffer`; several can go out in one write (one `uv_write` of several `uv_buf_t`).
///
/// Not thread-safe. Once passed to a write it must not be changed until the write's
/// completion has run (checked: mutating methods trap meanwhile).
public final class WriteBuffer {
    private var storage: UnsafeMutableRawPointer?

    /// The number of bytes written into the buffer.
    public private(set) var count = 0

    /// The number of bytes the buffer can hold before it grows.
    public private(set) var capacity = 0

    /// Writes in flight that read from this buffer (loop thread).
    var writesInFlight = 0

    /// An empty buffer with room for `capacity` bytes.
    public init(capacity: Int = 0) {
        reserveCapacity(capacity)
    }

    /// A buffer holding `bytes`.
    public convenience init<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        self.init(capacity: bytes.underestimatedCount)
        append(contentsOf: bytes)
    }

    /// A buffer holding the UTF-8 bytes of `string`.
    public convenience init(_ string: String) {
        self.init(string.utf8)
    }

    deinit {
        storage?.deallocate()
    }

    /// `true` when the buffer holds no bytes.
    public var isEmpty: Bool { count == 0 }

    /// Makes room for at least `minimumCapacity` bytes in total.
    public func reserveCapacity(_ minimumCapacity: Int) {
        guard minimumCapacity > capacity else { return }
        precondition(writesInFlight == 0, "WriteBuffer changed while a write is using it")
        let newCapacity = max(minimumCapacity, capacity * 2, 64)
        let newStorage = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
        if let storage {
            newStorage.copyMemory(from: storage, byteCount: count)
            storage.deallocate()
        }
        storage = newStorage
        capacity = newCapacity
    }

    /// Appends raw bytes.
    public func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        precondition(writesInFlight == 0, "WriteBuffer changed while a write is using it")
        reserveCapacity(count + bytes.count)
        (storage! + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    /// Appends one byte.
    public func append(_ byte: UInt8) {
        precondition(writesInFlight == 0, "WriteBuffer changed while a write is using it")
        reserveCapacity(count + 1)
        storage!.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    /// Appends bytes from a sequence (contiguous collections are copied in one go).
    public func append<Bytes: Sequence>(contentsOf bytes: Bytes) where Bytes.Element == UInt8 {
        let copied: Void? = bytes.withContiguousStorageIfAvailable { append(UnsafeRawBufferPointer($0)) }
        if copied == nil {
            reserveCapacity(count + bytes.underestimatedCount)
            for byte in bytes { append(byte) }
        }
    }

    /// Appends the UTF-8 bytes of `string`.
    public func append(_ string: String) {
        var string = string
        string.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Removes every byte.
    public func removeAll(keepingCapacity: Bool = false) {
        precondition(writesInFlight == 0, "WriteBuffer changed while a write is using it")
        count = 0
        if !keepingCapacity {
            storage?.deallocate()
            storage = nil
            capacity = 0
        }
    }

    /// Calls `body` with the bytes; the pointer is valid only inside `body`.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: storage, count: count))
    }

    /// The stable start of the bytes, for libuv (nil when nothing was ever reserved).
    var baseAddress: UnsafeMutableRawPointer? { storage }
}
