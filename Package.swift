// swift-tools-version:6.0
import PackageDescription

/// pushnode depends only on the Swift toolchain and Debian's C libraries
/// (see README: libsodium-dev, libssl-dev, libcurl4-openssl-dev, libnghttp2-dev, libsqlite3-dev,
/// libyaml-dev, libmicrohttpd-dev).
let package = Package(
    name: "pushnode",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "pushnode", targets: ["pushnode"]),
        .executable(name: "PushBench", targets: ["PushBench"]),
        .library(name: "PushCrypto", targets: ["PushCrypto"]),
        .library(name: "PushProtocol", targets: ["PushProtocol"]),
        .library(name: "PushClient", targets: ["PushClient"]),
    ],
    targets: [
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium"),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl"),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl"),
        .systemLibrary(name: "CNGHTTP2", pkgConfig: "libnghttp2"),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3"),
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1"),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd"),
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq"),
        // The one C source of the package: a SQLite VFS writing a commit's WAL frames at once.
        .target(name: "CSQLiteWALBuffer", dependencies: ["CSQLite"]),

        .target(name: "PushCrypto", dependencies: ["CSodium", "COpenSSL"]),
        .target(name: "PushProtocol", dependencies: ["PushCrypto"]),
        // The node, bottom up. Each target has one job; arrows point down only (docs/architecture.md).
        .target(name: "PushSupport"),
        .target(name: "PushNet"),
        .target(name: "HTTPClient", dependencies: ["CCurl", "CNGHTTP2", "COpenSSL", "PushNet", "PushSupport"]),
        .target(name: "PushMetrics", dependencies: ["PushSupport"]),
        .target(name: "PushStore", dependencies: ["PushCrypto", "PushProtocol", "PushSupport", "CSQLite", "CSQLiteWALBuffer", "CPostgres"]),
        .target(name: "PushDelivery", dependencies: ["PushCrypto", "PushProtocol", "PushSupport"]),
        .target(name: "PushEngine", dependencies: [
            "PushDelivery", "PushStore", "PushMetrics", "PushNet", "HTTPClient", "PushCrypto", "PushProtocol", "PushSupport"]),
        .target(name: "PushService", dependencies: ["PushStore", "PushNet", "PushCrypto", "PushProtocol", "PushSupport"]),
        .target(name: "PushHTTP", dependencies: [
            "PushService", "PushStore", "PushMetrics", "PushNet", "PushCrypto", "PushProtocol", "PushSupport", "CMicroHTTPD"]),
        .target(name: "PushAnySync", dependencies: [
            "PushService", "PushNet", "PushCrypto", "PushProtocol", "PushSupport", "COpenSSL"]),
        .target(name: "PushMatrix", dependencies: [
            "PushService", "PushDelivery", "PushStore", "PushMetrics", "PushNet", "PushCrypto", "PushProtocol", "PushSupport"]),
        .target(name: "PushConfig", dependencies: ["PushMatrix", "PushService", "PushNet", "PushProtocol", "PushSupport", "CYAML"]),
        .target(name: "PushNode", dependencies: [
            "PushConfig", "PushHTTP", "PushAnySync", "PushMatrix", "PushEngine", "PushService", "PushDelivery", "PushStore",
            "PushMetrics", "PushNet", "HTTPClient", "PushCrypto", "PushProtocol", "PushSupport"]),
        .target(name: "PushClient", dependencies: ["PushCrypto", "PushProtocol", "PushSupport", "HTTPClient"]),
        .executableTarget(
            name: "pushnode",
            dependencies: ["PushNode", "PushConfig", "PushAnySync", "PushEngine", "PushDelivery", "PushStore", "PushSupport",
                           "PushCrypto", "PushProtocol", "PushClient", "HTTPClient", "PushNet"]
        ),
        .executableTarget(
            name: "PushBench",
            dependencies: ["PushNode", "PushConfig", "PushHTTP", "PushAnySync", "PushEngine", "PushService", "PushDelivery",
                           "PushStore", "PushMetrics", "PushNet", "PushSupport", "PushCrypto", "PushProtocol", "PushClient",
                           "HTTPClient", "COpenSSL"]
        ),

        .testTarget(name: "PushCryptoTests", dependencies: ["PushCrypto", "CSodium"]),
        .testTarget(name: "PushProtocolTests", dependencies: ["PushProtocol"]),
        .testTarget(name: "HTTPClientTests", dependencies: ["HTTPClient", "PushNet", "PushSupport"]),
        // The node's modules are tested in one target (folders mirror Sources/), so the fixtures in
        // Tests/NodeTests/Support serve every module without a support target in the release build.
        .testTarget(name: "NodeTests", dependencies: [
            "PushNode", "PushConfig", "PushHTTP", "PushAnySync", "PushMatrix", "PushEngine", "PushService", "PushDelivery", "PushStore",
            "PushMetrics", "PushNet", "PushSupport", "PushProtocol", "PushCrypto", "HTTPClient"]),
        .testTarget(name: "PushClientTests", dependencies: [
            "PushClient", "PushNode", "PushConfig", "PushHTTP", "PushAnySync", "PushEngine", "PushService", "PushDelivery",
            "PushStore", "PushMetrics", "PushNet", "PushSupport", "HTTPClient"]),
    ],
    swiftLanguageModes: [.v6]
)

// The libFuzzer harness (Tests/Fuzz/README.md) exists only for `make fuzz`, which sets
// PUSHNODE_FUZZ=1 and builds it in its own build path with `--sanitize=fuzzer --sanitize=address`:
// a normal `swift build` neither sees nor builds it.
if Context.environment["PUSHNODE_FUZZ"] == "1" {
    package.targets.append(.executableTarget(
        name: "PushFuzz",
        dependencies: ["PushAnySync", "PushConfig", "PushHTTP", "PushMatrix", "PushService", "PushStore", "PushNet",
                       "PushProtocol", "PushCrypto", "COpenSSL"],
        path: "Tests/Fuzz/Sources"))
}
