from attention_py import SelfAttention

X = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
head = SelfAttention(d_model=2, d_k=2, seed=3)
output, weights = head(X)

for name, rows in [("Q", head.Q), ("K", head.K), ("V", head.V), ("weights", weights)]:
    print(name)
    for row in rows:
        print("   ", [round(x, 2) for x in row])
