#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file so that readers see either the old file or the complete new one, never a
/// part: the bytes go to a temporary file in the same folder, which is flushed to disk and
/// renamed over the target only when every write succeeded.
///
/// A failed write (full disk, quota, file size limit, I/O error) leaves the previous file as
/// it was and removes the temporary one; the error carries the system's reason. The temporary
/// file's descriptor is never 0, 1 or 2 (so a closed standard stream can never receive it). A
/// target that is a symbolic link is resolved: the file it points to is replaced, or created
/// when the link is dangling (the link stays). A new file gets mode 0666 less the umask; a
/// replaced file keeps its mode, and a file the user may not write (read-only) is refused. The temporary name fits in 255 bytes whatever the target's.
///
/// Not thread-safe.
public final class AtomicFile {
    /// The path as given.
    public let path: String
    /// The file that will be replaced (the path with symbolic links resolved).
    public let target: String
    private let temporary: String
    /// The temporary file's slot in `TemporaryFiles` (removed if a signal ends the program).
    private var cleanupSlot: Int?
    private var descriptor: Int32
    /// The first write failure (errno), if any; later writes are skipped.
    public private(set) var failure: Int32?
    /// Bytes written so far.
    public private(set) var byteCount = 0
    private var finished = false

    /// Creates the temporary file for `path`; throws when the folder is missing or not
    /// writable, or `path` is a directory or a device.
    public init(path: String) throws(OutputError) {
        self.path = path
        guard !path.isEmpty else { throw OutputError(target: "''", message: "cannot write: the path is empty") }
        guard !path.utf8.contains(0) else { throw OutputError(target: path, message: "cannot write: the path contains a NUL character") }
        var target = path
        var mode: mode_t = 0o666
        var info = stat()
        var keepMode = false
        var linkTarget: String?
        if lstat(path, &info) == 0 {
            var exists = true
            if info.st_mode & S_IFMT == S_IFLNK {
                if let resolved = realpath(path, nil) {
                    target = String(cString: resolved)
                    free(resolved)
                } else {
                    // A dangling link names the file to create (replacing the link with a
                    // regular file lost it, and the file it names was never written).
                    target = try Self.followLinks(path)
                    linkTarget = target
                }
                if stat(target, &info) != 0 {
                    guard errno == ENOENT else { throw OutputError(target: path, doing: "cannot write", code: errno) }
                    exists = false
                }
            }
            if exists {
                switch info.st_mode & S_IFMT {
                case S_IFREG:
                    // Renaming over a file needs only its folder's permission, so a file made
                    // read-only (chmod a-w) was replaced all the same; refuse as writing it would.
                    if access(target, W_OK) != 0, case let code = errno, code == EACCES || code == EPERM || code == EROFS {
                        throw OutputError(target: path, message: "cannot write: \(systemErrorText(code)) (the file is read-only; "
                                          + "make it writable or choose another output file)", code: code)
                    }
                    mode = info.st_mode & 0o7777
                    keepMode = true
                case S_IFDIR: throw OutputError(target: path, message: "cannot write: it is a directory")
                default: throw OutputError(target: path, message: "cannot write: it exists and is not a regular file")
                }
            }
        } else if errno != ENOENT {
            throw OutputError(target: path, doing: "cannot write", code: errno)
        }
        self.target = target
        let slash = target.lastIndex(of: "/")
        let folder = slash.map { String(target[...$0]) } ?? ""
        let base = Self.temporaryBase(slash.map { String(target[target.index(after: $0)...]) } ?? target)
        var fd: Int32 = -1
        var name = ""
        var slot: Int?
        var openError: Int32 = 0
        for _ in 0..<100 {
            name = "\(folder).\(base).\(String(UInt32.random(in: 0...UInt32.max), radix: 36)).tmp"
            // Registered before the file exists: registered after, a signal that came as soon as
            // the file appeared (`kill` from a script that waits for it, under load) ended the
            // program before the handlers knew the file, and it was left behind. (Should the name
            // be taken, its owner's file could be unlinked only by a signal in this instant; the
            // name has 32 random bits.)
            slot = TemporaryFiles.register(name)
            repeat { fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666) } while fd < 0 && errno == EINTR
            openError = errno
            if fd >= 0 { break }
            TemporaryFiles.unregister(slot)
            slot = nil
            if openError != EEXIST { break }
        }
        guard fd >= 0 else {
            let code = openError
            // ENOENT names a missing folder only when it is missing (/proc exists, yet refuses new files with ENOENT).
            var folderInfo = stat()
            let folderName = folder.isEmpty ? "." : folder
            let folderMissing = code == ENOENT && stat(folderName, &folderInfo) != 0
            let reason: String
            if folderMissing, let linkTarget {
                reason = "cannot write: the folder '\(folderName)' of the symbolic link's target '\(linkTarget)' does not exist"
            } else if folderMissing {
                reason = "cannot write: the folder '\(folderName)' does not exist"
            } else if code == EACCES || code == EPERM {
                // The file itself may be writable: what is refused is a new file in its folder.
                reason = "cannot write: \(systemErrorText(code)) (the folder '\(folderName)' must be writable: "
                    + "the new file is written beside the old one and renamed over it)"
            } else {
                reason = "cannot write: \(systemErrorText(code))"
            }
            throw OutputError(target: path, message: reason, code: code)
        }
        if fd <= 2 {
            let moved = fcntl(fd, F_DUPFD_CLOEXEC, 3)
            let code = errno
            close(fd)
            guard moved >= 0 else {
                TemporaryFiles.unregister(slot)
                unlink(name)
                throw OutputError(target: path, doing: "cannot write", code: code)
            }
            fd = moved
        }
        if keepMode { _ = fchmod(fd, mode) }
        self.temporary = name
        self.descriptor = fd
        self.cleanupSlot = slot
    }

    deinit { discard() }

    /// The longest file name (NAME_MAX on Linux and macOS).
    static let nameMax = 255

    /// `base` shortened so that the temporary name `.<base>.<up to 7 characters>.tmp` fits in
    /// `nameMax` bytes (a valid 250-byte name failed with "File name too long"); cut at a
    /// Unicode scalar, so the name stays valid UTF-8. The random part keeps names unique.
    static func temporaryBase(_ base: String) -> String {
        let room = nameMax - 13
        guard base.utf8.count > room else { return base }
        var scalars = String.UnicodeScalarView()
        var count = 0
        for scalar in base.unicodeScalars {
            count += UTF8.width(scalar)
            if count > room { break }
            scalars.append(scalar)
        }
        return String(scalars)
    }

    /// The file a chain of symbolic links leads to when its end does not exist (a dangling
    /// link): each relative target is resolved against the folder of the link that holds it.
    /// Throws for a loop (ELOOP after 40 links, as the kernel) or an unreadable link.
    static func followLinks(_ path: String) throws(OutputError) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0 else {
                if errno == ENOENT { return current }
                throw OutputError(target: path, doing: "cannot write", code: errno)
            }
            guard info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length > 0 else { throw OutputError(target: path, doing: "cannot write", code: length == 0 ? ENOENT : errno) }
            let destination = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if destination.hasPrefix("/") {
                current = destination
            } else if let slash = current.lastIndex(of: "/") {
                current = String(current[...slash]) + destination
            } else {
                current = destination
            }
        }
        throw OutputError(target: path, doing: "cannot write", code: ELOOP)
    }

    /// Appends bytes; a failure is remembered (see ``failure``) and reported by ``commit()``.
    /// Returns whether the bytes were written.
    @discardableResult
    public func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard failure == nil, !finished else { return false }
        if let code = writeAll(descriptor, bytes) {
            failure = code
            return false
        }
        byteCount += bytes.count
        return true
    }

    /// Flushes the file to disk and renames it over the target; on any failure the target is
    /// left as it was and the temporary file removed.
    public func commit() throws(OutputError) {
        guard !finished else { throw OutputError(target: path, message: "cannot write: already finished") }
        if let failure {
            discard()
            throw OutputError(target: path, doing: "write error", code: failure)
        }
        if fsync(descriptor) != 0 && errno != EINVAL && errno != EROFS {
            let code = errno
            discard()
            throw OutputError(target: path, doing: "write error", code: code)
        }
        let closed = close(descriptor)
        let closeCode = errno
        descriptor = -1
        if closed != 0 && closeCode != EINTR {
            discard()
            throw OutputError(target: path, doing: "write error", code: closeCode)
        }
        if rename(temporary, target) != 0 {
            let code = errno
            discard()
            throw OutputError(target: path, doing: "cannot replace the file", code: code)
        }
        // Forgotten only once renamed: forgotten before, a signal in between left the
        // temporary file (a handler that comes after unlinks a name that is gone: harmless).
        TemporaryFiles.unregister(cleanupSlot)
        cleanupSlot = nil
        finished = true
        // Make the rename itself durable (best effort: some file systems refuse to sync folders).
        let slash = target.lastIndex(of: "/")
        let folder = slash.map { String(target[...$0]) } ?? "."
        let folderDescriptor = open(folder, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
        if folderDescriptor >= 0 {
            _ = fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    /// Closes and removes the temporary file (the target is untouched). Idempotent.
    public func discard() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        if !finished {
            unlink(temporary)
            TemporaryFiles.unregister(cleanupSlot) // after the unlink, as in commit()
            cleanupSlot = nil
            finished = true
        }
    }
}
