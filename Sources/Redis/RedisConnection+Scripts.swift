extension RedisConnection {
    /// Runs `script` with `EVALSHA`; when Redis answers `NOSCRIPT` (it does not have the
    /// script), runs it again with `EVAL`, which also caches it. Loop-confined.
    ///
    /// The fallback `EVAL` goes out after whatever was sent meanwhile; where order
    /// matters, ``register(_:)`` the script so it is loaded on every connect.
    public func evalSHA(_ script: RedisScript, keys: [String] = [], arguments: [String] = [],
                        timeout: Duration? = nil, completion: @escaping Completion) {
        let tail = [String(keys.count)] + keys + arguments
        send(["EVALSHA", script.sha1] + tail, timeout: timeout) { [weak self] result in
            if case .failure(.server(let message)) = result, message.hasPrefix("NOSCRIPT"), let self {
                self.send(["EVAL", script.source] + tail, timeout: timeout, completion: completion)
            } else {
                completion(result)
            }
        }
    }
}
