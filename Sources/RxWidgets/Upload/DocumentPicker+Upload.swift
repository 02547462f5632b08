import Foundation

/// The receiving end of an upload (Bindery's server calls these for the protocol's
/// `uploadBegin` / `uploadChunk` / `uploadEnd` / `uploadCancel` and for the HTTP API).
/// An error ends the upload it names (its bytes are dropped) and fires `rx.uploadDidFail`.
extension DocumentPicker {
    /// Starts upload `id` of a file of `size` bytes; `last`: the pick's last file (when it
    /// ends, or fails, `rx.didPickDocuments` gets the pick's files that are in). `limit`
    /// is the server's cap: the file may not exceed it nor ``maxFileSize``, and the bytes
    /// this picker holds at once may not exceed it either. Refused before any byte is read.
    public func beginUpload(_ id: String, name: String, contentType: String, size: Int, last: Bool = true, limit: Int,
                            owner: ObjectIdentifier? = nil) throws(UploadError) {
        guard isEnabled else { throw UploadError(.disabled, "\(kind) '\(self.id)' is disabled", upload: id, fileName: name) }
        guard uploads[id] == nil else {
            throw fail(UploadError(.outOfOrder, "upload '\(id)' has already begun", upload: id, fileName: name))
        }
        guard size >= 0 else { throw UploadError(.badValue, "a file's size cannot be negative (\(size))", upload: id, fileName: name) }
        guard uploads.count < Self.maxConcurrentUploads else {
            throw UploadError(.tooManyUploads, "\(kind) '\(self.id)' takes \(Self.maxConcurrentUploads) uploads at once",
                              upload: id, fileName: name)
        }
        if !allowsMultipleSelection, !uploads.isEmpty || !picked.isEmpty {
            throw UploadError(.badValue, "\(kind) '\(self.id)' takes one file at a time (allowsMultipleSelection is off)",
                              upload: id, fileName: name)
        }
        guard accepts(name: name, contentType: contentType) else {
            throw fail(UploadError(.badValue, "'\(name)' (\(contentType)) is not one of \(allowedContentTypes.joined(separator: ", "))",
                                   upload: id, fileName: name), endsPick: last)
        }
        let cap = min(maxFileSize ?? limit, limit)
        guard size <= cap else {
            throw fail(UploadError(.tooLarge, "'\(name)' is \(Self.bytes(size)); the largest file allowed is \(Self.bytes(cap))",
                                   upload: id, fileName: name), endsPick: last)
        }
        let held = bufferedByteCount + uploads.values.reduce(0) { $0 + $1.size - $1.data.count }
        guard held + size <= limit else {
            throw fail(UploadError(.tooLarge, "'\(name)' would bring this pick's files to \(Self.bytes(held + size)); at most \(Self.bytes(limit)) at once",
                                   upload: id, fileName: name), endsPick: last)
        }
        uploads[id] = Upload(name: name, contentType: contentType, size: size, last: last, owner: owner)
        progressHub.send(UploadProgress(upload: id, fileName: name, completedUnitCount: 0, totalUnitCount: size))
    }

    /// Appends `data` at `offset` (which must be the bytes received so far) to upload `id`.
    public func appendUploadChunk(_ id: String, offset: Int, data: Data) throws(UploadError) {
        guard var upload = uploads[id] else {
            throw UploadError(.aborted, "no upload '\(id)' in progress (it was cancelled, aborted or never begun)", upload: id)
        }
        guard offset == upload.data.count else {
            throw fail(UploadError(.outOfOrder, "upload '\(id)': chunk at offset \(offset), expected \(upload.data.count)",
                                   upload: id, fileName: upload.name), drop: id)
        }
        guard data.count <= upload.size - upload.data.count else {
            throw fail(UploadError(.tooLarge, "upload '\(id)': \(Self.bytes(upload.data.count + data.count)) is more than the \(Self.bytes(upload.size)) declared",
                                   upload: id, fileName: upload.name), drop: id)
        }
        uploads[id] = nil  // so the buffer is uniquely referenced while it grows
        upload.data.append(data)
        let progress = UploadProgress(upload: id, fileName: upload.name, completedUnitCount: upload.data.count,
                                      totalUnitCount: upload.size)
        uploads[id] = upload
        progressHub.send(progress)
    }

    /// Ends upload `id`: the file is in. When it is the pick's last file (always, for a
    /// single-file picker), `rx.didPickDocuments` gets the pick's files.
    public func endUpload(_ id: String) throws(UploadError) {
        guard let upload = uploads[id] else {
            throw UploadError(.aborted, "no upload '\(id)' in progress (it was cancelled, aborted or never begun)", upload: id)
        }
        guard upload.data.count == upload.size else {
            throw fail(UploadError(.outOfOrder, "upload '\(id)' ended after \(upload.data.count) of \(upload.size) bytes",
                                   upload: id, fileName: upload.name), drop: id)
        }
        uploads[id] = nil
        picked.append(PickedFile(name: upload.name, contentType: upload.contentType, data: upload.data))
        if upload.last || !allowsMultipleSelection { finishPick() }
    }

    /// Hands the pick's files that are in to `rx.didPickDocuments` (none: nothing).
    private func finishPick() {
        guard !picked.isEmpty else { return }
        let files = picked
        picked = []
        pickHub.send(files)
    }

    /// The user cancelled: drops upload `id` (nil: every upload) and the pick's files so
    /// far, and fires `rx.didCancel`. Cancelling an upload that is gone is not an error.
    public func cancelUpload(_ id: String? = nil) {
        if let id { uploads[id] = nil } else { uploads = [:] }
        picked = []
        cancelHub.send(())
    }

    /// Drops the uploads of `owner` (a connection that went away), and the pick's files;
    /// `rx.uploadDidFail` gets `upload-aborted` for each. Returns how many were dropped.
    @discardableResult
    public func abortUploads(owner: ObjectIdentifier?) -> Int {
        let gone = uploads.filter { $0.value.owner == owner }
        guard !gone.isEmpty else { return 0 }
        for (id, _) in gone { uploads[id] = nil }
        picked = []
        for (id, upload) in gone.sorted(by: { $0.key < $1.key }) {
            failureHub.send(UploadError(.aborted, "the upload of '\(upload.name)' was aborted (its connection closed)",
                                        upload: id, fileName: upload.name))
        }
        return gone.count
    }

    /// Drops every upload (the session ended). No events: nobody is left to hear them.
    public func abortAllUploads() {
        uploads = [:]
        picked = []
    }

    /// Whether `allowedContentTypes` takes a file of that name and type.
    public func accepts(name: String, contentType: String) -> Bool {
        guard !allowedContentTypes.isEmpty else { return true }
        let type = contentType.lowercased()
        let lowerName = name.lowercased()
        return allowedContentTypes.contains { pattern in
            let pattern = pattern.lowercased()
            if pattern.hasPrefix(".") { return lowerName.hasSuffix(pattern) }
            if pattern.hasSuffix("/*") { return type.hasPrefix(pattern.dropLast()) }
            return type == pattern
        }
    }

    /// Reports `error` (dropping upload `drop`, if given) and returns it for throwing.
    /// When the failed file was the pick's last (`endsPick`, or the dropped upload's), the
    /// pick's files that are in are delivered first.
    private func fail(_ error: UploadError, drop: String? = nil, endsPick: Bool = false) -> UploadError {
        var last = endsPick
        if let drop, let upload = uploads.removeValue(forKey: drop) { last = last || upload.last }
        failureHub.send(error)
        if last { finishPick() }
        return error
    }

    /// `1 MiB`, `512 bytes`, `1048577 bytes`: exact sizes for messages (a rounded size
    /// could read as equal to the cap it exceeds).
    static func bytes(_ count: Int) -> String {
        if count >= 1 << 20, count % (1 << 20) == 0 { return "\(count >> 20) MiB" }
        if count >= 1024, count % 1024 == 0 { return "\(count >> 10) KiB" }
        return "\(count) bytes"
    }
}
