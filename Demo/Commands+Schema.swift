import Foundation
import ModelKit

extension Commands {
    /// `schema CLASS [--profile NAME]`: any class the Demo knows.
    static func schema(_ operands: [String], profile name: String?) throws {
        var profile = JSONSchemaProfile.standard
        if let name {
            guard let chosen = JSONSchemaProfile.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() })
            else { throw UsageError("--profile takes standard, openai or anthropic, not '\(name)'", command: .schema) }
            profile = chosen
        }
        guard operands.count == 1 else {
            throw UsageError("schema takes one CLASS: \(DemoModels.names)", command: .schema)
        }
        guard let type = DemoModels.named(operands[0]) else {
            throw UsageError("unknown class '\(operands[0])': the Demo knows \(DemoModels.names)", command: .schema)
        }
        print(try type.jsonSchema(profile).jsonString(options: .pretty))
    }
}
