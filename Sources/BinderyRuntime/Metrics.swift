import BinderyProtocol

/// Counters for `GET /metrics` (Prometheus text exposition format 0.0.4).
///
/// Loop-confined: everything that counts runs on the loop.
public final class Metrics {
    /// Client events handled.
    public var events = 0
    /// Patches sent over WebSockets and event streams.
    public var patchesSent = 0
    /// Bytes of patch JSON sent.
    public var patchBytes = 0
    /// Messages of any type sent over WebSockets and event streams.
    public var messagesSent = 0
    /// Sessions created.
    public var sessionsCreated = 0
    /// Sessions resumed.
    public var sessionsResumed = 0
    /// Sessions ended (any reason).
    public var sessionsEnded = 0
    /// Sessions refused by a limit.
    public var sessionsRefused = 0
    /// Clients (WebSockets, streams, in-process) attached now.
    public var clientsConnected = 0
    /// WebSocket connections accepted.
    public var webSocketsAccepted = 0
    /// WebSocket upgrades refused because ``BinderyApp/Configuration/maxWebSockets`` were open.
    public var webSocketsRefused = 0
    /// HTTP requests answered by the API.
    public var apiRequests = 0
    /// Errors sent, by code.
    public private(set) var errors: [ErrorCode: Int] = [:]

    /// Zeroed counters.
    public init() {}

    /// Counts an error sent with `code`.
    public func countError(_ code: ErrorCode) {
        errors[code, default: 0] += 1
    }

    /// Counts a message sent over a socket or stream.
    package func countSent(_ message: OutgoingMessage, bytes: Int) {
        messagesSent += 1
        if case .patch = message.message {
            patchesSent += 1
            patchBytes += bytes
        }
    }

    /// The exposition text. `gauges` adds current values (connections, sessions).
    public func render(sessions: Int, webSocketConnections: Int, httpConnections: Int) -> String {
        var out = ""
        func metric(_ name: String, _ type: String, _ help: String, _ value: Int, labels: String = "") {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name)\(labels) \(value)\n"
        }
        metric("bindery_websocket_connections", "gauge", "Open WebSocket connections.", webSocketConnections)
        metric("bindery_http_connections", "gauge", "Open HTTP connections.", httpConnections)
        metric("bindery_clients", "gauge", "Clients attached to sessions (WebSockets, event streams).", clientsConnected)
        metric("bindery_sessions", "gauge", "Live sessions.", sessions)
        metric("bindery_sessions_created_total", "counter", "Sessions created.", sessionsCreated)
        metric("bindery_sessions_resumed_total", "counter", "Sessions resumed after a dropped connection.", sessionsResumed)
        metric("bindery_sessions_ended_total", "counter", "Sessions ended (bye, delete, expiry, shutdown).", sessionsEnded)
        metric("bindery_sessions_refused_total", "counter", "Sessions refused by a limit.", sessionsRefused)
        metric("bindery_websockets_accepted_total", "counter", "WebSocket connections accepted.", webSocketsAccepted)
        metric("bindery_websockets_refused_total", "counter", "WebSocket upgrades refused by the connection limit.",
               webSocketsRefused)
        metric("bindery_api_requests_total", "counter", "HTTP API requests.", apiRequests)
        metric("bindery_events_total", "counter", "Client events handled (rate: rate(bindery_events_total[1m])).", events)
        metric("bindery_messages_sent_total", "counter", "Messages sent to clients.", messagesSent)
        metric("bindery_patches_sent_total", "counter", "Patches sent to clients.", patchesSent)
        metric("bindery_patch_bytes_total", "counter", "Bytes of patch JSON sent to clients.", patchBytes)
        out += "# HELP bindery_errors_total Protocol errors sent to clients, by code.\n# TYPE bindery_errors_total counter\n"
        for code in ErrorCode.allCases {
            out += "bindery_errors_total{code=\"\(code.rawValue)\"} \(errors[code, default: 0])\n"
        }
        return out
    }
}
