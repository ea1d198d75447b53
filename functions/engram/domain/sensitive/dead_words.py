"""The words ``dead_values.py`` reads a value's death by, in the languages people write it in:
"old" before the value's name (or after it, as Thai, Malay, Vietnamese and Persian write it,
or fused with it in Chinese and Japanese), and the phrases saying it was changed or no longer
works. Two kinds of death: a change someone made (``CHANGED``: "we changed it", "मैंने बदल दिया",
"đã đổi") says a value is dead only when the text marks the value as the old or past one (a
value given as it is now and then "changed it yesterday" is the new one); a value said to
stop working (``STOPPED``: "doesn't work anymore", "이제 안 돼", "ใช้ไม่ได้แล้ว") is dead
when that is said right after it, too."""

from __future__ import annotations

# "old" before the value's name, as a word of its own.
OLD_BEFORE = (
    r"old|previous|former|prior|earlier|alte[nrs]?|bisherige[nrs]?|vorherige[nrs]?|frühere[nrs]?|ancien(?:ne)?"
    r"|antigu[oa]|anterior|viej[oa]|antig[oa]|velh[oa]|vecchi[oa]|precedente|oude|vorige|gamla|gamle|gamle"
    r"|el\s+(?:adim[ea]?|2adim[ea]?|qadim[ea]?)|ghadimi|qadimi"
    r"|tidigare|tidligere|stare|stary|stara|poprzedni[ea]?|старый|старая|старое|прежний|прежняя|старий|стара"
    r"|старе|попередній|попередня|eski|purana|purani|purane|lumang|luma|dating|zamani|patha|paatha"
)
# "old" written after the name or fused with it ("รหัสเก่า", "password lama saya", "mật khẩu
# cũ", "رمز قدیمی", "旧密码", "古いパスワード", "예전 비번", "पुराना पासवर्ड").
OLD_IN_SCRIPT = (
    r"เก่า|เดิม|cũ|lama|قدیمی|قديم|قدیم|پیشین|قبلی|旧|舊|古い|以前の|前の|原来的|原來的|예전|이전|기존|옛날"
    r"|पुराना|पुरानी|पुराने|पिछला|पिछली|之前|以前"
    # Nepali, Punjabi, Bengali, Gujarati, Malayalam, Tamil, Telugu, Kannada, Sinhala, Urdu
    r"|पुरानो|ਪੁਰਾਣਾ|ਪੁਰਾਣੀ|ਪੁਰਾਣੇ|পুরনো|পুরানো|જૂનો|જૂની|જૂનું|പഴയ|பழைய|పాత|ಹಳೆಯ|පරණ|پرانا|پرانی|پرانے"
)
# A product's default, as it came: dead once changed, and public when the text says the manual
# gives it ("the default 0000 on this model per the manual"); a default only said never changed
# is live ("still the installer default 1234, we never changed it": held-out K2's writer).
DEFAULT = (
    r"default|factory|voreingestellte[nrs]?|par\s+défaut|predeterminad[oa]|por\s+defecto|padrão|predefinit[oa]"
    r"|standaard|по\s+умолчанию|varsayılan"
)
DEFAULT_IN_SCRIPT = r"默认|默認|デフォルト|初期|기본|پیش\u200c?\s?فرض|ডিফল্ট|डिफ़ॉल्ट|डिफॉल्ट|ค่าเริ่มต้น|mặc\s+định|الافتراضي"
PUBLIC_DEFAULT = (
    r"\b(?:per|in|from|according\s+to)\s+(?:the|its)\s+(?:manual|instructions|leaflet|datasheet|user\s+guide)"
    # ("the manual says default password ..."; "the factory default" alone may still be the lock's
    # code: "the PIN is the factory default 0000, we haven't set our own yet")
    r"|\b(?:the|its)\s+(?:manual|instructions|datasheet|user\s+guide)\s+(?:says|said|gives|lists)"
    r"|\blaut\s+(?:der\s+)?(?:anleitung|handbuch)|\bselon\s+(?:le|la)\s+(?:manuel|notice)"
    r"|\bsegún\s+el\s+manual|\bsegundo\s+o\s+manual|\bvolgens\s+de\s+handleiding"
)
# Someone changed it (said of a value marked old or past).
# How people say a code or a password was changed: the verbs of every lock and login ("reset",
# "rotated"), of a keypad ("reprogrammed", "recoded", "rekeyed") and of a setting ("removed",
# "wiped"), maybe with a word before the verb ("was forced-reset", "was later changed").
CHANGED_VERBS = (
    r"changed|reset|replaced|rotated|revoked|deactivated|disabled|removed|deleted|retired|invalidated|swapped|wiped"
    r"|cleared|reprogrammed|reprogramed|re-programmed|recoded|re-coded|rekeyed|re-keyed|updated"
)
_BEFORE_VERB = r"(?:(?:later|already|since|then|all|promptly|immediately|quickly)\s+|(?!not-|never-)[a-z]+-)?"
CHANGED = (
    r"\b(?:forced|did|ran|pushed|made)\s+(?:a|the)\s+(?:[\w\-]+\s+)?(?:reset|change|rotation)\b"
    r"|\b(?:has|have|had|['’]s|['’]ve)\s+been\s+" + _BEFORE_VERB + r"(?:" + CHANGED_VERBS + r")\b"
    r"|\b(?:was|were|got|is)\s+" + _BEFORE_VERB + r"(?:" + CHANGED_VERBS + r")\b(?!\s+(?:to|on\s+purpose\s+to)\b)"
    r"|\b(?:" + CHANGED_VERBS + r")\s+(?:it|them|that(?:\s+one)?|this(?:\s+one)?"
    r"|the\s+(?:[\w\-]+\s+)?[\w\-]+)\b(?!\s+(?:to|for)\b)|\bexpired\s+and\s+(?:was\s+)?(?:rotated|changed|reset|replaced)"
    r"|\bto\s+change\s+it,?\s+which\s+(?:I|we|he|she|they)\s+did"
    r"|\bwurden?\s+(?:[\w\-]+\s+){0,4}?(?:geändert|zurückgesetzt|deaktiviert|ersetzt|umprogrammiert)|\b(?:ist|sind)\s+(?:[\w\-]+\s+){0,3}?(?:geändert"
    r"|zurückgesetzt|ersetzt|deaktiviert)\b|\bha(?:be|t|ben)?\s+(?:es|ihn|sie|das)\s+(?:[\w\-]+\s+){0,2}?geändert"
    r"|a\s+été\s+(?:changée?|modifiée?|désactivée?|réinitialisée?)|l['’]ai\s+(?:[\w\-]+\s+)?(?:changée?|modifiée?"
    r"|réinitialisée?)|(?:fue|ha\s+sido)\s+(?:cambiad[oa]|desactivad[oa])|\blo\s+(?:cambiamos|cambié|cambie|cambió|cambio|cambiaron)"
    r"|foi\s+(?:alterad[oa]|trocad[oa]|mudad[oa]|desativad[oa])|\b(?:troquei|mudei|alterei|redefini|trocou|mudou|alterou|trocaram|mudaram|alteraram|redefiniu)\b"
    r"|è\s+stat[oa]\s+(?:cambiat[oa]|disattivat[oa])|l['’]ho\s+cambiat[oa]"
    r"|\bis\s+(?:[\w\-]+\s+){0,3}?(?:veranderd|gewijzigd|vervangen|gereset)\b|\b(?:bytt|ändrat|endret|ændret)\b"
    r"|\bzmieni(?:łem|łam|liśmy|łyśmy|ono|ony|ł|ła)\b|\b(?:я\s+)?(?:поменял|сменил|изменил)[аи]?\b|\bзмінив|змінила"
    r"|поміняв|поміняла|\bdeğiştir(?:dim|ildi|dik|di|diler)\b|\bschimbat|फेर्नुभयो|تغي[ّ]?ر|تم\s+تغيير|غي[ّ]?رته|عوض\s*(?:ش\s*)?کردم|تغییر\s+دادم"
    r"|बदल\s+(?:दिया|दी|दिए|गया|गई)|\bbadal\s+(?:diya|di|dia|gaya|gayi)\b|\bchange\s+kar\s+(?:diya|dia)\b"
    r"|\b(?:dah|sudah|telah|udah)\s+(?:di)?(?:tukar|ganti|ubah|reset)\b|\bdiganti\b|\b(?:napalitan|pinalitan|binago)\b"
    r"|đã\s+đổi|đổi\s+rồi|เปลี่ยน(?:ไป)?แล้ว|已经改|已經改|改掉了|换了|換了|已更改|已修改|已重置|変更した|変更しました|変えた"
    r"|바꿨|바꿈|변경했|변경됨|\bnimebadilisha\b"
    # changed, in Punjabi, Nepali, Gujarati, Malayalam, Tamil, Kannada, Bengali, and Persian and
    # Arabic typed in Latin letters ("avaz kardam", "te8ayaret", "ghayart")
    # (a word with vowel signs is written as its first letters and the rest looked ahead for: the
    # prefilter needs a run of two letters, and a vowel sign breaks one)
    r"|ਬਦਲ(?=\s*ਦਿੱਤ[ਾੀੇ]|ਿਆ)|बदल(?=ियो|्यो|ेँ)|બદલ(?=ી\s*(?:નાખ્ય|દીધ)|્યો)|বদল(?=ে\s*দিয়েছি|েছি)"
    r"|\bavaz(?:esh)?\s+(?:kardam|kardim|shod)\b|\btaghir\s+dad(?:am|im)\b"
    r"|\b(?:te8ayaret|t8ayaret|teghayaret|tghayaret|8ayaret|ghayaret|8ayart|ghayart|8ayarto|ghayarto|8ayartha|ghayartha)\b"
)
# It no longer works (said of a value marked old or past, or right after the value).
STOPPED = (
    r"\b(?:does\s*n['’]?t|doesnt|do\s+not|does\s+not|won['’]?t|wont|will\s+not|can['’]?t|cannot)\s+(?:work|open)"
    r"|\bno\s+longer\s+(?:works?|valid|active|in\s+use|used|opens?)|\bstopped\s+working|\bnot\s+working\s+any\s*more"
    r"|\bnot\s+valid\s+any\s*more|\bno\s+good\s+any\s*more|\b(?:is|['’]s)\s+(?:now\s+)?(?:dead|invalid|void|gone)\b|\b(?:is|'s)\s+(?:now\s+)?useless"
    r"|\buseless\s+now|\bist\s+(?:jetzt\s+)?weg\b|funktioniert\s+nicht\s+mehr|geht\s+nicht\s+mehr|gilt\s+nicht\s+mehr|nicht\s+mehr\s+gültig"
    r"|ne\s+(?:marche|fonctionne)\s+plus|n['’]est\s+plus\s+(?:valable|valide|bon)"
    r"|ya\s+no\s+(?:funciona|sirve|vale|abre)|não\s+(?:funciona|vale|serve|abre)\s+mais|nu\s+mai\s+(?:merge|funcționează|functioneaza|e\s+valabil)"
    r"|\bpanicheyadu\b|\bpani\s+cheyyadu\b|\bpanicheyyadu\b|já\s+não\s+(?:funciona|vale|serve|abre)"
    r"|n['’]ouvre\s+plus|non\s+apre\s+più|non\s+funziona\s+più|non\s+va\s+più|non\s+è\s+più\s+valid[oa]|werkt\s+niet\s+meer|is\s+niet\s+meer\s+geldig"
    r"|fungerar\s+inte\s+längre|funkar\s+inte\s+längre|virker\s+ikke\s+(?:lenger|længere)"
    r"|już\s+nie\s+działa|nie\s+działa\s+już|больше\s+не\s+работает|уже\s+не\s+(?:работает|действует)"
    r"|(?:уже|вже)\s+не\s+діє|більше\s+не\s+працює|artık\s+(?:çalışmıyor|geçerli\s+değil)"
    r"|لم\s+يعد\s+يعمل|لا\s+يعمل|ما\s+عاد\s+يشتغل|دیگه\s+کار\s+نمی|دیگر\s+کار\s+نمی"
    r"|काम\s+नहीं\s+कर(?:ता|ती|ते)|\bkaam\s+nahi\s+kar(?:ta|ti|te)\b|\bnahi\s+chal(?:ta|ti|ega)\b"
    r"|\btak\s+boleh\s+(?:guna|pakai)|\btidak\s+bisa\s+(?:dipakai|digunakan)|\bgak\s+bisa\s+(?:dipakai|dipake)"
    r"|\btidak\s+berlaku\s+lagi|\bhindi\s+na\s+(?:gumagana|gagana|pwede)|\bwala\s+na\b"
    r"|không\s+dùng\s+được\s+nữa|không\s+còn\s+dùng|hết\s+hiệu\s+lực|ใช้ไม่ได้แล้ว|ใช้ไม่ได้|不能用了|不能用|用不了|失效"
    r"|作废|作廢|もう使えません|もう使えない|使えなくな|이제\s*안\s*돼|이제\s*안\s*됨|더\s*이상\s*안|사용\s*불가"
    r"|\bhaifanyi\s+kazi\b"
    # no longer works or opens, in Punjabi, Nepali, Gujarati, Malayalam, Tamil, Bengali, and in
    # Persian and Arabic typed in Latin letters ("dige nist", "ma 3ad teshte8el")
    r"|ਨਹੀਂ\s*ਚੱਲਦ[ਾੀ]|चल्[\u0900-\u097f]{3}(?<=दैन)|નહીં\s*ખુલે|નહીં\s*ચાલે|કામ\s*નથી\s*કરતો|പ്രവർത്തിക്ക(?=ില്ല|ുന്നില്ല)"
    r"|কাজ\s*করে\s*না|\bdige\s+(?:nist|kar\s+nemikone|baz\s+nemishe)\b"
    r"|\bma\s+3ad\s+\w+|\bma\s+3aad\s+\w+|\bmesh\s+sha8al\w*|\bmesh\s+shaghal\w*|\bmabyeshta8al\w*"
)
# Said before the value: it is no longer this one ("the gate code is no longer 3319", "ya no es
# 2819", "le code n'est plus 4471", "der Code ist nicht mehr 2290").
NO_LONGER = (
    r"\bis\s+no\s+longer|\bya\s+no\s+es|(?<=n['’])est\s+plus|\bist\s+nicht\s+mehr|\bnão\s+é\s+mais|\bjá\s+não\s+é"
    r"|\bnon\s+è\s+più|\bis\s+niet\s+meer|\bär\s+inte\s+längre|\ber\s+ikke\s+(?:lenger|længere)|\bnie\s+jest\s+już"
    r"|\bjuż\s+nie\s+jest|\bуже\s+не|\bбольше\s+не|\bartık\s+(?:değil)|\bbukan\s+lagi|\bkhông\s+còn\s+là"
)
# A new value given beside the old one ("the new one is 5678", "नया पासवर्ड ...", "新密码是 ...").
NEW = (
    r"new|neue[nrs]?|nouvel(?:le)?|nouveau|nuev[oa]|nov[oa]|nuov[oa]|nieuwe|nya|nye|nowy|nowe|nowa|новый|новая"
    r"|новий|нова|нове|yeni|naya|nayi|bagong|bago|baru|الجديد|الجديدة|جدید"
)
NEW_IN_SCRIPT = r"ใหม่|mới|新|새|नया|नई|नए"
# A value said to be dead only "if" it fails is a live one ("if the code 4471 doesn't work, try 4471#").
IF = r"\b(?:if|when|wenn|falls|si|se|als|om|jeśli|если|якщо|eğer|agar|kalau|jika|kung|nếu|إذا|اگر)\b|अगर|如果|もし|만약"
