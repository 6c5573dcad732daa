"""What the learning package's models learn, apart from the models themselves.

puzzle.py    the pronoun puzzle: sentences built from a language's file, their answers, the split
cues.py      the form cues that would give a puzzle's answer away without its meaning
copying.py   the copy task: random tokens with a segment that comes again (induction heads)
"""
