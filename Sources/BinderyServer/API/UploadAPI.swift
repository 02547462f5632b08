import BinderyCluster
import BinderyProtocol
import BinderyRuntime
import Foundation
import HTTPServer
import RxWidgets

/// `POST /api/sessions/<id>/uploads/<picker>`: a file upload for scripts, the body being
/// the file's bytes (`curl --data-binary @photo.png`).
///
/// The name comes from `?name=`, else an `X-Filename` header, else `upload`; the type from
/// `Content-Type` (curl's default `application/x-www-form-urlencoded` counts as none),
/// else the name's extension. It runs the same steps as a WebSocket upload (begin, one
/// chunk, end) with the same caps, so bindings fire as for a browser's upload and SSE
/// streams see their patches. Answers: `200` with the `patch` of the last step;
/// `413` (`upload-too-large`), `400` (`upload-out-of-order`, `bad-value`), `404`
/// (unknown session or picker), `409` (`disabled`), `429` (`rate-limited`), as
/// `{"error": code, "message": …}`. The body is read whole before this runs; one larger
/// than the HTTP server's body limit (`--max-upload-size` plus 64 KiB) gets its plain 413.
final class UploadAPI {
    private let store: SessionStore
    private let origins: OriginPolicy
    private var nextID = 0

    init(store: SessionStore, origins: OriginPolicy) {
        self.store = store
        self.origins = origins
    }

    func register(on router: Router) {
        router.post("/api/sessions/:id/uploads/:target") { [self] request, responder in
            store.metrics.apiRequests += 1
            var response = upload(request)
            response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
            responder.respond(response)
        }
    }

    private func upload(_ request: HTTPRequest) -> HTTPResponse {
        guard origins.allows(origin: request.headers["Origin"], host: request.headers["Host"]) else {
            return SessionAPI.errorResponse(403, code: "origin-not-allowed",
                                            message: "origin \(request.headers["Origin"] ?? "") is not allowed")
        }
        guard let token = request.parameters["id"], let session = store.session(id: token) else {
            return SessionAPI.errorResponse(404, code: "unknown-session", message: "no such session (unknown, ended or expired)")
        }
        store.touch(session)
        let target = request.parameters["target"] ?? ""
        let name = Self.fileName(request)
        let contentType = Self.contentType(request, name: name)
        nextID += 1
        let id = "http-\(nextID)"
        let steps: [UploadMessage.Step] = [
            .begin(name: name, contentType: contentType, size: request.body.count, last: true),
            .chunk(offset: 0, data: Data(request.body)),
            .end,
        ]
        var answer: ServerMessage?
        for step in steps {
            answer = session.handleUpload(UploadMessage(target: target, upload: id, step: step), from: nil)
            if case .error(let error) = answer {
                return SessionAPI.errorResponse(Self.status(for: error.code), code: error.code.rawValue, message: error.message)
            }
        }
        return .json(answer.map(MessageEncoder.encode) ?? "null")
    }

    /// The HTTP status for an upload's error code.
    static func status(for code: ErrorCode) -> Int {
        switch code {
        case .uploadTooLarge: return 413
        case .unknownTarget: return 404
        case .disabled: return 409
        case .rateLimited: return 429
        default: return 400
        }
    }

    private static func fileName(_ request: HTTPRequest) -> String {
        let given = request.queryValue("name") ?? request.headers["X-Filename"] ?? ""
        // A name, never a path.
        let base = given.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        return base.isEmpty ? "upload" : base
    }

    private static func contentType(_ request: HTTPRequest, name: String) -> String {
        if let header = request.headers["Content-Type"] {
            let type = header.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            if !type.isEmpty, type != "application/x-www-form-urlencoded" { return type }
        }
        return contentType(forExtensionOf: name)
    }

    /// A few common types by file extension (what a browser would say).
    static func contentType(forExtensionOf name: String) -> String {
        let types = [
            "txt": "text/plain", "md": "text/markdown", "csv": "text/csv", "json": "application/json",
            "html": "text/html", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
            "svg": "image/svg+xml", "webp": "image/webp", "pdf": "application/pdf",
        ]
        guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
        return types[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }
}
