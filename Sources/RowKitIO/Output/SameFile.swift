#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether writing `output` would replace the file `input` is read from: both name the same
/// file (same device and inode, so symbolic and hard links count), or `input` is `-` and
/// standard input is redirected from that file.
///
/// An output that does not exist yet, or an input that cannot be opened, is never the same. An
/// ``AtomicFile`` renames its new file over the target, so without this check
/// `rowkit draw --input notes.svg --output notes.svg` silently replaced the input with the drawing.
public func isSameFile(output: String, input: String) -> Bool {
    guard !output.isEmpty, !output.utf8.contains(0) else { return false }
    var outputInfo = stat()
    guard stat(output, &outputInfo) == 0 else { return false }
    var inputInfo = stat()
    if input == InputFile.standardInputPath {
        guard fstat(0, &inputInfo) == 0 else { return false }
    } else {
        guard !input.isEmpty, !input.utf8.contains(0), stat(input, &inputInfo) == 0 else { return false }
    }
    // Only regular files: /dev/stdout as output and /dev/stdin as input share nothing we could destroy.
    guard outputInfo.st_mode & S_IFMT == S_IFREG else { return false }
    return outputInfo.st_dev == inputInfo.st_dev && outputInfo.st_ino == inputInfo.st_ino
}
