"""attention_py.learning: a tiny Transformer that learns the pronoun puzzle, in plain Python.

    from attention_py.learning import Puzzle, Model, Trainer, train_with_checkpoints

    puzzle = Puzzle.from_dict(data)          # data: the parsed docs/puzzles/<lang>.yml
    trainer = Trainer(puzzle, seed=0)
    trainer.run(200)                         # 200 Adam steps
    trainer.model.read(puzzle.sentence("teacher", "yelled at", "student", "was rude"))
    Trainer(puzzle, seed=0, positions="none")  # the same recipe without positions (or
                                               # "sinusoidal"; causal=True, layers=, heads=, d_model=)

layer.py     the attention layer both models are made of: its forward pass and, beside it, its
             backward pass (gradients derived by hand), with the residual connection
gradients.py where a batch's gradients are collected (Gradients), for either model
parameters.py  ParameterModel, both models' base: shapes, drawing from a seed, saving, token ids
tasks/       what the models learn: the pronoun puzzle (puzzle.py), its form cues (cues.py),
             the copy task (copying.py)
model.py     the puzzle model: embeddings + positions (learned, sinusoidal or none), attention
             layers (optionally causal), and the answer: the pronoun points at a person
pointer.py   its read-out: the last layer points at a person (forward and backward)
backward.py  its gradients: the answer's line, then pointer.py's and layer.py's backward passes
optim.py     Adam
train.py     Training (the resumable loop for any model and Objective), Trainer (the puzzle's)
             and train_with_checkpoints
next_token.py  a language model of the same layers: causal, it predicts every next token
unembedding.py its read-out: a score for every token, and the loss (forward and backward)
induction.py   its trainer on the copy task (CopyTrainer), and the induction-head measures
               and ablations (head_scores, copy_scores, circuit)
"""

from .backward import loss_and_gradients
from .model import Model, Reading
from .optim import Adam
from .tasks.copying import CopyTask
from .tasks.puzzle import Puzzle, Sentence
from .train import PuzzleSettings, Trainer, train_with_checkpoints

__all__ = [
    "Adam",
    "CopyTask",
    "Model",
    "Puzzle",
    "PuzzleSettings",
    "Reading",
    "Sentence",
    "Trainer",
    "loss_and_gradients",
    "train_with_checkpoints",
]
