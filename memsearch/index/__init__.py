"""The on-disk index: vectors, keyword postings, graph and the caches behind them."""
