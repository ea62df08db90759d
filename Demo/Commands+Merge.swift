import Foundation
import ModelKit

extension Commands {
    // MARK: - merge

    /// `merge BASE OURS THEIRS`: the merge to `output`, the conflicts to
    /// standard error; a ``Failure`` (status 1) when conflicts are left
    /// unresolved (no `prefer`), after the merge is written.
    /// Arrays of objects in documents of no known class are matched by the
    /// member `identity` where every element has a distinct one.
    static func merge(
        _ places: [Document.Place], prefer: MergePolicy?, identity: String, to output: Document.Place
    ) throws {
        let documents = try places.map { try Document.read($0) }
        let format: ModelDocumentFormat
        if case .file(let url, let typed) = output {
            guard let byExtension = ModelDocumentFormat(pathExtension: url.pathExtension) else {
                throw UsageError(
                    "cannot choose a format from the extension of '\(typed)'; use .json, .plist, .xml or .bplist",
                    command: .merge)
            }
            if case .json = byExtension { format = .json(.pretty) } else { format = byExtension }
        } else {
            format = .json(.pretty)
        }
        let policy = prefer ?? .ours
        let content: Document.Content
        let conflicts: [MergeConflict]
        // Only documents that name their class are read as it: a document
        // of no class merges as it is, gaining no defaults.
        if let type = documents[0].knownClass, documents.allSatisfy({ $0.namesClass && $0.knownClass == type }) {
            // Read as the class: upgraded, and the merge validated.
            let models = try documents.map { try $0.model(of: type) }
            let result = try ModelObject.merge(base: models[0], ours: models[1], theirs: models[2], policy: policy)
            (content, conflicts) = (.model(result.merged), result.conflicts)
        } else {
            let result = try ModelValue.merge(
                base: documents[0].value, ours: documents[1].value, theirs: documents[2].value, policy: policy,
                identityKey: identity)
            (content, conflicts) = (.value(result.merged), result.conflicts)
        }
        try Document.write(content, to: output, format: format)
        let settled = prefer == nil ? "unresolved" : "settled by \(prefer.map(name(of:)) ?? "")"
        let lines = conflicts.map { "conflict (\(settled)): \($0)\n" }.joined()
        FileHandle.standardError.write(Data(lines.utf8))
        if !output.isStandard { report("wrote \(output.outputName)", besides: output) }
        if prefer == nil, !conflicts.isEmpty {
            let count = conflicts.count == 1 ? "1 conflict" : "\(conflicts.count) conflicts"
            throw Failure("\(count) left unresolved (our values kept); --prefer ours or --prefer theirs settles them")
        }
    }

    static func name(of policy: MergePolicy) -> String {
        if case .theirs = policy { return "theirs" }
        return "ours"
    }
}
