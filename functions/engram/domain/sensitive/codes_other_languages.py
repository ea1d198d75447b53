"""Access codes, PINs and security answers written in other languages and scripts, where the
English-shaped rules of ``lock_codes`` and ``passwords`` find no word they know:

- a word that by itself names a PIN or a code to keep secret (Finnish "tunnusluku", Swahili
  "namba ya siri", Hebrew "הקוד הסודי", Bengali "পিন", a code "from the SMS" in Russian,
  a one-time code in Swedish or Turkish, recovery codes in Spanish, German or Chinese),
  then a code within a few words;
- a word for "code" (code, kod, kód, kode, koodi, kodu, codice, código, код, κωδικός, קוד,
  كود, رمز, کد, รหัส, msimbo, mã ...) with the thing it opens close by (a door, gate,
  alarm, safe, intercom, padlock, garage, in each language, inflected), then a code;
- the code first, and the word after it ("2486 это пин от карты", "0417 isch dr Code
  vom Veloschloss", "8264 是我家门锁的密码").

(The answer to a security question in another language is in
``security_answers_other_languages``.)

A code here is three to ten digits (spaced digits and other scripts' digits are read as
ASCII digits by ``reading_view`` first), at most two letters, "#" or "*": not a time, a
year after "since", an amount or a phone number. Postal, area, error, promo, tracking and
order codes name nothing that opens.
"""

from __future__ import annotations

import re

from engram.domain.sensitive.number_words import cjk_digits_read
from engram.domain.sensitive.prefilter import answered_once
from engram.domain.sensitive.secret_values import credential_like, pointer

# Words that by themselves name a PIN or a code to keep secret, in Latin and Cyrillic script.
_STRONG_LATIN = (
    r"tunnusluku\w*|pin[\s\-]?koodi\w*|geheimzahl|geheimnummer|namba\s+ya\s+siri|nambari\s+ya\s+siri|lambar\s+sirri\w*|lambarka\s+sirta"
    r"|kode\s+pin|m[ãa]\s+pin|numer\s+pin|c[óo]digo\s+pin|codice\s+pin|code\s+pin|pin[\s\-]?k[óo]d\w*|pinkod\w*"
    r"|пин(?:[\s\-]?код\w*|а|ом|у|е)?|пін(?:[\s\-]?код\w*|а|ом|у|і)?"
    r"|cvc2?|cvv2?|cvn|pr[üu]fziffer|pr[üu]fnummer|cryptogramme(?:\s+visuel)?|code\s+confidentiel|codice\s+dispositivo"
    # Mexico's and Quebec's card PIN, "nip" (an English word too: after an article or before "del")
    r"|(?:el|mi|su|tu|le|mon|ton|votre|son|du|de|del|au)\s+nip|nip\s+(?:del|de|bancario)"
    # one-time codes and codes sent by SMS
    r"|код\w*\s+(?:из|с|со|в|від|з|по)\s+(?:смс|sms)|смс[\s\-]?код\w*|sms[\s\-]?(?:kod\w*|k[óo]d\w*|code|koodi|codice|c[óo]digo)"
    r"|code\s+(?:de\s+s[ée]curit[ée]\s+)?(?:re[çc]u|envoy[ée])\s+par\s+sms|c[óo]digo\s+(?:por\s+sms|del\s+sms|que\s+(?:te|me)\s+lleg\w+)"
    # a bank's token (its app's or its key fob's one-time code, Spanish and Portuguese: "token de
    # Banorte de mi mamá: 74 92 05", "token do banco", "token bancario")
    r"|token\s+(?:de|del|do|da)\s+(?:(?:la|el|o|a|mi|tu|su|meu|minha)\s+)?(?:banco|banca\w*|app\s+del\s+banco|(?!API|SDK|JWT|OAuth)(?-i:[A-Z][\w\-]+))"
    r"|token\s+(?:bancari[oa]|digital|m[óo]vil|f[íi]sico|banc[áa]rio|de\s+seguran[çc]a|de\s+seguridad)"
    r"|eng[åa]ngskod\w*|engangskode\w*|kertak[äa]ytt[öo]\w*|tek\s+kullan[ıi]ml[ıi]k\s+(?:[şs]ifre|kod)\w*|einmal(?:code|passwort|kennwort)"
    r"|jednorazow\w+\s+(?:kod|has[łl]o)\w*|одноразов\w+\s+(?:код|пароль)\w*|m[ãa]\s+(?:otp|x[áa]c\s+(?:nh[ậa]n|th[ựu]c))"
    # codes to keep: access, unlock, security, secret and recovery codes; a bank's signing key
    r"|c[óo]digo\s+(?:de\s+acceso|de\s+seguridad|secreto|de\s+desbloqueo|de\s+apertura)|codice\s+(?:di\s+sblocco|segreto|di\s+accesso"
    r"|di\s+sicurezza)|code\s+(?:de\s+s[ée]curit[ée]|secret|d['’]\s*acc[eè]s|de\s+d[ée]verrouillage)|digicode|sicherheitscode"
    r"|zugangscode|entsperr\w*|toegangscode|alarmcode\w*|larmkod\w*|hälytyskoodi\w*|halytyskoodi\w*|kapuk[óo]d\w*|ajt[óo]k[óo]d\w*"
    r"|sleutelkast\w*|wiederherstellungscode\w*|c[óo]digos?\s+de\s+recupera[cç]\w+|codes?\s+de\s+r[ée]cup[ée]ration"
    r"|kody?\s+(?:zapasow|odzyskiwani)\w*|clave\s+(?:bizum|de\s+firma|del\s+cajero|de\s+(?:la\s+)?tarjeta|de\s+operaciones"
    r"|de\s+acceso|de\s+entrada|del\s+portal|de\s+la\s+puerta)|code\s+(?:de\s+(?:ma|la|sa|ta|ta)\s+)?carte(?:\s+bleue)?"
    r"|(?:tan|blik)[\s\-]?(?:code|kod)|t[üu]rcode|torcode|deurcode|portkod\w*|portkode\w*|d[øo]rkode\w*|ovikoodi\w*|porttikoodi\w*"
    r"|kod\s+dost[eę]pu|k[óo]d\s+(?:k\s+)?(?:odemknut[íi]|zabezpe[čc]en[íi])|codul\s+(?:pin|de\s+acces|de\s+securitate)"
    # a parental control's code or PIN, which unlocks what the children may not watch or buy
    r"|code\s+parental|(?:parental|eltern)(?:\s+control)?[\s\-]?(?:code|pin)|jugendschutz[\s\-]?(?:pin|code)"
    r"|c[óo]digo\s+(?:parental|de\s+control\s+parental)|codice\s+(?:parental\w*|genitori)|pin\s+parental"
    # a PIN or a password in the Latin letters Persian and Arabic are typed in ("ramz avval
    # karte baba 2845", "ramze gooshim 1-3-7-9", "ra2am el sir lal locker 6-2-9-1"), Hausa's
    # "lambar kulle" (a lock's number), Malaysia's bank code (TAC), a one-time code in Czech
    # and Slovak
    r"|ramz(?:e|-e)?|(?:ra2a?m|raqam|rakam|ra[qk]m)\s+(?:el\s+|al\s+|e\s+)?s[ie]rr?[iy]?|lambar\s+(?:kulle|[ƙk]ofa\w*)"
    r"|(?:kod\s+tac|tac\s+(?:code|kod))(?![^\d\n]{0,12}\d{8}(?!\d))|jednor[áa]zov\w+\s+(?:k[óo]d\w*|heslo|hesla)"
    # a code said to have come from the bank or by text, in Italian, Portuguese and French
    # ("il codice che mi è arrivato dalla banca è 55 81 02")
    r"|codice\s+(?:che\s+(?:mi|ti|ci|vi|gli)\s+(?:[èe]\s+arrivat\w|hanno\s+mandat\w|ha\s+mandat\w)|arrivat\w|ricevut\w)"
    r"|c[óo]digo\s+que\s+(?:chegou|recebi|me\s+mandaram|mandaram)|code\s+(?:que\s+j['’]ai\s+re[çc]u|re[çc]u)"
)
# The same in scripts written with other letters; no word boundaries (Thai and Chinese run
# words together, Hebrew and Arabic join "the" and "of" to the word).
_STRONG_SCRIPT = (
    r"הקוד\s*הסודי|קוד\s*סודי|קוד\s*(?:ה)?אימות|الرقم\s*السري|الرمز\s*السري|رمز\s*سري|رمز\s*(?:دوم|اول|کارت|عابر|پویا)"
    r"|(?:رمز|كود)\s*(?:ال)?(?:بطاقة|صراف|تحقق|تفعيل)|کد\s*(?:تایید|تأیید|یکبار)"
    r"|(?<![\u0600-\u06ff])(?:پین|ایم\s*پن|پن)(?![\u0600-\u06ff])"
    r"|पिन|পিন|ፒን|პინი?|(?<![ァ-ヴー])ピン(?![ァ-ヴー])|핀\s*번호|暗証番号|비밀번호|비번|恢复码|备用码|備用碼|復元コード|バックアップコード"
    r"|ワンタイムパスワード|认证码|認証コード|取件码|取件碼|取货码|取貨碼|提货码|开箱码|開箱碼|รหัส\s*(?:ATM|เอทีเอ็ม|บัตร|ประตู|ผ่าน|ล็อค|OTP|pin|ตู้เซฟ)"
    r"|លេខកូដ|លេខសម្ងាត់|ලේඛ\s*අංකය|පින්|பின்|పిన్"
    # a PIN in the other Indic scripts, the English word as each writes it (Kannada, Malayalam,
    # Gujarati, Punjabi, Odia: "ಗೂಗಲ್ ಪೇ ಪಿನ್ 583027", "ഗൂഗിൾ പേ പിൻ 7305"); Malayalam's "പിൻ"
    # opens words for "back" and "after" (പിൻവാതിൽ), so it must stand alone; Lao's code word
    # with what it opens or a bank's app ("ລະຫັດ ATM", "ລະຫັດຜ່ານ")
    r"|ಪಿನ್|(?<![\u0d00-\u0d7f])പിൻ(?![\u0d00-\u0d7f])|പിന്‍|પિન|ਪਿੰਨ|ਪਿਨ|ପିନ୍?|ລະຫັດ\s*(?:ຜ່ານ|ATM|ບັດ|ປະຕູ|ລັອກ|OTP|pin|ລັບ)"
)
# Words for "code" that need the thing the code opens close by.
_CODE_WORD = (
    r"(?<![\w])(?:codes?|codice|c[óo]digos?|kod\w*|k[óo]d\w*|kode\w*|koodi\w*|kood\w*|kodas|kods|cod|codul"
    r"|kodi|ky[öo]d|senha|код\w*|κωδικ\w*|msimbo|mã|ma(?=\s+(?:c[ửu]a|kh[óo]a|k[ée]t))|šifr\w*|sifr\w*|[şs]ifre\w*|lykilor\w*"
    r"|combinaci[óo]n|combinaison|combinazione|combina[çc][ãa]o|kombinacj\w*|kombination|комбинаци\w*)(?![\w])"
    r"|կոդ\w*|קוד|הקוד|كود|الكود|رمز|الرمز|کد|รหัส|កូដ|コード|番号|暗証|密码|密碼|코드|비밀번호|ኮድ|ቁጥር|კოდ\w*|কোড|कोड"
    # the English word as the other Indic scripts and Urdu write it, Lao's word for a code
    r"|ಕೋಡ್|കോഡ്|કોડ|ਕੋਡ|కోడ్|கோட்|କୋଡ୍?|කෝඩ්|کوڈ|ລະຫັດ"
)
# What a code opens, in each language (a prefix: the word's inflections follow it).
_THING = (
    r"(?<![\w])(?:alarm|alarme|allarm|antifurt|larm|h[äa]lytys|riaszt|συναγερμ|сигнализац|охоронн|alarmu|alarma|alarmy"
    r"|t[üu]r|haust[üu]r|tor(?![\w])|deur|d[øo]r|d[öo]rr|porte|portail|port[óo]n|puerta|porta|portone|cancell"
    r"|port[ãa]o|drzwi|bram|furtk|klatk|vchod|dve[řr]|br[áa]n|kapu|ajt[óo]|kap[ıi]|vrat|ulaz|u[șş]a|poart|интерфон|interfon"
    r"|citofon|domofon|interphone|intercom|gegensprech|portero|porteiro|interfone|двер|подъезд|під['’]?їзд|калитк|хвіртк"
    r"|ворот|брам|сейф|замк|замок|домофон|вхід|входн|θυρ|πόρτ|εξώπορτ|καγκελόπορτ|tresor|coffre|cofre|caja\s+fuerte"
    r"|cassaforte|kluis|sejf|sef(?:a|u|om)?(?![\w])|kasa(?:s[ıi]n[ıi]n|y[ıi]|da)?|kassask[åa]p|kassaskap|kassaskab|kassakaappi|trezor|páncél"
    r"|garag|garaz|garaż|garasj|autotalli|ov(?:i|en|ea|elle|essa)(?![\w])|[^\W\d_]+slot(?![\w])|pakket(?:kluis|box|automaat)|skrytk|locker|schlie[ßs]fach|casier|taquilla|armadietto|kast(?:je)?"
    r"|dur[ųu]|durys|vart[ųuai]\w*|v[āa]rt\w*|durv\w*|uks\w*|v[äa]rav\w*|врат\w*|signalizacij\w*|seif\w*"
    r"|դուռ|դռան|immeuble|b[âa]timent|r[ée]sidence|geb[äa]ude|edificio|pr[ée]dio|palazz|budyn|парадн|parking|parkhaus|garaje"
    r"|barrera|schranke|tiefgarage|aparcamiento|estacionamento|parcheggio|cadenas|candado|cadeado|lucchett|vorh[äa]ngeschloss|schloss|zahlenschloss|hangslot|fietsslot|cijferslot|k[łl][óo]dk|lås|zámek|z[áa]mk"
    r"|cykell[åa]s|sykkell[åa]s|h[æae]ngel[åa]s|kodel[åa]s|kodl[åa]s|fietsenstalling|sleutelkast"
    r"|lakat|kilit|veloschloss|fahrradschloss|bike\s*lock|sleutel|schl[üu]ssel|keybox|lockbox|geti|mlango|kufuli"
    r"|c[ửu]a|k[ée]t\s+s[ắa]t|kh[óo]a|pintu|gembok|brankas|kunci|tastenfeld|keypad|clavier|teclado|tastier)"
    r"|ประตู|ตู้เซฟ|ล็อค|กุญแจ|باب|الباب|بوابة|البوابة|العمارة|الخزنة|خزنة|الخزينة|الإنذار|إنذار|انذار|الانذار|درِ|درب|پارکینگ|گاوصندوق|دزدگیر"
    r"|שער|דלת|אזעקה|כספת|מנעול|בניין|כניסה|门锁|門鎖|门禁|大门|房门|家门|保险柜|保险箱|金庫|金库"
    r"|ドア|玄関|ダイヤル|郵便受け|南京錠|ロッカー"
    r"|도어|금고|현관|대문|ទ្វារ|ដែក|კარ|სეიფ|দরজা|दरवाज|ताला(?!ब)|تجوری|دروازه|ATM|এটিএম|เอทีเอ็ม|ኤቲኤም"
    # a door, a gate, a lock, a safe or a locker in the Indic scripts (often the English word
    # written in them: "ಲಾಕ್", "ഗേറ്റ്"), Urdu, Sinhala, Amharic, Georgian (an entrance's
    # stairwell, სადარბაზო), Lao
    r"|गेट|लॉक(?!डाउन)|लॉकर|तिजोरी|ढोका|दराज|তালা|গেট|লকার|লক(?!ডাউন)|ਦਰਵਾਜ|ਗੇਟ|ਤਾਲਾ|ਲਾਕ|ਲੌਕ|ਤਿਜੋਰੀ|દરવાજ|ગેટ|તાળ|લોક|તિજોરી"
    r"|ಬಾಗಿಲ|ಗೇಟ್|ಬೀಗ|ಲಾಕ್|ತಿಜೋರಿ|വാതിൽ|വാതില|ഗേറ്റ്|ലോക്ക്|പൂട്ട്|ലോക്കർ|கதவ|கேட்|பூட்டு|லாக்"
    r"|తలుపు|గేట్|తాళం|లాక్|దర్వాజ|ଦରଜା|ଗେଟ୍|ତାଲା|ଲକ୍|دروازہ|دروازے|گیٹ|تالا(?!ب)|تالے|لاکر|ලොක්|දොර|ගේට්ටු|අගුල"
    r"|(?<![\u1200-\u137f])በር(?![\u1200-\u137f])|በሩ|ቁልፍ|ካዝና|ጌት|სადარბაზო|ჭიშკ|საკეტ|ປະຕູ(?!ໄຊ)|ກະແຈ|ລັອກ|ຕູ້ເຊຟ|մուտք"
    # and in the Latin letters people type those languages in: Hindi and Urdu, Tamil, Persian,
    # Arabizi, Armenian, Hausa, Tagalog, Vietnamese ("darwaze ka code", "vaasal kadhavu code",
    # "code el bab", "mutqi kod@", "lambar kulle na ƙofa", "mã cổng")
    r"|(?<![\w])(?:darwaz\w*|darvaz\w*|darwaj\w*|dervaz\w*|kadhav\w*|kathav\w*|vaasal|vasal|taal[ae]|tijori|el\s+bab"
    r"|mutq\w*|kulle|[ƙk]ofa\w*|kandado|pinto|tarangkahan|c[ổ]ng|kulcsos\s+doboz\w*|kulcsdoboz\w*|sz[áa]mz[áa]r\w*|k[óo]dz[áa]r\w*)(?![\w])"
)
# Codes that open nothing: postal, area, error, discount, tracking, product and order codes.
_NOT_A_SECRET = re.compile(
    r"(?<![\w])(?:post(?:al|ale|code|cod|leitzahl|nummer|nr)?|pocztow\w*|plz|zip|почтов\w*|индекс\w*|поштов\w*|area|área"
    r"|vorwahl|indicatif|prefisso|ошибк\w*|fehler(?:code|nummer)?|erreur|error|hata(?:s[ıi])?|b[łl][ąęae]d(?:u|em|y)?"
    r"|promo(?:cional|code|kod|kode)?|rabatt(?:code)?|descuento|r[ée]duction|sconto|kupon(?:u|kodu)?|coupon|скидк\w*"
    r"|indirim(?:i|kodu)?|tracking|sendung(?:s(?:nummer|verfolgung))?|suivi|seguimiento|rastreo|отслеж\w*|takip"
    r"|bestell(?:ung|nummer)?|commande|pedido|ordine|zam[óo]wieni[ae]|заказ\w*|sipari[şs](?:i|in)?|artikel(?:nummer)?"
    r"|produkt(?:code)?|produit|producto|prodotto|product|country|pa[íi]s|landes(?:code|vorwahl)|regi[óo]n|регион\w*"
    r"|ifsc|swift|bic|iban|sort\s+code|branch|filial|sucursal|ag[êe]ncia|clearing|routing|blz|qr|booking|reserva\w*"
    r"|r[ée]servation|tiket|ticket|pnr|buchung\w*|prenotazion\w*|barcode|bar-code|barras|ean|isbn|sku|farbe|color|couleur|hs|cpt|icd|imei)"
    r"(?![\w])"
    r"|خصم|الخصم|كوبون|قسيمة|تخفیف|קופון|הנחה|折扣|优惠|割引|クーポン|할인|쿠폰|邮编|郵便|우편|رمز\s*بريدي|الرمز\s*البريدي"
    r"|کد\s*پستی|מיקוד|पिन\s*कोड|पिनकोड|ไปรษณีย์|ໄປສະນີ|ສິນຄ້າ|ایریا\s*کوڈ|एरिया\s*कोड"
    # (Vietnamese's transaction, error, product, order, postal, customer and discount codes, a
    # safety pin and a hair pin in the Indic scripts: "mã giao dịch 14082291", "സേഫ്റ്റി പിൻ 100")
    r"|m[ãa]\s+(?:giao\s+d[ịi]ch|l[ỗo]i|s[ảa]n\s+ph[ẩa]m|đơn|v[ậa]n\s+đơn|b[ưu]u|kh[áa]ch|h[àa]ng|gi[ảa]m|khuy[ếe]n|v[ạa]ch)"
    r"|സേഫ്റ്റി|સેફ્ટી|ਸੇਫਟੀ|ಸೇಫ್ಟಿ|सेफ्टी|সেফটি|ഹെയർ|હેર|ಹೇರ್|हेयर"
    # (India's postal code is its "PIN code" in every script: "ಪಿನ್ ಕೋಡ್ 560001")
    r"|(?:পিন|ਪਿੰਨ|ਪਿਨ|પિન|ಪಿನ್|പിൻ|பின்|పిన్|ପିନ୍?)[\s\u200c\u200d]*(?:কোড|ਕੋਡ|કોડ|ಕೋಡ್|കോഡ്|கோட்|కోడ్|କୋଡ୍?)",
    re.IGNORECASE,
)
_STRONG_LATIN_RE = re.compile(r"(?<![\w])(?:" + _STRONG_LATIN + r")(?![\w])", re.IGNORECASE)
_STRONG_SCRIPT_RE = re.compile(_STRONG_SCRIPT, re.IGNORECASE)
_STRONG_RE = re.compile(r"(?<![\w])(?:" + _STRONG_LATIN + r")(?![\w])|" + _STRONG_SCRIPT, re.IGNORECASE)
_CODE_WORD_RE = re.compile(_CODE_WORD, re.IGNORECASE)
_THING_RE = re.compile(_THING, re.IGNORECASE)
# A code: a digit first, then digits, "#", "*", spaces or dashes between groups, at most two
# letters ("47К2580", "A1974" after its letter, "7741*", "3 5 В 1880"); checked in _a_code.
_VALUE_RE = re.compile(
    r"(?<![\w+/:.,#@\-])(?:[^\W\d_](?=\d))?[#*]?\d"
    r"(?:[\d#*]|[ \-](?=\d|[^\W\d_](?![^\W\d_]))|[^\W\d_](?![^\W\d_]))*[#*]?(?![\w/:@]|[.,]\d)"
)
_AFTER_VALUE = re.compile(
    r"\s*(?:%|€|\$|£|₽|₹|¥|₩|mg|kg|g|ml|l|cm|mm|km|m|kr|z[łl]|pln|chf|eur|usd|rub|руб\w*|грн|lei|ft|tl|euro?s?|dollars?"
    # (and the Spanish and Portuguese currencies: "el token de Ethereum cotiza a 2450 dólares")
    r"|d[óo]lar(?:es)?|pesos?|reais|real|soles|libras?|bol[íi]vares|quetzales|colones"
    r"|uhr|h|min\w*|minut\w*|мин\w*|час\w*|stunden?|heures?|horas?|ore|saat|dakika|tage?|jours?|d[íi]as?|giorni|дн\w*"
    r"|dni|år|ans|a[ñn]os|anni|лет|год\w*|yıl|km/h|x)(?![\w])",
    re.IGNORECASE,
)
_BEFORE_NOT_A_CODE = re.compile(
    r"(?:(?<![\w])(?:at|um|à|a\s+las|alle|om|kl\.?|klockan|klo|kello|o|godz\.?|hod\.?|в|о|saat|since|seit|depuis|desde|dal|sinds|sedan|od|от|с|з|від"
    r"|en|in|im|year|jahr|année|año|anno|rok|год\w*|yılında|năm|từ|nr\.?|no\.?|n[°º]|№|(?-i:id|ID)|tel\.?|phone|telefon\w*|телефон\w*|zavolej(?:te)?\s+na"
    # a standard's number ("Prüfziffer nach ISO 7064", "per RFC 6238")
    r"|(?-i:ISO|RFC|DIN|IEC|EN|ECMA|ANSI)"
    r"|tlf\.?|ext\.?|zimmer|room|chambre|habitaci[óo]n|stanza|pok[óo]j|квартир\w*|apt\.?|wohnung|piso|etage|stock|floor"
    r"|этаж\w*|kat|tầng|bus|tram|linie|line|ligne|línea|linea|route|gleis|platform|km|x)\s*|[+€$£#№])$",
    re.IGNORECASE,
)
_DATE = re.compile(r"\d{1,2}-\d{1,2}-(?:19|20)\d\d|(?:19|20)\d\d-\d{1,2}-\d{1,2}")
_HTTP_STATUS = re.compile(r"40[013789]|429|50[0234]")
_HTTP = re.compile(r"https?://|\b(?:curl|wget|http|api|status|unauthori[sz]ed|forbidden)\b", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[\n;。！？]|[.!?](?:\s|$)")


def _a_code(text: str, m: re.Match[str]) -> bool:
    value = m.group().rstrip(" -")
    digits = sum(c.isdigit() for c in value)
    letters = sum(c.isalpha() for c in value)
    if not 3 <= digits <= 10 or letters > 2 or _DATE.fullmatch(value) or len(set(value) - {" ", "-", "0"}) == 0:
        return False
    if _AFTER_VALUE.match(text, m.start() + len(value)) or _BEFORE_NOT_A_CODE.search(
        text, max(0, m.start() - 14), m.start()
    ):
        return False
    # a phone number: groups of digits that add up to more than a code holds ("zavolej na 800 123 456")
    separators = value.count(" ") + value.count("-")
    return not (digits >= 9 and (separators >= 3 or (separators and value.startswith("0"))))


def _code_after(text: str, start: int, limit: int = 60) -> bool:
    """A code within a few words after ``start``, in the same clause (further when a colon
    says the code comes next: "code pin de mon tel si je suis à l'hôpital : 270519")."""
    rest = clause_after(text[start : start + max(limit, 90)])
    for m in _VALUE_RE.finditer(rest):
        gap = rest[: m.start()].rstrip()
        said = (gap.endswith((":", "：")) or _ENDS_WITH_COPULA.search(gap) is not None) and len(gap.split()) <= 12
        if not said and (len(gap.split()) > 6 or m.start() > limit):
            return False
        if _a_code(rest, m) and not (_HTTP_STATUS.fullmatch(re.sub(r"\D", "", m.group())) and _HTTP.search(text)):
            return True  # ("비번 입력해도 401이 나와요" after a curl command: the server's answer, not a code)
    return False


# A question and its answer ("le code de la porte ? c'est 4B217", "wifi-lösenordet? det är
# Kanelbulle!Umea4", "> J'ai oublié le code de l'immeuble ?\nC'est 47B12"): one clause.
_ANSWER_OPENS = re.compile(
    r"\s*(?:>\s*)?(?:c['’]est|det\s+är|det\s+er|es|ist|it['’]?s|é|è|to\s+jest|to|это|je|er|är|on|is)(?![\w])",
    re.IGNORECASE,
)


def clause_after(rest: str) -> str:
    """``rest`` up to the end of its clause, read on over a question mark or a line break
    that an answer follows."""
    at = 0
    while (end := _CLAUSE_END.search(rest, at)) is not None:
        if end.group().strip() in ("?", "？", "") and _ANSWER_OPENS.match(rest, end.end()):
            at = end.end()
            continue
        return rest[: end.start()]
    return rest


_ENDS_WITH_COPULA = re.compile(
    r"(?<![\w])(?:is|es|est|c['’]est|ist|lautet|é|è|jest|je|to|er|är|on|это|—|–|->|→|=)$", re.IGNORECASE
)


# Recovery and backup codes, in more languages: groups of letters and digits ("8K2F-Q7LM-3XWD",
# "7731-0248 4419-5520", a list of "4f2a9-1c8e3" lines).
_RECOVERY_WORD = re.compile(
    r"(?<![\w])(?:wiederherstellungs-?codes?|backup-?codes?|sicherungs-?codes?|c[óo]digos?\s+de\s+(?:recupera[cç]\w+|respaldo"
    r"|seguran[çc]a)|codes?\s+de\s+(?:r[ée]cup[ée]ration|secours)|codici\s+(?:di\s+)?(?:recupero|backup)|herstelcodes?"
    r"|[åa]terst[äa]llningskod\w*|gjenopprettingskod\w*|gendannelseskod\w*|palautuskood\w*|varakood\w*|kody?\s+(?:zapasow"
    r"|odzyskiwani)\w*|yedek\s+kod\w*|kurtarma\s+kod\w*|код\w*\s+восстановлени\w*|резервн\w+\s+код\w*"
    r"|záložní\s+kód\w*|kódy\s+pro\s+obnovení|reservkod\w*|reservekode\w*|aktivierungscode\w*|activatiecode\w*"
    r"|codes?\s+d['’]\s*activation|c[óo]digos?\s+de\s+activa[cç]\w+|codic[ei]\s+di\s+attivazione|kod\w*\s+aktywac\w+"
    r"|код\w*\s+активаци\w*|aktivierungs-?id|wiederherstellungs-?schl[üu]ssel)(?![\w])|恢复码|备用码|備用碼|復元コード|バックアップコード|리커버리\s*코드|복구\s*코드|백업\s*코드"
    # (Arabic's and Hebrew's recovery and backup codes: "رمز الاستعادة لحساب المحاسبة: 8391-2047-5563")
    r"|(?:رمز|رموز|كود|أكواد)\s*(?:ال)?(?:استعادة|استرداد|احتياطي)|קוד(?:י)?\s*(?:ה)?(?:שחזור|גיבוי)",
    re.IGNORECASE,
)
# (or three groups and more of four capitals and digits set apart by spaces, as an app shows
# them: "OTP 복구 코드: 7QXM 2KDP 9LFA 4RWC")
_RECOVERY_VALUE = re.compile(
    r"(?<![\w\-])(?=(?:[^\s]*\d){3})[A-Za-z\d]{3,8}(?:[\-][A-Za-z\d]{3,8})+(?![\w\-])|(?<![\w\-])\d{4} \d{4}(?![\w\-])"
    r"|(?<![\w\-])(?=[A-Z\d ]{0,30}\d)(?=[A-Z\d ]{0,30}[A-Z])[A-Z\d]{4}(?: [A-Z\d]{4}){2,7}(?![\w\-])"
)


def _recovery_codes(text: str) -> bool:
    return any(_RECOVERY_VALUE.search(text, m.end(), m.end() + 100) for m in _RECOVERY_WORD.finditer(text))


# A dial's combination: three turns, each a direction and a number ("sol 40 sağ 15 sol 72",
# "左转三圈到 27，右转到 64", "右に 15、左に 38"), with a safe, a lock or a code named.
_DIRECTION = (
    r"(?:sol|sa[ğg]|links|rechts|gauche|droite|izquierda|derecha|sinistra|destra|esquerda|direita|lewo|prawo|w\s+lewo"
    r"|w\s+prawo|vlevo|vpravo|balra|jobbra|vasemmalle|oikealle|v[äa]nster|h[öo]ger|venstre|h[øo]yre|h[øo]jre|влево"
    r"|вправо|налево|направо|ліворуч|праворуч|αριστερά|δεξιά|左|右|왼쪽|오른쪽)"
)
_DIAL = re.compile(
    r"(?:"
    + _DIRECTION
    + r"[^\d\n]{0,8}?\d{1,2}(?!\d|\s*(?:m|km|cm|mm|meters?|metres?|metros?|m[èe]tres?|metri|kilom\w*|min\w*)(?!\w))"
    r"[^\d\n]{0,6}?){3}",
    re.IGNORECASE,
)


def _dial(text: str) -> bool:
    return _DIAL.search(text) is not None and (
        _CODE_WORD_RE.search(text) is not None or _THING_RE.search(text) is not None
    )


_TOKEN = re.compile(r"\S+")
_NON_SPACE = re.compile(r"\S")
_CLAUSE_OPENS = re.compile(r"(?:[\n.!?;:(]|^)\s*[\"“«'‘]?$")


def value_opening_clause(
    text: str, start: int, max_words: int = 4, opens: re.Pattern[str] = _CLAUSE_OPENS
) -> list[tuple[str, str]]:
    """The token that opens the text or a clause before ``start`` with at most ``max_words``
    words between it and ``start``, and those words ("hunde123" and "ist das" before "pw")."""
    lo = max(0, start - 80)
    before = text[lo:start]
    tokens = list(_TOKEN.finditer(before))
    out = []
    for k in range(min(max_words, len(tokens) - 1) + 1):
        tok = tokens[len(tokens) - 1 - k]
        at = lo + tok.start()  # (the text up to there was copied and stripped for each token)
        opening = text[max(0, at - 3) : at] if _NON_SPACE.search(text, 0, at) else ""
        if (lo == 0 or tok.start() > 0) and opens.search(opening):
            gap = " ".join(t.group() for t in tokens[len(tokens) - k :])
            if not _CLAUSE_END.search(gap + " "):  # the value opens the word's own clause
                out.append((tok.group(), gap))
    return out


def _code_before(text: str, start: int) -> bool:
    """A code opening the clause, a few words before its word ("2486 это пин", "0417 isch dr
    Code vom", "8264 是我家门锁的密码")."""
    for token, gap in value_opening_clause(text, start):
        value = token.strip("\"“”«»'‘’—–,:")
        m = _VALUE_RE.fullmatch(value)
        if m is not None and _a_code(value, m) and not any(c.isdigit() for c in gap):
            return True
    return False


def _thing_near(text: str, start: int, end: int) -> bool:
    # Asked once a filter run for the same stretch of text (the one character before it is
    # all its lookbehind reads): 200 words tried over 80 characters for each code word cost
    # 2 s in a long text of "コード 1 2 3 4" or "new code is 1234" again and again.
    lo, hi = max(0, start - 40), min(len(text), end + 40)
    return answered_once(
        "thing_near", (lo > 0, text[max(0, lo - 1) : hi]), lambda: _THING_RE.search(text, lo, hi) is not None
    )


def not_a_secret_near(text: str, start: int, end: int) -> bool:
    return _NOT_A_SECRET.search(text, max(0, start - 20), min(len(text), end + 20)) is not None


# The first letters of the Latin and Cyrillic words above: each rule runs only when a word of
# the text starts with one of them, or the text is not all ASCII (a 10,000-character
# message costs a few milliseconds per regex tried over it).
_CODE_PREFIXES = (
    *("tunnusluku", "geheimzahl", "geheimnummer", "namba", "nambari", "lambar", "código", "codigo", "codice", "codici"),
    *("prüfziffer", "pruefziffer", "prüfnummer", "engångskod", "engangskod", "kertakäyt", "kullanım", "kullanim"),
    *("einmalcode", "einmalpass", "jednorazow", "digicode", "sicherheitscode", "zugangscode", "entsperr"),
    *("toegangscode", "alarmcode", "larmkod", "hälytyskood", "halytyskood", "kapukód", "kapukod", "ajtókód"),
    *("ajtokod", "sleutelkast", "wiederherstellung", "türcode", "turcode", "torcode", "deurcode", "portkod", "dørkod"),
    *(
        "dorkod",
        "ovikood",
        "porttikood",
        "combinaci",
        "combinaison",
        "combinazion",
        "combinaç",
        "kombinac",
        "kombination",
    ),
    *("msimbo", "šifr", "sifr", "şifr", "lykilor", "backup", "sicherungscode", "herstelcode", "återställningskod"),
    *("aterstallningskod", "gjenopprettingskod", "gendannelseskod", "palautuskood", "varakood", "kurtarma", "záložní"),
    *("reservkod", "reservekod", "aktivierungscode", "aktivierungs", "activatiecode", "activation", "activación"),
    *("activacion",),
    *("ativação", "ativacao", "attivazione", "aktywac", "активаци", "immeuble", "palavra", "säkerhetskod"),
    *("pinkod", "pinkoodi", "koodi", "kodu", "kodem", "kody", "kodą", "kód", "kode", "codes", "пин", "пін"),
    *("код", "смс", "одноразов", "κωδικ", "комбинац", "резервн", "cryptogramme", "confidentiel"),
    *("ramz", "ra2", "raqam", "rakam", "raqm", "rakm", "jednoráz", "jednoraz"),
)
# The short words among them, whole ("pin", not "pink"; "mã", not "make").
_CODE_WORDS = frozenset(
    [
        "token",
        *(
            "pin",
            "pins",
            "kod",
            "cod",
            "codul",
            "code",
            "kode",
            "mã",
            "cvc",
            "cvc2",
            "cvv",
            "cvv2",
            "cvn",
            "sms",
            "tan",
        ),
        *("blik", "tek", "yedek", "clave", "numer", "kód", "kódot", "kodi", "kyöd", "kodas", "kods", "ma", "kood"),
        *("koodi", "lambarka", "nip", "senha", "tac", "sir", "sirri", "siri", "sery"),
    ]
)
# A letter of the scripts the rules name without word boundaries (Hebrew, Arabic, Indic, Thai,
# Lao, Georgian, Ethiopic, Khmer, Japanese, Chinese, Korean).
SCRIPTS = re.compile(
    r"[\u0530-\u07ff\u0900-\u0dff\u0e00-\u0eff\u10a0-\u10ff\u1200-\u137f\u1780-\u17ff\u3040-\u30ff\u3400-\u9fff"
    r"\uac00-\ud7af]"
)
_DIRECTIONS = frozenset(
    [
        *("sol", "sağ", "sag", "links", "rechts", "gauche", "droite", "izquierda", "derecha", "sinistra", "destra"),
        *("esquerda", "direita", "lewo", "prawo", "vlevo", "vpravo", "balra", "jobbra", "vasemmalle", "oikealle"),
        *("vänster", "vanster", "höger", "hoger", "venstre", "høyre", "hoyre", "højre", "hojre", "влево", "вправо"),
        *("налево", "направо", "ліворуч", "праворуч", "αριστερά", "δεξιά"),
    ]
)


def starts_with(words: frozenset[str], prefixes: tuple[str, ...]) -> bool:
    return any(w.startswith(prefixes) for w in words)


def code_in_other_language(text: str, words: frozenset[str]) -> bool:
    """A PIN, an access code or a one-time code named in another language, with its code."""
    latin = bool(words & _CODE_WORDS) or starts_with(words, _CODE_PREFIXES)
    scripted = not text.isascii() and SCRIPTS.search(text) is not None
    if not latin and not scripted:
        return False
    if _recovery_codes(text) or ((words & _DIRECTIONS or scripted) and _dial(text)):
        return True
    if _coded(text, latin, scripted):
        return True
    read = cjk_digits_read(text) if scripted else None
    return read is not None and _coded(read, latin, scripted)


def _coded(text: str, latin: bool, scripted: bool) -> bool:
    strong = (
        (_STRONG_LATIN_RE.finditer(text) if latin else iter(())),
        (_STRONG_SCRIPT_RE.finditer(text) if scripted else iter(())),
    )
    for m in (m for ms in strong for m in ms):
        if not_a_secret_near(text, m.start(), m.end()):
            continue
        if _code_after(text, m.end()) or _code_before(text, m.start()):
            return True
    for m in _CODE_WORD_RE.finditer(text):
        if not _thing_near(text, m.start(), m.end()) or not_a_secret_near(text, m.start(), m.end()):
            continue
        # the thing may come between the word and its code ("код від хвіртки на дачі 3141")
        if _code_after(text, m.end(), 90) or _code_before(text, m.start()):
            return True
    return False


# -- a value stored under a key that names it in another language -----------------------------------
# Key words that name a PIN or a one-time code: the value is a code ([пін_картки] 7704, [sim_puk]).
_PIN_KEY = re.compile(
    r"(?<![^\W_])(?:pin|pins|пин|пін|puk|tunnusluku|pinkod\w*|pinkode\w*|otp|totp|tan|blik|s[äa]kerhetskod\w*"
    r"|sikkerhe[dt]skode\w*|sicherheitscode|turvakoodi|aktivierungscode|codice\s+sicurezza)(?![^\W_])|پین|پن|ፒን|पिन|পিন",
    re.IGNORECASE,
)
# Key words that name a password in another language: the value is a credential-like word or a code.
_PASSWORD_KEY = re.compile(
    r"(?<![^\W_])(?:senha|clave|parol\w*|lozink\w*|geslo|gesla|jelsz\w*|has[łl]o|[şs]ifre\w*|пароль\w*|парол\w*|лозинк\w*"
    r"|κωδικ\w*|mk|matkhau|wifi|wi-?fi|wlan)(?![^\W_])|סיסמ|كلمة|رمز|پسورد|รหัส|パスワード|비밀번호",
    re.IGNORECASE,
)
# Words that make the key about the thing: its name, network, hint, owner, where it is kept.
_KEY_ABOUT = re.compile(
    r"(?<![^\W_])(?:name|nome|nombre|nom|navn|namn|nimi|ssid|network|netz|red|r[ée]seau|rede|netwerk|hint|tipp|dica|pista"
    r"|indice|hinweis|reminder|policy|rules|manager|location|where|reset|changed|expiry|length|owner|who|help|note|notes"
    r"|format|type|last4|ending|attempts|tries|count|timeout|delay|status|colou?r|elector|curp|rfc|catastral|fiscal"
    r"|interbancaria|rastreo|template|id|size|collection|number|nummer|numero|n[úu]mero|nr|no|num)(?![^\W_])",
    re.IGNORECASE,
)
_KEY_THING = re.compile(_THING + r"|(?<![^\W_])(?:portal|portaria|haustuer|tuer|stalling)(?![^\W_])", re.IGNORECASE)
_KEY_SPLIT = re.compile(r"[_\-\s.:/]+")


def leading_code(text: str) -> bool:
    """The value is a code, perhaps followed by how to type it ("4711# — unten am Tastenfeld",
    "1 5 9 0 klucz", "8181 then OFF")."""
    value = text.strip()
    m = _VALUE_RE.match(value)
    if m is None or not _a_code(value, m):
        return False
    rest = value[m.end() :]
    return sum(c.isdigit() for c in rest) <= 2 and (not rest or not rest[0].isalnum())


def keyed_code_with_tail(key: str, text: str) -> bool:
    """A code under a key that is not about the thing's number or size, followed by how to
    type it ([alarm_disarm] "8181 then OFF"; not [locker_number] "114, second row")."""
    return _KEY_ABOUT.search(_KEY_SPLIT.sub(" ", key)) is None and leading_code(text)


def code_key_in_other_language(key: str, text: str) -> bool:
    """A code or a password stored under a key that names it in another language
    ([kod_do_bramy] "1 5 9 0 klucz", [κωδικός_εξώπορτας] "3 8 4 6", [senha_app_banco])."""
    spelled = _KEY_SPLIT.sub(" ", key)
    if _KEY_ABOUT.search(spelled) or _NOT_A_SECRET.search(spelled):
        return False
    code_named = _PIN_KEY.search(spelled) is not None or (
        (_CODE_WORD_RE.search(spelled) is not None or _STRONG_RE.search(spelled) is not None)
        and (_KEY_THING.search(spelled) is not None or _STRONG_RE.search(spelled) is not None)
    )
    if code_named and leading_code(text):
        return True
    if _PASSWORD_KEY.search(spelled) is None:
        return False
    value = text.strip()
    return (" " not in value and credential_like(value) and not pointer(value)) or leading_code(text)
