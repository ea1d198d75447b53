"""The entry points of the sensitive-data filter: find (rules, then the learned stage), find
by the rules alone (for the bench), and reject (the 422 of every path that stores text as
given). Conversation messages are redacted in ``engram.domain.conversation`` with ``find_sensitive``."""

from __future__ import annotations

import re
from collections.abc import Iterable

from engram.domain.errors import SensitiveDataRejected
from engram.domain.sensitive.bank_accounts import has_bank_account, has_iban, key_names_another_account
from engram.domain.sensitive.branch_codes import only_branch_codes
from engram.domain.sensitive.cards import has_card
from engram.domain.sensitive.categories import (
    BANK,
    CARD,
    GOVERNMENT_ID,
    REDACTED,
    SECRET,
    WORDS,
    SensitiveMatch,
    id_digits,
    numbers_of_other_institutions,
    sensitive_match,
)
from engram.domain.sensitive.codes_other_languages import code_key_in_other_language, keyed_code_with_tail
from engram.domain.sensitive.dead_values import without_dead_values
from engram.domain.sensitive.dictated_codes import dictated_code, heard_code
from engram.domain.sensitive.glossed import glossed
from engram.domain.sensitive.government_ids import has_government_id, holds_an_id, id_not_a_card
from engram.domain.sensitive.keys import (
    CODE_KEY_WORDS,
    KEY_SPLIT,
    MIN_KEY_DIGITS,
    NEEDS_DIGITS,
    ONE_TIME_KEY_WORDS,
    POINTER_VALUE,
    key_is_meta,
    key_rule,
    path_under_a_path_key,
)
from engram.domain.sensitive.learned_model import ValueModel, model_text
from engram.domain.sensitive.learned_model import model as value_model
from engram.domain.sensitive.learned_verdicts import learned_verdict_stands
from engram.domain.sensitive.login_keys import password_under_a_login_key
from engram.domain.sensitive.national_id_words import names_another_number
from engram.domain.sensitive.no_access import keyed_number_grants_nothing, without_named_numbers
from engram.domain.sensitive.one_time_codes import backup_codes
from engram.domain.sensitive.prefilter import prefiltering
from engram.domain.sensitive.reading_view import reading_view
from engram.domain.sensitive.records import record_rule
from engram.domain.sensitive.remembered import remembered_as
from engram.domain.sensitive.said_harmless import said_harmless
from engram.domain.sensitive.secret import has_secret
from engram.domain.sensitive.secret_formats import providers_credential, public_or_sealed
from engram.domain.sensitive.secret_values import (
    credential_like,
    pointer,
    without_reference_numbers,
    without_slots,
)

_REDACTED_WORD = REDACTED.strip("[]")


def reject_sensitive(fields: Iterable[tuple[str, str]], what: str = "value") -> None:
    """Refuse to store any of ``(key, text)``: the one check of every path that keeps the
    user's text as given (entries, blocks, profile, agent names, proposals). A 422 names
    the rule, never the value (nor the key, which may hold the value itself)."""
    for key, text in fields:
        match = find_sensitive(text, key)
        if match is not None:
            raise SensitiveDataRejected(
                f"Engram does not store {match.description}; this {what} was refused.", rule=match.rule
            )


def find_sensitive(text: str, key: str = "") -> SensitiveMatch | None:
    """The first sensitive-data rule the text (or the key naming it) trips, if any: the
    rules first, then the learned second stage for a value near a word that names it."""
    with prefiltering():  # (each text's words are found once: prefilter.py)
        return _find_sensitive(text, key)


def _find_sensitive(text: str, key: str) -> SensitiveMatch | None:
    view = reading_view(text)
    # (the rules' verdict is find_by_rules's: redaction asks both of a text, once each)
    found = remembered_as(find_by_rules, text, key, lambda: _by_rules(text, key, view))
    if found is not None or (key and keyed_number_grants_nothing(text, key)):
        return found  # ({"pin": 7} on a board, {"status_code": 4821}: what the key names opens nothing)
    learned = learned_category(text, key, value_model(), view)
    return None if learned is None else sensitive_match(learned)


def learned_reading(text: str, view: str | None) -> str:
    """What the learned stage reads of ``text`` (``view``: its ``reading_view``). Training
    reads the same (bench/sensitive_train.py), so the model is fitted to what it is given."""
    # the model reads numbers as digits too ("four five eight seven" has a digit shape), but
    # not a number its clause names as opening nothing ("zip code 94110", "pin 13")
    read = without_named_numbers(public_or_sealed(text if view is None else view))
    read = without_reference_numbers(without_slots(read))  # (slots and CJK case numbers: secret_values.py)
    if REDACTED in read:
        # a redacted value is no value: "password=[redacted]" read as a word, not a token
        # shaped like a secret (its brackets), once a message has been redacted
        read = read.replace(REDACTED, _REDACTED_WORD)
    return read


def learned_category(text: str, key: str, learned_model: ValueModel, view: str | None) -> str | None:
    """The learned stage's category for a text no rule refused, if its verdict stands."""
    read = _own_key_as_it(learned_reading(text, view), key)
    learned = learned_model.classify(model_text(read, key))
    if learned is None or not learned_verdict_stands(read, key, learned):
        return None  # (an id or an account the model sees needs what learned_verdicts.py says)
    return learned


# A code as typed on a keypad: digits, "#" and "*", at most two letters ("2B49A", "3 9 0 2").
_CODE_VALUE = re.compile(r"(?=(?:[^A-Za-z]*[A-Za-z]){0,2}[^A-Za-z]*$)[#*]?[\dA-Za-z](?:[\s\-]?[\dA-Za-z#*]){2,9}")
# A one-time or backup code: digits, or groups of letters and digits holding three digits or
# more, a list of them set apart by slashes or commas ("481207 / 993051 / 120476").
_ONE_TIME_VALUE = re.compile(r"(?=(?:[^\d]*\d){3})[A-Za-z\d]{3,8}(?:(?:[\s\-]|\s*[/,]\s*)[A-Za-z\d]{3,8}){0,7}")
# What a key's words are fused with: "alarmcode_kantoor", "larmkod", "ovikoodi", "tresorcode".
_FUSED_CODE = ("code", "koodi", "kode", "kod", "codigo", "código", "kód")


# Lock words that end a compound ("cykellås", "fahrradschloss", "haustür", "garagentor";
# not "tor" alone at the end: "monitor", "editor").
_FUSED_LOCK = re.compile(r"\w{2,}?(lås|schloss|tür|tuer|dörr|dør|deur)$|(?:garagen|garten|hof|einfahrts|haus)(tor)$")


def _own_key_as_it(read: str, key: str) -> str:
    """A value that repeats its own key ("value iso201-mcp-r1000" under that key, an id the
    agent chose) gives the model nothing new: the key is checked on its own path and spelled
    out before the text (model_text), so its repetition is read as "it", not as a value (the
    retrained stage refused such entries by the shape of the id, 21d)."""
    named = any(c.isdigit() for c in key)  # an id's shape; a word key ("الخزنة") names what it opens
    return read.replace(key, "it") if named and len(key) >= 4 and key in read else read


def _key_words(key: str) -> frozenset[str]:
    words = {w.lower() for w in KEY_SPLIT.split(key) if w}
    fused = {w[: -len(end)] for w in words for end in _FUSED_CODE if w.endswith(end) and len(w) > len(end)}
    locks = {m.group(1) or m.group(2) for w in words if (m := _FUSED_LOCK.match(w))}
    return frozenset(words | fused | locks)


def find_by_rules(text: str, key: str = "") -> SensitiveMatch | None:
    """The rules alone (the bench measures each stage apart)."""
    with prefiltering():
        return _by_rules(text, key, reading_view(text))


def _by_key(text: str, key: str) -> SensitiveMatch | None:
    """A value stored under a key that names what it is ("door_code", "微信支付密码"), or
    a key that holds the value itself ("card_4111111111111111")."""
    spelled = KEY_SPLIT.sub(" ", key)
    inside = _find_in_text(spelled)
    if inside is not None:
        return inside
    rule = _cards_pan(key_rule(key), key, text)
    # (a card's, an account's or an id's digits are not a UUID's, a date's or a sum's: [card_on_file]
    # "tokenized (vault id 7f3e1c90-...)" holds no card)
    digits = id_digits(text) if rule in NEEDS_DIGITS else sum(map(str.isdigit, text))
    pointer = rule == SECRET and _not_the_secret(text, key)
    # (a bank's key over a branch code alone, [landlord_account] "routing 071000013, account number in the lease",
    # holds no account)
    other = rule == BANK and (numbers_of_other_institutions(text) or only_branch_codes(text))
    holds = holds_an_id(text) if rule == GOVERNMENT_ID else not other
    if rule is not None and text.strip() and not pointer and holds and digits >= MIN_KEY_DIGITS.get(rule, 0):
        return sensitive_match(rule)
    if rule is None and digits >= 3 and _code_under_key(text, key):
        # [office_door] 7714#, [bike_lock] 0 8 1 5; a card kept as a backup stays a card
        return _find_in_text(text) or sensitive_match(SECRET)
    return _by_other_keys(text, key) if rule is None else None


def _cards_pan(rule: str | None, key: str, text: str) -> str | None:
    """[paymentMethod.primary.pan] "5491…": a card's primary account number, not India's PAN (which
    has letters); one failing the card's check is no card either ("invalid card number (checksum)")."""
    if rule == GOVERNMENT_ID and "pan" in _key_words(key) and not any(map(str.isalpha, text)):
        return CARD if has_card(text) else None
    return rule


def _by_other_keys(text: str, key: str) -> SensitiveMatch | None:
    if password_under_a_login_key(key, text):
        return sensitive_match(SECRET)  # [tax_portal_li] "Li19750923@", [notary_dataroom] "Wm-Q3-harvest-8812"
    if code_key_in_other_language(key, text):
        # [kod_do_bramy] 1 5 9 0, [κωδικός_εξώπορτας] 3 8 4 6, [senha_app_banco] Ipanema#0915
        return _find_in_text(text) or sensitive_match(SECRET)
    return None


# What a sentence needs and a passphrase does not have: little words of the languages the
# filter reads, a comma, a full stop.
_FUNCTION_WORDS = frozenset(
    [
        *("the", "a", "an", "of", "in", "on", "at", "to", "by", "for", "from", "with", "not", "is", "are", "was"),
        *("will", "be", "it", "its", "and", "or", "no", "der", "die", "das", "den", "dem", "vom", "von", "im"),
        *("und", "ist", "nicht", "noch", "es", "le", "la", "les", "de", "du", "des", "est", "pas", "el", "los"),
        *("las", "en", "y", "no", "o", "os", "um", "uma", "não", "tem", "il", "di", "del", "è", "het", "een"),
        *("van", "op", "w", "na", "z", "do", "i", "och", "efter", "ut", "på", "av", "og", "er", "ikke", "ve", "bir"),
    ]
)
# (not a count written with its thousands: "1,000 calls/day")
_SPELLED_VALUE = re.compile(r"(?<![\d,.])\d{3,}(?![,.]\d{3}(?!\d))|\d(?:[ \-]\d){2,}")
_ANSWER_KEY_WORDS = frozenset(
    ["answer", "answers", "maiden", "memorable", "phrase", "passphrase", "seed", "mnemonic", "words", "question"]
)


def _not_the_secret(text: str, key: str) -> bool:
    """Where the secret is, or a sentence about it, under a key that names it (a value in it
    said to be dead is none: [sim_pin] "default 0000 replaced, I'll remember it")."""
    if POINTER_VALUE.search(text.strip()) is not None or _about_the_secret(without_dead_values(text), key):
        return True
    if said_harmless(text) and not providers_credential(text):
        return True  # ([api_key_maptiles] "mt_pk_live_... (public token, used in the web map)"; a live key stays)
    return path_under_a_path_key(key, text)  # ([DB_PASSWORD_FILE] "/run/secrets/db_password": where it is kept)


def _about_the_secret(text: str, key: str) -> bool:
    """A value that talks about the secret a key names, not the secret: a sentence with no
    code and nothing shaped like a credential ("[portkod] ändras efter renoveringen",
    "[cvv] not stored by design"). A security answer or a passphrase is words, so keys
    naming those keep every value."""
    words = text.split()
    status = _STATUS.match(text.strip()) is not None
    if len(words) < (2 if status else 3) or _ANSWER_KEY_WORDS & {w.lower() for w in KEY_SPLIT.split(key) if w}:
        return False
    # (a date or a time is when, not what: "rotated on 2024-05-01 by Sam")
    if _SPELLED_VALUE.search(_TO_CALL.sub(" ", _WHEN.sub(" ", text))) or any(credential_like(w) for w in words):
        return False
    lowered = {w.strip(".,;:!?()\"'").lower() for w in words}
    return status or bool(lowered & _FUNCTION_WORDS) or ", " in text or text.rstrip().endswith(".")


_WHEN = re.compile(
    r"\b(?:19|20)\d\d[\-./](?:0?[1-9]|1[0-2])[\-./](?:0?[1-9]|[12]\d|3[01])\b"
    r"|\b(?:0?[1-9]|[12]\d|3[01])[\-./](?:0?[1-9]|1[0-2])[\-./](?:19|20)?\d\d\b|\b(?:[01]?\d|2[0-3]):[0-5]\d\b"
)
# A number to call or text, whom to ask ("[sim_puk] Banglalink PUK — call 121 from another phone").
_TO_CALL = re.compile(
    r"\b(?:call|dial|ring|phone|text|sms|llama|llamar|ligue|ligar|chiama|appelez|appeler|anrufen)"
    r"\s+\+?\d[\d \-]{1,14}\d\b",
    re.IGNORECASE,
)
# What happened to the secret, not the secret ("expired yesterday", "rotated monthly");
# "changed to Kiwi!Fruit7" gives the new one (and a credential-like word keeps it anyway).
_STATUS = re.compile(
    r"(?:rotated|changed|expired?|expires|reset|updated|renewed|revoked|disabled|locked|blocked|deleted|removed"
    r"|regenerated)\b(?!\s*(?:to\b|:|=))",
    re.IGNORECASE,
)


def _code_under_key(text: str, key: str) -> bool:
    # the code may follow a label of its own ("4 digits: 0 8 1 5") or come before a note
    # ("2208 (check-in Fri, check-out Mon)")
    value = _NOTE.sub("", text.strip().rsplit(": ", 1)[-1]).strip()
    words = _key_words(key)
    if key_is_meta(key) or said_harmless(text):
        return False  # ([locker_work] "keycard badge #48291 (badge number printed on card, not a secret)")
    if CODE_KEY_WORDS & words and sum(map(str.isdigit, value)) > _KEYPAD_DIGITS:
        return False  # (a phone number under an alarm's key, "tecnico: 02 8841 2290", is whom to call)
    if CODE_KEY_WORDS & words and (_CODE_VALUE.fullmatch(value) or keyed_code_with_tail(key, text)):
        return True  # the code may be followed by how to type it ("8181 then OFF")
    if CODE_KEY_WORDS & words:
        return _code_after_words(value)
    return bool(ONE_TIME_KEY_WORDS & words) and _ONE_TIME_VALUE.fullmatch(value) is not None


_NOTE = re.compile(r"\s*\([^()]*\)\s*$")
_KEYPAD_DIGITS = 8
_LEAD_WORD = re.compile(r"[^\W\d_]+|\d{1,3}")


def _code_after_words(value: str) -> bool:
    """A code after what to do with it, in at most three words ("avaktivera med 0 9 3 8",
    "21 klucz 5580"); not a date ("battery replaced 2026-10-02")."""
    tokens = value.split()
    for i in range(1, min(3, len(tokens) - 1) + 1):
        if not _LEAD_WORD.fullmatch(tokens[i - 1]):
            return False
        tail = " ".join(tokens[i:])
        if _CODE_VALUE.fullmatch(tail) and sum(map(str.isdigit, tail)) >= 4 and not _WHEN.search(tail):
            return True
    return False


# A record's key and value given as two fields ('"key": "door_code", "value": "5519#"',
# "field=alarm_code value=2 7 7 1"): the value is read as stored under that key.
_RECORD_PAIR = re.compile(
    r"""(?<![\w])["']?(?:key|k|name|field|setting|attribute|label|path|selector|schl[üu]ssel|schluessel|clave|chiave"""
    r"""|cl[ée])["']?\s*[:=]\s*["']?(?:input\[name=|[#.])?(?P<key>[^\W\d][\w\-./]{1,63})\]?["']?"""
    r"""\s*[,;]?\s*["']?(?:value|val|v|wert|valor|valore|valeur|waarde)["']?\s*[:=]\s*(?P<quote>["']?)"""
    r"""(?P<value>[^"'\n,;}]{1,64})""",
    re.IGNORECASE,
)


_VALUE_FIELD = re.compile(r"""(?:value|val|v|wert|valor|valore|valeur|waarde)["']?\s*[:=]""", re.IGNORECASE)
_FIELD_MARK = re.compile(r"[:=]")
_VALUE_WORD_MAX = len("valeur") + 1  # (and its quote)


def _has_value_field(text: str) -> bool:
    """``_VALUE_FIELD.search(text)``, asked only just before each ":" and "=": the pattern has
    no word of its own to start from ("v" is one of its words) and cost nearly a millisecond
    on 10,000 characters of ordinary text."""
    for mark in _FIELD_MARK.finditer(text):
        start = mark.start()
        while start > 0 and text[start - 1].isspace():
            start -= 1
        if _VALUE_FIELD.search(text, max(0, start - _VALUE_WORD_MAX), mark.end()):
            return True
    return False


def _record_pair(text: str) -> SensitiveMatch | None:
    for m in _RECORD_PAIR.finditer(text):
        value = m.group("value") if m.group("quote") else m.group("value").split("  ")[0]
        if not value.strip() or pointer(value.strip()):
            continue
        found = _by_key(value.strip(), m.group("key"))
        if found is not None:
            return found
    return None


def _by_rules(text: str, key: str, view: str | None) -> SensitiveMatch | None:
    found = _by_key(text, key) if key and not keyed_number_grants_nothing(text, key) else None
    if found is None:
        # ([aws_console] "account 4411-2290-8834, user pia.admin, pw ...": AWS's account)
        found = _find_in_text(text, bank=not (key and key_names_another_account(key, text)))
    if found is None and key:
        # The key and its value read as the text a person would write ([tc_kimlik_esim]
        # "78564921574" is "tc kimlik esim: 78564921574"): an id, account or card only.
        joined = _find_in_text(f"{KEY_SPLIT.sub(' ', key)}: {text}")
        found = joined if joined is not None and joined.rule in NEEDS_DIGITS else None
    if found is not None:
        return _as_read(found, view)
    if _has_value_field(text):
        found = _record_pair(text)
        if found is not None:
            return found
    # Values as people dictate, space out, scan or break them: the same rules on the text
    # with those numbers written as digit groups (one reading: reading_view.py).
    if view is not None:
        found = _find_in_text(view)
    # (a code dialled with dashes reads the same in the view: "замок на складе: 5-5-1-9"; four
    # digits at least, "code for the cake: 3-2-1" is a recipe's; a code said to be dead is none:
    # "the garage code we had (2 2 8 0) was replaced")
    if found is None and _dictated(without_dead_values(text), view):
        return sensitive_match(SECRET)
    return _in_english(text, view) if found is None else found


def _as_read(found: SensitiveMatch, view: str | None) -> SensitiveMatch:
    """A secret found in the text that reads as an id, a card or an account once its numbers are
    read as digits is that number: an SSN read from a photo ("5 3 8-2l-774O") or a form's boxes
    ("6 0 3 | 1 9 | 4 4 8 2") looks like a password's mix of letters and digits as written."""
    if found.rule != SECRET or view is None:
        return found
    read = _find_in_text(view)
    return read if read is not None and read.rule in NEEDS_DIGITS else found


def _dictated(text: str, view: str | None) -> bool:
    if (view is not None or _DASHED_DIGITS.search(text)) and dictated_code(text):
        return True
    # ("the door code is for for to won won": written by ear)
    return (heard := heard_code(text)) is not None and dictated_code(heard)


def _in_english(text: str, view: str | None) -> SensitiveMatch | None:
    """A credential's, an id's or an account's word in another language, written in English
    ("आपका ओटीपी ८३०२५१ है" reads "आपका OTP 830251 है"): the English rules read it (glossed.py)."""
    read = glossed(text if view is None else view)
    found = None if read is None else _find_in_text(read)
    if found is not None and found.rule == GOVERNMENT_ID and names_another_number(text):
        return None  # ("номер заявления на паспорт", "رقم طلب جواز": an application's number)
    return found


_DASHED_DIGITS = re.compile(r"\d ?- ?\d ?- ?\d ?- ?\d")


# Words that name a credential outright. A text that gives one with its value is about the
# login, whatever id or account it names too ("PIN for your new Medicare online account:
# 58-20-44", "usuario 47000656H, clave Ronda#Toledo19", "MFA backup codes for ops@ account").
_CREDENTIAL_WORDS = frozenset(
    {"password", "passwords", "passwort", "contraseña", "clave", "senha", "pin", "passcode", "login", "acceso"}
    | {"backup", "otp", "passe", "wachtwoord", "hasło", "haslo", "şifre", "sifre", "parola", "lösenord"}
)


# (and in scripts that run the word into the words around it: "账号 13800004827（手机号登录），
# 密码 zhangwei@2024job", "帳號 ... 密碼 Chiayi2011", "mật khẩu")
_CREDENTIAL_IN_SCRIPT = re.compile(
    r"密码|密碼|口令|パスワード|暗証|비밀번호|비번|סיסמ|كلمة\s*(?:ال)?(?:سر|مرور)|पासवर्ड|รหัสผ่าน|mật\s+khẩu"
)


def _unless_a_credential(text: str, digits: int, words: frozenset[str], rule: str) -> SensitiveMatch:
    named = words & _CREDENTIAL_WORDS or (not text.isascii() and _CREDENTIAL_IN_SCRIPT.search(text))
    if named and has_secret(text, digits, words):
        return sensitive_match(SECRET)
    return sensitive_match(rule)


def _find_in_text(text: str, *, bank: bool = True) -> SensitiveMatch | None:
    # Most text has few digits: every number rule needs some, and skipping them keeps the
    # filter cheap on long messages (it runs on every write and message).
    digits = sum(map(str.isdigit, text))
    words = frozenset(WORDS.findall(text.lower()))
    if digits >= 12 and has_card(text) and not id_not_a_card(text, words):
        return sensitive_match(CARD)
    if digits >= 2 and has_iban(text):  # a Romanian IBAN may hold as few as 2 digits
        return sensitive_match(BANK)
    if digits >= 2 and has_government_id(text, words):
        return _unless_a_credential(text, digits, words, GOVERNMENT_ID)
    if digits >= 16 and backup_codes(text, words):
        return sensitive_match(SECRET)  # (one under "account:" is no account number)
    if bank and digits >= 6 and has_bank_account(text, words):
        return _unless_a_credential(text, digits, words, BANK)
    if digits >= 6 and (in_record := record_rule(text, words)) is not None:
        return sensitive_match(in_record)
    if has_secret(text, digits, words):
        return sensitive_match(SECRET)
    return None
