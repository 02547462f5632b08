/// The disposable of one subscription to a subject: removes its observer from the owner.
///
/// Not generic, and three words (a class existential and the key), so returning it as
/// `Disposable` neither allocates nor needs a generic metadata look-up.
struct SubscriptionDisposable: Disposable {
    private let owner: any SynchronizedUnsubscribeType
    private let key: BagKey

    init(owner: any SynchronizedUnsubscribeType, key: BagKey) {
        self.owner = owner
        self.key = key
    }

    func dispose() {
        owner.synchronizedUnsubscribe(key)
    }
}
