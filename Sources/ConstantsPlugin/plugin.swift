import Foundation
import PackagePlugin

/// Writes the top-level constants.json into the target that uses this plugin: its value as
/// Swift code, and its text (ConstantsEmbedder).
@main
struct ConstantsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let input = context.package.directoryURL.appending(path: "constants.json")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedConstants.swift")
        return [
            .buildCommand(
                displayName: "Embedding constants.json",
                executable: try context.tool(named: "ConstantsEmbedder").url,
                arguments: [input.path, output.path],
                inputFiles: [input],
                outputFiles: [output]
            )
        ]
    }
}
