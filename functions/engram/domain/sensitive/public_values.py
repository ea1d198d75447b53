"""Values public by design that look like secrets, masked before the secret rules read a text
(``secret_formats.public_or_sealed``): what anyone may know and what opens nothing.

- a key named public, then what it is for, then its value ("my wireguard public key for the
  laptop is 4vLk...=", "chave pública do Mercado Pago: APP_USR-<uuid>");
- an extended public key (xpub, ypub, zpub, tpub: a watch-only wallet reads it, no one
  spends with it);
- a wallet's address after its word or its chain's ("solana address for the airdrop: 7xKX...",
  "endereço para receber USDT (TRC20): TNPe..."): where money is sent, not what moves it;
- a Firebase web app's apiKey inside its config (shipped to every browser by design, as
  Firebase documents; the project's rules guard its data);
- a Twilio resource's SID (MG..., PN... and 32 hex: which service or number; the auth token
  is what grants).

A value in a provider's secret format stays a secret whatever its name says (the caller's
``is_credential``), and so does anything a name says is private or secret."""

from __future__ import annotations

import re
from collections.abc import Callable

_PUBLIC_KEY_NAMED = re.compile(
    r"(?<![\w])(?:public[\s_\-]?key|pub[\s_\-]?key|clave\s+p[úu]blica|chave\s+p[úu]blica|cl[ée]\s+publique"
    r"|[öo]ffentliche[rn]?\s+schl[üu]ssel|chiave\s+pubblica|publieke\s+sleutel|klucz\s+publiczny"
    # (an app's public client id, as OAuth calls it: "API key (the public client id) 8a7b...")
    r"|public\s+(?:client|app|application)\s+(?:id|identifier|key))(?![\w])"
    r"(?P<gap>[^\n.;:=\",]{0,60}?)(?:\s(?:is|es|est|ist|é|è|jest)\s|:|=|\)\s)\s*[\"'“]?"
    r"(?P<value>[A-Za-z0-9+/_\-]{20,}={0,2})",
    re.IGNORECASE,
)
_PRIVATE = re.compile(r"private|priv[ée]e?|privad|privat|secret|segred|geheim|signing", re.IGNORECASE)
# (as written by hand or cut, shorter than the 111 characters of a whole one: its prefix says what it is)
_EXTENDED_PUBLIC_KEY = re.compile(r"[xyzt]pub[0-9A-Za-z]{60,112}")
_ADDRESS_WORD = re.compile(
    r"(?<![\w])(?:address|addr|wallet\s+address|endere[çc]o|direcci[óo]n|adresse|indirizzo|adres|adresa"
    r"|trc-?20|erc-?20|bep-?20|usdt|tron|solana|sol|phantom|receiving|receive|deposit)(?![\w])",
    re.IGNORECASE,
)
_BASE58_RUN = re.compile(r"[1-9A-HJ-NP-Za-km-z]{32,44}")
_FIREBASE = re.compile(r"firebase|authDomain|messagingSenderId", re.IGNORECASE)
_FIREBASE_KEY = re.compile(r"(?:(?i:\bapi_?key)[\"']?\s*[:=]\s*[\"']?)?\bAIza[0-9A-Za-z_\-]{20,}[\"']?")
# (not the account's AC...: written beside its auth token, 32 hex that only the pair tells apart)
_TWILIO_SID = re.compile(r"(?:MG|PN|SM|MM|CA|RE|CF|IS|VA|WS|WK|TR|QU|CH|CR|HX|PK)[0-9a-f]{32}")
_PUBLIC = "publickey"
_LONG = 20
_LONG_RUN = re.compile(r"(?<![A-Za-z0-9+/_\-])[A-Za-z0-9+/_\-]{20,}")


# Shared to be found by design: a Steam trade offer's link (Steam shows it to be posted, its token
# only lets others send offers) and a game's friend code ("Pokémon GO friend code 4829 1037 5561",
# "Switch friend code SW-1234-5678-9012", "Freundescode", "código de amigo", "code ami").
_TRADE_LINK = re.compile(r"steamcommunity\.com/tradeoffer/new/?\?partner=\d+&(?:amp;)?token=[\w\-]+")
_FRIEND_CODE = re.compile(
    r"(?<![\w])(?:friend[\s\-]?code|freundes[\s\-]?code|c[óo]digo\s+de\s+amig[oa]|code\s+(?:d['’])?ami[e]?"
    r"|codice\s+amico|vriendcode|フレンドコード)\s*(?:is\s+|ist\s+|es\s+|est\s+|é\s+|:\s*|-\s*|：\s*)?"
    r"(?P<value>(?:SW-)?\d{4}(?:[\s\-]?\d{4}){2})(?![\d\-])",
    re.IGNORECASE,
)


_FRIEND_WORDS = (
    "friend",
    "freund",
    "amig",
    "code ami",
    "code d'ami",
    "code d’ami",
    "codice amico",
    "vriendcode",
    "フレンド",
)


def mask_shared_codes(text: str) -> str:
    """A trade offer's link and a friend code masked: public by design."""
    if "tradeoffer" in text:
        text = _TRADE_LINK.sub("tradelink", text)
    lowered = text.lower()
    if any(w in lowered for w in _FRIEND_WORDS):
        text = _FRIEND_CODE.sub(lambda m: m.group()[: m.start("value") - m.start()] + "publiccode", text)
    return text


def mask_public_values(text: str, is_credential: Callable[[str], bool]) -> str:
    if all(len(word) < _LONG for word in text.split()):
        return text  # (every value above is a run of 20 characters or more: most text has none)
    lowered = text.lower()
    if any(name in lowered for name in _PUBLIC_NAMES):
        text = _PUBLIC_KEY_NAMED.sub(lambda m: _named_public(m, is_credential), text)
    if "AIza" in text and _FIREBASE.search(text) is not None:
        text = _FIREBASE_KEY.sub(_PUBLIC, text)
    # the others are read run by run: a pattern tried at every position of a long message
    # costs a third of a millisecond each
    out, at = [], 0
    for m in _LONG_RUN.finditer(text):
        if _public_run(text, m):
            out.append(text[at : m.start()] + _PUBLIC)
            at = m.end()
    return "".join(out) + text[at:] if out else text


_PUBLIC_NAMES = (
    *("public key", "public_key", "public-key", "publickey", "pubkey", "pub key", "pub_key", "pública", "publica"),
    *("publique", "pubblica", "publieke", "publiczny", "ffentliche", "public client", "public app"),
)


def _public_run(text: str, m: re.Match[str]) -> bool:
    run = m.group()
    if _EXTENDED_PUBLIC_KEY.fullmatch(run) or _TWILIO_SID.fullmatch(run):
        return True
    # a base58 string of an address's length (32-44: Solana, TRON; a private key in base58 is
    # 64 bytes, 87-88 characters) with an address's or a chain's word just before it
    if _BASE58_RUN.fullmatch(run) is None:
        return False
    return _ADDRESS_WORD.search(text, max(0, m.start() - 60), m.start()) is not None


def _named_public(m: re.Match[str], is_credential: Callable[[str], bool]) -> str:
    if _PRIVATE.search(m.group("gap")) or is_credential(m.group("value")):
        return m.group()
    return m.group()[: m.start("value") - m.start()] + _PUBLIC


# References printed on bills and registers, no one's secret: a creditor reference (ISO 11649,
# "RF48 2910 3847 5612", the payment code of Greek, Finnish and Slovak bills) and a Chinese
# company's unified social credit code (GB 32100, on every invoice), by its check character.
_CREDITOR_REFERENCE = re.compile(r"(?<![A-Za-z0-9])RF\d{2}(?: ?[0-9A-Z]{1,4}){1,6}(?![A-Za-z0-9])")
_USCC = re.compile(r"(?<![A-Za-z0-9])[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}(?![A-Za-z0-9])")
_USCC_CHARS = "0123456789ABCDEFGHJKLMNPQRTUWXY"
_USCC_WEIGHTS = (1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28)
_REFERENCE = "reference"


def mask_references(text: str) -> str:
    """The text with creditor references and company credit codes read as "reference"."""
    if "RF" in text:
        text = _CREDITOR_REFERENCE.sub(_REFERENCE, text)
    if any(c.isdigit() for c in text):
        text = _USCC.sub(lambda m: _REFERENCE if _uscc(m.group()) else m.group(), text)
    return text


def _uscc(code: str) -> bool:
    total = sum(_USCC_CHARS.index(c) * w for c, w in zip(code[:17], _USCC_WEIGHTS, strict=True))
    return _USCC_CHARS[(31 - total % 31) % 31] == code[17]
