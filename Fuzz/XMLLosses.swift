import Foundation

// Shared by the property-list fuzz targets (`Fuzz/run.sh plist` and `xml`).

/// `value` as an XML property list holds it: dates cut to whole seconds,
/// every NaN plain (XML has one NaN, `nan`, so a NaN's sign and payload do
/// not survive it).
func asXMLHoldsIt(_ value: ModelValue) -> ModelValue {
    switch value {
    case .double(let number) where number.isNaN: return .double(.nan)
    case .date(let date):
        return .date(Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.rounded(.down)))
    case .array(let elements): return .array(elements.map(asXMLHoldsIt))
    case .object(let members): return .object(ModelValue.Object(members.map { ($0.key, asXMLHoldsIt($0.value)) }))
    default: return value
    }
}
