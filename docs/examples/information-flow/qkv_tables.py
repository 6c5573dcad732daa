from attention_py import SelfAttention

X = [x1, x2, x3]
layer = SelfAttention(d_model=2, d_k=2, seed=2)
out, W = layer(X)

def show(title, M):
    print(title)
    for row in M:
        print("   " + "  ".join(f"{v:6.2f}" for v in row))

show("Q = X W_Q", layer.Q)
show("K = X W_K", layer.K)
show("V = X W_V", layer.V)
