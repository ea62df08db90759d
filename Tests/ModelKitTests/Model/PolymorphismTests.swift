import Foundation
import Testing
@testable import ModelKit

@Suite struct PolymorphismTests {
    init() { _ = registerFixtures }

    @Test(arguments: Form.allCases)
    func registeredSubclassesDecodeAsThemselves(form: Form) throws {
        let album = Album()
        let photo = Photo()
        photo.name = "sunset"
        photo.width = 640
        let video = Video()
        video.seconds = 12.5
        album.cover = photo
        album.items = [video, photo, Attachment()]
        let copy = try form.roundTrip(album)
        #expect((copy.cover as? Photo)?.width == 640)
        #expect(copy.items.map { String(describing: type(of: $0)) } == ["Video", "Photo", "Attachment"])
        #expect((copy.items[0] as? Video)?.seconds == 12.5)
    }

    @Test func decodedCreatesTheNamedSubclassAtTheRoot() throws {
        let item = try Attachment.decoded(from: ["type": "Photo", "width": 1])
        #expect((item as? Photo)?.width == 1)
        let plain = try Attachment.decoded(from: ["name": "no type"])
        #expect(type(of: plain) == Attachment.self)
    }

    static let badTypes: [(ModelValue, String)] = [
        (
            ["cover": ["type": "Hacker"]],
            #"cover.type: expected "Attachment" or the type name of a registered subclass of Attachment, found "Hacker", which names no registered class (see ModelObject.register(_:))"#
        ),
        (
            ["items": [["type": "Photo"], ["type": "Stranger"]]],
            #"items[1].type: expected Attachment or a subclass of it, found "Stranger", which names Stranger, a class that is not a subclass of Attachment"#
        ),
        (["cover": ["type": 5]], "cover.type: expected a type name, found an integer (5)"),
        (
            ["cover": ["type": "Note"]],
            #"cover.type: expected "Attachment" or the type name of a registered subclass of Attachment, found "Note", which names no registered class (see ModelObject.register(_:))"#
        ),
    ]

    @Test(arguments: badTypes)
    func onlyRegisteredSubclassesOfTheDeclaredTypeAreCreated(input: ModelValue, message: String) {
        let error = #expect(throws: ModelError.self) { try Album(modelValue: input) }
        #expect(error?.description == message)
    }

    @Test func initializersRefuseSubclassData() {
        let error = #expect(throws: ModelError.self) { try Attachment(modelValue: ["type": "Photo"]) }
        #expect(error?.code == .typeNotAllowed)
        #expect(
            error?.description
                == #"type: the data is a Photo ("Photo"), and an initializer of Attachment cannot create a subclass; read it with Attachment.decoded(from:) or Photo's initializer"#
        )
    }
}
