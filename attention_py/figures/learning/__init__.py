"""The figures of the learning article (docs/<lang>/learning.md), their shared drawing
(``views``) and ``train_live``'s application (``training_app``)."""
