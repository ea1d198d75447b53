"""Secrets in configuration and code: a setting whose name says it holds a secret, and the
value given to it. The name may be written in any of the ways code names things
(``DB_PASSWORD``, ``dbPassword``, ``db-password``, ``PGPASSWORD``, ``_authToken``), in a
.env line, YAML, JSON, TOML, INI, an XML element or a ``name:``/``value:`` pair; an SQL
``IDENTIFIED BY``, a .pgpass line and a session cookie are settings too. A name that is
about the secret rather than the secret (``token_type``, ``password_min_length``,
``nextPageToken``, ``POSTGRES_PASSWORD_FILE``) and a value that is no secret (a
placeholder, a reference, a path, a type name) pass."""

from __future__ import annotations

import re

from engram.domain.sensitive.categories import folded
from engram.domain.sensitive.cjk_passwords import described_in_script
from engram.domain.sensitive.secret_values import pointer
from engram.domain.sensitive.secret_words import TICKET_PASS, phrases_joined

# Any name given a value: the name is checked in code below, since a regular expression
# cannot read camelCase under IGNORECASE.
_SETTING_RE = re.compile(
    r"""(?<![\w])(?P<name>[A-Za-z_][A-Za-z0-9_\-.]{0,63})["']?[ \t]*(?::=|=>|=|:)[ \t]*(?P<quote>["']?)"""
    # (what follows is looked at, not taken: the next setting on the line may start in it)
    r"""(?P<value>[^\s"',;]{4,})(?=(?P<rest>[^\n]{0,24}))"""
)
# An XML element or a .NET ``<add key=... value=...>`` pair, and a Kubernetes-style
# ``name: X`` then ``value: Y`` pair.
_ELEMENT_RE = re.compile(r"<(?P<name>[A-Za-z_][\w\-.:]{0,63})(?:\s[^<>]*)?>\s*(?P<value>[^<\s]{4,})\s*</(?P=name)>")
_KEY_VALUE_ATTR_RE = re.compile(
    r"""\b(?:key|name)\s*=\s*["'](?P<name>[^"'\n]{1,64})["']\s+value\s*=\s*["'](?P<value>[^"'\n]{4,})["']""",
    re.IGNORECASE,
)
_NAME_VALUE_PAIR_RE = re.compile(
    r"""\b(?:name|key)["']?\s*:\s*["']?(?P<name>[A-Za-z_][\w\-.]{0,63})["']?\s*(?:,|\n)\s*(?:-\s*)?["']?value["']?\s*:\s*"""
    r"""["']?(?P<value>[^\s"',;}]{4,})"""
)
# A name and a value as two string literals: a subscript, a call, a pair
# (os.environ["DB_PASSWORD"] = "...", config.set("smtp_password", "..."), "password": "...").
_QUOTED_PAIR_RE = re.compile(
    r"""["'](?P<name>[A-Za-z_][\w\-.]{0,63})["']\s*\]?\s*[,=:]\s*["'](?P<value>[^"'\s]{4,})["']"""
)
# A literal fallback after code that reads a secret's variable: the literal is the secret
# whenever the variable is unset (os.getenv("DB_PASSWORD") or "...", process.env.DB_PASS ||
# "...", getenv('API_TOKEN') ?: '...', settings.get("password") ?? "...", .orElse("..."),
# .unwrap_or("..."), a shell's ${DB_PASSWORD:-...}). The variable's name must name a secret
# and the literal hold a value: "", None, another variable, a placeholder ("changeme") pass.
_FALLBACK_RE = re.compile(
    r"""(?:[A-Za-z_$][\w.$:]*\(\s*["'`](?P<name>[\w.\-]{1,64})["'`]\s*\)"""
    r"""|(?<![\w.])(?:process\.env|import\.meta\.env|os\.environ|ENV|\$_ENV|\$_SERVER|env)"""
    r"""(?:\.(?P<name2>\w{1,64})|\[\s*["'](?P<name3>[\w.\-]{1,64})["']\s*\]))"""
    r"""\)*\s*(?:(?:\bor\b|\|\||\?:|\?\?|//)\s*|\.(?:orElse|getOrElse|getOrDefault|unwrap_or|or_else)\(\s*)"""
    r"""["'`](?P<value>[^"'`\n]{1,200})["'`]"""
    r"""|\$\{(?P<name4>\w{1,64}):?[\-=](?P<value2>[^}\s]{1,200})\}"""
)
_FALLBACK_SIGNS = (
    " or ",
    "||",
    "?:",
    "??",
    "//",
    "${",
    ".orElse(",
    ".getOrElse(",
    ".getOrDefault(",
    ".unwrap_or(",
    ".or_else(",
)


def _secret_fallback(text: str) -> bool:
    for m in _FALLBACK_RE.finditer(text):
        name = m.group("name") or m.group("name2") or m.group("name3") or m.group("name4") or ""
        if names_a_secret(name) and _holds_a_value(m.group("value") or m.group("value2") or ""):
            return True
    return False


# A value typed into a form's secret field by a browser automation or an agent's tool call
# ({"selector": "input[name=otp]", "text": "619204"}, page.fill("#password", "..."),
# cy.get("#pin").type("..."), find_element(By.ID, "password").send_keys("...")): the field's
# name, id or type says what the value is.
_FIELD_FILL_RE = re.compile(
    r"""["']selector["']\s*:\s*["'](?P<sel>[^"'\n]{1,120})["']\s*,\s*["'](?:text|value|keys|input)["']\s*:\s*"""
    r"""["'](?P<value>[^"'\n]{1,100})["']"""
    r"""|\.(?:fill|type)\(\s*["'](?P<sel2>[^"'\n]{1,120})["']\s*,\s*["'](?P<value2>[^"'\n]{1,100})["']"""
    r"""|(?:\.get|locator|\$|find_element|findElement|querySelector)\(\s*(?:By\.\w+\s*,\s*)?["'](?P<sel3>[^"'\n]{1,120})["']\s*\)"""
    r"""\s*\.\s*(?:type|fill|send_keys|sendKeys|setValue)\(\s*["'](?P<value3>[^"'\n]{1,100})["']"""
)
# The names in a selector: an id, a class, an attribute's value ("input[name=otp]", "#pin").
_SELECTOR_NAME = re.compile(r"""(?:^|[#.=\s"'])(?P<name>[A-Za-z][\w\-]*)""")
_CODE_FIELDS = frozenset(["pin", "pincode", "passcode", "cvv", "cvc", "otp", "totp", "mfa", "2fa", "mfacode"])


def _typed_into_secret_field(text: str) -> bool:
    for m in _FIELD_FILL_RE.finditer(text):
        selector = m.group("sel") or m.group("sel2") or m.group("sel3") or ""
        value = m.group("value") or m.group("value2") or m.group("value3") or ""
        names = [n.group("name") for n in _SELECTOR_NAME.finditer(selector)]
        parts = {p.lower() for n in names for p in (n, *re.split(r"[\-_]", n))}
        secret = any(names_a_secret(n) for n in names) or bool(parts & _CODE_FIELDS)
        if secret and _holds_a_value(value):
            return True
    return False


# (secret_setting tries the patterns below only when the word or sign each needs is in the
# text: a new alternative with another word must be added to that look too.)
# A user and a password given to an HTTP client (auth=("admin", "..."), HTTPBasicAuth(...)),
# and a password field's value in HTML.
_AUTH_PAIR_RE = re.compile(
    r"""(?:\bauth\s*=\s*[\(\[]|\b\w*BasicAuth\(|\bBasic(?:Auth)?Credentials\()\s*["'][^"'\n]{1,64}["']\s*,\s*"""
    r"""["'](?P<value>[^"'\s]{4,})["']""",
    re.IGNORECASE,
)
_PASSWORD_INPUT_RE = re.compile(
    r"""<input\b[^<>]*?\btype\s*=\s*["']password["'][^<>]*?\bvalue\s*=\s*["'](?P<value>[^"']{4,})["']"""
    r"""|<input\b[^<>]*?\bvalue\s*=\s*["'](?P<value2>[^"']{4,})["'][^<>]*?\btype\s*=\s*["']password["']""",
    re.IGNORECASE,
)
# A registry's "auth" in a Docker config: user:password in base64.
_BASE64_AUTH_RE = re.compile(r"""["']?\bauth["']?\s*:\s*["'](?P<value>[A-Za-z0-9+/]{16,}={0,2})["']""")
# SQL: CREATE/ALTER USER ... IDENTIFIED BY 'x'.
_SQL_IDENTIFIED_RE = re.compile(
    r"""\bidentified\s+(?:with\s+\S+\s+)?by\s+(?:password\s+)?["'](?P<value>[^"'\n]{4,})["']""", re.IGNORECASE
)  # (always quoted, so the caller's test for a quote lets it through)
# A .pgpass line: host:port:database:user:password.
_PGPASS_RE = re.compile(
    r"(?<![\w:.\-])(?=[\w.\-*]*[A-Za-z.*])[\w.\-*]+:(?:\d{2,5}|\*):[\w.\-*]+:[\w.\-*@]+:(?P<value>[^\s:]{4,})(?![\w:])"
)
# A session cookie: what a browser sends to be logged in.
_COOKIE_RE = re.compile(
    r"\b(?:set-)?cookie\s*:\s*[^\n]*?\b(?P<name>[\w.\-]*(?:sess|session|sid|auth|token|jwt|remember|login)[\w.\-]*)"
    r"=(?P<value>[^;\s]{16,})",
    re.IGNORECASE,
)
# A session cookie by its framework's name, given a value with no "Cookie:" header before it
# ("PHPSESSID=7d3f...", "_session_id=a9f8...", a tool's {"name":"sessionid","value":"..."});
# any name holding "sess" or "session" in a text about cookies.
_SESSION_NAMES = (
    r"PHPSESSID|JSESSIONID|ASPSESSIONID\w*|ASP\.NET_SessionId|connect\.sid|laravel_session|sessionid"
    r"|_[\w\-]*session(?:_id)?|[\w\-]*session[_\-]token|__Secure-[\w.\-]*session[\w.\-]*"
)
_SESSION_COOKIE_RE = re.compile(
    r"""(?<![\w.\-])(?P<name>""" + _SESSION_NAMES + r""")["']?\s*(?:=|["']?\s*,\s*["']value["']\s*:)\s*["']?"""
    r"""(?P<value>[A-Za-z0-9%_\-.+/:]{16,})""",
    re.IGNORECASE,
)
_ANY_SESSION_COOKIE_RE = re.compile(
    r"(?<![\w.\-])(?P<name>[\w.\-]*sess(?:ion)?(?:[_\-.]?(?:id|key|token))?)=(?P<value>[A-Za-z0-9%_\-.+/:]{16,})",
    re.IGNORECASE,
)
# A line of a browser's cookie jar (Netscape format: domain, flag, path, secure, expiry, name,
# value): a session cookie's value logs its holder in.
_COOKIE_JAR_RE = re.compile(
    r"(?:TRUE|FALSE)\s+/\S*\s+(?:TRUE|FALSE)\s+\d{1,12}\s+"
    r"(?P<name>[\w.\-]*(?:sess|session|sid|auth|token|jwt|remember|login)[\w.\-]*)\s+(?P<value>\S{16,})",
    re.IGNORECASE,
)

_NAME_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
# A part that alone names a secret, and the parts before "key" that make it one.
_SECRET_PARTS = frozenset(
    [
        *("password", "passwd", "pwd", "passphrase", "secret", "token", "apikey", "credential", "credentials", "pass"),
        # other languages' names for a password in settings ("DB_PASSWORT", "mot_de_passe")
        *("passwort", "kennwort", "wachtwoord", "contrasena", "contraseña", "senha", "mdp", "haslo", "hasło"),
        *("salasana", "losenord", "lösenord", "passord", "adgangskode", "sifre", "şifre", "heslo", "jelszo"),
        *("jelszó", "geheim", "geheimnis", "motdepasse", "clave"),
        # a Wi-Fi pre-shared key, a one-time code
        *("psk", "otp", "totp"),
    ]
)
_KEY_KINDS = frozenset(["api", "private", "access", "auth", "secret"])
# A part fused with what comes before it ("pgpassword", "authtoken", "clientsecret").
_FUSED_ENDINGS = ("password", "passwd", "passphrase", "secret", "token", "apikey", "accesskey", "privatekey")
# Parts after the secret's word that make the setting about the secret, not the secret:
# where it is, what kind it is, its limits, its lifetime, its policy ("token_type",
# "password_reset_timeout", "POSTGRES_PASSWORD_FILE", "secretKeyRef").
_ABOUT_THE_SECRET = frozenset(
    [
        *("file", "filename", "filepath", "files", "path", "paths", "dir", "directory", "folder", "ref", "name"),
        *("id", "ids", "arn", "env", "var", "source", "location", "url", "uri"),
        *("endpoint", "host", "type", "types", "kind", "format", "header", "prefix", "suffix", "scheme", "method"),
        *("mode", "length", "len", "min", "max", "minimum", "maximum", "size", "count", "limit", "limits", "policy"),
        *("rules", "rule", "regex", "pattern", "hash", "hashed", "digest", "salt", "algorithm", "alg", "algo"),
        *("timeout", "ttl", "expiry", "expires", "expiration", "exp", "lifetime", "age", "duration", "interval"),
        *("rotation", "rotate", "rotated", "version", "retries", "retry", "attempts", "rounds", "iterations", "cost"),
        *("strength", "provider", "manager", "store", "hint", "field", "label", "placeholder", "validation"),
        *("validator", "changed", "updated", "created", "at", "date", "time", "last", "expired", "bucket", "usage"),
        *("used", "budget", "estimate", "counter", "enabled", "disabled", "required", "optional", "issuer"),
        *("audience", "scope", "scopes", "grant", "encoding", "charset", "help", "error", "errors", "reset", "rate"),
        *("ratio", "percent", "pct", "fail", "failed", "passed", "through", "status", "state", "exists", "set"),
        # the same in other languages ("Passwort-Richtlinie", "longueur_mot_de_passe")
        *("richtlinie", "länge", "laenge", "ablauf", "regeln", "hinweis", "vergessen", "politique", "longueur"),
        *("política", "politica", "longitud", "beleid", "lengte", "regole", "lunghezza", "zasady"),
        # a command that prints the secret when asked, not the secret (AWS's "credential_process",
        # git's "credential.helper", mutt's "passwordeval", isync's "PassCmd", "password_command")
        *("process", "command", "cmd", "helper", "eval", "program", "script", "exec"),
    ]
)
# Parts before it that do the same ("max_password_length", "show_password", "hashed_password").
_ABOUT_BEFORE = frozenset(
    [
        *("max", "min", "maximum", "minimum", "num", "show", "hide", "use", "allow", "has", "is", "require"),
        *("required", "enable", "enabled", "disable", "disabled", "forgot", "validate", "verify", "check", "hash"),
        *("hashed", "encrypted", "last", "no", "without", "skip", "bypass", "total"),
        # a reference to a secret kept elsewhere, a key public by design ("existingSecret", "site_key")
        *("existing", "site", "public", "anon", "publishable"),
    ]
)
# Kinds of token that are not credentials: cursors, idempotency keys, a tokenizer's
# special tokens, counts of model tokens ("nextPageToken", "eos_token", "max_tokens").
_NOT_A_CREDENTIAL_TOKEN = frozenset(
    [
        *("next", "page", "continuation", "resume", "sync", "idempotency", "cancellation", "pagination", "cursor"),
        *("eos", "bos", "pad", "unk", "sep", "cls", "mask", "stop", "num", "total", "prompt", "completion"),
        *("input", "output", "special", "lexer", "parser", "csrf", "xsrf", "design", "request", "client"),
    ]
)
# Values that say what a setting holds, not what it is ("password: str", "token: string").
_TYPE_OR_STATE = re.compile(
    r"(?:str|string|bytes|int|integer|number|bool|boolean|any|unknown|object|secretstr|secretbytes|text|varchar"
    r"|optional|enabled|disabled|required|default|empty|unset|undefined|nil|none|null|never|true|false|include|omit"
    # MySQL's "Access denied ... (using password: YES)": whether one was sent, not which
    r"|yes|no"
    r"|same-origin)"
    r"(?:\W.*)?",
    re.IGNORECASE,
)


def _secret_part(part: str, before: str) -> bool:
    if part == "token" or part.endswith("token"):
        prefix = part.removesuffix("token") or before
        if prefix in _NOT_A_CREDENTIAL_TOKEN:
            return False
    if part == "pass" and before in TICKET_PASS:
        return False
    return part in _SECRET_PARTS or (part == "key" and before in _KEY_KINDS) or part.endswith(_FUSED_ENDINGS)


def names_a_secret(name: str) -> bool:
    """Does this setting's name say it holds a secret itself?"""
    parts = phrases_joined([p.lower() for p in _NAME_PARTS.findall(name)])
    for i, part in enumerate(parts):
        if not _secret_part(part, parts[i - 1] if i else ""):
            continue
        if any(p in _ABOUT_THE_SECRET for p in parts[i + 1 :]) or any(p in _ABOUT_BEFORE for p in parts[:i]):
            continue
        if part in ("password", "passwd", "pwd") and parts[i + 1 : i + 2] == ["key"]:
            continue  # the field of a Kubernetes secret that holds it ("passwordKey: admin-password")
        return True
    return False


# Code, not a value: a keyword, or a call ("token = await getToken()", "= tokenizer.encode(").
_CODE = re.compile(
    r"(?:await|async|new|function|lambda|yield|self|this|require|import|return|None|nil|undefined)\b.*"
    r"|[A-Za-z_][\w.]*\(.*"
    # a Terraform or template variable ("password = var.db_password"): where the value is
    r"|(?:var|local|data|module|each)\.[A-Za-z_][\w.\[\]\"']*",
)


# The value field of a record, right after its key field.
_RECORD_VALUE_NEXT = re.compile(
    r"""["']?\s*,\s*["']?(?:value|valor|valeur|valore|wert|waarde|val|v)["']?\s*[:=]""", re.IGNORECASE
)
# A payment provider's object ids and test tokens (tok_visa_4242, pm_card_visa): no credential.
_PAYMENT_OBJECT = re.compile(r"(?:tok|pm|card|src|ba|btok|seti|pi|cus)_[A-Za-z0-9_]{4,}")


_FIELD_NAMES = frozenset(["password", "passwd", "secret", "token", "apikey", "api_key", "api-key", "credentials"])


def _holds_a_value(value: str) -> bool:
    value = value.strip("\"'`")
    if len(value) < 4 or pointer(value) or _TYPE_OR_STATE.fullmatch(value) or _PAYMENT_OBJECT.fullmatch(value):
        return False
    if _CODE.fullmatch(value) or value.endswith(":") or value.lower() in _FIELD_NAMES:
        # (a label: "bearer token: `Authorization: Bearer <YOUR_TOKEN>`" names a header; a
        # field's name: an ExternalSecret's "secretKey: password", a chart's "...Key=password")
        return False
    if re.fullmatch(r"\d*\.\d+%?|\d+%", value):  # a rate or a share, not a secret
        return False
    return not value.startswith(("/", "./", "~/", "file:", "arn:")) and re.match(r"[a-z][\w+.\-]*://", value) is None


def _prose(m: re.Match[str]) -> bool:
    """A label in a sentence, not a setting: an unquoted plain word after the colon with
    more words after it ("Failed to watch *v1.Secret: secrets is forbidden")."""
    value = m.group("value")
    if not m.group("quote") and described_in_script(value):
        return True  # ("Wi-Fiのパスワード：ルーターの裏のシールに書いてあります": where it is, in a sentence)
    if m.group("quote") or not value.rstrip(".!?").isalpha():
        return False
    # "pass api_key= explicitly.": a lower-case word ending the sentence, after a space
    ends = value.rstrip(".!?").islower() and value[-1] in ".!?" and not m.group("rest").strip()
    spaced = m.string[m.start("value") - 1].isspace()
    return re.match(r"\s+[^\W\d_]{2,}", m.group("rest")) is not None or (ends and spaced)


# A one-time code or a PIN as a record's field, grouped or not ('"otp":"731 905"', '"senha_x":"82 47 19"')
_CODE_FIELD_RE = re.compile(
    r"""["'](?:otp|totp|pin|pincode|pin_code|passcode|cvv|cvc|puk|verification_code|mfa_code|2fa_code|sms_code|senha(?:_\w+)?"""
    r"""|\w+_pin|clave(?:_\w+)?|password)["']\s*:\s*["'](?P<value>\d{4,8}|\d{3}[ \-]\d{3}|(?:\d\d[ \-]){2}\d\d)["']""",
    re.IGNORECASE,
)


# A service's key named by the service ("OPENWEATHER_KEY", "LAUNCHDARKLY_SDK_KEY",
# "CYPRESS_RECORD_KEY", "JWT_SIGNING_KEY"): "key" alone names a cache's, a table's or a map's
# key too, so only a value drawn at random counts (hex of 24 or more, a UUID, or 20 or more
# letters and digits in both cases), and not under a kind of key that is no credential.
_RANDOM_VALUE = re.compile(
    r"(?:[a-z]{2,8}[\-_])?(?:[0-9a-f]{24,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
    r"|(?=[\w\-]*\d)(?=[\w\-]*[A-Z])(?=[\w\-]*[a-z])[\w\-]{20,})",
    re.IGNORECASE,
)
_NOT_A_CREDENTIAL_KEY = frozenset(
    [
        *("cache", "sort", "partition", "primary", "foreign", "public", "pub", "publishable", "site", "idempotency"),
        *("dedup", "dedupe", "object", "row", "hash", "lookup", "routing", "license", "licence", "product"),
        *("activation", "s3", "bucket", "storage", "map", "idempotent", "unique", "composite", "shard", "group"),
        *("message", "event", "request", "correlation", "trace", "tenant", "entity", "record", "item", "user"),
    ]
)


def _random_under_a_key(name: str, value: str) -> bool:
    parts = [p.lower() for p in _NAME_PARTS.findall(name)]
    if len(parts) < 2 or parts[-1] not in ("key", "keys"):
        return False
    if set(parts[:-1]) & (_NOT_A_CREDENTIAL_KEY | _ABOUT_BEFORE | _ABOUT_THE_SECRET):
        return False
    return _RANDOM_VALUE.fullmatch(value.strip("\"'`")) is not None and _holds_a_value(value)


_WORD_BEFORE = re.compile(r"([^\W\d_]+)[\s_\-]*$")


def ticket_pass_before(text: str, at: int, value: str = "") -> bool:
    """The word before ``at`` makes a "pass" there a ticket, not a password ("boarding pass:
    M1SMITH/JOHN ...", "ski-pass: 01-1614-2291", "parking pass = PK-20931-B"), unless its
    ``value`` is a chosen password's: lower-case letters with a symbol, or mixed case and a digit ("student
    pass: Panther#88", "my gym pass is Gym4Life!"; review rv5)."""
    if _CHOSEN.search(value.strip().split(" ")[0] if value.strip() else ""):
        return False
    before = _WORD_BEFORE.search(text, max(0, at - 24), at)
    return before is not None and before.group(1).lower() in TICKET_PASS


_CHOSEN = re.compile(r"^(?=\S*[a-z])(?:(?=\S*[!@#$%^&*?+=~])|(?=\S*[A-Z])(?=\S*\d))\S{6,}")


# A psql variable after a setting's name: a space before the colon, none after it.
_PSQL_VARIABLE = re.compile(r"[ \t]+:[\"']?")


def _not_a_setting(text: str, m: re.Match[str]) -> bool:
    """A ticket's pass ("parking pass = PK-20931-B"), a psql variable ("WITH PASSWORD
    :'reporting_pw'": psql fills it in when the script runs), or a product's documented default
    in a setting said to be local ("POSTGRES_PASSWORD: postgres   # local only")."""
    if m.group("name").lower() == "pass" and ticket_pass_before(text, m.start("name"), m.group("value")):
        return True
    if _PSQL_VARIABLE.fullmatch(text, m.end("name"), m.start("value")) is not None:
        return True
    return _local_default(text, m.group("value"), m.end("value"))


# A product's documented or conventional default credential (MinIO's minioadmin, RabbitMQ's
# guest, the postgres image's postgres, Elastic's old changeme): public knowledge. The policy
# (docs/security.md, "Values that grant nothing"): in a setting its own line says is local or
# for development, it grants nothing and passes; without that word, or a chosen value
# ("devpass_Oriole42", "L3dg3r!Local#9"), it is a secret.
_DEFAULTS = frozenset(
    [
        *("postgres", "mysql", "mariadb", "root", "admin", "minioadmin", "guest", "rabbitmq", "elastic"),
        *("password", "secret", "changeme", "example", "test", "dev", "local", "localdev", "devpassword"),
    ]
)
_SAID_LOCAL = re.compile(
    r"(?:#|//|--)[^\n]*\b(?:local|locally|localhost|dev|development|laptops?|devcontainer)\b", re.IGNORECASE
)


def _local_default(text: str, value: str, end: int) -> bool:
    if value.strip("\"'`").lower() not in _DEFAULTS:
        return False
    line_end = text.find("\n", end)
    return _SAID_LOCAL.search(text, end, len(text) if line_end < 0 else line_end) is not None


def _named_setting(text: str, depth: int = 0) -> bool:
    """A name that says it holds a secret, given a value (a key field whose value is the next
    field names a key, not a secret: '"clave":"bizum_telefono","valor":...')."""
    for m in _SETTING_RE.finditer(text):
        if depth < 3 and "=" in m.group("value")[1:] and _named_setting(m.group("value"), depth + 1):
            return True  # a setting inside a value ("url: https://host/x?api_token=...", "content":"PGPASSWORD=...")
        if _RECORD_VALUE_NEXT.match(text, m.end("value")):
            continue
        if _not_a_setting(text, m):
            continue
        if names_a_secret(m.group("name")) and _holds_a_value(m.group("value")) and not _prose(m):
            return True
        if _random_under_a_key(m.group("name"), m.group("value")):
            return True
    # Each pattern below is tried only if what it needs is in the text (a word, "</", four
    # colons): on a long message each one tried costs a scan of it.
    low = folded(text)
    needed = ("</" in text, "value" in low, "value" in text, True)
    named = (_ELEMENT_RE, _KEY_VALUE_ATTR_RE, _NAME_VALUE_PAIR_RE, _QUOTED_PAIR_RE)
    for regex in (r for r, need in zip(named, needed, strict=True) if need):
        for m in regex.finditer(text):
            if _RECORD_VALUE_NEXT.match(text, m.end()):
                continue
            if names_a_secret(m.group("name")) and _holds_a_value(m.group("value")) and not _a_column(m.group("value")):
                return True
    return False


# An export's header row names its columns ('"title","login","password","otpauth"'): the
# "value" after a secret's name is the next column's name.
_COLUMN_NAMES = frozenset(
    [
        *("otpauth", "totp", "otp", "username", "login", "login_uri", "uri", "url", "notes", "note", "email", "title"),
        *("name", "folder", "type", "fields", "extra", "grouping", "favorite", "reprompt", "tags", "group"),
    ]
)


def _a_column(value: str) -> bool:
    return value.strip("\"'").lower() in _COLUMN_NAMES


def secret_setting(text: str) -> bool:
    """A setting that names a secret and is given one."""
    if _CODE_FIELD_RE.search(text) or _named_setting(text):
        return True
    if any(sign in text for sign in _FALLBACK_SIGNS) and _secret_fallback(text):
        return True
    if ("selector" in text or "(" in text) and _typed_into_secret_field(text):
        return True
    low = folded(text)
    needed = ("identified" in low, text.count(":") >= 4, "auth" in low or "credentials" in low, "auth" in text)
    pairs = (_SQL_IDENTIFIED_RE, _PGPASS_RE, _AUTH_PAIR_RE, _BASE64_AUTH_RE)
    if any(
        _holds_a_value(m.group("value"))
        for r, need in zip(pairs, needed, strict=True)
        if need
        for m in r.finditer(text)
    ):
        return True
    if "<input" in low and any(
        _holds_a_value(m.group("value") or m.group("value2")) for m in _PASSWORD_INPUT_RE.finditer(text)
    ):
        return True
    return _cookie_secret(text, low)


def _cookie_secret(text: str, low: str) -> bool:
    cookies = (
        *(_COOKIE_RE.finditer(text) if "cookie" in low else ()),
        *(_COOKIE_JAR_RE.finditer(text) if "TRUE" in text.upper() else ()),
    )
    if any(_holds_a_value(m.group("value")) and "srf" not in m.group("name").lower() for m in cookies):
        return True
    # With no header, only a session id's random look tells a live session from a name, a
    # host or a cookie's deletion ("sessionid=localhost-dev-server-01", "_app_session=deleted-expired-cookie")
    bare = (
        *(_SESSION_COOKIE_RE.finditer(text) if "sess" in low or "sid" in low else ()),
        *(_ANY_SESSION_COOKIE_RE.finditer(text) if "cookie" in low and "sess" in low else ()),
    )
    return any(_holds_a_value(m.group("value")) and _random_looking(m.group("value")) for m in bare)


def _random_looking(value: str) -> bool:
    """A part of a session id as servers draw them: eight characters or more with letters and
    digits, or twelve with both cases ("8F3A2B1C4D5E...", "s%3AkPz81vQm2LxT9rW4nB7c.aa12")."""
    parts = re.split(r"[_\-.:/+%]", value)
    return any(
        (len(p) >= 8 and any(c.isdigit() for c in p) and any(c.isalpha() for c in p))
        or (len(p) >= 12 and p.lower() != p and p.upper() != p)
        for p in parts
    )
