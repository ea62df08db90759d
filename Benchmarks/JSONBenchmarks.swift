enum JSONBenchmarks { static func run() {} }
