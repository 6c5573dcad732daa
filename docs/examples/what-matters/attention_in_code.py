from math import sqrt
from attention_py import SelfAttention, dot, matmul, scaled_dot_product_attention, softmax_rows

def attention(Q, K, V):
    """softmax(Q K^T / sqrt(d_k)) V, one step per line. Rows are tokens."""
    d_k = len(K[0])
    scores = [[dot(q, k) / sqrt(d_k) for k in K] for q in Q]  # Q K^T / sqrt(d_k)
    weights = softmax_rows(scores)                              # every row sums to 1
    return matmul(weights, V), weights                          # rows: weighted averages of V

def close(A, B):
    return all(abs(a - b) < 1e-12 for ra, rb in zip(A, B) for a, b in zip(ra, rb))

# Three tokens with d_k = 2. The values are one-hot, so each output row
# is exactly the weights that token gives to the three tokens.
Q = [[2.0, 0.0], [0.0, 2.0], [1.0, 1.0]]
K = [[2.0, 0.0], [0.0, 2.0], [1.0, 1.0]]
V = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]

output, weights = attention(Q, K, V)
for i, row in enumerate(output):
    print(f"token {i}:", "  ".join(f"{w:.2f}" for w in row))
print("matches scaled_dot_product_attention:", close(output, scaled_dot_product_attention(Q, K, V)[0]))

# A layer owns W_Q, W_K, W_V (here from a fixed seed) and projects X itself.
layer = SelfAttention(d_model=4, d_k=3, seed=7)
X = [[1.0, 0.0, 1.0, 0.0],
     [0.0, 1.0, 0.0, 1.0],
     [1.0, 1.0, 0.0, 0.0],
     [0.0, 0.0, 1.0, 1.0]]
out, w = layer(X)
print("layer output matches attention(X W_Q, X W_K, X W_V):",
      close(out, attention(matmul(X, layer.W_Q), matmul(X, layer.W_K), matmul(X, layer.W_V))[0]))
print("output shape:", len(out), "tokens ×", len(out[0]), "numbers")
