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

    /// A model of `type` read from the keyed archive `data`.
    /// - Throws: ``ModelError`` for an archive that is not one of `type`.
    static func model(of type: ModelObject.Type, keyedArchive data: Data) throws -> ModelObject {
        switch type {
        case is Todo.Type: try Todo(keyedArchive: data)
        default: try Note(keyedArchive: data)
        }
    }

    /// The class whose type name is `name`, or `nil`.
    static func named(_ name: String) -> ModelObject.Type? {
        all.first { $0.typeName == name }
    }
}
