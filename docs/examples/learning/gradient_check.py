# Check one number of the backward pass by nudging its weight a little both ways:
# (loss(w + h) - loss(w - h)) / 2h should equal the gradient the chain rule gave.
name, i, j, h = "layer1.head0.W_K", 3, 5, 1e-6
W = model.parameters[name]
w = W[i][j]
W[i][j] = w + h
up = loss_and_gradients(model, [s])[0]
W[i][j] = w - h
down = loss_and_gradients(model, [s])[0]
W[i][j] = w  # put it back
print(f"finite difference: {(up - down) / (2 * h):.8f}")
print(f"backward pass:     {grads[name][i][j]:.8f}")
