RAW = "s3://acme-shop/raw/prices/"
CURATED = "s3://acme-shop/curated/prices/"
