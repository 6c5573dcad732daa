from attention_py.learning.ablation import Ablation, accuracy_by_group

# Switch one path of layer 1 off and measure the test accuracy per group of reason.
# Roles: "first", "second" (the two people), "pronoun", "reason" (its words), "other".
everyone = ("first", "second", "pronoun", "reason", "other")
cuts = {
    "nothing switched off": Ablation(),
    "nobody may look at the reason": Ablation(blocked=tuple((0, who, "reason") for who in everyone)),
    "the pronoun may not look at the reason": Ablation(blocked=((0, "pronoun", "reason"),)),
    "the first person may not look at it": Ablation(blocked=((0, "first", "reason"),)),
    "the second person may not look at it": Ablation(blocked=((0, "second", "reason"),)),
    "only the pronoun may look at it": Ablation(
        blocked=tuple((0, who, "reason") for who in everyone if who != "pronoun")),
    "only the first person may look at it": Ablation(
        blocked=tuple((0, who, "reason") for who in everyone if who != "first")),
    "only the second person may look at it": Ablation(
        blocked=tuple((0, who, "reason") for who in everyone if who != "second")),
}
print(f"layer 1 of the {lang} model, test accuracy     actor reasons   patient reasons")
for label, cut in cuts.items():
    accuracy = accuracy_by_group(model, test, cut)
    print(f"  {label:<40} {accuracy['actor']:>8.0%} {accuracy['patient']:>16.0%}")
