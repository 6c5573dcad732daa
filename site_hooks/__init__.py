"""MkDocs hooks and Markdown extensions of the attention_py site (imported as ``site_hooks``)."""
