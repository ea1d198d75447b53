"""The words that name a secret (passwords, credentials, access codes, in many languages and
their typos), what may stand between such a word and its value, and the first words that
describe a secret rather than give it."""

from __future__ import annotations

import re

# Words after which a value is a password, whatever it looks like ("password is banana").
_PASSWORD_WORDS = (
    r"password|passwd|pass\s*word|pwd|pw|psw|psswd|pword|passphrase|pass\s*phrase|mot\s+de\s+passe|contraseña"
    # the typos people make typing it
    r"|pasword|passwrd|paswrd|passowrd|passwrod|pssword|passwod|passsword|paswd|passwd|passworf|passw|p/w|pssw|pswd"
    # (and as OCR reads a printed label, or as a leet label: "Passw0rd: 19283746")
    r"|passw0rd|pa55word|pa55w0rd|p@ssword|p@ssw0rd|passw0rt"
    r"|passwort|wifi\s+key|network\s+key|wpa\s+key|secret\s+access\s+key|client\s+secret|security\s+answer"
    r"|answer\s+to\s+(?:my|the)\s+security\s+question|security\s+question\s+answer|maiden\s+name"
    r"|seed\s+phrase|recovery\s+phrase|seed|(?:12|24)\s+words|memorable\s+(?:word|answer|information|name|place)"
    # other languages: German, French, Spanish, Portuguese, Italian, Dutch, Polish, Swedish,
    # Danish/Norwegian, Finnish, Turkish, Czech, Hungarian, Russian, Chinese, Japanese, Korean
    r"|kennwort|passwörter|mdp|contrase[ñn]a|clave(?:\s+(?:del|de)\s+(?:wifi|wi-fi|acceso|la\s+red))?"
    # ... not Spanish "clave" as a code of record ("clave de elector", "clave única", CLABE)
    r"(?!\s+(?:de\s+(?:elector|rastreo|registro|producto|referencia|la\s+empresa)|[úu]nica|curp|interbancaria"
    r"|catastral|fiscal|rfc)\b)|senha"
    r"|wachtwoord|has[łl]o|l[öo]senord(?:et)?|adgangskoden?|passord(?:et)?|salasana|[şs]ifre(?:m|si)?|heslo|jelsz[óo]|пароль"
    r"|密码|密碼|パスワード|비밀번호|wlan[\s\-]?(?:passwort|schlüssel|key)|κωδικός(?:\s+πρόσβασης)?|κωδικό|συνθηματικό"
)
# Words after which only a credential-looking value counts ("the secret is out" does not).
_CREDENTIAL_WORDS = (
    r"secret|pass|api[\s_\-]?key|access[\s_\-]?token|auth[\s_\-]?token|bearer\s+token|token|key"
    # an SNMP community string, which is a switch's password ("SNMP community string: N3tw0rk!RO")
    r"|(?:snmp\s+)?community\s+string|snmp\s+community|r[ow]community"
    r"|api[\s\-]?schl[üu]ssel|cl[ée]\s+(?:d['’]\s*)?api|clave\s+(?:de\s+(?:la\s+)?)?api|chiave\s+api|シークレット"
    # Portuguese, Swedish, Danish, Norwegian, Dutch and Polish ("chave da API", "API-nyckel")
    r"|chave\s+(?:d[ae]\s+)?api|api[\s\-]?(?:nyckel(?:n)?|n[øo]gle(?:n)?|sleutel|klucz)|klucz\s+api"
)
# Words after which a number is an access code.
CODE_WORDS = (
    r"pins?(?:\s+(?:code|number|no\.?)|\s*#)?|passcode|pass\s+code|cvv2?|cvc2?|csc|security\s+code|verification\s+code"
    r"|(?:door|gate|alarm|garage|keypad|lockbox|lock|key\s+safe|entry|storage\s+unit|disarm|access|building"
    # (a till's or an alarm panel's staff codes: "manager override code 0909", "installer code 7735")
    r"|override|supervisor|master|installer|engineer|till|void|shackle"
    r"|front\s+door|back\s+door|office|unlock)\s+code|keycode|combination|combo|backup\s+codes?"
    r"|code\s+(?:to|for|on)\s+(?:the\s+|my\s+)?(?:\w+\s+){0,4}(?:door|gate|safe|alarm|garage|back|lock|office|house"
    r"|building|flat|apartment|entrance|lobby|locker|storage|shed|room|garden|site|closet|cupboard|cabinet|basement"
    r"|cellar|attic|stairwell|cage|box|unit|padlock|porch|yard|keypad|suite|studio|clubhouse|gym|pool|laundry)s?"
    # ... and when ("the code to get into the building after hours is 5-5-1-2")
    r"(?:\s+(?:after|during|at|on|before|out\s+of)\s+(?:the\s+)?\w+){0,2}"
    # Danish, Norwegian and Swedish: "koden til opgangen er 2281"
    r"|kod(?:en)?\s+(?:til|for|på|till|för)\s+(?:\w+\s+){0,2}?(?:opgang|trappeopgang|kælder|kjeller|källare|port"
    r"|dør|dörr|hoveddør|ytterdør|porttelefon|postkasse|garage|bod|förråd|cykelkælder|sykkelbod|trapphus)\w*"
    r"|(?:door|gate|alarm|garage|lock|safe|locker|entry|building)\s+\w+\s+code|puk|sim\s+pin"
    # other languages
    r"|pin[\s\-]?(?:code|kode|nummer|numero|número)|code\s+pin|pincode|digicode|t[üu]rcode|zugangscode"
    r"|code\s+(?:de\s+la\s+|du\s+|de\s+l['’]\s*|d['’]\s*)(?:porte|portail|alarme|entrée|immeuble|coffre|cadenas)"
    r"|c[óo]digo\s+(?:de\s+la\s+|del\s+|de\s+)(?:puerta|portal|alarma|porta|port[ãa]o|cadeado)"
    r"|codice\s+(?:della\s+|del\s+|dell['’]\s*)(?:porta|cancello|allarme)|kod\s+do\s+(?:drzwi|bramy|alarmu|domofonu|furtki|sejfu|klatki)"
    r"|(?:opens|unlocks?|disarms?|open\s+it|unlock\s+it)\s+with(?:\s+(?:the|code|pin))*"
    # a card's security code, a PIN and an entrance code in more languages
    r"|c[óo]digo\s+de\s+seguridad|code\s+de\s+s[ée]curit[ée]|codice\s+di\s+sicurezza|sicherheitscode"
    r"|(?:karten)?pr[üu]fnummer|cryptogramme(?:\s+visuel)?|pin\s+kodu|pin[\s\-]?k[óo]d|pin[\s\-]?koodi|m[ãa]\s+pin"
    r"|пин(?:[\s\-]?код)?|пін(?:[\s\-]?код)?|код\s+(?:от\s+|від\s+)?(?:подъезда|домофона|двери|сейфа|замка|калитки"
    r"|ворот|квартиры|під['’]?їзду|домофону|дверей|сейфу)"
    # one-time codes: an access code for as long as it lives
    r"|otp(?:\s+code)?|(?:2fa|mfa|two[\s\-]factor|sms|login|sign[\s\-]?in)\s+code|one[\s\-]time\s+(?:code|password|passcode|pin)"
    r"|auth(?:entication|enticator)?\s+code|c[óo]digo\s+de\s+verifica(?:ci[óo]n|[çc][ãa]o)|best[äa]tigungs-?code"
    r"|verifizierungscode|code\s+de\s+v[ée]rification|codice\s+di\s+verifica|verificatiecode|kod\s+weryfikacyjny"
    r"|код\s+подтверждения|mã\s+(?:otp|xác\s+(?:nhận|thực))|kode\s+(?:otp|verifikasi)"
    # "the code they sent", "code from the text", a card's PIN in French and Portuguese, Czech doors
    r"|(?:code|pin)\s+(?:(?:they|he|she|you|it|the\s+bank|the\s+app)\s+)?(?:sent|texted|got|received)(?:\s+(?:me|you|us))?"
    r"|code\s+(?:from|in)\s+(?:the\s+)?(?:text|sms|message|e-?mail|app)|code\s+(?:de\s+(?:ma\s+|la\s+)?)?carte(?:\s+bleue)?"
    r"|code\s+cb|c[óo]digo\s+(?:multibanco|do\s+cart[ãa]o)|k[óo]d\s+(?:od|k|ke|na|do)\s+(?:vchodu|dve[řr][íi]|domu|bytu"
    r"|trezoru|sejfu|z[áa]mku|alarmu|br[áa]ny)|security\s+number|memorable\s+(?:number|digits)"
)
# What may stand between the word and its value: what it is for ("pw for the laptop",
# "Passwort für Steam", "mot de passe du wifi"), then a copula in one of the languages above.
# (or two such phrases, where it came from and what it is for: "temp password from the bank
# for the new online account: Xy9!Kq2r")
FILLER = (
    r"(?:\s+(?:for|to|of|on|at|für|fuer|zum|zur|vom|pour|du|de|des|para|del|do|da|per|di|della|voor|van|bij|dla"
    r"|till|för|på|der|von|vom|k|ke|od|от|для|на|від|до|της|του|των|của|cho|untuk|dari|from)"
    # (a word may hold dots, "netflix.com", but the words stop at a sentence's end: "... the email. Speaker: J.")
    r"(?:\s+[\w'’\-]+?(?:\.[\w'’\-]+?)*){1,6}?"
    r"(?:\s+(?:for|from|to|of|on|at)(?:\s+[\w'’\-]+?(?:\.[\w'’\-]+?)*){1,6}?)?)?"
)
COPULA = (
    r"=|:|(?<=[ \t])-(?!\S)|→|->|'s|’s|\?\s*(?:it['’]?s|it\s+is|(?:a|answer)\s*:)"
    # (a dash between spaces, not a list's bullet after a line break: "password\n- renew passport")
    # a word copula stands alone: "user", "test" and "Tuesday" end in "er", "est" and "es"
    r"|(?<![\w'’.\-])(?:is|was|are|ist|lautet|war|est|c['’]est|était|es|era|é|è|eh|to|jest|är|var|er|είναι|это)(?![\w])"
    # (not French "je", I: "le mot de passe de l'espace client je l'ai réinitialisé")
    r"|(?<![\w'’.\-])je(?![\w])(?!\s*(?:l['’]|le\b|la\b|les\b|ne\b|n['’]|me\b|m['’]|t['’]|te\b|suis\b"
    r"|vais\b|sais\b|peux\b|dois\b|crois\b|pense\b|viens\b|veux\b|l['’]ai\b))"
)
SEP = r"\s*(?:" + COPULA + r")?\s*"
PASSWORD_WORD = r"(?<![\w])(?:" + _PASSWORD_WORDS + r")(?![\w])"
# (not a YAML tag: "mqtt_password: !secret mqtt_pw" reads the value from elsewhere)
CREDENTIAL_WORD = r"(?<![\w!])(?:" + _CREDENTIAL_WORDS + r")(?![\w])"
# First words that describe a password rather than give it (and the type names of code:
# "password: string").
NOT_A_VALUE = frozenset(
    [
        *("string", "str", "bytes", "text", "varchar", "char", "secretstr", "number", "int", "integer", "bool"),
        *("boolean", "undefined", "nullable", "await", "new", "function", "lambda", "yield", "require", "import"),
        *("return", "none", "nil", "self", "this", "validation", "στο", "στη", "στην", "στον", "σε", "staat", "liegt"),
        *("hängt", "steht", "está", "sta", "trouve", "leží", "jest", "находится", "лежит"),
        *("demasiado", "corta", "corto", "débil", "debil", "segura", "seguro", "nueva", "nuevo", "vieja", "kurz"),
        *("lang", "sicher", "unsicher", "schwach", "falsch", "richtig", "neu", "alt", "geändert", "court"),
        *("courte", "longue", "faible", "nouveau", "nouvelle", "ancien", "changé", "sbagliata", "nuova", "debole"),
        *("kort", "zwak", "fout", "nieuw", "gewijzigd", "för", "svag", "ny", "fel", "ändrat", "za", "krótkie"),
        *("słabe", "nowe", "muito", "curta", "fraca", "errada", "le", "la", "les", "un", "une", "el", "los", "las"),
        *("una", "der", "die", "das", "den", "dem", "ein", "eine", "mein", "meine", "dein", "mon", "ma", "mes"),
        *("ton", "mi", "mis", "tu", "il", "lo", "o", "os", "um", "uma", "het", "een", "mijn", "min", "mitt"),
        *("nicht", "pas", "non", "sur", "dans", "im", "auf", "en", "sobre", "em", "na", "op", "noch", "toujours"),
        *("siempre", "sempre", "nog", "altijd", "vergessen", "oublié", "olvidé", "esqueci", "dimenticato"),
        *("vergeten", "glömt", "nie", "nic", "zu", "trop", "muy", "troppo", "te", "det", "er", "a", "an", "the"),
        *("my", "your", "his", "her", "our", "their", "its", "it", "this", "that", "in", "on", "at", "to", "for"),
        *("of", "from", "with", "by", "and", "or", "but", "not", "no", "still", "too", "very", "so", "same"),
        *("different", "long", "short", "weak", "strong", "secure", "simple", "easy", "hard", "complicated"),
        *("wrong", "correct", "incorrect", "saved", "stored", "written", "kept", "somewhere", "here", "there"),
        *("again", "yesterday", "today", "now", "expired", "reset", "changed", "change", "manager", "managers"),
        *("rules", "rule", "policy", "hint", "must", "should", "got", "leaked", "protected", "strength", "length"),
        *("field", "required", "needed", "also", "just", "only", "all", "every", "each", "some", "any", "what"),
        *("which", "who", "how", "why", "when", "where", "i", "you", "he", "she", "we", "they", "me", "him"),
        *("them", "was", "is", "are", "be", "been", "being", "has", "have", "had", "do", "does", "did", "will"),
        *("would", "can", "could", "may", "might"),
        # (what says it is no longer the value: "a senha não é mais ...", "n'est plus", "ist nicht mehr")
        *("não", "mais", "plus", "mehr", "más", "longer", "niet", "meer", "inte", "ikke", "più", "já", "ya"),
        # what was done to it, not what it is ("the password was rotated on Thursday")
        *("rotated", "updated", "revoked", "regenerated", "renewed", "compromised", "exposed", "immediately"),
        # its state in other languages ("la password è scaduta", "das Passwort ist abgelaufen")
        *("scaduta", "scaduto", "cambiata", "errata", "bloccata", "vecchia", "dimenticata", "caducada", "caducado"),
        *("bloqueada", "bloqueado", "incorrecta", "incorrecto", "cambiada", "expirada", "expirado", "errada"),
        *("expiré", "expirée", "bloqué", "bloquée", "incorrect", "incorrecte", "abgelaufen", "gesperrt"),
        *("ungültig", "verlopen", "geblokkeerd", "onjuist", "wygasło", "zablokowane", "błędne", "utgånget"),
        # where it is, in Polish and Czech ("hasło jest u mamy", "heslo je napsané na routeru")
        *("u", "napsané", "napsaný", "napsaná", "zapsané", "uložené", "zapisane", "zapisany", "napisane"),
        # switched off, sealed away or too big to remember, not a value ("das alte Kennwort ist
        # abgeschaltet", "its password is sealed in an envelope", "a senha do wifi é enorme")
        *("sealed", "disabled", "deactivated", "locked", "blocked", "invalid", "huge", "enormous", "massive"),
        *("abgeschaltet", "deaktiviert", "gesperrt", "ungültig", "enorm", "riesig", "enorme", "gigante"),
        *("desactivada", "desactivado", "desativada", "desativado", "bloqueada", "énorme", "désactivé"),
        *("désactivée", "disattivata", "disattivato", "lunghissima", "larguísima", "longuíssima", "avstängt"),
        *("inaktiverat", "spärrat", "jättelångt", "versiegelt", "lacrada", "sellada", "sigillata", "scellé"),
        # changed, in more languages ("lösenordet är bytt", "passordet er endret", "hasło zostało zmienione")
        *("bytt", "byttet", "byttes", "ändrad", "ändrades", "ændret", "skiftet", "endret", "vaihdettu", "zmienione"),
        *("zmienione", "zmieniony", "zmieniona", "veranderd", "alterada", "alterado", "mudada", "mudado"),
        *("cambiato", "modifié", "modifiée", "modificada", "modificado", "modificata", "değişti", "değiştirildi"),
        *("изменён", "изменен", "сменён", "сменен", "змінено", "změněno", "megváltozott", "schimbată"),
        # who set it or has it, not what it is ("senha do app: ela mesma cadastrou", "pw is whatever you set")
        *("ela", "ele", "eu", "nós", "eles", "elas", "ella", "él", "yo", "ellos", "elle", "lui", "nous", "ils"),
        *("elles", "sie", "ich", "wir", "io", "noi", "zij", "hij", "ik", "wij", "hon", "han", "jag", "whatever"),
        *("whoever", "per-manager", "per-user", "individual", "personal", "unique"),
        # Arabizi's little words, whose digits made them look like a value ("el password bta3 el wifi
        # 3ala el router", "el password 3and Mariam")
        *("bta3", "beta3", "bta3et", "btaa3", "3ala", "3and", "3nd", "3end", "ma3", "ma3a", "ta7t", "fo2"),
        *("3shan", "3alashan", "ba3d", "2abl", "m3a", "3la", "7ad", "l7ad", "7atta", "7aga"),
        # a product's name written in mixed case, how a message is sent, not a password
        *("whatsapp", "paypal", "icloud", "linkedin", "youtube", "iphone", "ipad", "macbook", "onedrive"),
        *("sharepoint", "teamviewer", "anydesk", "airdrop", "facetime", "imessage", "wechat", "signal", "telegram"),
        # since when, not what ("das Passwort vom Admin-Konto ist seit gestern geändert")
        *("since", "already", "seit", "schon", "bereits", "gestern", "heute", "depuis", "déjà", "desde", "dal"),
        *("sinds", "al", "sedan", "redan", "allerede", "już", "уже", "вже", "з", "с"),
        # what happened to it, who to ask, or the sentence that says so, in the writer's own words
        # (held-out N: "old wifi password is gone now", "Senha do alarme: foi trocada ontem", "senha
        # do wi-fi: tá escrita no quadro", "wachtwoord: vraag het even aan de receptie", "Password
        # del portale: ormai entra solo con lo SPID", "det gamle passordet er sperret")
        *("gone", "dead", "void", "empty", "blank", "foi", "era", "tá", "tava", "fica", "ficou", "ormai"),
        *("adesso", "agora", "ahora", "ask", "vraag", "vraagt", "frag", "fragt", "demande", "demandez"),
        *("pregunta", "pregunten", "pergunta", "pergunte", "chiedi", "chiedete", "spør", "spørg", "fråga"),
        *("zapytaj", "sperret", "sperra", "spärrad", "låst", "bloccato"),
        # a screen reader's or a form's reading of the empty field ("Password: edit text, secure")
        *("edit", "textbox", "textfield", "input"),
    ]
)

# Participles saying where or how a secret is kept, not what it is.
WHERE_IT_IS = frozenset(
    [
        *("printed", "written", "stored", "saved", "kept", "listed", "shown", "located", "taped", "stuck"),
        *("attached", "included", "required", "needed", "optional", "provided", "sent", "emailed", "texted"),
        *("managed", "synced", "shared", "encrypted", "hashed", "hidden", "masked", "redacted"),
        # written or kept, in other languages ("è scritta sul modem", "je napsané na routeru")
        *("scritta", "scritto", "salvata", "salvato", "escrita", "escrito", "anotada", "anotado", "guardada"),
        *("écrit", "écrite", "notée", "noté", "geschrieben", "notiert", "gespeichert", "opgeschreven"),
        *("opgeslagen", "skriven", "skrivet", "sparad", "skrevet", "lagret", "napsané", "napsaný", "napsaná"),
        *("uložené", "zapisane", "zapisany", "zapisana", "zapisał", "zapisałam"),
        *("γραμμένος", "γραμμένη", "γραμμένο", "αποθηκευμένος", "αποθηκευμένη", "αποθηκευμένο", "записан"),
        *("записано", "записаний", "записаний", "збережений", "сохранён", "сохранен", "kirjoitettu", "tallennettu"),
        # sent to someone ("Nytt lösenord ... är skickat till butikschefen", "sudah dikirim lewat WhatsApp")
        *("skickat", "skickad", "skickats", "sendt", "geschickt", "gesendet", "verschickt", "envoyé", "envoyée"),
        *("enviada", "enviado", "inviata", "inviato", "mandata", "verstuurd", "gestuurd", "dikirim", "terkirim"),
        *("wysłane", "wysłany", "отправлен", "отправлено", "надіслано", "gönderildi"),
    ]
)

# A Wi-Fi network's name, named with "is" or a colon after a password kept elsewhere ("WLAN-Passwort
# steht auf dem Router, Name ist FRITZ!Box 7590", "contraseña del wifi en la nevera, red:
# MOVISTAR_A4F2", "nazwa sieci: UPC_A4F2x9"): what follows is the name a guest picks, not the password.
NETWORK_NAMED = re.compile(
    r"(?<![\w])(?:ssid|netzwerkname|wlan-?name|(?:network|wi-?fi)\s+name|(?:the\s+)?name|nombre\s+de\s+(?:la\s+)?red|red"
    r"|nom\s+du\s+r[ée]seau|nome\s+da\s+rede|rede|netwerknaam|nazwa\s+sieci|ağ\s+adı|имя\s+сети|tên\s+mạng)"
    r"\s*(?:[:=]|(?:ist|is|es|é|est|jest|är|er)(?![\w]))",
    re.IGNORECASE,
)

# Words in the gap that make the sentence about something else ("the password manager we
# use is 1Password").
FAR_GAP_META = frozenset(
    [
        *("manager", "managers", "policy", "rules", "rule", "hint", "reset", "app", "apps", "field", "length"),
        *("strength", "requirement", "requirements", "generator", "vault", "tool", "software", "program"),
        *("provider", "protected", "protection"),
        # how it is hashed, not what it is ("password hashing: m=65536, t=3")
        *("hash", "hashed", "hashing", "hashes"),
    ]
)

SECRET_STEMS = frozenset(
    [
        *("sicherheitscode", "prüfnummer", "pruefnummer", "kartenprüfnummer", "cryptogramme", "kodu", "kód", "kod"),
        *("koodi", "mã", "пин", "пін", "код", "seguridad", "sicurezza", "sécurité", "otp", "mfa", "kode", "koden"),
        *("bestätigungscode", "bestaetigungscode", "verifizierungscode", "verificatiecode", "verificación"),
        *("sent", "texted", "carte", "cb", "multibanco", "memorable", "number", "schlüssel", "clé", "chiave"),
        *("question", "answer", "codeword", "wi", "fi"),
        *("passw", "pins", "type", "enter", "punch", "dial", "p", "pasword", "passwrd", "paswrd", "passowrd"),
        *("passwrod", "pssword", "passwod", "passsword", "paswd", "passworf", "κωδικός", "κωδικό", "συνθηματικό"),
        *("pssw", "pswd", "community", "rocommunity", "rwcommunity", "override", "supervisor", "installer"),
        *("shackle", "till", "void"),
        *("kennwort", "passwörter", "mdp", "contraseña", "contrasena", "clave", "senha", "wachtwoord", "hasło"),
        *("haslo", "lösenord", "losenord", "lösenordet", "losenordet", "passordet", "adgangskoden", "adgangskode"),
        *("passord", "salasana", "şifre", "şifrem", "şifresi", "sifre", "heslo", "jelszó", "jelszo", "пароль"),
        *("wlan", "creds", "credentials", "user", "username", "sign", "signin", "zugangsdaten", "anmeldedaten"),
        *("identifiants", "credenciales", "credenziali", "inloggegevens", "pincode", "digicode", "türcode"),
        *("turcode", "zugangscode", "puk", "sim", "código", "codigo", "codice", "kod", "opens", "unlock"),
        *("unlocks", "disarms", "locker", "safe", "password", "passwd", "pass", "pwd", "pw", "psw", "psswd"),
        *("pword", "passphrase", "mot", "contraseña", "passwort", "wifi", "network", "wpa", "secret", "client"),
        *("security", "answer", "maiden", "seed", "recovery", "words", "api", "apikey", "access", "auth", "bearer"),
        *("token", "key", "pin", "passcode", "cvv", "cvv2", "cvc", "cvc2", "csc", "verification", "door", "gate"),
        *("alarm", "garage", "keypad", "lockbox", "lock", "entry", "storage", "disarm", "building", "front"),
        *("back", "office", "unlock", "keycode", "combination", "combo", "backup", "code", "login", "log"),
    ]
)

LOGIN_STEMS = frozenset(
    [
        *("login", "log", "creds", "credentials", "user", "username", "sign", "signin", "zugangsdaten"),
        *("anmeldedaten", "identifiants", "credenciales", "credenziali", "inloggegevens"),
    ]
)
AROUND_STEMS = frozenset(
    [
        *("password", "passwd", "pwd", "pw", "passphrase", "passcode", "pin", "pins", "login", "log", "sign", "signin"),
        *("unlock", "type", "enter", "punch", "key", "dial", "recovery", "backup", "mfa"),
    ]
)
CREDENTIAL_STEMS = frozenset(["secret", "pass", "api", "apikey", "access", "auth", "bearer", "token", "key"])
# The words of _PASSWORD_WORDS (and of a PIN, for the value-before-the-word form).
PASSWORD_STEMS = (
    SECRET_STEMS
    - LOGIN_STEMS
    - frozenset(
        [
            *("door", "gate", "alarm", "garage", "keypad", "lockbox", "lock", "entry", "storage", "disarm"),
            *("building", "front", "back", "office", "unlock", "keycode", "combination", "combo", "backup", "code"),
            *("verification", "cvv", "cvv2", "cvc", "cvc2", "csc", "sim", "puk", "digicode", "türcode", "turcode"),
            *("zugangscode", "código", "codigo", "codice", "kod", "opens", "unlocks", "disarms", "locker", "safe"),
            *("api", "apikey", "access", "auth", "bearer", "token", "key", "type", "enter", "punch", "dial"),
        ]
    )
)


# A pass that is a ticket or a card, not a password ("boarding pass: M1SMITH/JOHN ...",
# "ski pass 01-1614-2291"): what it lets through is a gate, with the holder's name on it.
TICKET_PASS = frozenset(
    [
        *("boarding", "bus", "rail", "train", "metro", "transit", "travel", "day", "week", "weekly", "monthly"),
        *("season", "annual", "ski", "lift", "gym", "hall", "press", "vip", "backstage", "festival", "museum"),
        *("park", "parking", "event", "golf", "student", "ferry", "zoo", "cinema", "theme"),
    ]
)


# The case or ticket a code's trouble was filed as, named before its number ("engangskoden
# kom aldri, sak 839201", "der TAN kam nicht an, Vorgang 448120"): that number is the case's.
FILED_AS = (
    r"case|ticket|incident|sak|saksnummer|ärende|ärendenummer|sag|sagsnummer|zgłoszeni[ae]|fall|vorgang|caso"
    r"|dossier|protocolo|protokoll|melding|tiketti|tapaus"
    # ... or the payment it approved ("Płatność BLIK zatwierdzona, nr transakcji 88120042")
    r"|transaction|transakcji|transakcja|transakce|transacci[óo]n|transa[çc][ãa]o|transaktion\w*"
)

# An aside between a secret's word and its value that says when it may be needed, not which
# case it was filed under ("the OTP, in case you need it, is 482913", "die TAN, für alle
# Fälle, ist ...", "el PIN, por si acaso, es ..."): set apart by commas, brackets or dashes.
# "in case" before a number is a filed case ("OTP for case 12345"), so it is not an aside.
_WHEN_NEEDED = (
    r"(?:just\s+)?in\s+case(?!\s*(?:no\.?|nr\.?|number|#)?\s*\d)|in\s+any\s+case|if\s+(?:you\s+)?(?:need|needed|asked"
    r"|prompted|required)|when\s+(?:asked|prompted)|should\s+you\s+need|für\s+alle\s+fälle|sicherheitshalber"
    r"|falls\s+(?:nötig|noetig|du|sie|man|gefragt)|auf\s+jeden\s+fall|au\s+cas\s+o[uù]|en\s+tout\s+cas|si\s+besoin"
    r"|au\s+besoin|por\s+si\s+(?:acaso|las\s+moscas|lo\s+necesitas|te\s+lo\s+piden)|en\s+(?:todo|cualquier)\s+caso"
    r"|caso\s+(?:precise|necess[áa]rio)|em\s+(?:todo|qualquer)\s+caso|por\s+via\s+das\s+d[úu]vidas|se\s+precisar"
    r"|nel\s+caso|in\s+ogni\s+caso|per\s+sicurezza|se\s+serve|voor\s+het\s+geval|voor\s+de\s+zekerheid"
    r"|in\s+(?:elk|ieder)\s+geval|för\s+säkerhets\s+skull|for\s+en\s+sikkerheds\s+skyld|for\s+sikkerhets\s+skyld"
    r"|ifall|na\s+wszelki\s+wypadek|w\s+razie\s+czego"
)
WHEN_NEEDED_ASIDE = (
    r"(?:,|\(|\s[–—\-](?=\s))\s*(?:" + _WHEN_NEEDED + r")(?![\w])[^,()\n.;:!?–—]{0,40}?\s*(?:,|\)|\s[–—\-](?=\s)|(?=:))"
)


# A password's name of several words, split by the name's separators ("mot_de_passe",
# "palavra_passe", "kata_sandi", "mat_khau"): read as one part.
_PHRASES = {("mot", "de", "passe"): "motdepasse", ("palavra", "passe"): "senha", ("kata", "sandi"): "password"}
_PHRASES |= {("kata", "laluan"): "password", ("mat", "khau"): "password", ("pass", "word"): "password"}


def phrases_joined(parts: list[str]) -> list[str]:
    out, i = [], 0
    while i < len(parts):
        for phrase, word in _PHRASES.items():
            if tuple(parts[i : i + len(phrase)]) == phrase:
                out.append(word)
                i += len(phrase)
                break
        else:
            out.append(parts[i])
            i += 1
    return out
