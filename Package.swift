// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "ModelKit",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ModelKit", targets: ["ModelKit"])
    ],
    dependencies: [],
    targets: [
        .target(name: "ModelKit", path: "Sources/ModelKit"),
        .executableTarget(name: "Demo", dependencies: ["ModelKit"], path: "Demo"),
        .executableTarget(
            name: "Benchmarks", dependencies: ["ModelKit"], path: "Benchmarks",
            // Read by `Benchmarks --check` by path (#filePath), not bundled.
            exclude: ["instruction-baseline.txt"]),
        // A child process that the file tests kill while it saves.
        .executableTarget(name: "FileWorker", dependencies: ["ModelKit"], path: "Tests/FileWorker"),
        .testTarget(
            name: "ModelKitTests", dependencies: ["ModelKit"], path: "Tests/ModelKitTests",
            // Read by path (#filePath), not bundled.
            exclude: ["PropertyList/Fixtures", "Patches/Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    target.swiftSettings = settings
}
