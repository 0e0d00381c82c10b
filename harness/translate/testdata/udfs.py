"""Small UDFs the translator's tests run in CPython against their rewrites."""
import datetime
import math
import re

from pyspark.sql.functions import udf


@udf("double")
def scale(x: float) -> float:
    if x is None:
        return None
    y = -x * 2 + 0.5
    return y / 3.0 if y > 1.0 and not x == 7.0 else abs(y) - x / 4


@udf("double")
def ratio(a: float, b: float) -> float:
    if a is None or b is None:
        return None
    return a / b


@udf("boolean")
def positive(x: float) -> bool:
    if x is not None:
        return x > 0.0
    return None


@udf("double")
def raw(x: float) -> float:
    return x + 1.0


@udf("double")
def pymod(x: float) -> float:
    if x is None:
        return None
    return x % 2.0


@udf("double")
def root(x: float) -> float:
    if x is None:
        return None
    return math.sqrt(x)


@udf("double")
def whole(x: float) -> float:
    """Returns an int for a double column: PySpark makes that NULL."""
    if x is None:
        return None
    return int(x)


@udf("boolean")
def is_one(x: float) -> bool:
    # None == 1.0 is False in CPython, not an error: not a raise.
    return x == 1.0


@udf("boolean")
def above_one(x: float) -> bool:
    # None > 1.0 raises TypeError.
    return x > 1.0


@udf("string")
def or_default(s: str) -> str:
    return s or "unknown"


@udf("string")
def blank_to_none(s: str) -> str:
    if not s:
        return None
    return s


@udf("boolean")
def nonzero(x: float) -> bool:
    return bool(x) if x is not None else False


@udf("string")
def sign_word(n: int) -> str:
    if n:
        return "nonzero"
    return "zero"


@udf("double")
def first_or_second(a: float, b: float) -> float:
    return a and b


@udf("string")
def clean(s: str) -> str:
    # No None check: s.strip() on None raises AttributeError.
    return s.strip()


@udf("string")
def strip_marks(s: str) -> str:
    if s is None:
        return None
    return s.strip("-_ ").lstrip("#").rstrip(".")


@udf("boolean")
def blank(s: str) -> bool:
    return s is None or not s.strip()


@udf("bigint")
def floor_it(x: float) -> int:
    return math.floor(x) if x is not None else None


@udf("bigint")
def ceil_it(x: float) -> int:
    # No None check: math.ceil(None) raises TypeError.
    return math.ceil(x)


@udf("bigint")
def int_plus(x: float) -> int:
    # Python goes on with the unbounded int: int(1e20) // 10**10 fits.
    return int(x) // 10


@udf("string")
def label(name: str, n: int) -> str:
    # None prints as None, ints in decimal, {{ }} are braces.
    return f"{name}#{n} {{ok}}"


@udf("string")
def tier(code: str) -> str:
    if code in ("A", "B"):
        return "top"
    if code not in ["C"]:
        return "other"
    return str(len(code))


@udf("boolean")
def small_id(n: int) -> bool:
    return n in (1, 2, 3)


@udf("string")
def dashes(s: str) -> str:
    return s.replace("-", "") if s else ""


@udf("string")
def mask(s: str) -> str:
    if not s:
        return s
    return s[:2] + "***" + s[-2:]


@udf("string")
def slices(s: str) -> str:
    if s is None:
        return None
    return f"{s[1:3]}|{s[:-1]}|{s[2:]}|{s[-3:-1]}|{s[:]}|{s[3:1]}|{s[1:-2]}"


@udf("string")
def initial(s: str) -> str:
    # IndexError on "", TypeError on None.
    return s[0] + s[-1]


@udf("string")
def date_key(d: datetime.date) -> str:
    if d is None:
        return None
    return f"{d.year}-{d.month}-{d.day}|{d.weekday()}|{d.isoweekday()}|{d.isoformat()}"


@udf("int")
def days_apart(a: datetime.date, b: datetime.date) -> int:
    # No None check: None - date raises TypeError.
    return (a - b).days


@udf("int")
def year_of(d: datetime.date) -> int:
    return d.year


@udf("int")
def yyyymm(d: datetime.date) -> int:
    return d.year * 100 + d.month if d is not None else None


@udf("bigint")
def padded_len(s: str) -> int:
    return len(s) * 2 - 1 if s else 0


@udf("int")
def squared_len(s: str) -> int:
    # Beyond INT for long strings: PySpark keeps the low 32 bits.
    return len(s) * 300000 if s is not None else -1


@udf("bigint")
def plus_one(n: int) -> int:
    # n is a bigint: n + 1 may not fit, where Python's int does; PySpark
    # then stores NULL.
    return n + 1


@udf("double")
def price(s: str) -> float:
    try:
        return float(s)
    except ValueError:
        # float(None) raises TypeError, which this does not catch.
        return -1.0


@udf("double")
def price_or_none(s: str) -> float:
    try:
        v = float(s)
    except (ValueError, TypeError):
        v = None
    return v * 100.0 if v is not None else None


@udf("string")
def digits_only(s: str) -> str:
    if s is None:
        return None
    return re.sub(r"[^0-9]", "", s)


@udf("string")
def squash_ws(s: str) -> str:
    # \s is Unicode whitespace and \d Unicode digits in Python.
    return re.sub(r"\s+", " ", s).strip() if s else s


@udf("string")
def redact(s: str) -> str:
    # No None check: re.sub on None raises TypeError.
    return re.sub(r"\d{3,}", "#", re.sub("a.c", "$", s))


@udf("string")
def alt(s: str) -> str:
    return re.sub("a|b*", "-", s) if s is not None else None


@udf("string")
def no_word(s: str) -> str:
    return re.sub(r"\W", "", s) if s is not None else None


@udf("bigint")
def qty(s: str) -> int:
    try:
        return int(s)
    except (ValueError, TypeError):
        return 0


@udf("string")
def shout(s: str) -> str:
    # No None check: AttributeError on None, in the rewrite too.
    return s.upper()


@udf("string")
def norm_key(s: str) -> str:
    # Final sigma: "ΟΔΟΣ" is "οδος" with a final ς.
    return s.strip().lower() if s else ""


@udf("bigint")
def ticket_no(s: str) -> int:
    # None (AttributeError), no "-" (IndexError) and a field that is no
    # int (ValueError) all give -1.
    try:
        return int(s.split("-")[1])
    except (IndexError, ValueError, AttributeError):
        return -1


@udf("string")
def last_field(s: str) -> str:
    # LookupError catches IndexError; None is not caught: AttributeError.
    try:
        return s.split(",")[-1].strip()
    except LookupError:
        return "?"


@udf("string")
def lower_or_none(s: str) -> str:
    try:
        return s.lower()
    except AttributeError:
        return None


@udf("string")
def second_field(s: str) -> str:
    # Only ValueError is caught, which nothing raises: the IndexError
    # goes through.
    try:
        return s.split(",")[1]
    except ValueError:
        return ""
