"""A one-time code named with the way it came (an SMS, an e-mail, an app) or what it is
given for (to collect a parcel, to release it), in several languages, where the code's word
alone says too little: "code de confirmation reçu par SMS : 512 407", "recebi o código 448 120
por SMS", "kód z SMS je 55 81 20", "the code from the email is K4T-9PX-22Q", "o token do
banco apareceu 551 902 no app", "the code to pick up my meds is 448 302", "code de retrait en
point relais est 558712". Such a code opens the account or the parcel it was sent for.

Not one: a code of an order, a booking or a parcel's tracking, a short number to text, a
time, a phone number, a version, a count of minutes or tries ("the SMS code arrived at
10:42", "text STOP to 88022", "booking confirmation code by email: KXR4P2")."""

from __future__ import annotations

import re

from engram.domain.sensitive.categories import word_spans
from engram.domain.sensitive.named_codes import OTHER_CODE

# The ways a code comes, as words (whole) of the text.
_CHANNEL_WORDS = frozenset(
    [
        *("sms", "email", "mail", "text", "texted", "texto", "mensagem", "mensaje", "messaggio", "nachricht"),
        *("whatsapp", "app", "appli", "aplicativo", "aplicación", "aplicacion", "applicazione", "aplikace"),
        *("aplikacji", "aplikacja", "apareceu", "recebi", "chegou", "reçu", "recu", "recibí", "recibi"),
        *("ricevuto", "erhalten", "bekommen", "dostałem", "dostałam", "přišel", "prisel", "received"),
        *("смс", "смски", "сообщения", "sms-ки"),
    ]
)
# Codes given to collect or release something (the word, then what it is for).
_FOR_COLLECTING = re.compile(
    r"(?<![\w])(?:(?:pick[\s\-]?up|collection|release|parcel|pharmacy|prescription)\s+code"
    r"|code\s+(?:(?:i['’]m|i\s+am|you['’]re|we['’]re)\s+(?:supposed|meant|told|asked)\s+to\s+give\s+(?:[\w']+\s+){0,2}?)?"
    r"(?:to|for)\s+(?:pick(?:ing)?\s+up|collect(?:ing)?|releas(?:e|ing)|retriev(?:e|ing)|claim(?:ing)?"
    # (or to approve or confirm what the account's owner does: a bank's or a service's one-time
    # code, "Your code to approve the new device is 40-19-38")
    r"|approv(?:e|ing)|confirm(?:ing)?|verify(?:ing)?|authori[sz](?:e|ing)|sign(?:ing)?\s+in|log(?:ging)?\s+in"
    r"|activat(?:e|ing)|unlock(?:ing)?|link(?:ing)?|add(?:ing)?\s+(?:a\s+|the\s+|your\s+)?(?:new\s+)?"
    r"(?:device|payee|beneficiary|card|phone))"
    r"|abholcode|abhol-?pin|code\s+de\s+retrait|c[óo]digo\s+de\s+(?:recogida|retirada|levantamento)|codice\s+(?:di\s+)?ritiro"
    r"|kod\s+odbioru|afhaalcode|ophaalcode|hämtningskod|hentekode|noutokoodi)(?![\w])",
    re.IGNORECASE,
)
_COLLECT_STEMS = frozenset(
    [
        *("pickup", "pick", "collection", "release", "parcel", "pharmacy", "prescription", "code", "abholcode"),
        *("abhol", "afhaalcode", "ophaalcode", "hämtningskod", "hentekode", "noutokoodi", "kod", "código"),
        *("codigo", "codice", "approve", "confirm", "verify", "authorise", "authorize", "activate", "unlock"),
    ]
)
# A code's word, alone or at the end of a compound ("inlogcode", "bevestigingscode", "sms-kód").
_CODE_WORD = re.compile(
    r"(?<![^\W\d_])[\w\-]*?(?:code|codes|c[óo]digo|codice|k[óo]d|kode|koodi|kood|token|otp|passcode|pin)(?![^\W\d_])"
    r"|(?<![^\W\d_])код(?:а|ом|ы)?(?![^\W\d_])"
    r"|验证码|驗證碼|인증\s*번호|認証コード",
    re.IGNORECASE,
)
# What makes a code's word another code's: an order's, a booking's, a parcel's tracking, ...
_ANOTHER_CODE = re.compile(
    r"(?<![\w])(?:order|booking|reservation|flight|ticket|tracking|track|promo|promotional|discount|coupon|voucher"
    r"|gift|referral|invite|invitation|short|postal|post(?!\s+office)|zip|area|country|error|status|version|build|qr|bar|tax"
    r"|commande|r[ée]servation|suivi|pedido|reserva|encomenda|rastreio|seguimiento|ordine|prenotazione|bestell\w*"
    r"|buchung\w*|sendungs\w*|rabatt\w*|gutschein\w*|descuento|cup[óo]n|r[ée]duction|sconto|korting\w*|unsubscribe"
    r"|stop|invoice|factura|facture|fattura|rechnung|member(?:ship)?|loyalty|customer|client|account"
    # a program's code, a billing's or a diagnosis's code, a message's template or campaign, a
    # failure's or a response's status ("SMS delivery failed with code 30007", "source code",
    # "code review", "Billing code 99213 per the email"), also fused ("versionCode", "statusCode")
    r"|source|review|billing|procedure|diagnos[ie]s|diagnostic|icd|cpt|template|campaign|exit|return(?:ed|s)?"
    r"|response|reason|fail(?:ed|s|ure)?|bounced?|rejected|undelivered"
    # (and in other languages: "o SMS falhou com código de erro 30007", "Fehlercode 30007")
    r"|erro|erreur|errore|fehler|falhou|fall[óo]|[ée]chou[ée]|fehlgeschlagen|fallito|mislukt"
    # (and in Russian: an error's, an order's, a booking's, a promotion's, a tracking code)
    r"|ошибк\w*|заказ\w*|брон\w*|промо\w*|скидк\w*|купон\w*|отслеживани\w*|трек\w*|статус\w*)(?:(?![\w])|(?=code))",
    re.IGNORECASE,
)
# A one-time code's value: 4-8 digits, two groups of three, three of two, or groups of capitals
# and digits ("K4T-9PX-22Q", "7XK2P9") holding three digits or more.
_VALUE = re.compile(
    r"(?<![\w+:/.,#@*\-])(?:\d{4,8}|\d{3}[ \-]\d{3}|\d\d \d\d \d\d|\d{3} \d{3}"
    r"|(?=(?:[A-Z\-]*\d){3})(?=[\d\-]*[A-Z])[A-Z\d]{3,4}(?:-[A-Z\d]{3,4}){1,3}|(?=(?:[A-Z]*\d){3})(?=\d*[A-Z])[A-Z\d]{6,8})"
    r"(?![\w/:@]|[.,]\d|[ \-]\d)"
    r"(?!\s*(?:%|€|\$|£|sec\w*|min\w*|hours?|heures?|horas?|ore|stunden?|days?|jours?|d[íi]as?|times|digits|tries"
    r"|attempts|fois|veces|vezes|volte|mal|x"
    # (a count: "the app's source code has 12000 lines")
    r"|lines?|rows?|files?|messages?|users?|customers?|people|items?|records?|texts?|emails?|patients?|requests?)(?![\w]))"
)
_BEFORE_NOT_A_CODE = re.compile(
    r"(?:(?<![\w])(?:at|um|à|às|a\s+las|alle|om|since|seit|depuis|desde|v|version|versão|versión|build|in|after"
    r"|nach|après|después|depois|dopo|to|no|nr|n°|tel|phone|telefone|teléfono|number|nummer|numéro|número"
    r"|pr|issue|line|section|page|room|ext|(?:no|nr|n°)\.)\s*|[+#№])$",
    re.IGNORECASE,
)
# A place's number before the code's word: where the parcel or the guest is, the code coming
# apart ("Your parcel is in locker 4471, code sent by SMS", "paczkomacie WAW118M, kod odbioru w
# aplikacji"). (After the code's word it may be the code: "kod odbioru z paczkomatu 638 204".)
_PLACE_BEFORE = re.compile(
    r"(?<![\w])(?:locker|casier|kluis|schlie(?:ß|ss)fach|packstation|paczkoma\w*|cabin|chalet|flat|apartment|apt"
    r"|unit|plot)\s*$",
    re.IGNORECASE,
)
_PART_OF_A_NUMBER = re.compile(r"\d[ \-]?$")
# (not "no." nor "nr.": "flat 4B at no. 2281, code sent by WhatsApp" is one clause)
_CLAUSE_END = re.compile(r"[\n;。！？!?]|(?<!\b[Nn][or])[.](?:\s|$)")
_REACH = 90
# "448120 is your code", "551 204 — o código", "20481 de inlogcode"
_JUST_BEFORE = re.compile(
    r"[\s,:\-–—]*(?:(?:is|was|es|est|é|è|ist|är|er|c['’]est|to|je)\s+)?"
    r"(?:(?:your|the|my|o|a|le|la|el|il|de|het|dein|ihr|votre|ton|tu|su|seu|mi|twój|tw[óo]j)\s+)?",
    re.IGNORECASE,
)


# A code a prompt asked for and someone passed on: a card's 3-D Secure check, a bank's or a
# service's one-time code ('3DS popup says "Enter the code we sent to +1 ••• 4410". user pasted
# 582 913 into chat'), given by a verb that passes a code on, in the prompt's message.
_PROMPT = re.compile(
    r"(?<![\w])(?:3-?d\s*secure|3ds|verified\s+by\s+visa|secure\s?code|safekey|id\s+check|one[\s\-]time\s+(?:code|password"
    r"|passcode)|otp|verification\s+code|code\s+(?:we|they|it)\s+(?:just\s+)?sent|sent\s+(?:you\s+|me\s+)?a\s+code)(?![\w])",
    re.IGNORECASE,
)
_PASSED_ON = re.compile(
    r"(?<![\w])(?:pasted|typed|entered|gave|read\s+(?:out|back)|forwarded|dictated)\s+(?:me\s+|us\s+|in\s+)?"
    r"(?:the\s+code\s+|code\s+|it\s*[:\-]?\s*)?(?P<value>\d{3}[ \-]\d{3}|\d{4,8})(?![\w\-]|[.,]\d)",
    re.IGNORECASE,
)
_PROMPT_REACH = 300
# What says the number typed is another thing's: what it was typed as or into, or what it counts
# ("entered 2500 as the transfer amount", "typed 1200 in the amount field", "entered 1850 orders").
_ANOTHER_THING_AFTER = re.compile(
    r"\s+(?:as\s+(?:the|my|a|an|our|their|his|her)\s|in(?:to)?\s+(?:the|my)\s+(?:[^\W\d_]+\s+){0,2}?"
    r"(?:amount|price|total|sum|quantity|qty|year|date|phone|tip|postcode|zip)\b"
    r"|(?:orders?|units?|pieces?|points?|steps?|words?|characters?|calories|kcal|euros?|dollars?|pounds?|rupees?"
    r"|pesos?|reais|yen|km|miles?|kg|lbs?)\b)",
    re.IGNORECASE,
)
# Spain's Cl@ve PIN: three letters and digits sent by SMS ("cl@ve PIN ... por SMS: JX4").
_CLAVE_PIN = re.compile(r"cl@ve\s*pin\b[^\n]{0,80}?[:：]\s*(?P<value>(?=[A-Za-z]*\d)[A-Za-z\d]{3})(?![\w])", re.I)
_PASSED_STEMS = frozenset(["pasted", "typed", "entered", "gave", "read", "forwarded", "dictated"])


def sent_code(text: str, words: frozenset[str]) -> bool:
    """A one-time code named with the way it came or what it is given for."""
    if words & _CHANNEL_WORDS and _came_by(text):
        return True
    if words & _PASSED_STEMS and _passed_on_after_a_prompt(text):
        return True
    return bool(words & _COLLECT_STEMS and _for_collecting(text))


def clave_pin(text: str) -> bool:
    return "cl@ve" in text.lower() and _CLAVE_PIN.search(text) is not None


def _passed_on_after_a_prompt(text: str) -> bool:
    for m in _PASSED_ON.finditer(text):
        value = _VALUE.match(text, m.start("value"))
        if value is None or _PROMPT.search(text, max(0, m.start() - _PROMPT_REACH), m.start()) is None:
            continue
        if _ANOTHER_THING_AFTER.match(text, value.end()):
            continue
        if _a_value(text, value):
            return True
    return False


def _came_by(text: str) -> bool:
    read_to = -1
    for at, end, _ in word_spans(text, _CHANNEL_WORDS.__contains__):
        if at < read_to:
            continue  # (read with the clause of the one before: a long run of such words stays cheap)
        clause = _clause(text, at, end)
        read_to = end + len(clause)
        words = [w.span() for w in _CODE_WORD.finditer(clause)]
        if not words:
            continue
        # the value follows its word, or comes just before it ("448120 is the code"); a number
        # further before is something else's ("unit 8842 ... (the code is on the app)")
        for m in _VALUE.finditer(clause):
            named = [end for start, end in words if end <= m.start() or _JUST_BEFORE.fullmatch(clause, m.end(), start)]
            # another code's word up to the value and its code's word makes it that code ("the
            # booking code from the email: KXR4P2"); one after both is what came next ("I read
            # them the code from the SMS, it was 592 014, and now there's a new payee on my account")
            upto = max(m.end(), *named) if named else 0
            if min(named, default=0) > m.start() and _PLACE_BEFORE.search(clause, max(0, m.start() - 14), m.start()):
                continue
            if named and _ANOTHER_CODE.search(clause, 0, upto) is None and _a_value(clause, m):
                return True
    return False


def _for_collecting(text: str) -> bool:
    read_to = -1
    for m in _FOR_COLLECTING.finditer(text):
        if m.start() < read_to:
            continue
        read_to = m.end() + _REACH
        rest = text[m.end() : m.end() + _REACH]
        end = _CLAUSE_END.search(rest)
        clause = rest if end is None else rest[: end.start()]
        if _ANOTHER_CODE.search(clause.split(",")[0]) is not None:
            continue
        if OTHER_CODE.search(text, max(0, m.start() - 24), m.start()) is not None:
            continue  # ("sort code to confirm the payee is 40-19-38": a bank's branch code)
        if any(_a_value(clause, v) for v in _VALUE.finditer(clause)) or _PAIRS.search(clause):
            return True
    return False


# (three pairs of digits set apart by dashes, as a bank's message prints its code: "40-19-38";
# read only after a code named for what it is given for, where it is no sort code)
_PAIRS = re.compile(r"(?<![\w\-])\d\d-\d\d-\d\d(?![\w\-])")


def _clause(text: str, at: int, end: int) -> str:
    """The clause around a channel's word, at most ``_REACH`` characters either side (the code's
    word, the way it came and the value are said together)."""
    before = text[max(0, at - _REACH) : at]
    after = text[end : end + _REACH]
    cut = max((m.end() for m in _CLAUSE_END.finditer(before)), default=0)
    stop = _CLAUSE_END.search(after)
    return before[cut:] + text[at:end] + (after if stop is None else after[: stop.start()])


def _a_value(clause: str, m: re.Match[str]) -> bool:
    value = m.group()
    if len(set(value) - {" ", "-", "0"}) <= 1:
        return False  # "0000", "1111": a placeholder
    if re.fullmatch(r"(?:19|20)\d\d(?:[QH][1-4])?", value):
        return False  # a year, or its quarter ("2024Q3")
    if _PART_OF_A_NUMBER.search(clause, max(0, m.start() - 2), m.start()):
        return False  # the end of a phone number ("texted to +44 7700 900123")
    return _BEFORE_NOT_A_CODE.search(clause, max(0, m.start() - 12), m.start()) is None
