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
from functools import cache, partial

from engram.domain.sensitive.categories import WORDS
from engram.domain.sensitive.codes_other_languages import clause_after, not_a_secret_near, value_opening_clause
from engram.domain.sensitive.credential_pairs import chosen_password
from engram.domain.sensitive.prefilter import answered_once
from engram.domain.sensitive.secret_values import credential_like, pointer, quoted_pointer
from engram.domain.sensitive.secret_words import NETWORK_NAMED, PASSWORD_STEMS, PASSWORD_WORD

_LATIN_WORDS = (
    r"kata\s+sandi|katasandi|kata\s+laluan|m[ậa]t\s+kh[ẩa]u|nenosiri|neno\s+la\s+siri|parol[aăe]i?|parolă"
    r"|lozink[aeiu]|[šs]ifr[aeiu]|gesl[oa]|parool(?:i|iks)?|slapta[žz]od[iž][sį]?|jelszav\w*|contrasenya|contrasinal"
    r"|pasahitza|lykilor[ðd]|wagwoord|cyfrinair|fjal[ëe]kalim\w*|парол[аи]|лозинк\w*|құпиясөз|нууц\s+үг|sandi"
    # inflected and short forms: Uzbek "paroli", Azerbaijani "parolu", Bulgarian "паролата",
    # Kazakh "құпия сөзі", Danish/Norwegian "kodeord", "kode", Swedish "lösen", Dutch "ww",
    # Vietnamese "mk", a wifi's "code" in French
    r"|parol(?:i|u|um|un|lar\w*)|паролата|парола(?:та)?|пароль\w+|құпия\s+сөз\w*|kodeord(?:et)?|kode(?:n|ord)?"
    r"|l[öo]sen(?=\s+(?:till|f[öo]r|[äa]r|:))|l[öo]sen:|ww(?=\s+(?:van|voor|is|:))|ww:|mk(?=(?:\s+\S+){1,3}\s+(?:l[àa]|:))|mk:"
    r"|code\s+(?:du\s+|de\s+la\s+)?wi-?fi|clave\s+(?:del\s+)?wi-?fi|palavra[\s\-]passe|[şs]ifre(?:ni|yi|mi|sini|niz|miz|si)"
    # compounds ("Masterpasswort", "Routerpasswort", "wifi-lösenordet", "bankkoden" is no password)
    r"|\w{2,}(?:passwort|kennwort|wachtwoord|l[öo]senord(?:et)?|passord(?:et)?|salasana|heslo|jelszó|jelszava)"
    r"|wi-?fi-(?:l[öo]senord(?:et)?|passord(?:et)?|salasana|passwort|wachtwoord)"
    # Arabic's password typed in Latin letters (Arabizi: "kalimet el ser lel email: Beirut#2006")
    r"|k[ae]l[ie]?m[ae]t\s+(?:el|al|l)[\s\-]*(?:s[ie]rr?|m[ou]+r[ou]+r|mrour|mroor)"
)
# Thai's รหัส ("code") fused with whose or what it numbers is an id, not a password ("รหัสนักศึกษา
# 6401234567", a student's; "รหัสสมาชิก RUN-0219", a member's; an employee's, a customer's, a
# product's, a post code, a branch's, a course's, a parcel's tracking code).
THAI_ID_CODES = (
    r"นักศึกษา|นักเรียน|นิสิต|สมาชิก|พนักงาน|ลูกค้า|สินค้า|ไปรษณีย์|สาขา|ประจำตัว|วิชา|โครงการ|อ้างอิง|ติดตาม|พัสดุ"
    r"|ห้อง|ทรัพย์|บริษัท|ผู้ป่วย|ผู้ใช้งาน|ลงทะเบียน|ชมรม"
)
_SCRIPT_WORDS = (
    r"كلمة\s*المرور|كلمة\s*السر|كلمة\s*مرور|الباسورد|باسورد|الرقم\s*السري|رمز\s*المرور|رمز\s*عبور|گذرواژه"
    r"|پاس\s*ورڈ|סיסמ[הא]|הסיסמ[הא]|पासवर्ड|पासकोड|पास\s+कोड|कूटशब्द|পাসওয়ার্ড|รหัสผ่าน|கடவுச்சொல்|పాస్‌?వర్డ్|პაროლი|გაროლი"
    r"|գաղտնաբառ|ពាក្យសម្ងាត់|စကားဝှက်|ລະຫັດຜ່ານ"
    # Arabic "كلمة سر", Persian "پسورد" and "رمز" (a password in Persian), Thai "รหัส" and
    # "พาสเวิร์ด", Amharic, Sinhala, Khmer, Georgian inflections
    r"|كلمة\s*(?:ال)?سر|پسورد|پسوورد|رمز|รหัส(?!" + THAI_ID_CODES + r")|พาสเวิร์ด|ይለፍ\s*ቃል|මුරපද\w*|පාස්වර්ඩ්|លេខសម្ងាត់|პაროლ\w*"
    # the English word as Punjabi, Gujarati, Kannada, Malayalam, Tamil, Odia and Urdu write it
    # ("ELD ਐਪ ਦਾ ਪਾਸਵਰਡ Singh@Truck786 ਹੈ", "வைஃபை பாஸ்வேர்ட்: nallur1996")
    r"|ਪਾਸਵਰਡ|ਪਾਸਵਰਡ|પાસવર્ડ|ಪಾಸ್\u200c?ವರ್ಡ್|പാസ്\u200c?വേ[ഡർ]്?|பாஸ்வேர்ட்|பாஸ்வேர்டு|ପାସୱାର୍ଡ|پاسورڈ"
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
        *("paroli", "parolu", "parolum", "parolun", "паролата", "құпия", "kodeord", "kodeordet", "kode", "koden"),
        *("lösen", "losen", "ww", "mk", "code", "clave", "palavra", "şifreni", "şifreyi", "şifremi", "şifresini"),
        *("sifreni", "sifreyi", "sifremi", "sifresini", "şifreniz", "şifremiz"),
        *("kalimet", "kelmet", "kalmet", "kilmet", "kalimat", "kelimet", "kilmat", "kelmat"),
    ]
)
_COMPOUND_ENDS = (
    *("passwort", "kennwort", "wachtwoord", "lösenord", "losenord", "lösenordet", "passord", "passordet"),
    *("salasana", "heslo", "jelszó", "jelszava"),
)
# Stems whose inflections the word set cannot list ("fjalëkalimi", "лозинката", "slaptažodžio").
_INFLECTED = ("fjalëkalim", "fjalekalim", "jelszav", "lozink", "лозинк", "парол", "slaptažod", "slaptazod", "parol")
# (a value is four characters or more: shorter runs are little words, or the pieces of a word
# of Vietnamese whose letters with marks cut it: "môi trường" gave "m", "i", "tr", "ng", which
# used up the words read before "Phobo!HaNoi_27")
_TOKEN = re.compile(r"[!-~]{4,}")
# Password managers whose names look like a value.
_KEEPERS = frozenset(["1password", "1pass", "1pw"])
# A letter of the scripts of _SCRIPT_WORDS (Hebrew, Arabic, Devanagari, Bengali, Tamil,
# Telugu, Sinhala, Thai, Lao, Myanmar, Georgian, Armenian, Ethiopic, Khmer).
_OTHER_SCRIPT = re.compile(
    r"[\u0530-\u06ff\u0900-\u0dff\u0e00-\u0eff\u1000-\u109f\u10a0-\u10ff\u1200-\u137f\u1780-\u17ff]"
)
_EMAIL = re.compile(r"[^@\s]+@[\w\-]+(?:\.[\w\-]+)+")
_USER_NAMED = re.compile(
    r"(?<![\w])(?:username|user\s*name|user\s*id|login\s+name|usuario|nombre\s+de\s+usuario|utilisateur|identifiant"
    r"|benutzername|benutzer|gebruikersnaam|nome\s+utente|nome\s+de\s+usu[áa]rio|kullan[ıi]c[ıi]\s+ad[ıi]"
    r"|nazwa\s+u[żz]ytkownika|имя\s+пользователя|логин)(?![\w])|اسم\s*المستخدم|用户名|ユーザー名|사용자\s*이름|아이디",
    re.IGNORECASE,
)
_DIGITS_PASSWORD = re.compile(r"\d{6,12}")
_HEX_OR_DATE = re.compile(r"(?:0x)?[0-9a-fA-F]{16,}|\d{1,4}[./\-]\d{1,2}[./\-]\d{1,4}")


_REFERENCE_WORDS = frozenset(["ref", "reference", "réf", "referencia", "referência", "riferimento", "referenz"])


# The owner after the name of what the password is for, as Malay, Indonesian and Tagalog write
# it ("kata laluan Maybank2u saya": my Maybank2u password).
_OWNER_AFTER = frozenset(["saya", "aku", "ku", "kamu", "anda", "dia", "kami", "kita", "mereka", "ko", "mo", "niya"])


# A word of Arabic typed in Latin letters, its sounds written as digits ("te8ayaret", "bta3t",
# "ambare7"): after Arabizi's password word it is the sentence going on, not the value
# ("kalimet el ser te8ayaret ambare7": the password changed yesterday).
_ARABIZI_WORD = re.compile(r"(?=[a-z]*[2356789])(?:[a-z]+[2356789]?|[2356789][a-z]+)+")


def _value_after(rest: str, arabizi: bool = False) -> bool:
    user = _USER_NAMED.search(rest) or NETWORK_NAMED.search(rest)
    if user is not None:
        # what follows is the login's or the network's name ("نسيت كلمة المرور، اسم المستخدم ahmed.q88")
        rest = rest[: user.start()]
    previous = ""
    tokens = _TOKEN.findall(rest)[:7]
    for i, raw in enumerate(tokens[:6]):
        value = raw.strip(".,;:!?)(\"'«»“”")
        if tokens[i + 1 : i + 2] and tokens[i + 1].lower() in _OWNER_AFTER:
            previous = value
            continue  # whose password, the owner after it ("kata laluan Maybank2u saya dah tukar")
        if (previous := previous.lower()) in _REFERENCE_WORDS or previous.endswith("ref"):
            previous = value
            continue  # "รหัส OTP หมดอายุแล้ว (Ref: KXQ2)": the reference an OTP's message shows, not the OTP
        previous = value
        if i == 0 and _DIGITS_PASSWORD.fullmatch(value):
            return True  # a device's password of digits straight after its word ("Gerätepasswort 58112930")
        if "://" in value or value.lower().startswith("www.") or _EMAIL.fullmatch(value):
            continue
        if _HEX_OR_DATE.fullmatch(value):
            continue
        if pointer(value) or value.lower() in _KEEPERS:
            return False  # "(hidden)", "<redacted>", "in 1Password": the value is withheld
        if arabizi and _ARABIZI_WORD.fullmatch(value):
            continue
        if credential_like(value):
            return True
    return False


# Argentina's AFIP login is a "clave fiscal" ("usuario 20318457299, clave fiscal Tango#Buenos2023"),
# which the password words leave out as a code of record ("clave fiscal" of a company, an RFC):
# a chosen password after it is the login's.
_CLAVE_FISCAL = re.compile(r"(?<![\w])clave\s+fiscal(?:\s+(?:es|era|nueva|actual))?\s*[:=]?\s*(?P<v>\S{8,64})", re.I)


def password_in_other_language(text: str, words: frozenset[str]) -> bool:
    """A password word of the languages above and a credential-like value within a few words."""
    if "fiscal" in words and any(chosen_password(m.group("v")) for m in _CLAVE_FISCAL.finditer(text)):
        return True
    regexes = []
    if words & STEMS or any(w.endswith(_COMPOUND_ENDS) or w.startswith(_INFLECTED) for w in words):
        regexes.append(_LATIN_RE)
    if not text.isascii() and _OTHER_SCRIPT.search(text):
        regexes.append(_SCRIPT_RE)
    for regex in regexes:
        for m in regex.finditer(text):
            if not_a_secret_near(text, m.start(), m.end()):
                continue  # "kode promo DISKON50", "رمز الخصم SAVE20"
            # (asked once a filter run for the same words: "รหัส OTP (Ref: KXQ2)" again and again)
            rest = clause_after(text[m.end() : m.end() + 80])
            arabizi = m.group()[:1].lower() == "k" and regex is _LATIN_RE
            if answered_once("value_after", (rest, arabizi), partial(_value_after, rest, arabizi)):
                return True
    return False


# The value first, then a few words, then the word, in any language ("hunde123 ist das pw für
# den Router", "Tulipan1985 to moje hasło", '"soleil2023!" c'est mon mot de passe'): the value
# opens the text or a clause.
# Chinese, Japanese and Korean join the word to what comes before it ("私のパスワード").
# What says the value is the password, between them ("ist das", "c'est mon", "to moje", "es la",
# "это", a dash) or after the word (Turkish "şifresi bu", Japanese "です").
_SAYS_IT_IS = re.compile(
    r"(?:^|\s)(?:—|–|-|is|was|ist|war|wäre|est|c['’]est|était|es|era|sea|é|è|era|to|jest|je|jsou|är|var|er|was|это|был\w*"
    r"|є|е|este|on|az|ni|ndiyo|adalah|ialah|là|ay|olan|dir|dır|это|ήταν|είναι|הוא|היא|هو|هي|است|हैं?|ही)(?:\s|$)"
    r"|是|は|が|이야|은|는",
    re.IGNORECASE,
)
_SAYS_IT_IS_AFTER = re.compile(
    r"\S*\s*(?:bu|budur|dir|dır|です|だ|이야|야|입니다|है|hai|ni|ndiyo)(?![\w])", re.IGNORECASE
)
# A sentence's start (not a label's colon: "SSID: Casa-Ruiz (password in 1Password)").
_SENTENCE_OPENS = re.compile(r"(?:[\n.!?;]|^)\s*[\"“«'‘]?$")
# A commit or object id opening a line of a log ("a31f0c8 add password strength meter").
_SHORT_HEX = re.compile(r"(?=[0-9a-f]*\d)[0-9a-f]{7,40}")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_CJK_PASSWORD_WORD = re.compile(r"パスワード|暗証番号|密码|密碼|비밀번호|비번")
_ANY_PASSWORD_WORD = re.compile(PASSWORD_WORD + r"(?!-)", re.IGNORECASE)


# The password words of the text's word set (not "sent", "number" or "question").
_BEFORE_STEMS = (PASSWORD_STEMS | STEMS) - frozenset(
    [
        *("answer", "sent", "texted", "number", "question", "memorable", "words", "recovery", "security", "seed"),
        *("network", "wi", "fi", "p", "pass", "client", "secret", "carte", "cb", "code", "multibanco", "maiden"),
    ]
)


def password_before_its_word(text: str, words: frozenset[str]) -> bool:
    """The value first, then its word ("hunde123 ist das pw", "Osaka#2019 は私のパスワードです")."""
    if not words & _BEFORE_STEMS and (text.isascii() or not (_OTHER_SCRIPT.search(text) or _CJK.search(text))):
        return False
    regexes = [_ANY_PASSWORD_WORD, _LATIN_RE]
    if not text.isascii():
        regexes.extend((_SCRIPT_RE, _CJK_PASSWORD_WORD))
    clause = cache(partial(value_opening_clause, text, opens=_SENTENCE_OPENS))  # (密码 is in two patterns)
    return any(
        _password_before(text, m, token, gap)
        for regex in regexes
        for m in regex.finditer(text)
        for token, gap in clause(m.start())
    )


_WHERE_AFTER = re.compile(
    r"\s*(?:steht|stehen|liegt|liegen|klebt|hängt|staat|ligt|står|ligger|sitter|finns|findes"
    r"|(?:is|are|ist|est|está|esta|è|zit)\s+(?:on|under|in|at|behind|printed|written|auf|unter|im|sur|sous|dans"
    r"|en|no|na|debajo|sul|sulla|sotto|nel|nella|op|onder))(?![\w])"
    # (or a bare place with a thing it is written on: "MarshFamily_5G — password on the sticker under the router")
    r"|\s*(?:(?:is|are|printed|written|stuck|taped)\s+)?(?:on|under|behind|inside|in|auf|unter|sur|sous|en|na|op)\s+"
    r"(?:the|a|an|my|our|your|der|die|dem|den|le|la|el|o|a|de)\s+(?:[\w\-]+\s+){0,2}?(?:sticker|label|card|back"
    r"|bottom|underside|side|lid|box|router|modem|fridge|whiteboard|paper|note|receipt|agreement|contract|leaflet"
    r"|manual|sheet|flyer|Aufkleber|Etikett|Unterseite|Rückseite|étiquette|autocollant|etiqueta|pegatina|sticker)s?\b",
    re.IGNORECASE,
)
_IN_GENERAL = re.compile(r"\b(?:most|commonest|common|popular|worst|weakest|typical|example|famous)\b", re.IGNORECASE)


def _password_before(text: str, word: re.Match[str], token: str, gap: str) -> bool:
    value = token.strip(".,;!?)(\"“”«»'‘’—–")
    if _OTHER_THING.search(gap) or any(c in gap for c in ",:") or value.endswith(":") or _SHORT_HEX.fullmatch(value):
        return False  # "BT-Hub-7QX is the network name, password on the router"
    if _IN_GENERAL.search(gap) or _WHERE_AFTER.match(text, word.end()):
        # "password123 is the most common password": passwords in general; "FRITZ!Box 7590 –
        # WLAN-Schlüssel steht auf der Unterseite": where it is follows, the value is none of these
        return False
    if not (_SAYS_IT_IS.search(gap) or _SAYS_IT_IS_AFTER.match(text, word.end())):
        return False  # "v2.3.1 changed password policy": a line's first word, not the password
    if _CJK.search(value):
        return False  # "Wi-Fiのパスワード": the word's own phrase, not a value before it
    return credential_like(value) and not pointer(value) and not any(c in value for c in "/=@$")


# Words between a value and a password word that make the value something else (its user
# name, the network's name, a file).
_OTHER_THING = re.compile(
    r"(?<![\w])(?:name|nom|nome|nombre|navn|namn|nimi|naam|netzwerk|network|r[ée]seau|red|rede|ssid|user\w*|benutzer\w*"
    r"|usuario|utilisateur|login|e-?mail|file|datei|fichier|archivo|hint|tipp|dica|pista|indice|manager|policy)(?![\w])",
    re.IGNORECASE,
)


# A value in quotes a few words after a password word of any language, a copula or a dash
# before it: the quotes say where the value starts and ends, whatever it looks like ("heslo
# na wifi je "knedlíky a zelí"", "passordet til wifi er "brunost og vafler"", "пароль від
# wi-fi — «вишневий садок»"). Unquoted, these words may describe it ("heslo na wifi je
# příliš krátké"), so only the quotes make a plain word the value.
_QUOTED_AFTER = re.compile(
    r"(?P<gap>(?:[ \t]+[^\s\"“«„'‘:=—–]+){0,5}?)[ \t]*(?P<sep>[:=—–]|[ \t]-|(?<=\s))[ \t]*"
    r"[\"“«„‘'](?P<v>[^\"”»“’'\n]{3,40})[\"”»“’']"
)
_QUOTE_COPULA = re.compile(
    r"(?<!\S)(?:is|was|ist|lautet|war|est|c['’]est|es|era|é|è|to|jest|je|är|er|on|e|este|є|е|это|είναι|ni|adalah|là|hai|hoga"
    r"|هي|هو|היא|הוא|है)$",
    re.IGNORECASE,
)
# What is quoted is a label, a message or a button, not the value ('the password field says
# "Enter password"', 'password "reset" link').
_QUOTED_LABEL = re.compile(
    r"\b(?:says?|said|shows?|showed|reads?|labell?ed|called|named|titled|message|error|prompt|button|field|option"
    r"|menu|link|tab|dialog|box|screen|page|heißt|steht|dit|indique|requirements?|rules?|strength|question|tip"
    # a password manager's entry: its label, title, note or hint ('password label: "Work laptop"')
    r"|labels?|titles?|names?|notes?|hints?|tags?|category|description|comments?|memo|reminder"
    # where it is kept: in a manager, under a folder or an entry ("is in 1Password under", "im Ordner")
    r"|in|im|dans|w|we|en|i|under|unter|sous|ordner|folder|dossier|carpeta|cartella|map|entry|eintrag|saved|stored"
    r"|liegt|failed)\b",
    re.IGNORECASE,
)
_QUOTED_WORDS = frozenset(
    ["password", "passwort", "enter", "invalid", "wrong", "incorrect", "forgot", "reset", "submit", "required", "weak"]
)


_PLACE_THEN_COPULA = re.compile(
    r"(?<![\w])(?:in|im|dans|en|w|we|i)\s+[^\s\"“”]{1,20}(?=\s+(?:is|was|ist|est|es|é|è|jest|är|er)\s*$)", re.IGNORECASE
)


# A code word agreed with a service, said to prove who calls (a home alarm's or an emergency
# call centre's "Codewort", a bank's "code word"): quoted after it, the word is the secret.
_AGREED_WORD = re.compile(
    r"(?<![\w])(?:code[\s\-]?words?|codewort\w*|kennwort\w*|kodeord\w*|kodord\w*|mot[\s\-]code|palabra\s+clave"
    r"|parola\s+d['’]ordine|wachtwoord|has[łl]o\s+(?:s[łl]owne|do\s+centrali)|кодов\w+\s+слов\w*)(?![\w])",
    re.IGNORECASE,
)


def quoted_password(text: str) -> bool:
    """A quoted value after a password word of any language, a copula or a dash between."""
    regexes = [_ANY_PASSWORD_WORD, _LATIN_RE, _AGREED_WORD] + ([_SCRIPT_RE] if not text.isascii() else [])
    for regex in regexes:
        for m in regex.finditer(text):
            q = _QUOTED_AFTER.match(text, m.end())
            if q is None:
                continue
            # (where it is used, then its copula: "password in wow is "..."" gives it, "is in
            # 1Password under "Bank"" names where it is)
            gap = _PLACE_THEN_COPULA.sub(" ", q.group("gap"))
            if _QUOTED_LABEL.search(gap) or _OTHER_THING.search(q.group("gap")):
                continue
            said = q.group("sep").strip() != "" or _QUOTE_COPULA.search(q.group("gap").strip()) is not None
            value = q.group("v").strip()
            if (
                said
                and not pointer(value)
                and not quoted_pointer(value)
                and not (set(WORDS.findall(value.lower())) & _QUOTED_WORDS)
            ):
                return True
    return False
