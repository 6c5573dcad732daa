from attention_py.learning import Model, Puzzle
from attention_py.resources import MissingResource, page_language, resource

try:  # this page's puzzle: docs/puzzles/<lang>.yml, as the site's build read it
    puzzle = Puzzle.from_dict(resource(f"training/{page_language()}")["puzzle"])
except MissingResource:  # outside the site (a downloaded notebook): the English puzzle, written out
    puzzle = Puzzle.from_dict({
        "sentence": "the {first} {action} the {second} because {pronoun} {reason}",
        "pronoun": "she",
        "people": ["teacher", "student", "nurse", "doctor", "manager", "driver", "neighbour"],
        "actions": ["yelled at", "snapped at", "glared at", "shouted at"],
        "reasons": {"actor": ["was angry", "was impatient", "was tired", "was stressed", "was grumpy"],
                    "patient": ["was rude", "was late", "was noisy", "was lazy", "was careless"]},
    })
print("template:", puzzle.template)
train, validation, test = puzzle.split(seed=0)
print(len(puzzle.sentences()), "sentences:", len(train), "for training,", len(validation), "for validation,",
      len(test), "for the test")
example = test[0]  # a test sentence: its reason never points at its referent in training
print("a test sentence:", example.text, "->", example.referent)
reason = puzzle.shown(example.reason)  # as the sentence writes it (Chinese: no spaces)
print(f"  training sentences where '{reason}' points at the {example.referent}:",
      sum(t.reason == example.reason and t.referent == example.referent for t in train))
print(f"  training sentences with '{reason}' and the {example.referent} in them:",
      sum(t.reason == example.reason and example.label in (t.first, t.second) for t in train))

s = puzzle.sentence(0, 0, 1, 0)  # the first two people, the first action, the first reason
model = Model.initial(puzzle, seed=1)  # random weights: nothing learned yet
reading = model.read(s)
print(s.text)
for person, p in zip(puzzle.people, reading.probabilities):
    print(f"  {person:<10} {p:.3f}")  # 0 for the people who are not in the sentence
print("answer:", puzzle.people[reading.prediction], "  right answer:", s.referent)
