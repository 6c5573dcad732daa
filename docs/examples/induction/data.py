import random

from attention_py.learning import CopyTask

task = CopyTask()
rng = random.Random(4)
for _ in range(5):
    s = task.sequence(rng)
    letters = [task.vocabulary[i] for i in s.ids]
    before, segment, rest = letters[: s.first], letters[s.first : s.second], letters[s.second :]
    print(f"{' '.join(before):>17} | {' '.join(segment)} | {' '.join(rest)}")
    print(f"{'':17}   segment of {s.size}: positions {s.copied.start} to {s.copied.stop - 1} can be copied")
