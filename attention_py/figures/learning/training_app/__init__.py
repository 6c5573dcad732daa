"""``train_live``'s application: a training run in the page (``run``), the reader's own
puzzle (``own_puzzle``, ``own_view``), the shelf of kept runs (``shelf``, ``shelf_view``)
and the checks of a run file before it is read (``reader_json``)."""
