import Foundation
import Testing
import RowKitText
@testable import RowKitCells

@Suite("YAML cell templates")
struct TemplateYAMLTests {
    static let caption = appearance(weight: .bold)
    static let body = appearance(color: Color(white: 1.0 / 3))

    /// Seed 000's caption-text cell built directly in Swift.
    static let captionText: CellLayout = .background(
        Background(fill: .verticalGradient(top: Color(white: 1), bottom: Color(white: 0.9)),
                   highlightedFill: .verticalGradient(top: Color(red: 0x3d / 255.0, green: 0x8f / 255.0, blue: 0xf0 / 255.0),
                                                      bottom: Color(red: 0x1a / 255.0, green: 0x5f / 255.0, blue: 0xd0 / 255.0))),
        .inset(Insets(5), .sideBySide(SideBySideElement(
            first: .text(TextElement(.field("caption"), appearance: caption)),
            second: .text(TextElement(.field("body"), appearance: body)),
            spacing: 15, verticalSpacing: 5))))

    @Test func captionTextMatchesSwiftLayout() throws {
        let template = try CellTemplate(contentsOf: cellsSample("caption-text.yaml"), stylesheet: nil)
        #expect(template.name == "caption-text")
        #expect(template.layout == Self.captionText)
        #expect(template.samples.count == 3)
        #expect(template.samples[0] == ["caption": "Hello", "body": "World"])
        #expect(template.samples[2]["caption"] == .string("  Trimmed  "))
        #expect(template.samples[2]["body"] == .string("Leading and trailing white space and newlines are trimmed,\nand a long body wraps below the caption.\n"))
    }

    @Test func captionTextMatchesDSL() throws {
        let template = try CellTemplate(contentsOf: cellsSample("caption-text.yaml"), stylesheet: nil)
        let dsl = CellTemplate(name: "caption-text") {
            CellLayout.sideBySide(SideBySideElement(first: .text(field: "caption", Self.caption),
                                                    second: .text(field: "body", Self.body), spacing: 15, verticalSpacing: 5))
                .padding(Insets(5))
                .background(Background(fill: .verticalGradient(top: .white, bottom: Color(white: 0.9)),
                                       highlightedFill: .verticalGradient(top: Color(hex: "#3d8ff0")!, bottom: Color(hex: "#1a5fd0")!)))
        }
        #expect(template.layout == dsl.layout)
    }

    @Test func captionTextMatchesBuiltInClassicCell() throws {
        let template = try CellTemplate(contentsOf: cellsSample("caption-text.yaml"), stylesheet: nil)
        #expect(template.layout == ClassicCells.captionText.layout)
    }

    @Test func explicitStylesheetIsMergedOverTheTemplatesOwn() throws {
        let override = try Stylesheet(yaml: "styles:\n  base:\n    size: 20\n  body:\n    extends: base\n    color: blue\n", file: "override.yaml")
        let template = try CellTemplate(contentsOf: cellsSample("caption-text.yaml"), stylesheet: override)
        guard case .background(_, .inset(_, .sideBySide(let pair))) = template.layout,
              case .text(let first) = pair.first, case .text(let second) = pair.second else {
            Issue.record("unexpected layout \(template.layout)")
            return
        }
        #expect(first.appearance == appearance(size: 20, weight: .bold))
        #expect(second.appearance == appearance(size: 20, color: Color(red: 0, green: 0, blue: 1)))
    }

    @Test func everyNodeKind() throws {
        let sheet = try Stylesheet(yaml: """
        styles:
          title: {size: 15, weight: bold, maxLines: 1}
          note: {size: 11, padding: {top: 2, left: 4, bottom: 2, right: 4}}
          side: {frame: {x: 295, y: 5, width: 20, height: 20}}
        """, file: "sheet.yaml")
        let yaml = """
        name: everything
        layout:
          sized:
            minHeight: 44
            width: 320
            child:
              background:
                color: white
                highlighted: {gradient: {top: "#000", bottom: black}}
                border: {color: lightgray, width: 0.5}
                cornerRadius: 6
                child:
                  hstack:
                    spacing: 10
                    flexible: 1
                    alignment: center
                    children:
                      - box: {width: 40, height: 40, image: {field: icon}}
                      - vstack:
                          spacing: 3
                          alignment: start
                          children:
                            - text: {field: title, style: title}
                            - text: {field: subtitle, style: title, maxLines: 2, trim: false}
                            - text: {text: "literal", style: note}
                            - text: {field: plain}
                      - frames:
                          - {frame: [0, 0, 20, auto], child: {box: {width: 20, height: 20, image: logo}}}
                          - {style: side, child: {box: {width: 20, height: 20, color: "#ff0000"}}}
                          - {style: side, frame: {x: 1, y: 2, width: 3, height: 4}, child: {box: {width: 1, height: 1}}}
        samples:
          - {icon: star, title: Title, subtitle: 3, plain: 0.5}
          - {title: null}
        """
        let template = try CellTemplate(yaml: yaml, file: "everything.yaml", stylesheet: sheet)
        let title = appearance(size: 15, weight: .bold, lineHeight: 19)
        let note = appearance(size: 11, lineHeight: 14)
        let expected: CellLayout = .sized(SizeConstraint(width: 320, minHeight: 44), .background(
            Background(fill: .color(.white), highlightedFill: .verticalGradient(top: .black, bottom: .black),
                       borderColor: Color(white: 2.0 / 3), borderWidth: 0.5, cornerRadius: 6),
            .stack(StackElement(.horizontal, spacing: 10, alignment: .center, flexible: 1, children: [
                .box(BoxElement(width: 40, height: 40, content: .image(.field("icon")))),
                .stack(StackElement(.vertical, spacing: 3, alignment: .start, children: [
                    .text(TextElement(.field("title"), appearance: title, maxLines: 1)),
                    .text(TextElement(.field("subtitle"), appearance: title, maxLines: 2, trimmed: false)),
                    .inset(Insets(top: 2, left: 4, bottom: 2, right: 4), .text(TextElement(.literal("literal"), appearance: note))),
                    .text(TextElement(.field("plain"), appearance: appearance())),
                ])),
                .frames([
                    FramedElement(x: 0, y: 0, width: 20, height: nil, child: .box(BoxElement(width: 20, height: 20, content: .image(.named("logo"))))),
                    FramedElement(x: 295, y: 5, width: 20, height: 20, child: .box(BoxElement(width: 20, height: 20, content: .color(Color(red: 1, green: 0, blue: 0))))),
                    FramedElement(x: 1, y: 2, width: 3, height: 4, child: .box(BoxElement(width: 1, height: 1))),
                ]),
            ]))))
        #expect(template.layout == expected)
        #expect(template.samples == [RowData(["icon": .string("star"), "title": .string("Title"), "subtitle": .number(3), "plain": .number(0.5)]),
                                     RowData()])
    }

    @Test func insetForms() throws {
        let sibling = try CellTemplate(yaml: "name: a\nlayout:\n  inset: {top: 1, left: 2}\n  child: {text: {field: x}}\n", file: "a.yaml", stylesheet: nil)
        let inside = try CellTemplate(yaml: "name: b\nlayout:\n  inset: {top: 1, left: 2, child: {text: {field: x}}}\n", file: "b.yaml", stylesheet: nil)
        let expected: CellLayout = .inset(Insets(top: 1, left: 2, bottom: 0, right: 0), .text(TextElement(.field("x"), appearance: appearance())))
        #expect(sibling.layout == expected)
        #expect(inside.layout == expected)
    }

    // MARK: Errors

    @Test func unknownStyleInTemplate() {
        let error = styleError { () throws(StyleError) in _ = try CellTemplate(contentsOf: cellsSample("broken/unknown-style.yaml"), stylesheet: nil) }
        expectError(error, .unknownStyle, file: "broken/unknown-style.yaml", line: 8, column: 37, key: "layout.inset.child.text.style",
                    suggestion: "caption", message: "unknown style 'captoin'")
        let noSheet = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: x\nlayout:\n  text: {field: a, style: body}\n", file: "x.yaml", stylesheet: nil)
        }
        expectError(noSheet, .unknownStyle, file: "x.yaml", line: 3, column: 27, key: "layout.text.style", message: "no stylesheet")
    }

    @Test func unknownNodeKind() {
        let error = styleError { () throws(StyleError) in _ = try CellTemplate(contentsOf: cellsSample("broken/unknown-node.yaml"), stylesheet: nil) }
        expectError(error, .unknownKey, file: "broken/unknown-node.yaml", line: 5, column: 3, key: "layout.vstak",
                    suggestion: "vstack", message: "unknown key 'vstak'")
        let key = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: x\nlayout:\n  sideBySide: {spacing: 1, frist: {text: {field: a}}, second: {text: {field: b}}}\n",
                                 file: "k.yaml", stylesheet: nil)
        }
        expectError(key, .unknownKey, file: "k.yaml", line: 3, column: 28, key: "layout.sideBySide.frist", suggestion: "first")
        let two = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: x\nlayout:\n  text: {field: a}\n  box: {width: 1, height: 1}\n", file: "two.yaml", stylesheet: nil)
        }
        expectError(two, .wrongType, file: "two.yaml", line: 4, column: 3, key: "layout.box", message: "found both 'text' and 'box'")
    }

    @Test func missingLayout() {
        let error = styleError { () throws(StyleError) in _ = try CellTemplate(contentsOf: cellsSample("broken/missing-layout.yaml"), stylesheet: nil) }
        expectError(error, .missingKey, file: "broken/missing-layout.yaml", line: 2, column: 1, key: "layout",
                    message: "missing required section 'layout'")
        let child = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: x\nlayout:\n  sized: {minHeight: 44}\n", file: "c.yaml", stylesheet: nil)
        }
        expectError(child, .missingKey, file: "c.yaml", line: 3, column: 10, key: "layout.sized", message: "missing required key 'child'")
        let frame = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: x\nlayout:\n  frames:\n    - {child: {text: {field: a}}}\n", file: "f.yaml", stylesheet: nil)
        }
        expectError(frame, .missingKey, file: "f.yaml", line: 4, column: 7, key: "layout.frames[0]", message: "missing required key 'frame'")
    }

    /// Lengths are bounded (a row taller than a list row can hold would otherwise be cut silently).
    @Test func absurdLengthsAreErrorsAtTheirPlace() throws {
        let inset = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: x\nlayout:\n  inset: {top: 1e9}\n  child: {text: {field: a}}\n", file: "i.yaml", stylesheet: nil)
        }
        expectError(inset, .outOfRange, file: "i.yaml", line: 3, column: 16, key: "layout.inset.top", message: "must be at most 1000000")
        let spacing = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: x\nlayout:\n  vstack: {spacing: 1e308, children: [{text: {field: a}}]}\n", file: "v.yaml", stylesheet: nil)
        }
        expectError(spacing, .outOfRange, file: "v.yaml", line: 3, column: 21, key: "layout.vstack.spacing")
        let frameX = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: x\nlayout:\n  frames:\n    - {frame: [-2e6, 0, 10, 10], child: {text: {field: a}}}\n", file: "f.yaml", stylesheet: nil)
        }
        expectError(frameX, .outOfRange, file: "f.yaml", line: 4, column: 16, key: "layout.frames[0].frame[0]")
        // The bound itself is a length like any other.
        let big = try CellTemplate(yaml: "name: x\nlayout:\n  inset: {top: 1000000}\n  child: {box: {width: 1, height: 1}}\n", file: "b.yaml", stylesheet: nil)
        #expect(try big.bind([:]).measure(width: 100).height == 1_000_001)
    }

    /// `-0`, `+0` and integers longer than `Int` are YAML integers Yams cannot convert; they were
    /// "expected a number, got number -0" (a wrong-type error for a number).
    @Test func signedZeroAndHugeIntegersAreNumbers() throws {
        let zero = try CellTemplate(yaml: "name: x\nlayout:\n  inset: {top: -0, left: +0}\n  child: {box: {width: 1, height: 1}}\n",
                                    file: "z.yaml", stylesheet: nil)
        #expect(try zero.bind([:]).measure(width: 100).height == 1)
        let huge = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: x\nlayout:\n  inset: {top: 99999999999999999999}\n  child: {text: {field: a}}\n", file: "h.yaml", stylesheet: nil)
        }
        expectError(huge, .outOfRange, file: "h.yaml", line: 3, column: 16, key: "layout.inset.top", message: "must be at most 1000000")
        let lines = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: x\nlayout: {text: {field: a, maxLines: -0}}\n", file: "m.yaml", stylesheet: nil)
        }
        expectError(lines, .outOfRange, file: "m.yaml", line: 2, column: 37, key: "layout.text.maxLines", message: "must be at least 1")
        // A huge whole number written with an exponent is out of range too, as its digits are
        // (it was "expected a whole number, got number 1e20"; 100000000000000000000 was already out of range).
        for value in ["1e20", "-1e20", "1e15"] {
            let flexible = styleError { () throws(StyleError) in
                _ = try CellTemplate(yaml: "name: x\nlayout:\n  hstack: {flexible: \(value), children: [{text: {field: a}}]}\n",
                                     file: "f.yaml", stylesheet: nil)
            }
            expectError(flexible, .outOfRange, file: "f.yaml", line: 3, column: 22, key: "layout.hstack.flexible",
                        message: "\(value) is out of range: must be at least 0 and at most 0")
        }
        let weight = styleError { () throws(StyleError) in _ = try Stylesheet(yaml: "styles:\n  a: {weight: 1e20}\n", file: "w.yaml") }
        expectError(weight, .outOfRange, file: "w.yaml", line: 2, column: 15, key: "styles.a.weight", message: "must be at least 1 and at most 1000")
        // A sample's number keeps its text, as a row file's does.
        let sample = try CellTemplate(yaml: "name: x\nlayout: {text: {field: a}}\nsamples:\n  - {a: 123456789012345678901234}\n",
                                      file: "s.yaml", stylesheet: nil)
        #expect(sample.samples.first?.fields["a"] == FieldValue(numberText: "123456789012345678901234"))
    }

    /// A stylesheet given as a template was "styles: unknown key 'styles' (did you mean
    /// 'stylesheet'?)" — a suggestion that leads nowhere. It now says what the file is.
    @Test func aStylesheetGivenAsATemplateIsNamedAsOne() {
        let error = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "# a sheet\nstyles:\n  body: {size: 13}\n", file: "sheet.yaml", stylesheet: nil)
        }
        expectError(error, .unknownKey, file: "sheet.yaml", line: 2, column: 1, key: "styles", message: "this is a stylesheet, not a cell template")
        #expect(error?.suggestion == nil)
    }

    @Test func templateValueErrors() {
        let color = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: x\nlayout:\n  box: {width: 4, height: 4, color: whte}\n", file: "c.yaml", stylesheet: nil)
        }
        expectError(color, .badColor, file: "c.yaml", line: 3, column: 37, key: "layout.box.color", suggestion: "white")
        let range = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: x\nlayout:\n  box: {width: -4, height: 4}\n", file: "r.yaml", stylesheet: nil)
        }
        expectError(range, .outOfRange, file: "r.yaml", line: 3, column: 16, key: "layout.box.width")
        let flexible = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: x\nlayout:\n  hstack: {flexible: 2, children: [{text: {field: a}}]}\n", file: "h.yaml", stylesheet: nil)
        }
        expectError(flexible, .outOfRange, file: "h.yaml", line: 3, column: 22, key: "layout.hstack.flexible")
        let sample = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: x\nlayout: {text: {field: a}}\nsamples:\n  - {a: [1, 2]}\n", file: "s.yaml", stylesheet: nil)
        }
        expectError(sample, .wrongType, file: "s.yaml", line: 4, column: 9, key: "samples[0].a", message: "expected a string or a number")
        let malformed = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: x\nlayout:\n  text: {field: a\n", file: "m.yaml", stylesheet: nil)
        }
        #expect(malformed?.kind == .malformedYAML)
        #expect(malformed?.file == "m.yaml" && (malformed?.line ?? 0) >= 3, "\(String(describing: malformed))")
        let sheet = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: x\nstylesheet: nowhere.yaml\nlayout: {text: {field: a}}\n", file: "/tmp/t.yaml", stylesheet: nil)
        }
        expectError(sheet, .unreadableFile, file: "/tmp/t.yaml", line: 2, column: 13, key: "stylesheet", message: "/tmp/nowhere.yaml")
    }

    /// A stylesheet over the size limit was "big.yaml: stylesheet is larger than the 8 MiB
    /// limit", without the place in the template that names it (an unreadable one had it).
    @Test func aStylesheetOverTheLimitIsReportedWhereTheTemplateNamesIt() throws {
        let folder = NSTemporaryDirectory() + "rowkit-qa64-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let big = "styles: {}\n" + String(repeating: "#", count: YAMLLimits.maximumBytes)
        #expect(FileManager.default.createFile(atPath: folder + "/big.yaml", contents: Data(big.utf8)))
        let error = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: x\nstylesheet: big.yaml\nlayout: {text: {field: a}}\n", file: folder + "/t.yaml", stylesheet: nil)
        }
        expectError(error, .limitExceeded, file: folder + "/t.yaml", line: 2, column: 13, key: "stylesheet",
                    message: "stylesheet 'big.yaml': stylesheet is larger than the 8 MiB limit")
    }

    /// A sample row is checked like a row file's row: `samples: [{titel: "hello"}]` under a
    /// layout that reads `title` rendered an empty row (height 0) with status 0, where the same
    /// row in --data is "unknown field 'titel' ... (did you mean 'title'?)".
    @Test func sampleRowsAreCheckedAgainstTheFieldsTheLayoutReads() throws {
        let misspelled = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: t\nlayout:\n  text: {field: title}\nsamples:\n  - {titel: hello}\n", file: "t.yaml", stylesheet: nil)
        }
        expectError(misspelled, .unknownKey, file: "t.yaml", line: 5, column: 6, key: "samples[0].titel", suggestion: "title",
                    message: "unknown field 'titel'; the layout reads title")
        let image = styleError { () throws(StyleError) in
            _ = try CellTemplate(yaml: "name: t\nlayout:\n  box: {width: 4, height: 4, image: {field: icon}}\nsamples:\n  - {icon: 5}\n",
                                 file: "t.yaml", stylesheet: nil)
        }
        expectError(image, .wrongType, file: "t.yaml", line: 5, column: 12, key: "samples[0].icon",
                    message: "field 'icon' names an image: expected a string, got number 5")
        let fine = try CellTemplate(yaml: "name: t\nlayout:\n  text: {field: title}\nsamples:\n  - {title: hello}\n  - {title: 5}\n  - {title: null}\n",
                                    file: "t.yaml", stylesheet: nil)
        #expect(fine.samples.count == 3)
        // Every sample shipped with RowKit still loads.
        for name in ["caption-text.yaml"] {
            _ = try CellTemplate(contentsOf: cellsSample(name), stylesheet: nil)
        }
    }
}
