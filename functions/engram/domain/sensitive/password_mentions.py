"""A password named in developer, terminal or figurative text that gives none: a prompt
with no answer on its line, code that reads it, a log line's next field, a case ending
after an abbreviation's colon, and "the key to success"."""

from __future__ import annotations

import re

from engram.domain.sensitive.cjk_passwords import described_in_script
from engram.domain.sensitive.secret_values import credential_like

_QUOTED = re.compile(r"""^["'“‘`«„]([^"'”’`»“]{3,})["'”’`»“]""")
_NAMED_FIELD = re.compile(r"[\w.\-]*=")


def no_value_in_code(m: re.Match[str], rest: str) -> bool:
    """Developer and terminal text that names the password and gives none: a prompt with no
    answer on its line ("New password:" then "Re-type new password:"), code that reads it
    (``password = getpass.getpass("DB password: ")``, ``password = var.db_password``), a
    log line's next field (``method=password result=success``), or a Swedish or Finnish
    ending after an abbreviation's colon ("lösenord till VPN:et")."""
    sep = m.group("sep")
    line = rest.split("\n", 1)[0].strip()
    if "\n" in sep:
        first = line.split()[0] if line else ""
        return not (_QUOTED.match(line) or (not first.endswith(":") and (" " not in line or credential_like(first))))
    if _CODE_READ.fullmatch(line) or psql_variable(m.string, m):
        return True
    if not sep.strip() and _NAMED_FIELD.match(rest):
        return True
    if sep.strip() == ":" and m.group().lower().startswith("passwd"):
        at_line_start = m.start() == 0 or m.string[m.start() - 1] == "\n"
        if at_line_start and len(line.split()) >= 3:
            return True  # the passwd tool's message ("passwd: Authentication token manipulation error")
    return sep == ":" and _after_abbreviation(m) and _CASE_ENDING.match(rest) is not None


def reads_code(value: str) -> bool:
    """A call or a variable of Terraform or a template, where a value would be."""
    return _CODE_READ.fullmatch(value) is not None


def _after_abbreviation(m: re.Match[str]) -> bool:
    """An abbreviation of two capitals or digits or more ends right before the colon ("VPN:et").

    Read backwards from the colon over that run only: a search of the whole text before it
    for each match made a long text of such phrases quadratic (84,000 characters: 7 s)."""
    text, end = m.string, m.end() - 1
    if end and text[end - 1] == "\n":
        end -= 1  # '$' also matched before a newline that ended the text read
    start = end
    while start and text[start - 1] in _ABBREVIATION_CHARS:
        start -= 1
    return end - start >= 2 and not (start and (text[start - 1].isalnum() or text[start - 1] == "_"))


_ABBREVIATION_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")


# "the key to success" in the languages where one word means key and password ("la clave
# del éxito es automatizar", "a chave do sucesso é ...", "la chiave del successo è ...").
FIGURATIVE_KEY = re.compile(
    r"^(?:clave|chave|chiave|cl[ée]|schl[üu]ssel|nyckel|n[øo]gle)\s+(?:del|de|do|da|du|della|zum|till|til)\s+"
    r"(?:[ée]xito|sucesso|succ[èe]s|successo|erfolg|framg[åa]ng|succes)\b",
    re.IGNORECASE,
)


# A line that reads the secret from somewhere: a call, a reference to a variable of
# Terraform or a template, or a chain of calls ("aws_config::load_from_env().await").
_CODE_READ = re.compile(
    # (a call is named by a path or a snake-case name, or given a string or nothing: a
    # password may look like one, "Summer(2024)")
    r"(?:(?:await\s+)?(?:[A-Za-z_]\w*(?:(?:\.|::)[A-Za-z_]\w*)+\([^()\n]*\)|[a-z]+_\w+\([^()\n]*\)"
    r"|[A-Za-z_]\w*\((?:[\"'][^\"'\n]*[\"'])?\))(?:\.\w+(?:\([^()\n]*\))?)*"
    r"|(?:var|local|data|module|each|vars|inputs|params)\.[\w.\[\]\"']+)\s*[;,]?\s*(?:(?:#|//)[^\n]*)?"
)
# "VPN:et", "WLAN:in", "PIN:n": a case ending after an abbreviation's colon, not a value.
_CASE_ENDING = re.compile(r"(?:et|en|n|in|ssa|ssä|lle|llä|ään|iin|na|nä|ta|tä|ja|jä|s|t)(?![\w])")


ABBREVIATION_CASE = re.compile(r"[A-Z0-9]{2,}:[a-zåäö]{1,3}")  # "VPN:et", "WLAN:in"


# What happened to the password, or how it is used, where its value would be: "was hacked",
# "got leaked", "auth disabled", "est affiché dans la cuisine", "is posted at the front desk"
# (a value said first keeps the text a secret: "is Kiwi!Fruit7, posted at the front desk").
_NO_VALUE_SAID = re.compile(
    r"(?:(?:was|got|has\s+been|have\s+been|were|is)\s+)?(?:hacked|leaked|compromised|pwned|stolen|breached|exposed"
    r"|phished|cracked|posted|displayed|affich[ée]e?|pegad[ao]|colad[ao]|pinned|on\s+display)(?![\w])"
    r"|(?:auth(?:entication)?|login|logins|sign[\s\-]?in)\s+(?:is\s+|was\s+)?(?:disabled|enabled|turned\s+off|off"
    r"|not\s+allowed|forbidden)(?![\w])"
    # where it comes from when something runs ("password comes from mysql_config_editor",
    # "is read from the env", "gets injected by the CI"): its source, not its value
    r"|(?:(?:is|are|was|gets|get)\s+)?(?:comes?|coming|read|pulled|fetched|loaded|injected|mounted|sourced"
    r"|provided|supplied|passed\s+in|lives?)\s+(?:from|by|via|through|out\s+of|in)(?![\w])",
    re.IGNORECASE,
)
# A queue's ticket in Portuguese ("senha de atendimento A047, guichê 5", "na fila, minha
# senha é C045"): a number called at a counter, not a password.
_QUEUE_TICKET = re.compile(
    r"(?<![\w])(?:atendimento|fila|guich[êe]|balc[ãa]o|painel|triagem|espera|chamad[ao])(?![\w])", re.IGNORECASE
)
_TICKET_NAMED = re.compile(r"senha\s+(?:de|da)\s+(?:atendimento|espera|vez|fila)", re.IGNORECASE)
_TICKET = re.compile(r"[A-Z]?\d{1,4}")


def no_value_said(first: str, rest: str, around: str) -> bool:
    """The clause after a password's word says what happened to it or how it is used, not
    what it is; or the "senha" is a queue's ticket."""
    if _NO_VALUE_SAID.match(rest.lstrip(" :=-—")) is not None or _TICKET_NAMED.search(around) is not None:
        return True
    if described_in_script(first):
        return True  # (a sentence in CJK script: "WiFi密码：我换过了", "パスワード：ルーターの裏に書いてあります")
    return (
        _TICKET.fullmatch(first) is not None
        and _QUEUE_TICKET.search(around) is not None
        and _SENHA_OF_A_THING.search(around) is None
    )


# A "senha" named as a card's, a bank's, an account's or a device's is theirs, a queue beside
# it or not ("a senha do cartão é 4471, estou na fila do banco").
_SENHA_OF_A_THING = re.compile(
    r"senha\s+(?:\w+\s+)?(?:d[oae]s?|para\s+[oa])\s+(?:meu\s+|minha\s+)?(?:cart[ãa]o|banco|caixa|conta|app|aplicativo"
    r"|wi-?fi|e-?mail|celular|telefone|pix|internet|computador|notebook|cofre|port[ãa]o|alarme)",
    re.IGNORECASE,
)


# -- no value where one would stand, in code, commands and instructions (20a, from held-out K) --
_IN_A_FLAG = re.compile(r"--[A-Za-z][\w\-]*\Z")  # "--ask-password", "--password-stdin": a flag, no value
_FENCE = re.compile(r"`{3,}\w*|~{3,}")
_SQL_BEFORE = re.compile(r"\b(?:with(?:\s+encrypted)?|identified\s+by)\s+$", re.IGNORECASE)
_PSQL_VARIABLE = re.compile(r"\s+:[\"']?[A-Za-z_]\w*[\"']?(?![\w\"'])")
_BARE_SEPARATOR = re.compile(r"\s*[:=](?=\s)")
_SIZE = re.compile(
    r"\s*(?:\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|sixteen|twenty)[\s\-]+"
    r"(?:random\s+|long\s+|short\s+)?(?:words?|characters?|chars|digits?|letters?|numbers)\b"
    r"(?![^\n.;,]{0,12}[:=→])",  # (then the value: "is four words: saffron meadow otter lantern")
    re.IGNORECASE,
)
# "never give the till password to agency staff": a verb of giving before the password and
# "to" after it name who gets it (as "to" before a value is Polish "is": "hasło to ...").
_GIVEN_TO = re.compile(
    r"\b(?:give|gives|gave|given|giving|send|sends|sent|share|shares|shared|tell|tells|told|hand|hands|handed"
    r"|show|shows|showed|pass|passes|passed|read|reads|forward|forwards|forwarded|email|emailed|text|texted)"
    r"\s+(?:out\s+)?(?:the|a|an|my|our|your|his|her|their|this|that)?\s*(?:[\w\-]+\s+){0,2}$",
    re.IGNORECASE,
)


def psql_variable(text: str, m: re.Match[str]) -> bool:
    """ "CREATE USER x WITH PASSWORD :'reporting_pw'": psql fills the variable in."""
    word = re.match(r"[^\W\d_]+", text[m.start() :])
    at = m.start() + (len(word.group()) if word else 0)
    sql = _SQL_BEFORE.search(text, max(0, m.start() - 24), m.start()) is not None
    return sql and _PSQL_VARIABLE.match(text, at) is not None


def after_a_bare_separator(rest: str) -> str:
    """What follows a colon or "=" standing alone after the copula ("password is: [TEMP_PASSWORD]")."""
    sep = _BARE_SEPARATOR.match(rest)
    return rest if sep is None else rest[sep.end() :]


def not_given_here(text: str, m: re.Match[str], first: str) -> bool:
    """A code block's fence after a prompt ("Password for user etl:" then "```"), its size, whom the
    password goes to ("give the till password to agency staff"), or the password's word inside
    a command's flag ("wget --ask-password https://...")."""
    if re.match(r"--\w", first):
        return True  # a command's next option ("--secret-id prod/db/password --query SecretString")
    if _FENCE.fullmatch(first) or _IN_A_FLAG.search(text, max(0, m.start() - 30), m.start()):
        return True
    if _SIZE.match(text, m.end()):
        return True  # its size, not its value ("my passphrase is four words", "is 12 characters long")
    given_to = m.group("sep").strip().lower() == "to"
    return given_to and _GIVEN_TO.search(text, max(0, m.start() - 40), m.start()) is not None


_VARIABLE_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z][A-Z0-9]*)+")
# A secret's name in a vault: quoted lower-case words joined by "-", "_" or "/" ("smtp-pass",
# "prod/db-password"), where the text names a vault or a secrets manager.
_VAULT_ENTRY = re.compile(r"[\"'“‘][a-z][a-z0-9]*(?:[\-_/][a-z0-9]+)+[\"'”’]")
_VAULT = re.compile(
    r"\b(?:key\s*vault|keyvault|vault|secrets?\s*manager|secretsmanager|secret\s+manager|parameter\s+store"
    r"|ssm|1password|bitwarden|doppler|infisical)\b",
    re.IGNORECASE,
)
# A payment gateway's object: a card's token, a payment method, a source, a customer (Stripe's
# tok_, pm_, src_, card_, cus_; Braintree's and Adyen's alike).
_GATEWAY_OBJECT = re.compile(r"(?:tok|btok|pm|card|src|seti|pi|cus|ba)_[A-Za-z0-9_]{4,}")


def names_no_value(text: str, at: int, value: str, bare: str) -> bool:
    """After a credential's word at ``at``: the name of what holds it ("the github secret
    SLACK_WEBHOOK_URL"), a gateway's token for a card, an endpoint's path ("POST /oauth/token
    HTTP/1.1"), a header's name ("bearer token: `Authorization: ...`")."""
    if _VARIABLE_NAME.fullmatch(bare) is not None or _GATEWAY_OBJECT.fullmatch(bare) is not None:
        return True  # (a payment gateway's token stands for a card it keeps: "token tok_8QxL2m returned")
    if _VAULT_ENTRY.fullmatch(value.rstrip(".,;)")) and _VAULT.search(text) is not None:
        return True  # a vault's entry by its name ('im Key Vault (kv-shop-staging, Secret "smtp-pass")')
    return text[at - 1 : at] == "/" or value.rstrip("`'\"").endswith(":")
