from attention_py import MultiHeadAttention

MultiHeadAttention(d_model=6, n_heads=4)
