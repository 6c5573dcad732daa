from attention_py import softmax
softmax([1.5, 2.0, 3.0])
