import Foundation
import Testing

@testable import ModelKit

@Suite struct JSONSchemaTests {
    static func text(_ schema: ModelValue) -> String {
        (try? schema.jsonString(options: .compact)) ?? "?"
    }

    @Test func standardSchemaHasADefinitionPerClassRulesAndDescriptions() throws {
        #expect(
            Self.text(try Bookmark.jsonSchema())
                == ##"{"$schema":"https://json-schema.org/draft/2020-12/schema","$ref":"#/$defs/Bookmark","$defs":{"Bookmark":{"type":"object","properties":{"type":{"description":"The class of the saved model; when left out, the declared class.","const":"Bookmark"},"$id":{"description":"The model's id, which {\"$ref\": id} elsewhere in the same document refers to.","type":"string"},"version":{"description":"The data version: 1 for this class; older versions are upgraded when loaded.","type":"integer","minimum":0},"title":{"type":"string","maxLength":80,"description":"The page's title"},"visits":{"type":"integer"},"link":{"type":["string","null"],"format":"uri-reference","minLength":1},"pairs":{"type":"integer","description":"A rule that no schema can express is checked when loading."}}}}}"##
        )
    }

    @Test func openAISchemaIsClosedWithEveryPropertyRequired() throws {
        #expect(
            Self.text(try Bookmark.jsonSchema(.openAI))
                == ##"{"type":"object","properties":{"title":{"type":"string","description":"The page's title (at most 80 characters)"},"visits":{"type":"integer"},"link":{"type":["string","null"],"description":"Format: uri-reference; at least 1 character."},"pairs":{"type":"integer"}},"required":["title","visits","link","pairs"],"additionalProperties":false}"##
        )
    }

    @Test func anthropicSchemaMovesBoundsIntoDescriptions() throws {
        let schema = try SchemaChild.jsonSchema(.anthropic)
        #expect(
            Self.text(schema)
                == ##"{"type":"object","properties":{"stars":{"type":"integer","description":"At least 1; at most 5."},"label":{"type":["string","null"]}},"required":["stars","label"],"additionalProperties":false}"##
        )
    }

    @Test func recursiveModelsReferToTheirDefinition() throws {
        #expect(
            Self.text(try SchemaNode.jsonSchema(.openAI))
                == ##"{"type":"object","properties":{"name":{"type":"string","description":"At most 10 characters."},"next":{"anyOf":[{"$ref":"#"},{"type":"null"}]}},"required":["name","next"],"additionalProperties":false}"##
        )
        let standard = try SchemaNode.jsonSchema()
        #expect(
            Self.text(standard["$defs"]?["SchemaNode"]?["properties"]?["next"] ?? nil)
                == ##"{"anyOf":[{"$ref":"#/$defs/SchemaNode"},{"description":"A model written elsewhere in the same document: the \"$id\" it carries there.","type":"object","properties":{"$ref":{"type":"string"}},"required":["$ref"],"additionalProperties":false},{"type":"null"}]}"##)
    }

    @Test(arguments: [
        (
            SchemaNode.self as ModelObject.Type, JSONSchemaProfile.anthropic,
            "SchemaNode cannot be described for Anthropic's structured outputs: SchemaNode refers to itself through its properties (a recursive class), which Anthropic's structured outputs do not accept"
        ),
        (
            SchemaWithMap.self, .openAI,
            "SchemaWithMap cannot be described for OpenAI's structured outputs: SchemaWithMap.counts: a dictionary ([String: Int]) has keys that are not known in advance, which strict structured outputs cannot describe (use an array of models with a key property)"
        ),
        (
            Everything.self, .anthropic,
            "Everything cannot be described for Anthropic's structured outputs: (1) Everything.map: a dictionary ([String: Int]) has keys that are not known in advance, which strict structured outputs cannot describe (use an array of models with a key property); (2) Everything.deepMap: a dictionary ([String: Dictionary<String, Array<Int>>]) has keys that are not known in advance, which strict structured outputs cannot describe (use an array of models with a key property); (3) Everything.value: a ModelValue may be any value, which a strict schema cannot say"
        ),
    ])
    func profilesRefuseWhatTheyCannotDescribe(type: ModelObject.Type, profile: JSONSchemaProfile, message: String) {
        // Thrown, never returned as a schema standing for an error.
        let error = #expect(throws: ModelError.self) { try type.jsonSchema(profile) }
        #expect(error?.code == .notRepresentable)
        #expect(error?.message == message)
    }

    @Test func weakReferencesAreReferencesOrNull() throws {
        let standard = try SchemaTreeNode.jsonSchema()["$defs"]?["SchemaTreeNode"]?["properties"]?["parent"] ?? nil
        #expect(
            Self.text(standard)
                == ##"{"description":"A weak reference to a SchemaTreeNode: {\"$ref\": id} naming a model written elsewhere in the document, or null.","anyOf":[{"description":"A model written elsewhere in the same document: the \"$id\" it carries there.","type":"object","properties":{"$ref":{"type":"string"}},"required":["$ref"],"additionalProperties":false},{"type":"null"}]}"##
        )
        let strict = try SchemaTreeNode.jsonSchema(.openAI)["properties"]?["parent"] ?? nil
        #expect(Self.text(strict) == ##"{"type":"null","description":"A weak reference to a SchemaTreeNode; always null here."}"##)
    }

    @Test func codableValuesGetTheShapeTheirCodingHas() throws {
        let standard = try Order.jsonSchema()["$defs"]?["Order"]?["properties"]?["shipment"] ?? nil
        #expect(
            Self.text(standard)
                == ##"{"type":"object","properties":{"weight":{"type":"number"},"note":{"type":["string","null"]},"lines":{"type":"array","items":{"type":"object","properties":{"sku":{"type":"string"},"quantity":{"type":"integer"}},"required":["sku","quantity"]}}},"required":["weight","lines"]}"##
        )
        let strict = try Order.jsonSchema(.openAI)["properties"]?["shipment"] ?? nil
        #expect(
            Self.text(strict)
                == ##"{"type":"object","properties":{"weight":{"type":"number"},"note":{"type":["string","null"]},"lines":{"type":"array","items":{"type":"object","properties":{"sku":{"type":"string"},"quantity":{"type":"integer"}},"required":["sku","quantity"],"additionalProperties":false}}},"required":["weight","note","lines"],"additionalProperties":false}"##
        )
    }

    @Test func registeredSubclassesAreAlternativesByTheirType() throws {
        ModelObject.register(Photo.self, Video.self)
        let standard = try Album.jsonSchema()
        #expect(
            Self.text(standard["$defs"]?["Album"]?["properties"]?["cover"] ?? nil)
                == ##"{"anyOf":[{"oneOf":[{"$ref":"#/$defs/Attachment"},{"$ref":"#/$defs/Photo","required":["type"]},{"$ref":"#/$defs/Video","required":["type"]}]},{"description":"A model written elsewhere in the same document: the \"$id\" it carries there.","type":"object","properties":{"$ref":{"type":"string"}},"required":["$ref"],"additionalProperties":false},{"type":"null"}]}"##
        )
        let photoType = Self.text(standard["$defs"]?["Photo"]?["properties"]?["type"] ?? nil)
        #expect(photoType.contains(#""const":"Photo""#))
        let strict = try Album.jsonSchema(.openAI)
        #expect(
            Self.text(strict["properties"]?["items"] ?? nil)
                == ##"{"type":"array","items":{"anyOf":[{"$ref":"#/$defs/Attachment"},{"$ref":"#/$defs/Photo"},{"$ref":"#/$defs/Video"}]}}"##
        )
        #expect(
            Self.text(strict["$defs"]?["Photo"] ?? nil)
                == ##"{"type":"object","properties":{"type":{"type":"string","enum":["Photo"]},"name":{"type":"string"},"width":{"type":"integer"}},"required":["type","name","width"],"additionalProperties":false}"##
        )
    }

    /// Keywords each language model profile accepts (see JSONSchemaProfileRules).
    static let accepted: [JSONSchemaProfile: Set<String>] = [
        .openAI: [
            "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "$ref",
            "$defs", "description", "pattern", "format", "minimum", "maximum", "minItems", "maxItems",
        ],
        .anthropic: [
            "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "allOf",
            "$ref", "$defs", "description", "pattern", "format", "minItems",
        ],
    ]

    @Test(arguments: [JSONSchemaProfile.openAI, .anthropic])
    func strictProfilesUseOnlyAcceptedKeywordsAndCloseEveryObject(profile: JSONSchemaProfile) throws {
        ModelObject.register(Photo.self, Video.self)
        for type in [SchemaSubject.self, Bookmark.self, Order.self, Album.self, Note.self] as [ModelObject.Type]
        where !(profile == .anthropic && type == Note.self) {
            let schema = try type.jsonSchema(profile)
            var problems: [String] = []
            Self.walk(schema, isMap: false) { object in
                for keyword in object.keys where !Self.accepted[profile]!.contains(keyword) {
                    problems.append("\(type): \(keyword)")
                }
                if object["properties"] != nil {
                    if object["additionalProperties"] != false { problems.append("\(type): an open object") }
                    let keys = object["properties"]?.objectValue?.keys ?? []
                    if object["required"] != .array(keys.map { .string($0) }) {
                        problems.append("\(type): not every property required")
                    }
                }
            }
            #expect(problems == [])
        }
    }

    static func walk(_ value: ModelValue, isMap: Bool, _ body: (ModelValue.Object) -> Void) {
        guard case .object(let object) = value else { return }
        if isMap {
            for (_, schema) in object { walk(schema, isMap: false, body) }
            return
        }
        body(object)
        for (keyword, member) in object {
            switch keyword {
            case "properties", "$defs": walk(member, isMap: true, body)
            case "items", "additionalProperties": walk(member, isMap: false, body)
            case "anyOf", "allOf", "oneOf": for branch in member.arrayValue ?? [] { walk(branch, isMap: false, body) }
            default: break
            }
        }
    }

    @Test func openAILimitsAreChecked() throws {
        var nested: ModelValue = ["type": "string"]
        for _ in 0..<11 {
            nested = ["type": "object", "properties": ["inner": nested], "required": ["inner"], "additionalProperties": false]
        }
        #expect(JSONSchemaProfileRules(profile: .openAI).adapt(&nested) == ["objects are nested 11 levels deep; OpenAI allows 10"])
        var wide: ModelValue = [
            "type": "object",
            "properties": .object(ModelValue.Object((0..<5_001).map { ("p\($0)", ["type": "integer"]) })),
        ]
        #expect(JSONSchemaProfileRules(profile: .openAI).adapt(&wide) == ["the schema has 5001 object properties; OpenAI allows 5,000"])
        var cases: ModelValue = ["type": "string", "enum": .array((0..<1_001).map { .string("c\($0)") })]
        #expect(
            JSONSchemaProfileRules(profile: .openAI).adapt(&cases) == ["the schema has 1001 enum values; OpenAI allows 1,000"])
        // Recursion is allowed, and counts once.
        #expect(throws: Never.self) { try Note.jsonSchema(.openAI) }
    }
}

final class SchemaLoneBook: ModelObject, @unchecked Sendable {
    @Saved var title = ""
}

/// A class registered for loading, with no model class above or below it,
/// has no alternatives to tell apart: strict profiles do not require its
/// `type` (issue 49: `register(Book.self)` added it to `required`).
@Test(arguments: [JSONSchemaProfile.openAI, .anthropic])
func aRegisteredClassWithNoSubclassesDoesNotRequireItsType(profile: JSONSchemaProfile) throws {
    ModelObject.register(SchemaLoneBook.self)
    let schema = try SchemaLoneBook.jsonSchema(profile)
    #expect(schema["required"] == ["title"])
    #expect(schema["properties"]?["type"] == nil)
}
