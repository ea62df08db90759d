import Foundation

/// How `Date` values are saved.
///
/// The default, ``iso8601``, saves a date natively where the format has dates
/// (dictionaries and property lists) and as an ISO 8601 string in UTC in JSON,
/// with fractional seconds only when they are not zero:
/// `2025-11-16T15:33:20.123456Z`. Apps that exchange data with systems that
/// count seconds choose another strategy for a class or a single property:
///
/// ```swift
/// final class Event: ModelObject, @unchecked Sendable {
///     override class var dateStrategy: DateStrategy { .secondsSince1970 }
///     @Saved var start = Date()
///     @Saved(dateStrategy: .millisecondsSince1970) var updated = Date()
/// }
/// ```
public enum DateStrategy: String, Sendable, Hashable, CaseIterable {
    /// Native dates; ISO 8601 strings in JSON. Reading also accepts ISO 8601 strings anywhere.
    case iso8601
    /// A floating-point number of seconds since 1970-01-01T00:00:00Z.
    /// Reading also accepts dates and ISO 8601 strings.
    case secondsSince1970
    /// An integer number of milliseconds since 1970-01-01T00:00:00Z.
    /// Reading also accepts dates and ISO 8601 strings.
    case millisecondsSince1970
    /// A floating-point number of seconds since 2001-01-01T00:00:00Z, the
    /// date's own `timeIntervalSinceReferenceDate`: what `JSONEncoder` writes
    /// by default (its `.deferredToDate`), for files written by `Codable`.
    /// Reading also accepts dates and ISO 8601 strings.
    ///
    /// ```swift
    /// final class Reminder: ModelObject, @unchecked Sendable {
    ///     @Saved(dateStrategy: .deferredToDate) var due = Date()
    /// }
    /// let reminder = try Reminder(json: Data(#"{"due": 820540800}"#.utf8))
    /// print(reminder.due)   // 2027-01-01 00:00:00 +0000
    /// ```
    case deferredToDate
}

/// The settings in force while values are converted to and from ``ModelValue``
/// on this thread. A model sets them around each of its properties that
/// needs non-default ones, and restores them afterwards.
final class CodingContext {
    var dateStrategy: DateStrategy = .iso8601

    private static let storage = ThreadLocal { CodingContext() }

    /// This thread's context.
    static var current: CodingContext { storage.value }
    /// This thread's context, if it has one yet.
    static var existing: CodingContext? { storage.existingValue }
    /// Makes `context` this thread's (a thread continuing another's work).
    static func install(_ context: CodingContext) { storage.install(context) }

    /// Runs `body` with `strategy` in force (or, for `nil`, the strategy already in force).
    static func with<Result>(dateStrategy strategy: DateStrategy?, _ body: () throws -> Result) rethrows -> Result {
        guard let strategy else { return try body() }
        let context = current
        let saved = context.dateStrategy
        if saved == strategy { return try body() }
        context.dateStrategy = strategy
        defer { context.dateStrategy = saved }
        return try body()
    }
}

extension CodingContext {
    /// Runs `body` with the class strategy `strategy` in force, whatever was in force before.
    static func with<Result>(classStrategy strategy: DateStrategy, _ body: (CodingContext) throws -> Result) rethrows
        -> Result
    {
        let context = current
        let saved = context.dateStrategy
        context.dateStrategy = strategy
        defer { context.dateStrategy = saved }
        return try body(context)
    }
}
