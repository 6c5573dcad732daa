"""Adam: gradient descent with a running mean of each gradient and a per-number step size.

For every number w of the model, with gradient g at step t:

    m <- β1 m + (1 - β1) g          the gradient's running mean (momentum)
    v <- β2 v + (1 - β2) g²         its running mean square
    w <- w - lr · m̂ / (√v̂ + ε)      m̂ = m / (1 - β1^t), v̂ = v / (1 - β2^t): early steps corrected

so each number moves by about ``lr`` at most, whatever the scale of its gradient.

With ``warmup`` = W > 0 the step size grows linearly over the first W steps, lr · t / W, then
stays at lr: the first gradients of a random model are large and point anywhere, and a full
step on them can throw it far from where it learns.
"""

from __future__ import annotations

import math

Matrix = list[list[float]]


class Adam:
    def __init__(
        self,
        parameters: dict[str, Matrix],
        lr: float = 0.01,
        beta1: float = 0.9,
        beta2: float = 0.999,
        eps: float = 1e-8,
        warmup: int = 0,
    ) -> None:
        if warmup < 0 or not (0 <= beta1 < 1 and 0 <= beta2 < 1):
            raise ValueError(f"Adam needs warmup >= 0 and betas in [0, 1), got {warmup}, ({beta1}, {beta2})")
        self.parameters = parameters  # updated in place
        self.lr, self.beta1, self.beta2, self.eps, self.warmup = lr, beta1, beta2, eps, warmup
        self.t = 0
        self.m = {name: [[0.0] * len(row) for row in w] for name, w in parameters.items()}
        self.v = {name: [[0.0] * len(row) for row in w] for name, w in parameters.items()}

    def step(self, grads: dict[str, Matrix]) -> None:
        """One update of every parameter from its gradient ``grads[name]``."""
        self.t += 1
        b1, b2, eps = self.beta1, self.beta2, self.eps
        c1, c2 = 1 - b1**self.t, 1 - b2**self.t  # the bias corrections
        lr = self.lr * min(1.0, self.t / self.warmup) if self.warmup else self.lr
        for name, W in self.parameters.items():
            for w, g, m, v in zip(W, grads[name], self.m[name], self.v[name]):
                for j, gj in enumerate(g):
                    m[j] = b1 * m[j] + (1 - b1) * gj
                    v[j] = b2 * v[j] + (1 - b2) * gj * gj
                    w[j] -= lr * (m[j] / c1) / (math.sqrt(v[j] / c2) + eps)
