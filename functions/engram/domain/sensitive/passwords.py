"""Secrets named by a word: a password or credential after the word that names it (or
before it: "rex99 is my pin"). Login pairs after their word are in ``login_pairs``, access
codes after theirs in ``named_codes``; CJK password words with no space before the value are
in ``cjk_passwords``."""

from __future__ import annotations

import re

from engram.domain.sensitive import password_mentions as mentions
from engram.domain.sensitive.categories import WORDS
from engram.domain.sensitive.credential_pairs import password_set_to
from engram.domain.sensitive.further_values import COPULAS, MAIL_ADDRESS, value_further_on
from engram.domain.sensitive.login_pairs import FILE_NAME, named_pair
from engram.domain.sensitive.named_codes import named_code, pin_dash_postal
from engram.domain.sensitive.password_kinds import PASSWORD_RES as _PASSWORD_RES
from engram.domain.sensitive.password_mentions import FIGURATIVE_KEY, no_value_in_code, no_value_said, reads_code
from engram.domain.sensitive.password_talk import described, negated, placed, quoted_value, said_changed
from engram.domain.sensitive.prefilter import keyed
from engram.domain.sensitive.secret_settings import ticket_pass_before
from engram.domain.sensitive.secret_values import MASKED, PLACEHOLDER, credential_like, pointer, quoted_pointer
from engram.domain.sensitive.secret_words import (
    AROUND_STEMS,
    COPULA,
    CREDENTIAL_STEMS,
    CREDENTIAL_WORD,
    FAR_GAP_META,
    FILLER,
    NETWORK_NAMED,
    NOT_A_VALUE,
    PASSWORD_STEMS,
    PASSWORD_WORD,
    WHERE_IT_IS,
)
from engram.domain.sensitive.security_answers import QUESTION_STEMS, no_answer_given, security_answer

_CREDENTIAL_RES = (
    re.compile(
        CREDENTIAL_WORD
        + FILLER
        # (a word copula stands alone: "per" ends in "er", "chiave API di Aruba per il DNS: ...";
        # a colon between digits is a time's: "token for user 8812 expired at 2026-11-22T23:59:59Z")
        + r"\s*(?:(?<![\w'’.\-])(?:is|was|ist|est|es|é|è|är|er|je|jest|это|είναι|là|adalah)(?![\w])"
        + r"|=|(?<!\d):|:(?!\d))\s*(?P<value>\S+)",
        re.IGNORECASE,
    ),
    re.compile(CREDENTIAL_WORD + r"[ \t]+(?P<value>[^\s:]++)(?!:)", re.IGNORECASE),
)


_QUOTED = re.compile(r"""^["'“‘`«„]([^"'”’`»“]{3,})["'”’`»“]""")


# A wallet's seed: words, maybe quoted or numbered.
_SEED_WORDS = re.compile(r"[\"'“‘]?(?:\d{1,2}[.)]\s*)?[a-z]{3,8}[\s,]+(?:\d{1,2}[.)]\s*)?[a-z]{3,8}\b")


def _password(text: str) -> bool:
    return any(_password_value(text, m) for r in _PASSWORD_RES for m in r.finditer(text))


_REST_REACH = 600


def _a_numeric_seed(m: re.Match[str], rest: str) -> bool:
    """ "--seed 42", "random seed 1234": a seed of numbers; a wallet's seed is words."""
    return m.group().lower().startswith("seed") and not _SEED_WORDS.match(rest)


def _named_with_no_value(text: str, m: re.Match[str], rest: str) -> bool:
    return no_value_in_code(m, rest) or FIGURATIVE_KEY.search(m.group()) is not None or negated(text, m)


def _password_value(text: str, m: re.Match[str]) -> bool:
    # (what follows is read a few words on, never to the end: a long message of many
    # password words split all the rest again at each of them, 23 s at 96,000 characters)
    rest = text[m.end() : m.end() + _REST_REACH]
    if "@" in rest:
        # (an address's dots end no clause: "das Passwort für buchhaltung@firma.de ist ...")
        rest = MAIL_ADDRESS.sub("mailbox", rest)
    if _named_with_no_value(text, m, rest):
        return False  # (... or "oma heeft geen wachtwoord meer bij MijnGezondheid.net": there is none to give)
    rest = mentions.after_a_bare_separator(rest)  # ("password is: [TEMP_PASSWORD]": the value follows the colon)
    clause = re.split(r"[.;\n]|,\s|\s-\s", rest, maxsplit=1)[0]
    if (quoted := _QUOTED.match(rest)) is not None:
        return quoted_value(m, rest, quoted.group(1))
    words = clause.split()
    token = rest.split(None, 1)[0].rstrip(".") if rest.strip() else ""
    if words and "." in token and token.startswith(words[0]):
        words[0] = token  # a dot inside the first word is no sentence's end ("şifrem Lale.1923")
    around = text[max(0, m.start() - 60) : m.end() + 60]
    if not words or _withheld(words[0], rest, around) or _a_numeric_seed(m, rest) or _NO_VALUE_GIVEN.match(clause):
        return False  # ... or "passwd: password updated successfully", "password:  24 bytes"
    if mentions.not_given_here(text, m, words[0]):
        return False  # a command's next option ("--secret-id prod/db/password --query SecretString"), a flag's name
    if m.group("sep").strip() == ":" and rest.startswith("//"):
        return _value_after_address(rest)  # a URL's scheme, not a separator
    if m.group("sep").strip() in ("'s", "’s") and " " in m.group().strip():
        # "a temporary password to the account owner's email": the owner's, not the password's
        return _value_after_colon(rest)
    return _value_in_clause(m, words, rest)


def _value_after_address(rest: str) -> bool:
    """After a web address the colon of its scheme was read as a separator: the value, if
    any, follows the address ("password for https://mail.example.com: Kiwi!Fruit7", "the
    password at http://192.168.1.1 is ..."), not in it ("reset your password at https://...")."""
    parts = rest.split(None, 1)
    words = parts[1].split()[:2] if len(parts) > 1 else []
    if words and words[0].lower() in {"is", "was", ":", "=", "->", "-", "—"}:
        words = words[1:]
    return bool(words) and credential_like(words[0].strip(".,;!?)(\"'"))


def _value_after_colon(rest: str) -> bool:
    later = _AFTER_COLON.match(rest)
    value = "" if later is None else later.group("value")
    quoted = _QUOTED.match(value)
    if quoted is not None:
        return not quoted_pointer(quoted.group(1))
    return bool(value) and credential_like(value.split()[0])


def _value_in_clause(m: re.Match[str], words: list[str], rest: str) -> bool:
    """Whether the clause after the word gives the value: straight after it, described
    then given ("..., so Rex2016"), or further on, not where it is kept."""
    first = words[0].strip(".,;!?)(\"'\\{}[]").lower()  # (and a JSON string's escapes and braces)
    separated = m.group("sep").strip() != ""
    if not separated and first in COPULAS:
        return False  # the form with its copula is read by the other pattern
    if not separated and re.fullmatch(r"\d{4,8}", first.rstrip(",")):
        return True  # "kartın şifresi 4719": a PIN, straight after the word
    if _app_password(m, rest):
        return True  # "app password xqvk tmrw pbze lhnd": four groups of four letters, as Google and Apple issue them
    if not separated and _CARD_PIN.match(rest):
        return True  # "senha do cartão 8824": a card's password is its PIN
    if _HOST.fullmatch(first):
        return False  # "password reset.example.com": a site's name, the dots no longer end the clause
    said = _not_the_value(first, words, rest, separated=separated)
    if said is not None:
        return said
    if first and first not in NOT_A_VALUE and (separated or credential_like(words[0])):
        return True
    if first == "hint":
        return _value_after_so(rest)  # "password hint says 'dog + year', so Rex2016"
    if first in {"manager", "managers", "reset", "rules", "policy", "must", "should"}:
        return False
    return value_further_on(words[1:8], words[0]) or _value_after_so(rest)


def _not_the_value(first: str, words: list[str], rest: str, *, separated: bool) -> bool | None:
    """What the first word after the password's word says instead of a value (None: nothing)."""
    if first in _WHERE_FIRST or (first in _ON_FIRST and separated):
        # where it is kept ("is in 1Password", "is under the router", "ist bei Oma");
        # "on" with no separator before it is Finnish for "is" ("salasana on ...")
        return False
    second = words[1].lower() if len(words) > 1 else ""
    if placed(first, second in _WHERE_FIRST or second in _ON_FIRST):
        # where it is, after a verb of place ("Passwort steht auf der Unterseite der FRITZ!Box"); a
        # value may follow a colon ("Passwort liegt unter der Tastatur: Sommer#2024")
        return _value_after_colon(rest)
    if separated and described(first, second):
        # what it is made of, not itself ("is based on my birthday", "is tied to my SIM"); a value
        # may still follow ("is based on my dog: Rex2016!")
        return value_further_on(words[2:9], words[1])
    if separated and said_changed(first, rest):  # ("Kapı şifresi: site yönetimi dün değiştirdi")
        return value_further_on(words[1:9], words[0])
    if first in _ADVICE_FIRST:
        # advice, not a value ("master password: never store it anywhere"), unless one
        # follows ("password: never changed, still Hunter2!")
        return value_further_on(rest.split()[1:10], rest.split()[0])
    return None


def _app_password(m: re.Match[str], rest: str) -> bool:
    """Drawn at random, so none of its groups is a common word ("the app password must have
    more than four words" gives none)."""
    value = _ISSUED_APP_PASSWORD.match(rest.lstrip())
    if value is None or not _APP_BEFORE.search(m.string, max(0, m.start() - 20), m.start()):
        return False
    return not set(re.findall(r"[a-z]{4}", value.group())) & _COMMON_FOUR


_COMMON_FOUR = frozenset(
    [
        *("must", "have", "more", "than", "that", "with", "from", "your", "this", "will", "been", "were", "they"),
        *("what", "when", "some", "only", "like", "into", "just", "also", "each", "make", "need", "does", "here"),
        *("then", "them", "very", "much", "long", "used", "work", "four", "five", "nine", "word", "once", "ever"),
        *("over", "same", "sent", "via", "mail", "gmail", "goes", "into", "want", "able", "know", "next", "time"),
    ]
)
_APP_BEFORE = re.compile(r"\bapp(?:lication)?(?:[\s\-]+specific)?[\s\-]*$", re.IGNORECASE)
_ISSUED_APP_PASSWORD = re.compile(r"[\"'“]?[a-z]{4}(?:[ \-][a-z]{4}){3}(?![\w\-])")


# A card's password is its PIN: the card named after the word, then its digits ("senha do
# cartão 8824", "contraseña de la tarjeta 4471", "password for the atm card 0917").
_CARD_PIN = re.compile(
    r"(?:do|da|de|del|de\s+la|de\s+ma|der|for|of|for\s+the|of\s+the|for\s+my|of\s+my)\s+(?:[^\W\d]+\s+){0,2}?"
    r"(?:cart[ãa]o|tarjeta|carte|karte|card|atm|cajero|multibanco|bankomat)\s*:?\s*(?P<value>\d{4,8})(?![\d.,/:\-]*\d)",
    re.IGNORECASE,
)


_ADVICE_FIRST = frozenset(
    ["never", "don't", "dont", "do", "nie", "jamais", "nunca", "niemals", "nie", "aldrig", "nooit", "mai", "always"]
)
# Where it is kept or who has it ("at mum's": "u mamy", "bei Oma", "chez ma sœur", "hos mamma").
_WHERE_FIRST = frozenset(
    [
        *("in", "at", "inside", "under", "underneath", "beneath", "behind", "beside", "u", "bei", "chez", "hos"),
        *("unter", "sous", "sotto", "debajo", "onder"),
        # "in" of more languages ("hasło jest w menedżerze haseł", "ist im Tresor", "est dans le coffre")
        *("w", "we", "im", "dans", "nel", "nella", "nello", "i"),
        # "behind" and "under" of more languages ("está detrás del router", "κάτω από")
        *("dietro", "detrás", "detras", "hinter", "derrière", "derriere", "κάτω", "πίσω", "під", "под"),
    ]
)
# "on" of more languages, after a copula or a separator only ("la password del wifi è sul
# modem", "heslo je na routeru"): "hasło na wifi: ..." names what the password is for.
_ON_FIRST = frozenset(
    ["on", "sul", "sulla", "sullo", "en", "sobre", "no", "na", "auf", "sur", "op", "på", "στο", "στη", "στην", "на"]
)
# A clause that gives no value: the password's word again (a tool's echo), a size
# ("password:  24 bytes", kubectl describe), or what happened to it in a log line.
_NO_VALUE_GIVEN = re.compile(
    r"(?:password|passwd|passphrase)(?=\s|$)"
    r"|\d+\s+bytes\b|(?:yes|no)(?![\w\-])"  # (MySQL's "using password: YES": whether one was sent)
    r"|(?:authentication|auth|login|check|verification)\s+(?:failed|failure|succeeded|successful|ok)\b",
    re.IGNORECASE,
)
# After a possessive the value may still come, after a colon later in the sentence
# ("password for the user's VPS, set on 12 Jan: 7hV!qR2m").
_AFTER_COLON = re.compile(r"[^.\n]{0,100}?:\s*(?P<value>\S[^\n]*)")


# A password described, then given in the same sentence: "is the church postcode + the
# year, so BN21 3QR2024", "your date of birth, ddmmyyyy, so 14021979", "... -> Bramble7".
_SO_VALUE = re.compile(
    r"(?:,\s*|\s)(?:so|->|→|=>|i\.e\.|which\s+is|that['’]s|it['’]?s|it\s+is|like|e\.g\.|for\s+example|such\s+as)\s+"
    r"[\"'“‘]?(?P<value>[^\s\"'”’]+)"
)  # ("can you remember my amazon password for me, its Tr0pical-Mango-91")
# ... unless the sentence goes on about that value: "the password changed, so Netgear-5G is
# the network to join", "password rotated, so v2.3.1 of the app is required".
_SO_GOES_ON = re.compile(r"[\"'”’]?\s+(?:is|was|are|were|of|will|has|had|can|must|needs?|should)\b", re.IGNORECASE)


def _value_after_so(rest: str) -> bool:
    sentence = re.split(r"\.\s|\n", rest, maxsplit=1)[0][:160]
    for m in _SO_VALUE.finditer(sentence):
        value = m.group("value").strip(".,;:!?)(")
        goes_on = not m.group("value").endswith((",", "?", ";")) and _SO_GOES_ON.match(sentence, m.end())
        if value.lower() in NOT_A_VALUE or pointer(value) or goes_on:
            continue
        if re.match(r"[a-z_]+=", value):
            continue  # an attribute of code: "the password field, it is type=password in the form"
        if credential_like(value) or re.fullmatch(r"\d{6,12}", value):
            return True
    return False


def _withheld(first: str, rest: str, around: str) -> bool:
    """The value is not given: a placeholder ("settings.password", which the clause cut at
    its dot), where it is ("printed on the device label", "see 1Password")."""
    if PLACEHOLDER.match(first) or MASKED.fullmatch(first) or PLACEHOLDER.match(rest.lstrip()) or pointer(first):
        return True
    bare = first.strip(".,;!?)(\"'").lower()
    # ... or who did not give it ("maiden name → customer didn't know": a call's note)
    if bare in WHERE_IT_IS or bare in {"see", "ask", "check"} or no_answer_given(rest.lstrip(), 0):
        return True
    return no_value_said(first.strip(".,;!?)(\"'"), rest, around)  # ("was hacked", a queue's ticket)


# A host name: words joined by dots ending in a top-level domain.
_HOST = re.compile(
    r"(?:[\w\-]+\.)+(?:com|org|net|io|dev|app|co|uk|de|fr|es|it|nl|se|no|dk|fi|pl|ru|jp|cn|br|in|au|ca|ch|at|be|eu|gov"
    r"|edu|local|internal|lan|cloud|ai|me|info|biz)",
    re.IGNORECASE,
)


# A password after a longer gap ("the password I use for Steam is ..."): only a value that
# looks like one counts, since the gap may have changed what the copula is about.
_PASSWORD_FAR_RE = re.compile(
    PASSWORD_WORD
    + r"[^.\n:;?!]{1,40}?\s(?:"
    + COPULA
    + r")\s*(?P<value>\S+)|"
    + PASSWORD_WORD
    # (a site's name may hold dots: "mon mdp impots.gouv : Declaration#Mai24")
    + r"(?:[^.\n;?!]|\.(?=\w)){1,40}?:\s*(?P<value2>\S+)|"
    + PASSWORD_WORD
    + r"\?\s*(?P<value3>\S+)",
    re.IGNORECASE,
)


_JSON_LITERAL = re.compile(r"(?:null|none|true|false|undefined)(?![\w])", re.IGNORECASE)


def _password_far(text: str) -> bool:
    for m in _PASSWORD_FAR_RE.finditer(text):
        value = m.group("value") or m.group("value2") or m.group("value3") or ""
        gap = text[m.start() : m.end() - len(value)].lower()
        if (
            FAR_GAP_META & set(WORDS.findall(gap))
            or pointer(value)
            or reads_code(value)
            or value[:1] == "."
            or value.startswith("//")  # (a URL's scheme read as the colon: "--ask-password https://...")
            or mentions.psql_variable(text, m)
            or "@" in gap
            or "://" in gap
            or NETWORK_NAMED.search(gap)
        ):
            continue
        if '","' in gap + value or "','" in gap + value or _JSON_LITERAL.match(value):
            continue  # the word and the value are in different fields of a record, or it is null
        if _QUOTED.match(value) or credential_like(value):
            return True
    return False


def keyword_rules(text: str, present: frozenset[str]) -> bool:
    if named_pair(text, present):
        return True
    if present & PASSWORD_STEMS and (
        _password(text) or _password_far(text) or _reversed_password(text) or password_set_to(text)
    ):
        return True
    if present & AROUND_STEMS and _value_around_word(text):
        return True
    if (present & QUESTION_STEMS or '"' in text or "“" in text) and security_answer(text):
        return True
    if sum(map(str.isdigit, text)) >= 3 and named_code(text):
        return True
    return bool(present & CREDENTIAL_STEMS) and _credential(text)


# A password manager's master password named by the manager ("the shared 1password master
# for the marketing vault is "purple-otter-lantern-41"", "bitwarden master: Lighthouse-93",
# "keychain master phrase -> blue tractor yellow field 1989"): "1password" holds no password
# word of its own. The value is quoted, looks like a password, or is words with a number.
_KEEPER_MASTER_RE = re.compile(
    r"(?<![\w])(?:1password|bitwarden|lastpass|keepass(?:xc)?|keychain|dashlane|proton\s+pass|nordpass|enpass)"
    r"(?:['’]s)?\s+master(?:\s+(?:password|passphrase|phrase|pw|pass))?(?:\s+(?:for|of|on)\s+[^.\n:;?!]{1,40}?)?"
    r"\s*(?:\s(?:is|was)\s|:|->|→|=)\s*(?P<value>[\"'“‘][^\"'”’\n]{3,60}[\"'”’]|[^\s\"'“‘][^\n,;]{2,60})",
    re.IGNORECASE,
)


def keeper_master(text: str) -> bool:
    for m in _KEEPER_MASTER_RE.finditer(text):
        value = m.group("value").strip()
        if value[0] in "\"'“‘":
            inner = value.strip("\"'“”‘’")
            where = inner.split()[0].lower() in _WHERE_FIRST | _ON_FIRST | {"see", "ask", "check", "same"}
            return not where and not pointer(inner)
        first = value.split()[0].strip(".,;!?)(")
        if credential_like(first) or re.fullmatch(r"(?:[a-z]{3,10}\s+){2,5}\d{2,4}", value.lower()):
            return True
    return False


# Kinds of key and token that are not credentials.
_QUALIFIED = re.compile(
    r"\b(?:csrf|xsrf|idempotency|primary|sort|partition|foreign|cache|object|public|next|page|continuation|pagination"
    r"|cursor|composite|unique|dedup|routing|shard|hash|row|lookup|s3|license|licence|product|activation"
    # a pass that is a ticket ("lift pass for under-12s", "boarding pass", "season pass")
    r"|lift|ski|bus|boarding|season|train|rail|metro|transit|museum)[\s_\-]*$",
    re.IGNORECASE,
)


def _credential(text: str) -> bool:
    for r in _CREDENTIAL_RES:
        for m in r.finditer(text):
            value = m.group("value")
            if pointer(value) or FILE_NAME.fullmatch(value.lstrip("./~")) or _NAMED_FIELD.match(value):
                continue  # "pass api_key= explicitly", "token client_id=acme-etl": a name being given a value
            if _ARN_BEFORE.search(text, max(0, m.start() - 80), m.start()):
                continue  # "arn:aws:secretsmanager:...:secret:prod/db-Q8mZx2": where a secret is, by name
            if _QUALIFIED.search(text[max(0, m.start() - 16) : m.start()]):
                continue  # "idempotency-key: ...", "primary key is ...", "XSRF-TOKEN=...", "age public key age1..."
            if m.group().lower().startswith("pass") and ticket_pass_before(text, m.start(), value):
                continue  # "parking pass = PK-20931-B": a ticket's number
            bare = value.strip(".,;)(\"'")
            word = re.match(r"[^\W\d_]+", m.group())
            if (
                word is not None
                and word.group().lower() in ("key", "token")
                and (_IDENTIFIER_PATH.fullmatch(bare) or _SNAKE_NAME.fullmatch(bare))
            ):
                continue  # a cache, object or row key ("key: user_profile:12345"), not a credential
            if re.match(r"[A-Za-z_]\w*=", value) or text[text.rfind(" ", 0, m.start()) + 1 :].startswith("arn:"):
                continue  # "/oauth/token client_id=...": another field; an AWS ARN names a secret, holds none
            if mentions.names_no_value(text, m.start(), value, bare):
                continue  # "the github secret SLACK_WEBHOOK_URL": the name of what holds it
            if _RESOURCE_EVENT.match(text, m.end()):
                continue  # 'secret "db-creds" not found': a Kubernetes object's name, not its value
            if _QUOTED.match(value) or credential_like(value):
                return True
    return False


_NAMED_FIELD = re.compile(r"[\w.\-]*=")
_ARN_BEFORE = re.compile(r"\barn:aws[\w\-]*:[^\s]*$")
_RESOURCE_EVENT = re.compile(
    r"(?:\s+in\s+(?:namespace|project|vault|account|region)\s+\S+)?"  # 'secret "x" in namespace "prod" was updated'
    r"\s+(?:not\s+found|created|deleted|configured|unchanged|patched|replaced|already\s+exists|is\s+forbidden"
    r"|(?:was|has\s+been)\s+(?:created|deleted|updated|rotated|revoked))\b",
    re.IGNORECASE,
)


# Words and numbers joined by ":" or "/" (cache keys, object keys, paths): what a bare "key"
# or "token" names in technical text when it is not a credential.
# ... or a name in snake case (memory.update(key="school_pickup_list", ...)).
_SNAKE_NAME = re.compile(r"[a-z][a-z0-9]*(?:[_.][a-z0-9]+)+")
_IDENTIFIER_PATH = re.compile(r"[A-Za-z][A-Za-z_\-]*[a-z][A-Za-z_\-]*(?:[:/][\w\-.]+)+")


# The value before the word ("I went with Paprika581! as the password", "rex99 is my pin").
# Both start where a word starts: tried from every character of a long run without spaces
# ("key=key=...", "a-a-a-..."), they cost seconds on a 10,000-character message.
_REVERSED_PASSWORD_RE = re.compile(
    r"(?<![^\s\"'“”‘’])(?P<value>[^\s\"'“”‘’]+)[\"'“”‘’]?\s+(?:as|is|was)\s+(?:the|my|our|his|her|their)\s+(?:[\w'’\-]+\s+){0,2}?"
    r"(?:password|passwd|pw|passphrase|passcode|pin|pin\s+code)\b",
    re.IGNORECASE,
)
# "Paprika581! — that's the netflix password", "log in to the router with violet126".
_THATS_PASSWORD_RE = re.compile(
    r"(?<![^\s\"'“”‘’])(?P<value>[^\s\"'“”‘’]+)[\"'“”‘’]?\s*(?:—|–|-|:|=|,)\s*(?:that['’]?s|thats|this\s+is|it['’]?s)\s+(?:the\s+|my\s+|our\s+)*"
    r"(?:[\w'’\-]+\s+){0,4}?(?:password|passwd|pw|passphrase|passcode|pin|login)\b"
    # what it is said after it, in brackets or behind an arrow ("it's tango-mango-7 (the vpn
    # password)", '"margaritaville99" <- router admin pw')
    r"|(?<![^\s\"'“”‘’])(?P<value2>[^\s\"'“”‘’()]+)[\"'“”‘’]?\s*(?:\(\s*(?:the|my|our|his|her|their)\s+"
    r"(?:[\w'’\-]+\s+){0,3}?(?:password|passwd|pw|passphrase|passcode|pin)\s*\)|(?:<-|<--|←)\s*"
    # ("Sn0wy-Owl-88 <- that's the pwd for the staging jenkins")
    r"(?:(?:that['’]?s|thats|it['’]?s)\s+)?(?:the\s+|my\s+)?"
    r"(?:[\w'’\-]+\s+){0,3}?(?:password|passwd|pwd|pw|passphrase|passcode|pin)\b"
    # (the word ends what is said: "release-2024.05 <- the password reset fix" names a fix)
    r"(?=\s*(?:$|[.,;:!?)\n]|\s(?:at|for|of|on|to|in|from|@)\b)))"
    # or a quoted value said equal to it ('"bluebell42" = wifi pw at grandma's')
    r"|(?<=[\"'“‘])(?P<value3>[^\s\"'“”‘’]+)[\"'”’]\s*=\s*(?:the\s+|my\s+)?(?:[\w'’\-]+\s+){0,3}?"
    r"(?:password|passwd|pwd|pw|passphrase|passcode|pin)\b(?=\s*(?:$|[.,;:!?)\n]|\s(?:at|for|of|on|to|in|from|@)\b))",
    re.IGNORECASE,
)
_LOGIN_WITH_RE = keyed(
    r"\b(?:log\s*in|login|sign\s*in|signin|unlock)\s+(?:to|into|on)\s+(?:[\w'’\-]+\s+){0,4}?with\s+(?P<value>\S+)",
    re.IGNORECASE,
)
# An account's recovery or backup codes: groups of letters and digits ("a1b2-c3d4").
_RECOVERY_CODES_RE = re.compile(
    r"\b(?:recovery|backup|2fa|mfa)\s+codes?\b[^\n]{0,40}?[:\n]?\s*"
    r"(?=[a-z0-9]{0,9}\d)[a-z0-9]{3,6}[\- ](?=[a-z]{0,5}\d)[a-z0-9]{3,6}\b"  # ("from 2023 and": no code)
    # "coinbase 2fa backup: 3847 2910 ...": the second factor's backup, without "codes"
    r"|\b(?:2fa|mfa|otp|two[\s\-]factor|authenticator)\s+(?:backup|recovery)(?:\s+(?:key|code|codes|phrase))?\s*[:=\-]"
    r"\s*(?=[a-z0-9 \-]{0,12}\d)[a-z0-9]{4,}",
    re.IGNORECASE,
)
# Codes typed on a keypad, and lists of PINs ("pins: bank 4821, phone 1111").
_TYPED_CODE_RE = re.compile(
    r"\b(?:type|enter|punch\s+in|key\s+in|dial)\s+(?:in\s+)?\d{4,8}#?\s+(?:on|into|at|in)\s+(?:the\s+)?"
    r"(?:panel|keypad|pad|door|gate|alarm|lock|box|safe)|\bpins?\s*[:\-]\s*(?:[^\W\d]+\s+)?\d{4,8}\b",
    re.IGNORECASE,
)


def _value_around_word(text: str) -> bool:
    for m in _THATS_PASSWORD_RE.finditer(text):
        value = (m.group("value") or m.group("value2") or m.group("value3")).strip(".,;:!?)(")
        if credential_like(value) or re.fullmatch(r"\d{4,8}", value):
            return True
    for m in _LOGIN_WITH_RE.finditer(text):
        value = m.group("value").strip(".,;:!?)(")
        if credential_like(value) and not PLACEHOLDER.match(value) and "@" not in value:
            return True
    typed = any(not pin_dash_postal(m) for m in _TYPED_CODE_RE.finditer(text))
    return typed or _RECOVERY_CODES_RE.search(text) is not None


# A password set or reset to a value ("IT reset it to "Temp-Ox44-Blue"", "changed the wifi
# password to Lemon-Tree-42").
# Words that make "X is the ... password" about passwords in general ("password123 is the
# most common password again this year").
_IN_GENERAL = re.compile(r"\b(?:most|commonest|common|popular|worst|weakest|typical|example|famous)\b", re.IGNORECASE)


def _reversed_password(text: str) -> bool:
    for m in _REVERSED_PASSWORD_RE.finditer(text):
        value = m.group("value").strip(".,;:!?)(")
        if _IN_GENERAL.search(m.group(), len(m.group("value"))):
            continue
        pin = m.group().lower().rstrip().endswith(("pin", "pin code", "passcode"))
        if credential_like(value) or (pin and re.fullmatch(r"\d{4,8}", value)):
            return True
    return False
