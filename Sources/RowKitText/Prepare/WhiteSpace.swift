extension WhiteSpace {
    /// The text as the line breaker sees it, in UTF-16, with Chromium's treatment of white space
    /// and controls (measured, docs/CHROMIUM.md §3(l, m)).
    ///
    /// `.normal` (CSS `white-space: normal`): a text of nothing but spaces, tabs, newlines, CR,
    /// VT and FF is empty (no line at all); otherwise every run of spaces, tabs, CR and LF
    /// becomes one space and spaces at the start and end are dropped (at the start of a line they
    /// would be removed, at the end they hang), while VT and FF stay (drawn as .notdef).
    /// `.preWrap`: CR and FF are dropped (so CR LF is one newline); everything else is kept.
    /// NUL always stays (Chromium shapes it with its last-resort font, whose .null glyph is empty).
    func normalize(_ text: String) -> [UInt16] {
        var text = text  // `withUTF8` reads small strings too, in place (no copy for native ones)
        return text.withUTF8 { bytes in
            let census = Census(bytes)
            if census.spaces == bytes.count && self == .normal { return [] }
            if census.nonASCII == 0 { return normalize(ascii: bytes) }
            return normalize(utf8: bytes, length: census.utf16Length)
        }
    }

    /// What one pass over the UTF-8 bytes tells before any unit is written: how many are not
    /// ASCII, how many are white space (space, tab, LF, VT, FF, CR) and the UTF-16 length. Sums
    /// without branches, so the loop runs on vectors (the two passes with branches it replaces,
    /// an ASCII check and a length count, cost ~13 instructions a byte).
    private struct Census {
        var nonASCII = 0, spaces = 0, utf16Length = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            var nonASCII = 0, continuations = 0, fourByteLeads = 0, spaces = 0
            guard let base = bytes.baseAddress else { return }
            // Blocks of at most 255 bytes counted in byte-wide sums (16 bytes to a vector).
            var i = 0
            while i < bytes.count {
                let stop = min(bytes.count, i + 255)
                var high: UInt8 = 0, continuing: UInt8 = 0, fourByte: UInt8 = 0, space: UInt8 = 0
                for k in i..<stop {
                    let byte = base[k]
                    high &+= byte >> 7
                    continuing &+= byte & 0xC0 == 0x80 ? 1 : 0
                    fourByte &+= byte >= 0xF0 ? 1 : 0
                    space &+= (byte == 0x20 ? 1 : 0) | (byte &- 0x09 < 5 ? 1 : 0)
                }
                nonASCII += Int(high)
                continuations += Int(continuing)
                fourByteLeads += Int(fourByte)
                spaces += Int(space)
                i = stop
            }
            self.nonASCII = nonASCII
            self.spaces = spaces
            // A unit per lead byte, two for a 4-byte sequence (the storage is valid UTF-8).
            self.utf16Length = bytes.count - continuations + fourByteLeads
        }
    }

    /// Where `.preWrap` dropped a CR or FF, as offsets into the normalized text (empty for
    /// `.normal` and for texts without them). Chromium keeps such a character as a control item
    /// of its own, which ends a shaping item — and font fallback's holes and hint — where it was
    /// (`a\u{1F}b\u{C}c\u{85}` in pre-wrap: the NEL takes Noto Sans Symbols2, its own hint).
    func droppedControlOffsets(_ text: String) -> [Int] {
        guard self == .preWrap, text.utf8.contains(where: { $0 == 0x0D || $0 == 0x0C }) else { return [] }
        var offsets: [Int] = []
        var kept = 0
        for unit in text.utf16 {
            if unit == 0x0D || unit == 0x0C {
                if offsets.last != kept { offsets.append(kept) }
            } else {
                kept += 1
            }
        }
        return offsets
    }

    /// Removes the break opportunities at the offsets where `.preWrap` dropped a CR or FF
    /// (`droppedControlOffsets`, ascending): Chromium keeps the character in the text its line
    /// breaker reads, where it glues its neighbours — a CR before ASCII is a pair its table
    /// decides (no break), and it finds no break after one before an ideograph either
    /// (`快快\r快快快快` at 40 px, Noto Sans 16 px, is `快` / `快快` / `快快` / `快`;
    /// docs/CHROMIUM.md §3(m), eleventh round). Forced breaks and breaks after white space stay.
    static func removeBreaks(atDroppedControls dropped: [Int], _ units: UnsafeBufferPointer<UInt16>,
                             _ ends: inout [Int32], _ mandatory: inout [UInt8]) {
        guard !dropped.isEmpty else { return }
        // Both lists ascend: one merged walk (a text of many CRs stays linear).
        var kept = 0, next = 0
        for k in ends.indices {
            let p = Int(ends[k])
            while next < dropped.count && dropped[next] < p { next += 1 }
            if next < dropped.count && dropped[next] == p && p < units.count && mandatory[k] == 0
                && units[p - 1] != 0x20 && units[p - 1] != 0x09 {
                continue
            }
            ends[kept] = ends[k]
            mandatory[kept] = mandatory[k]
            kept += 1
        }
        ends.removeLast(ends.count - kept)
        mandatory.removeLast(mandatory.count - kept)
    }

    /// Each byte as `.normal` writes it, the bytes it collapses (space, tab, LF, CR) as a space
    /// with bit 8 set: 0x120; any other byte as itself.
    static let collapsedBytes: [UInt16] = (0..<256).map { (byte: Int) -> UInt16 in
        let collapsible = byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        return collapsible ? 0x120 : UInt16(byte)
    }

    /// The same for text held as ASCII bytes (most captions and titles), straight from its
    /// UTF-8 storage (not white space alone, for `.normal`).
    private func normalize(ascii bytes: UnsafeBufferPointer<UInt8>) -> [UInt16] {
        return [UInt16](unsafeUninitializedCapacity: bytes.count) { units, count in
            var n = 0
            switch self {
            case .normal:
                // Without a branch on white space (a word's end every few bytes, at no pattern a
                // predictor learns: ~2 misses a word): every byte is written at `n`, a space for
                // white space, and `n` moves unless it is white space after white space (or at
                // the start: `afterSpace` begins true). A run's first space stays, the rest land
                // on it, a byte after them goes after it; a space at the end is dropped below.
                // Whether a byte is white space comes from a table and is used in arithmetic
                // only: a compare, or a select on it, the compiler turns back into a branch.
                var afterSpace: UInt8 = 1
                Self.collapsedBytes.withUnsafeBufferPointer { collapsed in
                    for byte in bytes {
                        let entry = collapsed[Int(byte)]
                        let space = UInt8(truncatingIfNeeded: entry &>> 8)
                        units[n] = entry & 0xFF
                        n &+= Int(1 &- (space & afterSpace))
                        afterSpace = space
                    }
                }
                if n > 0 && afterSpace != 0 { n -= 1 }
            case .preWrap:
                for byte in bytes where byte != 0x0D && byte != 0x0C {
                    units[n] = UInt16(byte)
                    n += 1
                }
            }
            count = n
        }
    }
}

extension WhiteSpace {
    /// The same for any text (not white space alone, for `.normal`; `length` UTF-16 units
    /// before normalizing), transcoded from its (valid) UTF-8 storage in one pass: the
    /// white-space rules only look at ASCII units, so every other unit is copied as it comes
    /// (String's UTF-16 view costs several times more per unit on non-ASCII text).
    fileprivate func normalize(utf8 bytes: UnsafeBufferPointer<UInt8>, length: Int) -> [UInt16] {
        let normal = self == .normal
        return [UInt16](unsafeUninitializedCapacity: length) { units, count in
            var n = 0, i = 0
            var pendingSpace = false
            let end = bytes.count
            while i < end {
                let b0 = bytes[i]
                if b0 < 0x80 {
                    i += 1
                    if normal {
                        if b0 == 0x20 || b0 == 0x09 || b0 == 0x0A || b0 == 0x0D {
                            pendingSpace = n > 0
                            continue
                        }
                    } else if b0 == 0x0D || b0 == 0x0C {
                        continue
                    }
                    if pendingSpace { units[n] = 0x20; n += 1; pendingSpace = false }
                    units[n] = UInt16(b0)
                    n += 1
                    continue
                }
                if pendingSpace { units[n] = 0x20; n += 1; pendingSpace = false }
                if b0 < 0xE0 {
                    units[n] = UInt16(b0 & 0x1F) << 6 | UInt16(bytes[i + 1] & 0x3F)
                    n += 1
                    i += 2
                } else if b0 < 0xF0 {
                    units[n] = UInt16(b0 & 0x0F) << 12 | UInt16(bytes[i + 1] & 0x3F) << 6 | UInt16(bytes[i + 2] & 0x3F)
                    n += 1
                    i += 3
                } else {
                    let scalar = UInt32(b0 & 0x07) << 18 | UInt32(bytes[i + 1] & 0x3F) << 12
                        | UInt32(bytes[i + 2] & 0x3F) << 6 | UInt32(bytes[i + 3] & 0x3F)
                    let v = scalar - 0x10000
                    units[n] = 0xD800 | UInt16(v >> 10)
                    units[n + 1] = 0xDC00 | UInt16(v & 0x3FF)
                    n += 2
                    i += 4
                }
            }
            count = n
        }
    }
}

/// White space that hangs at a line end (does not count for fitting): space, tab, newline, and
/// the ideographic space U+3000 (measured: `ab　　　` stays on its line however narrow).
@inline(__always) func isHangingSpace(_ unit: UInt16) -> Bool {
    unit == 0x20 || unit == 0x09 || unit == 0x0A || unit == 0x3000
}

/// Where the content of the break segment `start..<end` ends: its trailing white space hangs
/// (``isHangingSpace(_:)``), except that in a segment of white space alone — one that follows a
/// break after a space — an ideographic space U+3000 is content: Chromium's line breaker
/// leaves out only spaces, tabs and newlines at a break and hangs U+3000 only behind the word
/// it ends (measured: `漢漢 　漢漢` at 33 px is `漢漢 ` / `　漢` / `漢`, and `gentle 　 The` at
/// 50 px gives the U+3000 a line of its own, while `ab　　　` stays on one line however narrow).
/// With `pre-wrap` the U+3000 hangs there too (`Line 　 Keep` at 9 px keeps it on the `e` line).
@inline(__always) func contentEnd(ofSegment start: Int, _ end: Int, in units: UnsafeBufferPointer<UInt16>,
                                  whiteSpace: WhiteSpace) -> Int {
    var contentEnd = end
    while contentEnd > start && isHangingSpace(units[contentEnd - 1]) { contentEnd -= 1 }
    guard contentEnd == start, whiteSpace == .normal else { return contentEnd }
    var p = end
    while p > start && units[p - 1] != 0x3000 { p -= 1 }
    return p
}

/// Tab stops of preserved tabs (CSS `tab-size: 8`): every 8 space widths of the primary font
/// from the line start; a tab that would reach the next stop in less than half a space goes on
/// to the one after (Chromium's `Font::TabWidth`, measured: docs/CHROMIUM.md §3(m)).
enum TabStop {
    /// The pen after a tab that starts at `pen` (16.16 px), or `pen` when the space is empty.
    @inline(__always) static func end(from pen: Int64, spaceWidth: Int32) -> Int64 {
        let size = Int64(spaceWidth) * 8
        guard size > 0 else { return pen }
        var end = (pen / size + 1) * size
        if end - pen < Int64(spaceWidth) / 2 { end += size }
        return end
    }

    /// The pen after a tab that starts at `pen` right after a soft hyphen whose hyphen is
    /// `hyphenWidth` wide: Chromium places the tab as if the hyphen were shown (its width rounded
    /// up to the 1/64 px layout unit) and then does not show it, so the pen ends that much
    /// before the stop (measured: docs/CHROMIUM.md §3(n), twelfth round, `xxxx\u{AD}\tyy`).
    @inline(__always) static func end(from pen: Int64, spaceWidth: Int32, afterHyphen hyphenWidth: Int64) -> Int64 {
        let hyphen = (hyphenWidth + 1023) & ~1023
        return end(from: pen + hyphen, spaceWidth: spaceWidth) - hyphen
    }
}
