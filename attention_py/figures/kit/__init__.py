"""The figures' kit: what every figure is made of, and the views two articles share.

The figure classes and the running figures' sessions (``figure``, ``live``), the state
(``state``), the strings and numbers of a language (``strings``, ``format``), the markup
(``html``, ``svg``, ``controls``, ``matrix``, ``chart``) and the example sentence the first two
articles draw (``sentence``). The kit imports no article's folder: a view one article
uses lives in that article's folder, a view two articles use lives here.
"""
