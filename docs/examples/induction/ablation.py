from attention_py.learning import CopyTask
from attention_py.learning.induction import CopySettings, copy_scores
from attention_py.learning.next_token import Cut, NextTokenModel
from attention_py.resources import resource

run = resource("induction/run")  # what the build trained: the model of the figures
model = NextTokenModel.from_dict(run["model"])
previous = run["circuit"]["previous"][0]  # the head the build named by its score
induction = run["circuit"]["induction"]  # (numbered from 0)
test = CopyTask().sequences(CopySettings().test_seed, 16)  # the first 16 test sequences

# A cut switches one path off: a head's output (heads_off: (layer, head), layers from 0),
# or what layer 2's keys, queries or values read from layer 1 (they read the embeddings only).
cuts = {
    "nothing": Cut(),
    f"layer 1 head {previous + 1} off (previous-token)": Cut(heads_off=frozenset({(0, previous)})),
    "layer 2 induction head off": Cut(heads_off=frozenset((1, h) for h in induction)),
    "layer 2 keys cut (no K-composition)": Cut(keys_from_embedding=frozenset({1})),
    "layer 2 queries cut": Cut(queries_from_embedding=frozenset({1})),
    "layer 2 values cut": Cut(values_from_embedding=frozenset({1})),
}
print(f"{'switched off':<42} copied letters   others")
for label, cut in cuts.items():
    scores = copy_scores(model, test, cut)
    print(f"{label:<42} {scores['copied_accuracy']:>13.0%} {scores['other_accuracy']:>8.0%}")
