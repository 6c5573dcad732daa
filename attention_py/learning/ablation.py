"""Ablations: switch one path of a trained model off and see what its answers lose.

Reading attention weights suggests how a model works; an ablation tests it. "The second
person reads the reason in layer 1" predicts that, with that attention removed, the model
can no longer tell the two groups of reasons apart. ``accuracy_by_group`` measures it:

    cut = Ablation(blocked=((0, "second", "reason"),))   # layer 1: the second person may not look at the reason
    accuracy_by_group(model, test, cut)                   # {"actor": ..., "patient": ...}

Tokens are named by their *role* in the sentence (``roles``): "first" and "second" (the two
people), "pronoun", "reason" (the reason's words) and "other" (every other word). Layers
count from 0, as in the code (layer 0 is the article's "layer 1").

- ``blocked`` (layer, query role, key role): in that layer, the query's attention to those
  keys is removed and its row renormalised over the keys that remain;
- ``silenced`` (layer, role): in that layer, those tokens' update is dropped: their vectors
  pass the layer unchanged, so whatever they gathered there reaches no later layer.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import Model
from .tasks.puzzle import Sentence

ROLES = ("first", "second", "pronoun", "reason", "other")


@dataclass(frozen=True)
class Ablation:
    blocked: tuple[tuple[int, str, str], ...] = ()
    silenced: tuple[tuple[int, str], ...] = ()

    def __post_init__(self) -> None:
        for layer, *roles in (*self.blocked, *self.silenced):
            if not isinstance(layer, int) or layer < 0:
                raise ValueError(f"a layer is counted from 0, got {layer!r}")
            for role in roles:
                if role not in ROLES:
                    raise ValueError(f"unknown role {role!r}; roles are {', '.join(ROLES)}")

    def allowed(self, layer: int, s: Sentence, rows: list[int]) -> list[list[bool]] | None:
        """Which keys each query row may look at in ``layer`` (None: every key)."""
        cuts = [(q, k) for at, q, k in self.blocked if at == layer]
        if not cuts:
            return None
        role = roles(s)
        allowed = [[(role[i], role[j]) not in cuts for j in range(len(role))] for i in rows]
        for i, row in zip(rows, allowed):
            if not any(row):
                raise ValueError(f"the ablation leaves the {role[i]} no word to look at in layer {layer}")
        return allowed

    def kept(self, layer: int, s: Sentence) -> list[bool]:
        """Per token: whether its update in ``layer`` is kept."""
        off = {r for at, r in self.silenced if at == layer}
        return [r not in off for r in roles(s)]


def roles(s: Sentence) -> list[str]:
    """The role of each token of ``s``: first, second, pronoun, reason (the words after the
    pronoun) or other."""
    named = {s.people[0]: "first", s.people[1]: "second", s.pronoun: "pronoun"}
    return [named.get(j, "reason" if j > s.pronoun else "other") for j in range(len(s.tokens))]


def accuracy_by_group(model: Model, sentences: list[Sentence], ablation: Ablation | None = None) -> dict[str, float]:
    """Accuracy over ``sentences``, per group of reason ("actor", "patient"), with ``ablation`` applied."""
    right: dict[str, int] = {}
    seen: dict[str, int] = {}
    for s in sentences:
        seen[s.points_at] = seen.get(s.points_at, 0) + 1
        right[s.points_at] = right.get(s.points_at, 0) + (model.predict(s, ablation=ablation) == s.label)
    return {group: right[group] / seen[group] for group in sorted(seen)}
