"""A software licence's, a product's or an activation key, and an eSIM's activation code.

The policy (docs/security.md, "Values that grant nothing, by policy"): a licence or activation
key is a bearer credential. Whoever holds it gets the paid use it was bought for (the retail
Office key on the box, a SolarWinds or Veeam licence key, an Adobe serial, a remote-support
tool's deployment code), so it is a secret. What only names the licence (its contract,
order, customer, seat or invoice number) grants nothing and is no secret, nor is a vendor's
published generic key, a template of X's, or a key said to be the generic or KMS one.

A key is read after its word (licence key, product key, activation code, deployment code,
Lizenzschlüssel, clé de produit, ключ активации, プロダクトキー, ...), a few words on, in
the shapes keys are printed in: four or more dashed groups of capitals and digits holding both
("4HNBK-8YP3R-QT2VC-9W7DM-XKJ6F", "VBR-ENT-2X7K9-QM4PL-8RT3N-WZ5VH"), or one run of ten or
more capitals and digits holding both ("4K7XRTMQ29NP"). A serial is a device's as often as a
software's ("serial 4596 6542 5987 4713 on the inverter", "serial no. 4471-2290-1188-0412-7"),
so after "serial" only a key's grouped shape counts, or six groups of four digits, as Adobe
prints its serials, with a program's name before it."""

from __future__ import annotations

import re

from engram.domain.sensitive.prefilter import keyed

# The words that name a key which activates something paid for.
_KEY_WORD = (
    r"(?:licen[cs]e|licen[cs]ing|product|activation|retail|volume|oem|mak|registration|deployment|install(?:ation)?"
    r"|cd|subscription|serial)[\s\-]*key"
    r"|(?:licen[cs]e|activation|registration|deployment|install(?:ation)?)[\s\-]*code"
    r"|(?:licen[cs]e|product)[\s\-]*serial|licen[cs]e\s+file|cd-?key"
    r"|lizenz(?:schl[üu]ssel|key|code)|produktschl[üu]ssel|aktivierungs(?:schl[üu]ssel|code)"
    r"|cl[ée]\s+(?:de\s+)?(?:licence|produit|d['’]activation)|code\s+d['’]activation"
    r"|clave\s+de\s+(?:licencia|producto|activaci[óo]n)|c[óo]digo\s+de\s+activaci[óo]n"
    r"|chave\s+(?:de\s+)?(?:licen[çc]a|produto|ativa[çc][ãa]o)"
    r"|chiave\s+(?:di\s+)?(?:licenza|prodotto|attivazione)|codice\s+di\s+attivazione|licentie(?:sleutel|code)"
    r"|productsleutel|activatiecode|licensnyckel|produktnyckel|licensn[øo]gle|klucz\s+(?:licencyjny|produktu|aktywacyjny)"
    r"|kod\s+aktywacyjny|ключ\w*\s+(?:активации|лицензии|продукта)|лицензионн\w+\s+ключ|серийн\w+\s+номер"
    r"|lisans\s+anahtar\w*|ürün\s+anahtar\w*|serial"
)
_KEY_WORD_IN_SCRIPT = (
    r"ライセンスキー|プロダクトキー|シリアル(?:番号|キー)?|許可證|许可证|激活码|激活碼|序列号|序列號|产品密钥|產品金鑰"
    r"|라이선스\s*키|제품\s*키|시리얼"
)
# A key as printed: dashed groups of capitals and digits (both), or one long run of both.
_GROUPED = r"(?=[A-Z\d\-]*\d)(?=[A-Z\d\-]*[A-Z])[A-Z\d]{3,8}(?:-[A-Z\d]{3,8}){3,7}"
_RUN = r"(?=[A-Z\d]*\d)(?=[A-Z\d]*[A-Z])[A-Z\d]{10,30}"
_ADOBE = r"\d{4}(?:-\d{4}){5}"
_KEY = keyed(
    r"(?<![\w])(?P<word>" + _KEY_WORD + r"|" + _KEY_WORD_IN_SCRIPT + r")"
    # a few words on (the program, "for the reception PC", "from the box"), no sentence's end
    r"(?P<gap>[^\n.;!?]{0,48}?)(?:[\s:=：(\"'“«]|\bis\s|\bwas\s)\s*"
    r"(?P<value>" + _GROUPED + r"|" + _ADOBE + r"|" + _RUN + r")(?![\w\-])",
    re.IGNORECASE,
)
# A program or a vendor before an Adobe-shaped serial ("adobe acrobat serial ...").
_PROGRAM = re.compile(
    r"(?:adobe|acrobat|photoshop|illustrator|indesign|premiere|lightroom|creative\s+suite|autocad|autodesk"
    r"|corel|office|windows|visio|project|nero|vmware|parallels|software|program|app)",
    re.IGNORECASE,
)
# A key everyone may have: the vendor's generic or KMS client key, a template, a masked one.
_PUBLIC_KEY = re.compile(
    r"\b(?:generic|kms|gvlk|default\s+key|example|sample|dummy|placeholder|template)\b", re.IGNORECASE
)
# A word naming the value as something else between the key's word and it.
_OTHER_VALUE = re.compile(
    r"\b(?:version|build|commit|ticket|ref(?:erence)?|sku|model|order|invoice|contract|customer|case|seat|po)\b",
    re.IGNORECASE,
)
# An eSIM's activation code (GSMA SGP.22: "LPA:1$<SM-DP+ address>$<matching id>"): it installs
# the profile, the line's number with it, on whatever phone scans it first.
_ESIM = keyed(r"(?<![\w])LPA:1\$[\w.\-]+\$[A-Za-z\d\-]{6,}")


def licence_key(text: str) -> bool:
    if "LPA:" in text and _ESIM.search(text) is not None:
        return True
    for m in _KEY.finditer(text):
        value, word = m.group("value"), m.group("word").lower()
        if _OTHER_VALUE.search(m.group("gap")) is not None:
            continue  # ("deployment code review ..., version 4K7XRT...": the value is named as another)
        if value != value.upper():
            continue  # (keys are printed in capitals; "product key for build-2024-arm64-rc1" is a name)
        if _PUBLIC_KEY.search(text) is not None:
            return False
        if word == "serial" or word.startswith("серийн") or word in ("シリアル", "序列号", "序列號", "시리얼"):
            # a device's serial is one word or a few digit groups: a key's shape, or Adobe's
            # six groups of four after a program's name
            grouped = "-" in value and not value.replace("-", "").isdigit()
            adobe = value.count("-") == 5 and value.replace("-", "").isdigit()
            before = text[max(0, m.start() - 40) : m.start()]
            if not (grouped or (adobe and _PROGRAM.search(before + m.group("gap")))):
                continue
        elif value.replace("-", "").isdigit():
            continue  # (digits alone after "licence number" are an order's or a contract's)
        return True
    return False
