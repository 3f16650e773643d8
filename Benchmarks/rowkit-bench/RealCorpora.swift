import Glibc

// The real-text corpora: public-domain literary texts, one paragraph per line, kept OUTSIDE the
// project (`shared/corpora/` next to the repository, or a folder named by ROWKIT_CORPORA). They
// are read in place, never copied into the project.

/// One real corpus: the files it was read from and their non-empty lines as paragraphs.
struct RealCorpus {
    /// Short name used in the table and the JSON ("english", "multilingual").
    let name: String
    /// The files read, by name, in order.
    let files: [String]
    /// Non-empty lines of those files, in order.
    let paragraphs: [String]
    /// For each paragraph, the index in `files` of the file it comes from.
    var fileIndices: [Int] = []

    var totalUTF16: Int { paragraphs.reduce(0) { $0 + $1.utf16.count } }
    var totalUTF8: Int { paragraphs.reduce(0) { $0 + $1.utf8.count } }
}

/// Finding and reading the corpora.
enum RealCorpora {
    /// The environment variable that names the corpora folder.
    static let environmentVariable = "ROWKIT_CORPORA"
    /// The English corpus file; every other `*.txt` file of the folder is multilingual.
    static let englishFile = "en-gatsby-opening.txt"

    /// The folders tried, in order: `$ROWKIT_CORPORA` when set, else `shared/corpora` next to the
    /// working directory (`../shared/corpora`, as for /work/main) or next to any folder above it.
    static func candidates() -> [String] {
        if let value = getenv(environmentVariable), let path = String(validatingCString: value), !path.isEmpty {
            return [path]
        }
        var cwd = [CChar](repeating: 0, count: 4096)
        guard getcwd(&cwd, cwd.count) != nil else { return ["../shared/corpora"] }
        var directory = String(decoding: cwd.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var result: [String] = []
        while true {
            guard let slash = directory.lastIndex(of: "/") else { break }
            directory = String(directory[..<slash])
            result.append((directory.isEmpty ? "" : directory) + "/shared/corpora")
            if directory.isEmpty { break }
        }
        return result
    }

    /// The English and the multilingual corpus, or nil (with the folders tried) when the English
    /// file or every other file is missing.
    static func load() -> (english: RealCorpus, multilingual: RealCorpus, directory: String)? {
        for directory in candidates() {
            guard let names = listTextFiles(directory), names.contains(englishFile) else { continue }
            let others = names.filter { $0 != englishFile }
            guard !others.isEmpty, let english = read(directory, [englishFile], name: "english"),
                  let multilingual = read(directory, others, name: "multilingual") else { continue }
            return (english, multilingual, directory)
        }
        return nil
    }

    /// A sentence saying where the corpora were looked for (when absent).
    static func absenceNote() -> String {
        "real corpora not found (looked for \(englishFile) and other *.txt files in "
            + candidates().joined(separator: ", ") + "); set \(environmentVariable) to their folder"
    }

    private static func read(_ directory: String, _ names: [String], name: String) -> RealCorpus? {
        var paragraphs: [String] = []
        var fileIndices: [Int] = []
        for (index, file) in names.enumerated() {
            guard let text = readFile(directory + "/" + file) else { return nil }
            for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
                let trimmed = line.drop(while: { $0 == " " || $0 == "\r" || $0 == "\t" })
                if !trimmed.isEmpty {
                    paragraphs.append(String(line))
                    fileIndices.append(index)
                }
            }
        }
        return paragraphs.isEmpty ? nil : RealCorpus(name: name, files: names, paragraphs: paragraphs, fileIndices: fileIndices)
    }

    /// `*.txt` files of `directory`, sorted by name; nil when it cannot be read.
    private static func listTextFiles(_ directory: String) -> [String]? {
        guard let dir = opendir(directory) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name.hasSuffix(".txt") { names.append(name) }
        }
        return names.sorted()
    }

    /// A whole file as UTF-8 text, or nil.
    static func readFile(_ path: String) -> String? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n > 0 { bytes.append(contentsOf: chunk[0..<n]) }
            if n < chunk.count { break }
        }
        return ferror(file) != 0 ? nil : String(decoding: bytes, as: UTF8.self)
    }
}
