from attention_py import softmax

print(softmax([1.0, 2.0, 3.0]))
print(softmax([1.0, 2.0, 3.0], mask=[True, True, False]))
