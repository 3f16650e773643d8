// swift-tools-version:6.0
import PackageDescription

// Data flows text → prepared text → (cells → list) → drawing. The C* targets import the system
// libraries; RowKitText may use the text shims (ICU, HarfBuzz, fontconfig), RowKitDraw adds cairo
// and FreeType, each from the wrapper files docs/DESIGN.md lists ("C boundaries"). No public API
// has a C type.
let package = Package(
    name: "RowKit",
    products: [
        .library(name: "RowKitText", targets: ["RowKitText"]),
        .library(name: "RowKitCells", targets: ["RowKitCells"]),
        .library(name: "RowKitList", targets: ["RowKitList"]),
        .library(name: "RowKitListCells", targets: ["RowKitListCells"]),
        .library(name: "RowKitDraw", targets: ["RowKitDraw"]),
        .library(name: "RowKitIO", targets: ["RowKitIO"]),
        .library(name: "RowKitView", targets: ["RowKitView"]),
        .library(name: "RowKitWindow", targets: ["RowKitWindow"]),
        .executable(name: "rowkit", targets: ["rowkit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // `swift package generate-documentation` (make docs): the DocC catalogs in Sources/*/*.docc.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // C shims over the system libraries.
        // A prefetch hint for the list's width-change loop (Swift has no prefetch builtin).
        .target(name: "CPrefetch"),
        .target(name: "CICU", linkerSettings: [.linkedLibrary("icuuc"), .linkedLibrary("icudata")]),
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CPango", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev"])]),
        .systemLibrary(name: "CGtk", pkgConfig: "gtk4", providers: [.apt(["libgtk-4-dev"])]),
        // What Swift cannot call in GTK/GObject: variadic functions, macros, signal emission.
        .target(name: "CGtkShim", dependencies: ["CGtk"]),

        // Reading inputs and writing outputs safely: files and standard streams, size limits,
        // streaming JSON with exact numbers and line:column errors, atomic file replacement.
        .target(name: "RowKitIO"),

        // Text engine: prepare once (ICU, fontconfig, HarfBuzz), layout at any width.
        .target(name: "RowKitText", dependencies: ["CICU", "CHarfBuzz", "CFontconfig", "CPrefetch"]),
        // Cells: declarative layouts bound to row data, stylesheets, the classic cells.
        .target(name: "RowKitCells", dependencies: ["RowKitText", "RowKitIO", .product(name: "Yams", package: "Yams")]),
        // List engine: exact heights and offsets for any number of rows, reuse, updates —
        // generic over what it measures (knows nothing of cells or text).
        .target(name: "RowKitList", dependencies: ["CPrefetch"]),
        // The list engine's adapter to cells: rows of cell templates and their data.
        .target(name: "RowKitListCells", dependencies: ["RowKitList", "RowKitCells"]),
        // Drawing: cairo renders the glyph runs of a measured layout, and whole cells.
        .target(name: "RowKitDraw", dependencies: ["RowKitText", "RowKitCells", "RowKitIO", "CCairo", "CFreeType"]),
        // View model of a scrolling list on screen, without GTK: scroll position, wheel, kinetic
        // deceleration, keys, resize anchor, scroll bar, sticky headers, frame statistics, scripts.
        .target(name: "RowKitView", dependencies: ["RowKitList", "RowKitListCells", "RowKitCells", "RowKitIO"]),
        // The GTK4 window: a drawing area painted by RowKitDraw, a scroll bar, event controllers.
        .target(name: "RowKitWindow", dependencies: ["RowKitView", "RowKitList", "RowKitListCells", "RowKitCells", "RowKitDraw", "RowKitText", "RowKitIO", "CCairo", "CGtk", "CGtkShim"]),

        .executableTarget(name: "rowkit", dependencies: [
            "RowKitText", "RowKitCells", "RowKitList", "RowKitListCells", "RowKitDraw", "RowKitIO", "RowKitView", "RowKitWindow",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "rowkit-bench", dependencies: ["RowKitText", "RowKitCells", "RowKitList", "RowKitListCells", "RowKitIO", "CPango"], path: "Benchmarks/rowkit-bench"),

        .testTarget(name: "RowKitTextTests", dependencies: [
            "RowKitText",
            .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
        .testTarget(name: "RowKitCellsTests", dependencies: ["RowKitCells", "RowKitText"]),
        .testTarget(name: "RowKitListTests", dependencies: ["RowKitList", "RowKitListCells", "RowKitCells", "RowKitText"]),
        .testTarget(name: "RowKitViewTests", dependencies: ["RowKitView", "RowKitList", "RowKitListCells", "RowKitCells"]),
        .testTarget(name: "RowKitWindowTests", dependencies: ["RowKitWindow", "RowKitView", "RowKitList", "RowKitListCells", "RowKitCells", "RowKitDraw", "RowKitText", "CCairo"]),
        .testTarget(name: "RowKitDrawTests", dependencies: ["RowKitText", "RowKitCells", "RowKitDraw", "CCairo"]),
        .testTarget(name: "RowKitIOTests", dependencies: ["RowKitIO"]),
        // Runs the built `rowkit` binary: exit status, messages, and files left intact.
        .testTarget(name: "rowkitTests", dependencies: ["rowkit", "RowKitIO"]),
    ]
)
