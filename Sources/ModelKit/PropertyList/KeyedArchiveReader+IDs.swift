/// Model ids in the saved form a keyed archive reads to.
///
/// The reader writes each model's archive UID as its `"$id"`. Those numbers
/// mean nothing outside the archive. A model kept in a bag (under a key its
/// class does not save) kept its UID, and ModelKit's own archive of the
/// same graph numbers its objects differently, so a round trip changed the
/// bag. The fuzz target found this. So the ids are numbered again:
/// 1, 2, 3… in the order their models come, and a model that nothing
/// refers to keeps no id, as in the JSON that ModelKit writes.
extension KeyedArchiveReader {
    /// `value` with its ids numbered again, as above.
    static func renumberingIDs(_ value: ModelValue) -> ModelValue {
        var referred: Set<String> = []
        var order: [String] = []
        collectIDs(value, referred: &referred, order: &order)
        var numbers: [String: String] = [:]
        for id in order where referred.contains(id) && numbers[id] == nil {
            numbers[id] = String(numbers.count + 1)
        }
        return renumbered(value, numbers: numbers)
    }

    /// The ids that a `"$ref"` names, and every `"$id"`, in the order they come.
    private static func collectIDs(_ value: ModelValue, referred: inout Set<String>, order: inout [String]) {
        switch value {
        case .object(let members):
            if members.count == 1, members.keys[0] == ReferenceKeys.ref, case .string(let id) = members.values[0] {
                referred.insert(id)
                return
            }
            for (key, member) in members {
                if key == ReferenceKeys.id, case .string(let id) = member {
                    order.append(id)
                } else {
                    collectIDs(member, referred: &referred, order: &order)
                }
            }
        case .array(let elements):
            for element in elements { collectIDs(element, referred: &referred, order: &order) }
        default:
            break
        }
    }

    /// `value` with each `"$id"` and `"$ref"` given its new number, and each
    /// id that `numbers` does not hold left out.
    private static func renumbered(_ value: ModelValue, numbers: [String: String]) -> ModelValue {
        switch value {
        case .object(let members):
            if members.count == 1, members.keys[0] == ReferenceKeys.ref, case .string(let id) = members.values[0] {
                return .object([ReferenceKeys.ref: .string(numbers[id] ?? id)])
            }
            var result = ModelValue.Object(minimumCapacity: members.count)
            for (key, member) in members {
                if key == ReferenceKeys.id, case .string(let id) = member {
                    if let number = numbers[id] { result.appendNew(key: key, value: .string(number)) }
                } else {
                    result.appendNew(key: key, value: renumbered(member, numbers: numbers))
                }
            }
            return .object(result)
        case .array(let elements):
            return .array(elements.map { renumbered($0, numbers: numbers) })
        default:
            return value
        }
    }
}
