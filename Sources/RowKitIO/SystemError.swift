#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's text for an `errno` value, e.g. "No space left on device".
public func systemErrorText(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard strerror_r(code, &buffer, buffer.count) == 0 else { return "error \(code)" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// `count` bytes as a short human figure: "16 MiB", "512 KiB", "300 bytes".
public func byteCountText(_ count: Int) -> String {
    if count >= 1 << 30, count % (1 << 30) == 0 { return "\(count >> 30) GiB" }
    if count >= 1 << 20, count % (1 << 20) == 0 { return "\(count >> 20) MiB" }
    if count >= 1 << 10, count % (1 << 10) == 0 { return "\(count >> 10) KiB" }
    return "\(count) bytes"
}
