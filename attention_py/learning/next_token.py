"""A tiny language model: attention only, it predicts every next token under the causal mask.

    x_i       = E[t_i] + P[i]                                         token + learned position
    layer     : x <- x + concat_h( softmax(Q_h K_hᵀ / √d_k, causal) V_h ) W_O
    logits_i  = x_i W_U                                               a score for every token
    loss      = the mean over positions i < n - 1 of -log softmax(logits_i)[t_(i+1)]

This is how language models learn: not from labelled answers but from text, each position
guessing the token after it, with the causal mask of ``attention_py.causal_mask`` so that no
position sees the token it must guess. One sequence of n tokens is n - 1 lessons at once.

Rows are tokens, as everywhere in attention_py. There are no MLPs and no layer norm: every
layer only moves information between positions, so what the model learns can be read off
its heads (``attention_py.learning.induction``). ``W_U`` (the *unembedding*) turns the last
vector of each position into one score per token of the vocabulary.

``forward`` takes a ``Cut`` to switch paths off when testing what a trained model relies on
(never in training): a head's output removed, or the keys, queries or values of a layer read
from the embeddings alone instead of from the residual stream, which cuts what that layer
reads from the layers before it (K-, Q- or V-composition, in the words of Elhage et al. 2021).

Every layer is the attention layer of layer.py, its backward pass beside its forward one;
the lines of the loss and the unembedding stand beside their forward lines in unembedding.py. tests/unit/test_next_token.py
checks every gradient against finite differences.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .._checks import Matrix
from ..linalg import matrix_product
from .gradients import Gradients
from .layer import LayerCut, LayerPass, causal_rows, head_weights, layer_backward, layer_forward
from .parameters import ParameterModel, check_parameters, draw_parameters, read_parameters, saved_parameters
from .unembedding import next_token_loss, unembed, unembed_backward

FORMAT = "attention_py.learning.NextTokenModel/1"


def token_shapes(
    vocabulary_size: int, max_length: int, *, d_model: int, layers: int, heads: int
) -> list[tuple[str, tuple[int, int]]]:
    """(name, (rows, cols)) of every parameter of a model of these sizes, in the order of
    ``NextTokenModel.parameters``."""
    if heads < 1 or d_model % heads:
        raise ValueError(f"d_model={d_model} must be divisible by heads={heads}")
    if layers < 1:
        raise ValueError(f"the model needs at least one layer, got layers={layers}")
    if vocabulary_size < 2 or max_length < 2:
        raise ValueError("the model needs a vocabulary of two tokens or more, and sequences of two or more")
    d_head = d_model // heads
    shapes = [("E", (vocabulary_size, d_model)), ("P", (max_length, d_model))]
    for layer in range(layers):
        for head in range(heads):
            for w in ("W_Q", "W_K", "W_V"):
                shapes.append((f"layer{layer}.head{head}.{w}", (d_model, d_head)))
        shapes.append((f"layer{layer}.W_O", (d_model, d_model)))
    shapes.append(("W_U", (d_model, vocabulary_size)))
    return shapes


@dataclass(frozen=True)
class Cut:
    """Paths switched off in ``NextTokenModel.forward`` (layers and heads count from 0).

    ``heads_off``: (layer, head) pairs whose output is removed; ``keys_from_embedding``,
    ``queries_from_embedding``, ``values_from_embedding``: layers whose keys (queries, values)
    are computed from the embeddings x_i = E[t_i] + P[i] instead of the residual stream, so
    they read nothing the earlier layers wrote."""

    heads_off: frozenset[tuple[int, int]] = frozenset()
    keys_from_embedding: frozenset[int] = frozenset()
    queries_from_embedding: frozenset[int] = frozenset()
    values_from_embedding: frozenset[int] = frozenset()


NO_CUT = Cut()


@dataclass
class TokenPass:
    """What ``forward`` keeps: the ids, the embeddings, every layer's pass, the last vectors,
    and each position's probabilities for the next token."""

    ids: list[int]
    embedded: Matrix
    layers: list[LayerPass]
    final: Matrix
    probabilities: Matrix  # one row per position: the distribution of the token after it
    head_outputs: list[list[Matrix]] = field(default_factory=list)  # [layer][head]: o_h W_O's share, per position

    def attention(self, layer: int, head: int) -> Matrix:
        """The weights of one head: row i over the positions j <= i."""
        return self.layers[layer].heads[head].weights


class NextTokenModel(ParameterModel):
    """The parameters, by name, as plain lists of rows (names in ``token_shapes``):
    ``E`` (vocabulary x d_model), ``P`` (max_length x d_model), for every layer l and head h
    ``layer{l}.head{h}.W_Q`` / ``.W_K`` / ``.W_V`` (d_model x d_head) and ``layer{l}.W_O``
    (d_model x d_model), and ``W_U`` (d_model x vocabulary)."""

    def __init__(
        self,
        vocabulary: tuple[str, ...],
        max_length: int,
        parameters: dict[str, Matrix],
        *,
        d_model: int,
        layers: int,
        heads: int,
    ) -> None:
        self._shapes = token_shapes(len(vocabulary), max_length, d_model=d_model, layers=layers, heads=heads)
        if len(set(vocabulary)) != len(vocabulary):
            raise ValueError("the vocabulary has a token twice")
        self.vocabulary = tuple(vocabulary)
        self.index = {token: i for i, token in enumerate(self.vocabulary)}
        self.max_length = max_length
        self.d_model, self.layers, self.heads = d_model, layers, heads
        self.d_head = d_model // heads
        check_parameters(parameters, self._shapes)
        self.parameters = parameters

    @classmethod
    def initial(
        cls, vocabulary: tuple[str, ...], max_length: int, seed: int = 0, *, d_model: int, layers: int, heads: int
    ) -> NextTokenModel:
        """A fresh model, its numbers drawn from ``random.Random(seed)``: embeddings and
        positions uniform in ±1, weight matrices Glorot-uniform (attention_py.rng)."""
        shapes = token_shapes(len(vocabulary), max_length, d_model=d_model, layers=layers, heads=heads)
        parameters = draw_parameters(shapes, seed)
        return cls(tuple(vocabulary), max_length, parameters, d_model=d_model, layers=layers, heads=heads)

    @property
    def settings(self) -> dict[str, int]:
        return {"d_model": self.d_model, "layers": self.layers, "heads": self.heads}

    def head(self, layer: int, head: int) -> tuple[Matrix, Matrix, Matrix]:
        """(W_Q, W_K, W_V) of one head."""
        return head_weights(self.parameters, layer, head)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict that ``from_dict`` turns back into this model exactly."""
        return {
            "format": FORMAT,
            "settings": self.settings,
            "vocabulary": list(self.vocabulary),
            "max_length": self.max_length,
            "parameters": saved_parameters(self.parameters),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> NextTokenModel:
        parameters = read_parameters(data, FORMAT)
        return cls(tuple(data["vocabulary"]), int(data["max_length"]), parameters, **data["settings"])

    # the forward pass

    def forward(self, ids: list[int] | tuple[int, ...], cut: Cut = NO_CUT, *, shares: bool = False) -> TokenPass:
        """Every position's distribution of the next token, keeping what ``backward`` needs
        (and with ``shares`` each head's share of the residual stream, for reading)."""
        ids = list(ids)
        if not 1 <= len(ids) <= self.max_length:
            raise ValueError(f"the model reads 1 to {self.max_length} tokens, got {len(ids)}")
        if any(not isinstance(t, int) or not 0 <= t < len(self.vocabulary) for t in ids):
            raise ValueError(f"token ids are integers from 0 to {len(self.vocabulary) - 1}")
        E, P = self.parameters["E"], self.parameters["P"]
        embedded = [[e + p for e, p in zip(E[t], P[i])] for i, t in enumerate(ids)]
        x = embedded
        passes, outputs = [], []
        for layer in range(self.layers):
            layer_pass, head_shares = self.layer_forward(layer, x, embedded, cut, shares=shares)
            passes.append(layer_pass)
            outputs.append(head_shares)
            x = layer_pass.output
        return TokenPass(ids, embedded, passes, x, unembed(x, self.parameters["W_U"]), outputs)

    def layer_forward(
        self, layer: int, x: Matrix, embedded: Matrix, cut: Cut = NO_CUT, *, shares: bool = False
    ) -> tuple[LayerPass, list[Matrix]]:
        """x + concat_h(causal attention of head h) W_O for every position (the attention layer
        of layer.py, under the causal mask); with ``shares`` also each head's share of the
        update, o_h W_O (the rows of W_O that read head h)."""
        n = len(x)
        mask = causal_rows(n)
        off = frozenset(h for off_layer, h in cut.heads_off if off_layer == layer)
        layer_cut = None
        if off or layer in cut.queries_from_embedding | cut.keys_from_embedding | cut.values_from_embedding:
            layer_cut = LayerCut(
                embedded,
                queries=layer in cut.queries_from_embedding,
                keys=layer in cut.keys_from_embedding,
                values=layer in cut.values_from_embedding,
                heads_off=off,
            )
        layer_pass = layer_forward(self.parameters, layer, self.heads, x, list(range(n)), mask, layer_cut)
        if not shares:
            return layer_pass, []
        W_O, d_head = self.parameters[f"layer{layer}.W_O"], self.d_head
        return layer_pass, [
            matrix_product(head.output, W_O[h * d_head : (h + 1) * d_head]) for h, head in enumerate(layer_pass.heads)
        ]

    def loss(self, run: TokenPass, first: int = 0) -> float:
        """The mean cross-entropy of each position's guess of the token after it, from position
        ``first`` on (unembedding.py)."""
        return next_token_loss(run.probabilities, run.ids, first)

    def guesses(self, run: TokenPass) -> list[int]:
        """Each position's most likely next token (the first, in a tie)."""
        return [max(range(len(row)), key=row.__getitem__) for row in run.probabilities]


def backward(model: NextTokenModel, run: TokenPass, grads: Gradients, weight: float = 1.0, first: int = 0) -> None:
    """Record ``weight`` times the gradients of ``model.loss(run, first)`` in ``grads``.

        read-out  unembedding.unembed_backward (the loss, the softmax and W_U)
        layers    layer.layer_backward (the residual connection included), last to first
        input     x_i = E[t_i] + P[i]                              dE[t_i] += dx_i,  dP[i] += dx_i

    The causal mask needs no line: a masked weight is 0, so its d score is 0."""
    d_x = unembed_backward(run.final, run.probabilities, run.ids, model.parameters["W_U"], grads, weight, first)
    for layer in reversed(range(model.layers)):
        d_x = layer_backward(model.parameters, layer, run.layers[layer], d_x, grads)
    grads.add_embedded(run.ids, d_x)


def token_gradients(
    model: NextTokenModel, ids: list[int], weight: float = 1.0, first: int = 0
) -> tuple[float, dict[str, Matrix]]:
    """(loss, gradients of the loss) of one sequence, the loss counted from position ``first``:
    what the tests check against finite differences."""
    grads = Gradients(model)
    run = model.forward(ids)
    backward(model, run, grads, weight, first)
    return model.loss(run, first), grads.totals()
