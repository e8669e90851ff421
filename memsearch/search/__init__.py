"""Search the index: four strategies, fused, grouped into ranked pointers.

:func:`search_index` (``pipeline.py``) runs the stages in order, each in a module of its own::

    filters.py         1. filter     the filters as a mask over chunk ids
    retrieve.py        2. retrieve   semantic, keyword, graph and time lists
    weigh.py           3. fuse       each list's weight for this query
    fuse.py                          weighted reciprocal-rank fusion x territory weights
    results.py         4. group, 5. normalise, and the explanation
    resonate.py        6. resonate   the signal: strong, thin or none

``state.py`` holds what the stages share (the query asked, what was found, the weights);
``places.py`` the order ties break in; ``language_notes.py`` what the semantic list says of languages.
"""

from memsearch.search.filters import dated_span, filter_mask
from memsearch.search.pipeline import search_index
from memsearch.search.state import STRATEGIES, QueryEmbedding

__all__ = ["STRATEGIES", "QueryEmbedding", "dated_span", "filter_mask", "search_index"]
