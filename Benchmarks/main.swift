import Foundation

// swift run -c release Benchmarks [--quick] [--profile N [--baseline | --variant LABEL]] [filter]
// swift run -c release Benchmarks --check [--update-baseline]   (instruction counts; see InstructionCheck)
// swift run -c release Benchmarks Growth --instructions          (growth rows counted in instructions)
var arguments = CommandLine.arguments.dropFirst()
if let index = arguments.firstIndex(of: "--count"), index + 1 < arguments.endIndex {
    // The child that `--check` runs under callgrind: one row's operation, nothing else.
    InstructionCheck.count(arguments[index + 1])
}
if let index = arguments.firstIndex(of: "--count-growth"), index + 2 < arguments.endIndex,
    let size = Int(arguments[index + 2])
{
    // The child that `Growth --instructions` runs under callgrind: one growth row at one size.
    GrowthBenchmarks.countRequest = (arguments[index + 1], size)
    GrowthBenchmarks.run()
    FileHandle.standardError.write(Data("Benchmarks --count-growth: no row named \(arguments[index + 1])\n".utf8))
    exit(2)
}
if let index = arguments.firstIndex(of: "--instructions") {
    GrowthBenchmarks.countsInstructions = true
    arguments.remove(at: index)
}
if arguments.contains("--check") || arguments.contains("--update-baseline") {
    InstructionCheck.check(updatingBaseline: arguments.contains("--update-baseline"))
}
if let index = arguments.firstIndex(of: "--quick") {
    Harness.quick = true
    arguments.remove(at: index)
}
if let index = arguments.firstIndex(of: "--profile"), index + 1 < arguments.endIndex {
    Harness.profileIterations = Int(arguments[index + 1])
    arguments.removeSubrange(index...(index + 1))
}
if let index = arguments.firstIndex(of: "--baseline") {
    Harness.profilesBaseline = true
    arguments.remove(at: index)
}
if let index = arguments.firstIndex(of: "--variant"), index + 1 < arguments.endIndex {
    Harness.profiledVariant = arguments[index + 1]
    arguments.removeSubrange(index...(index + 1))
}
Harness.filter = arguments.first
if Harness.filter == FirstWriteBenchmarks.aloneArgument {
    FirstWriteBenchmarks.run()
    exit(0)
}
JSONLinesBenchmarks.measureLargeFile()  // only for `Benchmarks jsonl-200mb`, which ends there

print("ModelKit benchmarks: medians of alternating rounds; ratio = Foundation or hand-written time / ModelKit time")
print("")
CoreBenchmarks.run()
JSONBenchmarks.run()
PropertyListBenchmarks.run()
CodableJSONBenchmarks.run()
CodableSlotBenchmarks.run()
GraphBenchmarks.run()
DefaultsBenchmarks.run()
JSONLinesBenchmarks.run()
JSONLinesBenchmarks.runLongLines()
MergeBenchmarks.run()
GrowthBenchmarks.run()
FileBenchmarks.run()
DocumentBenchmarks.run()
TypedPeerBenchmarks.run()
FirstWriteBenchmarks.run()
