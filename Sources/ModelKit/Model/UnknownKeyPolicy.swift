/// What loading does with a key that a class does not save: keep it, drop
/// it, or refuse the data.
///
/// A class states its policy by overriding ``ModelObject/unknownKeys``:
///
/// ```swift
/// final class Config: ModelObject, @unchecked Sendable {
///     @Saved var title = ""
///     @Saved var count = 0
///     override class var unknownKeys: UnknownKeyPolicy { .reject }
/// }
///
/// do {
///     _ = try Config(json: Data(#"{"titel":"x"}"#.utf8))
/// } catch {
///     print(error)
///     // JSON at line 1, column 2 (byte 1), in titel: unknown key "titel": Config saves title, count
/// }
/// ```
///
/// The class's metadata keys (its ``ModelObject/versionKey`` and
/// ``ModelObject/typeKey``) and the reference keys `"$id"` and `"$ref"` are
/// never unknown. Every way in obeys the policy: JSON, property lists,
/// dictionaries, `Codable`, ``ModelObject/update(from:)-([String:Any])``,
/// patches, ``ModelDefaults`` and ``JSONLines``. A nested model follows its
/// own class's policy, not its parent's.
public enum UnknownKeyPolicy: Sendable, Hashable {
    /// Unknown keys go to the ``ModelObject/extensibleProperties`` and are
    /// written back on every save, so data from a newer version of an app
    /// survives a round trip through an older one. The default.
    case keep
    /// Unknown keys are dropped on load and never written. On the direct
    /// JSON path their values are only checked, never built, so loading
    /// data full of members the class does not need is faster. The class
    /// keeps no extensible properties: setting one by hand throws.
    case ignore
    /// Loading fails on an unknown key, with one ``ModelError`` (code
    /// ``ModelError/Code/unknownKey``) naming the key path of every unknown
    /// key in the data and, for JSON, the line and column of the first. The
    /// class keeps no extensible properties: setting one by hand throws.
    case reject
}
