"""The example sentence and a small, hand-designed two-layer model that reads it.

"The teacher yelled at the student because she was angry / rude": the last word decides
whom "she" means. One attention layer cannot show that flip: the pronoun's query is made
from the pronoun alone, so its preference between "teacher" and "student" cannot depend
on a third word. Two layers can, and that is the honest story this model tells:

* layer 1 - the pronoun's query looks for a predicate (angry / rude) and copies what it
  finds into its own vector (residual connection: x + attention output);
* layer 2 - the pronoun's query now carries "anger" (look for the one who yelled) or
  "rudeness" (look for the one yelled at), and the keys of the two nouns answer.

Both layers run through the package's own ``SelfAttention``; only the numbers in the
embeddings and the weight matrices are designed by hand (the page says so).

Each language writes its sentence in its strings file as ``role: word`` pairs separated
by ``|``. The roles (below) carry the designed meaning, so a translation can use its own
words, word order and number of tokens.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ... import SelfAttention
from .format import NumberFormat
from .html import el, esc, to_json
from .strings import Text, strings_file

# Features of the designed embedding (d_model = 8).
NOUN, AGENT, PATIENT, PRONOUN, PREDICATE, ANGER, RUDENESS, FUNCTION = range(8)
D_MODEL = 8

_EMBEDDINGS: dict[str, tuple[float, ...]] = {
    #          noun agent patient pron pred anger rude func
    "the": (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0),
    "teacher": (1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
    "yell": (0.0, 0.4, 0.4, 0.0, 0.3, 0.0, 0.0, 0.3),
    "at": (0.0, 0.0, 0.3, 0.0, 0.0, 0.0, 0.0, 1.0),
    "student": (1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0),
    "because": (0.0, 0.0, 0.0, 0.0, 0.2, 0.0, 0.0, 1.0),
    "she": (0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.2),
    "was": (0.0, 0.0, 0.0, 0.0, 0.4, 0.0, 0.0, 0.8),
    "angry": (0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0),
    "rude": (0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0),
    "other": (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0),
}
ROLES = tuple(_EMBEDDINGS)
ENDINGS = ("angry", "rude")


@dataclass(frozen=True)
class Token:
    word: str
    role: str


def parse_tokens(spec: str, where: str) -> list[Token]:
    """Tokens from "role: word | role: word ..."; ValueError naming ``where`` otherwise."""
    tokens = []
    for chunk in spec.split("|"):
        role, sep, word = chunk.partition(":")
        role, word = role.strip(), word.strip()
        if not sep or not word or role not in _EMBEDDINGS:
            raise ValueError(
                f"{where}: each token must be written 'role: word' with a role among "
                f"{', '.join(ROLES)}; got {chunk.strip()!r}"
            )
        tokens.append(Token(word, role))
    return tokens


def embed(tokens: list[Token]) -> list[list[float]]:
    """The designed embedding of each token (one row per token)."""
    return [list(_EMBEDDINGS[t.role]) for t in tokens]


def _matrix(rows: int, cols: int, entries: dict[tuple[int, int], float]) -> list[list[float]]:
    m = [[0.0] * cols for _ in range(rows)]
    for (i, j), v in entries.items():
        m[i][j] = v
    return m


def layers() -> tuple[SelfAttention, SelfAttention]:
    """The two designed layers, new for every reading: a layer keeps its last call's Q, K, V,
    so sharing one between draws would share that state too (building them is cheap)."""
    first = SelfAttention(D_MODEL, 2, D_MODEL)
    first.W_Q = _matrix(D_MODEL, 2, {(PRONOUN, 0): 3.0, (FUNCTION, 1): 1.0})
    first.W_K = _matrix(D_MODEL, 2, {(PREDICATE, 0): 3.0, (FUNCTION, 1): 1.0})
    first.W_V = _matrix(D_MODEL, D_MODEL, {(ANGER, ANGER): 1.0, (RUDENESS, RUDENESS): 1.0})
    second = SelfAttention(D_MODEL, 3, 3)
    second.W_Q = _matrix(D_MODEL, 3, {(PRONOUN, 0): 2.0, (ANGER, 1): 2.2, (RUDENESS, 2): 2.2, (PREDICATE, 0): 0.6})
    second.W_K = _matrix(D_MODEL, 3, {(NOUN, 0): 1.5, (AGENT, 1): 1.5, (PATIENT, 2): 1.5})
    second.W_V = _matrix(
        D_MODEL, 3, {(AGENT, 0): 1.0, (PATIENT, 1): 1.0, (NOUN, 2): 0.5, (PRONOUN, 2): 0.5, (PREDICATE, 2): -0.5}
    )
    return first, second


@dataclass(frozen=True)
class Reading:
    """Everything the two layers computed for one sentence."""

    x: list[list[float]]
    weights1: list[list[float]]
    x1: list[list[float]]
    q: list[list[float]]
    k: list[list[float]]
    v: list[list[float]]
    weights2: list[list[float]]


def read(tokens: list[Token]) -> Reading:
    """Run the sentence through both designed layers with the package's SelfAttention."""
    return read_causal(tokens, False)


def pronoun_index(tokens: list[Token]) -> int:
    """Position of the pronoun (or of the last token if a translation has none)."""
    for i, t in enumerate(tokens):
        if t.role == "she":
            return i
    return len(tokens) - 1


def read_causal(tokens: list[Token], causal: bool) -> Reading:
    """Like ``read``, with both layers optionally causal (a token sees only its past)."""
    first, second = layers()
    x = embed(tokens)
    out1, weights1 = first(x, causal=causal)
    x1 = [[a + b for a, b in zip(row, upd)] for row, upd in zip(x, out1)]
    _, weights2 = second(x1, causal=causal)
    q, k, v = second.Q, second.K, second.V
    assert q is not None
    assert k is not None
    assert v is not None
    return Reading(x, weights1, x1, q, k, v, weights2)


def sentence(text: Text, ending: str = "angry") -> list[Token]:
    """The example sentence of the page's language (``text`` is a figure's ``Text``)."""
    key = f"common.sentence_{ending}"
    return parse_tokens(text.plain(key), f"{strings_file(text.lang)}: {key}")


def token_weight(weight: float, numbers: NumberFormat) -> str:
    """A token's weight as its button shows it, in the figure's format ``numbers`` ("73%")."""
    return numbers.pct(100 * weight, 0)


def token_strip(
    tokens: list[Token],
    *,
    selected: int,
    weights: list[float] | None,
    label: str,
    changes: Callable[[int], dict[str, Any]],
    token_label: Callable[[int], str],
    numbers: NumberFormat,
) -> str:
    """The sentence as a row of token buttons in reading order (right to left in he/fa).

    With ``weights`` each token carries a bar and a percentage: how much the selected
    token takes from it. ``token_label(i)`` names button ``i`` and must begin with what it
    shows: the word, then (with weights) a space and ``token_weight`` (WCAG 2.5.3, label
    in name). The space between the word and the weight is in the markup too, so the
    button's text reads "teacher 73%"; the column layout does not show it.
    """
    items = []
    for i, token in enumerate(tokens):
        extra = ""
        if weights is not None:
            extra = (
                " "
                + el("span", {"class": "apy-token__bar", "style": f"--w:{weights[i]:.3f}", "aria-hidden": "true"})
                + el("span", {"class": "apy-token__weight", "dir": "ltr"}, token_weight(weights[i], numbers))
            )
        items.append(
            el(
                "button",
                {
                    "type": "button",
                    "class": "apy-token",
                    "aria-pressed": "true" if i == selected else "false",
                    "data-set": to_json(changes(i)),
                    "aria-label": token_label(i),
                    "data-focus-key": f"token:{i}",
                },
                el("span", {"class": "apy-token__word"}, esc(token.word)),
                extra,
            )
        )
    return el("div", {"class": "apy-sentence", "role": "group", "aria-label": label}, "".join(items))
