from attention_py import dot, softmax, weighted_average

x1, x2, x3 = [1.0, 0.5], [0.5, 1.0], [-1.0, 0.5]
tokens = {"x1": x1, "x2": x2, "x3": x3}

scores = [dot(x1, x) for x in tokens.values()]
weights = softmax(scores)
for name, s, w in zip(tokens, scores, weights):
    print(f"x1 · {name} = {s:5.2f}   weight {w:6.1%}")

mix = weighted_average(weights, list(tokens.values()))
print("output for x1:", [round(v, 3) for v in mix])
