import BinderyCluster
import BinderyProtocol
import BinderyRuntime
import HTTPServer

/// Bindery's error answers: JSON `{"error": "<code>", "message": "..."}` under `/api/`
/// (like every API error), a small styled HTML page with a link home everywhere else.
enum ErrorPage {
    /// JSON for an `/api/` path, HTML otherwise.
    static func response(for path: String, status: Int, detail: String?) -> HTTPResponse {
        if path == "/api" || path.hasPrefix("/api/") {
            return SessionAPI.errorResponse(status, code: code(for: status), message: detail ?? HTTPStatus.reason(for: status))
        }
        return html(status: status, detail: detail)
    }

    /// `not-found`, `method-not-allowed`, `bad-request`...: the reason phrase in kebab case.
    static func code(for status: Int) -> String {
        String(HTTPStatus.reason(for: status).lowercased().map { $0 == " " ? "-" : $0 }.filter { $0.isLetter || $0 == "-" })
    }

    /// The HTML page for `status`; `detail` (plain text, escaped here) replaces the default sentence.
    static func html(status: Int, detail: String? = nil) -> HTTPResponse {
        let reason = HTTPStatus.reason(for: status)
        let sentence: String
        switch status {
        case 404: sentence = detail ?? "There is nothing at this address."
        case 405: sentence = detail ?? "This address does not take that kind of request."
        default: sentence = detail ?? "The request could not be answered."
        }
        let page = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(status) \(escaped(reason))</title>
            <style>
              :root { color-scheme: light dark; --bg: #f6f7f9; --fg: #1d2127; --muted: #4b5563; --accent: #1d4ed8; --card: #fff; }
              @media (prefers-color-scheme: dark) {
                :root { --bg: #111418; --fg: #e8eaed; --muted: #b6bcc6; --accent: #8ab4ff; --card: #1b1f25; }
              }
              body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: var(--bg);
                     color: var(--fg); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
              main { background: var(--card); padding: 2rem 2.5rem; border-radius: 14px; max-width: 32rem; margin: 1rem;
                     box-shadow: 0 1px 3px rgb(0 0 0 / 0.12); }
              h1 { margin: 0 0 .25rem; font-size: 1.6rem; }
              .status { color: var(--muted); font-variant-numeric: tabular-nums; margin: 0 0 1rem; }
              a { color: var(--accent); font-weight: 600; }
              a:focus-visible { outline: 3px solid var(--accent); outline-offset: 3px; border-radius: 4px; }
            </style>
            </head>
            <body>
            <main>
              <h1>\(escaped(reason))</h1>
              <p class="status">Error \(status)</p>
              <p>\(escaped(sentence))</p>
              <p><a href="/">Go to the home page</a></p>
            </main>
            </body>
            </html>

            """
        return .html(page, status: status, headers: ["Cache-Control": "no-store"])
    }

    private static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
