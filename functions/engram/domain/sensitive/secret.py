"""The secret category: which of its rules run on which part of the text (each keyword rule
only near its own word, which keeps long messages cheap)."""

from __future__ import annotations

import re

from engram.domain.sensitive.access_codes import access_code
from engram.domain.sensitive.call_turns import code_in_a_chat_reply, code_in_the_next_turn
from engram.domain.sensitive.categories import WORDS, word_spans
from engram.domain.sensitive.cjk_passwords import cjk_password
from engram.domain.sensitive.codes_other_languages import code_in_other_language
from engram.domain.sensitive.credential_pairs import (
    asked_if_good,
    password_in_brackets,
    password_set_to,
    set_for_an_account,
    user_password_pair,
    wifi_password_named_first,
)
from engram.domain.sensitive.dead_words import STOPPED
from engram.domain.sensitive.device_configs import device_secret
from engram.domain.sensitive.exports import exported_line, exported_password, listed_codes
from engram.domain.sensitive.gift_cards import gift_card_code
from engram.domain.sensitive.issued_codes import issued_code
from engram.domain.sensitive.licence_keys import licence_key
from engram.domain.sensitive.lock_codes import lock_code
from engram.domain.sensitive.login_pairs import ADMIN_STEMS, named_pair
from engram.domain.sensitive.made_up_locks import made_up_lock, made_up_place
from engram.domain.sensitive.narrated_logins import narrated_login
from engram.domain.sensitive.one_time_codes import copied_key, named_one_time_code, one_time_code, service_code
from engram.domain.sensitive.passwords import keeper_master, keyword_rules
from engram.domain.sensitive.passwords_other_languages import (
    password_before_its_word,
    password_in_other_language,
    quoted_password,
)
from engram.domain.sensitive.printed_codes import printed_code
from engram.domain.sensitive.printed_credentials import printed_credential
from engram.domain.sensitive.said_harmless import said_harmless
from engram.domain.sensitive.secret_formats import providers_credential, public_or_sealed, shaped_like_a_secret
from engram.domain.sensitive.secret_words import SECRET_STEMS, WHEN_NEEDED_ASIDE
from engram.domain.sensitive.security_answers import answered_question, security_answer
from engram.domain.sensitive.security_answers_other_languages import security_answer_in_other_language
from engram.domain.sensitive.sent_codes import clave_pin, sent_code

_ASIDE = re.compile(WHEN_NEEDED_ASIDE, re.IGNORECASE)
_STOPPED = re.compile(STOPPED, re.IGNORECASE)


def has_secret(text: str, digits: int, words: frozenset[str]) -> bool:
    # the rules read the words around a value; an aside saying when it may be needed sits
    # between them ("the OTP, in case you need it, is 482913"), or one in brackets ("trading
    # password (6 digits, separate from login): 730184"): read without it too
    plain = _ASIDE.sub(" ", text)
    if "：" in plain:  # (Chinese and Japanese write a full-width colon: "webhook key：7c3e9a1f-...")
        plain = plain.replace("：", ": ")
    if "（" in plain:  # (and full-width brackets: "ログインパスワード（Sakura2024!）を読み上げた")
        plain = plain.replace("（", " (").replace("）", ") ")
    if "(" in plain and words & _ASIDE_STEMS:
        plain = _without_bracketed_asides(plain)
    return _has_secret(text, digits, words) or (plain != text and _has_secret(plain, digits, words))


# (after a space: "ENC(...)" and "getpass(...)" are values and calls, not asides; a password's
# or a PIN's word only: "the old token (for the revocation list): <sha1>" is a digest)
# (and before the value or what says it comes: a digit, ":", "=", "is"; "(see below) for it" is none)
_BRACKETED = re.compile(
    r"[ \t]+\([^()\n]{1,60}\)(?=\s*(?:[:=→\d]|-\s|(?:is|est|es|ist|é|è|är|er|to|jest|c['’]est)(?![\w])))",
    re.IGNORECASE,
)
_ASIDE_STEMS = frozenset(
    [
        *("password", "passwort", "passwd", "pw", "pwd", "pass", "passcode", "passphrase", "pin", "code", "codes"),
        *("kod", "kód", "codice", "código", "codigo", "clave", "senha", "contraseña", "nip", "karty", "hasło"),
        *("haslo", "mot", "wachtwoord", "lösenord", "key", "master", "secret", "totp", "otp"),
    ]
)
_NAMED_BEFORE = 30


# An aside that says the value is not there ("mot de passe (oublié) : cliquez sur le lien"):
# what follows is what to do, not the value.
_NOT_GIVEN = re.compile(
    r"(?<![\w])(?:oubli[ée]e?|forgotten|forgot|lost|perdu|expired?|expir[ée]e?|reset|changed|wrong|incorrect|invalid"
    r"|olvidad[ao]|esquecid[ao]|vergessen|dimenticat[ao]|zapomnian[ey]|blocked|bloqu[ée]e?|locked|optional|hidden)(?![\w])",
    re.IGNORECASE,
)


def _without_bracketed_asides(text: str) -> str:
    """The text without the brackets that follow a secret's word closely ("PIN do karty (tej
    z Revoluta) 6614"); the text as written is read too, so a value inside them still counts."""
    out, at = [], 0
    for m in _BRACKETED.finditer(text):
        before = text[max(0, m.start() - _NAMED_BEFORE) : m.start()].lower()
        # (nor one that says the value after it is dead: "code du portail (ne marche plus) : 4B771")
        given = not _NOT_GIVEN.search(m.group()) and not _STOPPED.search(m.group())
        if _ASIDE_STEMS.intersection(WORDS.findall(before)) and given:
            out.append(text[at : m.start()])
            at = m.end()
    return "".join(out) + text[at:] if out else text


def _has_secret(text: str, digits: int, words: frozenset[str]) -> bool:
    text = public_or_sealed(text)
    if said_harmless(text) and not providers_credential(text):
        return False  # (a live key said to be public still grants what it grants; review rv5)
    if made_up_lock(text) and not shaped_like_a_secret(text):
        return False  # a safe or a door in a game or a story: "脱出ゲームの金庫の暗証番号は「0417」"
    if _by_its_shape_or_lock(text, digits):
        return True
    if password_in_other_language(text, words) or copied_key(text, words) or _known_by_its_look(text, words):
        return True
    if printed_credential(text, words):
        return True  # (a CLI's output, "auth is now `Rd1s-Quill-7720`", "ключ от API: 9b7e2c41...")
    if answered_question(text) or ("master" in words and keeper_master(text)):
        return True
    if ('"' in text or "“" in text) and security_answer(text):
        return True
    if _in_other_language(text, digits, words) or _sent_code(text, digits, words):
        return True
    present = words & SECRET_STEMS
    if not present:
        return False
    # Each rule runs only when one of its own words is there, and only on the stretch of
    # text around it: long messages often hold such a word ("office", "key") and no secret,
    # and the rules, not the words, are the costly part.
    return any(keyword_rules(part, words & _words_in(part)) for part in _around(text, present))


def _by_its_shape_or_lock(text: str, digits: int) -> bool:
    """A secret in a provider's format or a setting, a CJK password, a lock's, a licence's or an issued code."""
    if shaped_like_a_secret(text) or cjk_password(text) or (digits >= 3 and lock_code(text)):
        return True
    if digits >= 1 and (licence_key(text) or gift_card_code(text)):
        return True  # (a licence's or an activation key, a gift card's code: bearer credentials, by policy)
    if device_secret(text):
        return True  # (an SNMP community, a PSK in a device's configuration, a value shown in clear)
    return digits >= 1 and (issued_code(text) or access_code(text))


_SET_FOR_WORDS = frozenset(["what", "with"])
_ASKED_WORDS = frozenset(
    [
        *("strong", "secure", "good", "safe", "long", "ok", "okay", "fine", "decent", "segura", "seguro", "fuerte"),
        *("sicher", "sicheres", "sichere", "sûr", "sur", "forte", "contraseña", "passwort", "senha", "hasło", "gut"),
    ]
)
_WIFI_WORDS = frozenset(["wifi", "wi", "wlan"])
_RESET_WORDS = frozenset(["reset", "set", "change", "changed", "update", "updated"])
_ADMIN_WORDS = frozenset(["admin", "administrator", "root"])


def _known_by_its_look(text: str, words: frozenset[str]) -> bool:
    """A chosen password with no password word before it: beside its user, in brackets after
    the word, or said to be what someone set for an account."""
    if user_password_pair(text) or password_in_brackets(text) or _said_of_an_account(text, words):
        return True
    if narrated_login(text):
        return True  # ("log in as m.okafor@mailbox.org with Lagos-Harbour-72": a login told as it went)
    if "\n" in text and ("," in text or "|" in text) and exported_password(text):
        return True  # (a password manager's CSV export, a table of passwords or of door codes)
    if "\n" in text and listed_codes(text):
        return True  # ("Door codes:" then "- Flat 1: 4471", one a line)
    if ("://" in text or "." in text) and exported_line(text):
        return True  # (one line of an export: "https://portal.example.gov | dwhitcombe | Tr0ub4dor&Lamp")
    return bool(words & _SET_FOR_WORDS) and set_for_an_account(text)


def _said_of_an_account(text: str, words: frozenset[str]) -> bool:
    """A password given with an admin's or an account's word, asked about, or named first."""
    if words & ADMIN_STEMS and named_pair(text, words):
        return True  # ("jellyfin admin: lena / popcornfriday": the pair after an admin's word)
    if words & _ASKED_WORDS and asked_if_good(text):
        return True  # ('"is Summer-Puppy-99 strong enough?"': a password asked about)
    if words & _WIFI_WORDS and wifi_password_named_first(text):
        return True  # ("pass wifi phòng họp: phonghop-tang3-88")
    # ("reset local admin on kiosk-3 to Kiosk3-Lobby!": an account reset to its password)
    return bool(words & _RESET_WORDS and words & _ADMIN_WORDS) and password_set_to(text, verb_first=True)


def _sent_code(text: str, digits: int, words: frozenset[str]) -> bool:
    """A one-time code as it came, named by what made it, or a service's code."""
    if digits >= 4 and one_time_code(text, words):
        return True
    if digits >= 2 and named_one_time_code(text, words):  # (Steam Guard's codes hold two digits)
        return True
    if digits >= 3 and sent_code(text, words):  # (by the way it came or what it is for)
        return True
    if digits >= 4 and printed_code(text):  # ("A Jófogás kódod: 720 315": the shape its message prints)
        return True
    if digits >= 4 and code_in_the_next_turn(text, words):  # (asked for by an agent, said by the customer)
        return True
    if code_in_a_chat_reply(text):  # (asked for in a group chat, said in the next turns)
        return True
    return digits >= 1 and (service_code(text, words) or clave_pin(text))


def _in_other_language(text: str, digits: int, words: frozenset[str]) -> bool:
    """Codes, security answers, passwords before their word and quoted after it, in other languages."""
    if (digits >= 3 or not text.isascii()) and code_in_other_language(text, words) and not made_up_place(text):
        return True  # (a lock in a game or a story opens nothing: made_up_locks.py)
    if security_answer_in_other_language(text, words) or password_before_its_word(text, words):
        return True
    return any(q in text for q in '"“«„') and quoted_password(text)  # (a quoted value, any language)


_BEFORE, _AFTER = 160, 320


def _around(text: str, stems: frozenset[str]) -> list[str]:
    """The stretches of ``text`` around each of these words (from the whitespace before
    ``_BEFORE`` characters ahead of it to ``_AFTER`` after it), overlapping ones merged.
    A short text is one stretch."""
    if len(text) <= _BEFORE + _AFTER:
        return [text]
    spans: list[list[int]] = []
    for at, to, _ in word_spans(text, stems.__contains__):
        start = text.rfind(" ", 0, max(0, at - _BEFORE)) + 1
        end = min(len(text), to + _AFTER)
        if spans and start <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], end)
        else:
            spans.append([start, end])
    return [text[a:b] for a, b in spans]


def _words_in(text: str) -> frozenset[str]:
    return frozenset(WORDS.findall(text.lower()))
