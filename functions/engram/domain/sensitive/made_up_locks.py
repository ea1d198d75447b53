"""A lock in a game, a puzzle, an escape room or a story opens nothing anyone owns ("door code
for the escape room game was 1-9-4-5 in the story", "the kids' game has a vault door with code
3-7-1 at the end of level 4", "脱出ゲームの金庫の暗証番号は「0417」", "no jogo, a senha do cofre do
vilão é 0-0-7", "в квесте код от сейфа был 1945"), in the languages the filter reads.

``made_up_place`` is the sign of such a place, enough for the rules of codes (a code there is
the game's); a password's rules ask ``made_up_lock``, the place and a lock in it (a safe, a
door, a padlock): "in the game my password is Zelda#Link77" is the player's account's.
A lock where the place is a business stays a secret ("the office door code at the escape
room is 4471"), and so does a real lock beside a game ("the garage door code is 4471 and the
kids play a game in there")."""

from __future__ import annotations

import re

from engram.domain.sensitive.prefilter import keyed

# (several patterns: one of them all gives the prefilter too many words to keep whole)
_MADE_UP_PLACES = tuple(
    keyed(pattern, re.IGNORECASE)
    for pattern in (
        r"\b(?:escape[\s\-]rooms?\s+(?:game|puzzle|clue|riddle)s?|(?:in|inside)\s+(?:the|an|our|this|that)\s+escape"
        r"[\s\-]?room|escape[\s\-]?room\s+(?:we|I)\s+(?:did|played|tried|booked)|escape\s+game)\b",
        r"\bin\s+the\s+(?:story|game|film|movie|book|novel|episode|show|series|level|quest|puzzle|riddle|comic|manga"
        r"|anime|cartoon|video\s*game)\b",
        r"\b(?:(?:final|last|next|first)\s+(?:puzzle|riddle|clue)|geocach\w*|crosswords?)\b",
        r"\bminecraft\b",
        # (a game's own words: "the in-game password for the hidden room", "my brother spoiled it", a
        # walkthrough, a puzzle box sold with its lock's code)
        r"\b(?:in-?game|walkthrough|speedrun\w*|side[\s\-]?quest|spoilers?|puzzle[\s\-]box(?:es)?"
        r"|spoil(?:ed|t)\s+(?:it|the\s+(?:game|ending|puzzle|answer|solution|code)))\b",
        r"\b(?:mystery|detective|picture|comic|children['’]?s|kids['’]?)\s+(?:book|novel|story|game)s?\b"
        r"(?!\s+(?:console|account|pass|store|card|system))",
        r"\b(?:(?:end|start|beginning)\s+of\s+(?:the\s+)?(?:level|stage|chapter)|the\s+(?:detective|villain"
        r"|protagonist|heroine)['’]?s?)\b",
        r"\b(?:(?:im|in\s+der|in\s+dem)\s+(?:spiel|r[äa]tsel|escape[\s\-]?room|buch|roman|film|krimi|videospiel)"
        r"|dans\s+(?:le|ce|un)\s+(?:jeu|livre|roman|film))\b",
        r"\b(?:en\s+(?:el|la|este|un|una)\s+(?:juego|videojuego|libro|novela|película|sala\s+de\s+escape)"
        r"|(?:no|na|num|numa)\s+(?:jogo|livro|romance|filme|sala\s+de\s+fuga)|vil[ãa]o)\b",
        r"\b(?:nel\s+(?:gioco|videogioco|libro|romanzo|film)|in\s+het\s+(?:spel|boek|spelletje))\b",
        r"(?<=\bw\s)(?:grze|książce|filmie)\b",
        r"(?<=\b[ву]\s)(?:игре|книге|романе|фильме|квесте|сериале|грі|книзі|квесті)\b|\bквест\w*",
        r"\b(?:oyunda|kitapta|filmde|dalam\s+(?:game|permainan|novel|film)|sa\s+(?:laro|nobela)"
        r"|trong\s+(?:game|trò\s+chơi|truyện|phim)|game\s+(?:mein|me))\b",
        r"\bفي\s+(?:اللعبة|الرواية|القصة|الفيلم)\b|مرحلة\s*[٠-٩\d]|गेम\s+में",
        r"ในเกม|ในนิยาย|게임에서|게임\s*속|방탈출|ゲームの中|ゲームで|謎解き|脱出ゲーム|游戏里|遊戲裡|游戏中|遊戲中|密室逃脱|密室逃脫"
        r"|小说里|小說裡|小说中|小說中|主角|主人公",
    )
)
# The lock a made-up place's code or password opens (read only where made_up_place is).
_LOCK = re.compile(
    r"\b(?:doors?|safes?|vaults?|padlocks?|locks?|combination|chests?|treasure|gates?|lockbox(?:es)?|rooms?)\b"
    r"|\b(?:cofre|cadeado|caja\s+fuerte|candado|puerta|coffre|cadenas|tresor|schloss|tür|kluis|deur|сейф|замк|замок"
    r"|двер|kasa|kilit|kapı|brankas|gembok|pintu|sejf|kłódk|drzwi|két\s+sắt|khóa|cửa)\w*"
    r"|金庫|保險箱|保险箱|密碼鎖|密码锁|宝箱|寶箱|扉|門|门|금고|자물쇠|الباب|باب|خزنة|قفل|ตู้เซฟ|กุญแจ|ประตู|ताला|तिजोरी",
    re.IGNORECASE,
)


# A login of the player's own beside it ("in the game my account password is ...").
_OWN_LOGIN = re.compile(
    r"\b(?:account|login|log\s+in|sign\s+in|username|user|e-?mail|wi-?fi|steam|xbox|psn|server|admin|konto|conta"
    r"|cuenta|compte|аккаунт|логин|hesap|akun|tài\s+khoản)\b|账号|帳號|帐号|アカウント|계정|حساب",
    re.IGNORECASE,
)


# A hunt set for players or a puzzle's answer ("in the scout treasure hunt the last chest opens
# with 4 2 6 8 — that's the puzzle answer"): a game only in the sentence that holds the code, and
# not as a time ("after the treasure hunt put the float back in the office safe, code 4 2 6 8",
# "treasure hunt done; the props safe ... is 4 2 6 8" are a real safe's).
_HUNT = keyed(
    r"(?<!\bafter\s)(?<!\bbefore\s)(?<!\bsince\s)(?<!\buntil\s)(?<!\bafter\sthe\s)(?<!\bbefore\sthe\s)"
    r"\b(?:(?:treasure|scavenger)[\s\-]hunts?(?!\s+(?:is\s+)?(?:done|over|finished|ended))|(?:puzzle|riddle)['’]?s?\s+answer"
    r"|answer\s+to\s+the\s+(?:puzzle|riddle))\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.;!?\n]")


def made_up_place(text: str) -> bool:
    """A game, a puzzle, an escape room played or a story is what the text is about."""
    return any(place.search(text) is not None for place in _MADE_UP_PLACES) or any(
        _digit_in_its_sentence(text, m) for m in _HUNT.finditer(text)
    )


def _digit_in_its_sentence(text: str, m: re.Match[str]) -> bool:
    starts = [e.end() for e in _SENTENCE_END.finditer(text, max(0, m.start() - 200), m.start())]
    end = _SENTENCE_END.search(text, m.end())
    sentence = text[starts[-1] if starts else max(0, m.start() - 200) : end.start() if end else len(text)]
    return any(c.isdigit() for c in sentence)


def made_up_lock(text: str) -> bool:
    """A lock in a game or a story, the text names it, and no login of the player's own is
    beside it: its code or password opens nothing."""
    if not made_up_place(text) or _LOCK.search(text) is None:
        return False
    return _OWN_LOGIN.search(text) is None
