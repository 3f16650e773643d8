// swift-tools-version:6.0
import PackageDescription

// Data flows text → prepared text → (cells → list) → drawing. Only the C* targets touch C;
// RowKitText may import the text shims (ICU, HarfBuzz, fontconfig), RowKitDraw adds cairo.
let package = Package(
    name: "RowKit",
    products: [
        .library(name: "RowKitText", targets: ["RowKitText"]),
        .library(name: "RowKitDraw", targets: ["RowKitDraw"]),
        .executable(name: "rowkit", targets: ["rowkit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
    ],
    targets: [
        // C shims over the system libraries.
        .target(name: "CICU", linkerSettings: [.linkedLibrary("icuuc"), .linkedLibrary("icudata")]),
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CPango", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev"])]),

        // Text engine: prepare once (ICU, fontconfig, HarfBuzz), layout at any width.
        .target(name: "RowKitText", dependencies: ["CICU", "CHarfBuzz", "CFontconfig"]),
        // Drawing: cairo renders the glyph runs of a measured layout.
        .target(name: "RowKitDraw", dependencies: ["RowKitText", "CCairo", "CFreeType"]),

        .executableTarget(name: "rowkit", dependencies: [
            "RowKitText", "RowKitDraw",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "rowkit-bench", dependencies: ["RowKitText", "CPango"], path: "Benchmarks/rowkit-bench"),

        .testTarget(name: "RowKitTextTests", dependencies: [
            "RowKitText",
            .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
        .testTarget(name: "RowKitDrawTests", dependencies: ["RowKitText", "RowKitDraw", "CCairo"]),
    ]
)
