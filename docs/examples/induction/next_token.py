import math

from attention_py.learning import CopyTask
from attention_py.learning.next_token import NextTokenModel

task = CopyTask()  # 16 letters from a, b, ..., t
model = NextTokenModel.initial(task.vocabulary, task.length, 0, d_model=16, layers=2, heads=1)
shapes = dict(model.shapes())
print(sum(rows * cols for rows, cols in shapes.values()), "weights in", len(shapes), "matrices, among them:")
for name in ("E", "P", "layer0.head0.W_Q", "layer0.W_O", "W_U"):
    print(f"  {name:<17} {shapes[name][0]} x {shapes[name][1]}")

letters = "pdlahcjeahcjeahc"
run = model.forward(model.ids_of(list(letters)))
print(len(run.probabilities), "positions, each with a guess over", len(run.probabilities[0]), "letters")
best = model.guesses(run)
print("guesses before training:", "".join(task.vocabulary[i] for i in best))
print(f"loss before training: {model.loss(run):.3f} (a uniform guess: ln 20 = {math.log(20):.3f})")
