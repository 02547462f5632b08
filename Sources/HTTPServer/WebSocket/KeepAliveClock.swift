import EventLoop
import Synchronization

/// One repeating timer per loop and interval that ticks the keep-alive of every
/// WebSocket on that loop, so an idle connection holds no libuv timer of its own (a
/// timer handle, its object and handler are about 0.3 KiB a connection).
///
/// A connection's first tick comes one to two intervals after it joins, never sooner
/// than one; then one every interval, as with a timer of its own.
///
/// Loop-confined: a clock is used on its loop's thread only. The registry that finds a
/// loop's clock is shared by all loops, hence its lock.
final class KeepAliveClock: @unchecked Sendable {
    private struct Key: Hashable {
        let loop: ObjectIdentifier
        let interval: Duration
    }

    private struct Member {
        let connection: WebSocketConnection
        /// The clock's tick count when it joined: the next tick is less than an interval away.
        let joinedAt: Int
    }

    private static let clocks = Mutex<[Key: KeepAliveClock]>([:])

    private let key: Key
    /// Tells a clock of this loop from one of a dead loop at the same address.
    private weak var loop: EventLoop?
    private let timer: LoopTimer
    private var members: [ObjectIdentifier: Member] = [:]
    private var ticks = 0

    private init(key: Key, loop: EventLoop) {
        self.key = key
        self.loop = loop
        timer = LoopTimer(loop: loop)
    }

    /// Ticks `connection` every `interval` from now on (see the type's documentation).
    static func join(_ connection: WebSocketConnection, loop: EventLoop, interval: Duration) {
        let key = Key(loop: ObjectIdentifier(loop), interval: interval)
        let clock = clocks.withLock { clocks in
            if let clock = clocks[key], clock.loop === loop { return clock }
            let clock = KeepAliveClock(key: key, loop: loop)
            clocks[key] = clock
            return clock
        }
        clock.add(connection)
    }

    /// Stops ticking `connection`.
    static func leave(_ connection: WebSocketConnection, loop: EventLoop, interval: Duration) {
        let key = Key(loop: ObjectIdentifier(loop), interval: interval)
        let clock = clocks.withLock { clocks in clocks[key].flatMap { $0.loop === loop ? $0 : nil } }
        clock?.remove(connection)
    }

    private func add(_ connection: WebSocketConnection) {
        members[ObjectIdentifier(connection)] = Member(connection: connection, joinedAt: ticks)
        if members.count == 1 {
            let interval = key.interval
            timer.start(after: interval, repeating: interval) { [self] in tick(interval: interval) }
        }
    }

    private func remove(_ connection: WebSocketConnection) {
        guard members.removeValue(forKey: ObjectIdentifier(connection)) != nil, members.isEmpty else { return }
        // Nobody left: stop, and let a later join start afresh.
        timer.stop()
        Self.clocks.withLock { clocks in
            if clocks[key] === self, members.isEmpty { clocks[key] = nil }
        }
        timer.close()
    }

    private func tick(interval: Duration) {
        ticks += 1
        // A tick may close connections, which leave: walk a copy.
        for member in Array(members.values) where member.joinedAt < ticks - 1 {
            member.connection.keepAliveTick(interval: interval)
        }
    }
}
