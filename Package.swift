// swift-tools-version:6.0
import PackageDescription

/// pushnode depends only on the Swift toolchain and Debian's C libraries
/// (see README: libsodium-dev, libssl-dev, libcurl4-openssl-dev, libsqlite3-dev,
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
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3"),
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1"),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd"),
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq"),

        .target(name: "PushCrypto", dependencies: ["CSodium", "COpenSSL"]),
        .target(name: "PushProtocol", dependencies: ["PushCrypto"]),
        .target(name: "HTTPClient", dependencies: ["CCurl"]),
        .target(
            name: "PushServer",
            dependencies: ["PushCrypto", "PushProtocol", "HTTPClient", "CSQLite", "CYAML", "CMicroHTTPD", "CPostgres", "COpenSSL"]
        ),
        .target(name: "PushClient", dependencies: ["PushCrypto", "PushProtocol", "HTTPClient"]),
        .executableTarget(
            name: "pushnode",
            dependencies: ["PushCrypto", "PushProtocol", "PushServer", "PushClient", "HTTPClient"]
        ),
        .executableTarget(
            name: "PushBench",
            dependencies: ["PushCrypto", "PushProtocol", "PushServer", "PushClient", "HTTPClient"]
        ),

        .testTarget(name: "PushCryptoTests", dependencies: ["PushCrypto"]),
        .testTarget(name: "PushProtocolTests", dependencies: ["PushProtocol"]),
        .testTarget(name: "HTTPClientTests", dependencies: ["HTTPClient"]),
        .testTarget(name: "PushServerTests", dependencies: ["PushServer", "PushProtocol", "PushCrypto"]),
        .testTarget(name: "PushClientTests", dependencies: ["PushClient", "PushServer"]),
    ],
    swiftLanguageModes: [.v6]
)
