"""Gradients, derived by hand, layer by layer, from the loss back to the embeddings.

The loss of one sentence is the cross-entropy -log p[label]. The chain rule is applied in
the reverse order of ``Model.forward``; each step below names the forward line it undoes
(``dZ`` means ∂loss/∂Z, with the same shape as Z):

    answer    p = mean over heads h of A_h at the label's word,   L = -log p
              A_h = softmax(S_h) over the people    dA_h = -1 / (heads · p) at the label's word, else 0
    softmax   A = softmax(S) by rows                dS_ij = A_ij (dA_ij - Σ_k A_ik dA_ik)
                                                    (one head: dS = A - onehot(label), over the people)
              S = Q Kᵀ / √d_k                       dQ = dS K / √d_k,  dK = dSᵀ Q / √d_k
              Q, K = x W_Q, x W_K                   dW = xᵀ dQ (and so on),  dx += dQ W_Qᵀ + dK W_Kᵀ
    layer     out = x + C W_O                       dx = d out (the residual connection passes it
                                                    straight through),  dW_O += Cᵀ d out,  dC = d out W_Oᵀ
    head      H = A V                               dA = dH Vᵀ,  dV = Aᵀ dH, then the softmax and
                                                    S = Q Kᵀ / √d_k as above,  dx += dV W_Vᵀ
    input     x_i = E[t_i] + P[i]                   dE[t_i] += dx_i,  dP[i] += dx_i (learned positions;
                                                    a sinusoidal P is fixed, and "none" has no P)

The causal mask needs no line of its own: a masked weight is 0, so its d scores are 0
(softmax's line above), and nothing flows back through a key the query could not see.

tests/unit/test_learning_gradients.py checks every entry against finite differences, and
tests/unit/test_learning_numpy_reference.py against numpy.
"""

from __future__ import annotations

import math

from ..linalg import matrix_product
from .model import SMALLEST_P, HeadPass, LayerPass, Matrix, Model, Pass, loss_and_answer
from .puzzle import Sentence


def times_transpose(A: Matrix, B: Matrix) -> Matrix:
    """A Bᵀ: row i of A dotted with row j of B."""
    return [[math.sumprod(a, b) for b in B] for a in A]


def transpose_times(A: Matrix, B: Matrix) -> Matrix:
    """Aᵀ B, as a sum over rows of outer products (A and B have the same number of rows)."""
    return matrix_product([list(column) for column in zip(*A)], B)


def add_into(total: Matrix, part: Matrix) -> None:
    """total += part, entry by entry, in place."""
    for row, extra in zip(total, part):
        row[:] = [a + b for a, b in zip(row, extra)]


class Gradients:
    """Collects the gradients of a batch.

    A weight matrix W used as ``y = x W`` gets dW = xᵀ dy = Σ over rows of x_rowᵀ dy_row.
    Rather than multiply small matrices sentence by sentence, the rows of x and dy are
    stacked over the whole batch and multiplied once at the end (``totals``): the same sum,
    in far fewer Python calls.
    """

    def __init__(self, model: Model) -> None:
        self.model = model
        self.direct: dict[str, Matrix] = {
            name: zeros_like_one(model, name) for name in ("E", "P") if name in model.parameters
        }
        self.stacked: dict[str, tuple[Matrix, Matrix]] = {
            name: ([], []) for name, _ in model.shapes() if name not in self.direct
        }

    def add_product(self, name: str, x: Matrix, d_y: Matrix) -> None:
        """Record that W = parameters[name] was used as y = x W and y got the gradient d_y."""
        left, right = self.stacked[name]
        left.extend(x)
        right.extend(d_y)

    def total(self, name: str) -> Matrix:
        """The gradient of one parameter matrix, summed over everything recorded."""
        if name in self.direct:
            return self.direct[name]
        rows, cols = dict(self.model.shapes())[name]
        left, right = self.stacked[name]
        return transpose_times(left, right) if left else [[0.0] * cols for _ in range(rows)]

    def totals(self) -> dict[str, Matrix]:
        return {name: self.total(name) for name, _ in self.model.shapes()}


def zeros_like_one(model: Model, name: str) -> Matrix:
    rows, cols = dict(model.shapes())[name]
    return [[0.0] * cols for _ in range(rows)]


def loss_and_gradients(model: Model, batch: list[Sentence]) -> tuple[float, int, dict[str, Matrix]]:
    """(mean loss, number answered right, gradients of the mean loss) over ``batch``."""
    grads = Gradients(model)
    loss, correct = 0.0, 0
    for sentence in batch:
        sentence_loss, right = example_gradients(model, sentence, grads, 1 / len(batch))
        loss += sentence_loss
        correct += right
    return loss / len(batch), correct, grads.totals()


def example_gradients(model: Model, sentence: Sentence, grads: Gradients, weight: float = 1.0) -> tuple[float, bool]:
    """One sentence's forward and backward pass: its loss and whether the answer was right;
    ``weight`` times its gradients are recorded in ``grads``."""
    run = model.forward(sentence)
    loss, answer = loss_and_answer(run.probabilities, sentence.label)
    backward(model, run, sentence.label, grads, weight)
    return loss, answer == sentence.label


def backward(model: Model, run: Pass, label: int, grads: Gradients, weight: float = 1.0) -> None:
    """Record ``weight`` times the gradients of -log p[label] for the pass ``run`` in ``grads``."""
    pointer = run.pointer
    right = [j for j in pointer.candidates if model.person_of(run.ids[j]) == label]
    p = max(run.probabilities[label], SMALLEST_P)  # as in the loss (model.loss_and_answer)
    k = pointer.rows.index(run.pronoun)
    d_A = [0.0] * len(run.ids)
    for j in right:  # -log p, p = the mean over heads of their weights at the label's word(s)
        d_A[j] = -weight / (model.heads * p)
    d_x = [[0.0] * model.d_model for _ in run.ids]
    last = model.layers - 1
    people = pointer.candidates  # the only keys the last layer scores
    for h, head in enumerate(pointer.heads):
        d_S = [[0.0] * len(people) for _ in pointer.rows]
        d_S[k] = softmax_backward(
            [head.weights[k][j] for j in people], [d_A[j] for j in people], 1 / math.sqrt(model.d_head)
        )
        add_scores_backward(model, last, h, pointer.x, pointer.rows, head, d_S, grads, d_x, keys=people)
    for layer in reversed(range(model.layers - 1)):
        d_x = layer_backward(model, layer, run.layers[layer], d_x, grads)
    E, P = grads.direct["E"], grads.direct.get("P")  # P: learned positions only
    for i, (t, d) in enumerate(zip(run.ids, d_x)):  # x_i = E[t_i] + P[i]: both get d x_i
        add_into([E[t]], [d])
        if P is not None:
            add_into([P[i]], [d])


def softmax_backward(A_row: list[float], dA_row: list[float], scale: float) -> list[float]:
    """d scores of one row, through A = softmax(scale · scores): A_j (dA_j - Σ_k A_k dA_k) · scale."""
    mean = math.sumprod(A_row, dA_row)
    return [a * (g - mean) * scale for a, g in zip(A_row, dA_row)]


def add_scores_backward(
    model: Model,
    layer: int,
    h: int,
    x: Matrix,
    rows: list[int],
    head: HeadPass,
    d_S: Matrix,
    grads: Gradients,
    d_x: Matrix,
    keys: list[int] | None = None,
) -> None:
    """Through S = Q Kᵀ (already scaled in ``d_S``), Q = x[rows] W_Q, K = x[keys] W_K (every row
    of x unless ``keys``): records dW_Q and dW_K in ``grads`` and adds dx into ``d_x``."""
    W_Q, W_K, _ = model.head(layer, h)
    keys = list(range(len(x))) if keys is None else keys
    d_Q = matrix_product(d_S, head.K)
    d_K = transpose_times(d_S, head.Q)
    prefix = f"layer{layer}.head{h}."
    grads.add_product(prefix + "W_Q", [x[i] for i in rows], d_Q)
    grads.add_product(prefix + "W_K", [x[j] for j in keys], d_K)
    for i, row in zip(rows, times_transpose(d_Q, W_Q)):
        add_into([d_x[i]], [row])
    for j, row in zip(keys, times_transpose(d_K, W_K)):
        add_into([d_x[j]], [row])


def layer_backward(model: Model, layer: int, layer_pass: LayerPass, d_out: Matrix, grads: Gradients) -> Matrix:
    """Gradients of one layer, from d out (every row): records its weights' in ``grads``,
    returns d x (every row)."""
    x, rows = layer_pass.x, layer_pass.rows
    # the residual connection: out = x + ..., so d x gets d out (a row the layer did not
    # compute passed it unchanged: the same)
    d_x = [list(row) for row in d_out]
    d_out = [d_out[i] for i in rows]  # from here on, the rows the layer computed
    W_O = model.parameters[f"layer{layer}.W_O"]
    grads.add_product(f"layer{layer}.W_O", layer_pass.concat, d_out)
    d_concat = times_transpose(d_out, W_O)
    scale = 1 / math.sqrt(model.d_head)
    for h, head in enumerate(layer_pass.heads):
        _, _, W_V = model.head(layer, h)
        assert W_V is not None
        start = h * model.d_head
        d_H = [row[start : start + model.d_head] for row in d_concat]
        d_A = times_transpose(d_H, head.V)
        d_V = transpose_times(head.weights, d_H)
        d_S = [softmax_backward(A_row, dA_row, scale) for A_row, dA_row in zip(head.weights, d_A)]
        add_scores_backward(model, layer, h, x, rows, head, d_S, grads, d_x)
        grads.add_product(f"layer{layer}.head{h}.W_V", x, d_V)
        add_into(d_x, times_transpose(d_V, W_V))
    return d_x
