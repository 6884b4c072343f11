// Keeps the ICU data an English-speaking box uses, for the package's program (#34).
//
//   icu-data-trim IN.dat OUT.dat
//
// The Swift toolchain links ICU's whole data package into every static program: 34 MB of
// locales, converters and dictionaries, most of a program's bytes. Foundation reads from it
// only what it is asked for, and the box speaks and writes English. This copies the package's
// items except: the legacy charset converters (*.cnv: Foundation converts UTF-8 and UTF-16 by
// itself), the transliterators (translit/), the dictionaries for breaking Chinese, Japanese,
// Thai, Khmer, Lao and Burmese text into words (*.dict), and the locale data of every language
// but English (root stays: it is what ICU falls back to). Time zones (zoneinfo64, metaZones,
// windowsZones), calendars, plural rules, normalisation and character properties all stay.
//
// The file is ICU's "common data" package (a "CmnD" table of contents, then the items, 16-byte
// aligned, names sorted: ICU looks them up by binary search). ICU's own tool for it, icupkg,
// stops on this package ("total length of item name strings too long": its fixed buffer is
// smaller than the toolchain's 4855 names), so the table is read and written here.
import Foundation

struct Failure: Error, CustomStringConvertible { var description: String }

func u16(_ d: [UInt8], _ at: Int) -> Int { Int(d[at]) | Int(d[at + 1]) << 8 }
func u32(_ d: [UInt8], _ at: Int) -> Int { u16(d, at) | u16(d, at + 2) << 16 }
func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xff) } }
func padding(_ n: Int) -> Int { (16 - n % 16) % 16 }

/// A locale's bundle ("en_GB", "zh_Hant_TW", "de__PHONEBOOK"), as opposed to data of no language
/// ("root", "supplementalData", "zoneinfo64", "pool", "units", ...) and each tree's index of its
/// locales ("res_index", which the available-locales lists read).
func isLocale(_ stem: Substring) -> Bool {
    let parts = stem.split(separator: "_", omittingEmptySubsequences: false)
    guard stem != "res_index", let lang = parts.first, (2...3).contains(lang.count),
          lang.allSatisfy({ $0.isASCII && $0.isLowercase }) else { return false }
    // Empty parts too: "de__PHONEBOOK" and "es_" are aliases of German and Spanish data.
    return parts.dropFirst().allSatisfy { $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
}

func kept(_ name: String) -> Bool {
    let path = name.split(separator: "/").dropFirst() // "icudt76l/zone/en.res" -> zone, en.res
    guard let file = path.last, let dot = file.lastIndex(of: ".") else { return true }
    let stem = file[..<dot], ext = file[file.index(after: dot)...]
    if ext == "cnv" || ext == "dict" || path.first == "translit" { return false }
    if isLocale(stem) { return stem == "en" || stem.hasPrefix("en_") }
    return true
}

func trim(_ d: [UInt8]) throws -> (out: [UInt8], items: Int, keptItems: Int) {
    guard d.count > 32, d[2] == 0xda, d[3] == 0x27, Array(d[12..<16]) == Array("CmnD".utf8) else {
        throw Failure(description: "not an ICU common data package (no CmnD header)")
    }
    let header = u16(d, 0)
    let count = u32(d, header)
    var items: [(name: [UInt8], data: ArraySlice<UInt8>)] = []
    for i in 0..<count {
        let entry = header + 4 + 8 * i
        let nameAt = header + u32(d, entry), dataAt = header + u32(d, entry + 4)
        let end = i + 1 < count ? header + u32(d, entry + 12) : d.count
        guard let nul = d[nameAt...].firstIndex(of: 0), dataAt <= end, end <= d.count else {
            throw Failure(description: "item \(i) of \(count) lies outside the file")
        }
        items.append((Array(d[nameAt..<nul]), d[dataAt..<end]))
    }
    let keep = items.filter { kept(String(decoding: $0.name, as: UTF8.self)) }
    let tableSize = 4 + 8 * keep.count
    let names: [UInt8] = keep.reduce(into: []) { $0 += $1.name + [0] }
    let firstData = tableSize + names.count + padding(header + tableSize + names.count)
    var table = le32(keep.count), data: [UInt8] = []
    var nameOffset = tableSize
    for item in keep {
        table += le32(nameOffset) + le32(firstData + data.count)
        nameOffset += item.name.count + 1
        data += item.data
        data += [UInt8](repeating: 0, count: padding(item.data.count))
    }
    var out = Array(d[..<header])
    out += table
    out += names
    out += [UInt8](repeating: 0, count: padding(header + tableSize + names.count))
    out += data
    return (out, count, keep.count)
}

let args = CommandLine.arguments
guard args.count == 3 else {
    FileHandle.standardError.write(Data("usage: icu-data-trim IN.dat OUT.dat\n".utf8))
    exit(2)
}
do {
    let input = try [UInt8](Data(contentsOf: URL(fileURLWithPath: args[1])))
    let (out, items, keptItems) = try trim(input)
    try Data(out).write(to: URL(fileURLWithPath: args[2]))
    print("icu-data-trim: \(keptItems) of \(items) items, \(input.count) -> \(out.count) bytes")
} catch {
    FileHandle.standardError.write(Data("icu-data-trim: \(args[1]): \(error)\n".utf8))
    exit(1)
}
