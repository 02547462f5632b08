import BinderyProtocol
import BinderyRuntime
import Redis

/// The Lua scripts behind a shared scene's ownership. Each runs atomically in Redis, which
/// is the only arbiter: no consensus of Bindery's own.
enum SharedSceneScripts {
    /// Takes the owner lease if nobody holds it and bumps the fencing epoch, in one step.
    /// KEYS: owner, epoch. ARGV: this process's token, lease milliseconds.
    /// Returns the new epoch, or nil when someone else owns the scene.
    static let acquire = RedisScript("""
        if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
          return redis.call('INCR', KEYS[2])
        end
        return false
        """)

    /// Extends the lease if this process still holds it under this epoch.
    /// KEYS: owner, epoch. ARGV: token, lease milliseconds, epoch. Returns 1 or 0.
    static let refresh = RedisScript("""
        if redis.call('GET', KEYS[1]) == ARGV[1] and redis.call('GET', KEYS[2]) == ARGV[3] then
          redis.call('PEXPIRE', KEYS[1], ARGV[2])
          return 1
        end
        return 0
        """)

    /// Gives the lease up (a clean stop), if this process holds it.
    /// KEYS: owner. ARGV: token.
    static let release = RedisScript("""
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
        return 0
        """)

    /// Commits one batch, fenced by the epoch: one `XADD` to the outbox per entry, then,
    /// when asked, the snapshot (state after the batch, last applied inbox id, last outbox
    /// id), all or nothing. The last entry of a batch also carries the last applied inbox
    /// id (`i`), so the snapshot may lag the outbox: a new owner loads the snapshot, then
    /// applies the outbox entries after its `out` and reads the inbox after the last `i`.
    /// So an answer a client can see is always in the snapshot plus the outbox after it.
    /// The inbox is trimmed up to the last applied id: a new owner never reads before it
    /// (what is trimmed past a lagging snapshot is viewer counts only: every event has an
    /// outbox entry).
    /// KEYS: epoch, out, snap, in. ARGV: epoch, maxlen, last inbox id, version, "1" to
    /// write the snapshot (else "0"), widgets JSON, viewer counts, the scene's encoded state
    /// (or ""), then 5 fields per entry (version, origin, forward id, answer, patch).
    /// Returns the last outbox id written (nil when none), or the error `FENCED`.
    static let commit = RedisScript("""
        if redis.call('GET', KEYS[1]) ~= ARGV[1] then
          return redis.error_reply('FENCED epoch ' .. ARGV[1] .. ' is stale')
        end
        local last = false
        local n = #ARGV
        for i = 9, n, 5 do
          if i + 5 > n then
            last = redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], '*',
              'v', ARGV[i], 'o', ARGV[i + 1], 'f', ARGV[i + 2], 'a', ARGV[i + 3], 'p', ARGV[i + 4], 'i', ARGV[3])
          else
            last = redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], '*',
              'v', ARGV[i], 'o', ARGV[i + 1], 'f', ARGV[i + 2], 'a', ARGV[i + 3], 'p', ARGV[i + 4])
          end
        end
        if ARGV[5] == '1' then
          local out = last
          if not out then
            -- Only the owner writes the outbox: its newest entry is the newest committed.
            local newest = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)[1]
            out = newest and newest[1] or redis.call('HGET', KEYS[3], 'out') or '0-0'
          end
          redis.call('HSET', KEYS[3], 'epoch', ARGV[1], 'in', ARGV[3], 'v', ARGV[4], 'widgets', ARGV[6],
            'counts', ARGV[7], 'state', ARGV[8], 'out', out)
        end
        redis.call('XTRIM', KEYS[4], 'MINID', '~', ARGV[3])
        return last
        """)
}
