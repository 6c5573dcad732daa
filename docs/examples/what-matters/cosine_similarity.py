from attention_py import dot, norm

happy = [2.3, 0.9]
others = {"glad": [2.0, 1.4], "sad": [-2.3, -0.9], "car": [-0.9, 2.3]}

for name, vec in others.items():
    cosine = dot(happy, vec) / (norm(happy) * norm(vec))
    print(f"happy · {name:<4}  dot = {dot(happy, vec):5.2f}   cosine = {cosine:5.2f}")
