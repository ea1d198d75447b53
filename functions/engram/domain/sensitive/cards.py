"""Payment cards: a brand's prefix and length, then Luhn; an IMEI or a tracking number is not a card."""

from __future__ import annotations

import re
from functools import lru_cache

from engram.domain.sensitive.bank_accounts import iban_valid
from engram.domain.sensitive.categories import folded_words, longest_number


# -- checksums ------------------------------------------------------------------------------
def luhn_valid(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


# -- payment cards ----------------------------------------------------------------------------
# (prefix range, lengths) of the brands in use; a Luhn-valid run of another shape (an IMEI,
# a tracking number) is not a card.
_BRANDS: tuple[tuple[int, int, frozenset[int]], ...] = (
    (4, 4, frozenset({13, 16, 19})),  # Visa
    (51, 55, frozenset({16})),  # Mastercard
    (2221, 2720, frozenset({16})),  # Mastercard 2-series
    (34, 34, frozenset({15})),  # American Express
    (37, 37, frozenset({15})),
    (6011, 6011, frozenset(range(16, 20))),  # Discover
    (644, 649, frozenset(range(16, 20))),
    (65, 65, frozenset(range(16, 20))),
    (3528, 3589, frozenset(range(16, 20))),  # JCB
    (300, 305, frozenset(range(14, 20))),  # Diners Club
    (36, 36, frozenset(range(14, 20))),
    (38, 39, frozenset(range(14, 20))),
    (62, 62, frozenset(range(16, 20))),  # UnionPay
    (50, 50, frozenset(range(12, 20))),  # Maestro
    (56, 58, frozenset(range(12, 20))),
    (63, 63, frozenset(range(12, 20))),
    (67, 67, frozenset(range(12, 20))),
    (2200, 2204, frozenset({16})),  # Mir
    (9792, 9792, frozenset({16})),  # Troy
    (606282, 606282, frozenset({16, 19})),  # Hipercard (Brazil)
    (6069, 6069, frozenset({16})),  # RuPay (India): 6069, 607, 608
    (607, 608, frozenset({16})),
)
# A digit run whose groups are joined by one space, dash or dot, and that is not a slice of
# a longer run (IBANs and references hold 13-19 digit stretches that pass Luhn 1 in 10).
# Not after "+" and a country code: "+49 151 40947321" is a phone. Groups may be set two
# spaces apart ("4845  4000  7893  7201").
_CARD_RE = re.compile(
    r"(?<![\w.\-+])(?<!\+\d)(?<!\+\d\d)(?<!\d[ .\-])(?<!\d  )"
    r"\d(?:(?: {1,2}|[.\-]| ?\n(?!\d{1,2}[.)]\s))?\d){11,18}(?![ .\-]{0,2}\d)(?![.\-]?\w)"
)  # (a number split over two lines, as pasted from a chat, is one run; not into the next
#   item of a numbered list: "2. 5132 7313 8992 7518\n3. Thanks")
NOT_A_CARD_BEFORE = re.compile(
    r"\b(?:imei|meid|tracking|track|order|orders|isbn|ean|upc|invoice|ticket|booking|reservation|confirmation"
    r"|serial|loyalty|member(?:ship)?|flyer|ref|reference|meeting|zoom|phone|tel|fax|barcode|sku|product"
    # the same numbers in other languages: order, tracking, customer, invoice, serial
    r"|meter|\w*(?:bestell|sendungs|kunden|rechnungs|auftrags|paket|serien|liefer|order|factuur|klant|zending|z[äa]hler|meter)nummer"
    r"|num[ée]ro\s+de\s+(?:commande|suivi|s[ée]rie|facture|client|colis|compteur)"
    r"|n[úu]mero\s+de\s+(?:pedido|seguimiento|rastreio|rastreamento|serie|s[ée]rie|factura|fatura|cliente|encomenda|contador)"
    r"|numero\s+(?:d['’]ordine|di\s+(?:tracking|serie|spedizione|fattura|cliente|ordine))"
    r"|numer\s+(?:zam[óo]wienia|przesy[łl]ki|seryjny|faktury|klienta)"
    r"|(?:sipari[şs]|takip|seri|fatura|kargo)\s+(?:numaras[ıi]|no)|номер\s+(?:заказа|отслеживания)|трек-номер"
    r"|серийный\s+номер)\b"
    r"[^\n]{0,25}$"
    r"|(?:注文番号|订单号|訂單號|주문번호|운송장번호|快递单号|運単番号|伝票番号|シリアル番号|序列号)[^\n]{0,25}$",
    re.IGNORECASE,
)


def _brand(digits: str) -> bool:
    for low, high, lengths in _BRANDS:
        width = len(str(low))
        if len(digits) in lengths and low <= int(digits[:width]) <= high:
            return True
    return False


# (and after a full stop, as a card is pasted in pieces: "5167 3004 2198 8744. 08/27. 551")
_EXPIRY = re.compile(r"(?<=\d)(\.?[ ,\n]+)(?=(?:0[1-9]|1[0-2])/\d{2,4}\b)")
_MMYY_AFTER = re.compile(r"(?<=\d{15}) (?=(?:0[1-9]|1[0-2])\d\d\b)")


_ACCOUNT_BEFORE = re.compile(
    r"\b(?:account|acct|a/c|konto|cuenta|compte|conto|rekening|ifsc|iban|routing|t[àa]i\s+kho[ảa]n|hesap|сч[её]т)\b"
    # (and the account's word in Devanagari, Bengali, Armenian, Sinhala, Tamil, Mongolian, Uzbek)
    r"[^\n]{0,25}$|(?:खाता|হিসাব|հաշիվ|hashiv|ගිණුම|கணக்கு|данс|hisob)[^\n]{0,25}$",
    re.IGNORECASE,
)
_CARD_WORD = re.compile(
    r"\b(?:card|cc|visa|master\s*card|amex|discover|troy|kart[eaıi]?m?|tarjeta|carte|cart[ãa]o|carta|kaart|debit|credit"
    # national schemes' brands, whose prefixes are not all in the table above
    r"|hipercard|elo|rupay|verve|mir|dankort|bancontact|girocard|maestro|unionpay|jcb|diners|uatp|interac"
    r"|uzcard|humo|napas|shetab|meeza|mada|knet|bankk[áa]rtya|kort(?:et|nummer)?|kartu|thẻ|kad"
    # Iran's banks, by whose name people pass a Shetab card on for a card-to-card transfer
    # ("6104 3309 2847 5618 mellat, be esme Sara"; Shetab's 6037 and 6104 are in no range above)
    r"|mellat|melli|saderat|tejarat|sepah|pasargad|parsian|keshavarzi|maskan|refah"
    # the word for a card in Cyrillic, Persian, Arabic and Hebrew
    r"|карт[аыуеоi]\w*|картк[аиу]|кредитк[аи])\b"
    # a card word inside a compound ("Kreditkarte", "EC-Karte", "creditcard", "betaalkaart")
    r"|\b(?:kredit|credit|debit|bank|giro|geld|betaal|visa)-?(?:kart(?:e|en)?|card|kaart|kort)\w*"
    r"|카드|カード|卡号|银行卡|信用卡|借记卡|信用卡|扣帳卡|کارت|بطاق[ةه]|כרטיס"
    # and in Hindi, Bengali, Tamil, Telugu, Kannada, Urdu, Thai and Greek
    r"|कार्ड|কার্ড|கார்டு|కార్డ్|ಕಾರ್ಡ್|کارڈ|บัตร(?:เครดิต|เดบิต)|κάρτα",
    re.IGNORECASE,
)
# Digits of other scripts ("۶۰۳۷ ۹۹۹۵ ...", "٤٥٣٢"), read as the ASCII digits they are.
_DIGITS = {c: str(d) for d in range(10) for c in "٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹०१२३४५६७८९০১২৩৪৫৬৭৮৯"[d::10]}
_TO_ASCII_DIGITS = str.maketrans(_DIGITS)


# A card number given in pieces after its word: four groups of four digits with a few
# words between them ("first half 6011 3379 9120 / second half 1948", "[5209] [6786] ...",
# "4313 3188 on the first line and 4430 5342 on the second"). Brand and Luhn decide.
_PIECE = r"(?<![\d/.:,\-])\d{4}(?![\d/.:,]\d|\d)"
# (its words are one list with the look for them in _card_in_pieces)
_PIECE_WORDS = frozenset(
    ["card", "cc", "visa", "mastercard", "amex", "kartennummer", "tarjeta", "carte", "cartão", "cartao", "carta"]
)
_CARD_IN_PIECES = re.compile(
    r"\b(?:"
    + "|".join(sorted(_PIECE_WORDS, key=len, reverse=True))
    + r")\b[^\n]{0,80}?"
    + _PIECE
    + r"(?:(?:[^\d\n]{1,30}|[^\d]{0,20}\n[^\d]{0,20})"
    + _PIECE
    + r"){3}",
    re.IGNORECASE,
)


# A card number sent in halves with words between and no card word ("first half 6011 3379
# 9120 / second half 1948", "the first 8 are 4066 0595 and the rest is 7454 8300"): four
# groups of four in a row, read together, that brand and Luhn accept.
_HALVES = re.compile(
    r"\b(?:half|halves|the\s+rest|remaining|first\s+(?:8|eight)|last\s+(?:8|eight)|other\s+part|second\s+part"
    # in German, French, Spanish, Dutch, Italian, Portuguese and Polish
    r"|h[äa]lfte|moiti[ée]|mitad|helft|met[àa]|metade|po[łl]ow[aęy])\b",
    re.IGNORECASE,
)
_GROUP_OF_FOUR = re.compile(r"(?<![\d/.:,\-])\d{4}(?![\d/.:,\-]?\d)")


# ... or with the card's expiry after them ("card is 5378 0507" and "1926 9944" on the next
# line of a chat, then "exp 09/27").
_EXPIRY_WORD = re.compile(r"\bexp\w*\.?\s*:?\s*(?:0[1-9]|1[0-2])\s*/\s*\d\d", re.IGNORECASE)


def _card_in_halves(text: str) -> bool:
    if not (_HALVES.search(text) or ("exp" in text.lower() and _EXPIRY_WORD.search(text))):
        return False
    groups = _GROUP_OF_FOUR.findall(text)
    if len(groups) < 4 or _OTHER_CARD.search(text):  # (the costly look for a card's word last)
        return False
    for i in range(len(groups) - 3):
        digits = "".join(groups[i : i + 4])
        if _brand(digits) and luhn_valid(digits):
            return True
    return False


def _card_in_pieces(text: str) -> bool:
    if folded_words(text).isdisjoint(_PIECE_WORDS):
        return False  # (its card words, looked up before the pattern is tried on the whole text)
    for m in _CARD_IN_PIECES.finditer(text):
        if _OTHER_CARD.search(text, max(0, m.start() - 30), m.end()):
            continue  # "nectar card 6340 0402 ..." pays for nothing
        digits = "".join(re.findall(_PIECE, m.group())[-4:])
        if _brand(digits) and luhn_valid(digits):
            return True
    return False


# The same loyalty and customer cards in German, French, Spanish, Portuguese, Italian, Dutch,
# Polish and Swedish ("Kundenkarte", "carte de fidélité", "tarjeta de puntos", "klantenkaart").
LOYALTY_CARDS_OTHER_LANGUAGES = (
    r"(?:kunden|treue|bonus|club|mitglieds)karte|carte\s+(?:de\s+)?(?:fid[ée]lit[ée]|membre|client)"
    r"|tarjeta\s+(?:de\s+)?(?:puntos|fidelidad|socio|cliente)|cart[ãa]o\s+(?:de\s+)?(?:fidelidade|cliente|s[óo]cio)"
    r"|carta\s+fedelt[àa]|klantenkaart|spaarkaart|karta\s+(?:lojalno[śs]ciowa|sta[łl]ego\s+klienta)|kundkort|bonuskort"
)
# Cards that pay for nothing: loyalty, library, gift, id cards.
_OTHER_CARD = re.compile(
    r"\b(?:loyalty|library|member(?:ship)?|gift|id|sim|business|health|insurance|student|key|boarding|transit|bus"
    r"|metro|oyster|rewards?|(?<!diners\s)club|discount|store|payback|miles|points|flyer|vitale|nectar|bonus)\s+card\b"
    r"|\bcarte\s+vitale\b|\b(?:club|gift|bonus|loyalty)card\b"
    # a health insurance card in Arabic, German, Spanish, Portuguese, French ("بطاقة التأمين الصحي",
    # "Versichertenkarte", "tarjeta sanitaria", "cartão de saúde", "carte d'assurance maladie")
    r"|بطاق[ةه]\s*(?:ال)?(?:تأمين|ضمان)|\b(?:versicherten|gesundheits)karte\b|\btarjeta\s+(?:sanitaria|de\s+salud)\b"
    r"|\bcart[ãa]o\s+(?:de\s+)?sa[úu]de\b|\bcarte\s+d['’]assurance\s+maladie\b"
    # in Russian: a loyalty, discount, bonus or gift card
    r"|карт\w*\s+(?:лояльности|магазина|клиента|покупателя)|(?:скидочн|бонусн|подарочн|клубн)\w*\s+карт\w*"
    # an identity card, in English and in Urdu, Persian, Arabic, Hindi and Bengali (their word
    # for a card is a payment card's word too: "شناختی کارڈ", "کارت ملی", "بطاقة الهوية")
    r"|\b(?:national|identity|voter|ration|aadhaa?r|pan|residence|emirates|civil|citizen(?:ship)?)\s+card\b"
    r"|شناختی\s*کارڈ|کارت\s*(?:ملی|شناسایی)|بطاق[ةه]\s*(?:ال)?(?:هوي[ةه]|شخصي[ةه]|رقم\s*القومي)"
    r"|(?:आधार|पैन|वोटर|पहचान)\s*कार्ड|(?:এনআইডি|আইডি|ভোটার)\s*কার্ড|\b(?:" + LOYALTY_CARDS_OTHER_LANGUAGES + r")\b",
    re.IGNORECASE,
)
_CODES = re.compile(r"\b(?:backup|recovery|2fa|mfa)\s+codes\b", re.IGNORECASE)
# A card that pays for nothing named right before the number, its words fused or not
# ("Tesco clubcard 634004 ...", "nectar card 6340 ..."; "My gift card? No it's a real
# card, 4222 ..." is a payment card).
_OTHER_CARD_RIGHT_BEFORE = re.compile(
    r"\b(?:(?<!diners\s)club\s*card|nectar(?:\s+card)?|library\s+card|gift\s*card|rewards?(?:\s+card)?|points\s+card"
    r"|bonus\s*card|payback(?:\s+card)?|loyalty\s*card|(?:bus|rail|train|travel|season|transit)\s+pass"
    r"|" + LOYALTY_CARDS_OTHER_LANGUAGES + r")"
    r"\s*(?:number|no\.?|nr\.?|#|nummer|num[ée]ro|n[úu]mero)?\s*[:\-]?\s*$"
    # an identity card right before its number ("بطاقة الهوية رقم 3010521...", "ID card no. ...")
    r"|(?:\b(?:national\s+id|national\s+identity|identity|id)\s+card|شناختی\s*کارڈ|کارت\s*(?:ملی|شناسایی)"
    r"|بطاق[ةه]\s*(?:ال)?(?:هوي[ةه]|شخصي[ةه]|رقم\s*القومي))\s*(?:number|no\.?|nr\.?|#|رقم|نمبر|شماره)?\s*[:\-]?\s*$",
    re.IGNORECASE,
)
# Brands whose prefixes are shared with other numbers (Maestro's 50, 56-58, 63, 67).
_WEAK_BRAND = re.compile(r"5[06-8]|6[37]")
# What says, after a word like "order" or "invoice", that the number is paid with.
_PAID_WITH = re.compile(r"\b(?:paid|pay|charge[ds]?|refund(?:ed)?|gave\s+them|use)\b", re.IGNORECASE)


def has_card(text: str) -> bool:
    if not text.isascii():
        text = text.translate(_TO_ASCII_DIGITS)
    if "codes" in folded_words(text) and _CODES.search(text):
        return False  # a list of backup codes, whatever they add up to
    # "4532 7788 1290 4456 07/29": the expiry is not more digits of the number (nor "… 0927")
    text = _MMYY_AFTER.sub(" exp ", _EXPIRY.sub(r"\1exp ", text))
    longest = longest_number(text)
    if any(_card_at(text, m) for m in (_CARD_RE.finditer(text) if longest >= 12 else ())):
        return True
    return _card_in_pieces(text) or _card_in_halves(text) or (longest >= 13 and _airline_form_of_payment(text))


# An airline's or a travel agent's form of payment: the brand's two-letter code glued to the
# number ("FP CCVI4111111111111111/0926", '"cc":"AX349831675205395"'): Amex, Visa, Mastercard
# (CA, MC), Diners, JCB, Discover, UATP; brand and Luhn decide.
_FORM_OF_PAYMENT = re.compile(r"(?<![A-Za-z0-9])(?:CC)?(?:AX|VI|CA|MC|DC|JC|DS|TP)(\d{13,19})(?![\d])")


def _airline_form_of_payment(text: str) -> bool:
    return any(_brand(m.group(1)) and luhn_valid(m.group(1)) for m in _FORM_OF_PAYMENT.finditer(text))


# An identity's word before a number (South Africa's id is 13 digits with a Luhn check, as
# an old Visa is): the date of birth and the citizenship digit tell the id.
_ID_WORD_BEFORE = re.compile(r"\b(?:id|identity|identification|(?-i:RSA|SA)\s+id)\b[^\d\n]{0,30}$", re.IGNORECASE)


# A tax or registration number's word shortly before a number, no card's word with it (a
# person's ИНН of 12 digits has a Maestro prefix, a Saudi VAT number of 15 a Diners one).
_TAX_NUMBER_BEFORE = re.compile(
    r"(?:\b(?:инн|иин|бин|кпп|огрн\w*|снилс|inn|iin|tin|vat|gst(?:in)?|ust-?id\w*|nif|nipc|nip|cif|rfc|cuit|cuil"
    r"|npwp|ein|tax\s*(?:id|no|number|reg\w*)|vergi\s+(?:no|numaras[ıi])|steuer\w*|mwst|tva|iva|btw)\b"
    r"|الرقم\s*الضريبي|ضريب\w*|السجل\s*التجاري|سجل\s*تجاري|税号|纳税人识别号|統一編號|统一社会信用代码|사업자\s*등록\s*번호)"
    r"[^\d\n]{0,30}$",
    re.IGNORECASE,
)
# A card's expiry right after its number ("5522 8710 4439 1060 exp 11/26", "..., venc 12/26",
# "... gültig bis 03/28"): what only a payment card prints beside its number (has_card writes
# "exp " before a bare "09/27" first). Not a date with its day ("exp 2027-09-30" is a product's).
_EXPIRY_AFTER = re.compile(
    r"[\s,;.(]*(?:exp(?:iry|ires|iration)?|expira\w*|venc\w*|vto|val(?:id)?\s*(?:thru|through|until|till)|good\s+thru"
    r"|g[üu]ltig\s+bis|scad\w*|caduc\w*|срок(?:\s+действия)?|до|valable(?:\s+jusqu['’]?(?:au|à))?|geldig\s+(?:tot|t/m)"
    r"|wa[żz]n[ae]\s+do|son\s+kullanma(?:\s+tarihi)?|skt|h[ếe]t\s+h[ạa]n|有效期(?:至)?|有効期限|유효\s*기간|תוקף)"
    r"\.?\s*:?\s*(?:exp\s+)?(?:0[1-9]|1[0-2])\s*[/\-]\s*(?:20)?\d\d(?![\d/\-])",
    re.IGNORECASE,
)
# A card's brand named right after its number ("5018 7675 7259 0506 (Maestro)", "… — Visa").
_BRAND_AFTER = re.compile(
    r"\s*[(\-–—,]?\s*(?:visa|master\s*card|amex|american\s+express|maestro|discover|diners|jcb|unionpay|rupay"
    r"|elo|hipercard)\b",
    re.IGNORECASE,
)


def names_a_payment_card(text: str) -> bool:
    """Whether the text names a payment card or paying anywhere."""
    return bool(
        _CARD_WORD.search(text)
        or _PAID_WITH.search(text)
        or _PAYMENT_IN_LINE.search(text)
        or _CARD_INFLECTED.search(text)
    )


# A card's word with a case ending or an article fused to it ("plata cu cardul", "kartică").
_CARD_INFLECTED = re.compile(r"\b(?:card|kart|karta|tarjet|cart[ãa]o|carte)\w+|\bplat[aăi]\b", re.IGNORECASE)


def _paid_with(text: str, m: re.Match[str], before: str) -> bool:
    """Whether the text pays with the number ``m``: a card word or paying word before it (not
    another card's), its brand right after it, or its expiry right after it."""
    if _BRAND_AFTER.match(text, m.end()) or _EXPIRY_AFTER.match(text, m.end()):
        return True
    return bool(_CARD_WORD.search(before) or _PAID_WITH.search(before)) and not _OTHER_CARD.search(before)


def _south_african_id(text: str, m: re.Match[str], d: str) -> bool:
    """ "the South African ID of my gogo: 4405130097089": Luhn too, and a 13-digit Visa's shape."""
    if len(d) != 13 or not (1 <= int(d[2:4]) <= 12 and 1 <= int(d[4:6]) <= 31 and d[10] in "01"):
        return False
    before = text[max(0, m.start() - 40) : m.start()]
    return _ID_WORD_BEFORE.search(before) is not None and not (_CARD_WORD.search(before) or _PAID_WITH.search(before))


def _card_named_before(text: str, at: int) -> bool:
    """A payment card named earlier in the clause that an order's or booking's word is in."""
    line = text[max(0, text.rfind("\n", 0, at) + 1, at - 60) : at]
    return bool(_CARD_WORD.search(line)) and not _OTHER_CARD.search(line) and "." not in line.rstrip(". ")


# Numbers printed in another thing's groups, never a card's: Pakistan's CNIC (5-7-1), New
# Zealand's bank account (bank, branch, account, suffix: 2-4-7-2 or 3), the Emirates id (784-
# year-serial-check), Ukraine's УНЗР (a birth date, a dash, five digits).
_OTHER_FORM = re.compile(
    r"\d{5}([ \-])\d{7}\1\d|\d{2}([ \-])\d{4}\2\d{7}\2\d{2,3}|784([ \-])\d{4}\3\d{7}\3\d"
    r"|(?<!\d)(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])-\d{5}(?!\d)"
)
# A number named right after it as another thing's, or said to be no card ("… are the two
# meter numbers", "… is the serial number of the heat pump", "… n'est pas une carte, c'est
# le numéro de série"); not "… is my card, the serial number …" nor "… is not a card I use".
_NAMED_AFTER = re.compile(
    r"\s*(?:(?:is|are|was|were|=)\s+(?:just\s+|only\s+|actually\s+)?(?:the|my|our|a|an|his|her|their|its)?\s*"
    r"(?:(?!card|carte|tarjeta|karte)[\w'’]+\s+){0,3}?(?:serial|meter|tracking|order|invoice|imei|model|part|policy"
    r"|membership|loyalty|customer|booking|confirmation|ticket|phone|barcode|sku|product)\s*(?:numbers?|nos?\b|#|ids?)"
    r"|(?:,\s*)?(?:(?:is|was)\s+not|isn['’]t|n['’]est\s+pas|no\s+es|ist\s+keine?|não\s+é|non\s+è)\s+"
    r"(?:a|an|my|any|une?|una?|um|uma|eine?)?\s*(?:credit\s+|debit\s+|bank\s+|payment\s+)?"
    r"(?:card|carte|tarjeta|karte|kreditkarte|cart[ãa]o|carta)\b(?=\s*(?:[,.;:!)—–\-]|$))"
    r"|\s*(?:es|est|c['’]est|ist)\s+(?:el|le|la|die|der)\s+(?:n[úu]mero\s+de\s+serie|num[ée]ro\s+de\s+s[ée]rie"
    r"|seriennummer|z[äa]hlernummer|num[ée]ro\s+de\s+compteur|n[úu]mero\s+de\s+contador))",
    re.IGNORECASE,
)


def _another_number(text: str, m: re.Match[str], digits: str) -> bool:
    """Whether the number ``m`` is no card whatever its words: Luhn fails, an IBAN's tail, a
    South African id, another thing's printed form, or named another thing's right after it."""
    if not (len(set(digits)) > 1 and luhn_valid(digits)) or m.group().count("\n") > 1:
        return True
    if _tail_of_an_iban(text, m) or _south_african_id(text, m, digits):
        return True  # "GB24 MONZ 5703 4514 2473 61": the digits of an IBAN
    # "kiwibank 38-9012-0447512-00", "48219935 18190934 are the two meter numbers"
    return _OTHER_FORM.fullmatch(m.group()) is not None or _NAMED_AFTER.match(text, m.end()) is not None


def _card_at(text: str, m: re.Match[str]) -> bool:
    """Whether the number ``m`` found is a card: Luhn, a brand (or a card word before an
    unknown prefix), and no other card's, order's or account's label before it."""
    digits = re.sub(r"\D", "", m.group())
    if _another_number(text, m, digits):
        return False
    before = text[max(0, m.start() - 40) : m.start()]
    paid_with = _paid_with(text, m, before)
    named = (
        (paid_with and _CARD_WORD.search(before)) or _card_word_after(text, m) or _expiry_after_in_a_cards_line(text, m)
    )
    if not (_brand(digits) or (12 < len(digits) < 20 and named)):
        # an unknown prefix or length counts only after a card word ("카드번호 9410 ...",
        # "carta di credito: 5409 9169 2061 5977 550": ISO allows 19 digits to every brand) or
        # before its expiry, the card's word further back in its line ("tarjeta de la abuela
        # para la farmacia online: 3760 1145 2309 9813 vence 05/28")
        return False
    # (its words end at most ~50 characters before the number: a window, not the whole text before
    # it for each number, which made a text of many numbers each named an order's quadratic)
    not_a_card = NOT_A_CARD_BEFORE.search(text, max(0, m.start() - _BEFORE_REACH), m.start())
    if not_a_card and not paid_with and _card_named_before(text, not_a_card.start()):
        paid_with = True  # "the card for the conference booking: 5178 ..." pays for the booking
    if _OTHER_CARD_RIGHT_BEFORE.search(text, max(0, m.start() - 40), m.start()):
        return False
    if not paid_with and _TAX_NUMBER_BEFORE.search(before):
        return False  # "ИНН физлица: 500301826490", "الرقم الضريبي 300012345600003": a tax number
    if not_a_card and not paid_with:
        return False  # "order 4111 ..." is an order; "card on the purchase order: 6563 ..." is a card
    # a bank account that happens to pass Luhn ("IFSC HDFC0001234 account 50100123456789")
    # (of any brand's prefix when the account's branch is named: a card has no branch, "NIC Asia A/C
    # 4872 ..., Thamel branch", "खाता नं. ..., ठमेल शाखा")
    return not (
        _ACCOUNT_BEFORE.search(text, max(0, m.start() - 80), m.start())
        and (_WEAK_BRAND.match(digits) or _BRANCH_NAMED.search(text, max(0, m.start() - 80), m.end() + 80))
        and not _card_word_in(text)
    )


_BEFORE_REACH = 90


@lru_cache(maxsize=4)
def _card_word_in(text: str) -> bool:
    # (asked once per text, not once for each of its numbers)
    return _CARD_WORD.search(text) is not None


_BRANCH_NAMED = re.compile(r"\bbranch\b|शाखा|শাখা|ශාඛාව|கிளை|մասնաճյուղ|салбар|filial", re.IGNORECASE)


def _expiry_after_in_a_cards_line(text: str, m: re.Match[str]) -> bool:
    """An expiry right after the number, and a card's or a payment's word earlier in its line
    ("약값 결제: 9410 1288 3420 5514 유효기간 07/26"), or the card's security code after the expiry
    (a product's batch with its expiry, "batch 3760114523099813 expires 05/28", names no card)."""
    expiry = _EXPIRY_AFTER.match(text, m.end())
    if expiry is None:
        return False
    line = text[text.rfind("\n", 0, m.start()) + 1 : m.start()]
    if _OTHER_CARD.search(line):
        return False
    return bool(
        _CARD_WORD.search(line) or _PAYMENT_IN_LINE.search(line) or _SECURITY_CODE_AFTER.match(text, expiry.end())
    )


# A payment's word in the languages the filter reads (checkout pages and receipts print the
# card under it): 결제, 支付, 付款, 支払い, pago, pagamento, paiement, Zahlung, оплата, ödeme, thanh toán.
_PAYMENT_IN_LINE = re.compile(
    r"\b(?:payment|checkout|pago|pagamento|paiement|zahlung|betaling|płatno\w*|oplat\w*|оплат\w*|ödeme|thanh\s+to[áa]n)\b"
    r"|결제|결재|支付|付款|支払|お支払い|الدفع|دفع|پرداخت|ชำระ|भुगतान",
    re.IGNORECASE,
)
# The card's three or four digit security code right after its expiry ("... 08/27. 551", "07/26 cvv 123").
_SECURITY_CODE_AFTER = re.compile(r"[\s,;.]*(?:(?:cvv2?|cvc2?|csc|cid)\s*:?\s*)?\d{3,4}(?![\d/\-])", re.IGNORECASE)


# A card's word after its number, in its clause ("9860 1234 5678 9015 is my Humo card", "... é
# meu Hipercard", "4916 3385 0123 14 is the old visa"): a national scheme's prefix or a length
# the table does not hold; not a travel visa's number ("... is my visa application number").
_CLAUSE_END = re.compile(r"[.!?;\n]")
_VISA_THE_PERMIT = re.compile(
    r"visas?\s+(?:application|appointment|number|no|ref|reference|fee|status|type|sticker|stamp|sponsor\w*|renewal"
    r"|expiry|interview|process\w*|extension|category|holder|page|office|cent(?:re|er)|run|agent|approval|waiver"
    r"|on\s+arrival|requirements?|documents?|form|letter|photo|slot|invitation|transfer|cancel\w*)\b",
    re.I,
)
_AFTER_REACH = 40


def _card_word_after(text: str, m: re.Match[str]) -> bool:
    after = _CLAUSE_END.split(text[m.end() : m.end() + _AFTER_REACH], maxsplit=1)[0]
    word = _CARD_WORD.search(after)
    return word is not None and not _OTHER_CARD.search(after) and not _VISA_THE_PERMIT.match(after, word.start())


# An IBAN's country, check digits and first groups right before a run of digits.
_IBAN_HEAD = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]{2}\d{2}(?:[ \-]?[A-Za-z0-9]{1,4}){0,7}[ \-]?$")


def _tail_of_an_iban(text: str, m: re.Match[str]) -> bool:
    head = _IBAN_HEAD.search(text, max(0, m.start() - 40), m.start())
    return head is not None and iban_valid(re.sub(r"[ \-]", "", head.group() + m.group()))
