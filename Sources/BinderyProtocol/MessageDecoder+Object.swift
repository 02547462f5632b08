extension MessageDecoder {
    /// `text` as a JSON tree; a ``ServerFailure`` when it is not JSON.
    static func parseTree(_ text: String) throws(ServerFailure) -> JSONValue {
        do throws(JSONError) {
            return try JSONValue.parse(text)
        } catch {
            throw ServerFailure("not valid JSON: \(error)")
        }
    }

    /// A JSON object of a server message, its members read by key with the type each
    /// must have; a wrong one is a ``ServerFailure`` naming the key.
    struct ObjectReader {
        /// The members, in document order.
        let members: [JSONMember]
        /// What the object is, for messages (`a patch`, `a widget`).
        let what: String

        /// `value`'s members; a failure when it is not an object.
        init(_ value: JSONValue, _ what: String) throws(ServerFailure) {
            guard case .object(let members) = value else { throw ServerFailure("\(what) must be a JSON object") }
            self.members = members
            self.what = what
        }

        /// The value of `key`, if present (a `null` included).
        subscript(key: String) -> JSONValue? {
            members.first { $0.key == key }?.value
        }

        /// `key`'s value when present and not `null`.
        private func present(_ key: String) -> JSONValue? {
            guard let value = self[key], value != .null else { return nil }
            return value
        }

        private func missing(_ key: String, _ type: String) -> ServerFailure {
            ServerFailure("\(what) needs '\(key)' (\(type))")
        }

        private func wrong(_ key: String, _ type: String) -> ServerFailure {
            ServerFailure("\(what)'s '\(key)' must be \(type)")
        }

        /// The string `key`.
        func string(_ key: String) throws(ServerFailure) -> String {
            guard let value = try optionalString(key) else { throw missing(key, "a string") }
            return value
        }

        /// The string `key`, or nil when absent.
        func optionalString(_ key: String) throws(ServerFailure) -> String? {
            guard let value = present(key) else { return nil }
            guard case .string(let string) = value else { throw wrong(key, "a string") }
            return string
        }

        /// The integer `key`.
        func integer(_ key: String) throws(ServerFailure) -> Int {
            guard let value = try optionalInteger(key) else { throw missing(key, "an integer") }
            return value
        }

        /// The integer `key`, or nil when absent.
        func optionalInteger(_ key: String) throws(ServerFailure) -> Int? {
            guard let value = present(key) else { return nil }
            guard case .number(let number) = value, let integer = Int(exactly: number) else { throw wrong(key, "an integer") }
            return integer
        }

        /// The number `key`, or nil when absent.
        func optionalNumber(_ key: String) throws(ServerFailure) -> Double? {
            guard let value = present(key) else { return nil }
            guard case .number(let number) = value else { throw wrong(key, "a number") }
            return number
        }

        /// The Boolean `key`.
        func bool(_ key: String) throws(ServerFailure) -> Bool {
            guard let value = try optionalBool(key) else { throw missing(key, "a boolean") }
            return value
        }

        /// The Boolean `key`, or nil when absent.
        func optionalBool(_ key: String) throws(ServerFailure) -> Bool? {
            guard let value = present(key) else { return nil }
            guard case .bool(let bool) = value else { throw wrong(key, "a boolean") }
            return bool
        }

        /// The array `key`.
        func array(_ key: String) throws(ServerFailure) -> [JSONValue] {
            guard let value = try optionalArray(key) else { throw missing(key, "an array") }
            return value
        }

        /// The array `key`, or nil when absent.
        func optionalArray(_ key: String) throws(ServerFailure) -> [JSONValue]? {
            guard let value = present(key) else { return nil }
            guard case .array(let elements) = value else { throw wrong(key, "an array") }
            return elements
        }
    }
}
