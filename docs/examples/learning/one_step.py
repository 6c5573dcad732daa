import math
from attention_py.learning import loss_and_gradients

def pronoun_row(model, layer):
    """How the pronoun shares its attention in one layer (1 or 2)."""
    row = model.read(s).attention[layer - 1][0][s.pronoun]
    return "  ".join(f"{t} {w:.2f}" for t, w in zip(s.tokens, row))

def p_right(model):
    return model.read(s).probabilities[s.label]

print(f"before: p(teacher) = {p_right(model):.3f}, loss = {-math.log(p_right(model)):.3f}")
print("  layer 2:", pronoun_row(model, 2))

loss, correct, grads = loss_and_gradients(model, [s])   # one sentence, every gradient
for name in ("W_Q", "W_K", "W_V"):                      # how hard each matrix of layer 2 is pushed
    size = math.sqrt(sum(g * g for row in grads[f"layer1.head0.{name}"] for g in row))
    print(f"  layer 2, size of the gradient of {name}: {size:.3f}")

step = 0.05
for name, W in model.parameters.items():        # one plain step against the gradient
    for row, grad_row in zip(W, grads[name]):
        for j, g in enumerate(grad_row):
            row[j] -= step * g

print(f"after:  p(teacher) = {p_right(model):.3f}, loss = {-math.log(p_right(model)):.3f}")
print("  layer 2:", pronoun_row(model, 2))
