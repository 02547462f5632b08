import Foundation
import HTTPServer

/// Serves the app's `public/` directory: `/` is `index.html`, `/scene/<name>` is
/// `scene.html` for every registered scene (404 for others), everything else is a file
/// under the directory.
///
/// Interim: reads small files synchronously with strict path checks (no `.`/`..`
/// segments, no hidden files, no `/` or NUL inside a segment, symlinks resolved and kept
/// inside the root). It gives way to `HTTPServer.StaticFiles` (non-blocking, ETags) once
/// that lands on `main`.
final class PublicFiles {
    let root: URL
    private let resolvedRoot: String

    init?(directory: String) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            return nil
        }
        root = URL(fileURLWithPath: directory).standardizedFileURL.resolvingSymlinksInPath()
        resolvedRoot = root.path
    }

    /// Answers `path` (already routed) from the root.
    func serve(_ request: HTTPRequest, path: String, _ responder: HTTPResponder) {
        guard request.method == "GET" || request.method == "HEAD" else {
            responder.respond(.error(405, headers: ["Allow": "GET, HEAD"]))
            return
        }
        responder.respond(response(for: path))
    }

    func response(for path: String) -> HTTPResponse {
        var segments: [String] = []
        for raw in path.split(separator: "/", omittingEmptySubsequences: true) {
            guard let segment = String(raw).removingPercentEncoding, !segment.isEmpty, !segment.hasPrefix("."),
                  !segment.contains("/"), !segment.contains("\0"), !segment.contains("\\") else {
                return .error(404)
            }
            segments.append(segment)
        }
        var url = segments.reduce(root) { $0.appendingPathComponent($1) }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            if !path.hasSuffix("/") {
                return HTTPResponse(status: 301, headers: ["Location": path + "/"])
            }
            url.appendPathComponent("index.html")
        }
        let resolved = url.resolvingSymlinksInPath().path
        guard resolved == resolvedRoot || resolved.hasPrefix(resolvedRoot + "/"),
              let data = FileManager.default.contents(atPath: resolved) else {
            return .error(404)
        }
        return HTTPResponse(status: 200, headers: ["Content-Type": Self.mimeType(url.pathExtension), "Cache-Control": "no-cache"],
                            body: [UInt8](data))
    }

    static func mimeType(_ pathExtension: String) -> String {
        switch pathExtension.lowercased() {
        case "html", "htm": return "text/html; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "json": return "application/json"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "ico": return "image/x-icon"
        case "txt", "md": return "text/plain; charset=utf-8"
        case "woff2": return "font/woff2"
        default: return "application/octet-stream"
        }
    }
}
