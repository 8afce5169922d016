"""Misspelt questions: each shared set with one typo in every question, read with and without
the book's spelling (`agent.offline.spelling`).

Run: `python -m bench.typos` (needs the shared corpora next to the checkout). In every question
the longest plain word of at least `TYPO_LENGTH` letters (outside quotes and code) gets one
typo that keeps its first letter: two neighbouring letters swapped, one left out, or one
typed twice, chosen by a generator seeded with the question's id, so every run misspells
alike. A question with no such word is left as written. Each book is ingested into the bench
store and its misspelt set scored through the whole graph as shipped, answers offline, with
`book_spelling` off and on: one row each, with `bench.quality`'s columns. The typos are made
here, not written by readers; the sets themselves hold none, only regional spellings
("colour", "centre"), which the `bench.quality` rows already read.
"""

import random
import re
import sys

from agent.context import Context
from agent.evaluation.harness import evaluate_answers, graph_retriever
from agent.evaluation.metrics import EvalQuestion, evaluate_retrieval, load_questions
from agent.offline.spelling import QUOTED_OR_CODE
from agent.resources import build_resources
from bench.quality import ANSWERS, RETRIEVAL, row_cells
from bench.setup import CORPORA, QUESTION_SETS, bench_settings
from ingest.recorded import run_ingest

TYPO_LENGTH = 6
PLAIN_WORD = re.compile(rf"\b[A-Za-z]{{{TYPO_LENGTH},}}\b")
SYSTEMS = {"misspelt, read as typed": False, "misspelt, read as the book spells": True}


def misspelt(question: EvalQuestion) -> EvalQuestion:
    """The question with one typo in its longest plain word (see the module docstring)."""
    text = question.question
    literal = QUOTED_OR_CODE.sub(lambda m: " " * len(m.group()), text)
    words = list(PLAIN_WORD.finditer(literal))
    if not words:
        return question
    word = max(words, key=lambda m: len(m.group()))
    start, end = word.span()
    typo = typed_wrong(text[start:end], random.Random(question.id))
    return question.model_copy(update={"question": text[:start] + typo + text[end:]})


def typed_wrong(word: str, chance: random.Random) -> str:
    """`word` with one typing slip after its first letter."""
    at = chance.randrange(1, len(word) - 1)
    slip = chance.choice(("swap", "drop", "double"))
    if slip == "swap" and word[at] != word[at + 1]:
        return word[:at] + word[at + 1] + word[at] + word[at + 2 :]
    if slip == "drop":
        return word[:at] + word[at + 1 :]
    return word[: at + 1] + word[at:]


def main() -> int:
    """Print one row per book and system."""
    if not CORPORA.is_dir():
        print(f"no corpora at {CORPORA}; nothing to measure", file=sys.stderr)
        return 1
    columns = [*RETRIEVAL, *ANSWERS]
    print(f"| book | system | {' | '.join(columns)} |")
    print(f"|---|---|{'---|' * len(columns)}")
    for name, questions_file in QUESTION_SETS.items():
        settings = bench_settings(book_id=f"bench-{name}", llm_model=None)
        run_ingest(settings, CORPORA / name / "docs")
        resources = build_resources(settings)
        questions = [misspelt(q) for q in load_questions(questions_file)]
        for system, spelling in SYSTEMS.items():
            context = Context(book_spelling=spelling)
            retrieval = evaluate_retrieval(questions, graph_retriever(resources, context))
            answers = evaluate_answers(questions, resources, context)
            cells = row_cells(retrieval, answers)
            print(f"| {name} | {system} | {' | '.join(cells)} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
