"""A tiny Transformer that reads a puzzle sentence and says whom the pronoun means.

    x_i      = E[token_i] + P[i]                                     token + position embedding
    layer    : x <- x + concat_h( softmax(Q_h K_hᵀ / √d_k) V_h ) W_O    Q_h = x W_Q,h, K_h = x W_K,h, V_h = x W_V,h
    readout  : logits = x_pronoun W_R                                one score per person
    p        = softmax(logits)

Rows are tokens, as everywhere in attention_py, and each head is the package's own
``attention()``. The ``x +`` of every layer is the *residual connection*: a layer adds what
attention found to each token's vector instead of replacing it, so the token's own
identity survives and gradients reach the early layers directly.

Why learned positions, not sinusoids. Attention itself ignores order: shuffle the tokens
and every token gets the same answer. The position vector P[i] added to each token is what
tells "the teacher yelled at the student" from "the student yelled at the teacher".
Sentences here are at most a dozen tokens long and always this short, so a learned vector
per position costs only a dozen rows, and the model can shape them for the task (e.g. make
"second place" easy for a query to find). Sinusoidal positions matter when sentences can be
longer than any seen in training; that never happens here.

The last layer only needs the pronoun's row to answer, so ``forward`` computes the queries
of that layer for the pronoun alone when asked for just the answer; ``read`` computes every
row of every layer, for display.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from ..attention import attention
from ..linalg import matrix_product
from ..rng import glorot_uniform, uniform_matrix
from ..softmax import stable_softmax
from .puzzle import Puzzle, Sentence

Matrix = list[list[float]]

FORMAT = "attention_py.learning.Model/1"


class Model:
    """The parameters, by name, as plain lists of rows; ``parameters`` keeps a stable order.

    Names: ``E`` (vocabulary x d_model), ``P`` (max_length x d_model), for each layer l and
    head h ``layer{l}.head{h}.W_Q`` / ``.W_K`` / ``.W_V`` (d_model x d_head) and
    ``layer{l}.W_O`` (d_model x d_model), and ``W_R`` (d_model x number of people).
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
    ) -> None:
        if d_model % heads:
            raise ValueError(f"d_model={d_model} must be divisible by heads={heads}")
        self.vocabulary = tuple(vocabulary)
        self.people = tuple(people)
        self.max_length = max_length
        self.d_model, self.layers, self.heads = d_model, layers, heads
        self.d_head = d_model // heads
        self.index = {token: i for i, token in enumerate(self.vocabulary)}
        self.parameters = parameters
        expected = dict(self.shapes())
        if list(parameters) != list(expected):
            raise ValueError(f"parameters must be {list(expected)}, got {list(parameters)}")
        for name, (rows, cols) in expected.items():
            m = parameters[name]
            if len(m) != rows or any(len(row) != cols for row in m):
                raise ValueError(f"{name} must be {rows} x {cols}")

    # shapes and names

    def shapes(self) -> list[tuple[str, tuple[int, int]]]:
        """(name, (rows, cols)) of every parameter, in the order of ``parameters``."""
        d = self.d_model
        shapes = [("E", (len(self.vocabulary), d)), ("P", (self.max_length, d))]
        for l in range(self.layers):
            for h in range(self.heads):
                for w in ("W_Q", "W_K", "W_V"):
                    shapes.append((f"layer{l}.head{h}.{w}", (d, self.d_head)))
            shapes.append((f"layer{l}.W_O", (d, d)))
        shapes.append(("W_R", (d, len(self.people))))
        return shapes

    def head(self, layer: int, head: int) -> tuple[Matrix, Matrix, Matrix]:
        """(W_Q, W_K, W_V) of one head."""
        p, prefix = self.parameters, f"layer{layer}.head{head}."
        return p[prefix + "W_Q"], p[prefix + "W_K"], p[prefix + "W_V"]

    @property
    def settings(self) -> dict[str, int]:
        return {"d_model": self.d_model, "layers": self.layers, "heads": self.heads}

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
    ) -> Model:
        """A fresh model for ``puzzle``, its numbers drawn from ``random.Random(seed)``.

        Embeddings are uniform in ±embedding_scale; weight matrices Glorot-uniform (attention_py.rng).
        """
        rng = random.Random(seed)
        vocabulary, people = puzzle.vocabulary, puzzle.people
        shell = cls.__new__(cls)
        shell.vocabulary, shell.people, shell.max_length = vocabulary, people, puzzle.max_length
        shell.d_model, shell.layers, shell.heads, shell.d_head = d_model, layers, heads, d_model // max(heads, 1)
        parameters: dict[str, Matrix] = {}
        for name, (rows, cols) in shell.shapes():
            if name in ("E", "P"):
                parameters[name] = uniform_matrix(rng, rows, cols, embedding_scale)
            else:
                parameters[name] = glorot_uniform(rng, rows, cols)
        return cls(vocabulary, people, puzzle.max_length, parameters, d_model=d_model, layers=layers, heads=heads)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (floats in lists) that ``from_dict`` turns back into this model exactly."""
        return {
            "format": FORMAT,
            "settings": self.settings,
            "vocabulary": list(self.vocabulary),
            "people": list(self.people),
            "max_length": self.max_length,
            "parameters": {name: [list(row) for row in m] for name, m in self.parameters.items()},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Model:
        if data.get("format") != FORMAT:
            raise ValueError(f"not a saved model of this format ({FORMAT}): {data.get('format')!r}")
        parameters = {name: [[float(x) for x in row] for row in m] for name, m in data["parameters"].items()}
        return cls(
            tuple(data["vocabulary"]), tuple(data["people"]), int(data["max_length"]), parameters, **data["settings"]
        )

    def copy(self) -> Model:
        return Model.from_dict(self.to_dict())

    # reading sentences

    def tokens_of(self, tokens: tuple[str, ...] | list[str]) -> list[int]:
        try:
            return [self.index[t] for t in tokens]
        except KeyError as error:
            raise ValueError(f"{error.args[0]!r} is not in the model's vocabulary") from None

    def forward(self, sentence: Sentence, *, every_row: bool = False) -> Pass:
        """Run the model on one sentence, keeping what the backward pass needs.

        Unless ``every_row``, the last layer computes only the pronoun's row (all the readout reads).
        """
        if len(sentence.tokens) > self.max_length:
            raise ValueError(f"the sentence has {len(sentence.tokens)} tokens; this model reads at most {self.max_length}")
        ids = self.tokens_of(sentence.tokens)
        E, P = self.parameters["E"], self.parameters["P"]
        x = [[e + p for e, p in zip(E[t], P[i])] for i, t in enumerate(ids)]  # token + position
        everyone = list(range(len(ids)))
        layers = []
        for l in range(self.layers):
            last = l == self.layers - 1
            rows = everyone if every_row or not last else [sentence.pronoun]
            layer = self.layer_forward(l, x, rows)
            layers.append(layer)
            x = layer.output
        pronoun_row = x[layers[-1].rows.index(sentence.pronoun)] if layers else x[sentence.pronoun]
        logits = [math.sumprod(pronoun_row, column) for column in zip(*self.parameters["W_R"])]
        return Pass(ids, sentence.pronoun, layers, pronoun_row, logits, stable_softmax(logits))

    def layer_forward(self, l: int, x: Matrix, rows: list[int]) -> LayerPass:
        """x + concat_h(attention of head h) W_O, for the query rows ``rows`` of x."""
        queries = [x[i] for i in rows]
        heads = []
        for h in range(self.heads):
            W_Q, W_K, W_V = self.head(l, h)
            Q = matrix_product(queries, W_Q)
            K = matrix_product(x, W_K)
            V = matrix_product(x, W_V)
            out, weights, _ = attention(Q, K, V, scale=1 / math.sqrt(self.d_head))
            heads.append(HeadPass(Q, K, V, weights, out))
        concat = [[v for head in heads for v in head.output[r]] for r in range(len(rows))]  # heads side by side
        update = matrix_product(concat, self.parameters[f"layer{l}.W_O"])
        output = [[a + b for a, b in zip(x[i], u)] for i, u in zip(rows, update)]  # the residual connection
        return LayerPass(x, rows, heads, concat, output)

    def read(self, sentence: Sentence) -> Reading:
        """The model's answer for ``sentence`` and every layer's attention weights (all rows)."""
        run = self.forward(sentence, every_row=True)
        attention_maps = [[head.weights for head in layer.heads] for layer in run.layers]
        best = max(range(len(run.probabilities)), key=run.probabilities.__getitem__)
        return Reading(run.probabilities, best, attention_maps)

    def predict(self, sentence: Sentence) -> int:
        p = self.forward(sentence).probabilities
        return max(range(len(p)), key=p.__getitem__)

    def accuracy(self, sentences: list[Sentence]) -> float:
        if not sentences:
            return 0.0
        return sum(self.predict(s) == s.label for s in sentences) / len(sentences)


@dataclass
class HeadPass:
    Q: Matrix  # the query rows' queries
    K: Matrix
    V: Matrix
    weights: Matrix  # softmax(Q Kᵀ / √d_k), one row per query row
    output: Matrix  # weights V


@dataclass
class LayerPass:
    x: Matrix  # the layer's input, every token
    rows: list[int]  # the query rows computed
    heads: list[HeadPass]
    concat: Matrix  # the heads' outputs side by side, one row per query row
    output: Matrix  # x + concat W_O for the query rows


@dataclass
class Pass:
    ids: list[int]
    pronoun: int
    layers: list[LayerPass]
    pronoun_row: list[float]
    logits: list[float]
    probabilities: list[float]


@dataclass
class Reading:
    """What ``Model.read`` returns.

    ``probabilities`` has one entry per person of the puzzle; ``prediction`` is the index of
    the largest; ``attention[layer][head][query][key]`` are the attention weights.
    """

    probabilities: list[float]
    prediction: int
    attention: list[list[Matrix]]
