import BinderyProtocol
import BinderyRuntime
import Redis

/// The Lua scripts behind ``RedisSessionPersistence``. Each runs atomically in Redis, so
/// the epoch check and the write it guards cannot be split by another process's takeover.
/// KEYS[1] is `bindery:s:<token>` (a hash), KEYS[2] its journal `bindery:s:<token>:log`.
enum RedisSessionScripts {
    /// ARGV: ttl ms, scene, created, owner, restoration, parameters JSON or ''. A new
    /// session at epoch 1; FENCED if the token exists (a retried creation that landed).
    static let create = RedisScript("""
        if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('FENCED exists') end
        redis.call('DEL', KEYS[2])
        redis.call('HSET', KEYS[1], 'scene', ARGV[2], 'created', ARGV[3], 'owner', ARGV[4], 'epoch', '1', 'mode', ARGV[5])
        if ARGV[6] ~= '' then redis.call('HSET', KEYS[1], 'params', ARGV[6]) end
        redis.call('PEXPIRE', KEYS[1], ARGV[1])
        return 1
        """)

    /// ARGV: epoch, ttl ms, seq or '', event JSON or '', state JSON or ''. Fenced append.
    /// A state replaces the journal (it is the scene after this event: compaction, or
    /// `.encoded`'s state).
    static let append = RedisScript("""
        if redis.call('HGET', KEYS[1], 'epoch') ~= ARGV[1] then return redis.error_reply('FENCED epoch moved on') end
        if ARGV[5] ~= '' then
          redis.call('HSET', KEYS[1], 'state', ARGV[5])
          redis.call('DEL', KEYS[2])
        elseif ARGV[4] ~= '' then
          redis.call('RPUSH', KEYS[2], ARGV[4])
          redis.call('PEXPIRE', KEYS[2], ARGV[2])
        end
        if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'seq', ARGV[3]) end
        redis.call('PEXPIRE', KEYS[1], ARGV[2])
        return 1
        """)

    /// ARGV: owner, ttl ms, scene or '' (any). Raises the epoch, takes ownership;
    /// {hash, journal} or nil; a session of another scene is left alone (`SCENE <name>`).
    static let takeOver = RedisScript("""
        if redis.call('EXISTS', KEYS[1]) == 0 then return false end
        local scene = redis.call('HGET', KEYS[1], 'scene')
        if ARGV[3] ~= '' and scene ~= ARGV[3] then return redis.error_reply('SCENE ' .. tostring(scene)) end
        redis.call('HINCRBY', KEYS[1], 'epoch', 1)
        redis.call('HSET', KEYS[1], 'owner', ARGV[1])
        redis.call('PEXPIRE', KEYS[1], ARGV[2])
        redis.call('PEXPIRE', KEYS[2], ARGV[2])
        return {redis.call('HGETALL', KEYS[1]), redis.call('LRANGE', KEYS[2], 0, -1)}
        """)

    /// ARGV: epoch, ttl ms, owner ('' to release). Fenced TTL refresh (and owner change).
    static let refresh = RedisScript("""
        if redis.call('HGET', KEYS[1], 'epoch') ~= ARGV[1] then return redis.error_reply('FENCED epoch moved on') end
        if ARGV[3] == '' then redis.call('HSET', KEYS[1], 'owner', '') end
        redis.call('PEXPIRE', KEYS[1], ARGV[2])
        redis.call('PEXPIRE', KEYS[2], ARGV[2])
        return 1
        """)

    /// ARGV: epoch. Deletes both keys if the epoch is still the session's.
    static let delete = RedisScript("""
        if redis.call('HGET', KEYS[1], 'epoch') ~= ARGV[1] then return 0 end
        return redis.call('DEL', KEYS[1], KEYS[2])
        """)

    /// ARGV: owner (the taker's), the taker's process id, token, hint TTL ms, scene or ''
    /// (a session of another scene is not asked about: the takeover refuses it). Asks the
    /// session's owner to release it (CLUSTER.md's takeover hint): pushes
    /// `r <token> <taker>` to `bindery:proc:<owner's process>:hints` when the owner is
    /// another process whose lease (`bindery:proc:<id>` = its incarnation) is alive.
    /// {1, the owner's hint reader's client id or ''} when asked, {0} when there is
    /// nobody to ask.
    static let hint = RedisScript("""
        if ARGV[5] ~= '' and redis.call('HGET', KEYS[1], 'scene') ~= ARGV[5] then return {0} end
        local owner = redis.call('HGET', KEYS[1], 'owner')
        if not owner or owner == '' or owner == ARGV[1] then return {0} end
        local process, incarnation = string.match(owner, '^(.*):([^:]*)$')
        if not process or redis.call('GET', 'bindery:proc:' .. process) ~= incarnation then return {0} end
        local hints = 'bindery:proc:' .. process .. ':hints'
        redis.call('RPUSH', hints, 'r ' .. ARGV[3] .. ' ' .. ARGV[2])
        redis.call('PEXPIRE', hints, ARGV[4])
        return {1, redis.call('GET', 'bindery:proc:' .. process .. ':reader') or ''}
        """)

    static let all = [create, append, takeOver, refresh, delete, hint]
}
