import Foundation

extension ModelObject {
    /// Archived class names registered with ``register(_:as:)``.
    private static let archivedNames = LockedTable<String, ModelObject.Type>()

    /// Lets ``init(keyedArchive:)`` read objects archived under the class
    /// name `name` as `type`, and registers `type` for polymorphic decoding
    /// (see ``register(_:)``), since an archive names its classes itself.
    ///
    /// Without it, an archived class is read as the class being loaded, or
    /// a registered class, whose ``archivedClassName`` it is, with or
    /// without a module prefix.
    ///
    /// ```swift
    /// ModelObject.register(Note.self, as: "OldApp.JournalNote")
    /// ```
    /// - Parameters:
    ///   - type: the model class.
    ///   - name: the class name in archives, as written (`MyApp.Task`); a
    ///     name registered twice keeps the last class.
    public static func register(_ type: ModelObject.Type, as name: String) {
        archivedNames.withLock { $0[name] = type }
        register(type)
    }

    /// The model class that the archived class name `name` stands for, when
    /// `root` is the class being loaded: a name registered with
    /// ``register(_:as:)``, else `root` or a registered class whose
    /// ``archivedClassName`` it is (with or without a module prefix).
    static func archivedType(named name: String, root: ModelObject.Type) -> ModelObject.Type? {
        let short = name.split(separator: ".").last.map(String.init) ?? name
        if let registered = archivedNames.withLock({ $0[name] ?? $0[short] }) { return registered }
        func matches(_ type: ModelObject.Type) -> Bool {
            let archived = type.archivedClassName
            return archived == name || archived == short
        }
        if matches(root) { return root }
        return registeredTypes.values.sorted { $0.typeName < $1.typeName }.first(where: matches)
    }

    /// Creates an object from an `NSKeyedArchiver` archive whose root object
    /// is this class's, archived by an `NSCoding` class (AutoCoding,
    /// KSExtensibleManagedObject and the like).
    ///
    /// The archive is read as the property list it is; nothing in it is
    /// instantiated but models. Its root's class name must be this class's
    /// ``archivedClassName`` (with or without a module prefix) or registered
    /// for it with ``register(_:as:)``; a nested model's class must be
    /// the class its `@Saved` property declares (its type, or an optional's
    /// or array's element), archived under its ``archivedClassName``, or be
    /// registered (``register(_:)`` or ``register(_:as:)``). Each archived
    /// key is loaded as a saved key, converted as the property expects, and
    /// keys the class does not save go to the ``extensibleProperties``, as
    /// for JSON. Foundation values read as ``ModelValue/init(keyedArchive:)``
    /// reads them. An object archived once and referred to from several
    /// places becomes one model; an object that refers back to one that
    /// contains it (a child's parent) must do so through a
    /// `@Saved(reference: .weak)` property. A model under a key the class
    /// does not save goes to the bag as a copy of its saved form, which
    /// refers to no model (its weak references left out), since a bag holds
    /// values. A nil object reads as nil where
    /// the property takes nil (and as null in the bag); elsewhere the
    /// property keeps its default. An archived key equal to the
    /// class's ``versionKey`` is read as the data's version (and upgraded
    /// from); one equal to its ``typeKey`` is an error.
    ///
    /// ```swift
    /// let archive = try note.keyedArchiveData()
    /// let copy = try Note(keyedArchive: archive)
    /// print(copy.title == note.title)   // true
    /// ```
    /// - Parameter data: the archive's bytes.
    /// - Throws: ``ModelError`` naming the key path for a damaged archive, a
    ///   class that is neither a Foundation class ModelKit reads nor a known
    ///   model class, a cycle through a property that is not weak, or a bad
    ///   value.
    public convenience init(keyedArchive data: Data) throws {
        self.init()
        try loadingNew { try loadKeyedArchive(data) }
    }

    /// Loads the keyed archive in `data` into this new object (see
    /// ``init(keyedArchive:)``); ``init(contentsOf:)`` too, for a file that is one.
    func loadKeyedArchive(_ data: Data) throws {
        let root = Swift.type(of: self)
        let archive = try KeyedArchive(data: data)
        var reader = KeyedArchiveReader(archive, byteCount: data.count, rootType: root) { name in
            ModelObject.archivedType(named: name, root: root)
        }
        try load(reader.rootValue())
    }

    /// Writes this model and the models it holds as an `NSKeyedArchiver`
    /// archive (a binary property list) that Foundation's `NSKeyedUnarchiver`
    /// and ``init(keyedArchive:)`` read.
    ///
    /// Each model is archived as an object of its class's
    /// ``archivedClassName`` (a subclass of `NSObject`), holding its version
    /// (under ``versionKey``), its saved keys and its
    /// ``extensibleProperties`` under their names. Numbers and booleans are
    /// `NSNumber` objects, as AutoCoding archives them for
    /// `decodeObject(forKey:)`, or inline for an `NSCoding` class that
    /// decodes them with `decodeInteger(forKey:)` and the like (see
    /// ``KeyedArchiveStyle``). Strings, dates, data, arrays, sets and
    /// dictionaries are Foundation objects (`NSString`, `NSDate`, `NSData`,
    /// `NSArray`, `NSSet` for a `Set` property, `NSDictionary`); nil values
    /// are nil objects. A property declared `URL` or `UUID` (optional, or an
    /// array of them) is archived as an `NSURL` or `NSUUID` object, as
    /// `NSKeyedArchiver` writes one, so the old app's `decodeObject(forKey:)`
    /// gets the class it expects; other values saved as strings (colours,
    /// the bag's URLs) are archived as strings. A model held in several
    /// places, and a weak parent, is archived once and referred to. The bag
    /// holds values: a dictionary in it that looks like a reference stays a
    /// dictionary, and an object of a class unknown here that was read into
    /// the bag is written back as that class.
    ///
    /// ```swift
    /// let archive = try note.keyedArchiveData()
    /// let envelope = try PropertyListSerialization.propertyList(from: archive, format: nil) as? [String: Any]
    /// print(envelope?["$archiver"] ?? "")   // NSKeyedArchiver
    /// ```
    /// - Parameter style: how numbers and booleans are written:
    ///   ``KeyedArchiveStyle/objects`` (the default, for
    ///   `decodeObject(forKey:)`) or ``KeyedArchiveStyle/inlineScalars``
    ///   (for `decodeInteger(forKey:)`, `decodeBool(forKey:)`,
    ///   `decodeDouble(forKey:)`).
    /// - Returns: the archive's bytes.
    /// - Throws: ``ModelError`` when the graph cannot be saved (nesting
    ///   deeper than 512 levels, a class with declaration problems).
    public func keyedArchiveData(style: KeyedArchiveStyle = .objects) throws -> Data {
        try KeyedArchiveWriter.data(of: self, style: style)
    }
}
