first, second = W[1][0], W[1][1]
print("erase and rescale:", [round(first / (first + second), 3), round(second / (first + second), 3)])
print("causal mask:      ", [round(W_c[1][0], 3), round(W_c[1][1], 3)])
