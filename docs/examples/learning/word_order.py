from attention_py import SelfAttention

# Three made-up word vectors (4 numbers each) and one untrained layer.
e = {"teacher": [1.0, 0.2, 0.0, 0.5],
     "yelled": [0.0, 1.0, 0.3, 0.0],
     "student": [0.9, 0.0, 0.4, -0.5]}
layer = SelfAttention(d_model=4, d_k=4, seed=0)

def outputs(words, positions=None):
    X = [list(e[w]) for w in words]
    if positions:  # x_i = e(word_i) + p_i
        X = [[a + b for a, b in zip(x, p)] for x, p in zip(X, positions)]
    out, _ = layer(X)
    return {w: [round(v, 3) for v in row] for w, row in zip(words, out)}

one = ["teacher", "yelled", "student"]
two = ["student", "yelled", "teacher"]
print("without positions, teacher:", outputs(one)["teacher"], outputs(two)["teacher"])
print("every word gets the same vector:", outputs(one) == outputs(two))

p = [[0.5, 0.0, 0.0, 0.0], [0.0, 0.5, 0.0, 0.0], [0.0, 0.0, 0.5, 0.0]]
print("with positions, teacher:   ", outputs(one, p)["teacher"], outputs(two, p)["teacher"])
print("every word gets the same vector:", outputs(one, p) == outputs(two, p))
