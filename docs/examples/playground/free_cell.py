# Import what you need; this line brings in the whole public API.
from attention_py import (MultiHeadAttention, SelfAttention, causal_mask, dot, matmul,
                          norm, scaled_dot_product_attention, softmax, softmax_rows,
                          transpose, weighted_average)

softmax([0.0, 1.0, 2.0])
