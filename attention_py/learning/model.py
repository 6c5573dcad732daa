"""A tiny Transformer that reads a puzzle sentence and says whom the pronoun means, by pointing.

    x_i      = E[token_i] + P[i]                                     token + position embedding
    layer    : x <- x + concat_h( softmax(Q_h K_hᵀ / √d_k) V_h ) W_O    Q_h = x W_Q,h, K_h = x W_K,h, V_h = x W_V,h
    answer   : a_h = softmax over the people in the sentence of q_h(pronoun) · k_h(j) / √d_k
               p(person) = the mean over heads of a_h at that person's word

Rows are tokens, as everywhere in attention_py, and each head is the package's own
``attention()``. The ``x +`` of every layer is the *residual connection*: a layer adds what
attention found to each token's vector instead of replacing it, so the token's own
identity survives and gradients reach the early layers directly.

The answer is an attention layer too (the last of ``layers``): the pronoun's query scores
the keys of the people in the sentence, and the softmax of those scores *is* the answer,
the way coreference models choose an antecedent among the candidate words, and pointer
networks point at an input. This layer needs only W_Q and W_K: its weights are the output,
so it has no values and no W_O. Reading the answer off the pronoun's vector with a matrix
instead (one score per person of the puzzle) learns the training sentences just as well but,
for most seeds, not the held-out ones: a matrix can learn "this reason never points at the
nurse", which is true of the training sentences and false of the rule (bench/README.md,
"Training", has the numbers).

Positions: learned by default, sinusoids or none to compare. Attention itself ignores
order: shuffle the tokens and every token gets the same answer. The position vector P[i]
added to each token is what tells "the teacher yelled at the student" from "the student
yelled at the teacher". ``positions`` chooses it when a model is made:

- ``"learned"`` (the default, the build's): P is a parameter, one row per position, trained
  like the rest. Sentences here are at most a dozen tokens long and always this short, so it
  costs only a dozen rows, and the model can shape them for the task (e.g. make "second
  place" easy for a query to find).
- ``"sinusoidal"``: the fixed table of "Attention is all you need",
  P[i, 2c] = sin(i / 10000^(2c/d_model)), P[i, 2c+1] = cos(i / 10000^(2c/d_model)); not a
  parameter, so it gets no gradient. It matters when sentences can be longer than any seen
  in training, which never happens here; the reader can try both.
- ``"none"``: x_i = E[token_i]. The model then sees each sentence as a bag of words: "the
  teacher yelled at the student because she was rude" and the same words with the two people
  swapped give the same vectors to the same words, so the same answer, and one of the two is
  wrong: on sentences that differ only by order it cannot beat 50%.

The P rows are drawn from the seed whatever ``positions`` says (and dropped unless learned),
so models made from one seed start from the same E and weights and differ only in positions.

The causal mask (``causal=True``): every token may attend only to itself and the tokens
before it, as in a model that reads (or writes) left to right. It applies to every layer,
the answering one too; there the pronoun's query scores the people before it, and in these
puzzles both people come before the pronoun, so it changes nothing for the answer (the
rows of other tokens, drawn by ``read``, lose the people after them). What the mask does
change is what the pronoun knows: the reason comes after it in every language's template,
so under the mask the pronoun cannot read the reason, sentences that differ only in their
reason get the same answer, and the model stays at chance (bench/README.md, "Training", has
the numbers). That is the lesson of the switch: to answer here a model must read ahead.

The answer only needs the pronoun's query and the people's keys, so when asked for just
the answer ``forward`` computes the last layer for the pronoun alone, and the layer before
it for the pronoun and the people alone (the rows the last layer reads; their keys and
values still come from every word): a third fewer dot products in training, the same numbers.
``read`` computes every row of every layer, for display.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .._checks import Matrix
from .layer import LayerPass, causal_rows, head_weights, layer_forward
from .parameters import SMALLEST_P, ParameterModel, check_parameters, draw_parameters, read_parameters, saved_parameters
from .pointer import PointerPass, pointer_forward, pointer_weights
from .tasks.puzzle import Puzzle, Sentence

if TYPE_CHECKING:
    from .ablation import Ablation

FORMAT = "attention_py.learning.Model/1"
POSITIONS = ("learned", "sinusoidal", "none")  # the kinds of position vector (see the module's docstring)


def answer(probabilities: list[float]) -> int:
    """The answer the probabilities give: the index of the largest (the first, in a tie)."""
    return max(range(len(probabilities)), key=probabilities.__getitem__)


def loss_and_answer(probabilities: list[float], label: int) -> tuple[float, int]:
    """One sentence's cross-entropy loss, -log p[label] (p at least ``SMALLEST_P``), and the answer."""
    return -math.log(max(probabilities[label], SMALLEST_P)), answer(probabilities)


def sinusoidal_positions(length: int, d_model: int) -> Matrix:
    """The fixed position table of "Attention is all you need", one row per position:
    column 2c is sin(i / 10000^(2c/d_model)), column 2c+1 its cosine. Each pair of columns
    turns at its own rate, from once every 2π positions down to ever more slowly, so every
    position gets its own row and a shift by k positions is the same rotation wherever it
    starts."""
    return [
        [
            (math.sin if column % 2 == 0 else math.cos)(i / 10000 ** ((column - column % 2) / d_model))
            for column in range(d_model)
        ]
        for i in range(length)
    ]


def parameter_shapes(
    vocabulary_size: int, max_length: int, *, d_model: int, layers: int, heads: int, positions: str = "learned"
) -> list[tuple[str, tuple[int, int]]]:
    """(name, (rows, cols)) of every parameter of a model of these sizes, in the order of
    ``Model.parameters`` (see ``Model``); P is a parameter only when ``positions`` is "learned"."""
    if heads < 1 or d_model % heads:
        raise ValueError(f"d_model={d_model} must be divisible by heads={heads}")
    if layers < 1:
        raise ValueError(f"the model needs at least one layer (the last one answers), got layers={layers}")
    if positions not in POSITIONS:
        raise ValueError(f"positions must be one of {', '.join(POSITIONS)}, got {positions!r}")
    d_head = d_model // heads
    shapes = [("E", (vocabulary_size, d_model))]
    if positions == "learned":
        shapes.append(("P", (max_length, d_model)))
    for layer in range(layers):
        answers = layer == layers - 1  # the pointing layer: its weights are the answer
        for head in range(heads):
            for w in ("W_Q", "W_K") if answers else ("W_Q", "W_K", "W_V"):
                shapes.append((f"layer{layer}.head{head}.{w}", (d_model, d_head)))
        if not answers:
            shapes.append((f"layer{layer}.W_O", (d_model, d_model)))
    return shapes


class Model(ParameterModel):
    """The parameters, by name, as plain lists of rows; ``parameters`` keeps a stable order.

    Names: ``E`` (vocabulary x d_model), ``P`` (max_length x d_model, with learned positions
    only), for each layer l and head h ``layer{l}.head{h}.W_Q`` / ``.W_K`` / ``.W_V``
    (d_model x d_head) and ``layer{l}.W_O`` (d_model x d_model); the last layer, which answers
    by pointing, has only ``W_Q`` and ``W_K``.

    ``positions`` ("learned", "sinusoidal" or "none") and ``causal`` are the options of the
    module's docstring; ``position_table`` is the P that is added to the tokens (None without
    positions).
    """

    def __init__(
        self,
        vocabulary: tuple[str, ...],
        people: tuple[str, ...],
        max_length: int,
        parameters: dict[str, Matrix],
        *,
        d_model: int,
        layers: int,
        heads: int,
        positions: str = "learned",
        causal: bool = False,
        person_tokens: tuple[tuple[str, ...], ...] | None = None,
    ) -> None:
        """``person_tokens``: each person's words (``Puzzle.person_tokens``: forms per role,
        punctuation attached); by default its name alone."""
        self._shapes = parameter_shapes(
            len(vocabulary), max_length, d_model=d_model, layers=layers, heads=heads, positions=positions
        )
        if not isinstance(causal, bool):
            raise TypeError(f"causal must be True or False, got {causal!r}")
        self.vocabulary = tuple(vocabulary)
        self.people = tuple(people)
        self.max_length = max_length
        self.d_model, self.layers, self.heads = d_model, layers, heads
        self.positions, self.causal = positions, causal
        self.d_head = d_model // heads
        self.index = {token: i for i, token in enumerate(self.vocabulary)}
        self.person_tokens = tuple(tuple(t) for t in person_tokens) if person_tokens else tuple((p,) for p in people)
        if len(self.person_tokens) != len(self.people):
            raise ValueError("person_tokens must give the words of every person")
        # token id -> index in ``people``: which words the answer may point at, and whom each names
        self._person_of = {
            self.index[token]: k
            for k, tokens in enumerate(self.person_tokens)
            for token in tokens
            if token in self.index
        }
        self.parameters = parameters
        check_parameters(parameters, self._shapes)
        self.position_table: Matrix | None = {
            "learned": parameters.get("P"),  # the parameter itself: training moves it
            "sinusoidal": sinusoidal_positions(max_length, d_model),
            "none": None,
        }[positions]

    # names

    def head(self, layer: int, head: int) -> tuple[Matrix, Matrix, Matrix | None]:
        """(W_Q, W_K, W_V) of one head; W_V is None in the last layer, which answers by pointing."""
        if layer == self.layers - 1:
            return (*pointer_weights(self.parameters, layer, head), None)
        return head_weights(self.parameters, layer, head)

    def person_of(self, token_id: int) -> int | None:
        """The index in ``people`` of the person a token names, or None."""
        return self._person_of.get(token_id)

    def candidates(self, ids: list[int]) -> list[int]:
        """The token indices the answer may point at: the words that are people."""
        people = self._person_of
        return [j for j, t in enumerate(ids) if t in people]

    @property
    def settings(self) -> dict[str, Any]:
        """The sizes and options the model was made with (``Model.initial``'s keywords)."""
        return {
            "d_model": self.d_model,
            "layers": self.layers,
            "heads": self.heads,
            "positions": self.positions,
            "causal": self.causal,
        }

    # making and saving

    @classmethod
    def initial(
        cls,
        puzzle: Puzzle,
        seed: int = 0,
        d_model: int = 16,
        layers: int = 2,
        heads: int = 1,
        embedding_scale: float = 1.0,
        *,
        positions: str = "learned",
        causal: bool = False,
    ) -> Model:
        """A fresh model for ``puzzle``, its numbers drawn from ``random.Random(seed)``.

        Embeddings are uniform in ±embedding_scale; weight matrices Glorot-uniform (attention_py.rng).
        ``positions`` is "learned" (a parameter P), "sinusoidal" (a fixed table) or "none";
        ``causal=True`` lets each token attend only to itself and the tokens before it.
        Learned position rows are drawn whatever ``positions`` says, so one seed gives the same
        E and weights with every option.
        """
        vocabulary, people, max_length = puzzle.vocabulary, puzzle.people, puzzle.max_length
        shapes = parameter_shapes(len(vocabulary), max_length, d_model=d_model, layers=layers, heads=heads)
        parameters = draw_parameters(shapes, seed, embedding_scale)
        if positions != "learned":
            parameters.pop("P")  # drawn above all the same: the other numbers stay the default's
        return cls(
            vocabulary,
            people,
            max_length,
            parameters,
            d_model=d_model,
            layers=layers,
            heads=heads,
            positions=positions,
            causal=causal,
            person_tokens=puzzle.person_tokens,
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (floats in lists) that ``from_dict`` turns back into this model exactly."""
        return {
            "format": FORMAT,
            "settings": self.settings,
            "vocabulary": list(self.vocabulary),
            "people": list(self.people),
            # only when a person has more words than its name (older files have none)
            **({"person_tokens": [list(t) for t in self.person_tokens]} if self._more_words else {}),
            "max_length": self.max_length,
            "parameters": saved_parameters(self.parameters),
        }

    @property
    def _more_words(self) -> bool:
        return any(tokens != (name,) for tokens, name in zip(self.person_tokens, self.people))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Model:
        """The model ``to_dict`` saved. Models saved before the options existed have no
        ``positions`` or ``causal`` in their settings: they had learned positions and no mask,
        the defaults."""
        parameters = read_parameters(data, FORMAT)
        words = data.get("person_tokens")
        return cls(
            tuple(data["vocabulary"]),
            tuple(data["people"]),
            int(data["max_length"]),
            parameters,
            **data["settings"],
            person_tokens=tuple(tuple(t) for t in words) if words else None,
        )

    # reading sentences

    def forward(self, sentence: Sentence, *, every_row: bool = False, ablation: Ablation | None = None) -> Pass:
        """Run the model on one sentence, keeping what the backward pass needs.

        Unless ``every_row``, the last layer computes only the pronoun's row (all the answer
        reads), and the layer before it only the rows the last one reads (the pronoun's and
        the people's; the others pass it unchanged, and nothing reads them).
        ``ablation`` switches paths off (attention_py/learning/ablation.py; not for training).
        """
        if len(sentence.tokens) > self.max_length:
            raise ValueError(
                f"the sentence has {len(sentence.tokens)} tokens; this model reads at most {self.max_length}"
            )
        ids = self.ids_of(sentence.tokens)
        candidates = self.candidates(ids)
        if not candidates:
            raise ValueError("the sentence names none of the model's people: there is nobody to point at")
        x = self.embed(ids)
        everyone = list(range(len(ids)))
        read_last = everyone if every_row else sorted({sentence.pronoun, *candidates})  # what the last layer reads
        layers = []
        for layer in range(self.layers - 1):
            rows = read_last if layer == self.layers - 2 else everyone
            layer_pass = self.layer_forward(layer, x, rows, self.allowed(layer, sentence, rows, ablation))
            if ablation is not None:
                kept = ablation.kept(layer, sentence)
                layer_pass.output = [out if kept[i] else list(x[i]) for i, out in zip(rows, layer_pass.output)]
            layers.append(layer_pass)
            if rows is everyone:
                x = layer_pass.output
            else:  # the rows not computed are not read again: they keep the layer's input
                x = list(x)
                for i, out in zip(rows, layer_pass.output):
                    x[i] = out
        rows = everyone if every_row else [sentence.pronoun]
        pointer = self.pointer_forward(x, rows, candidates, self.allowed(self.layers - 1, sentence, rows, ablation))
        if not any(pointer.heads[0].weights[rows.index(sentence.pronoun)]):
            what = "the causal mask" if ablation is None else "the ablation"
            raise ValueError(f"{what} leaves the pronoun no person to point at")
        weights = [
            sum(head.weights[rows.index(sentence.pronoun)][j] for head in pointer.heads) / self.heads
            for j in range(len(ids))
        ]  # the pronoun's weights, averaged over heads
        probabilities = [0.0] * len(self.people)
        for j in candidates:
            probabilities[self._person_of[ids[j]]] += weights[j]
        return Pass(ids, sentence.pronoun, layers, pointer, probabilities)

    def embed(self, ids: list[int]) -> Matrix:
        """The first layer's input: each token's embedding plus its position's vector (or
        the embedding alone, a copy, without positions)."""
        E, P = self.parameters["E"], self.position_table
        if P is None:
            return [list(E[t]) for t in ids]
        return [[e + p for e, p in zip(E[t], P[i])] for i, t in enumerate(ids)]  # token + position

    def allowed(
        self, layer: int, sentence: Sentence, rows: list[int], ablation: Ablation | None = None
    ) -> list[list[bool]] | None:
        """Which keys each query row of ``rows`` may look at in ``layer``: every key (None),
        or those the causal mask (j <= i) and ``ablation`` allow."""
        cut = None if ablation is None else ablation.allowed(layer, sentence, rows)
        if not self.causal:
            return cut
        n = len(sentence.tokens)
        mask = causal_rows(n)
        if cut is None:
            return [mask[i] for i in rows]
        both = [[a and b for a, b in zip(mask[i], row)] for i, row in zip(rows, cut)]
        if layer < self.layers - 1 and not all(any(row) for row in both):
            raise ValueError(f"the ablation and the causal mask leave a word no word to look at in layer {layer}")
        return both

    def layer_forward(
        self, layer: int, x: Matrix, rows: list[int], allowed: list[list[bool]] | None = None
    ) -> LayerPass:
        """x + concat_h(attention of head h) W_O, for the query rows ``rows`` of x (each allowed
        to look at every key, or where ``allowed`` says): the attention layer of layer.py."""
        return layer_forward(self.parameters, layer, self.heads, x, rows, allowed)

    def pointer_forward(
        self, x: Matrix, rows: list[int], candidates: list[int], blocked: list[list[bool]] | None = None
    ) -> PointerPass:
        """The last layer: each head's attention from the query rows ``rows`` of x, allowed to
        look only at the ``candidates`` (the people in the sentence; and only where ``blocked``
        allows: the causal mask, an ablation). Its weights are the answer (pointer.py)."""
        return pointer_forward(self.parameters, self.layers - 1, self.heads, x, rows, candidates, blocked)

    def read(self, sentence: Sentence) -> Reading:
        """The model's answer for ``sentence`` and every layer's attention weights (all rows)."""
        run = self.forward(sentence, every_row=True)
        passes: list[LayerPass | PointerPass] = [*run.layers, run.pointer]
        attention_maps = [[head.weights for head in layer_pass.heads] for layer_pass in passes]
        return Reading(run.probabilities, answer(run.probabilities), attention_maps)

    def predict(self, sentence: Sentence, *, ablation: Ablation | None = None) -> int:
        """The index (in ``people``) of the person the model names for ``sentence``, with
        ``ablation`` applied if given."""
        return answer(self.forward(sentence, ablation=ablation).probabilities)

    def accuracy(self, sentences: list[Sentence]) -> float:
        if not sentences:
            return 0.0
        return sum(self.predict(s) == s.label for s in sentences) / len(sentences)


@dataclass
class Pass:
    ids: list[int]
    pronoun: int
    layers: list[LayerPass]  # every layer but the last
    pointer: PointerPass  # the last layer
    probabilities: list[float]  # one per person of the puzzle: the attention the pronoun gives them


@dataclass
class Reading:
    """What ``Model.read`` returns.

    ``probabilities`` has one entry per person of the puzzle (0 for a person not in the
    sentence); ``prediction`` is the index of the largest; ``attention[layer][head][query][key]``
    are the attention weights (the last layer's: over the people in the sentence only).
    """

    probabilities: list[float]
    prediction: int
    attention: list[list[Matrix]]
