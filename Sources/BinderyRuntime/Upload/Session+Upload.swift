import BinderyProtocol
import RxWidgets

extension Session {
    /// Handles one upload step from `client` (nil: the HTTP API) and returns its answer.
    /// Upload steps do not spend the event budget (`--max-events-per-second`): the size
    /// cap and ``DocumentPicker/maxConcurrentUploads`` bound them.
    package func handleUpload(_ message: UploadMessage, from client: SessionClient?) -> ServerMessage {
        guard let host, !isEnded else {
            return .error(ErrorMessage(ack: message.seq, code: .uploadAborted, message: "the session has ended",
                                       target: message.target))
        }
        let limit = store?.configuration.maxUploadSize ?? SessionStore.Configuration().maxUploadSize
        let answer = host.dispatchUpload(message, session: self, client: client, limit: limit,
                                         owner: client.map(ObjectIdentifier.init))
        if case .error(let error) = answer { store?.metrics.countError(error.code) }
        return answer
    }

    /// A connection went away: its uploads are aborted and their bytes freed.
    func uploadsLost(_ client: SessionClient) {
        host?.abortUploads(of: client)
    }

    /// The session ends: every upload of its connections goes, and for a scene of its
    /// own every picker's bytes (nobody is left to finish them).
    func uploadsEnded() {
        guard let host else { return }
        for client in clients { host.abortUploads(of: client) }
        if host.definition.sharing == .perConnection {
            for picker in host.documentPickers { picker.abortAllUploads() }
        }
    }
}
