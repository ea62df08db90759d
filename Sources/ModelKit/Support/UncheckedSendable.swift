/// Carries a value that is safe to share but not marked `Sendable` (an
/// `NSRegularExpression`, a closure made where its types are known) into a
/// `@Sendable` closure that only reads it.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
