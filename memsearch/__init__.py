"""memsearch: where does the memory I am reaching for live?"""

from memsearch.config import Settings
from memsearch.errors import MemsearchError
from memsearch.models import Chunk, Health, Result, SearchResponse, Territory

__all__ = ["Chunk", "Health", "MemsearchError", "Result", "SearchResponse", "Settings", "Territory"]
__version__ = "0.1.0"
