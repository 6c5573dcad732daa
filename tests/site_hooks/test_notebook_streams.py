"""A cell's printed output is one block on every build (site_hooks/content/notebooks.py)."""

from __future__ import annotations

from site_hooks.content.notebooks import joined_streams

PROMPT = '<div class="jp-OutputPrompt jp-OutputArea-prompt"></div>\n'
RESULT_PROMPT = '<div class="jp-OutputPrompt jp-OutputArea-prompt">Out[3]:</div>\n'


def block(text: str, prompt: str = PROMPT, mime: str = "text/plain") -> str:
    return (
        f'<div class="jp-OutputArea-child">\n{prompt}'
        f'<div class="jp-RenderedText jp-OutputArea-output" data-mime-type="{mime}" tabindex="0">\n'
        f"<pre>{text}</pre>\n</div>\n</div>\n"
    )


def test_printed_blocks_in_a_row_become_one_whatever_the_kernel_flushed():
    slow = block("a\n") + block("b\n") + block("c\n")
    fast = block("a\nb\n") + block("c\n")
    assert joined_streams(slow) == joined_streams(fast) == block("a\nb\nc\n")


def test_a_result_an_error_stream_and_separate_cells_stay_apart():
    result = block("42", RESULT_PROMPT)
    stderr = block("warning\n", mime="application/vnd.jupyter.stderr")
    apart = block("a\n") + result + block("b\n") + stderr + block("c\n") + "<div>next cell</div>\n" + block("d\n")
    assert joined_streams(apart) == apart
