import Foundation
import Testing

@testable import ModelKit

@Suite struct ModelMergeTests {
    @Test func itemsMatchByIdentityWhereverTheyMoved() throws {
        let base = MergeList.sample()
        let ours = base.copy(), theirs = base.copy()
        ours.items.insert(MergeItem("z", "coffee"), at: 0)
        ours.items.swapAt(1, 3)  // bread first, milk last
        theirs.items[0].done = true  // milk
        theirs.items[1].title = "free-range eggs"
        let result = try MergeList.merge(base: base, ours: ours, theirs: theirs)
        #expect(result.conflicts.isEmpty)
        #expect(result.merged.items.map(\.id) == ["z", "c", "b", "a"])
        #expect(result.merged.items.map(\.title) == ["coffee", "bread", "free-range eggs", "milk"])
        #expect(result.merged.items.map(\.done) == [false, false, false, true])
    }

    @Test func anItemRemovedOnOneSideAndEditedOnTheOtherIsAConflict() throws {
        let base = MergeList.sample()
        let ours = base.copy(), theirs = base.copy()
        ours.items[1].title = "brown eggs"
        theirs.items.remove(at: 1)
        theirs.items.append(MergeItem("d", "tea"))
        let result = try MergeList.merge(base: base, ours: ours, theirs: theirs)
        #expect(result.conflicts.map(\.description) == [
            #"items[1]: base {"type":"MergeItem","version":1,"id":"b","title":"eggs","do…, "#
                + #"ours {"type":"MergeItem","version":1,"id":"b","title":"brown egg…, theirs absent"#
        ])
        #expect(result.conflicts.first?.kind == .removedOnOneSide)
        #expect(result.merged.items.map(\.title) == ["milk", "brown eggs", "bread", "tea"])
        let theirsWins = try MergeList.merge(base: base, ours: ours, theirs: theirs, policy: .theirs)
        #expect(theirsWins.merged.items.map(\.title) == ["milk", "bread", "tea"])
    }

    @Test func modelsWithoutAnIdentityKeyMergeByPosition() throws {
        let base = MergeList.sample()
        let ours = base.copy(), theirs = base.copy()
        ours.notes[0].count = 7
        theirs.notes[0].title = "changed"
        theirs.notes[1].tags = ["x"]
        let result = try MergeList.merge(base: base, ours: ours, theirs: theirs)
        #expect(result.conflicts.isEmpty)
        #expect(result.merged.notes.map(\.title) == ["changed", "second"])
        #expect(result.merged.notes.map(\.count) == [7, 0])
        #expect(result.merged.notes[1].tags == ["x"])
        theirs.notes[0].count = 8
        let conflicting = try MergeList.merge(base: base, ours: ours, theirs: theirs)
        #expect(conflicting.conflicts.map(\.description) == ["notes[0].count: base 0, ours 7, theirs 8"])
    }

    @Test func unknownKeysOfBothSidesAreKept() throws {
        let base = try MergeList(json: Data(#"{"name":"L","kept":1}"#.utf8))
        let ours = try MergeList(json: Data(#"{"name":"L","kept":1,"colour":"red"}"#.utf8))
        let theirs = try MergeList(json: Data(#"{"name":"L","size":3}"#.utf8))
        let result = try MergeList.merge(base: base, ours: ours, theirs: theirs)
        #expect(result.conflicts.isEmpty)
        #expect(result.merged.extensibleProperties == ["colour": "red", "size": 3])
    }

    @Test func inputsOfOlderVersionsAreUpgradedFirst() throws {
        let base = try MergeList(json: Data(#"{"version":1,"title":"Old","limit":2}"#.utf8))
        let ours = try MergeList(json: Data(#"{"version":2,"name":"New","limit":2}"#.utf8))
        let theirs = try MergeList(json: Data(#"{"version":1,"title":"Old","limit":3}"#.utf8))
        let result = try MergeList.merge(base: base, ours: ours, theirs: theirs, policy: .fail)
        #expect(result.merged.name == "New")
        #expect(result.merged.limit == 3)
        #expect(try result.merged.jsonString() == #"{"type":"MergeList","version":2,"name":"New","limit":3,"items":[],"notes":[]}"#)
    }

    @Test func aMergeThatBreaksTheRulesFailsWithTheRulesErrorAndTheConflicts() throws {
        let base = MergeList.sample()
        let ours = base.copy(), theirs = base.copy()
        ours.items.append(MergeItem("d", "tea"))
        ours.name = "Mine"
        theirs.items.insert(MergeItem("e", "jam"), at: 0)
        theirs.name = "Theirs"
        let forms = [base.form, ours.form, theirs.form]
        #expect {
            try MergeList.merge(base: base, ours: ours, theirs: theirs)
        } throws: { error in
            guard let error = error as? ModelError else { return false }
            return error.description
                == #"items: a list holds at most 4 items, found 5 (the merged value, after 1 conflict settled by the policy: name: base "Groceries", ours "Mine", theirs "Theirs")"#
                && error.mergeConflicts.map(\.path) == ["name"]
        }
        // A declared rule too: a resolution that empties the name.
        ours.items.removeLast()
        #expect {
            try MergeList.merge(base: base, ours: ours, theirs: theirs, policy: .resolve { _ in "" })
        } throws: { error in
            (error as? ModelError)?.description.hasPrefix("name: ") == true
        }
        #expect(base.form == forms[0] && theirs.form == forms[2])
    }

    @Test func failThrowsAndChangesNothing() throws {
        let base = MergeList.sample()
        let ours = base.copy(), theirs = base.copy()
        ours.limit = 5
        theirs.limit = 6
        ours.items[2].title = "rye"
        theirs.items[2].title = "spelt"
        let forms = [base.form, ours.form, theirs.form]
        #expect {
            try MergeList.merge(base: base, ours: ours, theirs: theirs, policy: .fail)
        } throws: { error in
            (error as? ModelError)?.description
                == #"the merge has 2 conflicts: limit: base 4, ours 5, theirs 6; items[2].title: base "bread", ours "rye", theirs "spelt""#
        }
        #expect([base.form, ours.form, theirs.form] == forms)
    }

    @Test func aResolutionOfTheWrongTypeNamesItsKeyPath() throws {
        let base = MergeList.sample()
        let ours = base.copy(), theirs = base.copy()
        ours.items[0].title = "soy milk"
        theirs.items[0].title = "oat milk"
        #expect {
            try MergeList.merge(base: base, ours: ours, theirs: theirs, policy: .resolve { _ in 5 })
        } throws: { error in
            (error as? ModelError)?.description.hasPrefix(#"items[0].title: expected String, found an integer (5)"#) == true
        }
        #expect {
            try MergeList.merge(
                base: base, ours: ours, theirs: theirs,
                policy: .resolve { $0.path == "items[0].title" ? nil : $0.ours })
        } throws: { error in
            (error as? ModelError)?.description
                == "items[0].title: a saved key of MergeItem cannot be removed by a merge; the resolution must give it a value"
        }
        ours.limit = 1
        theirs.limit = 2
        #expect {
            try MergeList.merge(base: base, ours: ours, theirs: theirs, policy: .resolve { _ in nil })
        } throws: { error in
            (error as? ModelError)?.description
                == "limit: a saved key of MergeList cannot be removed by a merge; the resolution must give it a value"
        }
    }
}
