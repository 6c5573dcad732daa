import math
from attention_py.learning import loss_and_gradients

def p_right(m):
    return m.read(s).probabilities[s.label]

loss, correct, grads = loss_and_gradients(model, [s])  # one sentence, every gradient
print(f"before: p({s.referent}) = {p_right(model):.3f}, loss = {loss:.3f}")

def size(names):
    return math.sqrt(sum(g * g for name in names for row in grads[name] for g in row))

groups = {"embeddings E and P": ["E", "P"],
          "layer 1 (W_Q, W_K, W_V, W_O)": [n for n in grads if n.startswith("layer0.")],
          "layer 2 W_Q": ["layer1.head0.W_Q"],
          "layer 2 W_K": ["layer1.head0.W_K"]}
for label, names in groups.items():
    print(f"  size of the gradient, {label:<29} {size(names):.3f}")

def stepped(names, step=0.05):
    """A copy of the model after one plain step against the gradient, for these matrices only."""
    m = model.copy()
    for name in names:
        for row, grad_row in zip(m.parameters[name], grads[name]):
            for j, g in enumerate(grad_row):
                row[j] -= step * g
    return m

print(f"after a step of layer 2's W_Q and W_K only: p({s.referent}) = {p_right(stepped(groups['layer 2 W_Q'] + groups['layer 2 W_K'])):.3f}")
print(f"after a step of layer 1 only:               p({s.referent}) = {p_right(stepped(groups['layer 1 (W_Q, W_K, W_V, W_O)'])):.3f}")
print(f"after a step of every matrix:               p({s.referent}) = {p_right(stepped(list(grads))):.3f}")
