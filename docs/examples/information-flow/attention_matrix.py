import math
from attention_py import matmul, transpose, softmax_rows

scores = matmul(layer.Q, transpose(layer.K))
show("scores Q K^T", scores)
show("attention matrix A = softmax(Q K^T / sqrt(d_k))", W)
print("row sums:", [round(sum(row), 6) for row in W])
softmax_rows(scores, scale=1 / math.sqrt(layer.d_k)) == W
