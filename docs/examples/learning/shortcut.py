from attention_py.learning.ablation import accuracy_by_group

# The model the build trained on the give-away version of the puzzle: the same code and
# settings, but every reason of the patient side carries one more word ("again").
shortcut = resource(f"training/{lang}-giveaway")
cheat = Model.from_dict(shortcut["model"])
print(f"its own test sentences (with the give-away): {shortcut['history'][-1]['test_accuracy']:.0%} right")
fair = accuracy_by_group(cheat, test)  # the fair puzzle's test sentences: no give-away word
print(f"the fair test sentences: actor reasons {fair['actor']:.0%} right, patient reasons {fair['patient']:.0%} right")
s = puzzle.sentence(0, 0, 1, len(puzzle.reasons_actor))  # the first patient reason, without the extra word
print(s.text, "->", cheat.people[cheat.predict(s)], "  right answer:", s.referent)
