#!/usr/bin/env python3
"""Case grids for the RowKit browser-fidelity harness.

A *case* is one text with a full style, laid out by Chromium in a div with

    font-family: FONT; font-weight: W; font-style: S; font-size: SIZEpx;
    line-height: LH; width: Wpx; white-space: WS; overflow-wrap: break-word
    dir="DIR" lang="LANG"

and by `rowkit measure` with the same style keys; the harness compares line
counts, heights and the text of every line (break positions).

Sets:
  short   -- 1..40 word texts in many scripts and edge-case categories
  long    -- 200..600 word paragraphs (mostly Latin, some mixed scripts)
  corpus  -- paragraphs of the real multilingual corpora (../shared/corpora, or
             $ROWKIT_CORPORA), read in place, never copied
Every case draws its style independently: fonts (installed serif, sans, mono and
condensed families, CSS generics, families that are not installed, family
lists), weights 100..900, italic and oblique, sizes 10..40 px (some
fractional), widths 8..600 px (some fractional, some narrow), line heights in
px or `normal`, white-space normal or pre-wrap, direction ltr/rtl/auto, and
`lang`.

The *fixed grid* comes from a fixed seed (SEED); the *random sample* is drawn
from a fresh seed on every run (printed, and reproducible with --seed), so the
rules are never tuned to one sample. `--small` is the CI-sized grid: every
category with a few cases.

Usage:
  python3 Fidelity/cases.py [--small] [--set short|long|corpus|all] [--seed N] [--stats]
prints the cases as JSON Lines (or a summary with --stats).
"""

import argparse
import hashlib
import json
import os
import random
import sys
import unicodedata

SEED = 20240611
GENERATOR_VERSION = 2

# ---------------------------------------------------------------------------
# Hand-written phrase lists. Texts are built by joining random phrases.
# ---------------------------------------------------------------------------

LATIN = [
    "The quick brown fox jumps over the lazy dog",
    "Please review the attached proposal before Friday",
    "We shipped the new release this morning",
    "Our team is growing and we are hiring engineers",
    "The meeting has been moved to the large conference room",
    "Thanks for your patience while we investigate the outage",
    "She bought fresh bread, cheese and a bottle of wine",
    "Rain is expected throughout the weekend in the northern valleys",
    "Remember to water the plants on the balcony",
    "The museum opens at nine and closes at five on weekdays",
    "His grandfather built the wooden boat by hand",
    "Traffic on the bridge was slow because of the marathon",
    "Scientists discovered a new species of frog in the rainforest",
    "The library will be closed for renovations until spring",
    "Could you send me the slides from yesterday's presentation",
    "A gentle breeze carried the smell of the sea",
    "The committee approved the budget after a long debate",
    "Children played football in the park until sunset",
    "This function returns the number of lines after wrapping",
    "Typography is the craft of arranging type to make language legible",
    "Every paragraph deserves a thoughtful measure and generous leading",
    "The train to Edinburgh departs from platform four",
    "Our quarterly revenue exceeded expectations",
    "Kindly confirm your attendance by replying to this message",
    "The old lighthouse still guides ships along the rocky coast",
    "Café owners in the neighbourhood complained about the noise",
    "Crème brûlée is her favourite dessert",
    "The naïve approach works surprisingly well in practice",
    "Zoë and Chloé moved to São Paulo last year",
    "Größere Straßen führen über den Fluss",
    "Déjà vu is a feeling of having already experienced the present",
    "The façade of the building was restored in the nineties",
    "Ångström units are rarely used in modern textbooks",
    "Measuring text accurately is harder than it looks",
    "Line breaking rules differ between scripts and languages",
    "I will call you back after lunch",
    "The new policy takes effect on the first of the month",
    "Keep the receipt in case you need to return the item",
    "An elderly couple walked their dog along the river",
    "The orchestra tuned their instruments before the concert",
]

PUNCT = [
    "Wait... what?!",
    "\"Really?\" she asked, eyebrows raised.",
    "(see footnote 3, p. 42)",
    "Note: prices exclude VAT (20%) & shipping.",
    "It's 9:30 a.m. -- don't be late!",
    "Items: apples; pears; plums; figs.",
    "Yes/no/maybe?",
    "He said \u201cfine\u201d \u2014 and left.",
    "\u2018Single\u2019 and \u201cdouble\u201d quotes\u2026",
    "Total: $1,234.56 (+3.5%) vs. \u20ac987,65",
    "[draft] {v2} <final>",
    "Q&A @ 3pm #launch",
    "e.g., i.e., etc., viz.",
    "\u00bfQu\u00e9 tal? \u00a1Muy bien!",
    "\u00abBonjour\u00bb, dit-il.",
    "5 \u00d7 3 = 15; 10 \u00f7 2 = 5",
    "50\u201360 km/h \u2014 approx.",
    "*** WARNING *** read this!!!",
    "a/b/c/d/e/f/g",
    "1) first; 2) second; 3) third.",
    "\u00a7 4.2(b)(iii)",
    "--- --- ---",
    "!!!???!!!",
    "\u2022 bullet \u2022 points \u2022 here",
    "C'est la vie, n'est-ce pas?",
    "rock-and-roll, well-known, state-of-the-art",
]

URLS = [
    "https://www.example.com/products/category/item?id=12345&ref=homepage",
    "http://localhost:8080/api/v2/users/42/preferences",
    "https://github.com/apple/swift/blob/main/docs/LibraryEvolution.rst",
    "ftp://files.example.org/pub/releases/rowkit-1.0.0.tar.gz",
    "mailto:someone.with.a.long.name@subdomain.example.co.uk",
    "https://en.wikipedia.org/wiki/Line_wrap_and_word_wrap#Algorithm",
    "/usr/local/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "C:\\Program Files\\Common Files\\Microsoft Shared\\ink",
    "https://maps.example.com/@51.5072,-0.1276,14z/data=!3m1!4b1",
    "www.example.com/a-very-long-slug-with-many-hyphenated-words-in-it",
    "user@example.com",
    "https://example.com/search?q=text+measurement+engine&lang=en&page=2",
    "s3://bucket-name/path/to/object/with/many/segments/file.json",
    "https://cdn.example.net/assets/img/banner_1920x1080_final_v3.png",
]

URL_GLUE = [
    "See", "Download it from", "Docs:", "More info at", "Visit", "Mirror:",
    "Contact", "Open", "Link:", "Source code is at",
]

CHINESE = [
    "今天天气很好，我们去公园散步吧。",
    "这个项目的进度比预期要快。",
    "请在星期五之前提交报告。",
    "我喜欢在周末看书和喝茶。",
    "北京是中国的首都，也是一座历史悠久的城市。",
    "他每天早上坐地铁去上班。",
    "会议改到下午三点在三楼举行。",
    "谢谢你的帮助，我非常感激。",
    "这家餐厅的饺子特别好吃。",
    "学习一门新语言需要耐心和时间。",
    "春节期间火车票很难买到。",
    "我们明天一起去看电影好吗？",
    "文本排版需要考虑标点符号的位置。",
    "新版本修复了许多已知的问题。",
    "孩子们在操场上踢足球。",
    "《红楼梦》是中国古典小说的代表作之一。",
    "价格：¥128（含税）",
    "“你好！”她笑着说。",
]

JAPANESE = [
    "今日はとても良い天気ですね。",
    "明日の会議は午後二時からです。",
    "新しいバージョンをリリースしました。",
    "コーヒーを一杯いかがですか？",
    "東京駅から新幹線で大阪へ行きます。",
    "ありがとうございます。よろしくお願いします。",
    "この本はとても面白かったです。",
    "ソフトウェアのアップデートが利用可能です。",
    "すみません、ちょっと待ってください。",
    "週末は家族と一緒に温泉に行きました。",
    "「こんにちは」と彼は言った。",
    "桜の花が満開になりました。",
    "プログラミングは楽しいけれど、難しいこともあります。",
    "カタカナとひらがなと漢字が混ざっています。",
    "ラーメンとギョーザを注文しました。",
    "ちょっとだけ、ゆっくりしていってね。",
    "ッァィゥェォャュョー、小書き文字の行頭禁則。",
]

KOREAN = [
    "오늘 날씨가 정말 좋네요.",
    "회의는 오후 세 시에 시작합니다.",
    "새로운 버전이 출시되었습니다.",
    "저는 주말에 친구들과 영화를 봤어요.",
    "서울은 대한민국의 수도입니다.",
    "감사합니다. 좋은 하루 보내세요!",
    "이 책은 정말 재미있었어요.",
    "커피 한 잔 하실래요?",
    "한국어 띄어쓰기는 단어 단위로 줄을 바꿉니다.",
    "지하철을 타고 회사에 갑니다.",
    "김치찌개와 비빔밥을 주문했어요.",
    "프로그래밍은 어렵지만 재미있습니다.",
    "내일 다시 연락드리겠습니다.",
    "봄이 오면 벚꽃이 핍니다.",
]

THAI = [
    "สวัสดีครับ ยินดีต้อนรับ",
    "วันนี้อากาศดีมาก",
    "ขอบคุณมากค่ะ",
    "กรุงเทพมหานครเป็นเมืองหลวงของประเทศไทย",
    "ฉันชอบกินข้าวผัดและต้มยำกุ้ง",
    "การประชุมจะเริ่มเวลาบ่ายสองโมง",
    "ภาษาไทยไม่มีการเว้นวรรคระหว่างคำ",
    "เราจะไปเที่ยวทะเลในวันหยุดสุดสัปดาห์",
    "โปรแกรมนี้ช่วยวัดความกว้างของข้อความ",
    "กรุณาส่งรายงานก่อนวันศุกร์",
    "ร้านกาแฟเปิดตั้งแต่เจ็ดโมงเช้า",
    "นักเรียนกำลังอ่านหนังสืออยู่ในห้องสมุด",
]

ARABIC = [
    "مرحبا بكم في موقعنا",
    "الطقس جميل اليوم",
    "شكرا جزيلا على مساعدتك",
    "سيبدأ الاجتماع في الساعة الثالثة",
    "القاهرة هي عاصمة مصر",
    "أحب قراءة الكتب في المساء",
    "تم إصدار نسخة جديدة من البرنامج",
    "يرجى إرسال التقرير قبل يوم الجمعة",
    "اللغة العربية تكتب من اليمين إلى اليسار",
    "ذهبنا إلى السوق واشترينا الفواكه",
    "كيف حالك؟ أنا بخير، الحمد لله.",
    "السعر ١٢٠ ريالا فقط",
]

HEBREW = [
    "שלום וברוכים הבאים",
    "מזג האוויר יפה היום",
    "תודה רבה על העזרה",
    "הפגישה תתחיל בשעה שלוש",
    "ירושלים היא עיר עתיקה",
    "אני אוהב לקרוא ספרים בערב",
    "גרסה חדשה של התוכנה שוחררה",
    "נא לשלוח את הדוח עד יום שישי",
    "עברית נכתבת מימין לשמאל",
    "הלכנו לשוק וקנינו פירות",
    "מה שלומך? הכול בסדר.",
    "שָׁלוֹם עֲלֵיכֶם",
]

BIDI_EN = [
    "The word for peace is", "In Arabic we say", "The sign read",
    "Her name is written as", "Version 2.0 adds support for",
    "The store in Haifa is called", "Translate", "He wrote",
    "Our office in Dubai answers with", "The title of the book is",
]

# Emoji: plain, VS16, skin tones, ZWJ sequences, flags, keycaps.
EMOJI = [
    "\U0001F600", "\U0001F602", "\U0001F60D", "\U0001F914", "\U0001F389",
    "\U0001F680", "\U0001F525", "\U0001F44D", "\U0001F44D\U0001F3FD",
    "\U0001F44B\U0001F3FF", "\U0001F9D1\U0001F3FB\u200D\U0001F4BB",
    "\U0001F468\u200D\U0001F469\u200D\U0001F467\u200D\U0001F466",
    "\U0001F469\u200D\u2764\uFE0F\u200D\U0001F468",
    "\U0001F3F3\uFE0F\u200D\U0001F308", "\U0001F1FA\U0001F1F8",
    "\U0001F1EF\U0001F1F5", "\U0001F1E9\U0001F1EA", "\U0001F1E7\U0001F1F7",
    "\u2764\uFE0F", "\u2600\uFE0F", "\u260E\uFE0F", "\u263A\uFE0F",
    "\u2708\uFE0F", "1\uFE0F\u20E3", "#\uFE0F\u20E3", "\U0001F9D1\u200D\U0001F680",
    "\U0001F415\u200D\U0001F9BA", "\U0001F3C3\U0001F3FD\u200D\u2640\uFE0F",
    "\u2764", "\u2714", "\U0001F44F\U0001F3FC",
]

EMOJI_PHRASES = [
    "Happy birthday", "Great job everyone", "See you soon", "Launch day",
    "Family photo", "Best trip ever", "Thanks", "Love it", "On my way",
    "Weekend plans", "Good morning", "Congratulations",
]

# Latin + combining marks (decomposed), Vietnamese, Devanagari-free.
COMBINING = [
    "Cafe\u0301 au lait",
    "nai\u0308ve re\u0301sume\u0301",
    "Ti\u1EBFng Vi\u1EC7t c\u00f3 nhi\u1EC1u d\u1EA5u",
    "Tie\u0302\u0301ng Vie\u0323\u0302t co\u0301 nhie\u0302\u0300u da\u0302\u0301u",
    "Z\u0335a\u0336l\u0337g\u0338o\u0334 text",
    "a\u0300 e\u0301 i\u0302 o\u0303 u\u0308",
    "Ha\u030Ac\u030Cek and c\u0327edilla",
    "Ma\u0304ori te reo",
    "A\u030Angstro\u0308m",
    "n\u0303 o\u0328 z\u0307 s\u0323 d\u0331",
    "e\u0301\u0301\u0301 stacked marks",
    "x\u0305y\u0305 overline",
]

# Texts with NBSP (U+00A0), narrow NBSP (U+202F), word joiner (U+2060).
NBSP_PHRASES = [
    "10\u00a0km", "5\u00a0000\u00a0\u20ac", "Mr.\u00a0Smith", "page\u00a042",
    "Louis\u00a0XIV", "9\u00a0a.m.", "100\u202f%", "\u00abBonjour\u202f!\u00bb",
    "chapter\u00a012", "New\u00a0York\u00a0City", "24\u00a0h", "\u00a7\u00a03",
    "Dr.\u00a0Watson", "3\u00a0\u00d7\u00a04", "no\u2060break\u2060here",
    "\u00a0\u00a0leading\u00a0nbsp", "1\u00a0234\u00a0567",
]

SOFT_HYPHEN_WORDS = [
    "hy\u00adphen\u00adation", "in\u00adcom\u00adpre\u00adhen\u00adsi\u00adbil\u00adi\u00adties",
    "ex\u00adtra\u00ador\u00addi\u00adnary", "un\u00adbe\u00adliev\u00adable",
    "Do\u00adnau\u00addampf\u00adschiff\u00adfahrts\u00adge\u00adsell\u00adschaft",
    "in\u00adter\u00adna\u00adtion\u00adal\u00adi\u00adza\u00adtion",
    "re\u00adspon\u00adsi\u00adbil\u00adi\u00adty", "typ\u00adog\u00adra\u00adphy",
    "ma\u00adchine", "com\u00adput\u00ader", "de\u00advel\u00adop\u00adment",
    "Ge\u00adschwin\u00addig\u00adkeits\u00adbe\u00adgren\u00adzung",
]

LONG_WORDS = [
    "Pneumonoultramicroscopicsilicovolcanoconiosis",
    "Supercalifragilisticexpialidocious",
    "Donaudampfschiffahrtselektrizitaetenhauptbetriebswerkbauunterbeamtengesellschaft",
    "Rindfleischetikettierungsueberwachungsaufgabenuebertragungsgesetz",
    "Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW",
    "iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii",
    "0123456789012345678901234567890123456789012345678901234567890123456789",
    "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "Taumatawhakatangihangakoauauotamateaturipukakapikimaungahoronukupokaiwhenuakitanatahu",
    "Hippopotomonstrosesquippedaliophobia",
    "xn--bcher-kva.example-internationalized-domain-name",
]

UNICODE_SPACES = [
    "\u3000", "\u00a0", "\u2003", "\u2002\u2002", "\u200b", "\u2009word\u2009",
    "a\u3000b\u3000c", "em\u2003space\u2003separated\u2003words",
    "zero\u200bwidth\u200bspace\u200bseparated\u200bwords\u200bthat\u200bcan\u200bbreak",
    "thin\u2009space\u2009words", "ideographic\u3000space", "\u200b\u200b\u200b",
]

WHITESPACE_ONLY = [
    "", " ", "  ", "      ", "\t", "\n", " \n ", "\t \t", "\r\n", "\n\n\n",
    " \t\n\r ", "                                        ",
]

# Words for long paragraphs (phrases reused), plus some mixed-script phrases.
MIXED_FOR_LONG = CHINESE[:6] + JAPANESE[:5] + KOREAN[:5] + ARABIC[:4] + HEBREW[:4] \
    + THAI[:4] + ["\U0001F600", "\U0001F44D\U0001F3FD", "\U0001F1EF\U0001F1F5"] \
    + URLS[:4] + PUNCT[:8] + ["10\u00a0km", "ty\u00adpog\u00adra\u00adphy"]


def _words(s):
    return len(s.split())


def _join_phrases(rng, phrases, n_words, sep=" ", end=". "):
    """Join random phrases until at least n_words whitespace-words, then trim."""
    out = []
    count = 0
    while count < n_words:
        p = rng.choice(phrases)
        out.append(p)
        count += max(1, _words(p))
    text = sep.join(out)
    words = text.split(" ")
    if len(words) > n_words and sep == " ":
        text = " ".join(words[:n_words])
    return text


def _latin_sentence(rng, n_words):
    text = _join_phrases(rng, LATIN, n_words)
    if rng.random() < 0.6:
        text = text.rstrip(".,;") + "."
    return text


def _cjk_text(rng, phrases, n_words):
    # CJK has no spaces; "words" here ~ phrases of ~6-12 chars.
    k = max(1, n_words // 3)
    return "".join(rng.choice(phrases) for _ in range(k))


def gen_latin(rng):
    return _latin_sentence(rng, rng.randint(1, 40))


def gen_punctuation(rng):
    parts = []
    n = rng.randint(1, 6)
    for _ in range(n):
        if rng.random() < 0.6:
            parts.append(rng.choice(PUNCT))
        else:
            parts.append(_join_phrases(rng, LATIN, rng.randint(1, 6)) + rng.choice([",", ";", ":", "!", "?", "\u2026", " \u2014"]))
    return " ".join(parts)


def gen_url(rng):
    parts = []
    n = rng.randint(1, 3)
    for _ in range(n):
        url = rng.choice(URLS)
        if rng.random() < 0.3:
            parts.append(url)
        else:
            parts.append(rng.choice(URL_GLUE) + " " + url + rng.choice(["", ".", " for details.", " today"]))
    return " ".join(parts)


def gen_chinese(rng):
    return _cjk_text(rng, CHINESE, rng.randint(1, 40))


def gen_japanese(rng):
    return _cjk_text(rng, JAPANESE, rng.randint(1, 40))


def gen_korean(rng):
    return _join_phrases(rng, KOREAN, rng.randint(1, 40))


def gen_thai(rng):
    return _join_phrases(rng, THAI, rng.randint(1, 30))


def gen_arabic(rng):
    return _join_phrases(rng, ARABIC, rng.randint(1, 40))


def gen_hebrew(rng):
    return _join_phrases(rng, HEBREW, rng.randint(1, 40))


def gen_bidi(rng):
    rtl = ARABIC if rng.random() < 0.5 else HEBREW
    parts = []
    n = rng.randint(1, 4)
    for _ in range(n):
        en = rng.choice(BIDI_EN)
        r = rng.choice(rtl)
        form = rng.randint(0, 3)
        if form == 0:
            parts.append(f"{en} \u201c{r}\u201d.")
        elif form == 1:
            parts.append(f"{en} {r} (v{rng.randint(1, 9)}.{rng.randint(0, 9)}).")
        elif form == 2:
            parts.append(f"{r} \u2014 {_join_phrases(rng, LATIN, rng.randint(2, 8))}.")
        else:
            parts.append(f"{en}: {r}, {rng.randint(10, 999)} km.")
    return " ".join(parts)


def gen_emoji(rng):
    parts = []
    n = rng.randint(1, 8)
    for _ in range(n):
        form = rng.random()
        if form < 0.35:
            parts.append(rng.choice(EMOJI_PHRASES) + " " + rng.choice(EMOJI))
        elif form < 0.6:
            parts.append("".join(rng.choice(EMOJI) for _ in range(rng.randint(2, 6))))
        elif form < 0.8:
            parts.append(rng.choice(EMOJI))
        else:
            parts.append(rng.choice(EMOJI_PHRASES) + "!" + rng.choice(EMOJI))
    return " ".join(parts)


def gen_combining(rng):
    parts = [rng.choice(COMBINING) for _ in range(rng.randint(1, 5))]
    if rng.random() < 0.5:
        parts.append(_join_phrases(rng, LATIN, rng.randint(1, 10)))
    rng.shuffle(parts)
    return " ".join(parts)


def gen_nbsp(rng):
    parts = []
    for _ in range(rng.randint(1, 8)):
        if rng.random() < 0.5:
            parts.append(rng.choice(NBSP_PHRASES))
        else:
            parts.append(_join_phrases(rng, LATIN, rng.randint(1, 5)))
    text = " ".join(parts)
    if rng.random() < 0.25:
        # a long run glued together with NBSPs (forces break-word behaviour)
        text = "\u00a0".join(_join_phrases(rng, LATIN, rng.randint(6, 16)).split(" "))
    return text


def gen_soft_hyphen(rng):
    parts = []
    for _ in range(rng.randint(1, 10)):
        if rng.random() < 0.5:
            parts.append(rng.choice(SOFT_HYPHEN_WORDS))
        else:
            parts.append(_join_phrases(rng, LATIN, rng.randint(1, 4)))
    return " ".join(parts)


def gen_long_word(rng):
    w = rng.choice(LONG_WORDS)
    form = rng.randint(0, 3)
    if form == 0:
        return w
    if form == 1:
        return _join_phrases(rng, LATIN, rng.randint(1, 6)) + " " + w
    if form == 2:
        return w + " " + _join_phrases(rng, LATIN, rng.randint(1, 6)) + " " + rng.choice(LONG_WORDS)
    return w + rng.choice(LONG_WORDS)


def gen_unicode_spaces(rng):
    s = rng.choice(UNICODE_SPACES)
    if rng.random() < 0.4:
        return s
    return _join_phrases(rng, LATIN, rng.randint(1, 5)) + " " + s + " " + _join_phrases(rng, LATIN, rng.randint(1, 5))


def gen_empty(rng):
    return ""


def gen_whitespace(rng):
    return rng.choice(WHITESPACE_ONLY[1:])



CONTROLS = ["\u0000", "\u2028", "\u2029", "\u0085", "\u000b", "\u000c", "\r", "\r\n", "\u0001", "\u001f",
            "\u007f", "\u0090", "\t", "\n", "\u200b", "\ufeff", "\u2060", "\u00ad"]

SYMBOLS = [
    "\u2260", "\u2264", "\u2265", "\u221e", "\u2211", "\u222b", "\u221a", "\u2248", "\u00b1", "\u2192",
    "\u2190", "\u21d2", "\u2605", "\u2606", "\u263a", "\u2665", "\u2660", "\u266a", "\u2713", "\u2717",
    "\u25a0", "\u25cf", "\u20b9", "\u20ac", "\u00a9", "\u2122", "\u2153", "\u01c5", "\U0001d538",
    "\u2115", "\u211d", "\u2124", "\U0001d53b", "\u2202", "\u2207", "\u2208", "\u2229", "\u222a",
    "\u00c5", "A\u030a", "\u1e9e", "\u0131", "\u01f1", "\u2126", "\u212b", "\u2160", "\u2460",
]


def gen_controls(rng):
    words = _join_phrases(rng, LATIN + CHINESE[:4] + ARABIC[:3], rng.randint(1, 12)).split(" ")
    out = []
    for w in words:
        out.append(w)
        out.append(rng.choice(CONTROLS) if rng.random() < 0.35 else " ")
    if rng.random() < 0.2:
        out.insert(0, rng.choice(CONTROLS))
    return "".join(out).rstrip(" ")


def gen_symbols(rng):
    parts = []
    for _ in range(rng.randint(1, 8)):
        r = rng.random()
        if r < 0.4:
            parts.append("".join(rng.choice(SYMBOLS) for _ in range(rng.randint(1, 6))))
        elif r < 0.7:
            parts.append(_join_phrases(rng, LATIN, rng.randint(1, 4)))
        else:
            parts.append("Sets " + rng.choice(SYMBOLS) + " and " + rng.choice(SYMBOLS) + " are here")
    return " ".join(parts)


def gen_multiline(rng):
    """Texts whose white space matters in pre-wrap: newlines, tabs, runs of spaces."""
    src = rng.choice([LATIN, LATIN, CHINESE, ARABIC, THAI, KOREAN, JAPANESE])
    words = _join_phrases(rng, src, rng.randint(2, 30)).split(" ")
    seps = [" ", " ", " ", "  ", "   ", "\n", "\n\n", "\t", " \n", "\n ", "\r\n"]
    text = words[0]
    for w in words[1:]:
        text += rng.choice(seps) + w
    if rng.random() < 0.3:
        text = rng.choice(["  ", "\n", "\t"]) + text
    if rng.random() < 0.3:
        text += rng.choice(["  ", "\n", " \n", "\t"])
    return text


# category -> (generator, small count, full count)
SHORT_CATEGORIES = {
    "latin": (gen_latin, 12, 360),
    "punctuation": (gen_punctuation, 8, 160),
    "url": (gen_url, 8, 160),
    "cjk-chinese": (gen_chinese, 10, 220),
    "japanese": (gen_japanese, 10, 220),
    "korean": (gen_korean, 8, 160),
    "thai": (gen_thai, 8, 160),
    "arabic": (gen_arabic, 8, 160),
    "hebrew": (gen_hebrew, 8, 140),
    "bidi-mixed": (gen_bidi, 10, 200),
    "emoji": (gen_emoji, 10, 200),
    "combining": (gen_combining, 8, 140),
    "symbols": (gen_symbols, 10, 200),
    "nbsp": (gen_nbsp, 6, 120),
    "soft-hyphen": (gen_soft_hyphen, 8, 140),
    "long-word": (gen_long_word, 8, 180),
    "unicode-spaces": (gen_unicode_spaces, 6, 80),
    "controls": (gen_controls, 10, 200),
    "multiline": (gen_multiline, 10, 200),
    "empty": (gen_empty, 2, 8),
    "whitespace-only": (gen_whitespace, 4, 40),
}

LONG_CATEGORIES = {"long-latin": (4, 36), "long-mixed": (3, 24)}
LONG_WIDTHS_PER_PARAGRAPH = (2, 4)  # (small, full)
CORPUS_CASES = (24, 700)            # (small, full), spread over the corpus files
RANDOM_SAMPLE = (160, 1500)         # (small, full) fresh cases per run

RTL_CATEGORIES = {"arabic", "hebrew", "bidi-mixed"}
CJK_CATEGORIES = {"cjk-chinese", "japanese", "korean"}

# ---------------------------------------------------------------------------
# Styles
# ---------------------------------------------------------------------------

# (CSS font-family value, kind). Kinds are reported separately.
FONT_POOL = [
    ('"DejaVu Sans"', "sans"), ('"DejaVu Serif"', "serif"), ('"Noto Sans"', "sans"),
    ('"Noto Serif"', "serif"), ('"Liberation Serif"', "serif"), ('"Liberation Sans"', "sans"),
    ('"DejaVu Sans Mono"', "mono"), ('"Liberation Mono"', "mono"),
    ('"DejaVu Sans Condensed"', "condensed"), ('"DejaVu Serif Condensed"', "condensed"),
    ('"Liberation Sans Narrow"', "condensed"),
    ("serif", "generic"), ("sans-serif", "generic"), ("monospace", "generic"), ("cursive", "generic"),
    ("fantasy", "generic"), ("system-ui", "generic"), ("ui-serif", "generic"), ("ui-sans-serif", "generic"),
    ("ui-monospace", "generic"),
    ('"Noto Sans Mono"', "missing"), ("Helvetica", "missing"), ("Arial", "missing"), ("Times", "missing"),
    ('"Courier New"', "missing"), ('"Comic Sans MS"', "missing"), ("Verdana", "missing"), ("Georgia", "missing"),
    ("Roboto", "missing"),
    ("Foo, Bar, sans-serif", "list"), ('"Missing Font", serif', "list"), ("Helvetica, Arial, sans-serif", "list"),
    ('-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, sans-serif', "list"),
    ('Georgia, "Times New Roman", serif', "list"), ('"Noto Sans Mono", monospace', "list"),
    ('Menlo, Consolas, "DejaVu Sans Mono", monospace', "list"), ('"Noto Sans", "Noto Sans CJK JP", sans-serif', "list"),
    ('"DejaVu Serif", serif', "list"),
]
# Fonts the fixed grid used before the style dimensions existed; still frequent.
CORE_FONTS = ['"DejaVu Sans"', '"DejaVu Serif"', '"Noto Sans"', '"Liberation Serif"']
FONT_KIND = {f: k for f, k in FONT_POOL}

LANGS_ANY = ["en", "ja", "zh-Hans", "zh-Hant", "ko", "zh", "th", "ar", "he", "ur", "hi", "ru", "fr"]
LANGS_CJK = ["ja", "zh-Hans", "zh-Hant", "ko", "zh", "zh-TW", "en"]


def _pick_font(rng):
    if rng.random() < 0.35:
        return rng.choice(CORE_FONTS)
    return rng.choice(FONT_POOL)[0]


def _pick_weight(rng):
    r = rng.random()
    if r < 0.55:
        return 400
    if r < 0.8:
        return 700
    if r < 0.95:
        return rng.choice([100, 200, 300, 500, 600, 800, 900])
    return rng.choice([150, 350, 450, 550, 650, 750])


def _pick_size(rng):
    r = rng.random()
    if r < 0.6:
        return rng.randint(10, 40)
    if r < 0.8:
        return rng.randint(10, 39) + 0.5
    return round(rng.uniform(10, 40), 2)


def _pick_width(rng, size):
    r = rng.random()
    if r < 0.12:
        w = rng.uniform(8, 64)
    else:
        w = rng.uniform(65, 600)
    return round(w, rng.choice([0, 0, 1, 2]))


def _pick_line_height(rng, size):
    r = rng.random()
    if r < 0.5:
        return round(1.25 * size)
    if r < 0.7:
        return "normal"
    if r < 0.85:
        return round(1.5 * size, 2)
    return round(size + rng.uniform(0, 12), rng.choice([0, 1]))


def _pick_params(rng, category):
    font = _pick_font(rng)
    weight = _pick_weight(rng)
    r = rng.random()
    style = "normal" if r < 0.8 else "italic" if r < 0.94 else "oblique"
    size = _pick_size(rng)
    width = _pick_width(rng, size)
    lh = _pick_line_height(rng, size)
    ws = "pre-wrap" if rng.random() < (0.6 if category == "multiline" else 0.2) else "normal"
    r = rng.random()
    if category in RTL_CATEGORIES or category in ("corpus-ar", "corpus-he", "corpus-ur"):
        direction = "ltr" if r < 0.3 else "rtl" if r < 0.65 else "auto"
    else:
        direction = "ltr" if r < 0.75 else "rtl" if r < 0.85 else "auto"
    r = rng.random()
    if category in CJK_CATEGORIES:
        lang = None if r < 0.4 else rng.choice(LANGS_CJK)
    else:
        lang = None if r < 0.7 else rng.choice(LANGS_ANY)
    return dict(font=font, weight=weight, style=style, size=size, lineHeight=lh, width=width,
                whiteSpace=ws, direction=direction, lang=lang)


STYLE_KEYS = ("font", "weight", "style", "size", "lineHeight", "width", "whiteSpace", "direction", "lang")


def case_key(case):
    """Stable hash of everything that influences layout."""
    payload = json.dumps([case["text"]] + [case[k] for k in STYLE_KEYS], ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:32]


def _make(set_name, category, ident, text, params):
    c = {"id": f"{set_name}/{category}/{ident}", "set": set_name, "category": category, "text": text}
    c.update(params)
    c["key"] = case_key(c)
    return c


def _long_paragraph(rng, mixed):
    n = rng.randint(200, 600)
    out = []
    count = 0
    while count < n:
        if mixed and rng.random() < 0.15:
            p = rng.choice(MIXED_FOR_LONG)
        else:
            p = rng.choice(LATIN)
            p = p + rng.choice([".", ".", ",", ";", "!", "?", " \u2014", ":"])
        out.append(p)
        count += max(1, len(p.split()))
    return " ".join(out)


# ---------------------------------------------------------------------------
# Real corpora
# ---------------------------------------------------------------------------

def corpus_dir():
    """$ROWKIT_CORPORA, else the first `shared/corpora` above the repository (read in place)."""
    env = os.environ.get("ROWKIT_CORPORA")
    if env:
        return env if os.path.isdir(env) else None
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    d = here
    for _ in range(4):
        d = os.path.dirname(d)
        cand = os.path.join(d, "shared", "corpora")
        if os.path.isdir(cand):
            return cand
    return None


_CORPUS_CACHE = {}


def corpus_files():
    d = corpus_dir()
    if not d:
        return []
    if d not in _CORPUS_CACHE:
        files = []
        for name in sorted(os.listdir(d)):
            if not name.endswith(".txt") or "-" not in name:
                continue
            with open(os.path.join(d, name), encoding="utf-8") as f:
                paras = [p.strip() for p in f if len(p.strip()) >= 8]
            if paras:
                files.append((name[:-4], name.split("-")[0], paras))
        _CORPUS_CACHE[d] = files
    return _CORPUS_CACHE[d]


def _cut(rng, text, max_len):
    """A piece of at most max_len characters starting and ending at a cluster boundary."""
    if len(text) <= max_len:
        return text
    start = rng.randint(0, len(text) - max_len)
    end = start + rng.randint(max_len // 3, max_len)

    def boundary(i):
        while 0 < i < len(text) and (unicodedata.category(text[i])[0] == "M"
                                     or text[i] in "\u200d\u200c\ufe0f" or text[i - 1] == "\u200d"):
            i += 1
        return i
    start, end = boundary(start), boundary(end)
    # prefer to start after a space or sentence end
    for j in range(start, min(len(text), start + 40)):
        if text[j - 1] in " \u3002\u3001.,!?\u061f\u0964" and j > 0:
            start = j
            break
    return text[start:end].strip() or text[:max_len]


def _corpus_text(rng, files):
    name, lang, paras = rng.choice(files)
    text = _cut(rng, rng.choice(paras), rng.choice([60, 200, 600, 1200]))
    return name, lang, text


CORPUS_LANG = {"zh": ["zh", "zh-Hans", "zh-Hant"], "ja": ["ja"], "ko": ["ko"]}


def _corpus_case(rng, ident, files, set_name="corpus"):
    name, lang, text = _corpus_text(rng, files)
    params = _pick_params(rng, "corpus-" + lang)
    # The text's own language most of the time (it decides CJK fonts and line breaking).
    params["lang"] = None if rng.random() < 0.3 else rng.choice(CORPUS_LANG.get(lang, [lang]))
    c = _make(set_name, "corpus-" + lang, ident, text, params)
    c["source"] = name
    return c


# ---------------------------------------------------------------------------
# Grids
# ---------------------------------------------------------------------------

def generate(small=False, sets=("short", "long", "corpus"), seed=SEED):
    """The fixed grid (seed SEED) or, with another seed, a grid of the same shape."""
    cases = []
    pick = 0 if small else 1
    if "short" in sets:
        for cat, (gen, *counts) in SHORT_CATEGORIES.items():
            rng = random.Random(f"{seed}/{GENERATOR_VERSION}/short/{cat}")
            for i in range(counts[pick]):
                text = gen(rng)
                cases.append(_make("short", cat, f"{i:04d}", text, _pick_params(rng, cat)))
    if "long" in sets:
        for cat, counts in LONG_CATEGORIES.items():
            rng = random.Random(f"{seed}/{GENERATOR_VERSION}/long/{cat}")
            for i in range(counts[pick]):
                text = _long_paragraph(rng, mixed=(cat == "long-mixed"))
                for j in range(LONG_WIDTHS_PER_PARAGRAPH[pick]):
                    params = _pick_params(rng, cat)
                    params["width"] = round(rng.uniform(120, 600), rng.choice([0, 1]))
                    cases.append(_make("long", cat, f"{i:04d}@{j}", text, params))
    if "corpus" in sets:
        files = corpus_files()
        rng = random.Random(f"{seed}/{GENERATOR_VERSION}/corpus")
        for i in range(CORPUS_CASES[pick] if files else 0):
            cases.append(_corpus_case(rng, f"{i:04d}", files))
    return cases


def random_sample(seed, small=False):
    """A fresh sample: categories (and corpus paragraphs) drawn at random, each with a random style."""
    rng = random.Random(f"random/{seed}")
    files = corpus_files()
    cats = list(SHORT_CATEGORIES) + ["long-latin", "long-mixed"] + (["corpus"] * 4 if files else [])
    cases = []
    for i in range(RANDOM_SAMPLE[0 if small else 1]):
        cat = rng.choice(cats)
        if cat == "corpus":
            cases.append(_corpus_case(rng, f"{i:04d}", files, set_name="random"))
            continue
        if cat.startswith("long-"):
            text = _long_paragraph(rng, mixed=(cat == "long-mixed"))
        else:
            text = SHORT_CATEGORIES[cat][0](rng)
        cases.append(_make("random", cat, f"{i:04d}", text, _pick_params(rng, cat)))
    return cases


def font_kind(font):
    return FONT_KIND.get(font, "other")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--small", action="store_true", help="CI-sized grid (a few hundred cases)")
    ap.add_argument("--set", choices=["short", "long", "corpus", "all"], default="all")
    ap.add_argument("--seed", type=int, default=None, help="print a random sample with this seed instead of the fixed grid")
    ap.add_argument("--stats", action="store_true", help="print a summary instead of the cases")
    args = ap.parse_args()
    if args.seed is not None:
        cases = random_sample(args.seed, small=args.small)
    else:
        sets = ("short", "long", "corpus") if args.set == "all" else (args.set,)
        cases = generate(small=args.small, sets=sets)
    if args.stats:
        from collections import Counter
        print(f"{len(cases)} cases; corpora: {corpus_dir() or 'not found'}")
        for k, v in sorted(Counter((c["set"], c["category"]) for c in cases).items()):
            print(f"  {k[0]:6} {k[1]:16} {v}")
        for key in ("weight", "style", "whiteSpace", "direction", "lang"):
            print(f"{key}:", dict(Counter(str(c[key]) for c in cases)))
        print("font kinds:", dict(Counter(font_kind(c["font"]) for c in cases)))
        return
    for c in cases:
        sys.stdout.write(json.dumps(c, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
