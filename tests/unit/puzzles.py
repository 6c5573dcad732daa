"""Small puzzles the unit tests train on (standard library only: read inside Pyodide too)."""

SIX = {  # six people, two actions, three reasons a side: a few seconds to learn
    "sentence": "the {first} {action} the {second} because {pronoun} {reason}",
    "pronoun": "she",
    "people": ["teacher", "student", "nurse", "doctor", "driver", "pilot"],
    "actions": ["yelled at", "glared at"],
    "reasons": {"actor": ["was angry", "was tired", "was grumpy"], "patient": ["was rude", "was late", "was noisy"]},
}
