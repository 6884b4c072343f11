import Foundation

/// The repository's top folder, for tests that read its files (docs, the manifest): this file
/// is Sources/TestSupport/Repository.swift in it.
public enum Repository {
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
