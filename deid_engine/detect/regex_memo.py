"""The ``regex`` module with faster module-level functions, for the rule modules.

``regex.match(pattern, string)`` and its siblings look their compiled pattern up in regex's
own cache through Python code with flag-enum arithmetic: ~3.5 us a call, against ~0.3 us for
the compiled pattern's method. The rules make ~30,000 such calls per 1,600 notes. Here the
same functions keep the compiled patterns in a plain dict keyed by (pattern, flags), then
call the compiled pattern's method with the same arguments: the results are the ones
``regex`` gives (``regex.compile`` does the compiling). Calls with extra keyword arguments
(named lists), ``ignore_unused``, or the LOCALE or DEBUG flags go to ``regex`` itself.
``compile`` is ``deid_engine.rxcache.compile``: ``regex.compile``'s result, rebuilt from the
compiled code stored at an earlier start when there is one. Everything else of ``regex``
(``escape``, flags, ``Pattern``) is re-exported.

Use: ``from . import regex_memo as regex`` in place of ``import regex``.
"""

from __future__ import annotations

import regex as _regex

from ..rxcache import compile  # noqa: A001 - regex.compile, rebuilt from a stored compiled code when there is one

globals().update({k: getattr(_regex, k) for k in dir(_regex) if not k.startswith("_")
                  and k not in ("match", "fullmatch", "search", "split", "findall", "finditer", "sub", "subn",
                                "compile")})

_CACHE: dict = {}
_MAX = 4096  # distinct (pattern, flags); cleared when full (dynamic patterns cannot grow it without bound)
_SLOW_FLAGS = int(_regex.LOCALE | _regex.DEBUG)


def _compiled(pattern, flags):
    key = (type(pattern), pattern, flags)
    p = _CACHE.get(key)
    if p is None:
        if len(_CACHE) >= _MAX:
            _CACHE.clear()
        p = _CACHE[key] = compile(pattern, flags)
    return p


def match(pattern, string, flags=0, pos=None, endpos=None, partial=False, concurrent=None, timeout=None,
          ignore_unused=False, **kwargs):
    flags = int(flags)  # RegexFlag members: plain int keys and arithmetic
    if kwargs or ignore_unused or flags & _SLOW_FLAGS:
        return _regex.match(pattern, string, flags, pos, endpos, partial, concurrent, timeout, ignore_unused, **kwargs)
    return _compiled(pattern, flags).match(string, pos, endpos, concurrent, partial, timeout)


def fullmatch(pattern, string, flags=0, pos=None, endpos=None, partial=False, concurrent=None, timeout=None,
              ignore_unused=False, **kwargs):
    flags = int(flags)  # RegexFlag members: plain int keys and arithmetic
    if kwargs or ignore_unused or flags & _SLOW_FLAGS:
        return _regex.fullmatch(pattern, string, flags, pos, endpos, partial, concurrent, timeout, ignore_unused,
                                **kwargs)
    return _compiled(pattern, flags).fullmatch(string, pos, endpos, concurrent, partial, timeout)


def search(pattern, string, flags=0, pos=None, endpos=None, partial=False, concurrent=None, timeout=None,
           ignore_unused=False, **kwargs):
    flags = int(flags)  # RegexFlag members: plain int keys and arithmetic
    if kwargs or ignore_unused or flags & _SLOW_FLAGS:
        return _regex.search(pattern, string, flags, pos, endpos, partial, concurrent, timeout, ignore_unused, **kwargs)
    return _compiled(pattern, flags).search(string, pos, endpos, concurrent, partial, timeout)


def split(pattern, string, maxsplit=0, flags=0, concurrent=None, timeout=None, ignore_unused=False, **kwargs):
    flags = int(flags)  # RegexFlag members: plain int keys and arithmetic
    if kwargs or ignore_unused or flags & _SLOW_FLAGS:
        return _regex.split(pattern, string, maxsplit, flags, concurrent, timeout, ignore_unused, **kwargs)
    return _compiled(pattern, flags).split(string, maxsplit, concurrent, timeout)


def findall(pattern, string, flags=0, pos=None, endpos=None, overlapped=False, concurrent=None, timeout=None,
            ignore_unused=False, **kwargs):
    flags = int(flags)  # RegexFlag members: plain int keys and arithmetic
    if kwargs or ignore_unused or flags & _SLOW_FLAGS:
        return _regex.findall(pattern, string, flags, pos, endpos, overlapped, concurrent, timeout, ignore_unused,
                              **kwargs)
    return _compiled(pattern, flags).findall(string, pos, endpos, overlapped, concurrent, timeout)


def finditer(pattern, string, flags=0, pos=None, endpos=None, overlapped=False, partial=False, concurrent=None,
             timeout=None, ignore_unused=False, **kwargs):
    flags = int(flags)  # RegexFlag members: plain int keys and arithmetic
    if kwargs or ignore_unused or flags & _SLOW_FLAGS:
        return _regex.finditer(pattern, string, flags, pos, endpos, overlapped, partial, concurrent, timeout,
                               ignore_unused, **kwargs)
    return _compiled(pattern, flags).finditer(string, pos, endpos, overlapped, concurrent, partial, timeout)


def sub(pattern, repl, string, count=0, flags=0, pos=None, endpos=None, concurrent=None, timeout=None,
        ignore_unused=False, **kwargs):
    flags = int(flags)  # RegexFlag members: plain int keys and arithmetic
    if kwargs or ignore_unused or flags & _SLOW_FLAGS:
        return _regex.sub(pattern, repl, string, count, flags, pos, endpos, concurrent, timeout, ignore_unused,
                          **kwargs)
    return _compiled(pattern, flags).sub(repl, string, count, pos, endpos, concurrent, timeout)


def subn(pattern, repl, string, count=0, flags=0, pos=None, endpos=None, concurrent=None, timeout=None,
         ignore_unused=False, **kwargs):
    flags = int(flags)  # RegexFlag members: plain int keys and arithmetic
    if kwargs or ignore_unused or flags & _SLOW_FLAGS:
        return _regex.subn(pattern, repl, string, count, flags, pos, endpos, concurrent, timeout, ignore_unused,
                           **kwargs)
    return _compiled(pattern, flags).subn(repl, string, count, pos, endpos, concurrent, timeout)
