#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RowKitIO

/// The row ids a ``RowFileReader`` has seen, with where each was first written: what the
/// duplicate check needs, kept compact. A `[String: TextPosition]` cost ~180 bytes an id of 36
/// characters (2,000,000 rows with UUID ids took `rowkit heights` from 45 MB to 410 MB); here
/// an id is its UTF-8 bytes and its position (variable-length integers) in a byte arena of
/// 1 MiB chunks (never copied as it grows), plus an 8-byte slot of an open-addressing table (at
/// most 3/4 full) holding a 16-bit tag of its hash and its offset in the arena.
///
/// Ids are compared as `String`s (canonical equivalence: `"é"` written precomposed and
/// decomposed is one id, as it is one key of the list engine's dictionaries): the hash is the
/// string's own (`String.hashValue`, equal for equal strings, seeded per process so crafted ids
/// cannot pile up in one probe chain), and a slot whose tag matches is checked exactly —
/// the same bytes, or else the stored id decoded and compared with `==` — so no duplicate is
/// ever missed and no distinct id ever taken for one.
struct RowIDSet {
    /// Entries: `length` (LEB128), the id's UTF-8 bytes, `line` and `column` (LEB128). An
    /// entry's offset is `chunk index × chunkBytes + where it starts in the chunk`; an entry
    /// never crosses chunks, and one longer than a chunk has a chunk of its own.
    private var chunks: [[UInt8]] = []
    private static let chunkShift = 20
    private static let chunkBytes = 1 << chunkShift
    /// 0: empty; otherwise `tag << 48 | (offset + 1)`.
    private var slots: [UInt64] = []
    private(set) var count = 0

    private static let offsetBits: UInt64 = 48
    private static let offsetMask: UInt64 = (1 << offsetBits) - 1

    var isEmpty: Bool { count == 0 }

    /// Bytes held (the arena's and the table's capacity).
    var byteCount: Int { chunks.reduce(0) { $0 + $1.capacity } + slots.capacity * 8 }

    /// Where `id` was first written, if it was.
    func position(of id: String) -> TextPosition? {
        guard count > 0 else { return nil }
        let hash = UInt64(bitPattern: Int64(id.hashValue))
        return withBytes(of: id) { bytes in
            guard let offset = find(bytes, id, hash: hash).offset else { return nil }
            return entry(at: offset).position
        }
    }

    /// Adds `id` first written at `position`; when it was already there, leaves it and returns
    /// where it was first written.
    @discardableResult
    mutating func insert(_ id: String, at position: TextPosition) -> TextPosition? {
        let hash = UInt64(bitPattern: Int64(id.hashValue))
        if (count + 1) * 4 > slots.count * 3 { grow() }
        return withBytes(of: id) { bytes in
            let found = find(bytes, id, hash: hash)
            if let offset = found.offset { return entry(at: offset).position }
            let line = UInt64(max(0, position.line)), column = UInt64(max(0, position.column))
            let size = Self.numberBytes(UInt64(bytes.count)) + bytes.count + Self.numberBytes(line) + Self.numberBytes(column)
            if chunks.isEmpty || chunks[chunks.count - 1].count + size > Self.chunkBytes {
                var chunk: [UInt8] = []
                chunk.reserveCapacity(max(size, Self.chunkBytes))
                chunks.append(chunk)
            }
            let chunk = chunks.count - 1
            let offset = chunk << Self.chunkShift + chunks[chunk].count
            Self.appendNumber(UInt64(bytes.count), to: &chunks[chunk])
            chunks[chunk].append(contentsOf: bytes)
            Self.appendNumber(line, to: &chunks[chunk])
            Self.appendNumber(column, to: &chunks[chunk])
            slots[found.slot] = Self.tag(hash) << Self.offsetBits | UInt64(offset + 1)
            count += 1
            return nil
        }
    }

    // MARK: Table

    private static func tag(_ hash: UInt64) -> UInt64 { hash >> offsetBits }

    /// The slot holding `id` (and its entry's offset), or the empty slot where it would go.
    private func find(_ bytes: UnsafeBufferPointer<UInt8>, _ id: String, hash: UInt64) -> (slot: Int, offset: Int?) {
        let mask = slots.count - 1
        let tag = Self.tag(hash)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let value = slots[slot]
            if value == 0 { return (slot, nil) }
            if value >> Self.offsetBits == tag {
                let offset = Int(value & Self.offsetMask) - 1
                if matches(bytes, id, at: offset) { return (slot, offset) }
            }
            slot = (slot + 1) & mask
        }
    }

    /// Whether the entry at `offset` is `id`: the same bytes, or (for bytes that differ) a
    /// canonically equivalent string.
    private func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ id: String, at offset: Int) -> Bool {
        chunks[offset >> Self.chunkShift].withUnsafeBufferPointer { all in
            var k = offset & (Self.chunkBytes - 1)
            let length = Int(Self.readNumber(all, &k))
            if length == bytes.count, length == 0 || memcmp(all.baseAddress! + k, bytes.baseAddress!, length) == 0 { return true }
            // Different bytes: equal only as canonically equivalent text, which ASCII never is
            // to other ASCII.
            let stored = UnsafeBufferPointer(rebasing: all[k..<(k + length)])
            if Self.isASCII(stored) && Self.isASCII(bytes) { return false }
            return String(decoding: stored, as: UTF8.self) == id
        }
    }

    private mutating func grow() {
        let capacity = max(16, slots.count * 2)
        var slots = [UInt64](repeating: 0, count: capacity)
        let mask = capacity - 1
        for value in self.slots where value != 0 {
            let offset = Int(value & Self.offsetMask) - 1
            let hash = UInt64(bitPattern: Int64(entry(at: offset).id.hashValue))
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = value
        }
        self.slots = slots
    }

    private func entry(at offset: Int) -> (id: String, position: TextPosition) {
        chunks[offset >> Self.chunkShift].withUnsafeBufferPointer { all in
            var k = offset & (Self.chunkBytes - 1)
            let length = Int(Self.readNumber(all, &k))
            let id = String(decoding: UnsafeBufferPointer(rebasing: all[k..<(k + length)]), as: UTF8.self)
            k += length
            let line = Int(Self.readNumber(all, &k))
            let column = Int(Self.readNumber(all, &k))
            return (id, TextPosition(line: line, column: column))
        }
    }

    // MARK: Bytes

    private func withBytes<R>(of id: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var id = id
        return id.withUTF8(body)
    }

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for b in bytes where b >= 0x80 { return false }
        return true
    }

    private static func numberBytes(_ value: UInt64) -> Int {
        var value = value, count = 1
        while value >= 0x80 { value >>= 7; count += 1 }
        return count
    }

    private static func appendNumber(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    private static func readNumber(_ bytes: UnsafeBufferPointer<UInt8>, _ k: inout Int) -> UInt64 {
        var value: UInt64 = 0, shift: UInt64 = 0
        while true {
            let b = bytes[k]
            k += 1
            value |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return value }
            shift += 7
        }
    }
}
