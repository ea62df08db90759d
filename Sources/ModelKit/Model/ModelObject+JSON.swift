import Foundation
import Synchronization

extension ModelObject {
    /// The saved form as JSON: the metadata keys, the saved keys in
    /// ``savedKeys`` order, then the ``extensibleProperties`` in their
    /// original order (or every key sorted, with ``JSONWritingOptions/sorted``).
    ///
    /// ```swift
    /// print(String(decoding: try note.jsonData(options: .pretty), as: UTF8.self))
    /// ```
    /// Models that appear more than once are written as ``ReferencePolicy``
    /// and ``JSONWritingOptions/references`` say.
    /// - Throws: ``ModelError`` for a value JSON cannot hold (an infinite
    ///   number, named by its key path), models nested past the limit, or a
    ///   class with declaration problems.
    public func jsonData(options: JSONWritingOptions = JSONWritingOptions()) throws -> Data {
        let options = dialectOptions(options)
        guard var writer = directlyFilledWriter(options: options) else {
            return try ModelValue.object(encodedDocument(references: options.references, maximumDepth: options.maximumDepth)).jsonData(options: options)
        }
        return writer.takeData()
    }

    /// The saved form as a JSON string; see ``jsonData(options:)``.
    public func jsonString(options: JSONWritingOptions = JSONWritingOptions()) throws -> String {
        let options = dialectOptions(options)
        guard var writer = directlyFilledWriter(options: options) else {
            return try ModelValue.object(encodedDocument(references: options.references, maximumDepth: options.maximumDepth)).jsonString(options: options)
        }
        return writer.takeString()
    }

    /// `options`, with slashes escaped (`\/`) as `NSJSONSerialization`
    /// escapes them when this class writes DejalObject's form.
    func dialectOptions(_ options: JSONWritingOptions) -> JSONWritingOptions {
        guard layout.savedDialect == .dejalObject, !options.escapesSlashes else { return options }
        var options = options
        options.escapesSlashes = true
        return options
    }

    /// A writer holding this object's JSON, written straight from the slots
    /// by `JSONModelEncoder`; `nil` on any failure, which the `ModelValue`
    /// path then reports.
    func directlyFilledWriter(options: JSONWritingOptions) -> JSONWriter? {
        // Shared models are found and written by the ModelValue path.
        guard options.references == .cycles else { return nil }
        switch directlyFilledWriter(options: options, plan: nil) {
        case .written(let writer): return writer
        case .failed: return nil
        case .metCycle:
            // Again, with the ids the cycles need planned, when the plan can be sure.
            guard !options.sortedKeys, let plan = CyclePlan.ids(for: self) else { return nil }
            if case .written(let writer) = directlyFilledWriter(options: options, plan: plan) { return writer }
            return nil
        }
    }

    private enum DirectOutcome {
        case written(JSONWriter)
        case metCycle
        case failed
    }

    private func directlyFilledWriter(options: JSONWritingOptions, plan: [Int: String]?) -> DirectOutcome {
        // Values the encoder converts with their codecs record failures
        // inside nested models here, as encodedRoot() expects.
        let guardian = EncodingGuard.current
        let saved = guardian.begin(root: self, policy: .cycles, maximumDepth: options.maximumDepth)
        defer { guardian.end(saved) }
        // Room for as much as the class's last document took, up to a
        // limit: a larger buffer is left to grow (glibc maps large blocks
        // anew, and the fresh pages cost more than the doublings).
        let hint = layout.jsonLengthHint.load(ordering: .relaxed)
        let capacity = hint <= Self.largestLengthHint ? max(4096, hint + hint / 8) : 4096
        var encoder = JSONModelEncoder(options: options, initialCapacity: capacity)
        encoder.plan = plan
        do {
            try encoder.writeModel(self)
        } catch {
            encoder.writer.deallocate()
            return encoder.metCycle && plan == nil ? .metCycle : .failed
        }
        // A reference written by the ModelValue path below the direct depth,
        // or an id that was not planned, needs the ModelValue path.
        guard guardian.failure == nil, plan != nil || !guardian.wroteReference else {
            encoder.writer.deallocate()
            return .failed
        }
        layout.jsonLengthHint.store(encoder.writer.count, ordering: .relaxed)
        return .written(encoder.writer)
    }

    /// The largest length hint a buffer is made for (see `ClassLayout.jsonLengthHint`).
    private static let largestLengthHint = 512 * 1024
}

extension ModelObject {
    /// Applies a JSON document to this new object: straight from the bytes
    /// with `JSONModelDecoder` when it can, otherwise (and for every error,
    /// which the direct path leaves to this one) through `ModelValue`.
    func loadJSON(_ json: Data, options: JSONReadingOptions) throws {
        var madeModels: [ModelObject]?
        var seenSlots = SlotSet()
        let direct: JSONModelDecoder.Members? = json.withUnsafeBytes { raw in
            var decoder = JSONModelDecoder(raw.bindMemory(to: UInt8.self), options: options, document: json)
            let members = try? decoder.decodeRoot(of: self)
            madeModels = decoder.madeModels
            seenSlots = decoder.lastSeenSlots
            return members
        }
        guard let direct else {
            do {
                try load(ModelValue(modelJSON: json, options: options))
            } catch let error as ModelError {
                throw error.locatingUnknownKeys(inJSON: json, options: options)
            }
            return
        }
        let holdsOtherModels = withState { state in
            direct.values?.move(into: &state)
            state.bag = direct.bag
            if let newer = direct.newerVersion { state.loadedNewerVersion = newer }
            return madeModels != nil && holdsModels(outside: seenSlots, inCells: state.cells)
        }
        // The graph's models in the order its didLoad() calls take, when
        // this load is the thread's outermost (see `LoadInProgress.madeInOrder`).
        if var madeModels, !holdsOtherModels {
            let load = LoadInProgress.current
            if load.depth == 1 {
                madeModels.append(self)
                load.madeInOrder = madeModels
            }
        }
    }
}
