import Synchronization
import Foundation

extension ModelObject {
    /// The saved form as a property-list-compatible dictionary: `String`,
    /// `Int`, `Double`, `Bool`, `Date`, `Data`, arrays and dictionaries.
    ///
    /// `nil` optionals appear as the string `"$null"` (see
    /// ``ModelValue/propertyListData(format:)``). A graph that cannot be
    /// saved (a cycle, models nested past 512 levels) does not trap here:
    /// the model that cannot be written appears as `["$error": "…"]`; the
    /// throwing APIs (`propertyListData`, `jsonData`, `write(to:)`) report it.
    public var dictionary: [String: Any] { dictionary(references: .cycles) }

    /// The saved form as a property-list-compatible dictionary, with models
    /// that appear more than once written as `references` says (see
    /// ``ReferencePolicy``).
    public func dictionary(references: ReferencePolicy) -> [String: Any] {
        // Straight from the slots when the direct path can; otherwise, and
        // to report every failure, through ModelValue.
        if references == .cycles, let direct = directDictionary() { return direct }
        return PropertyListBridge.dictionary(from: encodedDocumentOrMarked(references: references))
    }

    /// Applies loaded values to this object, all or nothing.
    ///
    /// Keys present in `dictionary` replace the values of their properties
    /// (nested models are replaced, not merged); missing keys leave their
    /// properties as they are; keys the class does not save follow its
    /// ``unknownKeys`` policy, as in loaded data: ``UnknownKeyPolicy/keep``
    /// (the default) merges them into the ``extensibleProperties`` (a
    /// misspelt key lands there), ``UnknownKeyPolicy/ignore`` drops them,
    /// ``UnknownKeyPolicy/reject`` throws naming each. Values that differ
    /// from the current ones are recorded as changes. If any value is bad,
    /// nothing changes. ``didLoad()`` then runs on this object and on the
    /// models the values brought, children first.
    /// - Throws: ``ModelError`` naming the key path of the first bad value.
    public func update(from dictionary: [String: Any]) throws {
        try loadingInPlace {
            if let members = directlyDecodedMembers(dictionary) {
                apply(members, recordingChanges: true, replacingBag: false)
                return
            }
            apply(try decodePendingDictionary(dictionary), recordingChanges: true, replacingBag: false)
        }
    }

    /// Decodes `dictionary` for this object, the root, through `ModelValue`,
    /// without changing it.
    /// - Throws: ``ModelError``; one that rejects unknown keys names them in
    ///   sorted order, since a dictionary has none of its own.
    func decodePendingDictionary(_ dictionary: [String: Any]) throws -> PendingValues {
        do {
            return try decodePendingRoot(PropertyListBridge.members(of: dictionary))
        } catch let error as ModelError {
            throw error.sortingUnknownKeys()
        }
    }

    /// Applies a loaded object to this object, all or nothing, as
    /// ``update(from:)-([String:Any])`` does.
    /// - Throws: ``ModelError`` naming the key path of the first bad value.
    public func update(from modelValue: ModelValue) throws {
        guard case .object(let members) = modelValue else {
            throw ModelError.typeMismatch(expected: "a \(Swift.type(of: self)) object", found: modelValue)
        }
        try loadingInPlace { apply(try decodePendingRoot(members), recordingChanges: true, replacingBag: false) }
    }
}

extension ModelObject {
    /// The saved form as an XML or binary property list.
    ///
    /// `nil` optionals are written as the string `"$null"`, and read back as `nil`.
    /// - Parameters:
    ///   - format: `.xml` (the default) or `.binary`.
    ///   - references: which models of a graph are written once and referred
    ///     to elsewhere (see ``ReferencePolicy``); only where cycles need it by default.
    /// - Throws: ``ModelError`` for models nested past the limit or a class
    ///   with declaration problems.
    public func propertyListData(
        format: PropertyListSerialization.PropertyListFormat = .xml, references: ReferencePolicy = .cycles
    ) throws -> Data {
        try ModelValue.object(encodedDocument(references: references)).propertyListData(format: format)
    }
}
