"""attention_py: the attention mechanism of Transformers in plain, readable Python.

Standard library only, so the same code runs in CPython and in a browser through Pyodide.
Matrices are lists of rows; anything with ``.tolist()`` (a numpy array) is accepted too.

    >>> from attention_py import softmax
    >>> [round(100 * p, 1) for p in softmax([1.5, 2.0, 3.0])]
    [14.0, 23.1, 62.9]
"""

from .attention import causal_mask, scaled_dot_product_attention, weighted_average
from .linalg import dot, matmul, norm, transpose
from .modules import MultiHeadAttention, SelfAttention
from .rng import dot_product_samples
from .softmax import softmax, softmax_rows

__version__ = "0.1.0"

__all__ = [
    "MultiHeadAttention",
    "SelfAttention",
    "causal_mask",
    "dot",
    "dot_product_samples",
    "matmul",
    "norm",
    "scaled_dot_product_attention",
    "softmax",
    "softmax_rows",
    "transpose",
    "weighted_average",
]
