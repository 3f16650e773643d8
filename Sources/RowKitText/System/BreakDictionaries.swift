import CICU
import Glibc

/// Chromium's own Khmer and Lao word dictionaries, handed to the system's ICU so that words of
/// those scripts break where the browser breaks them.
///
/// Chromium ships ICU with its own Khmer dictionary (94 KB in Chromium 156's `icudtl.dat`; the
/// system's ICU 72 has a different one of 445 KB). Over the Khmer corpus laid out in Chromium
/// one break opportunity per line (5,519 breaks), the system's dictionary gives 23 dictionary
/// breaks other than the browser's; Chromium's own, run by the system's ICU, 26 — each leaving
/// one or two code points of the run, which Chromium's line breaker never does
/// (`UnicodeAnalysis.endsShortKhmerRest`) — and 0 with that rule (docs/CHROMIUM.md §3(g),
/// eighteenth round). Lao likewise (52 KB against 163 KB): of Chromium's 572 breaks of eleven
/// Lao paragraphs, the system's dictionary misses 57 and Chromium's, run by the system's ICU,
/// none.
///
/// The dictionaries are read from the browser's ICU data file when one is installed, copied once
/// into a cache folder (ICU reads data from files) and found there by ICU before its built-in
/// data. Without a browser, or with `ROWKIT_BREAK_DICTIONARIES=system`, the system's
/// dictionaries are used: a documented fallback, not an error. `ROWKIT_BREAK_DICTIONARIES=<path>`
/// names the data file to read.
enum BreakDictionaries {
    /// The data file the dictionaries came from, or nil when the system's are used. Reading this
    /// installs them (once per process, thread-safe); every ICU call that can load data reads
    /// it first (`ICU.ready()`), so ICU loads no dictionary before.
    static let source: String? = install()

    /// Where Chromium and Chrome keep their ICU data on Linux, in the order tried.
    static let candidatePaths = [
        "/usr/lib/chromium/icudtl.dat", "/usr/lib/chromium-browser/icudtl.dat",
        "/opt/google/chrome/icudtl.dat", "/snap/chromium/current/usr/lib/chromium-browser/icudtl.dat",
    ]

    /// The dictionaries taken from the browser's data, by their ICU item name.
    static let dictionaryNames = ["khmerdict.dict", "laodict.dict"]

    private static func install() -> String? {
        let setting = getenv("ROWKIT_BREAK_DICTIONARIES").map { String(cString: $0) } ?? ""
        if setting == "system" { return nil }
        let paths = setting.isEmpty ? candidatePaths : [setting]
        for path in paths {
            guard let items = readItems(path: path, names: dictionaryNames), !items.isEmpty,
                  let folder = writeCache(items) else { continue }
            var directory = folder
            if let inherited = getenv("ICU_DATA"), inherited.pointee != 0 { directory += ":" + String(cString: inherited) }
            rk_use_data_directory(directory)
            return path
        }
        return nil
    }

    /// The named break dictionaries of an ICU common data file (`icudtl.dat`), checked to be
    /// dictionaries of format 1; nil when the file is missing or not such a file.
    static func readItems(path: String, names: [String]) -> [(name: String, bytes: [UInt8])]? {
        return withMappedFile(path: path) { d -> [(name: String, bytes: [UInt8])]? in
            func u16(_ at: Int) -> Int { at + 2 <= d.count ? Int(d[at]) | Int(d[at + 1]) << 8 : -1 }
            func u32(_ at: Int) -> Int { at + 4 <= d.count ? u16(at) | u16(at + 2) << 16 : -1 }
            // A data header: its size, the magic 0xDA27, then UDataInfo (little-endian, format).
            func format(at base: Int) -> (headerSize: Int, format: String, version: UInt8)? {
                guard base + 20 <= d.count, d[base + 2] == 0xDA, d[base + 3] == 0x27, d[base + 8] == 0 else { return nil }
                let tag = String(decoding: d[base + 12..<base + 16], as: UTF8.self)
                return (u16(base), tag, d[base + 16])
            }
            guard let common = format(at: 0), common.format == "CmnD" else { return nil }
            let toc = common.headerSize
            let count = u32(toc)
            guard count > 0, count < 100_000, toc + 4 + 8 * count <= d.count else { return nil }
            var found: [(name: String, bytes: [UInt8])] = []
            let suffixes = names.map { Array(("/brkitr/" + $0).utf8) + [0] }
            for i in 0..<count {
                let nameAt = toc + u32(toc + 4 + 8 * i), dataAt = toc + u32(toc + 8 + 8 * i)
                guard nameAt < d.count, dataAt < d.count, let nul = d[nameAt...].firstIndex(of: 0) else { continue }
                // Names compared as bytes, with their terminating zero: most of the ~1,000 are not wanted.
                guard let k = suffixes.firstIndex(where: { nul + 1 - $0.count >= nameAt && d[nul + 1 - $0.count...nul].elementsEqual($0) }),
                      case let wanted = names[k],
                      let header = format(at: dataAt), header.format == "Dict", header.version == 1 else { continue }
                // The dictionary's own indexes follow its header; index 3 is its size after it.
                let size = u32(dataAt + header.headerSize + 12)
                guard size > 0, dataAt + header.headerSize + size <= d.count else { continue }
                found.append((wanted, Array(d[dataAt..<dataAt + header.headerSize + size])))
            }
            return found
        }
    }

    /// Writes `items` into `<cache>/rowkit/icu-<hash>/<ICU package>/brkitr/` (kept when already
    /// there: the hash names the content) and returns the folder to give ICU, or nil when no
    /// cache folder is writable.
    private static func writeCache(_ items: [(name: String, bytes: [UInt8])]) -> String? {
        // FNV-1a over the names and over the bytes eight at a time: the folder names the content.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for item in items {
            for byte in item.name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            hash = (hash ^ UInt64(item.bytes.count)) &* 0x100_0000_01b3
            item.bytes.withUnsafeBytes { raw in
                var k = 0
                while k + 8 <= raw.count { hash = (hash ^ raw.loadUnaligned(fromByteOffset: k, as: UInt64.self)) &* 0x100_0000_01b3; k += 8 }
                while k < raw.count { hash = (hash ^ UInt64(raw[k])) &* 0x100_0000_01b3; k += 1 }
            }
        }
        let package = String(cString: rk_data_package_name())
        for base in cacheBases() {
            let root = base + "/rowkit/icu-" + String(hash, radix: 16)
            let folder = root + "/" + package + "/brkitr"
            guard makeFolders(folder, below: base) else { continue }
            var complete = true
            for item in items where !writeIfDifferent(folder + "/" + item.name, item.bytes) { complete = false }
            if complete { return root }
        }
        return nil
    }

    private static func cacheBases() -> [String] {
        var bases: [String] = []
        if let xdg = getenv("XDG_CACHE_HOME"), xdg.pointee == 0x2F { bases.append(String(cString: xdg)) }
        if let home = getenv("HOME"), home.pointee == 0x2F { bases.append(String(cString: home) + "/.cache") }
        bases.append("/tmp/rowkit-\(getuid())")
        return bases
    }

    /// Makes the folders of `path` below `base` (and `base`); true when every one of them, from
    /// `base` down, is a real folder of the user's own and the last is writable: ICU will read
    /// what is in them, and `/tmp` is shared.
    private static func makeFolders(_ path: String, below base: String) -> Bool {
        var prefix = ""
        for part in path.split(separator: "/") {
            prefix += "/" + part
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST { return false }
            guard prefix.count >= base.count else { continue }
            var info = stat()
            guard lstat(prefix, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == getuid() else { return false }
        }
        return access(path, W_OK) == 0
    }

    /// Writes `bytes` to `path` through a temporary file and a rename, unless the file already
    /// holds them; true when `path` holds them afterwards.
    private static func writeIfDifferent(_ path: String, _ bytes: [UInt8]) -> Bool {
        if withMappedFile(path: path, { $0.elementsEqual(bytes) }) == true { return true }
        let temporary = path + ".\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        let written = bytes.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
        let closed = close(fd) == 0
        guard written && closed && rename(temporary, path) == 0 else { unlink(temporary); return false }
        return true
    }

    /// `body` over the bytes of a regular file, mapped (only the pages read are loaded: the
    /// table of contents and the dictionary of a 10 MB file); nil when it cannot be mapped.
    private static func withMappedFile<T>(path: String, _ body: (UnsafeBufferPointer<UInt8>) -> T?) -> T? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0, info.st_size < 1 << 30,
              let base = mmap(nil, Int(info.st_size), PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else { return nil }
        defer { munmap(base, Int(info.st_size)) }
        return body(UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: Int(info.st_size)))
    }
}
