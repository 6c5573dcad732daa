from attention_py import MultiHeadAttention

X4 = [[1.0, 0.5, 0.0, 1.0],
      [0.5, 1.0, 1.0, 0.0],
      [-1.0, 0.5, 0.5, 0.5]]
mha = MultiHeadAttention(d_model=4, n_heads=2, seed=0)
out_mh, head_weights = mha(X4)

for h, Wh in enumerate(head_weights, start=1):
    show(f"head {h}: attention matrix", Wh)

def size(M):
    return f"{len(M)} x {len(M[0])}"

print("X:          ", size(X4))
for h, o in enumerate(mha.head_outputs, start=1):
    print(f"head {h} out: ", size(o))
print("concat:     ", size(mha.concat))
print("W_O:        ", size(mha.W_O))
print("output:     ", size(out_mh))
