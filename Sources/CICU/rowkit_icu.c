#include "rowkit_icu.h"

#include <pthread.h>

#include <unicode/ubrk.h>
#include <unicode/ubidi.h>
#include <unicode/uchar.h>
#include <unicode/utypes.h>
#include <unicode/uscript.h>
#include <unicode/unorm2.h>
#include <unicode/uloc.h>
#include <unicode/putil.h>
#include <unicode/udata.h>

// Opening a break iterator loads its rules; each thread keeps one per kind and re-targets it.
static _Thread_local UBreakIterator *line_iterators[3];
static _Thread_local UBreakIterator *grapheme_iterator;

// The line-break rules Chromium uses for `line-break: auto`, by content language (measured,
// docs/CHROMIUM.md §3(e)): CSS `normal` (ICU "lb=normal": breaks before small kana and the
// prolonged sound mark) without a language; Japanese ICU's own "ja" rules; Chinese
// "zh@lb=normal", which also breaks before 〜 and ゠.
static const char *const line_locales[3] = {"en@lb=normal", "ja", "zh@lb=normal"};

static UBreakIterator *iterator(UBreakIterator **slot, UBreakIteratorType type, const char *locale) {
    if (*slot == NULL) {
        UErrorCode status = U_ZERO_ERROR;
        *slot = ubrk_open(type, locale, NULL, 0, &status);
        if (U_FAILURE(status)) { *slot = NULL; }
    }
    return *slot;
}

/// Runs `it` over `text`, writing each boundary after the start (and, when `mandatory` is
/// given, whether it is a forced line break). Returns the count, or -1.
static int32_t collect_breaks(UBreakIterator *it, const uint16_t *text, int32_t length,
                              int32_t *breaks, uint8_t *mandatory, int32_t capacity) {
    if (it == NULL || length <= 0) return length == 0 ? 0 : -1;
    UErrorCode status = U_ZERO_ERROR;
    ubrk_setText(it, (const UChar *)text, length, &status);
    if (U_FAILURE(status)) return -1;
    int32_t count = 0;
    ubrk_first(it);
    for (int32_t pos = ubrk_next(it); pos != UBRK_DONE; pos = ubrk_next(it)) {
        if (count >= capacity) { count = -1; break; }
        breaks[count] = pos;
        if (mandatory != NULL) {
            int32_t rule = ubrk_getRuleStatus(it);
            mandatory[count] = (rule >= UBRK_LINE_HARD && rule < UBRK_LINE_HARD_LIMIT) ? 1 : 0;
        }
        count++;
    }
    // The iterator keeps pointing into the caller's buffer until the next call sets its text:
    // nothing reads it before then (every use starts here), and dropping the pointer cost a
    // second ubrk_setText (~600 instructions) a call.
    return count;
}

int32_t rk_line_breaks(const uint16_t *text, int32_t length, int32_t rules,
                       int32_t *breaks, uint8_t *mandatory, int32_t capacity) {
    if (rules < 0 || rules > 2) rules = 0;
    return collect_breaks(iterator(&line_iterators[rules], UBRK_LINE, line_locales[rules]), text, length, breaks, mandatory, capacity);
}

// Conjunct linkers that Unicode 16 added to Indic_Conjunct_Break=Linker (rule GB9c) and that
// Chromium's newer ICU joins with the next consonant into one grapheme, as the system's older
// ICU does for Devanagari and Bengali only (measured with Intl.Segmenter, docs/CHROMIUM.md §3(h)):
// Myanmar virama, Khmer coeng, Tai Tham sakot, Balinese adeg adeg, Sundanese virama, Javanese pangkon.
static int is_newer_conjunct_linker(uint16_t unit) {
    return unit == 0x1039 || unit == 0x17D2 || unit == 0x1A60 || unit == 0x1B44 || unit == 0x1BAB || unit == 0xA9C0;
}

int32_t rk_grapheme_breaks(const uint16_t *text, int32_t length, int32_t *breaks, int32_t capacity) {
    int32_t count = collect_breaks(iterator(&grapheme_iterator, UBRK_CHARACTER, "en"), text, length, breaks, NULL, capacity);
    if (count <= 0) return count;
    int32_t kept = 0;
    for (int32_t i = 0; i < count; i++) {
        int32_t p = breaks[i];
        if (p >= 2 && p < length && is_newer_conjunct_linker(text[p - 1]) && u_charType(text[p]) == U_OTHER_LETTER) {
            UErrorCode status = U_ZERO_ERROR;
            if (uscript_getScript(text[p], &status) == uscript_getScript(text[p - 1], &status) && U_SUCCESS(status)) continue;
        }
        breaks[kept++] = p;
    }
    return kept;
}

// Grapheme boundaries without the break iterator where the pair of units around a position
// decides it. Per BMP unit, from ICU's own Grapheme_Cluster_Break property (surrogates, and so
// regional indicators and astral emoji, get no bit; the conjunct linkers above count as ZWJ):
//   bit 0: Other, Control, LF, SpacingMark, LV, LVT    bit 1: Other, Control, CR, LF, Prepend, LV, LVT
//   bit 2: Extend but ZWJ                              bit 3: bit 1 outside U+0900–U+0D7F
//   bit 4: anything but Control, CR, LF                bit 5: Extend, ZWJ, SpacingMark
//   bit 6: one of the newer conjunct linkers above
// A boundary is certain between a and b when a has bit 0 and b bit 1, or a bit 2 and b bit 3:
// every rule of UAX #29 and of ICU's tailorings that joins two units has, at its last joint,
// CR (GB3), Prepend (GB9b), a jamo (GB6–8), ZWJ (GB11), an extender before a linking consonant
// of Devanagari…Malayalam (ICU's GB9.3), a linker (below) or a regional indicator on one side.
// A position is certainly no boundary when a has bit 4 and b bit 5 (GB9, GB9a come before
// every rule that breaks but GB4, which needs a control before). Nor is a position after a newer
// conjunct linker (bit 6) that is not the text's second unit, before a letter (Lo) of the linker's
// script: `rk_grapheme_breaks` drops any break the iterator finds there (a Khmer coeng or Myanmar
// virama before a consonant; asking the iterator about every such pair was 3.4% of Khmer rows).
// Otherwise the break iterator decides; between two certain boundaries it
// breaks as it does over the whole text, since no rule reaches across one.
static uint8_t grapheme_pair_classes[65536];
static pthread_once_t grapheme_pair_once = PTHREAD_ONCE_INIT;

static inline uint8_t grapheme_pair_bits(int32_t c, int32_t kind) {
    if (c >= 0xD800 && c <= 0xDFFF) return 0;
    if (is_newer_conjunct_linker((uint16_t)c)) kind = U_GCB_ZWJ;
    uint8_t bits = 0;
    switch (kind) {
    case U_GCB_OTHER: case U_GCB_CONTROL: case U_GCB_LF: case U_GCB_LV: case U_GCB_LVT: bits = 1 | 2; break;
    case U_GCB_SPACING_MARK: bits = 1 | 32; break;
    case U_GCB_CR: case U_GCB_PREPEND: bits = 2; break;
    case U_GCB_EXTEND: bits = 4 | 32; break;
    case U_GCB_ZWJ: bits = 32; break;
    default: break;
    }
    if ((bits & 2) && !(c >= 0x0900 && c <= 0x0D7F)) bits |= 8;
    if (kind != U_GCB_CONTROL && kind != U_GCB_CR && kind != U_GCB_LF) bits |= 16;
    if (is_newer_conjunct_linker((uint16_t)c)) bits |= 64;
    return bits;
}

// Whether `rk_grapheme_breaks` keeps no break between the linker `linker` and `unit` (when the
// linker is not the text's first unit): its filter's condition.
static int linker_joins(uint16_t linker, uint16_t unit) {
    if (u_charType(unit) != U_OTHER_LETTER) return 0;
    UErrorCode status = U_ZERO_ERROR;
    return uscript_getScript(unit, &status) == uscript_getScript(linker, &status) && U_SUCCESS(status);
}

// Built once per process: 65,536 property lookups, ~6.5 M instructions (~1 ms). ICU's range map
// of the property (`u_getIntPropertyMap`) costs more, 14.5 M: it is built for all of Unicode.
static void build_grapheme_pair_classes(void) {
    for (int32_t c = 0; c < 0x10000; c++) {
        grapheme_pair_classes[c] = grapheme_pair_bits(c, u_getIntPropertyValue(c, UCHAR_GRAPHEME_CLUSTER_BREAK));
    }
}

void rk_grapheme_pair_classes(uint8_t *classes) {
    pthread_once(&grapheme_pair_once, build_grapheme_pair_classes);
    for (int32_t c = 0; c < 0x10000; c++) classes[c] = grapheme_pair_classes[c];
}

// Uncertain stretches closer than this many units are given to the break iterator as one text
// (its fixed cost per call is worth about that many units).
#define GRAPHEME_MERGE_GAP 8

// Runs the break iterator over text[start..<end] (both certain boundaries), appending its ends.
static int32_t append_iterated_graphemes(const uint16_t *text, int32_t start, int32_t end, int32_t *breaks,
                                         int32_t count, int32_t capacity) {
    int32_t n = rk_grapheme_breaks(text + start, end - start, breaks + count, capacity - count);
    if (n < 0) return -1;
    for (int32_t k = 0; k < n; k++) breaks[count + k] += start;
    return count + n;
}

int32_t rk_grapheme_breaks_paired(const uint16_t *text, int32_t length, int32_t *breaks, int32_t capacity) {
    if (length <= 0) return length == 0 ? 0 : -1;
    if (capacity < length) return -1;
    pthread_once(&grapheme_pair_once, build_grapheme_pair_classes);
    const uint8_t *classes = grapheme_pair_classes;
    int32_t count = 0, segment = 0, icu_start = -1, icu_end = -1;
    // Cluster ends found after the pending iterator stretch icu_start..<icu_end, kept until it runs.
    int32_t deferred[GRAPHEME_MERGE_GAP + 1];
    int32_t deferred_count = 0;
    int open = 0;  // whether segment..<p has a position that is neither a certain boundary nor a certain joint
    for (int32_t p = 1; p <= length; p++) {
        if (p < length) {
            uint8_t a = classes[text[p - 1]], b = classes[text[p]];
            if (!(((a & 1) && (b & 2)) || ((a & 4) && (b & 8)))) {
                if (!((a & 16) && (b & 32)) && !((a & 64) && p >= 2 && linker_joins(text[p - 1], text[p]))) open = 1;
                continue;
            }
        }
        // p is a certain boundary; segment..<p holds no other, and is one cluster unless `open`.
        if (icu_start >= 0 && (open ? segment : p) - icu_end > GRAPHEME_MERGE_GAP) {
            count = append_iterated_graphemes(text, icu_start, icu_end, breaks, count, capacity);
            if (count < 0) return -1;
            for (int32_t k = 0; k < deferred_count; k++) breaks[count++] = deferred[k];
            icu_start = -1;
            deferred_count = 0;
        }
        if (open) {
            // The iterator's stretch grows over the clusters deferred since (it finds them again).
            if (icu_start < 0) icu_start = segment;
            icu_end = p;
            deferred_count = 0;
        } else if (icu_start >= 0) {
            deferred[deferred_count++] = p;
        } else {
            breaks[count++] = p;
        }
        segment = p;
        open = 0;
    }
    if (icu_start >= 0) {
        count = append_iterated_graphemes(text, icu_start, icu_end, breaks, count, capacity);
        if (count < 0) return -1;
        for (int32_t k = 0; k < deferred_count; k++) breaks[count++] = deferred[k];
    }
    return count;
}

int32_t rk_bidi_levels(const uint16_t *text, int32_t length, uint8_t paragraph_level, uint8_t *levels) {
    UErrorCode status = U_ZERO_ERROR;
    UBiDi *bidi = ubidi_openSized(length, 0, &status);
    if (U_FAILURE(status)) return -1;
    ubidi_setPara(bidi, (const UChar *)text, length, (UBiDiLevel)paragraph_level, NULL, &status);
    if (U_FAILURE(status)) { ubidi_close(bidi); return -1; }
    const UBiDiLevel *resolved = ubidi_getLevels(bidi, &status);
    if (U_FAILURE(status)) { ubidi_close(bidi); return -1; }
    for (int32_t i = 0; i < length; i++) levels[i] = resolved[i];
    int32_t para = ubidi_getParaLevel(bidi);
    ubidi_close(bidi);
    return para;
}

void rk_reorder_visual(const uint8_t *levels, int32_t count, int32_t *visual_to_logical) {
    ubidi_reorderVisual((const UBiDiLevel *)levels, count, visual_to_logical);
}

int rk_is_emoji_presentation(uint32_t cp) { return u_hasBinaryProperty((UChar32)cp, UCHAR_EMOJI_PRESENTATION); }
int rk_is_emoji_modifier(uint32_t cp) { return u_hasBinaryProperty((UChar32)cp, UCHAR_EMOJI_MODIFIER); }
int rk_is_regional_indicator(uint32_t cp) { return u_hasBinaryProperty((UChar32)cp, UCHAR_REGIONAL_INDICATOR); }
int rk_is_default_ignorable(uint32_t cp) { return u_hasBinaryProperty((UChar32)cp, UCHAR_DEFAULT_IGNORABLE_CODE_POINT); }

int rk_quotation_kind(uint32_t cp) {
    if (u_getIntPropertyValue((UChar32)cp, UCHAR_LINE_BREAK) != U_LB_QUOTATION) return 0;
    int8_t type = u_charType((UChar32)cp);
    return type == U_INITIAL_PUNCTUATION ? 1 : type == U_FINAL_PUNCTUATION ? 2 : 3;
}

int rk_is_east_asian(uint32_t cp) {
    int width = u_getIntPropertyValue((UChar32)cp, UCHAR_EAST_ASIAN_WIDTH);
    return width == U_EA_FULLWIDTH || width == U_EA_WIDE || width == U_EA_HALFWIDTH;
}

int rk_forbids_break_before(uint32_t cp) {
    switch (u_getIntPropertyValue((UChar32)cp, UCHAR_LINE_BREAK)) {
    case U_LB_CLOSE_PUNCTUATION: case U_LB_CLOSE_PARENTHESIS: case U_LB_EXCLAMATION: case U_LB_INFIX_NUMERIC:
    case U_LB_NONSTARTER: case U_LB_QUOTATION: case U_LB_GLUE: case U_LB_BREAK_SYMBOLS: case U_LB_COMBINING_MARK:
    case U_LB_ZWJ:
        return 1;
    default:
        return 0;
    }
}

int rk_forbids_break_after(uint32_t cp) {
    switch (u_getIntPropertyValue((UChar32)cp, UCHAR_LINE_BREAK)) {
    case U_LB_OPEN_PUNCTUATION: case U_LB_QUOTATION: case U_LB_GLUE: case U_LB_ZWJ:
        return 1;
    default:
        return 0;
    }
}

int rk_precedes_word_initial_hyphen(uint32_t cp) {
    switch (u_getIntPropertyValue((UChar32)cp, UCHAR_LINE_BREAK)) {
    case U_LB_MANDATORY_BREAK: case U_LB_CARRIAGE_RETURN: case U_LB_LINE_FEED: case U_LB_NEXT_LINE:
    case U_LB_SPACE: case U_LB_ZWSPACE: case U_LB_CONTINGENT_BREAK: case U_LB_GLUE:
        return 1;
    default:
        return 0;
    }
}

int rk_is_letter_after_hyphen(uint32_t cp) {
    switch (u_getIntPropertyValue((UChar32)cp, UCHAR_LINE_BREAK)) {
    case U_LB_ALPHABETIC: case U_LB_HEBREW_LETTER: case U_LB_AMBIGUOUS: case U_LB_UNKNOWN:
        return 1;
    case U_LB_COMPLEX_CONTEXT: {
        int8_t category = u_charType((UChar32)cp);
        return category != U_NON_SPACING_MARK && category != U_COMBINING_SPACING_MARK;
    }
    default:
        return 0;
    }
}

int32_t rk_script(uint32_t cp) {
    UErrorCode status = U_ZERO_ERROR;
    UScriptCode script = uscript_getScript((UChar32)cp, &status);
    return U_FAILURE(status) ? USCRIPT_UNKNOWN : (int32_t)script;
}

int32_t rk_compose_nfc(const uint16_t *text, int32_t length, uint16_t *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    const UNormalizer2 *nfc = unorm2_getNFCInstance(&status);
    if (U_FAILURE(status)) return -1;
    int32_t n = unorm2_normalize(nfc, (const UChar *)text, length, (UChar *)out, capacity, &status);
    return U_FAILURE(status) ? -1 : n;
}

int32_t rk_likely_script(const char *locale, char *script, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    char maximized[ULOC_FULLNAME_CAPACITY];
    uloc_addLikelySubtags(locale, maximized, ULOC_FULLNAME_CAPACITY, &status);
    if (U_FAILURE(status)) return -1;
    int32_t n = uloc_getScript(maximized, script, capacity, &status);
    return U_FAILURE(status) ? -1 : n;
}

const char *rk_data_package_name(void) { return U_ICUDATA_NAME; }

void rk_use_data_directory(const char *directory) { u_setDataDirectory(directory); }

int rk_data_folder_state = 0;
void rk_mark_data_folder_chosen(void) { __atomic_store_n(&rk_data_folder_state, 1, __ATOMIC_RELEASE); }

int rk_is_khmer_dictionary_character(uint32_t cp) {
    if (cp < 0x1780 || cp > 0x19FF) return 0;
    UErrorCode status = U_ZERO_ERROR;
    return uscript_getScript((UChar32)cp, &status) == USCRIPT_KHMER
        && u_getIntPropertyValue((UChar32)cp, UCHAR_LINE_BREAK) == U_LB_COMPLEX_CONTEXT;
}
