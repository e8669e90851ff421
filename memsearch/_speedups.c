/* memsearch._speedups: the hottest loops of chunking, in C.
 *
 * Loops where the chunking stage spent much of its time: dict lookups and float additions one term
 * at a time as Python bytecode, and a file's words scanned twice by regular expressions. Each
 * function is the compiled twin of Python code that stays the reference, and the fallback where
 * no compiler was at hand:
 *
 *   raw_token_counts <-> Counter(memsearch.tokenize.raw_tokens(text))
 *   count_terms  <->  memsearch.tokenize.term_counts (after the raw tokens are counted)
 *   merge_terms  <->  memsearch.index.keyword_terms.keyword_weights + memsearch.index.keyword.pack_terms
 *   vocabulary_words <-> the two regex scans of memsearch.entities.vocabulary
 *   split_words  <->  memsearch.entities.extract.TOKEN_SPLIT_RE.split(line)
 *
 * They must give the same terms, in the same order, bit-identical weights and the same words:
 * tests/test_speedups.py holds them to it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>

/* counts[key] += n (from 0), for a dict of ints. */
static int add_count(PyObject *counts, PyObject *key, long n) {
    PyObject *old = PyDict_GetItemWithError(counts, key);
    if (old != NULL) {
        long had = PyLong_AsLong(old);
        if (had == -1 && PyErr_Occurred()) return -1;
        n += had;
    } else if (PyErr_Occurred()) {
        return -1;
    }
    PyObject *value = PyLong_FromLong(n);
    if (value == NULL) return -1;
    int failed = PyDict_SetItem(counts, key, value) < 0;
    Py_DECREF(value);
    return failed ? -1 : 0;
}

/* count_terms(raws: dict[str, int], expansions: dict[str, tuple[str, ...]], expand) -> dict[str, int]
 *
 * For each raw token (with its count) in order, its terms from `expansions` (or `expand(raw)` when
 * not there yet), each term's count summed: the order and the counts of
 * Counter(tokenize(text)). */
static PyObject *count_terms(PyObject *self, PyObject *args) {
    PyObject *raws, *expansions, *expand;
    if (!PyArg_ParseTuple(args, "O!O!O:count_terms", &PyDict_Type, &raws, &PyDict_Type, &expansions,
                          &expand))
        return NULL;
    PyObject *counts = PyDict_New();
    if (counts == NULL) return NULL;
    Py_ssize_t pos = 0;
    PyObject *raw, *n_obj;
    while (PyDict_Next(raws, &pos, &raw, &n_obj)) {
        long n = PyLong_AsLong(n_obj);
        if (n == -1 && PyErr_Occurred()) goto fail;
        PyObject *terms = PyDict_GetItemWithError(expansions, raw); /* borrowed */
        if (terms != NULL) {
            Py_INCREF(terms);
        } else {
            if (PyErr_Occurred()) goto fail;
            terms = PyObject_CallOneArg(expand, raw);
            if (terms == NULL) goto fail;
        }
        if (!PyTuple_Check(terms)) {
            Py_DECREF(terms);
            PyErr_SetString(PyExc_TypeError, "count_terms: an expansion must be a tuple of str");
            goto fail;
        }
        Py_ssize_t k = PyTuple_GET_SIZE(terms);
        for (Py_ssize_t t = 0; t < k; t++) {
            if (add_count(counts, PyTuple_GET_ITEM(terms, t), n) < 0) {
                Py_DECREF(terms);
                goto fail;
            }
        }
        Py_DECREF(terms);
    }
    return counts;
fail:
    Py_DECREF(counts);
    return NULL;
}

/* A growing list of terms with their running weights; `index` maps a term to its position. */
typedef struct {
    PyObject *index; /* dict: term -> int position */
    PyObject *terms; /* list, in first-seen order */
    double *weights;
    char *is_int; /* still a whole count (never had a neighbour's share added): Python kept an int */
    Py_ssize_t size, capacity;
} Merge;

static int merge_add(Merge *m, PyObject *term, double amount, int whole) {
    PyObject *known = PyDict_GetItemWithError(m->index, term);
    if (known != NULL) {
        Py_ssize_t i = PyLong_AsSsize_t(known);
        if (i == -1 && PyErr_Occurred()) return -1;
        m->weights[i] += amount;
        m->is_int[i] &= (char)whole;
        return 0;
    }
    if (PyErr_Occurred()) return -1;
    if (m->size == m->capacity) {
        Py_ssize_t capacity = m->capacity ? 2 * m->capacity : 64;
        double *weights = PyMem_Realloc(m->weights, capacity * sizeof(double));
        if (weights == NULL) return (PyErr_NoMemory(), -1);
        m->weights = weights;
        char *is_int = PyMem_Realloc(m->is_int, capacity);
        if (is_int == NULL) return (PyErr_NoMemory(), -1);
        m->is_int = is_int;
        m->capacity = capacity;
    }
    PyObject *position = PyLong_FromSsize_t(m->size);
    if (position == NULL) return -1;
    int failed = PyDict_SetItem(m->index, term, position) < 0 || PyList_Append(m->terms, term) < 0;
    Py_DECREF(position);
    if (failed) return -1;
    /* Python: get(term, 0.0) + share * count, and 0.0 + x == x for the non-negative x here. */
    m->weights[m->size] = amount;
    m->is_int[m->size] = (char)whole;
    m->size++;
    return 0;
}

static int merge_counts(Merge *m, PyObject *counts, double share, int whole) {
    if (!PyDict_Check(counts)) {
        PyErr_SetString(PyExc_TypeError, "merge_terms: term counts must be dicts");
        return -1;
    }
    Py_ssize_t pos = 0;
    PyObject *term, *count;
    while (PyDict_Next(counts, &pos, &term, &count)) {
        double c = PyFloat_AsDouble(count);
        if (c == -1.0 && PyErr_Occurred()) return -1;
        if (merge_add(m, term, whole ? c : share * c, whole) < 0) return -1;
    }
    return 0;
}

/* The length Python's float(sum(values)) gives: the same additions in the same order. */
static PyObject *merge_length(Merge *m) {
#if PY_VERSION_HEX < 0x030C0000
    /* 3.11's sum(): whole counts first as exact integers, then left to right in doubles; the
     * integers here are small, so one left-to-right pass in doubles is the same number. */
    double total = 0.0;
    for (Py_ssize_t i = 0; i < m->size; i++) total += m->weights[i];
    return PyFloat_FromDouble(total);
#else
    /* Later sum()s compensate float additions (one pass in doubles differed in ~30% of random
     * chunks on 3.12): ask sum() itself, with the types Python held (checked on 3.12 and 3.13). */
    PyObject *values = PyList_New(m->size);
    if (values == NULL) return NULL;
    for (Py_ssize_t i = 0; i < m->size; i++) {
        PyObject *v = m->is_int[i] ? PyLong_FromDouble(m->weights[i]) : PyFloat_FromDouble(m->weights[i]);
        if (v == NULL) {
            Py_DECREF(values);
            return NULL;
        }
        PyList_SET_ITEM(values, i, v);
    }
    PyObject *builtins = PyEval_GetBuiltins(); /* borrowed */
    PyObject *sum = builtins ? PyDict_GetItemString(builtins, "sum") : NULL;
    PyObject *total = sum ? PyObject_CallOneArg(sum, values) : NULL;
    Py_DECREF(values);
    if (total == NULL) return NULL;
    PyObject *as_float = PyNumber_Float(total);
    Py_DECREF(total);
    return as_float;
#endif
}

/* merge_terms(header: dict[str, int], counts: list[dict[str, int]], i: int, neighbours: int,
 *             weight: float, decay: bool) -> (tuple[str, ...], bytes, float)
 *
 * Chunk i's keyword terms: its header's and its text's counts, then each neighbour's (up to
 * `neighbours` away) times weight (or weight ** distance with decay); as the terms, their weights as
 * float32 bytes, and the float64 sum of the weights. */
static PyObject *merge_terms(PyObject *self, PyObject *args) {
    PyObject *header, *counts;
    Py_ssize_t i, neighbours;
    double weight;
    int decay;
    if (!PyArg_ParseTuple(args, "O!O!nndp:merge_terms", &PyDict_Type, &header, &PyList_Type, &counts, &i,
                          &neighbours, &weight, &decay))
        return NULL;
    Py_ssize_t n_chunks = PyList_GET_SIZE(counts);
    if (i < 0 || i >= n_chunks) {
        PyErr_SetString(PyExc_IndexError, "merge_terms: chunk index out of range");
        return NULL;
    }
    Merge m = {PyDict_New(), PyList_New(0), NULL, NULL, 0, 0};
    PyObject *result = NULL;
    if (m.index == NULL || m.terms == NULL) goto done;
    if (merge_counts(&m, header, 1.0, 1) < 0) goto done;
    if (merge_counts(&m, PyList_GET_ITEM(counts, i), 1.0, 1) < 0) goto done;
    if (neighbours > 0 && weight > 0) {
        Py_ssize_t lo = i - neighbours > 0 ? i - neighbours : 0;
        Py_ssize_t hi = i + neighbours + 1 < n_chunks ? i + neighbours + 1 : n_chunks;
        for (Py_ssize_t j = lo; j < hi; j++) {
            if (j == i) continue;
            Py_ssize_t away = j > i ? j - i : i - j;
            double share = decay ? pow(weight, (double)away) : weight;
            if (merge_counts(&m, PyList_GET_ITEM(counts, j), share, 0) < 0) goto done;
        }
    }
    PyObject *packed = PyBytes_FromStringAndSize(NULL, m.size * (Py_ssize_t)sizeof(float));
    if (packed == NULL) goto done;
    float *out = (float *)PyBytes_AS_STRING(packed);
    for (Py_ssize_t t = 0; t < m.size; t++) out[t] = (float)m.weights[t];
    PyObject *length = merge_length(&m);
    PyObject *terms = PyList_AsTuple(m.terms);
    if (length != NULL && terms != NULL) result = PyTuple_Pack(3, terms, packed, length);
    Py_XDECREF(length);
    Py_XDECREF(terms);
    Py_DECREF(packed);
done:
    Py_XDECREF(m.index);
    Py_XDECREF(m.terms);
    PyMem_Free(m.weights);
    PyMem_Free(m.is_int);
    return result;
}

/* The classes of Python's re for str patterns: \w is alnum or "_", \d is a decimal digit. */
static inline int is_word(Py_UCS4 ch) { return Py_UNICODE_ISALNUM(ch) || ch == '_'; }
static inline int is_word_start(Py_UCS4 ch) { return ch != '_' && Py_UNICODE_ISALNUM(ch); } /* [^\W_] */
static inline int is_letter(Py_UCS4 ch) { return is_word_start(ch) && !Py_UNICODE_ISDECIMAL(ch); } /* [^\W\d_] */
static inline int is_apostrophe(Py_UCS4 ch) { return ch == '\'' || ch == 0x2019; }
static inline int is_separator(Py_UCS4 ch) { /* [._\-:/@] */
    return ch == '.' || ch == '_' || ch == '-' || ch == ':' || ch == '/' || ch == '@';
}

/* A str argument, read code point by code point. */
typedef struct {
    PyObject *str;
    int kind;
    const void *data;
    Py_ssize_t n;
} Text;

static int text_of(PyObject *arg, const char *what, Text *text) {
    if (!PyUnicode_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "%s must be a str, not %.80s", what, Py_TYPE(arg)->tp_name);
        return -1;
    }
    if (PyUnicode_READY(arg) < 0) return -1;
    *text = (Text){arg, PyUnicode_KIND(arg), PyUnicode_DATA(arg), PyUnicode_GET_LENGTH(arg)};
    return 0;
}

static inline Py_UCS4 at(const Text *t, Py_ssize_t i) { return PyUnicode_READ(t->kind, t->data, i); }

/* Where a run of [\w'’] (or of [\w'’-]) starting at p ends. */
static Py_ssize_t name_end(const Text *t, Py_ssize_t p, int hyphens) {
    while (p < t->n) {
        Py_UCS4 c = at(t, p);
        if (!is_word(c) && !is_apostrophe(c) && !(hyphens && c == '-')) break;
        p++;
    }
    return p;
}

/* text[start:end] added to a set, or to a list. */
static int add_slice(PyObject *into, const Text *t, Py_ssize_t start, Py_ssize_t end) {
    PyObject *piece = PyUnicode_Substring(t->str, start, end);
    if (piece == NULL) return -1;
    int failed = PySet_Check(into) ? PySet_Add(into, piece) < 0 : PyList_Append(into, piece) < 0;
    Py_DECREF(piece);
    return failed ? -1 : 0;
}

static int add_casefolded(PyObject *into, PyObject *words) {
    PyObject *iter = PyObject_GetIter(words);
    if (iter == NULL) return -1;
    PyObject *word;
    while ((word = PyIter_Next(iter)) != NULL) {
        PyObject *folded = PyObject_CallMethod(word, "casefold", NULL);
        Py_DECREF(word);
        if (folded == NULL || PySet_Add(into, folded) < 0) {
            Py_XDECREF(folded);
            Py_DECREF(iter);
            return -1;
        }
        Py_DECREF(folded);
    }
    Py_DECREF(iter);
    return PyErr_Occurred() ? -1 : 0;
}

/* vocabulary_words(prose: str) -> (set[str], set[str])
 *
 * The two word scans of memsearch.entities.vocabulary, in one pass:
 *   the casefolded words of _WORD_RE ([^\W\d_][\w'’]*) that start in lower case, and
 *   the words of _MID_SENTENCE_WORD_RE ((?<=[\w,;)] )[^\W\d_][\w'’-]*) that start in upper case,
 *   as written (the caller cleans and casefolds these few).
 * Python's re reads those patterns with the same character classes as here (tests/test_speedups.py
 * compares them on every code point). */
static PyObject *vocabulary_words(PyObject *self, PyObject *arg) {
    Text t;
    if (text_of(arg, "vocabulary_words: prose", &t) < 0) return NULL;
    PyObject *lower_raw = PySet_New(NULL), *lower = PySet_New(NULL), *mid = PySet_New(NULL);
    PyObject *result = NULL;
    if (lower_raw == NULL || lower == NULL || mid == NULL) goto done;
    /* _WORD_RE: a word starts at any letter outside the last word and runs over \w and apostrophes. */
    for (Py_ssize_t i = 0; i < t.n;) {
        Py_UCS4 ch = at(&t, i);
        if (!is_letter(ch)) {
            i++;
            continue;
        }
        Py_ssize_t end = name_end(&t, i + 1, 0);
        if (Py_UNICODE_ISLOWER(ch) && add_slice(lower_raw, &t, i, end) < 0) goto done;
        i = end;
    }
    /* _MID_SENTENCE_WORD_RE: the same letters, right after a word character (or , ; or ")") and
     * one space; it runs over hyphens too. */
    for (Py_ssize_t i = 2; i < t.n;) {
        Py_UCS4 ch = at(&t, i), before = at(&t, i - 2);
        if (!is_letter(ch) || at(&t, i - 1) != ' ' ||
            !(is_word(before) || before == ',' || before == ';' || before == ')')) {
            i++;
            continue;
        }
        Py_ssize_t end = name_end(&t, i + 1, 1);
        if (Py_UNICODE_ISUPPER(ch) && add_slice(mid, &t, i, end) < 0) goto done;
        i = end;
    }
    if (add_casefolded(lower, lower_raw) < 0) goto done;
    result = PyTuple_Pack(2, lower, mid);
done:
    Py_XDECREF(lower_raw);
    Py_XDECREF(lower);
    Py_XDECREF(mid);
    return result;
}

/* memsearch.tokenize.MAX_TOKEN_CHARS: the longest raw token kept (tests/test_speedups.py checks). */
#define MAX_TOKEN_CHARS 64

/* memsearch.tokenize.NGRAM_RANGES: the scripts written without spaces (Thai, kana, Han), whose runs
 * are cut into character bigrams; inclusive, ascending (tests/test_speedups.py compares them). */
static const Py_UCS4 NGRAM_RANGES[][2] = {
    {0x0E01, 0x0E3A}, {0x0E40, 0x0E4E}, {0x0E50, 0x0E59}, {0x3005, 0x3007}, {0x3021, 0x3029},
    {0x3041, 0x3096}, {0x3099, 0x309F}, {0x30A1, 0x30FA}, {0x30FC, 0x30FF}, {0x31F0, 0x31FF},
    {0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0xF900, 0xFAFF}, {0xFF66, 0xFF9F}, {0x20000, 0x323AF},
};
#define N_NGRAM_RANGES ((Py_ssize_t)(sizeof NGRAM_RANGES / sizeof NGRAM_RANGES[0]))

static inline int is_ngram(Py_UCS4 ch) {
    if (ch < 0x0E01) return 0; /* all of Latin, Greek, Cyrillic, ...: one comparison */
    for (Py_ssize_t r = 0; r < N_NGRAM_RANGES && ch >= NGRAM_RANGES[r][0]; r++)
        if (ch <= NGRAM_RANGES[r][1]) return 1;
    return 0;
}

/* A word character of a compound token: \w but not of an unspaced script. */
static inline int is_token_word(Py_UCS4 ch) { return is_word(ch) && !is_ngram(ch); }

static Py_ssize_t token_word_end(const Text *t, Py_ssize_t p) {
    while (p < t->n && is_token_word(at(t, p))) p++;
    return p;
}

/* The bigrams of the run text[start:end] of n-gram characters (the character itself for a run of
 * one), counted. */
static int add_ngrams(PyObject *counts, const Text *t, Py_ssize_t start, Py_ssize_t end) {
    Py_ssize_t width = end - start == 1 ? 1 : 2;
    for (Py_ssize_t k = start; k + width <= end; k++) {
        PyObject *gram = PyUnicode_Substring(t->str, k, k + width);
        if (gram == NULL) return -1;
        int failed = add_count(counts, gram, 1) < 0;
        Py_DECREF(gram);
        if (failed) return -1;
    }
    return 0;
}

/* raw_token_counts(text: str) -> dict[str, int]
 *
 * Counter(memsearch.tokenize.raw_tokens(text)) as a plain dict, first-seen order: the tokens of
 * [#@]?W+(?:[._\-:/@]W+)*(?:\(\)|\+\+[0-9]*|#(?!\w))? (W: \w but no n-gram character) found left
 * to right, each cut to MAX_TOKEN_CHARS, and each run of n-gram characters as its bigrams. */
static PyObject *raw_token_counts(PyObject *self, PyObject *arg) {
    Text t;
    if (text_of(arg, "raw_token_counts: text", &t) < 0) return NULL;
    PyObject *counts = PyDict_New();
    if (counts == NULL) return NULL;
    for (Py_ssize_t i = 0; i < t.n;) {
        Py_UCS4 ch = at(&t, i);
        Py_ssize_t p;
        if ((ch == '#' || ch == '@') && i + 1 < t.n && is_token_word(at(&t, i + 1))) {
            p = i + 1;
        } else if (is_token_word(ch)) {
            p = i;
        } else if (is_ngram(ch)) {
            p = i + 1;
            while (p < t.n && is_ngram(at(&t, p))) p++;
            if (add_ngrams(counts, &t, i, p) < 0) goto fail;
            i = p;
            continue;
        } else {
            i++;
            continue;
        }
        p = token_word_end(&t, p);
        while (p + 1 < t.n && is_separator(at(&t, p)) && is_token_word(at(&t, p + 1)))
            p = token_word_end(&t, p + 1);
        if (p + 1 < t.n && at(&t, p) == '(' && at(&t, p + 1) == ')') {
            p += 2;
        } else if (p + 1 < t.n && at(&t, p) == '+' && at(&t, p + 1) == '+') { /* "C++", "C++17" */
            p += 2;
            while (p < t.n && at(&t, p) >= '0' && at(&t, p) <= '9') p++;
        } else if (p < t.n && at(&t, p) == '#' && (p + 1 >= t.n || !is_word(at(&t, p + 1)))) { /* "C#" */
            p += 1;
        }
        PyObject *token = PyUnicode_Substring(t.str, i, p - i > MAX_TOKEN_CHARS ? i + MAX_TOKEN_CHARS : p);
        if (token == NULL) goto fail;
        int failed = add_count(counts, token, 1) < 0;
        Py_DECREF(token);
        if (failed) goto fail;
        i = p;
    }
    return counts;
fail:
    Py_DECREF(counts);
    return NULL;
}

/* split_words(line: str) -> list[str]
 *
 * memsearch.entities.extract.TOKEN_SPLIT_RE.split(line): [gap, word, gap, ..., word, gap], the words
 * those of [^\W_][\w'’]*(?:-[^\W_][\w'’]*)*. */
static PyObject *split_words(PyObject *self, PyObject *arg) {
    Text t;
    if (text_of(arg, "split_words: line", &t) < 0) return NULL;
    PyObject *parts = PyList_New(0);
    if (parts == NULL) return NULL;
    Py_ssize_t gap = 0; /* where the text since the last word began */
    for (Py_ssize_t i = 0; i < t.n;) {
        if (!is_word_start(at(&t, i))) {
            i++;
            continue;
        }
        Py_ssize_t p = name_end(&t, i + 1, 0);
        while (p + 1 < t.n && at(&t, p) == '-' && is_word_start(at(&t, p + 1))) p = name_end(&t, p + 2, 0);
        if (add_slice(parts, &t, gap, i) < 0 || add_slice(parts, &t, i, p) < 0) goto fail;
        gap = i = p;
    }
    if (add_slice(parts, &t, gap, t.n) < 0) goto fail;
    return parts;
fail:
    Py_DECREF(parts);
    return NULL;
}

static PyMethodDef methods[] = {
    {"count_terms", count_terms, METH_VARARGS, "Term counts from counted raw tokens (see tokenize.term_counts)."},
    {"merge_terms", merge_terms, METH_VARARGS, "A chunk's packed keyword terms with its neighbours' context."},
    {"vocabulary_words", vocabulary_words, METH_O, "The word scans of entities.vocabulary."},
    {"raw_token_counts", raw_token_counts, METH_O, "Counter(tokenize._TOKEN.findall(text)) as a dict."},
    {"split_words", split_words, METH_O, "entities.extract.TOKEN_SPLIT_RE.split(line)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_speedups", NULL, -1, methods};

PyMODINIT_FUNC PyInit__speedups(void) {
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddIntConstant(m, "MAX_TOKEN_CHARS", MAX_TOKEN_CHARS) < 0) Py_CLEAR(m);
    return m;
}
