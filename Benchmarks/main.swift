import Foundation

// swift run -c release Benchmarks [--quick] [filter]
var arguments = CommandLine.arguments.dropFirst()
if let index = arguments.firstIndex(of: "--quick") {
    Harness.quick = true
    arguments.remove(at: index)
}
Harness.filter = arguments.first

print("ModelKit benchmarks: medians of alternating rounds; ratio = Foundation or hand-written time / ModelKit time")
print("")
CoreBenchmarks.run()
JSONBenchmarks.run()
PropertyListBenchmarks.run()
CodableJSONBenchmarks.run()
CodableSlotBenchmarks.run()
GraphBenchmarks.run()
DefaultsBenchmarks.run()
