// Reads constants.json and writes a Swift file that embeds its exact text.
// DoseCore decodes that text into typed constants; a test compares them with the file on disk.
import Foundation

let args = CommandLine.arguments
guard args.count == 3 else {
    FileHandle.standardError.write(Data("usage: ConstantsEmbedder INPUT.json OUTPUT.swift\n".utf8))
    exit(2)
}
do {
    let data = try Data(contentsOf: URL(fileURLWithPath: args[1]))
    // Fail the build, not the box, when the file is not JSON.
    _ = try JSONSerialization.jsonObject(with: data)
    guard let text = String(data: data, encoding: .utf8), !text.contains("\"#####") else {
        throw CocoaError(.fileReadInapplicableStringEncoding)
    }
    let swift = """
    // Generated from constants.json by ConstantsEmbedder at build time. Do not edit.
    enum EmbeddedConstants {
        static let json = #####\"\"\"
    \(text)
    \"\"\"#####
    }

    """
    try Data(swift.utf8).write(to: URL(fileURLWithPath: args[2]), options: .atomic)
} catch {
    FileHandle.standardError.write(Data("constants.json: \(error)\n".utf8))
    exit(1)
}
