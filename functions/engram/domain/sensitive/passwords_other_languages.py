"""Passwords named in languages whose grammar the word-then-copula rules of ``passwords`` do
not parse: a word for "password" (Indonesian, Malay, Vietnamese, Swahili, Romanian,
Croatian, Serbian, Slovenian, Estonian, Lithuanian, Latvian, Hungarian inflections,
Catalan, Galician, Basque, Icelandic, Afrikaans, Welsh, Albanian, Bulgarian; and in
scripts written without spaces or with their own word order: Arabic, Persian, Urdu,
Hebrew, Hindi, Bengali, Thai, Tamil, Georgian, Armenian), then within a few words a
value that looks like a credential. In such text the value is nearly always written in
Latin letters and digits, which is what makes it stand out.

Only a credential-looking value counts here (letters with digits, or symbols, or inner
capitals): a plain word after the word ("lozinka je prekratka", "the password is too
short") is a description in a language whose descriptions this module does not know.
"""

from __future__ import annotations

import re

from engram.domain.sensitive.secret_values import credential_like, pointer

_LATIN_WORDS = (
    r"kata\s+sandi|katasandi|kata\s+laluan|m[ậa]t\s+kh[ẩa]u|nenosiri|neno\s+la\s+siri|parol[aăe]i?|parolă"
    r"|lozink[aeiu]|[šs]ifr[aeiu]|gesl[oa]|parool(?:i|iks)?|slapta[žz]od[iž][sį]?|jelszav\w*|contrasenya|contrasinal"
    r"|pasahitza|lykilor[ðd]|wagwoord|cyfrinair|fjal[ëe]kalim\w*|парол[аи]|лозинк[аеиу]|құпиясөз|нууц\s+үг"
)
_SCRIPT_WORDS = (
    r"كلمة\s*المرور|كلمة\s*السر|كلمة\s*مرور|الباسورد|باسورد|الرقم\s*السري|رمز\s*المرور|رمز\s*عبور|گذرواژه"
    r"|پاس\s*ورڈ|סיסמ[הא]|הסיסמ[הא]|पासवर्ड|कूटशब्द|পাসওয়ার্ড|รหัสผ่าน|கடவுச்சொல்|పాస్‌?వర్డ్|პაროლი|გაროლი"
    r"|գաղտնաբառ|ពាក្យសម្ងាត់|စကားဝှက်|ລະຫັດຜ່ານ"
)
_LATIN_RE = re.compile(r"(?<![\w])(?:" + _LATIN_WORDS + r")(?![\w])", re.IGNORECASE)
_SCRIPT_RE = re.compile(r"(?:" + _SCRIPT_WORDS + r")")
# The words of _LATIN_WORDS as the filter's word splitter reads them: the rule runs only
# when one of them is in the text, or when the text is not all ASCII.
STEMS = frozenset(
    [
        *("sandi", "katasandi", "laluan", "mật", "mat", "khẩu", "khau", "nenosiri", "siri", "parola", "parolă"),
        *("parole", "parolei", "lozinka", "lozinke", "lozinki", "lozinku", "šifra", "sifra", "šifre", "sifre"),
        *("šifru", "sifru", "šifri", "geslo", "gesla", "parool", "parooli", "paroolik", "slaptažodis", "slaptazodis"),
        *("slaptažodį", "contrasenya", "contrasinal", "pasahitza", "lykilorð", "lykilord", "wagwoord", "cyfrinair"),
        *("jelszavam", "jelszava", "jelszavad", "jelszavunk", "jelszavát", "jelszavamat"),
        *("парола", "пароли", "лозинка", "лозинке", "лозинки", "лозинку", "құпиясөз", "нууц"),
    ]
)
_TOKEN = re.compile(r"[!-~]+")
# Password managers whose names look like a value.
_KEEPERS = frozenset(["1password", "1pass", "1pw"])
# A letter of the scripts of _SCRIPT_WORDS (Hebrew, Arabic, Devanagari, Bengali, Tamil,
# Telugu, Thai, Lao, Myanmar, Georgian, Armenian, Khmer).
_OTHER_SCRIPT = re.compile(r"[\u0530-\u06ff\u0900-\u0c7f\u0e00-\u0eff\u1000-\u109f\u10a0-\u10ff\u1780-\u17ff]")
_EMAIL = re.compile(r"[^@\s]+@[\w\-]+(?:\.[\w\-]+)+")
_HEX_OR_DATE = re.compile(r"(?:0x)?[0-9a-fA-F]{16,}|\d{1,4}[./\-]\d{1,2}[./\-]\d{1,4}")


def _value_after(rest: str) -> bool:
    for raw in _TOKEN.findall(rest)[:6]:
        value = raw.strip(".,;:!?)(\"'«»“”")
        if "://" in value or value.lower().startswith("www.") or _EMAIL.fullmatch(value):
            continue
        if _HEX_OR_DATE.fullmatch(value):
            continue
        if pointer(value) or value.lower() in _KEEPERS:
            return False  # "(hidden)", "<redacted>", "in 1Password": the value is withheld
        if credential_like(value):
            return True
    return False


def password_in_other_language(text: str, words: frozenset[str]) -> bool:
    """A password word of the languages above and a credential-like value within a few words."""
    regexes = []
    if words & STEMS:
        regexes.append(_LATIN_RE)
    if not text.isascii() and _OTHER_SCRIPT.search(text):
        regexes.append(_SCRIPT_RE)
    for regex in regexes:
        for m in regex.finditer(text):
            if _value_after(re.split(r"[\n.;!?](?:\s|$)", text[m.end() : m.end() + 80], maxsplit=1)[0]):
                return True
    return False
