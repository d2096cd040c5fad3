"""White space and trimming as JavaScript has them, shared by every area whose clauses trim: the
published implementations are JavaScript, so "white space" in the catalogue is ECMAScript's set
(ENV-TRIM-JS), never Python's ``str.isspace``."""

from __future__ import annotations

#: ECMAScript's WhiteSpace and LineTerminator code points, what ``String.prototype.trim`` removes
#: and ``\s`` matches: tab, LF, VT, FF, CR, space, U+00A0, U+FEFF, the ``Zs`` spaces (U+1680,
#: U+2000..U+200A, U+202F, U+205F, U+3000), U+2028 and U+2029. Python's ``str.strip()`` removes
#: U+001C..U+001F and U+0085 besides, and keeps U+FEFF.
JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def js_trim(text: str) -> str:
    """``text`` without leading and trailing :data:`JS_WHITESPACE`, as JavaScript's
    ``String.prototype.trim`` gives it (ENV-TRIM-JS; PI-PKG-SOURCE-TRIM, PI-MODELS-VALUE-COMMAND,
    PI-TPL-BODY-TRIM, PROF-PICKER-FILTER and PROF-SETTINGS-PARSE trim so too). Other characters
    are kept, U+0085 and U+001C..U+001F among them."""
    start, end = 0, len(text)
    while start < end and text[start] in JS_WHITESPACE:
        start += 1
    while end > start and text[end - 1] in JS_WHITESPACE:
        end -= 1
    return text[start:end]
