from attention_py.learning import Model, Puzzle

# The English puzzle (docs/puzzles/en.yml): a template and the words for its slots.
puzzle = Puzzle.from_dict({
    "sentence": "the {first} {action} the {second} because {pronoun} {reason}",
    "pronoun": "she",
    "people": ["teacher", "student", "nurse", "doctor", "manager", "driver", "neighbour"],
    "actions": ["yelled at", "snapped at", "glared at", "shouted at"],
    "reasons": {"actor": ["was angry", "was impatient", "was tired", "was stressed", "was grumpy"],
                "patient": ["was rude", "was late", "was noisy", "was lazy", "was careless"]},
})
train, held_out = puzzle.split(seed=0)
print(len(puzzle.sentences()), "sentences:", len(train), "for training,", len(held_out), "held out")

s = puzzle.sentence("teacher", "yelled at", "student", "was angry")
model = Model.initial(puzzle, seed=0)  # random weights: nothing learned yet
reading = model.read(s)
print(s.text)
for person, p in zip(puzzle.people, reading.probabilities):
    print(f"  {person:<10} {p:.3f}")
print("answer:", puzzle.people[reading.prediction], "  right answer:", s.referent)
