"""English irregular word forms, brought back to the form a stemmer shares with the rest.

A stemmer joins "writes", "writing" and "write", but not "written" or "wrote": a reader's
"How should action types be written?" shares no term with the heading "Write Action Types".
Only forms that are nothing else are listed: "left", "found", "bound", "ground", "lay", "saw",
"bit" and "won" also name things or directions, and "did", "had" or "got" are stopwords
anyway. Technical plurals that a stemmer leaves apart ("indices", "vertices", "children") are
listed too. Hyphenated words keep their form: "built-in" is not about building.

The offline reader's terms (`agent.offline.text.terms`: the ranker's word signals, the
grader, the extractive answer) take every form as its base form, on the question's side and
the book's alike, and the book's word counts are taken from those terms
(`agent.retrieval.vocabulary`), so that a word the book writes only as "frozen" is still one
it knows. The keyword index keeps words as written: a keyword query that also asked for the
base forms gained and lost about as much (bench/QUALITY.md).
"""

import re

FORMS = (
    "arose:arise arisen:arise awoke:awake awoken:awake became:become began:begin begun:begin "
    "bent:bend bitten:bite blew:blow blown:blow broke:break broken:break brought:bring "
    "built:build bought:buy caught:catch chose:choose chosen:choose crept:creep dealt:deal "
    "drew:draw drawn:draw drove:drive driven:drive ate:eat eaten:eat fallen:fall fed:feed "
    "fought:fight fled:flee flew:fly flown:fly forbade:forbid forbidden:forbid forgot:forget "
    "forgotten:forget forgave:forgive forgiven:forgive froze:freeze frozen:freeze gave:give "
    "given:give gotten:get grew:grow grown:grow hid:hide hidden:hide held:hold kept:keep "
    "knew:know known:know lent:lend lost:lose made:make meant:mean overcame:overcome "
    "overrode:override overridden:override paid:pay rewrote:rewrite rewritten:rewrite "
    "rode:ride ridden:ride rang:ring rung:ring risen:rise ran:run said:say seen:see "
    "sought:seek sold:sell sent:send shook:shake shaken:shake shone:shine shown:show "
    "shrank:shrink shrunk:shrink sang:sing sung:sing sank:sink sunk:sink slept:sleep "
    "slid:slide spoke:speak spoken:speak spent:spend spun:spin stood:stand stole:steal "
    "stolen:steal stuck:stick stung:sting struck:strike strung:string swore:swear "
    "sworn:swear swept:sweep swam:swim swum:swim swung:swing took:take taken:take "
    "taught:teach tore:tear torn:tear told:tell threw:throw thrown:throw understood:understand "
    "undid:undo undone:undo woke:wake woken:wake wore:wear worn:wear wove:weave woven:weave "
    "withdrew:withdraw withdrawn:withdraw wrote:write written:write "
    "children:child indices:index vertices:vertex matrices:matrix analyses:analysis "
    "criteria:criterion"
)
BASE = dict(pair.split(":") for pair in FORMS.split())
WORD = re.compile(r"(?<![\w-])[A-Za-z]+(?![\w-])")
"""A word of its own: "built-in" and "well-known" are words of their own."""


def base_forms(text: str) -> str:
    """`text` with each irregular form written as its base form ("written" as "write"). Words
    are looked up one by one: most texts hold no listed form, and a pattern of every form
    would take several times as long to say so."""
    pieces, end = [], 0
    for match in WORD.finditer(text):
        base = BASE.get(match.group().lower())
        if base is None:
            continue
        pieces += [text[end : match.start()], base]
        end = match.end()
    return "".join([*pieces, text[end:]])
