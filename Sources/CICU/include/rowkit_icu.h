// Plain-C face of the few ICU services RowKit needs. ICU's own headers cannot be imported
// into Swift next to Foundation, so Swift sees only these functions.
#ifndef ROWKIT_ICU_H
#define ROWKIT_ICU_H

#include <stdint.h>

/// UAX #14 line-break opportunities of `text` (UTF-16) with the rules for `rules`: 0 CSS
/// `line-break: normal` (no language), 1 Japanese, 2 Chinese. Writes each break offset (> 0,
/// the last one is `length`) to `breaks` and 1 to `mandatory` where ICU's rule is a hard break.
/// Returns the number of breaks, or -1 when ICU fails or `capacity` is too small.
int32_t rk_line_breaks(const uint16_t *text, int32_t length, int32_t rules,
                       int32_t *breaks, uint8_t *mandatory, int32_t capacity);

/// Extended grapheme cluster boundaries of `text` (UTF-16): offsets > 0, the last is `length`.
/// Returns the count, or -1 on failure.
int32_t rk_grapheme_breaks(const uint16_t *text, int32_t length, int32_t *breaks, int32_t capacity);

/// The same boundaries as `rk_grapheme_breaks`, with the break iterator asked only about the
/// stretches where the units on either side of a position do not decide it (see
/// `rk_grapheme_pair_classes`). `capacity` must be at least `length`. Returns the count, or -1.
int32_t rk_grapheme_breaks_paired(const uint16_t *text, int32_t length, int32_t *breaks, int32_t capacity);

/// Writes, for each of the 65,536 UTF-16 units, the classes `rk_grapheme_breaks_paired` decides
/// by: a boundary is certain between a unit with bit 0 and one with bit 1, or bit 2 and bit 3;
/// no boundary is certain between a unit with bit 4 and one with bit 5 (rowkit_icu.c says why).
void rk_grapheme_pair_classes(uint8_t *classes);

/// Unicode bidi embedding levels, one per UTF-16 unit. `paragraph_level` is 0 (LTR), 1 (RTL)
/// or 0xFE (first strong character decides). Returns the resolved paragraph level, or -1.
int32_t rk_bidi_levels(const uint16_t *text, int32_t length, uint8_t paragraph_level, uint8_t *levels);

/// Visual order of `count` runs with the given levels: `visual_to_logical[i]` is the logical
/// index of the run drawn i-th from the left.
void rk_reorder_visual(const uint8_t *levels, int32_t count, int32_t *visual_to_logical);

/// Unicode emoji properties (UTS #51) of a code point.
int rk_is_emoji_presentation(uint32_t cp);
int rk_is_emoji_modifier(uint32_t cp);
int rk_is_regional_indicator(uint32_t cp);
/// 1 for characters that never need their own glyph (format controls, variation selectors).
int rk_is_default_ignorable(uint32_t cp);

/// Quotation marks (UAX #14 class QU): 1 for initial punctuation (Pi, e.g. U+201C), 2 for final
/// punctuation (Pf, e.g. U+201D), 3 for other quotes, 0 for anything else.
int rk_quotation_kind(uint32_t cp);
/// 1 when the character is East Asian (East_Asian_Width F, W or H).
int rk_is_east_asian(uint32_t cp);
/// 1 when no line break may come right before `cp` (UAX #14 classes CL, CP, EX, IS, NS, QU,
/// GL, SY, CM, ZWJ): used when relaxing the quotation rule.
int rk_forbids_break_before(uint32_t cp);
/// 1 when no line break may come right after `cp` (classes OP, QU, GL, ZWJ).
int rk_forbids_break_after(uint32_t cp);

/// 1 for what may come before a word-initial hyphen (UAX #14 LB20a: classes BK, CR, LF, NL, SP,
/// ZW, CB, GL).
int rk_precedes_word_initial_hyphen(uint32_t cp);
/// 1 for a letter a word-initial hyphen does not break from (LB20a's AL and HL, with LB1's AI,
/// XX and SA letters as AL).
int rk_is_letter_after_hyphen(uint32_t cp);

/// NFC-composes `length` UTF-16 units into `out`; returns the composed length, or -1.
int32_t rk_compose_nfc(const uint16_t *text, int32_t length, uint16_t *out, int32_t capacity);

/// ICU script code of a character (0 Common, 1 Inherited, 103 Unknown).
int32_t rk_script(uint32_t cp);

/// The likely script of a locale ("ja" → "Jpan", "zh-TW" → "Hant", "hi" → "Deva"), written as
/// a NUL-terminated 4-letter code into `script`. Returns its length (0 when unknown), or -1.
int32_t rk_likely_script(const char *locale, char *script, int32_t capacity);

/// The name of the system ICU's data package (`icudt72l`): break dictionaries put in a folder
/// `<dir>/<name>/brkitr/` are found by ICU once `rk_use_data_directory(dir)` is called.
const char *rk_data_package_name(void);
/// Makes ICU look for data files in `directory` before its built-in data (`u_setDataDirectory`).
/// Call once, before any break iterator loads a dictionary; not safe while another thread
/// uses ICU.
void rk_use_data_directory(const char *directory);
/// Set (once, with release order) when RowKit has chosen ICU's data folder; read with acquire
/// order by `rk_data_folder_chosen` before any ICU call, so the check costs one load.
extern int rk_data_folder_state;
static inline int rk_data_folder_chosen(void) { return __atomic_load_n(&rk_data_folder_state, __ATOMIC_ACQUIRE); }
void rk_mark_data_folder_chosen(void);
/// 1 for characters ICU's Khmer dictionary engine segments (Khmer script, line-break class SA).
int rk_is_khmer_dictionary_character(uint32_t cp);

#endif
