"""The figures of the article "attention as information flow" (docs/<lang>/information-flow.md)."""
