/// Where the models are in a class's saved form, by the declared types of
/// its properties: what a patch's pointer reaches at each step.
///
/// A patch works on the saved form as JSON, where a nested model is an
/// object like any other. Its metadata keys and saved keys are protected
/// wherever a model stands (a patch may not change a nested model's
/// `"version"`, which would run its upgrade again on current data), so a
/// pointer is followed through the declared types: a model's saved key leads
/// to its property's type, an array's index to its element type, a
/// dictionary's key to its value type. Extensible properties, `ModelValue`
/// properties and weak references lead to no model.
indirect enum SavedFormShape {
    /// A model of this class, or of a registered subclass its data names.
    case model(ModelObject.Type)
    /// An array (or set) of values of this shape.
    case elements(SavedFormShape)
    /// A dictionary with string keys of values of this shape.
    case members(SavedFormShape)
    /// Anything else: no model inside.
    case other

    /// The shape of values of `type`.
    static func of(_ type: Any.Type) -> SavedFormShape {
        (type as? any SavedFormShaped.Type)?.savedFormShape ?? .other
    }

    /// The model standing at `tokens` in `document` (the saved form of a
    /// model of class `root`), with its layout; `nil` where the tokens lead
    /// to no model.
    static func model(at tokens: ArraySlice<String>, in document: ModelValue, root: ModelObject.Type)
        -> ClassLayout?
    {
        var shape = SavedFormShape.model(root)
        var value: ModelValue? = document
        for token in tokens {
            switch shape {
            case .model(let declared):
                let found = actualLayout(declared, of: value)
                guard let offset = found.offsetsByKey[token], KeyHash.sameBytes(found.slots[offset].key, token),
                    !found.weakSlots.contains(offset)
                else { return nil }
                shape = .of(found.slots[offset].codec.valueType)
            case .elements(let element): shape = element
            case .members(let member): shape = member
            case .other: return nil
            }
            value = value.flatMap { Self.child(token, of: $0) }
        }
        guard case .model(let declared) = shape else { return nil }
        return actualLayout(declared, of: value)
    }

    /// The layout of the class that `value` names under the declared class's
    /// type key (a registered subclass), else of the declared class.
    static func actualLayout(_ declared: ModelObject.Type, of value: ModelValue?) -> ClassLayout {
        let layout = ClassLayout.of(declared)
        if let typeKey = layout.typeKey, case .string(let name)? = value?[typeKey], name != layout.typeName,
            case .success(let found) = declared.resolveType(named: name)
        {
            return ClassLayout.of(found)
        }
        return layout
    }

    private static func child(_ token: String, of value: ModelValue) -> ModelValue? {
        switch value {
        case .object(let members): return members[token]
        case .array(let elements):
            guard case .index(let index) = JSONPointer.arrayPosition(token), index < elements.count else { return nil }
            return elements[index]
        default: return nil
        }
    }
}

/// A type whose values may hold models: it says where, for patches.
protocol SavedFormShaped {
    static var savedFormShape: SavedFormShape { get }
}

extension ModelObject: SavedFormShaped {
    static var savedFormShape: SavedFormShape { .model(self) }
}

extension Optional: SavedFormShaped {
    static var savedFormShape: SavedFormShape { .of(Wrapped.self) }
}

extension Array: SavedFormShaped {
    static var savedFormShape: SavedFormShape { .elements(.of(Element.self)) }
}

extension Set: SavedFormShaped {
    static var savedFormShape: SavedFormShape { .elements(.of(Element.self)) }
}

extension Dictionary: SavedFormShaped {
    static var savedFormShape: SavedFormShape { Key.self == String.self ? .members(.of(Value.self)) : .other }
}
