import Dispatch
import EventLoop
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Serves files from one directory, or from several layered ones, for `GET` and `HEAD`.
///
/// - **Layers**: with several ``roots`` a path is looked up in each root in order and the
///   first that has it answers (an app's own `public/` over a library's files). The path
///   rules below apply before any lookup, and each root confines its own lookups.
/// - `Content-Type` from the extension (``MIMETypes``), `ETag` (size and modification
///   time) and `Last-Modified`; `If-None-Match` (takes precedence) and
///   `If-Modified-Since` answer 304. `Cache-Control` is ``cacheControl``.
/// - A directory serves its `index.html`; a directory path without the final `/` is
///   redirected (301) to the path with it, so relative links resolve.
/// - **No escape from the root**: the path is split on `/` *before* percent-decoding; a
///   segment that decodes to `.` or `..`, or contains `/`, `\` or NUL, is 404. The
///   resolved path (`realpath`, so symlinks are followed) must lie inside the resolved
///   root, else 404. Only regular files are served. Nothing outside the root is ever
///   opened.
/// - **The loop never blocks on the disk**: `realpath`, `stat`, `open` and `read` run on
///   a concurrent Dispatch queue and the result comes back with `EventLoop.execute`.
///   Files up to ``streamThreshold`` are read whole; larger ones are streamed in chunks of
///   that size, the next chunk read only when the previous one has been taken by the
///   kernel (so a slow client holds at most one chunk in memory).
///
/// Immutable after `init`, hence `Sendable`; use it from the loop thread (it answers
/// through an ``HTTPResponder``).
public final class StaticFiles: Sendable {
    /// Why the root cannot be served.
    public struct RootError: Error, CustomStringConvertible {
        /// The root as given.
        public let path: String
        /// `"static file root '<path>' is not a readable directory"`.
        public var description: String { "static file root '\(path)' is not a readable directory" }
    }

    /// The root directories, resolved (absolute, no symlinks), first looked up first.
    public let roots: [String]
    /// The first root.
    public var root: String { roots[0] }
    /// The file served for a directory.
    public let indexFile: String
    /// `Cache-Control` sent with files and 304s; nil sends none. The default `no-cache`
    /// lets browsers keep files but revalidate them (cheap with ETag/304).
    public let cacheControl: String?
    /// Files larger than this are streamed in chunks of this size.
    public let streamThreshold: Int
    /// Builds the 404 and 405 answers from the status; nil: plain text.
    public let errorPage: (@Sendable (_ status: Int) -> HTTPResponse)?

    private let queue = DispatchQueue(label: "bindery.static-files", attributes: .concurrent)

    /// Serves `root` (resolved once, now).
    ///
    /// - Throws: ``RootError`` when `root` is not an existing directory.
    public convenience init(root: String, indexFile: String = "index.html", cacheControl: String? = "no-cache",
                            streamThreshold: Int = 256 * 1024, errorPage: (@Sendable (_ status: Int) -> HTTPResponse)? = nil) throws {
        try self.init(roots: [root], indexFile: indexFile, cacheControl: cacheControl, streamThreshold: streamThreshold,
                      errorPage: errorPage)
    }

    /// Serves `roots` layered, the first over the others (each resolved once, now).
    ///
    /// - Throws: ``RootError`` for the first of `roots` that is not an existing directory
    ///   (or for an empty list).
    public init(roots: [String], indexFile: String = "index.html", cacheControl: String? = "no-cache",
                streamThreshold: Int = 256 * 1024, errorPage: (@Sendable (_ status: Int) -> HTTPResponse)? = nil) throws {
        guard !roots.isEmpty else { throw RootError(path: "") }
        self.roots = try roots.map { root in
            guard let resolved = Self.realPath(root), Self.fileType(resolved) == S_IFDIR else {
                throw RootError(path: root)
            }
            return resolved
        }
        self.indexFile = indexFile
        self.cacheControl = cacheControl
        self.streamThreshold = max(4096, streamThreshold)
        self.errorPage = errorPage
    }

    /// Makes this the router's fallback: requests no route matched are served from here.
    public func register(on router: Router) {
        router.fallback = { [self] request, responder in handle(request, responder) }
    }

    /// Answers `request` from the root: the file, 304, 301, 404, or 405 for methods other
    /// than GET and HEAD.
    public func handle(_ request: HTTPRequest, _ responder: HTTPResponder) {
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = errorPage?(405) ?? .error(405)
            response.headers.replaceOrAdd(name: "Allow", value: "GET, HEAD")
            responder.respond(response)
            return
        }
        guard let relative = Self.relativePath(request.path) else {
            responder.respond(errorPage?(404) ?? .error(404))
            return
        }
        let lookup = Lookup(relative: relative, requestPath: request.path,
                            ifNoneMatch: request.headers["If-None-Match"],
                            ifModifiedSince: request.headers["If-Modified-Since"].flatMap(HTTPDate.parse),
                            isHead: request.method == "HEAD")
        let loop = responder.loop
        let target = LoopBound(responder)
        queue.async { [self] in
            let outcome = resolve(lookup)
            loop.execute { [self] in deliver(outcome, to: target.value) }
        }
    }

    // MARK: - Path checks (loop thread, no I/O)

    /// The path below the root, or nil if it is not allowed. Splits before decoding, so
    /// `%2F` never separates and `%2e%2e` is caught as `..`.
    static func relativePath(_ path: String) -> String? {
        guard path.hasPrefix("/") else { return nil }
        var parts: [String] = []
        let rawSegments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (index, raw) in rawSegments.enumerated() {
            guard let segment = PercentEncoding.decode(raw) else { return nil }
            if segment.isEmpty {
                // "//" inside is tolerated; a final "" marks a directory request.
                if index == rawSegments.count - 1 { parts.append("") }
                continue
            }
            guard segment != ".", segment != "..",
                  !segment.utf8.contains(where: { $0 == 47 || $0 == 92 || $0 == 0 }) else { return nil }
            parts.append(segment)
        }
        return parts.joined(separator: "/")
    }

    // MARK: - Worker side

    private struct Lookup: Sendable {
        let relative: String
        let requestPath: String
        let ifNoneMatch: String?
        let ifModifiedSince: Int?
        let isHead: Bool
    }

    private enum Outcome: Sendable {
        case notFound
        case redirect(String)
        case notModified(HTTPHeaders)
        case whole(HTTPHeaders, [UInt8])
        case stream(HTTPHeaders, FileStream)
    }

    /// The first root's answer that is not 404.
    private func resolve(_ lookup: Lookup) -> Outcome {
        for root in roots {
            let outcome = resolve(lookup, in: root)
            if case .notFound = outcome { continue }
            return outcome
        }
        return .notFound
    }

    private func resolve(_ lookup: Lookup, in root: String) -> Outcome {
        let wantsDirectory = lookup.relative.isEmpty || lookup.relative.hasSuffix("/")
        let trimmed = wantsDirectory && !lookup.relative.isEmpty ? String(lookup.relative.dropLast()) : lookup.relative
        guard var path = contained(trimmed.isEmpty ? root : root + "/" + trimmed, in: root) else { return .notFound }
        var type = Self.fileType(path)
        if type == S_IFDIR {
            guard wantsDirectory else { return .redirect(lookup.requestPath + "/") }
            guard let index = contained(path + "/" + indexFile, in: root) else { return .notFound }
            path = index
            type = Self.fileType(path)
        } else if wantsDirectory {
            return .notFound
        }
        guard type == S_IFREG else { return .notFound }

        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return .notFound }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            Glibc.close(fd)
            return .notFound
        }
        let size = Int(info.st_size)
        let modified = Int(info.st_mtim.tv_sec)
        let etag = "\"\(String(size, radix: 16))-\(String(modified, radix: 16))\(String(Int(info.st_mtim.tv_nsec), radix: 16))\""
        var headers = HTTPHeaders()
        headers.add(name: "ETag", value: etag)
        headers.add(name: "Last-Modified", value: HTTPDate.format(modified))
        if let cacheControl { headers.add(name: "Cache-Control", value: cacheControl) }

        if let ifNoneMatch = lookup.ifNoneMatch {
            if Self.matches(ifNoneMatch, etag: etag) {
                Glibc.close(fd)
                return .notModified(headers)
            }
        } else if let since = lookup.ifModifiedSince, modified <= since {
            Glibc.close(fd)
            return .notModified(headers)
        }

        headers.add(name: "Content-Type", value: MIMETypes.type(forPath: path))
        if lookup.isHead {
            Glibc.close(fd)
            headers.add(name: "Content-Length", value: String(size))
            return .whole(headers, [])
        }
        if size > streamThreshold {
            headers.add(name: "Content-Length", value: String(size))
            return .stream(headers, FileStream(fd: fd, size: size, chunkSize: streamThreshold))
        }
        let bytes = Self.read(fd, offset: 0, count: size)
        Glibc.close(fd)
        guard let bytes, bytes.count == size else { return .notFound }
        return .whole(headers, bytes)
    }

    /// `path` resolved, if it exists and lies inside `root`.
    private func contained(_ path: String, in root: String) -> String? {
        guard let resolved = Self.realPath(path), resolved == root || resolved.hasPrefix(root + "/") else { return nil }
        return resolved
    }

    /// Weak comparison against an `If-None-Match` list (`*` matches anything).
    static func matches(_ ifNoneMatch: String, etag: String) -> Bool {
        let strip = { (tag: String) -> String in tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag }
        return ifNoneMatch.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingHTTPWhitespace()
            return tag == "*" || strip(tag) == strip(etag)
        }
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func fileType(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    /// Reads up to `count` bytes at `offset`; nil on error.
    fileprivate static func read(_ fd: Int32, offset: Int, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { return nil }
            if got == 0 { break }
            done += got
        }
        return Array(bytes[..<done])
    }

    // MARK: - Loop side

    private func deliver(_ outcome: Outcome, to responder: HTTPResponder) {
        switch outcome {
        case .notFound:
            responder.respond(errorPage?(404) ?? .error(404))
        case .redirect(let location):
            responder.respond(HTTPResponse(status: 301, headers: ["Location": location]))
        case .notModified(let headers):
            responder.respond(HTTPResponse(status: 304, headers: headers))
        case .whole(let headers, let body):
            responder.respond(HTTPResponse(status: 200, headers: headers, body: body))
        case .stream(let headers, let file):
            guard responder.startStream(status: 200, headers: headers) else {
                file.close()
                return
            }
            responder.onClose = { _ in file.cancel() }
            pump(file, to: LoopBound(responder))
        }
    }

    /// Reads the next chunk on the queue, writes it on the loop, and repeats from the
    /// write's completion (one chunk in flight).
    private func pump(_ file: FileStream, to target: LoopBound<HTTPResponder>) {
        let loop = target.value.loop
        queue.async { [self] in
            let chunk = file.nextChunk()
            loop.execute { [self] in
                let responder = target.value
                guard let chunk, !chunk.isEmpty, !file.isCancelled else {
                    file.close()
                    responder.end()
                    return
                }
                let accepted = responder.write(chunk) { [self] ok in
                    if ok, !file.isFinished {
                        pump(file, to: target)
                    } else {
                        file.close()
                        if ok { responder.end() }
                    }
                }
                if !accepted { file.close() }
            }
        }
    }
}

/// An open file being streamed. Its steps (read on the queue, write on the loop) strictly
/// alternate, each handing over to the next, so fields are never touched concurrently;
/// `cancelled` may be set from the loop while a read runs and is atomic.
private final class FileStream: @unchecked Sendable {
    private var fd: Int32
    private let size: Int
    private let chunkSize: Int
    private var offset = 0
    private let lock = FileStreamLock()
    private var cancelled = false

    init(fd: Int32, size: Int, chunkSize: Int) {
        self.fd = fd
        self.size = size
        self.chunkSize = chunkSize
    }

    var isFinished: Bool { offset >= size }
    var isCancelled: Bool { lock.withLock { cancelled } }

    func cancel() { lock.withLock { cancelled = true } }

    /// The next chunk (queue side); nil on error.
    func nextChunk() -> [UInt8]? {
        guard !isCancelled, offset < size else { return [] }
        let count = min(chunkSize, size - offset)
        guard let bytes = lock.withLock({ fd >= 0 ? StaticFiles.readChunk(fd, offset: offset, count: count) : nil }) else {
            return nil
        }
        offset += bytes.count
        return bytes
    }

    func close() {
        lock.withLock {
            if fd >= 0 {
                Glibc.close(fd)
                fd = -1
            }
        }
    }

    deinit { close() }
}

extension StaticFiles {
    fileprivate static func readChunk(_ fd: Int32, offset: Int, count: Int) -> [UInt8]? {
        read(fd, offset: offset, count: count)
    }
}

/// A pthread mutex (this module does not import Foundation), in memory that does not move.
private final class FileStreamLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}
