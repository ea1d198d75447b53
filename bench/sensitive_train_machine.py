"""Machine text for training the learned stage: configs, logs, lists, tool calls and payment
messages, with no secret and with one (training only, never scored; session 23e).

Held-out N's first run showed the stage refusing machine text that holds no secret: a YAML
config ("port: 8080" after a colon reads like "PIN: 4821"), an .env example of placeholders, a
Kubernetes manifest naming a secret's key, an sshd log line ("Failed password for invalid user
admin"), a calendar entry, a phone list pasted as CSV, a mobile-money confirmation (its
transaction id is ten capitals and digits). The cause is the layout: a setting, a log field, a
list cell or a receipt's reference stands where a chosen value would after a colon or an equals
sign, and few training texts showed such layouts without a secret. So the families below give
many layouts of each kind with settings, fields and references that open nothing (negatives)
and, matched with them, the same layouts with one secret in them (positives: a password in a
config, a debug log that leaks one, a credentials CSV, a tool call carrying a PIN), so that the
secret's own word and value tell them apart, not the layout. Also ids' and accounts' look-alikes
the stage read as ids: an organisation's tax number (public by policy) and the application or
file number of an id being issued (a reference, not the id), each beside a person's id.

Written by hand, apart from every corpus part, the filter's patterns and the tests' wordings.
"""

from __future__ import annotations

import random
import string

_NAMES = (
    *("Amara Diallo", "Tomasz Nowak", "Lucía Romero", "Kenji Sato", "Fatima Haddad", "Oluwaseun Bello"),
    *("Ingrid Dahl", "Rahul Menon", "Chloé Martin", "Dmitri Volkov", "Nguyen Thi Lan", "Sofia Costa"),
)
_HOSTS = ("db-primary", "cache01", "api.internal", "10.0.3.17", "worker-3", "localhost", "172.16.8.4")


def _secret(r: random.Random) -> str:
    """A chosen or generated secret as configs and logs carry them."""
    kind = r.randrange(4)
    if kind == 0:
        return "".join(r.choice(string.ascii_letters + string.digits) for _ in range(r.randint(20, 40)))
    if kind == 1:
        word = r.choice(("Harbor", "maple", "Quokka", "tundra", "Velvet", "orbit", "Saffron"))
        return f"{word}{r.choice('!#$%&*.')}{r.randint(10, 9999)}"
    if kind == 2:
        return "".join(r.choice(string.ascii_letters + string.digits + "!@#%^*") for _ in range(r.randint(10, 16)))
    return "".join(r.choice(string.hexdigits.lower()[:16]) for _ in range(r.choice((24, 32))))


def _setting(r: random.Random) -> tuple[str, str]:
    """A setting that opens nothing, as a config names it."""
    return r.choice(
        (
            ("port", str(r.choice((80, 443, 3000, 5432, 6379, 8000, 8080, 8443, 9090, 27017)))),
            ("host", r.choice(_HOSTS)),
            ("timeout", r.choice(("30s", "5000", "120", "2m"))),
            ("retries", str(r.randint(1, 9))),
            ("max_connections", str(r.choice((50, 100, 250, 1024)))),
            ("log_level", r.choice(("info", "debug", "warn", "error"))),
            ("region", r.choice(("eu-west-1", "us-east-2", "ap-south-1", "af-south-1"))),
            ("replicas", str(r.randint(1, 12))),
            ("image", r.choice(("nginx:1.25", "postgres:16", "redis:7.2-alpine", "node:20-slim"))),
            ("workers", str(r.randint(2, 32))),
            ("cache_ttl", str(r.choice((60, 300, 3600, 86400)))),
            ("timezone", r.choice(("Europe/Berlin", "Africa/Lagos", "Asia/Kolkata", "UTC"))),
            ("user", r.choice(("app", "deploy", "www-data", "svc_reports"))),
            ("database", r.choice(("orders", "analytics", "shop_prod", "crm"))),
            ("version", f"{r.randint(1, 9)}.{r.randint(0, 30)}.{r.randint(0, 9)}"),
            ("bind", f"0.0.0.0:{r.choice((8000, 8080, 9000))}"),
            ("pool_size", str(r.randint(5, 64))),
            ("build", str(r.randint(1000, 9999))),
            ("pid_file", "/var/run/app.pid"),
            ("max_body_size", r.choice(("10m", "64k", "1048576"))),
        )
    )


# A secret's setting given no value: read from the environment, a placeholder, left empty.
_ABSENT = ("${DB_PASSWORD}", "<set-me>", '""', "${SECRET_KEY:?required}", "CHANGE_ME", "{{ vault_db_pass }}")
_SECRET_KEYS = ("password", "db_password", "api_key", "secret_key", "auth_token", "smtp_pass", "admin_pin")


def _config(r: random.Random, pairs: list[tuple[str, str]]) -> str:
    style = r.randrange(6)
    if style == 0:
        return r.choice(("# settings.yaml\n", "", "app:\n")) + "\n".join(f"  {k}: {v}" for k, v in pairs)
    if style == 1:
        return ".env\n" + "\n".join(f"{k.upper()}={v}" for k, v in pairs)
    if style == 2:
        return "[server]\n" + "\n".join(f"{k} = {v}" for k, v in pairs)
    if style == 3:
        return "{" + ", ".join(f'"{k}": "{v}"' for k, v in pairs) + "}"
    if style == 4:
        return "environment:\n" + "\n".join(f"  - {k.upper()}={v}" for k, v in pairs)
    return "\n".join(f"{k} {v};" for k, v in pairs)


def configs(r: random.Random) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    negatives: list[tuple[str, str]] = []
    positives: list[tuple[str, str]] = []
    for _ in range(160):
        pairs = [_setting(r) for _ in range(r.randint(2, 6))]
        negatives.append(("", _config(r, pairs)))
        absent = [*pairs]
        absent.insert(r.randrange(len(pairs) + 1), (r.choice(_SECRET_KEYS), r.choice(_ABSENT)))
        negatives.append(("", _config(r, absent)))
        given = [*pairs]
        key = r.choice(_SECRET_KEYS)
        value = str(r.randint(1000, 999999)) if key == "admin_pin" else _secret(r)
        given.insert(r.randrange(len(pairs) + 1), (key, value))
        positives.append(("secret", _config(r, given)))
    return negatives, positives


# Log lines of many programs and languages: users, addresses, ports, ids, durations.
_FAILED = (
    "Failed password for {u} from {ip} port {p} ssh2",
    "authentication failure; logname= uid=0 euid=0 tty=ssh ruser= rhost={ip} user={u}",
    "Anmeldung fehlgeschlagen für Benutzer {u} von {ip} (falsches Passwort)",
    "contraseña incorrecta para el usuario {u} desde {ip}, intento {n}",
    "mot de passe incorrect pour l'utilisateur {u} ({ip}), tentative {n}/5",
    "senha inválida para o usuário {u}, IP {ip}, tentativa {n}",
    "неверный пароль для пользователя {u} с адреса {ip}, попытка {n}",
    "用户 {u} 登录失败：密码错误（{ip}，第{n}次）",
    "ユーザー {u} のパスワードが違います ({ip}) 試行 {n}",
    "{u} kullanıcısı için hatalı şifre, kaynak {ip}, deneme {n}",
    "password reset requested for {u} from {ip}, token sent by email (expires in {n}h)",
    "PIN verification failed for card ****{d4} at terminal T{n}{d4}",
)
_LOG_OK = (
    "GET /api/v2/orders/{d6} 200 {n}ms",
    "Accepted publickey for {u} from {ip} port {p} ssh2: ED25519 SHA256 fingerprint",
    'POST /login HTTP/1.1" 302 {n} "-" "Mozilla/5.0"',
    "job {d6} finished in {n}.{d4}s, {d4} rows written",
    "connected to {h}:{p} (pool {n}/64)",
    "request_id={hex} user_id={d6} status=ok latency_ms={n}",
    "session {hex} created for {u}, expires in {n} min",
    "retrying upload chunk {n} of {d4} (HTTP 503)",
)


def _log_values(r: random.Random) -> dict[str, str]:
    return {
        "u": r.choice(("admin", "root", "ubuntu", "oracle", "maria.k", "j.okafor", "test", "pi")),
        "ip": ".".join(str(r.randint(1, 254)) for _ in range(4)),
        "p": str(r.randint(1024, 65535)),
        "n": str(r.randint(1, 999)),
        "d4": f"{r.randint(0, 9999):04d}",
        "d6": str(r.randint(100000, 999999)),
        "h": r.choice(_HOSTS),
        "hex": "".join(r.choice("0123456789abcdef") for _ in range(16)),
    }


def _log_line(r: random.Random, body: str) -> str:
    stamp = f"2024-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}T{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}Z"
    prog = r.choice(("sshd[{n}]", "auth", "nginx", "app", "worker", "kernel", "api-gw"))
    return r.choice((f"{stamp} {prog}: {body}", f"[{stamp}] {body}", f"{prog} {body}", body)).replace(
        "{n}", str(r.randint(100, 99999))
    )


def logs(r: random.Random) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    negatives: list[tuple[str, str]] = []
    positives: list[tuple[str, str]] = []
    for _ in range(160):
        lines = [_log_line(r, r.choice((*_FAILED, *_LOG_OK)).format(**_log_values(r))) for _ in range(r.randint(1, 4))]
        negatives.append(("", "\n".join(lines)))
        v = _log_values(r)
        leak = r.choice(
            (
                f"DEBUG login attempt user={v['u']} password={_secret(r)}",
                f'POST /auth body={{"username":"{v["u"]}","password":"{_secret(r)}"}}',
                f"connecting with token {_secret(r)} to {v['h']}:{v['p']}",
                f"DEBUG pin={r.randint(1000, 9999)} accepted for account {v['d6']}",
            )
        )
        lines.insert(r.randrange(len(lines) + 1), _log_line(r, leak))
        positives.append(("secret", "\n".join(lines)))
    return negatives, positives


def _phone(r: random.Random) -> str:
    return r.choice(
        (
            f"+44 7{r.randint(100, 999)} {r.randint(100000, 999999)}",
            f"+234 80{r.randint(1, 9)} {r.randint(100, 999)} {r.randint(1000, 9999)}",
            f"0{r.randint(700, 799)}{r.randint(100000, 999999)}",
            f"+91 {r.randint(70000, 99999)} {r.randint(10000, 99999)}",
            f"+55 11 9{r.randint(1000, 9999)}-{r.randint(1000, 9999)}",
        )
    )


def tables(r: random.Random) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Lists pasted as CSV or tables: phones, stock, hours, members, with no secret; a list of
    logins with their passwords or PINs is one."""
    negatives: list[tuple[str, str]] = []
    positives: list[tuple[str, str]] = []
    for _ in range(120):
        sep = r.choice((",", ";", "\t", " | "))
        n = r.randint(2, 5)
        names = r.sample(_NAMES, n)
        head = r.choice(
            ("", "name{s}phone\n", "contacts.csv\n", "Phone list:\n", "Telefonliste\n", "lista de contactos\n")
        )
        negatives.append(("", head.format(s=sep) + "\n".join(f"{p}{sep}{_phone(r)}" for p in names)))
        stock = "\n".join(
            f"SKU-{r.randint(1000, 9999)}{sep}{r.randint(0, 500)}{sep}{r.randint(1, 99)}.{r.randint(0, 99):02d}"
            for _ in range(n)
        )
        negatives.append(("", r.choice(("sku,qty,price\n", "inventory export\n", "")) + stock))
        hours = "\n".join(f"{p}{sep}2024-0{r.randint(1, 9)}-{r.randint(10, 28)}{sep}{r.randint(1, 12)}" for p in names)
        negatives.append(("", r.choice(("name,date,hours\n", "timesheet\n", "")) + hours))
        members = "\n".join(f"{r.choice(('M', 'MB', 'CL'))}-{r.randint(100, 9999):04d}{sep}{p}" for p in names)
        negatives.append(("", r.choice(("member no,name\n", "club register\n", "Mitgliederliste\n")) + members))
        creds = "\n".join(f"{p.split()[0].lower()}{sep}{_secret(r)}" for p in names)
        positives.append(("secret", r.choice(("user,password\n", "logins.csv\n", "accounts and passwords\n")) + creds))
        pins = "\n".join(f"{p}{sep}{r.randint(1000, 9999)}" for p in names)
        positives.append(("secret", r.choice(("name,PIN\n", "staff door PINs\n", "card PINs (keep safe)\n")) + pins))
    return negatives, positives


_TOOL_ARGS = (
    ("weather.forecast", '"city":"{city}","days":{n}'),
    ("calendar.create_event", '"title":"Team sync","start":"2024-05-{n}T09:30","attendees":{n}'),
    ("orders.lookup", '"order_id":"{ref}","include_items":true'),
    ("shipping.track", '"tracking":"{ref}","carrier":"DHL"'),
    ("search.web", '"query":"cheap flights {city}","limit":{n}'),
    ("contacts.find", '"name":"{name}","phone":"{phone}"'),
    ("files.read", '"path":"/home/app/config/settings.yaml","lines":{n}'),
    ("auth.reset_password", '"user":"{user}","send_link":true'),
)
_TOOL_SECRETS = (
    ("wifi.connect", '"ssid":"{city}_5G","password":"{secret}"'),
    ("bank.login", '"user":"{user}","pin":"{pin}"'),
    ("db.connect", '"host":"db1","user":"{user}","password":"{secret}"'),
    ("email.setup", '"address":"{user}@example.org","app_password":"{secret}"'),
)


def tool_calls(r: random.Random) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    negatives: list[tuple[str, str]] = []
    positives: list[tuple[str, str]] = []
    for _ in range(120):
        fill = {
            "city": r.choice(("Lagos", "Kraków", "Osaka", "Recife", "Pune", "Tromsø")),
            "n": str(r.randint(1, 28)),
            "ref": f"{r.choice(('ORD', 'JD', '1Z', 'TRK'))}{r.randint(10**7, 10**9)}",
            "name": r.choice(_NAMES),
            "phone": _phone(r),
            "user": r.choice(("ana.s", "kofi", "m.weber", "priya88")),
            "secret": _secret(r),
            "pin": str(r.randint(1000, 999999)),
        }
        wrap = r.choice(
            ('{{"tool":"{t}","args":{{{a}}}}}', '{{"name":"{t}","arguments":{{{a}}}}}', "tool_call {t}({{{a}}})")
        )
        tool, args = r.choice(_TOOL_ARGS)
        negatives.append(("", wrap.format(t=tool, a=args.format(**fill))))
        tool, args = r.choice(_TOOL_SECRETS)
        positives.append(("secret", wrap.format(t=tool, a=args.format(**fill))))
    return negatives, positives


# Payment messages: a transaction's reference (capitals and digits), amounts, masked numbers.
_PAYMENTS = (
    "{ref} Confirmed. {cur}{amt} sent to {NAME} {mask} on {date}. New balance is {cur}{amt2}. Fee {cur}{fee}.",
    "{ref} imethibitishwa. Umepokea {cur}{amt} kutoka {NAME} {mask} tarehe {date}. Salio lako ni {cur}{amt2}.",
    "Vous avez reçu {amt} FCFA de {NAME} ({mask}). ID transaction: {ref}. Nouveau solde: {amt2} FCFA.",
    "Rs.{amt} debited from A/c XX{d4} on {date} to VPA {user}@okbank. UPI Ref {d12}. Not you? Call 1800{d6}",
    "Você recebeu um Pix de R$ {amt} de {NAME}. ID: E{d12}{ref}. Saldo: R$ {amt2}",
    "You have received PHP {amt} from {NAME} {mask}. Ref No. {d12}. Your new balance is PHP {amt2}.",
    "Cash In {cur}{amt} successful. TrxID {ref} Balance {cur}{amt2} at {date}",
    "Transfer Rp{amt} ke {NAME} berhasil. No. Ref {ref}. Saldo Rp{amt2}.",
    "Se acreditó {cur}{amt} de {NAME}. Operación N° {d12}. Saldo disponible {cur}{amt2}.",
)


# A bank's or a wallet's warning and how-to, naming the PIN or the code with none given.
_WARNINGS = (
    "{bank} will never ask for your PIN, OTP or password by phone, SMS or email.",
    "{bank} kabhi bhi aapka PIN ya OTP nahi maangta. Kisi ko mat batana.",
    "{bank} कभी भी आपका पिन या ओटीपी फ़ोन पर नहीं पूछता।",
    "{bank} কখনো আপনার পিন বা ওটিপি জানতে চায় না।",
    "{bank} haitakuuliza PIN yako au nambari ya siri kwa simu.",
    "{bank} ne vous demandera jamais votre code PIN ou votre mot de passe.",
    "{bank} nunca te pedirá tu PIN, clave o código por SMS.",
    "O {bank} nunca pede a sua senha ou código por mensagem.",
    "{bank} hindi kailanman hihingi ng iyong PIN o OTP.",
    "{bank} tidak pernah meminta PIN atau kode OTP Anda.",
    "{bank} sẽ không bao giờ hỏi mã PIN hay mã OTP của bạn.",
    "{bank} ไม่เคยขอรหัส PIN หรือ OTP ของคุณทางโทรศัพท์",
    "{bank} 绝不会向您索要密码或验证码。",
    "{bank} ko ni beere PIN rẹ rara, ma fun ẹnikẹni.",
    "To change your card PIN, go to any {bank} ATM, choose PIN change and enter the old one first.",
    "PIN badalne ke liye {bank} ATM par 'PIN change' chuno, pehle purana PIN daalo.",
    "Para cambiar el PIN ve a un cajero de {bank}, elige 'cambio de PIN' y teclea el actual.",
    "Forgot your {bank} app PIN? Tap 'Reset PIN' and verify with your ID.",
    "Dial *{d3}# to reset your {bank} mobile money PIN; you will need your ID number.",
)
_BANKS = ("SBI", "Equity Bank", "GCash", "bKash", "BBVA", "Itaú", "Vietcombank", "KBank", "Access Bank", "Monzo")


def payments(r: random.Random) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    negatives: list[tuple[str, str]] = []
    positives: list[tuple[str, str]] = []
    for _ in range(120):
        alnum = string.ascii_uppercase + string.digits
        fill = {
            "ref": "".join(r.choice(alnum) for _ in range(10)),
            "cur": r.choice(("Ksh", "UGX ", "GHS ", "Tk", "$", "₦")),
            "amt": f"{r.randint(1, 99)},{r.randint(0, 999):03d}.00",
            "amt2": f"{r.randint(1, 99)},{r.randint(0, 999):03d}.{r.randint(0, 99):02d}",
            "fee": f"{r.randint(0, 99)}.00",
            "NAME": r.choice(_NAMES).upper(),
            "mask": f"07{r.randint(10, 99)}XXX{r.randint(100, 999)}",
            "date": f"{r.randint(1, 28)}/{r.randint(1, 12)}/24",
            "d4": f"{r.randint(0, 9999):04d}",
            "d6": f"{r.randint(0, 999999):06d}",
            "d12": str(r.randint(10**11, 10**12 - 1)),
            "user": r.choice(("ravi.k", "shop24", "meena")),
        }
        negatives.append(("", r.choice(_PAYMENTS).format(**fill)))
        warning = r.choice(_WARNINGS).format(bank=r.choice(_BANKS), d3=r.randint(100, 999))
        negatives.append(("", warning if r.random() < 0.5 else f"{fill['NAME'].title()}: {warning}"))
        code = str(r.randint(100000, 999999))
        positives.append(
            (
                "secret",
                r.choice(
                    (
                        f"{code} is your one-time PIN to confirm {fill['cur']}{fill['amt']} to {fill['NAME']}. Do not share it.",
                        f"Msimbo wako wa uthibitisho ni {code}. Usimpe mtu yeyote.",
                        f"Votre code de confirmation est {code}. Ne le partagez avec personne.",
                        f"OTP {code} for UPI PIN reset on A/c XX{fill['d4']}. Valid 5 min. Never share.",
                    )
                ),
            )
        )
    return negatives, positives


# An organisation's tax or registry number is public (docs/security.md); a person's is an id.
_ORG_TAX = (
    ("NIF da {org}: {n9}, para a fatura", "o meu NIF é {n9}, para a fatura"),
    ("CIF de {org}: B{n8} (para facturar)", "mi DNI es {n8}{L}, para la factura"),
    ("SIRET de {org} : {n9}{n5}", "mon numéro de sécurité sociale : 1 85 {n2} {n2} {n3} {n3}"),
    ("USt-IdNr. der {org}: DE{n9}", "meine Steuer-ID: {n11}"),
    ("partita IVA della {org}: {n11}", "il mio codice fiscale: RSSMRA{n2}A{n2}H{n3}X"),
    ("{org} adószáma: {n8}-2-{n2}", "az adóazonosító jelem: 8{n9}"),
    ("NIP firmy {org}: {n3}-{n3}-{n2}-{n2}", "mój PESEL: {n11}"),
)
_ORGS = ("Mendes & Filhos Lda", "Panadería Sol SL", "Atelier Vert SARL", "Schmidt Bau GmbH", "Cantina Rossi srl")
# The number of an application or appointment for an id being issued: a reference, not the id.
_APPLIED = (
    ("passport application file number {A}{n9}{n3}, status: under review", "passport number {A}{n7}, expires 2031"),
    ("giấy hẹn làm căn cước số {n4}-{n5}", "số căn cước công dân: 0{n11}"),
    ("namba ya maombi ya kitambulisho {n4}-{n5}", "namba ya kitambulisho cha NIDA {n8}-{n5}-{n5}-{n2}"),
    ("Aadhaar enrolment slip no. {n4}/{n5}/{n5}", "Aadhaar {n4} {n4} {n4}"),
    ("número de solicitud del DNI: SOL-{n4}-{n5}", "número de DNI: {n8}{L}"),
    ("Antragsnummer für den Personalausweis {n4}-{n5}", "Personalausweisnummer L{n8}"),
)


def _fill_numbers(r: random.Random, template: str) -> str:
    def digits(k: int) -> str:
        return str(r.randint(10 ** (k - 1), 10**k - 1))

    return template.format(
        org=r.choice(_ORGS),
        L=r.choice(string.ascii_uppercase),
        A=r.choice(("MA", "AH", "KL", "DL")),
        **{f"n{k}": digits(k) for k in (2, 3, 4, 5, 7, 8, 9, 11)},
    )


def id_references(r: random.Random) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    negatives: list[tuple[str, str]] = []
    positives: list[tuple[str, str]] = []
    for _ in range(12):
        for without, with_id in (*_ORG_TAX, *_APPLIED):
            negatives.append(("", _fill_numbers(r, without)))
            positives.append(("government_id", _fill_numbers(r, with_id)))
    return negatives, positives


def machine_text(seed: int = 2323) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """All the families: (negatives as (key, text), positives as (label, text))."""
    r = random.Random(seed)
    negatives: list[tuple[str, str]] = []
    positives: list[tuple[str, str]] = []
    for family in (configs, logs, tables, tool_calls, payments, id_references):
        neg, pos = family(r)
        negatives += neg
        positives += pos
    return negatives, positives
