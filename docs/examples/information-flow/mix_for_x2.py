i = 1  # x2 (Python counts from 0)
total = [0.0, 0.0]
for j, (w, v) in enumerate(zip(W[i], layer.V)):
    part = [w * x for x in v]
    total = [t + p for t, p in zip(total, part)]
    print(f"{w:.2f} * v{j + 1} = [{part[0]:6.3f}, {part[1]:6.3f}]")
print(f"sum         = [{total[0]:6.3f}, {total[1]:6.3f}]")
print(f"layer out   = [{out[i][0]:6.3f}, {out[i][1]:6.3f}]")
