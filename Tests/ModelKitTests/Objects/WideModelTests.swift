import Foundation
import Testing

@testable import ModelKit

/// Models with more than 64 saved properties: their change and mutation
/// records go past the inline word of slots into words made on demand.
@Suite struct WideModelTests {
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func changesPastTheSixtyFourthPropertyAreRecordedAndCleared(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let object = WideModel()
        #expect(!object.hasChanges)
        var expected: Set<String> = []
        var current = Array(0..<130)
        for _ in 0..<40 {
            let index = Int.random(in: 0..<130, using: &random)
            let value = Int.random(in: 0..<3, using: &random) + index
            try object.setValue(value, forKey: "p\(index)")
            // Setting a property to the value it holds is not a change;
            // any other value is, even one that returns to the loaded value.
            if value != current[index] { expected.insert("p\(index)") }
            current[index] = value
        }
        #expect(object.changedKeys == expected)
        #expect(object.hasChanges == !expected.isEmpty)
        let copy = try WideModel(json: object.jsonData())
        for index in 0..<130 {
            #expect(copy.value(forKey: "p\(index)") as? Int == object.value(forKey: "p\(index)") as? Int)
        }
        #expect(!copy.hasChanges)
        object.clearChanges()
        #expect(object.changedKeys.isEmpty)
        #expect(!object.hasChanges)
        try object.setValue(-1, forKey: "p129")
        #expect(object.changedKeys == ["p129"])
    }

    @Test func inPlaceMutationOfAPropertyPastTheSixtyFourthReadsItsNeighbours() {
        let object = WideModel()
        object.p70 = 3
        object.tail.append(contentsOf: [5, 1, 4, 2])
        // Reading other saved properties (past the inline word too) inside
        // an in-place mutation of `tail` is allowed.
        object.tail.removeAll { $0 > object.p70 }
        object.tail.sort()
        #expect(object.tail == [1, 2])
        #expect(object.changedKeys == ["p70", "tail"])
        let dictionary = object.dictionary
        #expect(dictionary["tail"] as? [Int] == [1, 2])
        #expect(dictionary["p129"] as? Int == 129)
    }
}

final class WideModel: ModelObject, @unchecked Sendable {
    @Saved var p0 = 0
    @Saved var p1 = 1
    @Saved var p2 = 2
    @Saved var p3 = 3
    @Saved var p4 = 4
    @Saved var p5 = 5
    @Saved var p6 = 6
    @Saved var p7 = 7
    @Saved var p8 = 8
    @Saved var p9 = 9
    @Saved var p10 = 10
    @Saved var p11 = 11
    @Saved var p12 = 12
    @Saved var p13 = 13
    @Saved var p14 = 14
    @Saved var p15 = 15
    @Saved var p16 = 16
    @Saved var p17 = 17
    @Saved var p18 = 18
    @Saved var p19 = 19
    @Saved var p20 = 20
    @Saved var p21 = 21
    @Saved var p22 = 22
    @Saved var p23 = 23
    @Saved var p24 = 24
    @Saved var p25 = 25
    @Saved var p26 = 26
    @Saved var p27 = 27
    @Saved var p28 = 28
    @Saved var p29 = 29
    @Saved var p30 = 30
    @Saved var p31 = 31
    @Saved var p32 = 32
    @Saved var p33 = 33
    @Saved var p34 = 34
    @Saved var p35 = 35
    @Saved var p36 = 36
    @Saved var p37 = 37
    @Saved var p38 = 38
    @Saved var p39 = 39
    @Saved var p40 = 40
    @Saved var p41 = 41
    @Saved var p42 = 42
    @Saved var p43 = 43
    @Saved var p44 = 44
    @Saved var p45 = 45
    @Saved var p46 = 46
    @Saved var p47 = 47
    @Saved var p48 = 48
    @Saved var p49 = 49
    @Saved var p50 = 50
    @Saved var p51 = 51
    @Saved var p52 = 52
    @Saved var p53 = 53
    @Saved var p54 = 54
    @Saved var p55 = 55
    @Saved var p56 = 56
    @Saved var p57 = 57
    @Saved var p58 = 58
    @Saved var p59 = 59
    @Saved var p60 = 60
    @Saved var p61 = 61
    @Saved var p62 = 62
    @Saved var p63 = 63
    @Saved var p64 = 64
    @Saved var p65 = 65
    @Saved var p66 = 66
    @Saved var p67 = 67
    @Saved var p68 = 68
    @Saved var p69 = 69
    @Saved var p70 = 70
    @Saved var p71 = 71
    @Saved var p72 = 72
    @Saved var p73 = 73
    @Saved var p74 = 74
    @Saved var p75 = 75
    @Saved var p76 = 76
    @Saved var p77 = 77
    @Saved var p78 = 78
    @Saved var p79 = 79
    @Saved var p80 = 80
    @Saved var p81 = 81
    @Saved var p82 = 82
    @Saved var p83 = 83
    @Saved var p84 = 84
    @Saved var p85 = 85
    @Saved var p86 = 86
    @Saved var p87 = 87
    @Saved var p88 = 88
    @Saved var p89 = 89
    @Saved var p90 = 90
    @Saved var p91 = 91
    @Saved var p92 = 92
    @Saved var p93 = 93
    @Saved var p94 = 94
    @Saved var p95 = 95
    @Saved var p96 = 96
    @Saved var p97 = 97
    @Saved var p98 = 98
    @Saved var p99 = 99
    @Saved var p100 = 100
    @Saved var p101 = 101
    @Saved var p102 = 102
    @Saved var p103 = 103
    @Saved var p104 = 104
    @Saved var p105 = 105
    @Saved var p106 = 106
    @Saved var p107 = 107
    @Saved var p108 = 108
    @Saved var p109 = 109
    @Saved var p110 = 110
    @Saved var p111 = 111
    @Saved var p112 = 112
    @Saved var p113 = 113
    @Saved var p114 = 114
    @Saved var p115 = 115
    @Saved var p116 = 116
    @Saved var p117 = 117
    @Saved var p118 = 118
    @Saved var p119 = 119
    @Saved var p120 = 120
    @Saved var p121 = 121
    @Saved var p122 = 122
    @Saved var p123 = 123
    @Saved var p124 = 124
    @Saved var p125 = 125
    @Saved var p126 = 126
    @Saved var p127 = 127
    @Saved var p128 = 128
    @Saved var p129 = 129
    @Saved var tail: [Int] = []
}
