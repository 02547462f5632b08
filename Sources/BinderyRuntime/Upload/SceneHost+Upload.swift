import BinderyProtocol
import RxWidgets

extension SceneHost {
    /// Runs one upload step on the picker `message.target` and builds the answer as for an
    /// event: a patch (`ack`) with what the bindings did (a progress label, a table row),
    /// or an error. On an upload error the bindings' changes (an error label) go to the
    /// sender first in a patch without `ack`, as for a failed binding.
    ///
    /// - Parameter limit: the server's cap (`--max-upload-size`).
    /// - Parameter owner: the connection the upload belongs to (aborted when it goes);
    ///   nil for an HTTP upload, which is over when its request is.
    func dispatchUpload(_ message: UploadMessage, session: Session, client: SessionClient?, limit: Int,
                        owner: ObjectIdentifier?) -> ServerMessage {
        if tree.hasPendingChanges { flush() }
        guard let picker = tree.widget(withID: message.target) as? DocumentPicker else {
            let known = tree.widget(withID: message.target)
            return .error(ErrorMessage(
                ack: message.seq, code: known == nil ? .unknownTarget : .unknownEvent,
                message: known.map { "\($0.kind) '\($0.id)' takes no uploads (only a documentPicker does)" }
                    ?? "scene '\(definition.name)' has no widget '\(message.target)'",
                target: message.target))
        }
        var failure: UploadError?
        let event = EventMessage(seq: message.seq, target: message.target, event: message.type)
        let answer = run(event, session: session, client: client, widgetID: picker.id, valueProperty: nil) {
            do throws(UploadError) {
                try Self.apply(message, to: picker, limit: limit, owner: owner)
            } catch {
                failure = error
            }
            return .success(nil)
        }
        guard let failure else { return answer }
        if case .patch(let patch) = answer, !patch.changes.isEmpty || !patch.added.isEmpty || !patch.removed.isEmpty,
           let client {
            client.send(.patch(PatchMessage(removed: patch.removed, added: patch.added, changes: patch.changes)))
        }
        return .error(ErrorMessage(ack: message.seq, code: ErrorCode(failure.code), message: failure.message,
                                   target: message.target))
    }

    private static func apply(_ message: UploadMessage, to picker: DocumentPicker, limit: Int,
                              owner: ObjectIdentifier?) throws(UploadError) {
        let id = message.upload ?? ""
        switch message.step {
        case .begin(let name, let contentType, let size, let last):
            try picker.beginUpload(id, name: name, contentType: contentType, size: size, last: last, limit: limit,
                                   owner: owner)
        case .chunk(let offset, let data):
            try picker.appendUploadChunk(id, offset: offset, data: data)
        case .end:
            try picker.endUpload(id)
        case .cancel:
            picker.cancelUpload(message.upload)
        }
    }

    /// The document pickers of the scene (including a pushed screen's).
    var documentPickers: [DocumentPicker] {
        tree.widgets.compactMap { $0 as? DocumentPicker }
    }

    /// Aborts the uploads of a connection that went away (their bytes are freed).
    func abortUploads(of client: SessionClient) {
        let owner = ObjectIdentifier(client)
        for picker in documentPickers where !picker.uploadsInProgress.isEmpty {
            picker.abortUploads(owner: owner)
        }
    }
}

extension ErrorCode {
    /// The wire code for an upload error.
    init(_ code: UploadError.Code) {
        switch code {
        case .tooLarge: self = .uploadTooLarge
        case .aborted: self = .uploadAborted
        case .outOfOrder: self = .uploadOutOfOrder
        case .badValue: self = .badValue
        case .disabled: self = .disabled
        case .tooManyUploads: self = .rateLimited
        }
    }
}
