import Foundation
import ModelKit

/// The model classes the Demo knows: registered at start, so that a
/// document may name any of them under its type key, and the ones `schema`
/// describes.
enum DemoModels {
    /// Every class, in the order the usage text lists them.
    static let all: [ModelObject.Type] = [Note.self, Todo.self]

    /// The class a document with no type key is read as.
    static let standard: ModelObject.Type = Note.self

    /// `Note, Todo`.
    static var names: String { all.map(\.typeName).joined(separator: ", ") }

    /// Registers every class with ModelKit.
    static func register() {
        for type in all { ModelObject.register(type) }
    }

    /// The class whose type name is `name`, or `nil`.
    static func named(_ name: String) -> ModelObject.Type? {
        all.first { $0.typeName == name }
    }
}
