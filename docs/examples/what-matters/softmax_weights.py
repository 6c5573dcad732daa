from attention_py import softmax

weights = softmax([1.5, 2.0, 3.0])
print("weights:", [f"{w:.1%}" for w in weights])
print("sum:", sum(weights))
