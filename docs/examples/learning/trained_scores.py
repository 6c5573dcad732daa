import math
from attention_py import dot, matmul, softmax

W_Q, W_K, W_V = model.head(1, 0)  # layer 2's trained matrices (layers count from 0 in code)

def layer2_from_the_pronoun(s):
    """Layer 2's attention from the pronoun, computed by hand from W_Q and W_K."""
    x = model.forward(s, every_row=True).layers[1].x  # what layer 2 reads: a row per word
    q = matmul([x[s.pronoun]], W_Q)[0]                 # the pronoun's query
    scores = [dot(q, k) / math.sqrt(len(q)) for k in matmul(x, W_K)]  # against every key
    weights = softmax(scores)
    print("sentence:", s.text)
    print("  answer:", puzzle.people[model.predict(s)], "  right answer:", s.referent)
    for word, score, weight in zip(s.tokens, scores, weights):
        print(f"  q·k/√d = {score:5.1f}   weight {weight:6.1%}   {word}")
    same = model.read(s).attention[1][0][s.pronoun]
    print("  the model's own weights agree:", all(abs(a - b) < 1e-12 for a, b in zip(weights, same)))

_, held_out = puzzle.split(seed=data["settings"]["split_seed"])  # sentences training never showed
for points_at in ("actor", "patient"):
    layer2_from_the_pronoun(next(s for s in held_out if s.points_at == points_at))
