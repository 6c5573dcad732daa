import math
from attention_py.learning import Model, Puzzle
from attention_py.resources import page_language, resource

lang = page_language()  # this page's language; the build trained one model per language of the site
data = resource(f"training/{lang}")  # the site's file assets/training/<lang>.json
puzzle = Puzzle.from_dict(data["puzzle"])
start = Model.from_dict(data["checkpoints"][0]["model"])  # step 0: the random weights
model = Model.from_dict(data["model"])                     # after the last step

def size(W):
    return math.sqrt(sum(v * v for row in W for v in row))

print(f"{data['steps']} steps of training; each matrix, and how far training moved it:")
for name, W in model.parameters.items():
    W0 = start.parameters[name]
    change = [[a - b for a, b in zip(row, row0)] for row, row0 in zip(W, W0)]
    print(f"  {name:<17} {len(W):>2} x {len(W[0]):<2}  moved {size(change) / size(W0):4.0%} of its size")
print("numbers learned in all:", sum(len(W) * len(W[0]) for W in model.parameters.values()))
