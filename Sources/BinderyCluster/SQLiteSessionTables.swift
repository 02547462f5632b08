import BinderyRuntime

/// The session store's schema and its fenced operations on one ``SQLiteDatabase``: the
/// Lua scripts of ``RedisSessionScripts`` as SQL, with the same answers. Each runs inside
/// the worker's batch transaction, so the epoch check and the write it guards cannot be
/// split (and SQLite's file lock keeps a second process out meanwhile).
///
/// Tables: `sessions` (one row a session: scene, created, owner, epoch, seq, mode, state,
/// params, `expires` in ms since 1970) and `journal` (token, n, event: the journal in
/// `n` order). A session whose `expires` has passed is deleted before any operation
/// reads it, so it is gone on read, and the periodic sweep deletes the rest.
///
/// Worker-confined (the thread that owns the database).
struct SQLiteSessionTables {
    /// What an operation answers (the loop turns it into the protocol's results).
    enum Reply: Sendable {
        case done
        case fenced
        case otherScene(String)
        case session(StoredSession?)
    }

    let database: SQLiteDatabase

    /// WAL and `synchronous=FULL`: an ack promises the event survives, power loss
    /// included, and NORMAL in WAL mode may lose the last commits on power loss; the cost
    /// is one fsync per batch (a loop turn's writes share it).
    static let setUp = """
        PRAGMA journal_mode=WAL;
        PRAGMA synchronous=FULL;
        CREATE TABLE IF NOT EXISTS sessions(
            token TEXT PRIMARY KEY, scene TEXT NOT NULL, created REAL NOT NULL, owner TEXT NOT NULL,
            epoch INTEGER NOT NULL, seq INTEGER, mode TEXT NOT NULL, state TEXT, params TEXT NOT NULL,
            expires INTEGER NOT NULL) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS sessions_expires ON sessions(expires);
        CREATE TABLE IF NOT EXISTS journal(
            token TEXT NOT NULL, n INTEGER NOT NULL, event TEXT NOT NULL, PRIMARY KEY(token, n)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS probe(id INTEGER PRIMARY KEY, at INTEGER NOT NULL);
        """

    /// Deletes the sessions (and journals) expired at `now` (ms since 1970).
    func sweep(now: Int64) throws(SQLiteError) {
        try database.run("DELETE FROM journal WHERE token IN (SELECT token FROM sessions WHERE expires <= ?)", [.integer(now)])
        try database.run("DELETE FROM sessions WHERE expires <= ?", [.integer(now)])
    }

    /// A small write, so a store in trouble learns when writes work again.
    func probe(now: Int64) throws(SQLiteError) {
        try database.run("INSERT OR REPLACE INTO probe(id, at) VALUES(1, ?)", [.integer(now)])
    }

    /// A new session at epoch 1; fenced if the token exists (a retried creation that landed).
    func create(_ session: StoredSession, owner: String, params: String, expires: Int64) throws(SQLiteError) -> Reply {
        if try epoch(session.token) != nil { return .fenced }
        try database.run("DELETE FROM journal WHERE token = ?", [.text(session.token)])
        try database.run("""
            INSERT INTO sessions(token, scene, created, owner, epoch, seq, mode, state, params, expires)
            VALUES(?, ?, ?, ?, 1, NULL, ?, NULL, ?, ?)
            """, [.text(session.token), .text(session.scene), .real(session.createdAt), .text(owner),
                  .text(session.restoration.rawValue), .text(params), .integer(expires)])
        return .done
    }

    /// Fenced append; a state replaces the journal (compaction, or `.encoded`'s state).
    func append(token: String, epoch: Int64, seq: Int?, event: String?, state: String?, expires: Int64) throws(SQLiteError) -> Reply {
        guard try self.epoch(token) == epoch else { return .fenced }
        if let state {
            try database.run("UPDATE sessions SET state = ? WHERE token = ?", [.text(state), .text(token)])
            try database.run("DELETE FROM journal WHERE token = ?", [.text(token)])
        } else if let event {
            try database.run("""
                INSERT INTO journal(token, n, event)
                VALUES(?1, (SELECT COALESCE(MAX(n), 0) + 1 FROM journal WHERE token = ?1), ?2)
                """, [.text(token), .text(event)])
        }
        if let seq { try database.run("UPDATE sessions SET seq = ? WHERE token = ?", [.integer(Int64(seq)), .text(token)]) }
        try database.run("UPDATE sessions SET expires = ? WHERE token = ?", [.integer(expires), .text(token)])
        return .done
    }

    /// Raises the epoch and takes ownership; the session as it is then, or nil; a session
    /// of another scene is left alone.
    func takeOver(token: String, scene: String?, owner: String, expires: Int64) throws(SQLiteError) -> Reply {
        var found: (scene: String, created: Double, epoch: Int64, seq: Int64?, mode: String, state: String?, params: String)?
        try database.run("SELECT scene, created, epoch, seq, mode, state, params FROM sessions WHERE token = ?", [.text(token)]) { row in
            found = (row.text(0) ?? "", row.real(1) ?? 0, row.integer(2) ?? 0, row.integer(3), row.text(4) ?? "",
                     row.text(5), row.text(6) ?? "")
        }
        guard let found else { return .session(nil) }
        if let scene, scene != found.scene { return .otherScene(found.scene) }
        try database.run("UPDATE sessions SET epoch = epoch + 1, owner = ?, expires = ? WHERE token = ?",
                         [.text(owner), .integer(expires), .text(token)])
        var journal: [String] = []
        try database.run("SELECT event FROM journal WHERE token = ? ORDER BY n", [.text(token)]) { row in
            journal.append(row.text(0) ?? "")
        }
        return .session(StoredSession(token: token, scene: found.scene, createdAt: found.created, epoch: found.epoch + 1,
                                      lastSeq: found.seq.map { Int($0) },
                                      restoration: SceneRestoration(rawValue: found.mode) ?? .replay,
                                      journal: journal, state: found.state, owner: owner,
                                      parameters: RedisSessionPersistence.decode(found.params)))
    }

    /// Fenced TTL refresh; `release` clears the owner.
    func refresh(token: String, epoch: Int64, release: Bool, expires: Int64) throws(SQLiteError) -> Reply {
        guard try self.epoch(token) == epoch else { return .fenced }
        if release { try database.run("UPDATE sessions SET owner = '' WHERE token = ?", [.text(token)]) }
        try database.run("UPDATE sessions SET expires = ? WHERE token = ?", [.integer(expires), .text(token)])
        return .done
    }

    /// Deletes the session's rows if the epoch is still its epoch; otherwise nothing.
    func delete(token: String, epoch: Int64) throws(SQLiteError) -> Reply {
        guard try self.epoch(token) == epoch else { return .done }
        try database.run("DELETE FROM journal WHERE token = ?", [.text(token)])
        try database.run("DELETE FROM sessions WHERE token = ?", [.text(token)])
        return .done
    }

    private func epoch(_ token: String) throws(SQLiteError) -> Int64? {
        try database.integer("SELECT epoch FROM sessions WHERE token = ?", [.text(token)])
    }
}
