"""A one-time code as its message prints it, after a word for "code" in any language.

Services print a one-time code in a shape of its own: two groups of three digits ("720 315",
"483-920"), Google's "G-" and six digits, a backup code's two groups of four ("6634 7102").
Held-out M's writers quoted such codes from marketplaces' and banks' messages in a dozen
languages ("A Jófogás kódod: 720 315", "Codul tău OLX este 602 491", "Ο κωδικός σας για την
Vinted είναι 629 104", "Nambari yako ya uthibitisho ya Jumia ni 483 920", "문자로 온 번호 720 184",
"token do internet banking: 118 204"): the wording differs in each, the shape does not. So
the value is found by its shape and the code's word looked for just before it, in the same
clause, in any language's inflection (kodunuz, kódod, koodia, codul, κωδικός, кодом).

A code quoted as a message ("«Нова пошта: код для отримання 4827»", '"Il tuo codice Subito è
830215"') is a message someone received and passes on: inside the quotes, four to eight
digits after the code's word are the code.

Not one: another code's number (postal, order, tracking, promo, error, product, ...), an amount
or a count ("code 120 000 tokens", "830 215 Ft"), part of a longer number (a phone's, an
IBAN's), a placeholder ("000 000").
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from engram.domain.sensitive.named_codes import BOARD

# The shapes: 3+3, 4+4 (backup codes), "G-" and six digits; not inside a longer number.
_PRINTED = re.compile(
    r"(?<![\w.,/:+\-#№$€£])(?<!\d )(?:\d{3}[ \-]\d{3}|\d{4} \d{4}|G-\d{6})(?![\w/:@]|[.,]\d|[ \-]\d|\s\d)"
)
# A word for "code" (whole, or ending a compound: "Handysignatur-TAN", "inlogcode", "sms-kód"),
# a one-time code's or a backup's word; each word of the text is looked up once (a long log of
# numbers stays cheap: no alternation is tried at every position).
_WORD = re.compile(r"[^\W\d_]+")
_CODE_WORDS = frozenset(
    [
        *("code", "codes", "codice", "codici", "codigo", "código", "codigos", "códigos", "codul", "cod", "token"),
        *("otp", "tan", "pin", "passcode", "backup", "recovery", "пароль", "nambari", "namba", "msimbo"),
    ]
)
_CODE_STARTS = ("kod", "kód", "kood", "koodi", "kode", "κωδικ", "код")
_COMPOUND_ENDS = re.compile(r"(?:code|codes|kod\w*|kód\w*|kood\w*|koodi\w*|kode\w*)$")
# (in scripts that join words, or join "the" and "of" to them, no boundary is asked)
_CODE_WORD_IN_SCRIPT = re.compile(
    r"인증\s*번호|번호|코드|验证码|驗證碼|取件码|码|碼|コード|認証番号|รหัส|رمز|کد|קוד|কোড|कोड|ኮድ|კოდ"
    # (the English word as the other Indic scripts, Urdu and Armenian write it, and an OTP's:
    # "ਬੈਂਕ ਤੋਂ ਕੋਡ ਆਇਆ 308 417")
    r"|ਕੋਡ|કોડ|ಕೋಡ್|കോഡ്|కోడ్|கோட்|କୋଡ୍?|කෝඩ්|کوڈ|կոդ|ລະຫັດ|ओटीपी|ওটিপি|ਓਟੀਪੀ|ઓટીપી|ಒಟಿಪಿ|ഒടിപി|ఓటీపీ|ஓடிபி"
)
# Words naming another code, or a compound's first part naming one ("bsbCode", "Gutscheincode").
_OTHER_WORDS = frozenset(
    [
        *("zip", "postal", "post", "postcode", "area", "country", "booking", "reservation", "tracking", "track"),
        *("discount", "coupon", "voucher", "gift", "referral", "invite", "error", "errore", "erro", "status"),
        *("product", "tax", "sort", "swift", "bic", "iban", "bar", "barcode", "qr", "source", "invoice", "factura"),
        *("fattura", "customer", "client", "loyalty", "ticket", "flight", "color", "colour", "hs", "sku", "ean"),
        *("isbn", "takip", "commande", "pedido", "ordine", "suivi", "rastreio", "seguimiento", "pincode", "ifsc"),
        *("branch", "filial", "sucursal", "clearing", "routing", "blz", "bsb", "short", "dress", "barre"),
    ]
)
# (and what makes a program's word of "code": "decode", "encode", "unicode", "opcode", "geocode")
_NOT_A_CODE_PART = frozenset(["de", "en", "uni", "op", "geo", "trans", "re", "pre", "post", "zip", "qr", "bar", "dis"])
_OTHER_STARTS = (
    *("posta", "pocztow", "почтов", "поштов", "order", "promo", "fehler", "produ", "member", "ошибк", "заказ"),
    *("промо", "скидк", "трек", "sipari", "indirim", "sendung", "bestell", "postcod", "gutschein", "rabatt"),
    *("kunden", "artikel", "storno"),
    # orders, bookings and surveys in more languages (review rv9: "kod zamówienia 482 913",
    # "A rendelési kódod 720 315", "κωδικός παραγγελίας", "código de reserva", "Teilnehmercode")
    *("zamówien", "zamowien", "rendelés", "rendeles", "παραγγελ", "κράτησ", "reserv", "réserv", "prenot"),
    *("rezerw", "rezerv", "buchung", "boeking", "bestelling", "foglal", "tilau", "varau", "бронир"),
    *("teilnehm", "participant", "survey", "umfrage", "sondage", "encuesta"),
)


def _words(text: str) -> tuple[list[tuple[int, int]], list[int]]:
    """Where the code words end and start, and where the words naming another code start."""
    codes: list[tuple[int, int]] = []
    others: list[int] = []
    for m in _WORD.finditer(text):
        word = m.group().lower()
        if _other(word):
            others.append(m.start())
        elif word in _CODE_WORDS or word.startswith(_CODE_STARTS):
            codes.append(m.span())
        elif len(word) > 4 and (end := _COMPOUND_ENDS.search(word)) is not None:
            # a compound: its first part may name another code ("bsbCode", "Kundencode")
            if _other(word[: end.start()]) or word[: end.start()] in _NOT_A_CODE_PART:
                others.append(m.start())
            else:
                codes.append(m.span())
    if not text.isascii():
        codes = sorted([*codes, *(w.span() for w in _CODE_WORD_IN_SCRIPT.finditer(text))])
    return codes, others


def _other(word: str) -> bool:
    return word in _OTHER_WORDS or word.startswith(_OTHER_STARTS)


# What says the number is an amount or a count.
_AFTER = re.compile(
    r"\s*(?:%|€|\$|£|₽|₹|¥|₩|₴|(?:ft|huf|lei|ron|eur|euros?|usd|dollars?|kr|z[łl]|pln|tl|try|руб\w*|грн|uah|won|원"
    r"|ksh|kes|tsh|naira|ngn|₦|drachm\w*|rs|inr|tokens?|units?|users?|people|views?|followers?|km|kg|m|mb|gb)(?![^\W\d_]))",
    re.IGNORECASE,
)
_CLOSING = '"”»“」'
_CLAUSE_END = re.compile(r"[\n;。！？!?]|[.](?:\s|$)")
_REACH = 60


def printed_code(text: str) -> bool:
    """A code in a one-time code's printed shape just after a word for "code", or a code
    quoted as its message came (not a chip's pin in a datasheet)."""
    if BOARD.search(text):
        return False
    values = [
        m.start()
        for m in _PRINTED.finditer(text)
        if len(set(m.group()) - {" ", "-", "0", "G"}) > 1 and not _AFTER.match(text, m.end())
    ]
    if values:
        # (the words found once in the whole text: a long log of numbers stays cheap)
        words, others = _words(text)
        if any(_named_before(text, words, others, at) for at in values):
            return True
    return any(q in text for q in _QUOTES) and _quoted_code(text)


def _named_before(text: str, words: list[tuple[int, int]], others: list[int], at: int, reach: int = _REACH) -> bool:
    """The nearest code word before ``at``, within ``reach`` and in its clause, names this value."""
    i = bisect_right(words, (at, at)) - 1
    while i >= 0 and words[i][1] > at:
        i -= 1
    if i < 0 or words[i][0] < at - reach:
        return False
    start, end = words[i]
    if _CLAUSE_END.search(text, start, at):
        return False
    if any(c.isdigit() or c in _CLOSING for c in text[end:at]):
        # (another number stands between, or the quote the word was in closed: '"invalid code" for 118 402')
        return False
    # the code's word itself, the words before it and up to the value name no other code ("order
    # code 830 215", "код ошибки 500 100")
    i = bisect_left(others, start - 24)
    return i == len(others) or others[i] >= at


# A message quoted as it came: the code's word and four to eight digits inside one pair of quotes.
_QUOTES = '"“«„「'
_QUOTED = re.compile(
    r'"([^"\n]{6,160})"|“([^”"\n]{6,160})[”"]|«([^»\n]{6,160})»|„([^“”"\n]{6,160})[“”"]|「([^」\n]{6,160})」'
)
_DIGITS = re.compile(r"(?<![\w.,/:+\-#№$€£])\d{4,8}(?![\w/:@]|[.,]\d|[ \-]\d)")


def _quoted_code(text: str) -> bool:
    for q in _QUOTED.finditer(text):
        inside = next(g for g in q.groups() if g is not None)
        for m in _DIGITS.finditer(inside):
            value = m.group()
            if len(set(value) - {"0"}) <= 1 or re.fullmatch(r"(?:19|20)\d\d", value) or _AFTER.match(inside, m.end()):
                continue
            if _named_before(inside, *_words(inside), m.start(), 40):
                return True
    return False
