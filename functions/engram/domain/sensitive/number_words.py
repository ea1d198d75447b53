"""The words for the digits, per language and script, as people say a code out loud in a
voice note or a message ("OTP hai chhe chhe ek do zero teen", "کد تأیید: سه، نه، یک",
"인증번호 육 삼 일 공 팔 구", "ኮዱ አምስት፣ ሁለት፣ ዜሮ"): ``reading_view`` reads a run of them
as digits, so every number rule reads one shape whatever the language.

A word of a script with vowel signs (Devanagari, Bengali, Thai, Tamil, ...) is read with
its combining marks: Python's ``\\w`` does not take them, and "सात" fell apart into "स",
"त". Arabizi writes Arabic's letters with digits ("wa7ed", "sab3a"): a digit between two
letters is read as part of the word.
"""

from __future__ import annotations

import re
import unicodedata

# Number words of one digit, one line per digit for each group of languages. Danish "en",
# "to" and "ni" are left out (too common as words); a run mostly of words that are also
# ordinary words elsewhere ("un", "bir", "sei", "oh", "do") is not read as digits.
_LINES = (
    # English, German, French, Spanish, Italian, Portuguese, Dutch, Polish, Swedish,
    # Danish/Norwegian, Turkish
    (
        "zero oh null nul zéro zero cero zero nul zero noll nul sıfır sifir",
        "one eins ein un une uno um een jeden jedna ett bir",
        "two zwei deux dos due dois twee dwa två tva iki",
        "three drei trois tres tre três tres drie trzy tre tre üç uc",
        "four vier quatre cuatro quattro quatro vier cztery fyra fire dört dort",
        "five fünf funf cinq cinco cinque cinco vijf pięć piec fem fem beş bes",
        "six sechs six seis sei seis zes sześć szesc sex seks altı alti",
        "seven sieben sept siete sette sete zeven siedem sju syv yedi",
        "eight acht huit ocho otto oito acht osiem åtta atta otte sekiz",
        "nine neun neuf nueve nove nove negen dziewięć dziewiec nio dokuz",
    ),
    # Russian, Ukrainian, Czech, Hungarian, Romanian, Greek, Finnish, Norwegian, Indonesian
    # and Malay ("PIN-koodi on kaksi kuusi yksi nolla", "пин-код карты: два семь семь пять")
    (
        "ноль нуль nula nulla zero μηδέν μηδεν nolla null nol kosong",
        "один одна одну jedna jeden egy unu ένα ενα yksi satu",
        "два две дві dva kettő ketto két ket doi δύο δυο kaksi dua",
        "три tři tri három harom trei τρία τρια kolme tiga",
        "четыре чотири čtyři ctyri négy negy patru τέσσερα τεσσερα neljä nelja empat",
        "пять п'ять п’ять pět pet öt cinci πέντε πεντε viisi lima",
        "шесть шість šest sest hat șase sase şase έξι εξι kuusi enam",
        "семь сім sedm hét het șapte sapte şapte επτά επτα εφτά seitsemän seitseman tujuh",
        "восемь вісім osm nyolc opt οκτώ οκτω οχτώ kahdeksan åtte atte delapan",
        "девять дев'ять дев’ять devět devet kilenc nouă noua εννέα εννεα εννιά yhdeksän yhdeksan sembilan",
    ),
    # Arabic (written, and Egyptian, Levantine and Gulf speech, in Arabic letters and in
    # Arabizi) and Japanese in katakana and hiragana ("تسعة تسعة صفر اتنين", "ゼロ サン ナナ
    # イチ", "いち、きゅう、なな、ろく")
    (
        "صفر ゼロ レイ マル ぜろ れい まる sefr sifr",
        "واحد واحدة وحدة イチ いち wa7ed wahed wa7da",
        "اثنين اثنان إثنين اتنين إتنين ثنين ニ に etnen itnen tnen",
        "ثلاثة ثلاثه تلاتة تلاته ثلاث تلات サン さん talata tlata talatha",
        "أربعة اربعة أربعه اربعه أربع اربع ヨン シ よん し arba3a arba3 arba",
        "خمسة خمسه خمس ゴ ご khamsa",
        "ستة سته ست ロク ろく setta sitta",
        "سبعة سبعه سبع ナナ シチ なな しち sab3a saba3a",
        "ثمانية ثمانيه تمانية تمانيه ثمان تمن ハチ はち tamanya tmanya tamania",
        "تسعة تسعه تسع キュウ キュー ク きゅう きゅー く tes3a tis3a",
    ),
    # Persian, Urdu (and romanised Hindi and Urdu), Hindi and Nepali in Devanagari, Bengali
    # (য় written as one letter or as য and its dot)
    (
        "صفر شونیہ sifar shunya shoonya शून्य सुन्ना শূন্য",
        "یک يك ایک ek एक এক",
        "دو do दो দুই দুটো",
        "سه تین teen tin तीन তিন",
        "چهار چار char chaar चार চার",
        "پنج پانچ panch paanch paanch पांच पाँच পাঁচ",
        "شش چھ چھے chhe che chah chhah cheh छह छः छे ছয় ছয়",
        "هفت سات saat सात সাত",
        "هشت آٹھ aath ath आठ আট",
        "نه نو nau नौ নয় নয়",
    ),
    # Hebrew, Thai, Amharic, Swahili, Tagalog, Vietnamese, Korean (Sino-Korean), Tamil, Georgian
    (
        "אפס ศูนย์ ዜሮ sifuri sero không linh 공 영 பூஜ்ஜியம் ნული",
        "אחת אחד หนึ่ง አንድ moja isa một mốt 일 ஒன்று ერთი",
        "שתיים שתים שניים שנים สอง ሁለት mbili dalawa hai 이 இரண்டு ორი",
        "שלוש שלש שלושה สาม ሶስት ሦስት tatu tatlo ba 삼 மூன்று სამი",
        "ארבע ארבעה สี่ አራት nne apat bốn tư 사 நான்கு ოთხი",
        "חמש חמישה ห้า አምስት tano lima năm lăm 오 ஐந்து ხუთი",
        "שש שישה หก ስድስት sita anim sáu 육 ஆறு ექვსი",
        "שבע שבעה เจ็ด ሰባት saba pito bảy 칠 ஏழு შვიდი",
        "שמונה แปด ስምንት nane walo tám 팔 எட்டு რვა",
        "תשע תשעה เก้า ዘጠኝ tisa siyam chín 구 ஒன்பது ცხრა",
    ),
    # Nepali and Marathi (where they differ from Hindi), Gujarati, Punjabi, Telugu, Kannada,
    # Malayalam, Sinhala, Armenian
    (
        "શૂન્ય ਸਿਫ਼ਰ ਸਿਫਰ సున్నా ಸೊನ್ನೆ പൂജ്യം බිංදුව զրո",
        "એક ਇੱਕ ਇਕ ఒకటి ಒಂದು ഒന്ന് එක մեկ",
        "दुई दोन બે ਦੋ రెండు ಎರಡು രണ്ട് දෙක երկու",
        "ત્રણ ਤਿੰਨ మూడు ಮೂರು മൂന്ന് තුන երեք",
        "ચાર ਚਾਰ నాలుగు ನಾಲ್ಕು നാല് හතර չորս",
        "पाच પાંચ ਪੰਜ ఐదు ಐದು അഞ്ച് පහ հինգ",
        "छ सहा છ ਛੇ ఆరు ಆರು ആറ് හය վեց",
        "સાત ਸੱਤ ఏడు ಏಳು ഏഴ് හත յոթ",
        "આઠ ਅੱਠ ఎనిమిది ಎಂಟು എട്ട് අට ութ",
        "नऊ નવ ਨੌਂ ਨੌ తొమ్మిది ಒಂಬತ್ತು ഒമ്പത് නවය ինը",
    ),
    # Bulgarian, Serbian and Macedonian, Kazakh, Azerbaijani and Uzbek, Hausa, romanised
    # Persian and Hebrew
    (
        "нула нөл sifili sefr efes",
        "едно еден една један бір yek echad achat daya",
        "две екі ikki biyu shtayim shnayim",
        "үш uch uku se shalosh",
        "төрт dörd hudu chahar chahaar arba",
        "бес besh biyar panj chamesh",
        "шест алты olti shida shesh",
        "седем седам жеті yeddi yetti bakwai haft sheva",
        "осем осам сегіз səkkiz sakkiz takwas hasht shmone shmona",
        "девет тоғыз doqquz tara noh tesha",
    ),
)
DIGIT_WORDS: dict[str, str] = {}
for _group in _LINES:
    for _digit, _words in enumerate(_group):
        for _w in _words.split():
            DIGIT_WORDS.setdefault(_w, str(_digit))  # (a line's place in its group is its digit)

# Words among them that are ordinary words too, in one language or another.
ALSO_A_WORD = frozenset(
    [
        *("oh", "un", "une", "ein", "sei", "bir", "sex", "fire", "tre", "due", "dos", "one", "ten"),
        *("hat", "opt", "pet", "het", "egy", "ένα", "ενα", "lima", "dua", "satu", "doi", "jedna", "jeden"),
        *("واحد", "ست", "سبع", "マル", "ニ", "シ", "ゴ", "ク", "に", "し", "ご", "く", "まる"),
        # romanised Hindi and Urdu, Persian's "no", Urdu's "give", Hebrew's "glad"
        *("do", "teen", "tin", "char", "che", "ath", "ek", "نه", "دو", "نو", "שש", "arba", "sifr"),
        # Swahili, Tagalog, Vietnamese ("not", "a", "year", "father"), Korean ("this", "work",
        # "five", "district", "zero", "ball")
        *("moja", "sita", "saba", "isa", "không", "một", "hai", "ba", "năm", "tư", "linh"),
        *("이", "일", "사", "오", "구", "영", "공", "ሰባት"),
        # (Gujarati's "two" and "six", Marathi's "six", Hausa's "three" and "nine", Serbian's
        # "five" is Russian's "sang", Sinhala's "one")
        *("બે", "છ", "सहा", "se", "uku", "tara", "пет", "එක", "arba", "shesh", "daya", "haft"),
    ]
)

# Combining marks (vowel signs, viramas, nuktas) in the Basic Multilingual Plane.
_MARK_CHARS = "".join(
    re.escape(chr(c)) for c in range(0x300, 0x10000) if unicodedata.category(chr(c)) in ("Mn", "Mc", "Me")
)
# A word: letters with their marks, an apostrophe inside ("п'ять") and, between two letters,
# the digits Arabizi writes letters with ("wa7ed", "sab3a", "tes3a").
_WORD = re.compile(
    r"[^\W\d_](?:[^\W\d_]|[" + _MARK_CHARS + r"]|['’](?=[^\W\d_])|[2357](?=[^\W\d_]))*",
)
# ... read only where it can differ from letters alone (twice the cost over a long message):
# a text with a combining mark or in Cyrillic, or an Arabizi number word's digit between letters
_PLAIN_WORD = re.compile(r"[^\W\d_]+")
# (a combining mark, a Cyrillic letter for "п'ять", or a digit between two Latin letters)
_NEEDS_WORD = re.compile(r"[" + _MARK_CHARS + r"\u0400-\u04ff]|[A-Za-z][37][A-Za-z]")


def words_of(text: str) -> re.Pattern[str]:
    """The pattern that reads ``text``'s words as above."""
    return _WORD if _NEEDS_WORD.search(text) else _PLAIN_WORD


# Vietnamese's "two" is Hindi's and Urdu's "is" ("OTP hai chhe chhe ek do"): at a run's start it is
# read as a digit only before another Vietnamese number word.
VIETNAMESE = frozenset(
    ["không", "linh", "một", "mốt", "hai", "ba", "bốn", "tư", "năm", "lăm", "sáu", "bảy", "tám", "chín"]
)


# Digits said as Chinese, Japanese or Korean number words, one by one ("四、七、一、九",
# "칠 삼 오 일"): read as ASCII digits for the rules above.
_CJK_DIGIT = {
    **dict.fromkeys("〇零", "0"),
    **dict(zip("一二三四五六七八九", "123456789", strict=True)),
    **dict.fromkeys("공영", "0"),
    **dict(zip("일이삼사오육칠팔구", "123456789", strict=True)),
}
_CJK_DIGIT_RUN = re.compile(
    r"(?<![一-鿿])[〇零一二三四五六七八九](?:[、,，]\s*[〇零一二三四五六七八九]){2,9}(?![一-鿿])"
    r"|(?<!\S)[공영일이삼사오육칠팔구](?:\s+[공영일이삼사오육칠팔구]){2,9}(?!\S)"
)


def cjk_digits_read(text: str) -> str | None:
    if text.isascii() or _CJK_DIGIT_RUN.search(text) is None:
        return None
    return _CJK_DIGIT_RUN.sub(lambda m: "".join(_CJK_DIGIT.get(c, "") for c in m.group()), text)
