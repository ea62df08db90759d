import Foundation
import Testing

@testable import ModelKit

/// Python's bpylist2 (an independent NSKeyedArchiver implementation) as a
/// judge: it reads the archives ModelKit writes, and ModelKit reads the ones
/// it writes. Skipped politely where python3 or bpylist2 is missing
/// (`pip install bpylist2`).
@Suite(.enabled(if: BpylistJudge.isAvailable, "python3 with the bpylist2 package is not installed"))
struct KeyedArchiveBpylistTests {
    typealias Interop = PropertyListInteropTests

    /// Runs `script` with the file `name` of `folder` as its argument; returns its output.
    static func python(_ script: String, in folder: URL, file name: String) throws -> String {
        let path = folder.appendingPathComponent("script.py")
        try Data(script.utf8).write(to: path)
        let (status, output) = try Interop.run(
            try #require(Interop.python), [path.path, folder.appendingPathComponent(name).path])
        #expect(status == 0, "\(output)")
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static let reader = """
        import json, sys
        from bpylist2 import archiver
        class Pet:
            @staticmethod
            def decode_archive(archive):
                return {"name": archive.decode("name"), "count": archive.decode("count"),
                        "tags": archive.decode("tags"), "friend": archive.decode("friend")}
        archiver.update_class_map({"BPPet": Pet})
        with open(sys.argv[1], "rb") as f:
            print(json.dumps(archiver.unarchive(f.read()), sort_keys=True))
        """

    @Test(arguments: [
        ("rex", 3, ["a", "b"], false, #"{"count": 3, "friend": null, "name": "rex", "tags": ["a", "b"]}"#),
        ("élan", -7, [], true,
         #"{"count": -7, "friend": {"count": 0, "friend": null, "name": "pal", "tags": []}, "name": "\u00e9lan", "tags": []}"#),
    ])
    func bpylistReadsWhatModelKitWrites(name: String, count: Int, tags: [String], hasFriend: Bool, expected: String)
        throws
    {
        let pet = BPPet()
        pet.name = name
        pet.count = count
        pet.tags = tags
        if hasFriend {
            pet.friend = BPPet()
            pet.friend?.name = "pal"
        }
        let output = try withTemporaryFolder { folder in
            try pet.keyedArchiveData().write(to: folder.appendingPathComponent("pet.archive"))
            return try Self.python(Self.reader, in: folder, file: "pet.archive")
        }
        #expect(output == expected)
    }

    static let writer = """
        import sys, json
        from bpylist2 import archiver
        cases = {
            "dict": {"name": "rex", "count": 3, "ratio": 0.5, "ok": True, "tags": ["a", "b"], "nested": {"x": [1, 2]}},
            "list": ["a", 1, 2.5, False, {"k": "v"}],
            "string": "héllo",
        }
        with open(sys.argv[1], "rb") as f:
            name = f.read().decode()
        with open(sys.argv[1], "wb") as f:
            f.write(archiver.archive(cases[name]))
        """

    static let bpylistArchives: [(String, ModelValue)] = [
        ("dict", ["name": "rex", "count": 3, "ratio": 0.5, "ok": true, "tags": ["a", "b"], "nested": ["x": [1, 2]]]),
        ("list", ["a", 1, 2.5, false, ["k": "v"]]),
        ("string", "héllo"),
    ]

    @Test(arguments: Self.bpylistArchives)
    func modelKitReadsWhatBpylistWrites(name: String, expected: ModelValue) throws {
        let value = try withTemporaryFolder { folder in
            let file = folder.appendingPathComponent("case.archive")
            try Data(name.utf8).write(to: file)
            _ = try Self.python(Self.writer, in: folder, file: "case.archive")
            return try ModelValue(keyedArchive: Data(contentsOf: file))
        }
        #expect(value == expected)
    }

    @Test func aModelLoadsFromWhatBpylistWrites() throws {
        let script = """
            import sys
            from bpylist2 import archiver
            class Pet:
                def __init__(self, name, count): self.name, self.count = name, count
                def encode_archive(self, archive):
                    archive.encode("name", self.name)
                    archive.encode("count", self.count)
            archiver.update_class_map({"BPPet": Pet})
            with open(sys.argv[1], "wb") as f:
                f.write(archiver.archive(Pet("rex", 4)))
            """
        let pet = try withTemporaryFolder { folder in
            _ = try Self.python(script, in: folder, file: "pet.archive")
            return try BPPet(keyedArchive: Data(contentsOf: folder.appendingPathComponent("pet.archive")))
        }
        #expect(pet.name == "rex")
        #expect(pet.count == 4)
    }
}

/// Whether python3 with bpylist2 is there.
enum BpylistJudge {
    static let isAvailable: Bool = {
        guard let python = PropertyListInteropTests.python else { return false }
        return (try? PropertyListInteropTests.run(python, ["-c", "from bpylist2 import archiver"]))?.status == 0
    }()
}

final class BPPet: ModelObject, @unchecked Sendable {
    override class var archivedClassName: String { "BPPet" }
    @Saved var name = ""
    @Saved var count = 0
    @Saved var tags: [String] = []
    @Saved var friend: BPPet? = nil
}
