"""The puzzle model's gradients, derived by hand, from the loss back to the embeddings.

The loss of one sentence is the cross-entropy -log p[label]. The chain rule is applied in
the reverse order of ``Model.forward``; each step below names the forward line it undoes
(``dZ`` means ∂loss/∂Z, with the same shape as Z):

    answer    p = mean over heads h of A_h at the label's word,   L = -log p
              A_h = softmax(S_h) over the people    dA_h = -1 / (heads · p) at the label's word, else 0
    softmax   A = softmax(S) by rows                dS_ij = A_ij (dA_ij - Σ_k A_ik dA_ik)
                                                    (one head: dS = A - onehot(label), over the people)
              S = Q Kᵀ / √d_k                       dQ = dS K / √d_k,  dK = dSᵀ Q / √d_k
              Q, K = x W_Q, x W_K                   dW = xᵀ dQ (and so on),  dx += dQ W_Qᵀ + dK W_Kᵀ
    layers    out = x + C W_O, ...                  layer.layer_backward, last to first
    input     x_i = E[t_i] + P[i]                   dE[t_i] += dx_i,  dP[i] += dx_i (learned positions;
                                                    a sinusoidal P is fixed, and "none" has no P)

The answer's own line is here; the pointing layer's lines stand beside its forward pass in
pointer.py (it has no values, and scores only the people), and every layer before it is the
attention layer of layer.py. The causal mask needs no line of its own: a masked weight is 0, so its d scores are 0
(softmax's line above), and nothing flows back through a key the query could not see.

tests/unit/test_learning_gradients.py checks every entry against finite differences, and
tests/unit/test_learning_numpy_reference.py against numpy.
"""

from __future__ import annotations

from .._checks import Matrix
from .gradients import Gradients
from .layer import layer_backward
from .model import Model, Pass, loss_and_answer
from .parameters import SMALLEST_P
from .pointer import pointer_backward
from .tasks.puzzle import Sentence


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
    d_A = [0.0] * len(run.ids)
    for j in right:  # -log p, p = the mean over heads of their weights at the label's word(s)
        d_A[j] = -weight / (model.heads * p)
    d_x = pointer_backward(model.parameters, model.layers - 1, pointer, run.pronoun, d_A, grads)
    for layer in reversed(range(model.layers - 1)):
        d_x = layer_backward(model.parameters, layer, run.layers[layer], d_x, grads)
    grads.add_embedded(run.ids, d_x)
