"""Contact cleanup: validate emails, zips and phones, mask PII, split tags."""
import re

from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import ArrayType, BooleanType, StringType

spark = SparkSession.builder.appName("contact-cleanup").getOrCreate()

EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$")
US_ZIP = r"\d{5}$"

contacts = spark.read.schema(
    "contact_id bigint, email string, phone string, zip string, tags string, handle string"
).json("s3://crm-exports/contacts/")


@F.udf(returnType=BooleanType())
def is_valid_email(email):
    return email is not None and EMAIL_RE.match(email) is not None


@F.udf(BooleanType())
def has_us_zip(zip_code):
    if not zip_code:
        return False
    return bool(re.match(US_ZIP, zip_code))


@F.udf(StringType())
def mask_email(email):
    if email is None:
        return None
    user, domain = email.split("@")
    return user[0] + "***@" + domain


@F.udf(ArrayType(StringType()))
def tag_list(tags):
    return tags.split(",") if tags else []


@F.udf(returnType=StringType())
def phone_kind(phone):
    if phone is None:
        return "missing"
    if re.fullmatch(r"\+?1?\d{10}", phone):
        return "us"
    if re.search(r"[a-zA-Z]", phone):
        return "invalid"
    return "other"


@F.udf(BooleanType())
def looks_like_handle(handle):
    return handle is not None and re.match(r"@\w+", handle) is not None


cleaned = (
    contacts.withColumn("email_ok", is_valid_email("email"))
    .withColumn("zip_ok", has_us_zip(F.col("zip")))
    .withColumn("masked_email", mask_email(F.col("email")))
    .withColumn("tag_list", tag_list("tags"))
    .withColumn("phone_kind", phone_kind("phone"))
    .withColumn("handle_ok", looks_like_handle("handle"))
)
cleaned.write.mode("overwrite").parquet("s3://crm-exports/contacts_clean/")
