"""The figures of the induction article (docs/<lang>/induction.md) and their shared
drawing (``views``)."""
