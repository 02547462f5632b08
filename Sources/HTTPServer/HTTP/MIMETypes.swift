/// Content types by file extension, for static files.
public enum MIMETypes {
    /// The type for a file name's extension (case-insensitive);
    /// `application/octet-stream` when unknown. Text types carry `charset=utf-8`.
    public static func type(forPath path: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return fallback }
        return table[path[path.index(after: dot)...].lowercased()] ?? fallback
    }

    /// The type for unknown extensions.
    public static let fallback = "application/octet-stream"

    private static let table: [String: String] = [
        "html": "text/html; charset=utf-8",
        "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "json": "application/json",
        "map": "application/json",
        "txt": "text/plain; charset=utf-8",
        "md": "text/markdown; charset=utf-8",
        "csv": "text/csv; charset=utf-8",
        "xml": "application/xml",
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "webp": "image/webp",
        "avif": "image/avif",
        "ico": "image/vnd.microsoft.icon",
        "woff": "font/woff",
        "woff2": "font/woff2",
        "ttf": "font/ttf",
        "otf": "font/otf",
        "wasm": "application/wasm",
        "pdf": "application/pdf",
        "zip": "application/zip",
        "gz": "application/gzip",
        "mp3": "audio/mpeg",
        "mp4": "video/mp4",
        "webm": "video/webm",
        "webmanifest": "application/manifest+json",
    ]
}
