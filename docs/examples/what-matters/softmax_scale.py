from attention_py import softmax

def percents(scores, scale=1.0):
    return "  ".join(f"{w:6.1%}" for w in softmax(scores, scale=scale))

print("[1, 2, 3]               ", percents([1, 2, 3]))
print("[10, 20, 30]            ", percents([10, 20, 30]))
print("[10, 20, 30], scale 0.1 ", percents([10, 20, 30], scale=0.1))
