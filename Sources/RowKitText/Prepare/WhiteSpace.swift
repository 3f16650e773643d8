extension WhiteSpace {
    /// The text as the line breaker sees it, in UTF-16.
    ///
    /// `.normal` (CSS `white-space: normal`): every run of spaces, tabs, CR and LF becomes one
    /// space; spaces at the start and end are dropped (at the start of a line they would be
    /// removed, at the end they hang). `.preWrap`: CR LF and lone CR become LF; everything else
    /// is kept.
    func normalize(_ text: String) -> [UInt16] {
        var units: [UInt16] = []
        units.reserveCapacity(text.utf16.count)
        switch self {
        case .normal:
            var pendingSpace = false
            for unit in text.utf16 {
                if unit == 0x20 || unit == 0x09 || unit == 0x0A || unit == 0x0D {
                    pendingSpace = !units.isEmpty
                } else {
                    if pendingSpace { units.append(0x20); pendingSpace = false }
                    units.append(unit)
                }
            }
        case .preWrap:
            var afterCR = false
            for unit in text.utf16 {
                if unit == 0x0D {
                    units.append(0x0A)
                    afterCR = true
                } else {
                    if !(afterCR && unit == 0x0A) { units.append(unit) }
                    afterCR = false
                }
            }
        }
        return units
    }
}

@inline(__always) func isHangingSpace(_ unit: UInt16) -> Bool {
    unit == 0x20 || unit == 0x09 || unit == 0x0A
}
