import Foundation
import Testing
import RowKitText
@testable import RowKitCells

/// QA-87: YAML numbers too large for a double, and numbers quoted in messages.
@Suite("QA-87: YAML numbers and cells")
struct HostileQA87Tests {
    /// `size: 1e400` and a 5,000-digit `size` are numbers too large for a double: out of range,
    /// quoted short. They were "1e400 is not a finite number" (and the 1e9999… form was quoted
    /// whole, cut at 2,000 characters before the reason) and "expected a number, got number 999…".
    @Test func numbersTooLargeForADoubleAreOutOfRangeAndQuotedShort() {
        let nines = String(repeating: "9", count: 5_000)
        for (value, column) in [("1e400", 13), (nines, 13), ("1e" + nines, 13), ("-" + nines, 13)] {
            let error = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles:\n  a: {size: \(value)}\n", file: "n.yaml") }
            let bound = value.hasPrefix("-") ? "must be greater than 0" : "must be at most 1000"
            expectError(error, .outOfRange, file: "n.yaml", line: 2, column: column, key: "styles.a.size", message: "is out of range: \(bound)")
            #expect((error?.message.count ?? 0) < 120, "\(error.map(String.init(describing:)) ?? "")")
            #expect(error?.message.contains("finite") == false)
        }
        // Written infinities stay "not a finite number".
        let infinity = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles:\n  a: {size: -.inf}\n", file: "i.yaml") }
        expectError(infinity, .outOfRange, file: "i.yaml", line: 2, column: 13, key: "styles.a.size", message: "-.inf is not a finite number")
        // Lengths, whole numbers, and an octal-looking number are quoted short too.
        let inset = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: x\nlayout:\n  inset: {top: 1\(nines)}\n  child: {text: {field: a}}\n", file: "h.yaml", stylesheet: nil)
        }
        expectError(inset, .outOfRange, file: "h.yaml", line: 3, column: 16, key: "layout.inset.top", message: "must be at most 1000000")
        #expect((inset?.message.count ?? 0) < 120)
        let flexible = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: x\nlayout:\n  hstack: {flexible: 1e400, children: [{text: {field: a}}]}\n", file: "f.yaml", stylesheet: nil)
        }
        expectError(flexible, .outOfRange, file: "f.yaml", line: 3, column: 22, key: "layout.hstack.flexible",
                    message: "1e400 is out of range: must be at least 0 and at most 0")
        let longFlexible = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: x\nlayout:\n  hstack: {flexible: \(nines), children: [{text: {field: a}}]}\n", file: "f.yaml", stylesheet: nil)
        }
        expectError(longFlexible, .outOfRange, file: "f.yaml", line: 3, column: 22, key: "layout.hstack.flexible", message: "must be at least 0 and at most 0")
        #expect((longFlexible?.message.count ?? 0) < 120)
        let octal = styleError { () throws(StyleError) in
            _ = try Stylesheet(yaml: "styles:\n  a: {weight: 0\(String(repeating: "7", count: 3_000))}\n", file: "o.yaml")
        }
        #expect(octal != nil)
        #expect((octal?.message.count ?? 0) < 200, "\(octal.map(String.init(describing:)) ?? "")")
        // A sample's 1e400 is out of range, as a row file's is (README).
        let sample = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: x\nlayout: {text: {field: a}}\nsamples:\n  - {a: 1e400}\n", file: "s.yaml", stylesheet: nil)
        }
        expectError(sample, .outOfRange, file: "s.yaml", line: 4, column: 9, key: "samples[0].a", message: "1e400 is out of range")
    }
}

/// QA-87: a layout declared in Swift with NaN, infinite or negative lengths measured NaN, inf
/// or negative heights without a word (the YAML readers refuse the same values).
@Suite("QA-87: layouts declared in Swift are checked")
struct SwiftLayoutCheckTests {
    static let text = CellLayout.text(TextElement(.literal("hello world")))

    static let bad: [(String, CellLayout, String)] = [
        ("box nan", .box(BoxElement(width: 10, height: .nan)), "box (element 0 in pre-order): height nan is not a finite number"),
        ("box inf", .box(BoxElement(width: .infinity, height: 10)), "box (element 0 in pre-order): width inf is not a finite number"),
        ("box negative", .box(BoxElement(width: 10, height: -50)), "height -50.0 is negative"),
        ("box color", .box(BoxElement(width: 10, height: 10, content: .color(Color(white: .nan)))), "color (nan, nan, nan, alpha 1.0)"),
        ("inset", .inset(Insets(-100), text), "inset (element 0 in pre-order): top -100.0 is negative"),
        ("spacing", .stack(StackElement(.vertical, spacing: .nan, children: [text, text])), "vstack (element 0 in pre-order): spacing nan"),
        ("sized", .sized(SizeConstraint(minHeight: .infinity), text), "sized (element 0 in pre-order): minHeight inf"),
        ("sideBySide", .sideBySide(SideBySideElement(first: text, second: text, spacing: 0, verticalSpacing: -1)), "verticalSpacing -1.0 is negative"),
        ("frame", .frames([FramedElement(x: .nan, y: 0, width: 10, height: nil, child: text)]), "frame (element 1 in pre-order): x nan"),
        ("frame height", .frames([FramedElement(x: 0, y: 0, width: 10, height: -20, child: text)]), "height -20.0 is negative"),
        ("background", .background(Background(borderColor: .black, borderWidth: .nan), text), "background (element 0 in pre-order): borderWidth nan"),
        ("gradient", .background(Background(fill: .verticalGradient(top: .white, bottom: Color(red: 0, green: .infinity, blue: 0))), text),
         "fill gradient bottom"),
        ("maxLines", .stack(StackElement(.vertical, children: [text, .text(TextElement(.field("a"), maxLines: 0))])),
         "text field 'a' (element 2 in pre-order): maxLines 0 must be at least 1"),
        ("shadow", .text(TextElement(.literal("x"), appearance: TextAppearance(shadow: TextShadow(dx: .nan, dy: 0, color: .black)))), "shadow dx nan"),
    ]

    @Test(arguments: 0..<bad.count)
    func aBadLengthIsAnErrorNotANaNHeight(_ index: Int) throws {
        let (name, layout, expected) = Self.bad[index]
        let template = CellTemplate(name: "t", layout: layout)
        for attempt in 0..<3 {
            var failure: CellError?
            do throws(CellError) {
                switch attempt {
                case 0: let size = try template.bind(["a": "x"]).measure(width: 200); Issue.record("\(name): measured \(size)")
                case 1: let height = try template.compile().metrics(for: ["a": "x"]).height(width: 200); Issue.record("\(name): measured \(height)")
                default: _ = try template.compile().bind(["a": "x"]).arrange(width: 200); Issue.record("\(name): arranged")
                }
            } catch {
                failure = error
            }
            guard case .invalidLayout? = failure else { Issue.record("\(name): \(String(describing: failure))"); continue }
            #expect(failure?.description.hasPrefix("invalid cell layout: ") == true)
            #expect(failure?.description.contains(expected) == true, "\(name): \(failure?.description ?? "")")
        }
    }

    /// What the checks allow: negative frame origins and shadow offsets, zero sizes, huge
    /// lengths (a list reports a row taller than it can hold), empty stacks, a flexible index
    /// outside the children (clamped, as CellLayoutTests checks); the classic cells all pass.
    @Test func goodLayoutsStillMeasure() throws {
        let good: [CellLayout] = [
            .frames([FramedElement(x: -20, y: -5, width: 0, height: 0, child: Self.text)]),
            .text(TextElement(.literal("x"), appearance: TextAppearance(shadow: TextShadow(dx: -1, dy: -1, color: .white)), maxLines: 1)),
            .box(BoxElement(width: 0, height: 20_000_000)),
            .stack(StackElement(.horizontal, flexible: 1, children: [Self.text, Self.text])),
            .stack(StackElement(.horizontal, flexible: 0, children: [])),
            .stack(StackElement(.horizontal, flexible: 7, children: [Self.text])),
            .stack(StackElement(.vertical, children: [])),
        ]
        for layout in good {
            let template = CellTemplate(name: "t", layout: layout)
            let height = try template.compile().metrics(for: [:]).height(width: 200)
            #expect(height.isFinite && height >= 0)
            #expect(try template.bind([:]).measure(width: 200).height == height)
        }
        for template in ClassicCells.all {
            for sample in template.samples { _ = try template.compile().metrics(for: sample).height(width: 320) }
        }
    }
}

/// QA-87: an `extends` cycle through 3,000 styles was written whole (23,000 characters), and
/// the message cut at 2,000 in the middle of a name; it is shown by its ends now.
@Suite struct LongExtendsCycleTests {
    @Test func aLongCycleIsShownByItsEnds() {
        var yaml = "styles:\n"
        for i in 0..<3_000 { yaml += "  s\(i): {extends: s\((i + 1) % 3_000)}\n" }
        let error = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: yaml, file: "c.yaml") }
        expectError(error, .extendsCycle, file: "c.yaml", line: 3_001, column: 20, key: "styles.s2999.extends",
                    message: "extends cycle of 3000 styles: s0 → s1 → s2 → s3 → s4 → … (2992 more) → s2997 → s2998 → s2999 → s0")
        #expect((error?.description.count ?? 0) < 200, "\(error.map(String.init(describing:)) ?? "")")
        // A short cycle is written whole, as before.
        let short = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles:\n  a: {extends: b}\n  b: {extends: a}\n", file: "c.yaml") }
        expectError(short, .extendsCycle, file: "c.yaml", line: 3, column: 16, key: "styles.b.extends", message: "extends cycle: a → b → a")
    }
}

/// QA-87: `Color(hex:)` reads its digits with `UInt64(_:radix:)`, which takes a sign: a YAML
/// `color: "#+12345"` was the color #012345, without a word.
@Suite struct SignedHexColorTests {
    @Test(arguments: ["#+12345", "#+1234567", "#+ff"])
    func aSignInAHexColorIsAnError(_ value: String) {
        let error = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles:\n  a: {color: \"\(value)\"}\n", file: "c.yaml") }
        expectError(error, .badColor, file: "c.yaml", line: 2, column: 14, key: "styles.a.color",
                    message: "bad color '\(value)': expected #rgb, #rrggbb or #rrggbbaa hex digits")
    }

    @Test func hexColorsStillParse() throws {
        let sheet = try Stylesheet(yaml: "styles:\n  a: {color: \"#012345\"}\n  b: {color: \"#FfF\"}\n  c: {color: \" #01234567 \"}\n", file: "c.yaml")
        #expect(try sheet.style(named: "a").color == Color(hex: "#012345"))
        #expect(try sheet.style(named: "b").color == .white)
        #expect(try sheet.style(named: "c").color == Color(hex: "#01234567"))
    }
}

/// QA-87: a height measured while its row was invalidated (its data changed on another thread)
/// was kept, and the cache gave the old data's height until the width changed.
@Suite struct HeightCacheInvalidationRaceTests {
    @Test(arguments: [false, true])
    func aHeightMeasuredDuringAnInvalidationIsNotKept(_ all: Bool) throws {
        let cache = CellHeightCache<Int>(templates: [ClassicCells.label])
        let short: RowData = ["text": "Short"]
        let long: RowData = ["text": String(repeating: "A long label that wraps onto many lines. ", count: 20)]
        let shortHeight = try ClassicCells.label.bind(short).measure(width: 320).height
        let longHeight = try ClassicCells.label.bind(long).measure(width: 320).height
        #expect(shortHeight < longHeight)
        // The data changes, and the row is invalidated, while the old data is being measured
        // (as another thread would: the configuration runs outside the cache's lock).
        var current = short
        let first = try cache.height(template: "label", key: 7, width: 320) {
            let data = current
            current = long
            if all { cache.removeAll() } else { cache.invalidate(key: 7) }
            return data
        }
        #expect(first == shortHeight)
        #expect(try cache.height(template: "label", key: 7, width: 320) { current } == longHeight)
        // Without an invalidation the height is kept, as before.
        #expect(try cache.height(template: "label", key: 8, width: 320) { short } == shortHeight)
        #expect(try cache.height(template: "label", key: 8, width: 320) { long } == shortHeight)
    }
}
