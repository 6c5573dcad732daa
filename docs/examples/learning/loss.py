import math

# The loss of one sentence: minus the log of the probability given to the right person.
for p in [0.99, 0.9, 0.5, 1 / 7, 0.1, 0.01]:
    print(f"p(right) = {p:4.2f}   loss = {-math.log(p):5.2f}")
