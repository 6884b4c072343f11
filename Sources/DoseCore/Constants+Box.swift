extension DoseConstants {
    /// The constants the box runs on: constants.json as a Swift value, generated at build time
    /// (ConstantsEmbedder), so nothing is decoded when a program starts (#34). A file of another
    /// shape fails the build; ConstantsTests checks the value against the file on disk.
    public static let box: DoseConstants = EmbeddedConstants.value

    /// The embedded text itself, for the drift test and for `boxctl config show`.
    public static var embeddedJSON: String { EmbeddedConstants.json }
}
