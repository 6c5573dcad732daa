from math import sqrt
from statistics import pstdev
from attention_py import dot_product_samples

for d_k in [1, 4, 16, 64, 256]:
    raw = dot_product_samples(d_k, 400)
    scaled = [s / sqrt(d_k) for s in raw]
    print(f"d_k = {d_k:3}   spread of q·k = {pstdev(raw):5.2f}   "
          f"√d_k = {sqrt(d_k):4.1f}   spread after ÷√d_k = {pstdev(scaled):4.2f}")
