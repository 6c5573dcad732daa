from attention_py import softmax

scores = [2.0, 1.0, 0.5]
for scale in [0.25, 1, 4]:
    print(f"scale {scale:<4}", [round(w, 3) for w in softmax(scores, scale=scale)])
