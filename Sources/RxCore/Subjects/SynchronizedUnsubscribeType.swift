/// An owner of observers (a subject, a share connection) that removes one by its key.
protocol SynchronizedUnsubscribeType: AnyObject {
    /// Removes the observer for `key`; a key already removed is ignored.
    func synchronizedUnsubscribe(_ key: BagKey)
}
