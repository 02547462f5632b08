/// The disposable of one subscription to a subject: removes its observer from the owner.
///
/// A struct of two words, so returning it as `Disposable` does not allocate; disposing
/// it twice is harmless because a removed key is not found again.
struct SubscriptionDisposable<Owner: SynchronizedUnsubscribeType>: Disposable {
    private let owner: Owner
    private let key: BagKey

    init(owner: Owner, key: BagKey) {
        self.owner = owner
        self.key = key
    }

    func dispose() {
        owner.synchronizedUnsubscribe(key)
    }
}
