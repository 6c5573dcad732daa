from attention_py import SelfAttention, scaled_dot_product_attention, softmax_rows

# Three tokens with d_k = 2. The values are one-hot, so each output row
# is exactly the weights that token gives to the three tokens.
Q = [[2.0, 0.0], [0.0, 2.0], [1.0, 1.0]]
K = [[2.0, 0.0], [0.0, 2.0], [1.0, 1.0]]
V = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]

output, weights = scaled_dot_product_attention(Q, K, V)
for i, row in enumerate(output):
    print(f"token {i}:", "  ".join(f"{w:.2f}" for w in row))

# A layer owns W_Q, W_K, W_V (here from a fixed seed), projects X itself
# and keeps the matrices of its last call: Q, K, V, scores, weights.
layer = SelfAttention(d_model=4, d_k=3, seed=7)
X = [[1.0, 0.0, 1.0, 0.0],
     [0.0, 1.0, 0.0, 1.0],
     [1.0, 1.0, 0.0, 0.0],
     [0.0, 0.0, 1.0, 1.0]]
out, w = layer(X)
print("scores of token 0: ", "  ".join(f"{s:5.2f}" for s in layer.scores[0]))
print("weights of token 0:", "  ".join(f"{p:5.2f}" for p in layer.weights[0]))
print("the weights are the softmax of the scores:", softmax_rows(layer.scores) == layer.weights)
print("output shape:", len(out), "tokens ×", len(out[0]), "numbers")
