// Reads constants.json and writes a Swift file with its exact text and its value as Swift code:
// `EmbeddedConstants.value`, a `DoseConstants(...)` expression, so a program starts with the
// constants in hand instead of decoding JSON (#34). The file is decoded here, at build time,
// with the very type DoseCore uses (DoseConstants.swift is a link to DoseCore's Constants.swift),
// and the value is written out field by field in declaration order, read by Mirror: a file of
// another shape fails the build, and the generated code cannot differ from the decoded file.
import Foundation

let args = CommandLine.arguments
guard args.count == 3 else {
    FileHandle.standardError.write(Data("usage: ConstantsEmbedder INPUT.json OUTPUT.swift\n".utf8))
    exit(2)
}

struct Unwritable: Error, CustomStringConvertible {
    var description: String
}

/// `value` as a Swift expression of its own type: numbers, strings, arrays, and structs through
/// their memberwise initialiser (DoseCore's, internal; the generated file is compiled into it).
func swiftExpression(_ value: Any, indent: String = "") throws -> String {
    switch value {
    case let v as Bool: return String(v)
    case let v as Int: return String(v)
    case let v as Double: return v.description // shortest text that reads back as the same Double
    case let v as String: return v.debugDescription // quoted and escaped as a Swift literal
    default: break
    }
    let mirror = Mirror(reflecting: value)
    let inner = indent + "    "
    switch mirror.displayStyle {
    case .collection?:
        let items = try mirror.children.map { try swiftExpression($0.value, indent: inner) }
        return "[" + items.joined(separator: ", ") + "]"
    case .struct?:
        // "ConstantsEmbedder.DoseConstants.Window" here is "DoseConstants.Window" in DoseCore.
        let type = String(reflecting: Swift.type(of: value)).split(separator: ".").dropFirst().joined(separator: ".")
        let fields = try mirror.children.map { child -> String in
            guard let label = child.label else { throw Unwritable(description: "\(type) has a field without a name") }
            return "\(inner)\(label): \(try swiftExpression(child.value, indent: inner))"
        }
        return "\(type)(\n" + fields.joined(separator: ",\n") + "\n\(indent))"
    default:
        throw Unwritable(description: "no Swift literal for a \(Swift.type(of: value))")
    }
}

do {
    let data = try Data(contentsOf: URL(fileURLWithPath: args[1]))
    // Fail the build, not the box, when the file is not JSON or not of DoseConstants' shape.
    let constants = try DoseConstants.decode(data)
    guard let text = String(data: data, encoding: .utf8), !text.contains("\"#####") else {
        throw CocoaError(.fileReadInapplicableStringEncoding)
    }
    let swift = """
    // Generated from constants.json by ConstantsEmbedder at build time. Do not edit.
    enum EmbeddedConstants {
        static let json = #####\"\"\"
    \(text)
    \"\"\"#####

        static let value = \(try swiftExpression(constants, indent: "    "))
    }

    """
    try Data(swift.utf8).write(to: URL(fileURLWithPath: args[2]), options: .atomic)
} catch {
    FileHandle.standardError.write(Data("constants.json: \(error)\n".utf8))
    exit(1)
}
