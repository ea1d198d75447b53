"""Lists and runs of numbers for training the learned stage: the ones that are no code, and,
matched with them, the ones that are a set of codes (training only, never scored).

Session 20d's retrain with held-out K learned that a list of four-digit numbers is a code: K
holds many lists of door, gate and backup codes and almost no list of numbers that open
nothing, so the shape ("<d4> , <d4> and <d4>") carried the weight, and the look-alikes of
tests/unit/test_sensitive_reading_view.py (flights, room numbers, a spoken total) were
refused. These families are written by hand (not from the filter's patterns, from any corpus
part nor in those tests' words, so the tests still say whether it generalises): the same shapes of list in both, so only the words around the list
(what the numbers are of) tell a code from a flight, and in several languages, so a word the
model has not seen weighs less than the list's own words.
"""

from __future__ import annotations

import random

# ---- numbers -------------------------------------------------------------------------------

_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_UNITS = ("", "-one", "-two", "-three", "-four", "-five", "-six", "-seven", "-eight", "-nine")


def _n(r: random.Random, digits: int = 4) -> str:
    first = str(r.randint(1, 9))
    return first + "".join(str(r.randint(0, 9)) for _ in range(digits - 1))


def _spoken_pair(r: random.Random) -> str:
    """A price or total said as two pairs ("forty-three sixty-six"), as a voice note gives it."""
    return f"{r.choice(_TENS)}{r.choice(_UNITS)} {r.choice(_TENS)}{r.choice(_UNITS)}"


def _joined(items: list[str], r: random.Random, conj: str = "and") -> str:
    """A list as people write it: commas and a last word, commas only, slashes, semicolons."""
    style = r.randrange(5)
    if style == 0 and conj:
        return ", ".join(items[:-1]) + f" {conj} {items[-1]}"
    if style == 1:
        return ", ".join(items)
    if style == 2:
        return " / ".join(items)
    if style == 3:
        return "; ".join(items)
    return " ".join(items)


def _numbers(r: random.Random, kind: str) -> list[str]:
    count = r.randint(3, 6)
    if kind == "year":
        return [str(r.randint(1890, 2035)) for _ in range(count)]
    if kind == "time":
        return [
            f"{r.randint(5, 23):02d}{r.choice(('00', '10', '15', '20', '30', '40', '45', '50'))}" for _ in range(count)
        ]
    if kind == "clock":
        return [
            f"{r.randint(5, 23)}:{r.choice(('00', '10', '15', '20', '30', '40', '45', '50'))}" for _ in range(count)
        ]
    if kind == "price":
        return [f"{r.randint(2, 4999)}.{r.randint(0, 99):02d}" for _ in range(count)]
    if kind == "small":
        return [str(r.randint(1, 999)) for _ in range(count)]
    digits = r.choice((3, 4, 4, 4, 4, 5))  # one length a list, as a list of flights or rooms is
    return [_n(r, digits) for _ in range(count)]


# ---- lists that are no code -----------------------------------------------------------------

# (template, kind of numbers, the language's "and"); {L} is the list.
_NOT_CODES: tuple[tuple[str, str, str], ...] = (
    # English: travel, rooms, money, sport, measures, years, pages, timetables
    ("our flights {L} boarded late", "n", "and"),
    ("get-well card for Sam; flights {L} got cancelled by the storm", "n", "and"),
    ("flights {L} leave from terminal 2, check the board", "n", "and"),
    ("quiz nights in {L} (those are the room numbers)", "n", "and"),
    ("we got rooms {L}, all on the twelfth floor", "n", "and"),
    ("the conference rooms are {L}", "n", "and"),
    ("hotel rooms {L} need towels", "n", "and"),
    ("monthly totals: {L}", "n", "and"),
    ("sales per quarter were {L} units", "n", "and"),
    ("the invoices came to {L} euros", "price", "and"),
    ("prices this week: {L} dollars", "price", "and"),
    ("bowling scores {L}, best night yet", "small", "and"),
    ("she scored {L} over the four rounds", "n", "and"),
    ("the high scores on the arcade machine are {L}", "n", "and"),
    ("steps per day this week: {L}", "n", "and"),
    ("the meter read {L} over the last months (kWh)", "n", "and"),
    ("elevations of the passes: {L} metres", "n", "and"),
    ("the boxes weigh {L} grams", "n", "and"),
    ("we visited in {L}", "year", "and"),
    ("key years for the essay: {L}", "year", "and"),
    ("the house was extended in {L}", "year", "and"),
    ("read pages {L} for Monday", "small", "and"),
    ("see pages {L} of the manual", "n", "and"),
    ("hymns {L} for Sunday's service", "small", "and"),
    ("buses leave at {L} on weekdays", "time", "and"),
    ("trains to Leeds at {L}", "clock", "and"),
    ("the timetable: {L}, then every half hour", "time", "and"),
    ("platforms {L} are closed for works", "small", "and"),
    ("bus routes {L} stop outside the school", "small", "and"),
    ("seats {L} in row F", "small", "and"),
    ("bib numbers for the team: {L}", "n", "and"),
    ("order quantities {L} for the next batch", "n", "and"),
    ("error codes {L} keep showing on the printer", "n", "and"),
    ("area codes {L} are all Bay Area", "small", "and"),
    ("postcodes {L} get next-day delivery", "n", "and"),
    ("ZIP codes {L} are in our delivery zone", "n", "and"),
    ("course codes {L} for next term", "n", "and"),
    ("product codes {L} are discontinued", "n", "and"),
    ("report card: attendance {L} days over the terms", "small", "and"),
    ("the kids' bingo card numbers were {L}", "small", "and"),
    ("pins {L} on the header are ground", "small", "and"),
    ("invoice numbers {L} are still unpaid", "n", "and"),
    ("the marathon finish times were {L}", "clock", "and"),
    ("ticket numbers {L} won the raffle", "n", "and"),
    ("odometer: {L} km at each service", "n", "and"),
    ("blood sugar readings {L} this week", "small", "and"),
    ("lottery numbers this week: {L}", "small", "and"),
    ("model numbers {L} all fit the same filter", "n", "and"),
    ("the gate numbers for our flights are {L}", "small", "and"),
    ("door numbers {L} on this side of the street", "small", "and"),
    # French
    ("les vols {L} ont tous été retardés", "n", "et"),
    ("chambres {L} réservées pour le séminaire", "n", "et"),
    ("lire les pages {L} pour lundi", "small", "et"),
    ("les totaux du mois : {L} €", "price", "et"),
    ("les bus partent à {L}", "clock", "et"),
    ("nous y sommes allés en {L}", "year", "et"),
    ("codes postaux {L} livrés demain", "n", "et"),
    # German
    ("die Flüge {L} hatten alle Verspätung", "n", "und"),
    ("Zimmer {L} sind für die Tagung reserviert", "n", "und"),
    ("bitte Seiten {L} lesen", "small", "und"),
    ("Umsätze pro Quartal: {L} Euro", "n", "und"),
    ("Abfahrt um {L} Uhr", "clock", "und"),
    ("Postleitzahlen {L} werden morgen beliefert", "n", "und"),
    ("Zählerstände {L} kWh", "n", "und"),
    # Spanish
    ("los vuelos {L} salieron con retraso", "n", "y"),
    ("habitaciones {L} para el congreso", "n", "y"),
    ("leer las páginas {L} para el lunes", "small", "y"),
    ("los totales fueron {L} euros", "price", "y"),
    ("los autobuses salen a las {L}", "clock", "y"),
    ("estuvimos allí en {L}", "year", "y"),
    # Dutch
    ("de vluchten {L} hadden allemaal vertraging", "n", "en"),
    ("kamers {L} zijn gereserveerd", "n", "en"),
    ("bladzijden {L} lezen voor maandag", "small", "en"),
    ("postcodes {L} worden morgen bezorgd", "n", "en"),
    # Italian
    ("i voli {L} erano tutti in ritardo", "n", "e"),
    ("camere {L} prenotate per il convegno", "n", "e"),
    ("pagine {L} da leggere", "small", "e"),
    ("i punteggi sono stati {L}", "small", "e"),
    # Portuguese
    ("os voos {L} atrasaram todos", "n", "e"),
    ("quartos {L} reservados", "n", "e"),
    ("os totais foram {L} reais", "price", "e"),
    # Polish, Swedish
    ("loty {L} były opóźnione", "n", "i"),
    ("pokoje {L} są zarezerwowane", "n", "i"),
    ("strony {L} na poniedziałek", "small", "i"),
    ("flygen {L} var alla försenade", "n", "och"),
    ("rum {L} är bokade för konferensen", "n", "och"),
    # Japanese, Chinese (no "and" word: a list with commas)
    ("便 {L} はすべて遅延しました", "n", ""),
    ("会議室は {L} です", "n", ""),
    ("{L} ページを読んでおいて", "small", ""),
    ("航班 {L} 都延误了", "n", ""),
    ("房间 {L} 已经订好了", "n", ""),
    ("第 {L} 页要复习", "small", ""),
)

# Totals and prices said aloud (the reading view turns "forty-three sixty-six" into digits).
_SPOKEN_NOT_CODES = (
    "the bill was {a} for the train and {b} for the hotel",
    "it came to {a} at the shop and {b} at the chemist",
    "the deposit is {a}, the rest {b} on arrival",
    "return fares were {a} and {b}",
    "he ran it in {a} and then {b}",
)


def number_lists_not_codes(r: random.Random) -> list[tuple[str, str]]:
    """Lists of numbers of a code's shape that open nothing: flights, rooms, totals, scores,
    measures, years, pages, prices, timetables, and codes that grant nothing (postcodes,
    error codes, course codes), in several languages. Negatives: (key, text)."""
    rows: list[tuple[str, str]] = []
    for _ in range(3):
        for template, kind, conj in _NOT_CODES:
            rows.append(("", template.format(L=_joined(_numbers(r, kind), r, conj))))
    for _ in range(40):
        rows.append(("", r.choice(_SPOKEN_NOT_CODES).format(a=_spoken_pair(r), b=_spoken_pair(r))))
    # a list under a memory key that names what the numbers are of
    keys = ("flights", "rooms", "scores", "page_numbers", "bus_times", "totals", "years", "hymns", "seat_numbers")
    for _ in range(40):
        key = r.choice(keys)
        kind = {"bus_times": "time", "years": "year", "totals": "price"}.get(key, "n")
        rows.append((key, _joined(_numbers(r, kind), r)))
    return rows


# ---- lists that are codes --------------------------------------------------------------------

_PLACES = {
    "en": ("front door", "back door", "garage", "side gate", "shed", "office", "storeroom", "cellar"),
    "fr": ("porte d'entrée", "cave", "garage", "portail", "local vélos"),
    "de": ("Haustür", "Keller", "Garage", "Hoftor", "Büro"),
    "es": ("portal", "garaje", "trastero", "puerta trasera", "oficina"),
    "nl": ("voordeur", "achterdeur", "garage", "schuur", "kelder"),
    "it": ("portone", "cantina", "garage", "cancello"),
    "pl": ("drzwi wejściowe", "piwnica", "garaż", "brama"),
    "ja": ("玄関", "裏口", "倉庫", "車庫"),
    "zh": ("前门", "后门", "车库", "仓库"),
}
# (template, language); {L} a list of codes, {P} codes per door or place.
_CODES: tuple[tuple[str, str], ...] = (
    ("backup codes: {L}", "en"),
    ("my 2FA backup codes are {L}, each works once", "en"),
    ("recovery codes for the work account: {L}", "en"),
    ("door codes: {P}", "en"),
    ("the codes for the doors are {P}", "en"),
    ("gate codes for the three buildings: {P}", "en"),
    ("alarm codes: {P}", "en"),
    ("lockbox codes per property: {P}", "en"),
    ("PINs: {P}", "en"),
    ("keypad codes for the cleaners: {P}", "en"),
    ("codes de secours : {L}", "fr"),
    ("codes des portes : {P}", "fr"),
    ("Backup-Codes: {L}", "de"),
    ("Türcodes: {P}", "de"),
    ("códigos de respaldo: {L}", "es"),
    ("códigos de las puertas: {P}", "es"),
    ("herstelcodes: {L}", "nl"),
    ("deurcodes: {P}", "nl"),
    ("codici di backup: {L}", "it"),
    ("codici delle porte: {P}", "it"),
    ("kody zapasowe: {L}", "pl"),
    ("kody do drzwi: {P}", "pl"),
    ("バックアップコード: {L}", "ja"),
    ("暗証番号: {P}", "ja"),
    ("备用验证码：{L}", "zh"),
    ("门禁密码：{P}", "zh"),
)
_PIN_THINGS = ("debit card", "credit card", "SIM", "voicemail", "phone", "safe")


def code_lists(r: random.Random) -> list[tuple[str, str]]:
    """The matched positives: the same shapes of list, where the words say they are codes
    (backup and recovery codes, a code per door, a PIN per card). (label, text)."""
    rows: list[tuple[str, str]] = []
    for _ in range(6):
        for template, lang in _CODES:
            digits = r.choice((4, 4, 5, 6, 8))  # a set of backup codes is of one length
            codes = [_n(r, digits) for _ in range(r.randint(3, 6))]
            if lang == "en" and "PIN" in template:
                things = r.sample(_PIN_THINGS, 3)
            else:
                things = r.sample(_PLACES[lang], min(3, len(_PLACES[lang])))
            per = [f"{t} {_n(r, r.choice((4, 4, 5, 6)))}" for t in things]
            rows.append(("secret", template.format(L=_joined(codes, r, ""), P=", ".join(per))))
    return rows


# ---- what the redaction leaves, and keys pressed that open nothing ---------------------------

_REDACTED_CLAUSES = (
    "the wifi password is [redacted]",
    "the door code for the {place} is [redacted]",
    "the prod db password is [redacted]",
    "PIN [redacted]",
    "alarm code: [redacted]",
    "my bank login is [redacted] / [redacted]",
    "the gate code is [redacted]#",
    "api key [redacted] goes in the .env",
    "backup codes: [redacted], [redacted], [redacted]",
    "le code de la porte est [redacted]",
    "das WLAN-Passwort ist [redacted]",
    "la contraseña es [redacted]",
    "de pincode is [redacted]",
    "暗証番号は [redacted] です",
)
_PLAIN_CLAUSES = (
    "the build cache was cleared",
    "the wifi on the {n}th floor drops out sometimes",
    "the card reader at reception is slow",
    "standup is at 9:30 on mondays",
    "the plumber comes on {day}",
    "the cat has been fed",
    "bins go out {day} night",
    "parking is in bay {n}",
    "the router is behind the TV",
    "keys are with the neighbour at number {n}",
    "the heating comes on at 6",
    "call {name} if the alarm goes off",
    "the lift to the {place} is out of order",
)


def redacted_remainders(r: random.Random) -> list[tuple[str, str]]:
    """What the redaction leaves of a message: every value a rule found is "[redacted]", the
    words naming them and everyday clauses stay. The filter reads that remainder again (a
    stored message, a redaction checking its own result), and it holds nothing. A model that
    weighs the words "wifi", "door code" and "password" alone refused it (21d's first retrain
    with K and L: tests/unit/test_sensitive_redaction.py, several secrets in one clause; its
    words are not copied here)."""
    places = ("plant room", "bike store", "back office", "cellar", "side entrance", "gym")
    days = ("Monday", "Tuesday", "Thursday", "Friday")
    names = ("Priya", "Tom", "Ines", "Kofi")
    rows: list[tuple[str, str]] = []
    for _ in range(200):
        v = {"place": r.choice(places), "day": r.choice(days), "name": r.choice(names), "n": r.randint(2, 9)}
        parts = r.sample(_REDACTED_CLAUSES, r.randint(1, 3)) + r.sample(_PLAIN_CLAUSES, r.randint(1, 5))
        r.shuffle(parts)
        sep = r.choice((" and ", ". ", ", ", "\n", " "))
        text = sep.join(p.format(**v) for p in parts)
        if r.random() < 0.3:
            text += " " + " ".join([r.choice(_PLAIN_CLAUSES).format(**v)] * r.randint(2, 8))
        rows.append(("", text))
    return rows


_KEYPAD_NOT_CODES = (
    "with Num Lock off, {s} on the number pad move the cursor",
    "on the numpad {s} are down, left, right and up",
    "press {s} on the remote to get the sports channel",
    "for billing press {a}, then {b}, then hash",
    "the phone menu: press {a} for English, then {b} for appointments",
    "type {s} into the calculator and divide by 12",
    "microwave: press {s} then start, it's 3 minutes",
    "in the lift press {a} for the car park and {b} for reception",
    "the cheat code in the game is up, up, down, down, then {s}",
    "keyboard shortcut: Ctrl+{a} switches to tab {a}",
    "on the TV remote {s} is the guide channel",
    "the vending machine code for crisps is {v}",
    "dial {a} for an outside line, then the number",
    "the keypad on the printer: enter {s} copies then green",
    "Num Lock aus, dann sind {s} auf dem Ziffernblock Pfeiltasten",
    "appuyez sur {a} puis {b} pour le service client",
    "pulse {a} y luego {b} para hablar con un agente",
    "テンキーの {s} は矢印キーになります",
)


# A number pad's keys with Num Lock off: 8, 4, 6 and 2 are the arrows, 7 and 1 home and end, 9
# and 3 page up and down. Any text about them holds those digits, in some order.
_NUMPAD = (
    "with Num Lock off the number pad keys {s} are the arrow keys",
    "on a laptop without arrows, use {s} on the numeric keypad (Num Lock off)",
    "the numpad's {s} move the character, 5 jumps",
    "in the old game you steer with {s} on the keypad",
    "NumLock off: {s} act as arrows, {h} as home and end",
    "Ziffernblock ohne NumLock: {s} sind die Pfeiltasten",
    "pavé numérique, verr num désactivé : {s} servent de flèches",
    "teclado numérico sin Bloq Num: {s} son las flechas",
)


def keypad_digits_not_codes(r: random.Random) -> list[tuple[str, str]]:
    """Digits pressed on a keypad, a remote, a phone menu or a calculator that open nothing:
    a numpad's arrow keys, a menu's choices, a channel, a vending machine's slot (rv7's "the
    arrow keys are 8 4 6 2 on the keypad" was refused by 21d's first retrain with K and L; its
    words are not copied here)."""
    rows: list[tuple[str, str]] = []
    for _ in range(6):
        for template in _KEYPAD_NOT_CODES:
            digits = [str(r.randint(0, 9)) for _ in range(r.randint(2, 5))]
            s = r.choice((" ".join(digits), ", ".join(digits), "".join(digits)))
            v = f"{r.choice('ABCDEF')}{r.randint(1, 9)}"
            rows.append(("", template.format(s=s, a=r.randint(1, 9), b=r.randint(0, 9), v=v)))
    for _ in range(10):
        for template in _NUMPAD:
            arrows = r.sample("8462", 4)
            s = r.choice((" ".join(arrows), ", ".join(arrows), "".join(arrows), "/".join(arrows)))
            rows.append(("", template.format(s=s, h=r.choice(("7 and 1", "7/1", "7, 1")))))
    return rows
