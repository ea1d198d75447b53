"""What a secret's value looks like, and what only points at one (a placeholder, a masked value,
a reference to where the secret is kept)."""

from __future__ import annotations

import re

# Values in such a line that hold no secret: references, placeholders, empties.
PLACEHOLDER = re.compile(
    r"^(?:\$|<|\{|%|\[|\(|\*+$|x+$|\.\.\.|none$|null$|true$|false$|env\b|os\.environ|os\.getenv|process\.env"
    r"|getenv|(?:[a-z]{2,5}[_\-])?your[_\-]|redacted\b|hidden\b|replace[_\-]?me|change[_\-]?me|todo\b|tbd\b|\"<"
    r"|(?:api[_\-]?)?key[_\-]?here\b"
    # a word that says what the value is, not the value ('API_KEY = "hardcoded"')
    r"|(?:hardcoded|hard-coded|placeholder|dummy|not[_\-\s]?set|unset|fake|hashed)[\"']?$"
    # a file in a home directory where it is kept ("vault password file path: ~/.vault_pass")
    r"|~/"
    # a YAML tag that reads the value from elsewhere (Home Assistant's "!secret mqtt_password" and
    # "!env_var MQTT_PASS", CloudFormation's "!Ref DbPassword", Ansible's "!vault |")
    r"|!(?:secret|env_var|env|include|vault|ref|sub|getatt|importvalue)\b"
    # a reference in code to where the value is (settings.api_key, self.password, config["x"])
    r"|(?:self|this|cls|settings|config|cfg|conf|ctx|args|opts|options|params|secrets|vault|app|request|req|creds"
    r"|credentials)(?:\.|\[)[A-Za-z_\"']"
    # a deploy-time token ("__REPLACED_AT_DEPLOY__", "#{DbPassword}#"), a value still
    # encrypted (sops' "ENC[AES256_GCM,...]", jasypt's "ENC(...)", Vault transit's
    # "vault:v1:..."), a call that asks for it (mongosh's "passwordPrompt()"), and the
    # command that prints it ("vault kv get ...", "op read ...", "aws secretsmanager ...")
    r"|__[A-Z][A-Z0-9_]*__(?:\W|$)|#\{|ENC[\[(]|vault:v\d+:|[A-Za-z_][\w.]*\(\s*\)(?:\W|$)"
    r"|(?:vault\s+(?:kv\s+)?(?:get|read)|op\s+read|aws\s+secretsmanager|gcloud\s+secrets|az\s+keyvault"
    r"|kubectl\s+get\s+secrets?|pass\s+show|security\s+find-generic-password)\b"
    # a provider's prefix kept and the rest replaced by a log's, a diff's or a doc's marker
    # ("SG.REDACTED", "pg_live_REDACTED", "sk_live_<redacted>", "sk_example_123",
    # "ghp_FILTERED"), or a value that says to change it ("django-insecure-change-me")
    r"|[A-Za-z0-9]{1,12}(?:[_.\-][A-Za-z0-9]{1,12}){0,2}[_.\-]"
    r"(?:(?-i:REDACTED|FILTERED|MASKED|SCRUBBED|REMOVED|OMITTED|HIDDEN|ELIDED|EXAMPLE|PLACEHOLDER"
    r"|redacted|filtered|masked|scrubbed|example|sample|placeholder|dummy)(?![A-Za-z])|<|(?-i:x{3,}|X{3,})$)"
    r"|[\w.\-]*?(?<![A-Za-z0-9])(?:change|replace)[_\-]?me(?![A-Za-z0-9])"
    # a template's slot that says where the value goes ("password_here", "your-bot-token-here",
    # "INSERT_API_KEY_HERE", "token-goes-here")
    r"|[A-Za-z][\w.\-]*?[_\-](?:goes[_\-])?here[\"']?$"
    # a variable of psql (":'reporting_pw'", ":pw"), filled in when the script runs
    r"|:[\"']?[A-Za-z_]\w*[\"']?[;,)]?$"
    # a call computing the value from other code ("crypt(gen_random_uuid()::text, ...)",
    # "bcrypt.hashpw(password.encode(), ...)"); a literal inside the call is read apart
    r"|[A-Za-z_][\w.]*\((?=[A-Za-z_])"
    r")",
    re.IGNORECASE,
)
# A value shown masked ("********", "•••••", "xxxx").
MASKED = re.compile(r"[*•●xX#.\-]{3,}")


# A name with a case suffix after an apostrophe ("PTT'den", "Ankara'da").
_NAME_WITH_SUFFIX = re.compile(r"[A-ZÇĞİÖŞÜ][A-Za-zÇĞİÖŞÜçğıöşü]*['’][a-zçğıöşü]{1,5}")


_ORDINAL = re.compile(r"\d{1,4}(?:st|nd|rd|th|er|ère|e|ème|eme|º|ª|te|de|ste)", re.IGNORECASE)
# A word joined to an acronym ("test-FTP", "pre-PROD", "e-ID"): a name, not a chosen value.
_ACRONYM_COMPOUND = re.compile(r"[a-z]+-[A-Z]{2,4}|[A-Z]{2,4}-[a-z]+")


def credential_like(token: str) -> bool:
    token = token.strip(".,;!?)(\"'").rstrip("]}\"'")
    if len(token) < 4 or _NAME_WITH_SUFFIX.fullmatch(token) or _ACRONYM_COMPOUND.fullmatch(token):
        return False
    has_digit = any(c.isdigit() for c in token)
    has_alpha = any(c.isalpha() for c in token)
    has_symbol = any(c in "!@#$%^&*~_+=?<>|\\{}[]" for c in token)
    # case mixed inside a part, not words joined ("test-FTP", "SMTP-Passwort", "e-Mail")
    mixed_case = any(
        any(c.isupper() for c in part[1:]) and any(c.islower() for c in part) for part in re.split(r"[\-.]", token)
    )
    if has_digit and _ORDINAL.fullmatch(token):
        return False  # "their partner's 40th", "le 1er décembre"
    if has_digit and has_alpha:
        return True
    # A passphrase of three or more words joined ("saffron-meadow-otter", "blue_river_cup").
    if len(token) >= 12 and re.fullmatch(r"[^\W\d_]{2,}(?:[\-_.][^\W\d_]{2,}){2,}", token):
        return True
    return has_alpha and (has_symbol or mixed_case) and len(token) >= 6


def pointer(value: str) -> bool:
    """A placeholder, a masked, filled-in or cut value, a type, or a reference to where the
    secret is, quoted or not ("<redacted>", "(hidden)", os.environ["DB_PASSWORD"],
    ${{ secrets.TOKEN }}, "sk_live_xxxxxxxx", "sk-...a4oT", "Optional[str]")."""
    inner = value.strip("\"'`“”‘’,;")
    if PLACEHOLDER.match(inner) or MASKED.fullmatch(inner) or FILLED.search(inner) or TYPE_NAME.fullmatch(inner):
        return True
    return "..." in inner or "…" in inner


# A value filled in with one character over and over: an example or a masked key.
FILLED = re.compile(r"([xX*•●])\1{5,}")
# A type in code, not a value ("api_key: Optional[str] = None", "token: SecretStr").
TYPE_NAME = re.compile(
    r"(?:optional|list|dict|union|secretstr|secretbytes|str|string|bytes|int|bool|boolean|none|any)(?:\W.*)?",
    re.IGNORECASE,
)


# A quoted phrase that says where the secret is or who has it, not the secret ('the password
# is "in the drawer"', 'pin is "on the fridge"', 'das Passwort ist "im Tresor"', '"ask
# Maria"'): plain words led by a place, a keeper or a person to ask. A quoted password has a
# digit, a symbol or a first word no pointer starts with ("in-the-drawer42", "Drawer2024!").
_POINTER_LEAD = frozenset(
    [
        *("in", "inside", "on", "under", "underneath", "beneath", "behind", "beside", "next", "at", "with", "ask"),
        *("see", "check", "written", "taped", "stuck", "printed", "kept", "stored", "saved", "same", "from"),
        *("im", "auf", "unter", "hinter", "bei", "neben", "am", "frag", "siehe", "wie", "dans", "sur", "sous"),
        *("derrière", "chez", "au", "demande", "demander", "voir", "comme", "en", "dentro", "sobre", "debajo"),
        *("detrás", "con", "pregunta", "pregúntale", "no", "na", "em", "embaixo", "atrás", "com", "pergunta"),
        *("pergunte", "nel", "nella", "sul", "sulla", "sotto", "dietro", "da", "chiedi", "vedi", "come", "op"),
        *("onder", "achter", "bij", "vraag", "zie", "w", "pod", "za", "u", "zapytaj", "przy", "i", "på", "bakom"),
        *("bak", "hos", "fråga", "spør", "spørg", "se", "v", "zeptej"),
    ]
)
_KEEPER_NAME = re.compile(r"1password|bitwarden|lastpass|keepass(?:xc)?|dashlane|keychain", re.IGNORECASE)


# What a pointer points at (review rv5: the lead alone let '"i love paris"', '"on my way home"',
# '"see you soon"' through as pointers): a place or thing a password is kept in or on, by the
# stem of its word in the languages of the leads above ...
_KEPT_STEMS = (
    *("drawer", "fridge", "router", "modem", "keyboard", "desk", "wallet", "purse", "notebook", "note", "book"),
    *("card", "box", "safe", "envelope", "paper", "sticker", "label", "back", "bottom", "underside", "monitor"),
    *("screen", "laptop", "phone", "app", "manager", "vault", "file", "doc", "folder", "binder", "diary"),
    *("planner", "cabinet", "shelf", "cupboard", "kitchen", "office", "board", "calendar", "sheet", "email"),
    *("e-mail", "mail", "message", "text", "chat", "post-it", "postit", "bag", "pocket", "jar", "closet"),
    *("wardrobe", "nightstand", "table", "wall", "door", "manual", "letter", "receipt", "drive", "wifi"),
    *("wi-fi", "wlan", "account"),
    *("schublade", "kühlschrank", "tresor", "tastatur", "schreibtisch", "geldbörse", "portemonnaie"),
    *("notiz", "zettel", "brief", "karte", "ordner", "rückseite", "unterseite", "handy", "mappe", "küche"),
    *("tiroir", "frigo", "réfrigérateur", "coffre", "clavier", "bureau", "portefeuille", "carnet", "papier"),
    *("enveloppe", "dos", "dessous", "carte", "classeur", "lettre", "cuisine", "cajón", "cajon", "nevera"),
    *("heladera", "caja", "teclado", "escritorio", "cartera", "billetera", "libreta", "cuaderno", "tarjeta"),
    *("cocina", "gaveta", "geladeira", "cofre", "roteador", "mesa", "carteira", "caderno", "cartão", "cozinha"),
    *("cassett", "cassaforte", "tastiera", "scrivania", "portafoglio", "quaderno", "foglio", "busta", "retro"),
    *("cucina", "lade", "koelkast", "kluis", "toetsenbord", "portemonnee", "boekje", "briefje", "envelop"),
    *("achterkant", "onderkant", "keuken", "szuflad", "lodówk", "sejf", "klawiatur", "biurk", "portfel"),
    *("zeszyt", "kartk", "kopert", "kuchni", "baksidan", "köket", "kjøkken"),
)
# ... a person to ask or keeping it ...
_PERSON_STEMS = (
    *("mum", "mom", "mother", "dad", "father", "wife", "husband", "sister", "brother", "boss", "admin"),
    *("helpdesk", "support", "partner", "son", "daughter", "grandma", "grandpa", "nan", "mama", "papa", "maman"),
    *("mamá", "papá", "mãe", "pai", "madre", "padre", "moglie", "marito", "mamy", "taty", "mamma", "oma", "opa"),
    *("mutter", "vater", "frau", "mann", "chef", "femme", "mari", "mamie", "papi", "esposa", "esposo", "marido"),
)
# (stems of words that inflect in their language take any ending; the others a plural or a
# possessive only: "son" is no "song")
# (Scandinavian's definite ending is part of the word: "kylskåpet", "lådan")
_INFLECTED = (
    *("szuflad", "lodówk", "klawiatur", "biurk", "kartk", "kopert", "kuchni", "cassett", "zeszyt", "låd"),
    *("kylskåp", "kjøleskap", "køleskab", "kassaskåp", "tangentbord", "skrivbord", "plånbok", "lommebok"),
    *("lapp", "kuvert", "skuff"),
)
_KEPT_AT = re.compile(
    r"(?:(?:" + "|".join(map(re.escape, _INFLECTED)) + r")\w*"
    r"|(?:" + "|".join(map(re.escape, _KEPT_STEMS + _PERSON_STEMS)) + r")(?:s|es|n|en|['’]s)?)",
    re.IGNORECASE,
)
# ... or whom: what follows a lead that asks ("ask Maria"), or a name after one that says
# with whom it is ("bij Sanne", "chez Julie").
_ASK_LEAD = frozenset(
    [
        *("ask", "frag", "demande", "demander", "pregunta", "pregúntale", "pergunta", "pergunte", "chiedi"),
        *("vraag", "zapytaj", "fråga", "spør", "spørg", "zeptej"),
    ]
)
_WITH_LEAD = frozenset(["with", "bei", "chez", "bij", "hos", "u", "da", "con", "com"])
_NAME = re.compile(r"[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+")
# ... or another password it is the same as ("same as always", "wie beim WLAN").
_SAME_LEAD = frozenset(["same", "wie", "comme", "come", "como", "zoals", "som"])
_BEFORE = frozenset(["usual", "always", "before", "last", "other", "immer", "toujours", "sempre", "siempre", "altijd"])


def _names_where_or_whom(words: list[str]) -> bool:
    lead, rest = words[0].lower(), words[1:]
    if lead in _ASK_LEAD or (lead in _WITH_LEAD and any(_NAME.fullmatch(w) for w in rest)):
        return True
    if lead in _SAME_LEAD and any(w.lower() in _BEFORE for w in rest):
        return True
    return any(_KEPT_AT.fullmatch(w) or w in ("IT", "HR") for w in rest)


# A reason quoted after the word, not a value: 'asked for my password "to add me to their team"',
# "wanted the PIN 'so they can verify you'" (words of a sentence, a purpose's word first).
_PURPOSE_LEAD = frozenset(["to", "so", "because", "for", "um", "pour", "para", "per", "damit", "afin"])


def quoted_reason(value: str) -> bool:
    """A quoted purpose of four words or more (read only where no copula gives it as the value)."""
    words = value.strip().split()
    return len(words) >= 4 and words[0].lower() in _PURPOSE_LEAD and all(w.strip(".,;:!?'’").isalpha() for w in words)


def quoted_pointer(value: str) -> bool:
    words = value.strip().split()
    if not 2 <= len(words) <= 7 or words[0].lower() not in _POINTER_LEAD:
        return False
    if any(_KEEPER_NAME.search(w) for w in words):
        return True  # 'in 1Password under Family'
    plain = [w.strip(".,;:!?'’") for w in words]
    return all(w.isalpha() for w in plain) and _names_where_or_whom(plain)


# A slot where a value would go, as templates, docs, logs and diffs write it: "<PASSWORD>",
# "<from console>", "${PM_DB_PASSWORD}", "{{ vault_pw }}", "[FILTERED]", "[TEMP_PASSWORD]",
# "SG.REDACTED". The learned stage reads each as the word "redacted" (as it reads the filter's
# own marker): their brackets and capitals made them look like a value beside a secret's word.
_SLOT = re.compile(
    # (an HTML or generic tag, "<init>", "<br>", and a section's header, "[OUTPUT]", are no slots)
    r"<(?=[A-Za-z_$])(?:[^<>\n@]{0,60}?[\sA-Z_][^<>\n@]{0,60}?"
    r"|[a-z\-]*(?:your|redact|filter|mask|hidden|remov|secret|passw|token|key|snip|omit|value|placeholder)[\w\-]*)>"
    r"|\$\{\{?[^{}\n]{1,80}\}\}?|\{\{[^{}\n]{1,80}\}\}"
    # a psql variable after SQL's PASSWORD ("WITH PASSWORD :'app_pw'"), a private key's armour
    # around no key ("-----BEGIN PRIVATE KEY-----\n<paste it here>\n-----END PRIVATE KEY-----")
    r"|(?<=PASSWORD ):[\"']?[A-Za-z_]\w*[\"']?|-----BEGIN [A-Z ]*PRIVATE KEY-----(?:(?![A-Za-z0-9+/=]{16})[^\-])*"
    r"-----END [A-Z ]*PRIVATE KEY-----"
    r"|\[[A-Z_]*(?:PASSWORD|PASSWD|SECRET|TOKEN|KEY|PIN|CODE|OTP|CREDENTIALS?|REDACTED|FILTERED|MASKED|REMOVED"
    r"|HIDDEN|SCRUBBED)[A-Z0-9_]*\]"
)
# A slot that describes what goes in it, as templates, captures and docs write it: words with a
# space between ("<not captured: type=password>", "<key from Key Vault>", "<paste token here>"), or
# lower-case words joined ("<base64-encoded-value>", "<your_password>"). The rules read it as a
# slot, never as the value (its symbols made it look like one); a chosen value in angle brackets
# has neither ("<Kiwi!Fruit7>").
_DESCRIBED_SLOT = re.compile(
    r"<(?:[A-Za-z][\w.\-]*(?:[ \t]+[\w.:=/\-]+){1,8}|[a-z][a-z0-9]*(?:[\-_][a-z0-9]+){1,6})[ \t]*>"
    r"(?![^<>\n]*</)"  # (not an element's opening tag: "<door_code>4471</door_code>")
)


# A template's URL whose password is a capitalised word naming it ("mysql://USER:PASSWORD@HOST",
# "amqp://guest:YOUR_PASSWORD@rabbit"); a chosen password in a URL is not such a word.
_URL_SLOT = re.compile(r"(?<=://)([^\s:/@]{1,40}):[A-Z_]*(?:PASSWORD|PASSWD|PASS|PWD|PW|SECRET|TOKEN|KEY)[A-Z_]*(?=@)")
# Code that reads the value from the environment ('password=os.environ["SYNC_PW"]',
# "process.env.DB_PASS", 'System.getenv("API_KEY")'): where it is, never the value. Read so by the
# learned stage only (``without_slots``): the rules read the value a fallback gives after it
# ('os.getenv("DB_PASSWORD") or "Tr0ub4dor&3"'), and the code's pattern is how they find it.
_ENV_READ = re.compile(
    r"(?:\bos\.environ(?:\.get)?\s*[\[(]\s*[\"'][\w.\-]+[\"']\s*[\])]|\bos\.getenv\(\s*[\"'][\w.\-]+[\"']\s*\)"
    r"|\bprocess\.env\.\w+|\bprocess\.env\[[\"']\w+[\"']\]|\bSystem\.getenv\(\s*\"\w+\"\s*\)|\bENV\[[\"']\w+[\"']\])"
    # (not one assigned or given a fallback: "ENV['RAILS_MASTER_KEY'] ||= '5f2a...'" sets it)
    r"(?!\s*(?:\|\|=|\?\?=|=(?!=)|\|\||\?\?|or\b))"
)
# A log's or a URI's words around a password that hold none: sshd's "Failed password for invalid
# user admin from ...", an authenticator's otpauth:// URI with no secret= parameter.
_NO_VALUE_LOGGED = re.compile(r"\b(?:Failed|Accepted)\s+password\s+for\b")
_OTPAUTH_WITHOUT_SECRET = re.compile(r"otpauth://[^\s?]*\?(?![^\s]*secret=)\S*")


_SLOT_READ = "<redacted>"


def described_slots_masked(text: str) -> str:
    """The text with each slot that describes its value and each template's URL password read as
    the slot "<redacted>" (the learned stage reads it as the word "redacted", as it does every
    slot: ``without_slots``), and log lines and URIs naming a password that hold none without the
    password's word."""
    if "<" in text:
        text = _DESCRIBED_SLOT.sub(_SLOT_READ, text)
    if "://" in text:
        text = _OTPAUTH_WITHOUT_SECRET.sub("otpauth:" + _SLOT_READ, _URL_SLOT.sub(r"\1:" + _SLOT_READ, text))
    return _NO_VALUE_LOGGED.sub("login for", text) if "password for" in text else text


# A provider's prefix kept and the rest replaced by a marker ("SG.REDACTED", "pg_live_REDACTED").
_MARKERS = ("REDACTED", "FILTERED", "MASKED", "SCRUBBED", "REMOVED", "OMITTED", "ELIDED", "EXAMPLE", "PLACEHOLDER")
_MARKED = re.compile(
    r"(?<![\w.\-])[A-Za-z0-9]{1,12}(?:[_.\-][A-Za-z0-9]{1,12}){0,2}[_.\-]"
    r"(?:" + "|".join(_MARKERS) + r"|redacted|example)(?![A-Za-z])"
)


# A payment gateway's token for a card (Stripe's tok_, pm_, src_, card_; Braintree's btok_):
# tokenizing is what keeps the card out of the text.
_GATEWAY_TOKEN = re.compile(r"(?<![\w\-])(?:tok|btok|pm|src|card)_[A-Za-z0-9]{6,}(?![\w\-])")


def without_slots(text: str) -> str:
    """The text with each placeholder, redaction marker, template slot or gateway's card token
    read as "redacted"."""
    if "tok_" in text or "pm_" in text or "src_" in text or "card_" in text:
        text = _GATEWAY_TOKEN.sub(" redacted ", text)
    if any(c in text for c in "<{[") or "PASSWORD :" in text or "-----BEGIN" in text:
        text = _SLOT.sub(" redacted ", text)
    if "env" in text or "ENV" in text:
        text = _ENV_READ.sub(" redacted ", text)
    if any(m in text for m in _MARKERS) or "redacted" in text or "example" in text:
        text = _MARKED.sub(" redacted ", text)
    if "!" in text:
        text = _YAML_REFERENCE.sub(" redacted ", text)
    return text


# A YAML tag that reads the value from elsewhere, and the name it reads ("mqtt_password: !env_var
# MQTT_PASS", "!secret wifi_password", "!Ref DbPassword").
_YAML_REFERENCE = re.compile(
    r"(?<![\w!])!(?:secret|env_var|env|include|ref|sub|getatt|importvalue)\b(?:[ \t]+[\w.\-/]+)?", re.IGNORECASE
)


# A number a CJK label names as a case's, an application's, a report's or an order's
# ("事故受付番号 A-2406-48291", "申請番号 R6-0482", "验证报告编号 A8F29K4Q7LZ3", "접수번호 2024-118"):
# what the learned stage reads keeps the label and loses the number, which its letters and
# digits made look like a code beside "verification" or "password" words.
_CJK_REFERENCE = re.compile(
    r"(?:受付|申請|申请|受理|報告|报告|整理|注文|予約|预约|订单|訂單|案件|事件|理赔|理賠|請求|请求|查询|問合せ|問い合わせ"
    r"|청구|접수|신청|참조|예약|주문|조회)(?:番号|编号|編號|号码|號碼|번호|No\.?)\s*[:：]?\s*"
    r"(?P<number>[A-Za-z0-9](?:[A-Za-z0-9\-/]{2,24})[A-Za-z0-9])"
)
_CJK_NUMBER_LABELS = ("番号", "编号", "編號", "号码", "號碼", "번호", "No")
# A video meeting's id (9 to 11 digits, grouped as the apps print them): which meeting, not
# its passcode ("zoom for the GCSE group: meeting 812 4471 0093, passcode in the post").
_MEETING_WORDS = ("meeting", "zoom", "teams", "webex", "conference")
_MEETING_ID = re.compile(
    r"(?:\s+(?i:id|number|no\.?))?\s*[:#]?\s*(?P<number>\d{3}[ \-]?\d{3,4}[ \-]?\d{3,4})(?![\d\-])"
)


# ... unless the passcode is given beside it: the id and the passcode are read together then
# ("Zoom 839 2017 4456, passcode 7yR2kP").
_PASSCODE_GIVEN = re.compile(
    r"(?i:passcode|password|pass|pwd|pw|pin|code)\s*[:=]?\s*(?![Ii][ns]\b|on\b)(?=\S*[\d@#!$%&*])\S{3,}"
)


def without_reference_numbers(text: str) -> str:
    """The text without the numbers CJK labels name as a case's, an application's or an
    order's, and without a meeting's id when no passcode is given beside it."""
    ids = _meeting_ids(text)
    if ids and _PASSCODE_GIVEN.search(text) is None:
        starts, ends = [0, *(end for _, end in ids)], [*(start for start, _ in ids), len(text)]
        text = "".join(text[a:b] for a, b in zip(starts, ends, strict=True))
    if text.isascii() or not any(label in text for label in _CJK_NUMBER_LABELS):
        return text
    return _CJK_REFERENCE.sub(_label_only, text)


def _meeting_ids(text: str) -> list[tuple[int, int]]:
    """Where each meeting's id is, read after its word only (the words tried at every
    position cost half a millisecond on a 10,000-character message)."""
    lowered, spans = text.lower(), []
    for word in _MEETING_WORDS:
        at = lowered.find(word)
        while at >= 0:
            m = _MEETING_ID.match(text, at + len(word))
            if m is not None:
                spans.append(m.span("number"))
            at = lowered.find(word, at + 1)
    return sorted(set(spans))


def _label_only(m: re.Match[str]) -> str:
    return m.group()[: m.start("number") - m.start()]
