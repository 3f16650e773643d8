import Testing
@testable import RowKitText

#if canImport(Glibc)
import Glibc
#endif

/// The real corpora (../shared/corpora or $ROWKIT_CORPORA), read where they are, never copied: the tests that
/// read them are skipped when they are absent.
enum Corpora {
    /// The corpora folder: $ROWKIT_CORPORA, else ../shared/corpora from the package or its parent;
    /// nil when absent (the tests that read it are then reported as skipped, not passed).
    static var folder: String? {
        let directory = getenv("ROWKIT_CORPORA").map { String(cString: $0) } ?? ""
        let candidates = [directory, "../shared/corpora", "../../shared/corpora", "/work/shared/corpora"].filter { !$0.isEmpty }
        return candidates.first(where: { access($0 + "/en-gatsby-opening.txt", R_OK) == 0 })
    }

    /// Every paragraph (line) of every `.txt` file in `folder`, files in name order.
    static func paragraphs(_ folder: String) -> [(file: String, text: String)] {
        guard let dir = opendir(folder) else { return [] }
        var files: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) } }
            if name.hasSuffix(".txt") { files.append(name) }
        }
        closedir(dir)
        var out: [(file: String, text: String)] = []
        for file in files.sorted() {
            guard let handle = fopen(folder + "/" + file, "rb") else { continue }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = fread(&chunk, 1, chunk.count, handle)
                bytes.append(contentsOf: chunk[0..<n])
                if n < chunk.count { break }
            }
            fclose(handle)
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") { out.append((file, String(line))) }
        }
        return out
    }

    /// The corpus paragraphs holding text of a dictionary script (Thai, Lao, Khmer, Myanmar…),
    /// as UTF-16, each followed by a window of it that starts after its third space (a text whose
    /// ICU breaks start elsewhere): what the tests of paragraph-level ICU breaks compare.
    static func dictionaryScriptTexts(_ folder: String) -> [(file: String, units: [UInt16])] {
        var texts: [(file: String, units: [UInt16])] = []
        for paragraph in paragraphs(folder) {
            let full = Array(paragraph.text.utf16)
            guard full.contains(where: DictionaryScripts.contains) else { continue }
            texts.append((paragraph.file, full))
            if let third = full.indices.filter({ full[$0] == 0x20 }).dropFirst(2).first, third + 1 < full.count {
                texts.append((paragraph.file, Array(full[(third + 1)..<min(full.count, third + 400)])))
            }
        }
        return texts
    }
}

