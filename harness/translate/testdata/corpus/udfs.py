"""Everyday PySpark UDFs for udfx's corpus; manifest.tsv says what each
should become."""
import datetime
import math
import re

from pyspark.sql.functions import udf

TAX = 0.2
DEFAULT_NAME = "unknown"
SCALE = 100


@udf("string")
def clean_name(s: str) -> str:
    if s is None or s == "":
        return DEFAULT_NAME
    return s


@udf("boolean")
def has_prefix(s: str) -> bool:
    return s is not None and s.startswith("x")


@udf("double")
def with_tax(price: float) -> float:
    if price is None:
        return None
    return price * (1 + TAX)


@udf("double")
def c_to_f(c: float) -> float:
    if c is None:
        return None
    return c * 9 / 5 + 32


@udf("double")
def wrap_angle(deg: float) -> float:
    if deg is None:
        return None
    return deg % 360.0


@udf("bigint")
def bucket(n: int) -> int:
    if n is None:
        return None
    return n // 10


@udf("bigint")
def day_of_cycle(n: int) -> int:
    if n is None:
        return -1
    return n % 7


@udf("bigint")
def neg_mod(n: int) -> int:
    if n is None:
        return None
    return n % -3


@udf("string")
def greet(name: str) -> str:
    if name is None:
        return None
    return "Hello, " + name


@udf("int")
def name_len(s: str) -> int:
    if s is None:
        return 0
    return len(s)


@udf("boolean")
def is_yes(s: str) -> bool:
    return s == "Y" or s == "yes"


@udf("boolean")
def has_at(s: str) -> bool:
    if s is None:
        return False
    return "@" in s


@udf("string")
def size_label(n: int) -> str:
    if n is None:
        return "none"
    if n > SCALE:
        return "large"
    return "small"


@udf("double")
def safe_ratio(a: float, b: float) -> float:
    if a is None or b is None or b == 0.0:
        return None
    return a / b


@udf("double")
def clamp(x: float) -> float:
    if x is None:
        return None
    if x < 0.0:
        return 0.0
    if x > 1.0:
        return 1.0
    return x


@udf("string")
def grade(score: float) -> str:
    if score is None:
        return None
    if score >= 90.0:
        return "A"
    elif score >= 80.0:
        return "B"
    return "C"


@udf("double")
def no_check(x: float) -> float:
    return x * 2.0


@udf("bigint")
def to_int(x: float) -> int:
    if x is None:
        return None
    return int(x)


@udf("bigint")
def rounded(x: float) -> int:
    if x is None:
        return None
    return round(x)


@udf("string")
def upper(s: str) -> str:
    if s is None:
        return None
    return s.upper()


@udf("double")
def root(x: float) -> float:
    if x is None:
        return None
    return math.sqrt(x)


@udf("bigint")
def add_one(n: int) -> int:
    if n is None:
        return None
    return n + 1


@udf("int")
def word_count(s: str) -> int:
    if s is None:
        return 0
    return len(s.split())


@udf("double")
def or_zero(x: float) -> float:
    return x if x is not None else 0.0


@udf("boolean")
def is_even(n: int) -> bool:
    if n is None:
        return None
    return n % 2 == 0


@udf("boolean")
def ends_com(s: str) -> bool:
    if s is None:
        return False
    return s.endswith(".com")


@udf("string")
def full_name(first: str, last: str) -> str:
    if first is None or last is None:
        return None
    return first + " " + last


@udf("boolean")
def no_dash(s: str) -> bool:
    if s is None:
        return None
    return "-" not in s


@udf("boolean")
def long_word(s: str) -> bool:
    if s is None:
        return False
    return len(s) > 3


@udf("string")
def temp_label(t: float) -> str:
    if t is None:
        return "n/a"
    elif t < 0.0:
        return "freezing"
    elif t < 20.0:
        return "cold"
    else:
        return "warm"


@udf("double")
def km_to_miles(km: float) -> float:
    if km is None:
        return None
    return km / 1.609344


@udf("double")
def abs_diff(a: float, b: float) -> float:
    if a is None or b is None:
        return None
    return abs(a - b)


@udf("bigint")
def minutes(seconds: int) -> int:
    if seconds is None:
        return None
    return seconds // 60 % 60


@udf("string")
def status(code: str) -> str:
    if code == "A":
        return "active"
    if code == "I":
        return "inactive"
    return "other"


@udf("boolean")
def truthy(s: str) -> bool:
    if not s:
        return False
    return True


@udf("double")
def floor_div(x: float) -> float:
    if x is None:
        return None
    return x // 10.0


@udf("string")
def strip_it(s: str) -> str:
    if s is None:
        return None
    return s.strip()


@udf("double")
def power(x: float) -> float:
    if x is None:
        return None
    return x ** 2


@udf("string")
def first_field(s: str) -> str:
    if s is None:
        return None
    return s.split(",")[0]


@udf("string")
def last_part(path: str) -> str:
    if path is None:
        return None
    return path.split("/")[-1]


@udf("int")
def field_count(s: str) -> int:
    if s is None:
        return 0
    return len(s.split(";"))


@udf("string")
def second_field(s: str) -> str:
    if s is None:
        return None
    return s.split(",")[1]


@udf("string")
def split_dot(s: str) -> str:
    if s is None:
        return None
    return s.split(".")[0]


@udf("string")
def domain(email: str) -> str:
    if email is None or "@" not in email:
        return None
    return email.split("@")[1]


@udf("double")
def positive_part(x: float) -> float:
    if x is None:
        return None
    return x if x > 0.0 else 0.0


@udf("double")
def parse_price(s: str) -> float:
    try:
        return float(s)
    except (ValueError, TypeError):
        return None


@udf("bigint")
def parse_qty(s: str) -> int:
    try:
        return int(s)
    except ValueError:
        return 0


@udf("string")
def mask_card(s: str) -> str:
    if not s:
        return s
    return "****" + s[-4:]


@udf("string")
def order_month(d: datetime.date) -> str:
    if d is None:
        return None
    return d.isoformat()[:7]


@udf("string")
def month_label(d: datetime.date) -> str:
    if d is None:
        return None
    return f"{d.year}-{d.month:02d}"


@udf("string")
def phone_digits(s: str) -> str:
    if s is None:
        return None
    return re.sub(r"\D", "", s)


@udf("string")
def collapse_spaces(s: str) -> str:
    if s is None:
        return None
    return re.sub(r"\s+", " ", s.strip())


@udf("string")
def strip_tags(s: str) -> str:
    if s is None:
        return None
    return re.sub(r"<[^>]*>", "", s)


@udf("string")
def email_key(email: str) -> str:
    # str.lower() with final sigma: "ΟΔΟΣ@x.gr" keeps its final ς.
    if email is None:
        return None
    return email.strip().lower()


@udf("boolean")
def is_active(status: str) -> bool:
    return status is not None and status.upper() in ("ACTIVE", "ENABLED")


@udf("string")
def title_name(name: str) -> str:
    if name is None:
        return None
    return name.title()


# Helpers: the UDF calls a function of the module, which udfx inlines.
def _bucket_label(n):
    if n is None:
        return "none"
    if n < 10:
        return "small"
    return "large"


@udf("string")
def size_bucket(n: int) -> str:
    return _bucket_label(n)


def _normalize(code, default="NA"):
    return code.strip().upper() if code else default


@udf("string")
def region_code(code: str) -> str:
    return _normalize(code)


def _half(x):
    return x / 2.0


@udf("double")
def half_of_sum(a: float, b: float) -> float:
    return _half(a + b)


# Lookups in a dict of literals.
STATUS_NAMES = {"A": "active", "I": "inactive", "P": "pending"}


@udf("string")
def status_name(code: str) -> str:
    return STATUS_NAMES.get(code, "unknown")


@udf("string")
def priority_label(p: int) -> str:
    labels = {1: "critical", 2: "high", 3: "normal"}
    return labels.get(p)


@udf("boolean")
def known_status(code: str) -> bool:
    return code in STATUS_NAMES


@udf("string")
def status_strict(code: str) -> str:
    return STATUS_NAMES[code]


# min and max: the first argument wins among equals; a NaN only first.
@udf("bigint")
def capped(n: int) -> int:
    if n is None:
        return None
    return min(n, 10)


@udf("double")
def at_least_zero(x: float) -> float:
    if x is None:
        return None
    return max(x, 0.0)


# A local list of str.split's fields.
@udf("string")
def second_segment(path: str) -> str:
    if path is None or not path.startswith("/"):
        return None
    parts = path.split("/")
    return parts[2] if len(parts) > 2 else ""


# A range test written as Python chains it.
@udf("boolean")
def party_size_ok(n: int) -> bool:
    if n is None:
        return False
    return 1 <= n <= 8


# Bytes to kilobytes: CPython converts the int with float().
@udf("double")
def kilobytes(b: int) -> float:
    if b is None:
        return None
    return b / 1024.0


# A length bucket: // and * stay within the range of a length.
@udf("bigint")
def length_bucket(s: str) -> int:
    if s is None:
        return None
    return (len(s) // 10) * 10


# Words of a free-text field: str.split() splits on runs of whitespace.
@udf("int")
def word_total(text: str) -> int:
    if not text:
        return 0
    return len(text.split())


@udf("string")
def first_word(s: str) -> str:
    if s is None or not s.strip():
        return None
    return s.split()[0]


# A five-digit code; isdigit also takes other scripts' digits and ².
@udf("boolean")
def is_zip5(s: str) -> bool:
    return s is not None and len(s) == 5 and s.isdigit()


# Epoch milliseconds to a UTC day and time, as event pipelines print them.
@udf("string")
def event_time(ms: int) -> str:
    if ms is None:
        return None
    return datetime.datetime.utcfromtimestamp(ms / 1000).strftime("%Y-%m-%d %H:%M:%S")


# A zero-padded key, as shard and file names are built.
@udf("string")
def shard_key(n: int) -> str:
    if n is None:
        return None
    return f"shard-{n:05d}"


# Pages of a given size: CPython floors, and a zero size raises.
@udf("bigint")
def page_of(position: int, page_size: int) -> int:
    if position is None or page_size is None:
        return None
    return position % page_size


# The number after the dash of an order id, -1 where there is none: the
# except catches None's AttributeError, a missing field's IndexError and
# int()'s ValueError.
@udf("bigint")
def order_seq(order_id: str) -> int:
    try:
        return int(order_id.split("-")[1])
    except (IndexError, ValueError, AttributeError):
        return -1


# A region code lower-cased, None kept by catching what None raises.
@udf("string")
def region_key(region: str) -> str:
    try:
        return region.strip().lower()
    except AttributeError:
        return None


# Money rounded to cents as Python rounds it: the binary value decides.
@udf("double")
def to_cents(x: float) -> float:
    if x is None:
        return None
    return round(x, 2)


# A US date without separators (MMDDYYYY) as ISO, None where it is no date.
@udf("string")
def us_day_iso(s: str) -> str:
    try:
        return datetime.datetime.strptime(s, "%m%d%Y").strftime("%Y-%m-%d")
    except (ValueError, TypeError):
        return None


# The day's name and date as a report prints them ("Mon 01 Jan 2024").
@udf("string")
def day_label(d: datetime.date) -> str:
    if d is None:
        return None
    return d.strftime("%a %d %b %Y")
