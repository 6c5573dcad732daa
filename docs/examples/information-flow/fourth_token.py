x4 = [0.0, -1.0]
out_4, W_4 = layer(X + [x4], causal=True)
show("four tokens, causal", W_4)
print("first three rows unchanged:", [row[:3] for row in W_4[:3]] == W_c)
