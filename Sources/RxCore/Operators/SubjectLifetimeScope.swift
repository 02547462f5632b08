/// How long the subject behind `share(replay:scope:)` lives.
public enum SubjectLifetimeScope: Sendable {
    /// While at least one subscriber is connected: the last dispose disconnects from the
    /// source and forgets the replay buffer; after termination the next subscriber
    /// subscribes to the source afresh.
    case whileConnected

    /// For the life of the shared sequence: after the source terminates, new subscribers
    /// get the replay buffer and the terminal event, and the source is not subscribed
    /// again.
    case forever
}
