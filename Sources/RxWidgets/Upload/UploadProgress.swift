/// How far one file's upload has come, in bytes (`Foundation.Progress`'s names).
public struct UploadProgress: Equatable, Sendable {
    /// The upload's id (the client's, unique per picker while it runs).
    public let upload: String
    /// The file's name.
    public let fileName: String
    /// Bytes received so far.
    public let completedUnitCount: Int
    /// The file's size in bytes, as declared when the upload began.
    public let totalUnitCount: Int

    /// A progress report.
    public init(upload: String, fileName: String, completedUnitCount: Int, totalUnitCount: Int) {
        self.upload = upload
        self.fileName = fileName
        self.completedUnitCount = completedUnitCount
        self.totalUnitCount = totalUnitCount
    }

    /// `completed / total`, `1` for an empty file.
    public var fractionCompleted: Double {
        totalUnitCount == 0 ? 1 : Double(completedUnitCount) / Double(totalUnitCount)
    }

    /// Whether every byte has arrived.
    public var isFinished: Bool { completedUnitCount == totalUnitCount }
}
