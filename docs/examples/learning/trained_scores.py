import math
from attention_py import dot, matmul, softmax

W_Q, W_K, _ = model.head(1, 0)  # layer 2's trained matrices (layers count from 0 in code)

def layer2_from_the_pronoun(s):
    """Layer 2's attention from the pronoun, computed by hand from W_Q and W_K."""
    x = model.forward(s, every_row=True).pointer.x  # what layer 2 reads: a row per word
    q = matmul([x[s.pronoun]], W_Q)[0]               # the pronoun's query
    people = list(s.people)                          # layer 2 may point only at the two people
    scores = [dot(q, k) / math.sqrt(len(q)) for k in matmul([x[j] for j in people], W_K)]
    weights = softmax(scores)
    print("sentence:", s.text)
    print("  answer:", puzzle.people[model.predict(s)], "  right answer:", s.referent)
    for j, score, weight in zip(people, scores, weights):
        print(f"  q·k/√d_k = {score:5.1f}   weight {weight:6.1%}   {s.tokens[j]}")
    same = model.read(s).attention[1][0][s.pronoun]
    print("  the model's own weights agree:", all(abs(w - same[j]) < 1e-12 for j, w in zip(people, weights)))

test = puzzle.split(seed=data["settings"]["split_seed"]).test  # training never showed these
for points_at in ("actor", "patient"):
    layer2_from_the_pronoun(next(s for s in test if s.points_at == points_at))
