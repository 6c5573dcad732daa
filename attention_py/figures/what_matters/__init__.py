"""The figures of the article "how each word decides what matters" (docs/<lang>/what-matters.md)."""
