import Glibc

// The benchmark corpus: deterministic, English-like paragraphs.
//
// Words are drawn from a Zipf distribution over a ranked vocabulary: ~600 real English words
// (function words first, so short words are frequent, as in English), then a long tail of
// pronounceable invented words. Sentences get capitals, commas, the odd semicolon, colon,
// parenthesis or quotation, and end in `.`, `?` or `!`; a few tokens are proper nouns,
// hyphenated compounds or numbers (integers, years, decimals, percentages, amounts).
// Everything derives from one fixed seed, so every run measures the same text.

/// SplitMix64 (Steele, Lea & Flood 2014): tiny, fast and statistically sound for a benchmark.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `0..<1`, 53 random bits.
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// Uniform in `range` (closed).
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    /// A uniformly chosen element.
    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &self)] }
}

/// A generated corpus: the paragraphs and what is known about them.
struct Corpus {
    /// The paragraphs, in generation order.
    let paragraphs: [String]
    /// Words (space-separated tokens) in each paragraph.
    let wordCounts: [Int]
    /// Seed the corpus was generated from.
    let seed: UInt64
    /// Number of distinct tokens, punctuation included (roughly the distinct shaped runs).
    let distinctTokens: Int
    /// Number of distinct words, case-folded and without punctuation (comparable to the word
    /// types of a natural corpus: the Brown corpus has ~50,000 in 1 million words).
    let distinctWords: Int

    /// Indices of the paragraphs with exactly `words` words.
    func indices(withWords words: Int) -> [Int] { wordCounts.indices.filter { wordCounts[$0] == words } }

    var totalWords: Int { wordCounts.reduce(0, +) }
    var totalUTF8: Int { paragraphs.reduce(0) { $0 + $1.utf8.count } }
    var totalUTF16: Int { paragraphs.reduce(0) { $0 + $1.utf16.count } }

    /// FNV-1a over every paragraph: proves two runs measured the same text.
    var fingerprint: UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for p in paragraphs {
            for b in p.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
            h = (h ^ 0x0A) &* 0x100_0000_01B3
        }
        return h
    }

    /// Generates `count` paragraphs of `wordRange` words each (uniformly distributed).
    static func generate(count: Int, wordRange: ClosedRange<Int> = 3...60, seed: UInt64 = 0x526F_774B_6974_2021) -> Corpus {
        var rng = SplitMix64(seed: seed)
        let vocabulary = Vocabulary(rng: &rng)
        var generator = ParagraphGenerator(vocabulary: vocabulary)
        var paragraphs: [String] = []
        var wordCounts: [Int] = []
        paragraphs.reserveCapacity(count)
        wordCounts.reserveCapacity(count)
        var tokens = Set<Substring>()
        var wordTypes = Set<String>()
        for _ in 0..<count {
            let words = rng.int(wordRange)
            let text = generator.paragraph(words: words, rng: &rng)
            paragraphs.append(text)
            wordCounts.append(words)
            for token in text.split(separator: " ") {
                if tokens.insert(token).inserted {
                    wordTypes.insert(String(token.filter { $0.isLetter || $0.isNumber || $0 == "'" || $0 == "-" }).lowercased())
                }
            }
        }
        return Corpus(paragraphs: paragraphs, wordCounts: wordCounts, seed: seed,
                      distinctTokens: tokens.count, distinctWords: wordTypes.count)
    }
}

/// The ranked vocabulary and its Zipf sampler.
struct Vocabulary {
    /// Words by rank, most frequent first.
    let words: [String]
    /// Cumulative Zipf weights, `cumulative[r] = Σ_{k ≤ r} 1 / (k + 1)^s`.
    private let cumulative: [Double]

    /// Size of the generated tail after the real words.
    static let tailSize = 24_000
    /// Zipf exponent; ~1 is typical of natural language.
    static let exponent = 1.0

    init(rng: inout SplitMix64) {
        var words = EnglishWords.ranked
        var seen = Set(words)
        while words.count < EnglishWords.ranked.count + Self.tailSize {
            let word = Self.inventedWord(rng: &rng)
            if seen.insert(word).inserted { words.append(word) }
        }
        self.words = words
        var total = 0.0
        cumulative = words.indices.map { rank in
            total += 1 / pow(Double(rank + 1), Self.exponent)
            return total
        }
    }

    /// A Zipf-distributed word.
    func sample(_ rng: inout SplitMix64) -> String {
        let target = rng.unit() * cumulative[cumulative.count - 1]
        var low = 0, high = cumulative.count - 1
        while low < high {
            let mid = (low + high) / 2
            if cumulative[mid] < target { low = mid + 1 } else { high = mid }
        }
        return words[low]
    }

    /// A pronounceable invented word of one to four syllables, sometimes with a suffix.
    static func inventedWord(rng: inout SplitMix64) -> String {
        let onsets = ["b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "y",
                      "bl", "br", "ch", "cl", "cr", "dr", "fl", "fr", "gl", "gr", "pl", "pr", "sc", "sh", "sl",
                      "sp", "st", "str", "th", "tr", "wh", ""]
        let vowels = ["a", "e", "i", "o", "u", "a", "e", "i", "o", "ea", "ee", "ou", "ai", "io", "oo", "y"]
        let codas = ["", "", "", "n", "r", "s", "t", "l", "m", "nd", "nt", "st", "ng", "ck", "rt", "ss", "x"]
        let suffixes = ["", "", "", "", "s", "ing", "ed", "er", "ion", "ly", "ment", "ness", "able", "ity", "ous", "al"]
        let syllables = [1, 2, 2, 2, 3, 3, 4][rng.int(0...6)]
        var word = ""
        for _ in 0..<syllables { word += rng.pick(onsets) + rng.pick(vowels) + rng.pick(codas) }
        return word + rng.pick(suffixes)
    }
}

/// Turns Zipf-sampled words into sentences and paragraphs.
struct ParagraphGenerator {
    let vocabulary: Vocabulary

    /// Builds one paragraph of exactly `words` space-separated tokens.
    mutating func paragraph(words: Int, rng: inout SplitMix64) -> String {
        var tokens: [String] = []
        tokens.reserveCapacity(words)
        var sentenceLeft = 0     // words left in the current sentence
        var openQuote = 0        // words left inside a quotation or parenthesis, 0 when none
        var closer = ""
        for i in 0..<words {
            let sentenceStart = sentenceLeft == 0
            if sentenceStart { sentenceLeft = min(words - i, rng.int(4...22)) }
            var token = word(rng: &rng)
            if sentenceStart { token = capitalized(token) }

            // Quotations and parentheses open on one word and close a few words later.
            if openQuote == 0 && sentenceLeft >= 4 && rng.chance(0.012) {
                let curly = rng.chance(0.5)
                let (open, close) = rng.chance(0.5) ? ("(", ")") : (curly ? ("\u{201C}", "\u{201D}") : ("\"", "\""))
                token = open + token
                closer = close
                openQuote = rng.int(1...min(5, sentenceLeft - 2))
            } else if openQuote > 0 {
                openQuote -= 1
                if openQuote == 0 { token += closer }
            }

            sentenceLeft -= 1
            if sentenceLeft == 0 {
                if openQuote > 0 { token += closer; openQuote = 0 }
                let end = rng.unit()
                token += end < 0.86 ? "." : end < 0.94 ? "?" : end < 0.98 ? "!" : "..."
            } else if openQuote == 0 {
                let mark = rng.unit()
                if mark < 0.075 { token += "," } else if mark < 0.080 { token += ";" } else if mark < 0.084 { token += ":" }
            }
            tokens.append(token)
        }
        return tokens.joined(separator: " ")
    }

    /// One token: mostly a vocabulary word, sometimes a name, a compound or a number.
    func word(rng: inout SplitMix64) -> String {
        let kind = rng.unit()
        switch kind {
        case ..<0.025: return number(rng: &rng)
        case ..<0.055: return rng.pick(EnglishWords.names)
        case ..<0.065: return vocabulary.sample(&rng) + "-" + vocabulary.sample(&rng)
        default: return vocabulary.sample(&rng)
        }
    }

    func number(rng: inout SplitMix64) -> String {
        switch rng.int(0...9) {
        case 0...3: return String(rng.int(1...99))
        case 4...5: return String(rng.int(1890...2030))
        case 6: return "\(rng.int(1...999)),\(String(rng.int(0...999)).leftPadded(to: 3))"
        case 7: return "\(rng.int(0...99)).\(rng.int(0...9))\(rng.int(0...9))"
        case 8: return "\(rng.int(1...100))%"
        default: return "$\(rng.int(1...5_000))"
        }
    }

    func capitalized(_ word: String) -> String {
        guard let first = word.first, first.isLowercase else { return word }
        return first.uppercased() + word.dropFirst()
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// Real English words, roughly by frequency (function words first), and proper nouns.
enum EnglishWords {
    static let ranked: [String] = """
        the of and to a in is that it was for on are as with he be at by I this had not but from or have
        an they which one you were her all she there would their we him been has when who will more no if
        out so said what up its about into than them can only other new some could time these two may then
        do first any my now such like our over man me even most made after also did many before must through
        back years where much your way well down should because each just those people how too little state
        good very make world still own see men work long get here between both life being under never day same
        another know while last might us great old year off come since against go came right used take three
        don't it's isn't I'm you're we're can't didn't wasn't that's there's let's doesn't won't
        himself few house use during without again place American around however home small found thought
        went say part once general high upon school every does got united left number course war until always
        away something fact though water less public put think almost hand enough far took head yet government
        system better set told nothing night end why called didn't eyes find going look asked later knew point
        next program city business give group toward young days let room president side social given present
        several order national possible rather second face per among form important often things looked early
        white case become large big need four within felt along children saw best church ever least power
        development light thing seemed family interest want members mind country area others done turned
        although open problem sense service certain began different kind door thus help means hands sometimes
        law whole brought field political began public example perhaps information morning question policy
        seen itself behind clear shall real special across taken already matter moment table toward economic
        study subject full history community free office problems human report line local heart pressure
        above women either quite evidence market program money support research process value period market
        action control history experience energy movement course voice surface window garden reason river
        morning island music summer winter language mountain bridge forest station village message history
        animal answer beautiful carefully difference distance electric engineer estimate fortune imagine
        knowledge measure minister notice observe ordinary paragraph particular perfect picture position
        quickly quietly remember separate simple strange student suddenly teacher together travel usually
        weather wonderful yesterday agreement beginning character condition discovery environment equipment
        establishment government independent international investigation literature manufacturer neighborhood
        opportunity organization particularly performance photograph population relationship representative
        responsibility significant situation technology temperature understanding university unfortunately
        approximately characteristic communication consideration demonstration infrastructure interpretation
        measurement layout width height paragraph column window screen pixel font glyph render browser text
        word letter sentence chapter page book paper story writer reader editor library index record
        data file table report chart figure value result method sample average total rate level
        price cost sale store customer product company industry worker job office meeting team plan
        project budget week month hour minute evening afternoon weekend holiday journey road street car
        train plane ship harbor coast beach sea ocean lake hill valley field farm tree flower grass
        stone rock sand snow rain wind storm cloud sun moon star sky fire air earth metal glass wood
        bread milk coffee tea sugar salt fruit apple orange dinner lunch breakfast kitchen bed chair
        wall floor roof corner edge center middle top bottom front back inside outside between
        quick slow bright dark warm cold hot cool dry wet soft hard heavy light short tall narrow wide
        early late easy difficult happy sad angry calm careful honest proud brave gentle kind polite
        red blue green yellow black brown grey silver golden ancient modern recent future final
        walk run jump swim climb fly drive ride read write speak listen watch hear smell taste touch
        build break carry catch change choose close cover cross cut draw drink eat fall feed fill
        follow forget grow hang hold hope hurry join keep kill laugh learn leave lend lie lift live
        lose love marry meet miss move offer own pay pick plant play pour pull push reach receive
        remain repeat rest return rise roll save sell send serve settle shake shine shout show shut
        sing sit sleep smile sound spend stand start stay step stop study succeed suggest supply
        suppose teach tear tell thank throw tie touch trade train trust try turn understand visit
        wait wake wash wear win wish wonder worry wrote happened standing running written spoken
        believed decided explained followed included increased involved provided received remained
        required suggested understood considered continued described developed expected finished
        """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init).uniqued()

    static let names: [String] = """
        London Paris Berlin Tokyo Chicago Boston Madrid Vienna Oslo Lisbon Cairo Sydney Toronto Dublin
        Maria John Anna David Sarah Michael Elena Thomas Laura James Sofia Peter Clara Daniel Emma Lucas
        Monday Tuesday Wednesday Thursday Friday Saturday Sunday January March April June July August
        October December Europe Africa Asia America Pacific Atlantic Mississippi Thames Danube Alps
        Smith Johnson Brown Garcia Miller Wilson Moore Taylor Anderson Martin Lee Walker Hall Young
        """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
}

extension Array where Element: Hashable {
    /// The elements in order, without repeats.
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
