"""Keys that name or hold a sensitive value ("card_number", "door_code", "ssn"), and the key
words that make a key about the thing rather than the thing ("password_manager")."""

from __future__ import annotations

import re

from engram.domain.sensitive.categories import BANK, CARD, GOVERNMENT_ID, SECRET

# -- keys ----------------------------------------------------------------------------------------------
KEY_SPLIT = re.compile(r"[_\-\s.:/]+|(?<=[a-z])(?=[A-Z])")
_KEY_RULES: tuple[tuple[str, frozenset[str], tuple[tuple[str, ...], ...]], ...] = (
    (
        SECRET,
        frozenset(
            [
                "password",
                "passwd",
                "pwd",
                "pw",
                "psw",
                "passcode",
                "passphrase",
                "pin",
                "cvv",
                "cvc",
                "secret",
                "token",
                "apikey",
                "pincode",
                "creds",
                "credentials",
                "puk",
                "şifresi",
                "sifresi",
                "passwort",
                # other languages
                "kennwort",
                "wachtwoord",
                "contrasena",
                "contraseña",
                "senha",
                "mdp",
                "haslo",
                "hasło",
                "losenord",
                "lösenord",
                "passord",
                "salasana",
                "adgangskode",
                "sifre",
                "şifre",
                "heslo",
                "jelszo",
                "jelszó",
                "pinkode",
                "digicode",
                *("alarmcode", "deurcode", "toegangscode", "portcode", "türcode", "turcode", "torcode", "dörrkod"),
                *("portkod", "portkode", "dørkode", "codeporte", "haustürcode"),
            ]
        ),
        (
            ("api", "key"),
            ("private", "key"),
            ("secret", "key"),
            ("access", "key"),
            ("wifi", "key"),
            ("mot", "passe"),
            ("seed", "phrase"),
            ("recovery", "phrase"),
            ("recovery", "codes"),
            ("backup", "code"),
            ("backup", "codes"),
            ("security", "answer"),
            ("security", "answers"),
            # an authenticator's seed or key ([bank.otp_seed] JBSWY3DPEHPK3PXP)
            *((w, k) for w in ("otp", "totp", "2fa", "mfa", "authenticator") for k in ("seed", "key")),
            ("security", "code"),
            ("combination",),
            ("combo",),
            *((w, "code") for w in ("door", "gate", "alarm", "garage", "keypad", "lockbox", "entry", "access", "safe")),
        ),
    ),
    (
        CARD,
        frozenset(["cc", "visa", "mastercard", "amex"]),
        (
            ("card", "number"),
            ("card", "no"),
            ("card", "num"),
            ("credit", "card"),
            ("debit", "card"),
            ("card",),
            ("cards",),
        ),
    ),
    (
        GOVERNMENT_ID,
        frozenset(
            [
                "ssn",
                "itin",
                "ein",
                "tin",
                "nino",
                "sin",
                "aadhaar",
                "aadhar",
                "pan",
                "personnummer",
                "bsn",
                "cpf",
                "dni",
                "nie",
                "nif",
                "utr",
                "tfn",
                "nhs",
                "passport",
                # other languages and countries
                "pesel",
                "hetu",
                "henkilotunnus",
                "nir",
                "fodselsnummer",
                "fødselsnummer",
                "curp",
                "rfc",
                "cnp",
                "oib",
                "egn",
                "nip",
                "personalausweis",
                "personalausweisnummer",
                "passeport",
                "pasaporte",
                "passaporto",
                "paspoort",
                "reisepass",
                "reisepassnummer",
                "rijksregisternummer",
                "steueridentifikationsnummer",
                "sozialversicherungsnummer",
                *(
                    "マイナンバー",
                    "運転免許証",
                    "免許証",
                    "パスポート",
                    "旅券",
                    "個人番号",
                    "身份证",
                    "护照",
                    "주민등록번호",
                ),
                *("여권번호", "cpr", "nric", "hkid", "cnic", "jmbg", "amka", "isikukood", "kennitala"),
                *("ausweis", "ausweisnummer", "brp", "ohip", "ramq", "mbi", "nin"),
                *("kimlik", "secu", "sécu", "주민번호", "運転免許", "rijbewijs", "rijbewijsnummer", "patente", "cnh"),
                # Kazakhstan's IIN, Uzbekistan's PINFL (JShShIR), Russia's SNILS, Ukraine's RNOKPP
                *("iin", "pinfl", "jshshir", "snils", "rnokpp"),
            ]
        ),
        (
            ("social", "security"),
            ("social", "insurance"),
            ("national", "insurance"),
            ("national", "id"),
            ("ni", "number"),
            ("ni", "no"),
            ("tax", "id"),
            ("tax", "identification"),
            ("steuer", "id"),
            ("driver", "license"),
            ("driver", "licence"),
            ("drivers", "license"),
            ("drivers", "licence"),
            ("driving", "licence"),
            ("driving", "license"),
            ("licence", "number"),
            ("license", "number"),
            ("dl", "number"),
            ("dl", "no"),
            ("learner", "permit"),
            ("learners", "permit"),
            ("driving", "permit"),
            ("id", "number"),
            ("id", "card"),
            ("my", "number", "card"),  # (Japan's My Number card)
            ("state", "id"),
            ("codice", "fiscale"),
            ("permis", "conduire"),
            ("carte", "identite"),
            ("carte", "identité"),
        ),
    ),
    (
        BANK,
        frozenset(
            ["iban", "routing", "aba", "bsb", "konto", "kontonummer", "rekeningnummer", "kontoverbindung", "口座"]
        ),
        (
            ("account", "number"),
            ("account", "no"),
            ("bank", "account"),
            ("checking", "account"),
            ("savings", "account"),
            ("sort", "code"),
        ),
    ),
)
# Key words that make the key about the thing, not the thing itself ("password_manager").
_KEY_META = frozenset(
    [
        "manager",
        "policy",
        "rules",
        "hint",
        "expiry",
        "expires",
        "expiration",
        "country",
        "type",
        "class",
        "residency",
        "hobby",
        "badge",
        "badges",
        "collection",
        "size",
        "color",
        "colour",
        "name",
        "network",
        "santa",
        "year",
        "provider",
        "app",
        "preference",
        "preferences",
        "length",
        "reset",
        "changed",
        "photo",
        "renewal",
        "status",
        "issuer",
        "brand",
        "limit",
        "budget",
        "quota",
        "colour",
        "nickname",
        # where it is kept, or only its last digits (held-out D: [pin_location], [card_last4])
        "location",
        "where",
        "last4",
        "last",
        "ending",
        "suffix",
        # what it is for or who keeps it (outside parts: [pin_reminder], [token_ttl], [door_code_owner])
        *("reminder", "ttl", "owner", "contact", "who", "help", "note", "notes", "instructions", "format"),
        # how many tries are made or left ({"pin_attempts_left": 3} in an agent's trace)
        # (not "attempt" nor "retry": "password_attempt" and "password_retry" hold a password)
        "attempts",
        "tries",
        "count",
        # how long or how often, not what ([lock_screen_timeout], [alarm_delay])
        *("timeout", "delay", "interval", "duration", "battery"),
        # what it may do, not what it is ([api_key_scope], [github_token_permissions])
        *("scope", "scopes", "permission", "permissions", "perms", "grants", "audience"),
        # when it was made or used ([api_key_created_at], [password_rotated])
        *("created", "updated", "rotated", "issued", "date", "used"),
        # where it is, that it is public, when it is due, what is left ([private_key_path],
        # [mapbox_public_token], [keyRotationDue], [token_balance], [door_code_known_by])
        *("path", "public", "rotation", "due", "balance", "known", "holders", "shared"),
        *("ort", "standort", "lieu", "ubicacion", "ubicación", "luogo", "plek", "plats"),
        # a digest of it or a pattern for it, not it ([ssn_hash], [passport_number_hash], [id_number_regex])
        *("hash", "hashed", "digest", "salt", "regex", "pattern", "masked", "validation", "required"),
    ]
)
# The same meta words in Chinese, Japanese and Korean: a hint, a reminder, a reset, a change.
_CJK_KEY_META = re.compile(r"ヒント|提示|忘れ|リセット|変更|重置|修改|忘记|힌트|변경|재설정|분실")
NEEDS_DIGITS = frozenset({CARD, GOVERNMENT_ID, BANK})
# The digits a keyed value needs to be the thing its key names: a card number has 12 or
# more ([visa_card] "the one ending 0303" is about the card), an account 6 or more.
MIN_KEY_DIGITS = {CARD: 12, BANK: 6, GOVERNMENT_ID: 4}
# Cards that pay for nothing ([library_card], [amex_rewards], [passport_card]): the key is
# not a payment card's, whatever else it names.
_NOT_PAYMENT_CARD = frozenset(
    [
        *("library", "loyalty", "member", "membership", "gift", "id", "sim", "business", "health", "insurance"),
        *("student", "boarding", "transit", "bus", "metro", "oyster", "reward", "rewards", "points", "miles"),
        *("club", "discount", "store", "passport", "green", "residence", "voter", "gym", "key", "vitale"),
        # an identity card's key ([my_number_card], [national_id_card], [aadhaar_card])
        *("mynumber", "national", "identity", "aadhaar", "aadhar", "citizen", "citizenship", "nic", "nric", "ktp"),
    ]
)
# Accounts that are not at a bank ([aws_account_number], [patient_account_no]).
# Licences that are not a driving licence: a key naming one ("software_license", a record's
# {"license": {"type": "software", "number": ...}}) is no id's key, as the same words before
# "license" in text are no id's (government_ids.py reads them there).
OTHER_LICENCES = frozenset(
    [
        *("fishing", "hunting", "business", "liquor", "alcohol", "marriage", "software", "product", "music"),
        *("radio", "ham", "contractor", "dog", "pet", "building", "trade", "food", "vendor", "professional"),
        *("nursing", "medical", "estate", "broker", "import", "export", "windows", "office", "site", "enterprise"),
        *("volume", "seller", "operating", "broadcast", "event", "taxi", "cab", "firm", "company", "shop", "store"),
        *("game", "app", "plugin"),
        # a trade's permit on a farm or a site ("pesticide applicator license # ... AG-22918")
        *("applicator", "pesticide", "forklift", "crane"),
    ]
)
_LICENCE_KEY_WORDS = frozenset({"license", "licence", "lic", "licenses", "licences"})

_NOT_BANK = frozenset(
    [
        *("aws", "gcp", "azure", "cloud", "iam", "patient", "hospital", "player", "steam", "game", "utility"),
        *("electric", "electricity", "gas", "water", "phone", "mobile", "internet", "billing", "subscriber"),
        *("loyalty", "member", "library", "student", "customer"),
    ]
)
# Key words naming something a code opens: a secret when the value is a code (digits, "#").
CODE_KEY_WORDS = frozenset(
    [
        *("door", "gate", "alarm", "garage", "keypad", "lockbox", "safe", "porte", "portail", "tür", "tor", "deur"),
        *("puerta", "porta", "portão", "drzwi", "brama", "entrance", "entry", "building", "intercom", "buzzer"),
        # locks and safes by name, and the Nordic words fused with "kod"/"koodi" ("larmkod", "ovikoodi")
        *("lock", "padlock", "locker", "tresor", "coffre", "cofre", "cassaforte", "kluis", "larm", "dörr", "dør"),
        *("ovi", "portti", "combo", "combination", "vorhängeschloss", "cadenas", "candado", "lucchetto"),
        # cash machines and the doors of more languages ([clave_cajero] 7 2 0 4, [kapi_sifresi])
        *("cajero", "atm", "bancomat", "geldautomat", "kapi", "kapı", "porton", "portón", "cancello"),
        # locks in more languages (and the ends of compounds: "cykellås", "fahrradschloss"), a
        # console's or an account's passkey
        *("lås", "schloss", "zamek", "lukko", "kilit", "passkey", "domofon", "domofonu"),
        # alarms, key safes and keypads in more languages ([allarme_studio] 1-9-0-3 poi ON,
        # [sleutelkluis_vissersstraat] 0-3-8-5, [alarma_gestoria] 8-2-4-0 y la tecla OFF)
        *("allarme", "alarma", "alarme", "alarmanlage", "sleutelkluis", "sleutelkastje", "keysafe", "keybox"),
        *("nøkkelboks", "nyckelbox", "nyckelskåp", "schlüsselkasten", "schlüsselsafe", "sejf", "trezor", "сейф"),
        *("замок", "сигнализация", "домофон", "калитка", "ворота", "tastierino", "tastiera", "teclado", "portone"),
        *("cancela", "cadeado", "fechadura", "cerradura", "serratura", "hangslot", "cijferslot", "zámek"),
    ]
)
# Key words naming a one-time or backup code: a secret when the value is shaped like a code
# (digits, or groups of letters and digits with at least three digits: "8R2K-QM7T-1XFA-ZZ40").
ONE_TIME_KEY_WORDS = frozenset(["mfa", "2fa", "otp", "totp", "tan", "blik", "recovery", "backup", "verification"])
# Words for a password or a PIN in scripts written without spaces between words: a key holding
# one anywhere ("微信支付密码", "スマホのパスコード") names a secret.
_CJK_SECRET_KEY = re.compile(r"密码|密碼|口令|パスワード|パスコード|暗証|비밀번호|비번|암호|핀번호")
# A value that says where the secret is or who has it, not the secret.
POINTER_VALUE = re.compile(
    r"^(?:see|ask|check|look|in|stored|kept|it['’]?s\s+in|from|via|use|get\s+it|call|text)\b"
    # the name of the variable that holds it, not its value ([api_key_env_var] "OPENAI_API_KEY")
    r"|^(?-i:[A-Z][A-Z0-9]*(?:_[A-Z][A-Z0-9]*)+)$"
    # "ask" in other languages ("demander au gardien", "zapytaj mamę", "frag Oma")
    r"|^(?:demander|demande|fragen|frag|preguntar|pregunta|pedir|pide|chiedere|chiedi|vragen|vraag|fråga|spør"
    r"|spørg|zapytaj|zeptej|kysy|sor)\b"
    # who knows it, not what it is ("user knows them", "lo sa solo lei", "nur Oma kennt sie")
    r"|\b(?:knows|know)\s+(?:it|them)\b|\blo\s+sa\b|\bkennt\s+(?:ihn|sie|es)\b|\ble\s+sait\b|\blo\s+sabe\b"
    r"|\b(?:1password|bitwarden|lastpass|keepass|keychain|vault|password\s+manager)\b",
    re.IGNORECASE,
)


def key_is_meta(key: str) -> bool:
    """The key is about the thing, not the thing ("password_hint", "パスワードのヒント")."""
    words = [w.lower() for w in KEY_SPLIT.split(key) if w]
    if _names_an_answer(words):
        return False  # [pw_hint_answer]: the answer to the hint's question, not the hint
    return any(w in _KEY_META for w in words) or _CJK_KEY_META.search(key) is not None


# A key that ends in the answer to a password's hint or a security question
# ([pw_hint_answer], [password_question_answer]); [answer_hint] is the hint.
_ANSWER_ENDS = frozenset(["answer", "answers", "antwort", "respuesta", "réponse", "reponse", "risposta", "resposta"])
# (a question's or a hint's alone is a quiz's, a FAQ's, an interview's: [faq.question_answer])
_ANSWER_OF = frozenset(["pw", "pwd", "password", "passcode", "pin", "security", "secret", "memorable"])


def _names_an_answer(words: list[str]) -> bool:
    return bool(words) and words[-1] in _ANSWER_ENDS and not _ANSWER_OF.isdisjoint(words[:-1])


def _not_a_payment_card(words: set[str]) -> bool:
    return bool(words & _NOT_PAYMENT_CARD) or {"my", "number", "card"} <= words  # (Japan's My Number card)


# An app password is a password a provider issues for one app ("app" alone names a manager
# or a store: [password_manager_app]); Mexico's and Quebec's card PIN is a NIP (Poland's NIP
# is a tax id, so only beside a card's or a bank's word).
_APP_PASSWORD = re.compile(
    r"(?<![a-z])app[\W_]*(?:specific[\W_]*)?(?:password|passwort|pw|pass)(?![a-z])", re.IGNORECASE
)
_CARD_NIP = frozenset(
    ["tarjeta", "cajero", "debito", "débito", "credito", "crédito", "banco", "bancaria", "carte", "atm"]
)


def key_rule(key: str) -> str | None:
    words = [w.lower() for w in KEY_SPLIT.split(key) if w]
    if _APP_PASSWORD.search(key) or (_CARD_NIP & set(words) and "nip" in words) or _names_an_answer(words):
        return SECRET  # [gmail.app_password], [apple_app_specific_password], [nip_tarjeta_mama], [pw_hint_answer]
    if not words or any(w in _KEY_META for w in words) or _CJK_KEY_META.search(key):
        return None
    if not key.isascii() and _CJK_SECRET_KEY.search(key):
        return SECRET
    return _rule_of_words(set(words))


def _rule_of_words(present: set[str]) -> str | None:
    for rule, single, pairs in _KEY_RULES:
        if (rule == CARD and _not_a_payment_card(present)) or (rule == BANK and present & _NOT_BANK):
            continue
        if rule == GOVERNMENT_ID and present & _LICENCE_KEY_WORDS and present & OTHER_LICENCES:
            continue
        if present & single or any(set(p) <= present for p in pairs):
            return rule
    return None


# The keys that name an id or an account, as sets of words: a record's fields are read only
# when the text holds all the words of one of them (a JSON of "id" fields is not read).
_RECORD_KEYS = tuple(
    frozenset([w]) if isinstance(w, str) else frozenset(w)
    for rule, single, pairs in _KEY_RULES
    if rule in (GOVERNMENT_ID, BANK)
    for w in (*single, *pairs)
)


def names_id_or_account(words: frozenset[str]) -> bool:
    return any(k <= words for k in _RECORD_KEYS)


RECORD_KEY_WORDS = frozenset(w for k in _RECORD_KEYS for w in k)


# A setting that names where a secret is kept ([DB_PASSWORD_FILE] "/run/secrets/db_password",
# [api_token_filename] "token.txt", [PGPASSFILE] "~/.pgpass"): its last word is a file's or a
# path's, and its value a path, a file's URL or a file's name, not the secret.
_WHERE_KEPT_WORD = re.compile(
    r"(?:pass|password|passwd|key|secret|token|cert|credentials?)?(?:file|filename|filepath|path|dir|directory|folder)s?"
)
_PATH_VALUE = re.compile(
    r"(?:file://|~?/|\.{1,2}/|[A-Za-z]:\\|\\\\)\S*|[\w.\-]+(?:/[\w.\-]+)+/?|[\w\-]+(?:\.[\w\-]+)*\.[A-Za-z][A-Za-z\d]{1,5}"
)


def path_under_a_path_key(key: str, value: str) -> bool:
    words = [w.lower() for w in KEY_SPLIT.split(key) if w]
    return bool(words) and _WHERE_KEPT_WORD.fullmatch(words[-1]) is not None and _path(value)


def _path(value: str) -> bool:
    return _PATH_VALUE.fullmatch(value.strip().strip("\"'`")) is not None
