enum CoreBenchmarks { static func run() {} }
