from attention_py import causal_mask

for row in causal_mask(3):
    print(" ".join("x" if keep else "." for keep in row))

out_c, W_c = layer(X, causal=True)
show("causal attention matrix", W_c)
