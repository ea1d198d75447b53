"""Secrets recognised by their shape alone, whatever words surround them: provider credential
formats, private keys, Authorization headers, passwords in URLs, query strings,
configuration settings (``secret_settings``) and command lines, e-mail and password pairs, Wi-Fi QR payloads, and
an entropy fallback for unknown token shapes. Public keys are public and pass."""

from __future__ import annotations

import base64
import math
import re
from functools import lru_cache

from engram.domain.sensitive.dead_values import without_dead_values
from engram.domain.sensitive.prefilter import keyed
from engram.domain.sensitive.public_values import mask_public_values, mask_references, mask_shared_codes
from engram.domain.sensitive.secret_settings import secret_setting
from engram.domain.sensitive.secret_values import MASKED, PLACEHOLDER, credential_like, described_slots_masked, pointer

# -- secrets -----------------------------------------------------------------------------------------
# Credential formats, written from each provider's documentation (prefix, alphabet, length).
# Why rules here rather than detect-secrets (checked: 1.5.0, May 2024): its plugins are built
# for source files (the keyword and entropy plugins fire on identifiers and need a file
# name), several are narrower than the formats now issued (GitHub fine-grained PATs, OpenAI
# project keys, Anthropic, Google, Hugging Face are missing; Stripe only live keys), and it
# would bring requests and PyYAML into every Lambda for what is one regular expression a
# provider. ``python -m bench.sensitive_corpus --baseline detect-secrets`` scores it on the
# same corpus.
_TOKEN_RE = re.compile(
    r"\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b"  # AWS access key id
    r"|\bgh[pousr]_[A-Za-z0-9]{30,}\b|\bgithub_pat_[A-Za-z0-9_]{40,}"  # GitHub
    r"|\bgl(?:pat|dt|ft|soat|rt|cbt|ptt|oas|agent)-[A-Za-z0-9_\-]{20,}|\bGR1348941[A-Za-z0-9_\-]{20,}"  # GitLab
    r"|\bxox[abposre]-[A-Za-z0-9\-]{10,}|\bxapp-\d-[A-Za-z0-9\-]{10,}"  # Slack
    r"|hooks\.slack\.com/services/T\w+/B\w+/\w+|discord(?:app)?\.com/api/webhooks/\d+/[\w\-]+"  # webhooks
    r"|\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}|\bwhsec_[A-Za-z0-9]{16,}"  # Stripe (pk_ keys are public)
    # any provider's live key named as Stripe's are ("shippo_live_...", restream's "re_live_..."; Stripe's
    # publishable pk_live_ is masked as public first), and Klaviyo's private key ("pk_" and hex, no "live")
    r"|\b[a-z]{2,12}_live_[A-Za-z0-9]{16,}|\bpk_[0-9a-f]{30,40}\b"
    r"|\bsk-(?:proj-|svcacct-|admin-|ant-(?:api|admin)\d\d-)?[A-Za-z0-9_\-]{20,}"  # OpenAI, Anthropic
    r"|\bAIza[0-9A-Za-z_\-]{35}|\bya29\.[0-9A-Za-z_\-]{15,}"  # Google API key, OAuth access token
    r"|\bGOCSPX-[A-Za-z0-9_\-]{20,}|\b1//0[A-Za-z0-9_\-]{30,}"  # Google OAuth client secret, refresh token
    r"|\bhf_[A-Za-z]{30,}\b|\bnpm_[A-Za-z0-9]{36}\b|\bpypi-AgE[A-Za-z0-9_\-]{50,}"  # Hugging Face, npm, PyPI
    r"|\bSG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}"  # SendGrid
    r"|\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b|\bdo[por]_v1_[a-f0-9]{64}\b"  # Shopify, DigitalOcean
    r"|\b\d{8,10}:AA[A-Za-z0-9_\-]{33}\b|\b[0-9a-f]{32}-us\d{1,2}\b"  # Telegram bot, Mailchimp
    r"|\bkey-[0-9a-f]{32}\b"  # Mailgun's API key
    r"|\bsq0(?:atp|csp|idp)-[A-Za-z0-9_\-]{22,}|\bEAAA[A-Za-z0-9_\-]{60}"  # Square
    r"|\bSK[0-9a-f]{32}\b|\bdapi[0-9a-f]{32}\b"  # Twilio API key, Databricks
    r"|\bhvs\.[A-Za-z0-9_\-]{24,}|\bdp\.pt\.[A-Za-z0-9]{40,}"  # HashiCorp Vault, Doppler
    r"|\bglsa_[A-Za-z0-9]{32}_[0-9a-f]{8}\b|\bglc_[A-Za-z0-9+/=]{32,}"  # Grafana
    r"|\bATATT3[A-Za-z0-9_\-=]{50,}"  # Atlassian
    r"|\blin_api_[A-Za-z0-9]{40}\b|\bntn_[A-Za-z0-9]{40,}|\bsecret_[A-Za-z0-9]{43}\b"  # Linear, Notion
    r"|\bPMAK-[0-9a-f]{24}-[0-9a-f]{34}"  # Postman
    r"|\bAGE-SECRET-KEY-1[0-9A-Z]{50,}|\b[A-Za-z0-9_\-.~]{3}\dQ~[A-Za-z0-9_\-.~]{31,34}"  # age, Azure AD client secret
    r"|(?:AccountKey|SharedAccessKey|SharedSecret)=[A-Za-z0-9+/=]{20,}|[?&]sig=[A-Za-z0-9%+/=]{20,}"  # Azure
    r"|\bsk\.eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}"  # Mapbox secret token
    r"|\beyJ[A-Za-z0-9_\-]{5,}\.eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]{10,}"  # a signed JWT
    r"|\b0x[0-9a-fA-F]{64}\b"  # an Ethereum private key
)
# Every format above lies inside one run of 16+ characters without a space or a quote: the
# big alternation runs on those runs only, which keeps long chat messages cheap.
_TOKEN_RUN_RE = re.compile(r"[^\s\"'`<>()\[\]{},;|]{16,}")
# The formats that hold a space.
_SPACED_TOKEN_RE = keyed(
    r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d"  # private keys
    r"|\b(?:Basic|Bearer|Token)\s+[A-Za-z0-9+/_\-.=~]{16,}"  # an Authorization header's value
)
# A password inside a URL or a connection string ("postgres://app:s3cret@db/app").
_URL_CREDENTIAL_RE = re.compile(r"\b[a-z][a-z0-9+.\-]{1,20}://[^\s:/@]*:(?P<pw>[^\s@/]+)@[\w\-.\[]", re.IGNORECASE)
_QUERY_CREDENTIAL_RE = re.compile(
    r"[?&;](?:access_token|api_?key|apikey|token|secret|client_secret|password|passwd|pwd|auth)=(?P<value>[^&\s;#]{6,})"
    # a key under a provider's own name for it (OpenWeatherMap's "appid", "app_key", Azure's
    # "subscription-key", "private_token"): a random run of letters and digits, not an app's id
    r"|[?&;](?:appid|app_?key|appkey|subscription[\-_]key|private[\-_]token|access[\-_]key|auth[\-_]token|key)="
    r"(?P<random>(?=[a-z]*\d)(?=\d*[a-z])[a-z0-9_\-]{20,})(?![^&\s;#\"'])",
    re.IGNORECASE,
)
# Public by design: an ssh public key, a certificate, a PEM public key.
PUBLIC_KEY_RE = re.compile(
    r"(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-\S+|sk-ssh-\S+)\s+AAAA[A-Za-z0-9+/=]+|\bpk_(?:live|test)_[A-Za-z0-9]+"
    r"|\bpk\.eyJ[A-Za-z0-9_\-.]+"  # Mapbox public tokens
    r"|-----BEGIN (?:CERTIFICATE|PUBLIC KEY|RSA PUBLIC KEY|PGP PUBLIC KEY BLOCK)-----.*?-----END [A-Z ]+-----",
    re.DOTALL,
)
# A value a setting's name says is public: shipped to every browser or peer by design
# (WireGuard's PublicKey, reCAPTCHA's site key, VAPID's public key, Next.js' NEXT_PUBLIC_*,
# Supabase's anon key, Algolia's search-only key).
# (it starts where a run of name characters starts: tried from each character of a long run,
# "site " and 10,000 letters took 3.7 s; a match inside a run also matches from its start)
_PUBLIC_SETTING_RE = re.compile(
    r"(?<![\w.\-])(?P<name>[\w.\-]*(?:public|publishable|site[_\-]?key|anon[_\-]?key|search[_\-]only(?:[_\-\s]api)?[_\-\s]key)[\w.\-]*)"
    r"[\"']?(?:\s*[:=]\s*|\s+)[\"']?(?P<value>[A-Za-z0-9+/_\-.=]{16,})",
    re.IGNORECASE,
)
_NOT_PUBLIC_NAME = re.compile(r"secret|private|passw|token|signing|service[_\-]?role", re.IGNORECASE)
# The public members of a JSON Web Key (RSA's n and e, an EC key's x and y); "d" is private.
_JWK_PUBLIC_RE = re.compile(r"\"(?:n|e|x|y)\"\s*:\s*\"[A-Za-z0-9_\-]+\"")
# Values still encrypted, which only a key held elsewhere opens: Travis CI's "secure:",
# a SealedSecret's encryptedData, Ansible Vault.
_SEALED_RE = re.compile(
    r"\bsecure:\s*\"[A-Za-z0-9+/=]{20,}\"|encryptedData:(?:\n[ \t]+[\w.\-]+:[ \t]*[A-Za-z0-9+/=]{20,})+"
    # an Ansible Vault value ("!vault |" then "$ANSIBLE_VAULT;1.1;AES256" and lines of hex)
    r"|(?:!vault\s*\|\s*)?\$ANSIBLE_VAULT;\S*(?:\s+[0-9a-f]{16,})+"
)


def _names_public(text: str, lowered: str) -> bool:
    """The words every public setting's name holds are there: the pattern, whose names may
    start anywhere in a word, costs a millisecond on 10,000 characters and is tried only
    then ("site" and "search" alone are everyday words). The three letters the pattern's
    case folding reads as "i" or "s" and lower() does not are left to the pattern."""
    if "public" in lowered or "publishable" in lowered or any(c in text for c in _FOLDED_AS_ASCII):
        return True
    keyed = "key" in lowered and ("site" in lowered or "anon" in lowered)
    return keyed or ("search" in lowered and "only" in lowered)


# (found by trying every code point against the pattern's letters: U+0130, U+0131, U+017F)
_FOLDED_AS_ASCII = "\u0130\u0131\u017f"


@lru_cache(maxsize=16)  # (asked by the rules and again for the learned stage's reading of the same text)
def public_or_sealed(text: str) -> str:
    """The text with values public by design, or still encrypted, masked: a public key,
    a publishable or site key, a ciphertext, a provider's documented example key. A value
    in a provider's secret format stays, whatever its setting is named
    ("NEXT_PUBLIC_STRIPE_KEY=sk_live_...": a leak)."""
    if "AAAA" in text or "-----BEGIN" in text or "pk_" in text or "pk.eyJ" in text:
        text = PUBLIC_KEY_RE.sub("publickey", text)
    lowered = text.lower()
    if any(w in lowered for w in ("public", "publishable", "site", "anon", "search")) and _names_public(text, lowered):
        text = _PUBLIC_SETTING_RE.sub(_public_value, text)
    if '"kty"' in text:
        text = _JWK_PUBLIC_RE.sub('"publickey"', text)
    if "ENC" in text or "vault:v" in text or "secure:" in text or "encryptedData" in text or "_VAULT;" in text:
        text = _SEALED_RE.sub(" ", _CIPHERTEXT_RE.sub(" ", text))
    if "EXAMPLE" in text:
        text = _DOCUMENTED_EXAMPLE_RE.sub("<example>", text)  # (a placeholder to every rule)
    text = mask_shared_codes(
        mask_references(without_dead_values(described_slots_masked(text)))
    )  # ("old code 0052 won't work anymore": opens nothing now; "<key from Key Vault>": a slot)
    return mask_public_values(text, lambda value: _TOKEN_RE.search(value) is not None)


# A provider's documented example key, which says so in its value and grants nothing (AWS's
# AKIAIOSFODNN7EXAMPLE and wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY, the ones its guides use).
_DOCUMENTED_EXAMPLE_RE = re.compile(
    r"(?<![A-Za-z0-9])(?:AKIA|ASIA|AIDA|AROA|AGPA|ANPA)[A-Z0-9]{0,12}EXAMPLE(?![A-Za-z0-9])"
    r"|(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{20,36}EXAMPLEKEY(?![A-Za-z0-9/+=])"
)


def _public_value(m: re.Match[str]) -> str:
    value = m.group("value")
    if _NOT_PUBLIC_NAME.search(m.group("name")) or (_TOKEN_RE.search(value) and not value.startswith("eyJ")):
        return m.group()  # (a JWT under a public name is a public one: Supabase's anon key)
    return m.group("name") + " publickey"


# Unknown token shapes: a long run of letters and digits drawn like a random string.
# Patterns run on the whole text start where their run of characters starts: tried from
# each character of "a.a.a..." or "a-a-a-...", they cost seconds on a long message.
_TOKEN_CANDIDATE_RE = re.compile(r"[A-Za-z0-9+/_\-.~]{24,}={0,2}")
_URLISH_RE = re.compile(r"\b(?:https?|ftp|s3|gs|file)://\S+|\bwww\.\S+|(?<![\w\-])(?<!\w\.)[\w\-]++(?:\.[\w\-]++)+/\S*")
_WORDISH_RE = re.compile(r"[A-Z]?[a-z]{3,}|[A-Z]{3,}(?![a-z])")
_BASE58_ADDRESS_RE = re.compile(r"[13][1-9A-HJ-NP-Za-km-z]{25,34}")
# Objects' ids in API traces: a short lower-case prefix, "_" or "-", then a random body
# (Stripe's ch_, cus_, pi_; OpenAI's chatcmpl-, call_; Anthropic's msg_, toolu_; req_, org-).
# Secrets with such a prefix (sk_, rk_, whsec_, xoxb-, ghp_) are matched as formats first.
_OBJECT_ID_RE = re.compile(
    r"(?<![\w\-])(?:ch|cus|sub|pi|pm|in|ii|il|evt|acct|price|prod|txn|re|po|tr|src|seti|si|cs|chatcmpl|call|msg"
    r"|org|file|asst|thread|run|req|toolu|batch|ft|ks|ses|sess|job|obj|res|ord|inv|plan|item|cart|usr|user|team"
    r"|proj|span|trace|log|evt|ev|idem|tok|btok|card|ba|src|py|po|dp|cn)[_\-][A-Za-z0-9]{8,}(?![\w\-])"
)
# The value of a field named as an id ("x-message-id: ...", "kyc_session_id ...").
_ID_FIELD_RE = re.compile(
    r"(?<![\w\-])[\w\-]*(?:id|ids|uuid|guid|nonce|etag)\b[\"']?\s*[:=]?\s*[\"']?\S+", re.IGNORECASE
)
# A digest written in base64 after its algorithm: subresource integrity, Nix, go.sum.
_BASE64_DIGEST_RE = re.compile(r"\b(?:sha(?:1|224|256|384|512)|md5|h1)[\-:][A-Za-z0-9+/_\-]{20,}={0,2}", re.IGNORECASE)
# A PEM block in base64 (a kubeconfig's *-data): "LS0tLS1CRUdJTi" is "-----BEGIN".
_BASE64_PEM_RE = re.compile(r"LS0tLS1CRUdJTi[A-Za-z0-9+/]*={0,2}")
# A password hash in crypt(3) form (bcrypt, argon2, sha-crypt, apr1): what a system keeps
# instead of the password, like a digest (Cisco's "secret 9 $9$..." too).
_CRYPT_HASH_RE = re.compile(r"\$(?:2[abxy]?|argon2(?:id|i|d)|[1356789y]|gy|apr1|scrypt|pbkdf2[\w\-]*)\$[^\s\"']+")


# A value still encrypted, which only its key opens: jasypt's ENC(...), sops' ENC[...],
# Vault transit's vault:v1:...
_CIPHERTEXT_RE = re.compile(r"\bENC\([^)\s]*\)|\bENC\[[^\]\s]*\]|\bvault:v\d+:[A-Za-z0-9+/]+={0,2}")


# A name that says its value is public: a public, site, anon or publishable key, or a variable
# a front end ships to every browser (NEXT_PUBLIC_, VITE_, PUBLIC_, REACT_APP_).
_PUBLIC_NAME = re.compile(
    r"(?:public|site|anon|publishable)[\s_\-]?key[\"']?\s*[:=]\s*[\"']?$"
    r"|(?<![A-Za-z])(?:NEXT_PUBLIC|VITE|PUBLIC|REACT_APP|EXPO_PUBLIC)_[A-Z0-9_]+[\"']?\s*[:=]\s*[\"']?$",
    re.IGNORECASE,
)


def _random_token(text: str) -> bool:
    """Entropy fallback for credentials of no known format: a token of 24+ characters with
    upper and lower case and digits, few dictionary-like runs and a high Shannon entropy.
    Hex-only strings (commit hashes, digests, UUIDs) and public keys are left alone: they
    are the usual long strings of ordinary technical notes."""
    # What is masked below becomes a space, so every token left is part of a run of token
    # characters of the text as given: without a run long and mixed enough there is no
    # token to find, and the masking (most of this rule's cost on long text) is skipped.
    if not any(_mixed_enough(m.group()) for m in _TOKEN_CANDIDATE_RE.finditer(text)):
        return False
    text = _URLISH_RE.sub(" ", PUBLIC_KEY_RE.sub(" ", text))
    if "$" in text:
        text = _CRYPT_HASH_RE.sub(" ", text)
    if "ENC" in text or "vault:v" in text:
        text = _CIPHERTEXT_RE.sub(" ", text)
    text = _BASE64_PEM_RE.sub(" ", _BASE64_DIGEST_RE.sub(" ", text))
    text = _ID_FIELD_RE.sub(" ", _OBJECT_ID_RE.sub(" ", text))
    for m in _TOKEN_CANDIDATE_RE.finditer(text):
        if _PUBLIC_NAME.search(text, max(0, m.start() - 48), m.start()):
            continue  # "PublicKey = ...", "VAPID_PUBLIC_KEY=...", "RECAPTCHA_SITE_KEY=...": public by design
        token = m.group().strip("=.-_/")
        if len(token) < 24 or re.fullmatch(r"[0-9a-fA-F\-x]+", token) or _BASE58_ADDRESS_RE.fullmatch(token):
            continue
        upper = sum(c.isupper() for c in token)
        lower = sum(c.islower() for c in token)
        digits = sum(c.isdigit() for c in token)
        if upper < 2 or lower < 2 or digits < 2:
            continue
        wordish = sum(len(w) for w in _WORDISH_RE.findall(token))
        if wordish > 0.5 * len(token):
            continue
        if _entropy(token) >= 4.0:
            return True
    return False


def _mixed_enough(run: str) -> bool:
    """Whether a run of token characters has what a random token needs (length, two upper
    and two lower case letters, two digits); a part of it has no more."""
    if len(run.strip("=.-_/")) < 24:
        return False
    upper = sum(c.isupper() for c in run)
    return upper >= 2 and sum(c.islower() for c in run) >= 2 and sum(c.isdigit() for c in run) >= 2


def _entropy(token: str) -> float:
    counts: dict[str, int] = {}
    for c in token:
        counts[c] = counts.get(c, 0) + 1
    n = len(token)
    return -sum(k / n * math.log2(k / n) for k in counts.values())


# A documented example or a masked key: the provider's prefix, then one character over and
# over ("sk_live_xxxxxxxxxxxxxxxx", "ghp_XXXXXXXXXXXX").
_FILLED = re.compile(r"([xX*•0.])\1{7,}")
# A transaction, block or file hash written like a private key.
_HASH_BEFORE = re.compile(
    r"\b(?:tx|txn|txid|transaction|hash|block|etherscan|commit|digest)\b[^\n]{0,20}$", re.IGNORECASE
)


def _token(text: str, run: re.Match[str]) -> bool:
    found = _TOKEN_RE.search(run.group())
    if found is None or _FILLED.search(found.group()):
        return False
    if PLACEHOLDER.match(found.group()):
        return False  # (a template's slot behind the provider's prefix: "xoxb-your-bot-token-here")
    return not (found.group().startswith("0x") and _HASH_BEFORE.search(text[: run.start()]))


# The words a template or an example puts where the password goes.
_EXAMPLE_PASSWORDS = frozenset(["password", "pass", "passwd", "pwd", "changeme", "pw", "example", "xxx"])


def _url_password(pw: str) -> bool:
    return not PLACEHOLDER.match(pw) and pw.lower() not in _EXAMPLE_PASSWORDS and not _FILLED.search(pw)


def providers_credential(text: str) -> bool:
    """A credential in a provider's documented format, or a private key: what it grants does
    not change with what its writer says of it ("sk_live_... it's public anyway")."""
    spaced = any(not _EMPTY_ARMOUR.match(text, m.end()) for m in _SPACED_TOKEN_RE.finditer(text))
    return spaced or any(_token(text, m) for m in _TOKEN_RUN_RE.finditer(text))


# A private key's armour around no key: a template's or a doc's slot between BEGIN and END
# ("<paste the key from vault here>", "...", "REDACTED"); a line of base64 is a key.
_EMPTY_ARMOUR = re.compile(r"(?<=-----)(?:(?![A-Za-z0-9+/=]{16})[^\-])*-----END ")


def shaped_like_a_secret(text: str) -> bool:
    """A secret by its shape alone, whatever words surround it (tokens, credentials in a
    URL, query or assignment, random strings, e-mail and password pairs, CLI passwords,
    Wi-Fi QR payloads); public keys are already masked."""
    if providers_credential(text):
        return True
    if "://" in text and any(_url_password(m.group("pw")) for m in _URL_CREDENTIAL_RE.finditer(text)):
        return True
    if ("=" in text or ":" in text) and any(
        not pointer(m.group("value") or m.group("random")) for m in _QUERY_CREDENTIAL_RE.finditer(text)
    ):  # "otpauth://totp/ACME:{username}?secret={base32_secret}": a template's slot
        return True
    if any(c in text for c in "=:<\"'") and secret_setting(text):
        return True
    return _typed_with_a_value(text)


def _base64_private_key(text: str) -> bool:
    for m in _BASE64_PEM_RE.finditer(text):
        head = m.group()[:80]
        try:
            decoded = base64.b64decode(head[: len(head) // 4 * 4]).decode("ascii", "replace")
        except ValueError:
            continue
        if "PRIVATE KEY" in decoded:
            return True
    return False


def _typed_with_a_value(text: str) -> bool:
    """Random strings, e-mail and password pairs, command lines, Wi-Fi QR payloads, a
    private key in base64."""
    if "LS0tLS1CRUdJTi" in text and _base64_private_key(text):
        return True
    if len(text) >= 24 and _random_token(text):
        return True
    if "@" in text and _email_pair(text):
        return True
    if "/" in text and _device_login(text):
        return True
    if " -" in text and _cli_password(text):
        return True
    if "[" in text and _BYTE_KEY.search(text) is not None:
        return True
    return "WIFI:" in text.upper() and any(not PLACEHOLDER.match(m.group("pw")) for m in _WIFI_QR_RE.finditer(text))


# A network's key written as its 16 bytes (Zigbee's network_key in Home Assistant or
# zigbee2mqtt: "network_key: [41, 172, 9, ...]", "de zigbee netwerksleutel [...]").
_BYTE_KEY = re.compile(
    r"(?i:network[_\s\-]?key|netwerksleutel|netzwerkschl[üu]ssel|cl[ée]\s+(?:du\s+)?r[ée]seau|clave\s+de\s+red"
    r"|chiave\s+di\s+rete|nätverksnyckel|encryption[_\s]key)[^\n\[\]]{0,30}?"
    r"\[\s*\d{1,3}(?:\s*,\s*\d{1,3}){15}\s*\]"
)


# A password given to a command line ("mysql -u root -pS3cret", "--password=...").
_CLI_PASSWORD_RE = re.compile(
    r"(?:^|\s)--(?:password|passwd|pass|passphrase|token|api-key|apikey|secret|auth-token|client-secret"
    r"|[\w\-]+-(?:password|passwd|token|secret))[= ]\s*(?P<v>[^\s-]\S*)"
    r"|(?:^|\s)-(?:password|passwd|storepass|keypass|srcstorepass|deststorepass)\s+(?P<v1>[^\s-]\S*)"
    # (not the flag named in a note: "(it will prompt, don't put the pw after -p)")
    r"|\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]*?\s-p(?P<v2>[^\s\-)\]}>,.;:]\S*)|\bsshpass\s+-p\s*(?P<v3>\S+)"
    # a registry or platform login, redis, an HTTP client's user:password, openssl's pass:
    r"|\b(?:docker|podman|nerdctl|buildah|skopeo|helm|oras|crane|az|oc|cf|heroku)\b[^\n]*?\blogin\b[^\n]*?"
    r"\s(?:-p|--password)(?:=|\s+)(?P<v4>[^\s-]\S*)"
    r"|\bredis-cli\b[^\n]*?\s-a\s+(?P<v5>[^\s-]\S*)"
    r"|\b(?:curl|wget|http)\b[^\n]*?\s(?:-u|--user)[= ]\s*[\"']?[^\s:\"'@]+:(?P<v6>[^\s\"'@]{4,})"
    r"|-pass(?:in|out)?\s+pass:(?P<v7>\S+)"
    # openssl's key phrase, an archive's password ("openssl enc ... -k 'copper kettle'",
    # "zip -P Tulip77 out.zip", "7z a -pS3cret x.7z"; "unzip -p" prints to stdout)
    r"|\bopenssl\b[^\n]*?\s-k\s+(?P<v10>'[^'\n]+'|\"[^\"\n]+\"|[^\s\-]\S*)"
    r"|\b(?:zip|unzip|zipcloak)\b[^\n]*?\s(?-i:-P)\s+(?P<v11>'[^'\n]+'|\"[^\"\n]+\"|[^\s\-]\S*)"
    r"|\b(?:7z|7za|7zz|rar|unrar)\b[^\n]*?\s(?-i:-p)(?P<v12>'[^'\n]+'|\"[^\"\n]+\"|[^\s\-'\"]\S*)"
    # a command that prints the password for a tool that asks for one (restic, borg, rclone)
    r"|--password-command[= ]\s*[\"']?(?:echo|printf)\s+[\"']?(?P<v9>[^\s\"'|$]{4,})"
    # a password piped into a command that reads it ('echo "x" | docker login --password-stdin'),
    # by echo or printf ("printf '%s' 'x' | ...")
    r"|\b(?:echo|printf)\s+(?:-[ne]\s+)?(?:[\"']%s(?:\\n)?[\"']\s+)?[\"']?(?P<v8>[^\s\"'|$]{4,})[\"']?\s*\|[^\n|]*?(?:--password-stdin|--stdin\b|sudo\s+-S\b|chpasswd)",
    re.IGNORECASE,
)
# A Wi-Fi QR code's text ("WIFI:T:WPA;S:HomeNet;P:hunter22;;").
# (a payload is short: T, S of up to 32 bytes, H, then P; read to the line's end from each
# "wifi:" a line of them took 3.7 s at 90,000 characters)
_WIFI_QR_RE = re.compile(r"\bWIFI:[^\n]{0,160}?\bP:(?P<pw>[^;\n]{1,63});", re.IGNORECASE)

# An e-mail address and a password after it ("Wise → ana@gmail.com / Basalt891!").
# (a package at its version is no address: "@acme/ui-kit@4.12.0, sha512 ...", "x/net@v0.17.0")
_EMAIL_PAIR_RE = re.compile(
    r"(?<![\w.+\-])[\w.+\-]+@(?!v?\d+\.\d+(?:\.\d+)?(?:-[\w.]+)?(?![\w.\-]))[\w\-]+(?:\.[\w\-]+)+"
    r"\s*(?:/|\||:|,)\s*(?P<pw>[^\s@]+)"
)


def _cli_password(text: str) -> bool:
    for m in _CLI_PASSWORD_RE.finditer(text):
        value = next((v for v in m.groups() if v), "")
        value = value.strip("\"'")  # (quoted: 'redis-cli -a "$REDIS_PASSWORD"' is a variable)
        if _ASKS_FOR_IT.match(m.group().lstrip()) or _URL_VALUE.match(value):
            continue  # "wget --ask-password https://...": the flag takes no value, the tool asks
        if value and not PLACEHOLDER.match(value) and not MASKED.fullmatch(value):
            return True
    return False


# A flag that makes the tool ask for the password, or names where it is read from: what
# follows it is the command's next argument ("--ask-password URL", "--password-stdin").
_ASKS_FOR_IT = re.compile(
    r"--(?:ask|prompt|no|read|use|stdin)-[\w\-]*|--[\w\-]+-(?:stdin|prompt|file)\b", re.IGNORECASE
)
_URL_VALUE = re.compile(r"[a-z][\w+.\-]*://", re.IGNORECASE)


# A device's web page and its login, as a note keeps them ("irrigation controller 192.168.1.40
# admin/pivot#North", "router http://10.0.0.1 root / Kestrel!77"): an admin's name, a slash, a
# chosen password ("admin/settings" is a page's path, "admin/admin" a default; so are a path
# going on after another "/" and a file's name: "admin/ISAPI/System/deviceInfo", "user/guide_v2.pdf").
_DEVICE_LOGIN_RE = re.compile(
    r"(?:https?://[^\s/]+\S*|(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?::\d{2,5})?)[\s,:;\-–]+"
    r"(?:admin|root|administrator|ubnt|pi|operator|manager|supervisor|user)\s*/\s*(?P<pw>[^\s/]{4,64})(?!\S)"
    r"(?<!\.html)(?<!\.htm)(?<!\.php)(?<!\.asp)(?<!\.pdf)(?<!\.cgi)(?<!\.jsp)(?<!\.json)(?<!\.xml)(?<!\.txt)"
)


def _device_login(text: str) -> bool:
    return any(
        credential_like(m.group("pw")) and not PLACEHOLDER.match(m.group("pw")) for m in _DEVICE_LOGIN_RE.finditer(text)
    )


def _email_pair(text: str) -> bool:
    return any(
        credential_like(m.group("pw"))
        and not _URLISH_RE.match(m.group("pw"))
        and not _NEXT_FIELD.match(m.group("pw"))
        and not _NO_PASSWORD_AFTER.search(text, max(0, m.start() - 60), m.start())
        and not _FINGERPRINT_GROUPS.match(text, m.start("pw"))
        for m in _EMAIL_PAIR_RE.finditer(text)
    )


# A URL's user at its host ("mongodb+srv://reporting@cluster0.x.net/analytics?..."): the
# path follows, no password (one would stand before the "@", read by the URL's rule); and
# a key's fingerprint named before the address ("PGP fingerprint for security@x.dev: 7F3A ...").
_NO_PASSWORD_AFTER = re.compile(r"://$|\bfingerprints?\b[^\n]*$|\bkey\s*id\b[^\n]*$", re.IGNORECASE)
# ... or after it: groups of four hex digits, as a key's fingerprint is printed.
_FINGERPRINT_GROUPS = re.compile(r"[0-9A-Fa-f]{4}(?:\s{1,2}[0-9A-Fa-f]{4}){4,}")


# The next field of a record after an e-mail ("email=a@b.io, password_hash=$2b$..."): its
# own name and value, read by the settings' rule, not a password after the address; and a
# host's port and path ("app_rw@db.internal:5432/orders" is a user at a database host).
_NEXT_FIELD = re.compile(r"[A-Za-z_][\w.\-]*=|\d{2,5}(?:/\S*)?$")
